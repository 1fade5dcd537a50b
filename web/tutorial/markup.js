// The markup of the chapter's blocks — headings, paragraphs, claim sentences, formulas, demo and lab
// slots — written as HTML text at build time (web/site/build-plugin.js) from the chapter's outline
// (outline.js). Every word is a message key (data-i18n) that chapter.js fills in the reader's
// language; a claim (a key with ".claim.") is filled with what its check measures (claims.js). No DOM:
// this runs in Node.

const escape = (text) =>
  String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** A block that needs its section's id (demo and lab slots) is a function of it; others are text. */
const inSection = (id, block) => (typeof block === 'function' ? block(id) : block);
const indent = (lines, by) => lines.join('\n').replace(/^/gm, by);

/** A claim sentence; it continues the sentence before it (data-i18n-gap) unless it opens its paragraph. */
const claim = (key, continues) => `<span${continues ? ' data-i18n-gap' : ''} data-claim data-i18n="${key}"></span>`;

/** Element `tag` holding message `key`, followed by the claims that finish its paragraph. */
function withClaims(tag, key, claims) {
  if (!claims.length) return `<${tag} data-i18n="${key}"></${tag}>`;
  return `<${tag}><span data-i18n="${key}"></span>${claims.map((c) => claim(c, true)).join('')}</${tag}>`;
}

/** A section of the chapter: its title (message `<id>.title`) and its blocks in reading order. */
export function section(id, ...blocks) {
  const body = [`<h2 data-i18n="${id}.title"></h2>`, ...blocks.map((block) => inSection(id, block))];
  return { id, html: `<section id="${id}" class="chapter-section">\n${indent(body, '  ')}\n</section>` };
}

/** A sub-heading. */
export const h = (key) => `<h3 data-i18n="${key}"></h3>`;

/** A paragraph: message `key`, then the claim sentences (keys) that follow it. */
export const p = (key, ...claims) => withClaims('p', key, claims);

/** A paragraph made of claim sentences only. */
export const claims = (first, ...rest) => `<p>${claim(first, false)}${rest.map((c) => claim(c, true)).join('')}</p>`;

/** A display formula: tex`…` holds TeX as written (backslashes kept), typeset by KaTeX on the page. */
export const tex = (strings, ...values) =>
  `<div class="tex" data-tex="${escape(String.raw(strings, ...values))}"></div>`;

/** The slot of the section's live demo (web/tutorial/sections/<id>.js), or of one `part` of it. */
export const demo = (part) => (id) => `<div class="demo" data-demo="${id}"${part ? ` data-part="${part}"` : ''}></div>`;

/** The slot of the section's training lab (web/tutorial/lab.js). */
export const labSlot = () => (id) => `<div class="lab-slot" data-lab="${id}"></div>`;

/** The chapter's explorer pane (web/tutorial/pane.js). */
export const explorer = () => '<div class="playground" id="explorer"></div>';

/** The set-off box of a section's claim, with its own heading and paragraphs. */
export const aside = (...blocks) => `<aside class="claim">\n${indent(blocks, '  ')}\n</aside>`;

/** A numbered list of items. */
export const list = (...items) => `<ol>\n${indent(items, '  ')}\n</ol>`;

/** A list item: message `key`, then the claim sentences that follow it. */
export const item = (key, ...claims) => withClaims('li', key, claims);

/** The table of contents: one link per section, named by its title. */
export function contents(sections) {
  const links = sections.map(({ id }) => `<li><a href="#${id}" data-i18n="${id}.title"></a></li>`);
  return [
    '<nav class="toc" data-i18n-attr="aria-label:toc.label">',
    '  <h2 data-i18n="toc.title"></h2>',
    '  <ol>',
    indent(links, '    '),
    '  </ol>',
    '</nav>',
  ].join('\n');
}
