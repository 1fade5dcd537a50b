// KaTeX, bundled by Vite with its CSS and fonts (served from this site, never a CDN). Formulas are
// language-neutral TeX; prose messages may hold inline math between $…$.
//
// KaTeX (its script, CSS and fonts: about a quarter of the chapter's first-view bytes) is fetched
// on first use — or, on a page marked data-math-after="heatmap" (the chapter), once its first
// heatmap has drawn or failed (docs/build.md), or releaseMath() is called. Until then a formula
// shows its TeX source as text, and is typeset in place when KaTeX arrives.

const OPTIONS = { throwOnError: false, strict: 'ignore', output: 'htmlAndMathml' };

let katex = null;
let loading = null;
let release = null;
const waiting = new Map(); // element → { tex, display } typeset once KaTeX has loaded

// Module scripts run once the document is parsed, so the page's mark is there to read.
const held = typeof document !== 'undefined' && document.querySelector('[data-math-after="heatmap"]') !== null;
const gate = held
  ? new Promise((resolve) => {
      release = resolve;
      for (const type of ['relpos-render', 'relpos-error']) {
        document.addEventListener(type, () => resolve(), { capture: true, once: true });
      }
    })
  : null;

/** Lets KaTeX load now on a page that holds it for its first heatmap (e.g. the core failed). */
export function releaseMath() {
  release?.();
}

/** Loads KaTeX (after the hold, if any) and typesets every formula set so far; resolves then. */
export function loadMath() {
  loading ??= (gate ?? Promise.resolve())
    .then(() => import('./katex.js'))
    .then((module) => {
      katex = module.default;
      for (const [element, { tex, display }] of waiting) {
        katex.render(tex, element, { ...OPTIONS, displayMode: display });
      }
      waiting.clear();
    });
  loading.catch(() => {
    loading = null; // a later formula retries
  });
  return loading;
}

function typeset(element, tex, display) {
  if (katex) {
    waiting.delete(element);
    katex.render(tex, element, { ...OPTIONS, displayMode: display });
    return;
  }
  element.textContent = tex;
  waiting.set(element, { tex, display });
  loadMath().catch(() => {}); // the TeX source stays readable
}

/** Typesets `tex` into `element` (display style unless inline). */
export function renderMath(element, tex, { display = true } = {}) {
  typeset(element, tex, display);
}

/** Sets text with $…$ segments typeset inline; the rest is plain text nodes (never parsed as markup). */
export function renderInlineMath(element, text) {
  for (const child of element.querySelectorAll('*')) waiting.delete(child);
  element.textContent = '';
  const parts = text.split('$');
  parts.forEach((part, index) => {
    if (!part) return;
    if (index % 2 === 0) {
      element.append(document.createTextNode(part));
    } else {
      const span = document.createElement('span');
      typeset(span, part, false);
      element.append(span);
    }
  });
}

/** Typesets every [data-tex] element under root (the TeX source is the attribute's value). */
export function renderAllMath(root = document) {
  for (const element of root.querySelectorAll('[data-tex]')) {
    if (element.dataset.texDone === element.dataset.tex) continue;
    renderMath(element, element.dataset.tex, { display: !element.hasAttribute('data-tex-inline') });
    element.dataset.texDone = element.dataset.tex;
  }
}
