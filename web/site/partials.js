// The site shell's markup, shared by every page: the document around the page's own content, its
// <head> (policy, title, description, language alternates, link preview), the header (brand,
// navigation, language and colour-scheme switches) and the footer. web/site/build-plugin.js writes it
// around each page file's content (its <main> and its script), in English; web/site/shell.js switches
// the words.

// The pages of the site: their address (file; the chapter is the site's index.html), the message keys
// of their nav entry, where "skip" lands, the class of their <body>.
export const PAGES = {
  chapter: { file: '', nav: 'nav.tutorial', main: 'chapter', skip: 'nav.skip', body: 'tutorial' },
  playground: {
    file: 'playground.html',
    nav: 'nav.playground',
    main: 'main',
    skip: 'site.skip',
    body: 'playground-page',
  },
  lab: { file: 'lab.html', nav: 'nav.lab', main: 'main', skip: 'site.skip', body: 'lab-page' },
  notfound: { file: '404.html', nav: null, main: 'main', skip: 'site.skip', body: 'notfound-page' },
};

/** The file under web/ that holds page `id`'s own content. */
export const sourceOf = (id) => PAGES[id].file || 'index.html';

// One policy for every page: same-origin scripts and wasm only; styles may be inline (KaTeX and the
// components set style attributes); workers from this site; images may be data:/blob: (exports).
export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
  "img-src 'self' data: blob:",
  "worker-src 'self' blob:",
].join('; ');

const escape = (text) =>
  String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** A small inline logo: a 4×4 Toeplitz heatmap (the picture of a relative encoding). */
const LOGO = (() => {
  const shades = ['#fde725', '#5ec962', '#21918c', '#3b528b'];
  let cells = '';
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) {
      cells += `<rect x="${j * 4}" y="${i * 4}" width="4" height="4" fill="${shades[Math.abs(j - i)]}"/>`;
    }
  }
  return `<svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">${cells}</svg>`;
})();

/**
 * The <head> of page `id`. `words` is the English page table; `siteUrl` (optional, ending in /)
 * makes the alternates and the preview image absolute, as link previews require.
 */
export function head(id, words, { siteUrl = '' } = {}) {
  const page = PAGES[id];
  const url = (path) => (siteUrl ? new URL(path, siteUrl).href : `./${path}`);
  const self = url(page.file);
  const zh = `${self}${self.includes('?') ? '&' : '?'}lang=zh`;
  const title = escape(words[`site.title.${id}`]);
  const description = escape(words[`site.description.${id}`]);
  const alternates =
    id === 'notfound'
      ? '<meta name="robots" content="noindex">'
      : [
          `<link rel="alternate" hreflang="en" href="${self}" vite-ignore>`,
          `<link rel="alternate" hreflang="zh-CN" href="${zh}" vite-ignore>`,
          `<link rel="alternate" hreflang="x-default" href="${self}" vite-ignore>`,
        ].join('\n  ');
  return `<meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta http-equiv="Content-Security-Policy" content="${CSP}">
  <title>${title}</title>
  <meta name="description" content="${description}">
  <meta name="color-scheme" content="light dark">
  <meta name="theme-color" content="#fdfdfc" media="(prefers-color-scheme: light)">
  <meta name="theme-color" content="#101317" media="(prefers-color-scheme: dark)">
  <link rel="icon" href="./favicon.svg" type="image/svg+xml">
  ${alternates}
  <meta property="og:type" content="website">
  <meta property="og:site_name" content="relpos">
  <meta property="og:title" content="${title}">
  <meta property="og:description" content="${description}">
  <meta property="og:image" content="${url('preview.png')}" vite-ignore>
  <meta property="og:image:width" content="1200">
  <meta property="og:image:height" content="630">
  <meta property="og:image:alt" content="${escape(words['site.previewAlt'])}">
  <meta property="og:locale" content="en_GB">
  <meta property="og:locale:alternate" content="zh_CN">
  <meta name="twitter:card" content="summary_large_image">
  <script src="./boot.js" vite-ignore></script>
  <link rel="stylesheet" href="./styles/index.css">`;
}

/** The skip link and the header of page `id`. */
export function header(id, words) {
  const page = PAGES[id];
  const link = (target) => {
    const p = PAGES[target];
    const current = target === id ? ' aria-current="page"' : '';
    return `<a href="./${p.file}" data-page="${target}" data-i18n="${p.nav}"${current}>${escape(words[p.nav])}</a>`;
  };
  const nav = ['chapter', 'playground', 'lab'].map(link).join('\n        ');
  return `<a class="skip" href="#${page.main}" data-i18n="${page.skip}">${escape(words[page.skip])}</a>
  <header class="rp-header">
    <div class="rp-header__inner">
      <a class="rp-brand" href="./" data-page="chapter">${LOGO}<span>relpos</span></a>
      <nav class="rp-nav" aria-label="${escape(words['nav.site'])}" data-i18n-attr="aria-label:nav.site">
        ${nav}
      </nav>
      <div class="rp-tools">
        <label><span class="rp-sr" data-i18n="nav.language">${escape(words['nav.language'])}</span>
          <select id="lang"><option value="en" lang="en">English</option><option value="zh" lang="zh-CN">简体中文</option></select></label>
        <label><span class="rp-sr" data-i18n="site.theme">${escape(words['site.theme'])}</span>
          <select id="theme">${['auto', 'light', 'dark']
            .map(
              (v) =>
                `<option value="${v === 'auto' ? '' : v}" data-i18n="site.theme.${v}">${escape(words[`site.theme.${v}`])}</option>`,
            )
            .join('')}</select></label>
      </div>
    </div>
  </header>`;
}

/**
 * The footer (with the shell's script) of page `id`. The chapter's own entry imports the shell once
 * its first heatmap has drawn (web/tutorial/main.js): its words wait for that, not the figure.
 */
export function footer(id, words) {
  const links = ['chapter', 'playground', 'lab']
    .map(
      (p) =>
        `<a href="./${PAGES[p].file}" data-page="${p}" data-i18n="${PAGES[p].nav}">${escape(words[PAGES[p].nav])}</a>`,
    )
    .join('\n        ');
  return `<footer class="rp-footer">
    <div class="rp-footer__inner">
      <p class="rp-about" data-i18n="site.footer.about">${escape(words['site.footer.about'])}</p>
      <nav aria-label="${escape(words['site.footer.pages'])}" data-i18n-attr="aria-label:site.footer.pages">
        ${links}
      </nav>
      <span id="build" class="rp-build"></span>
    </div>
  </footer>${id === 'chapter' ? '' : '\n  <script type="module" src="./site/shell.js"></script>'}`;
}

/**
 * The whole document of page `id` around `content`, the page file's own markup (its <main>, then its
 * scripts): the shell's head, header and footer, the footer right after </main>.
 */
export function page(id, content, words, { siteUrl = '' } = {}) {
  if (!content.includes('</main>')) throw new Error(`relpos-site: ${sourceOf(id)} has no <main>`);
  const body = content
    .trim()
    .replace(/\n/g, '\n  ')
    .replace('</main>', () => `</main>\n  ${footer(id, words)}`);
  return `<!doctype html>
<html lang="en" data-page="${id}" data-title-key="site.title.${id}">
<head>
  ${head(id, words, { siteUrl })}
</head>
<body class="${PAGES[id].body}">
  ${header(id, words)}
  ${body}
</body>
</html>
`;
}
