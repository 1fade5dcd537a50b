// The chapter's first view as the site's build writes it (web/site/build-plugin.js): the explorer's
// heatmap is in the page from the start — a <relpos-heatmap> with the explorer's default state,
// holding a picture of its first frame that the core computed at build time (firstPicture) — and
// the first screen's words are in the page in English. The reader sees the figure and the words
// with the HTML and its stylesheet; the heatmap's live frame replaces the picture when the core has
// loaded (web/tutorial/main.js; the element drops its slot="first" child in the task that drew),
// and the pane takes the element over (web/tutorial/pane.js). tests/browser/prerender.test.js
// checks that picture and live frame are the same pixels in the same box.

// The explorer's default state (web/tutorial/pane.js: scheme alibi, 64 positions, 8 heads, head 0,
// its first view; prerender.test.js fails if the two differ). Its first frame is drawn in 2D: one
// pixel per cell put on a canvas and scaled without smoothing, no WebGL context to start
// (heatmap-view.js); the pane hands it back to the default renderer.
export const FIRST_FIGURE = Object.freeze({ scheme: 'alibi', n: 64, heads: 8, head: 0 });

const escape = (text) =>
  String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/**
 * What the page needs before <relpos-heatmap> is defined: the picture where the element's map will
 * be (its shadow root puts the map 34 px down and 58 px right of its box, at --relpos-size: see
 * web/components/relpos-heatmap.js), and, for a reader of another language than the page's words
 * (public/boot.js marks the page), those words hidden until web/i18n/index.js has put theirs.
 */
export const FIRST_VIEW_STYLE = `<style>
    relpos-heatmap:not(:defined) { display: inline-block; }
    relpos-heatmap:not(:defined) > [slot="first"] { display: block; margin: 34px 0 0 58px; width: var(--relpos-size, 320px);
      height: var(--relpos-size, 320px); outline: 1px solid var(--rp-border, #8884); image-rendering: pixelated; }
    html[data-words="pending"] [data-i18n-pre] { visibility: hidden; }
  </style>`;

/**
 * The explorer's heatmap figure, as the pane lays it out (a <figure class="pane-map"> with the
 * caption), holding `picture` (a data: URL of its first frame) when there is one.
 */
export function firstFigureMarkup(picture) {
  const { scheme, n, heads } = FIRST_FIGURE;
  const img = picture ? `<img slot="first" src="${picture}" alt="" width="${n}" height="${n}">` : '';
  return (
    `<figure class="pane-map"><relpos-heatmap id="map" scheme="${scheme}" n="${n}" heads="${heads}" renderer="2d">${img}</relpos-heatmap>` +
    `<figcaption id="caption" aria-live="off"></figcaption></figure>`
  );
}

/**
 * `html` with the words of its empty data-i18n elements put in from `words` (the English table),
 * each marked data-i18n-pre: plain text, and inline TeX ($…$) as web/i18n/tex.js shows it until
 * KaTeX has loaded (its source in a <span>), so the page's own words later change nothing there.
 * Left out: a message with a {placeholder} to fill, and a claim (filled with what its check measures).
 */
export function prefillWords(html, words) {
  return html.replace(
    /<(\w+)((?:\s[^>]*)?) data-i18n="([^"]+)"((?:\s[^>]*)?)><\/\1>/g,
    (whole, tag, before, key, after) => {
      const text = words[key];
      const attrs = `${before}${after}`;
      if (typeof text !== 'string' || /[{}]/.test(text) || /\sdata-claim\b/.test(attrs)) return whole;
      const parts = text.split('$').map((part, index) => (index % 2 ? `<span>${escape(part)}</span>` : escape(part)));
      return `<${tag}${before} data-i18n="${key}"${after} data-i18n-pre>${parts.join('')}</${tag}>`;
    },
  );
}
