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
      const typeset = [...waiting.keys()];
      for (const [element, { tex, display }] of waiting) {
        katex.render(tex, element, { ...OPTIONS, displayMode: display });
      }
      waiting.clear();
      // A display formula laid out while it showed its TeX source as text is laid out again now
      // that it is typeset, and once more when KaTeX's fonts have loaded (they change its width).
      refit(typeset);
      document.fonts?.ready.then(() => refit(typeset));
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

/**
 * The parts of a display formula separated by \qquad at the top level (outside braces and
 * environments), or [tex] when it has none: a narrow screen stacks them (fitDisplay).
 */
export function displayParts(tex) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < tex.length; i++) {
    const c = tex[i];
    if (c === '\\' && tex.startsWith('\\begin{', i)) depth++;
    else if (c === '\\' && tex.startsWith('\\end{', i)) depth--;
    else if (c === '\\' && (tex[i + 1] === '{' || tex[i + 1] === '}')) i++;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (depth === 0 && tex.startsWith('\\qquad', i) && !/[A-Za-z]/.test(tex[i + 6] ?? '')) {
      parts.push(tex.slice(start, i).trim());
      start = i + 6;
    }
  }
  parts.push(tex.slice(start).trim());
  return parts.filter(Boolean);
}

// Display formulas never cut off silently on a narrow screen: fitDisplay tries the formula on one
// line, then its \qquad parts stacked, then scaled down to MIN_SCALE; what still does not fit
// scrolls, with a visible cue (data-fit="scroll", web/styles/chapter.css).
const MIN_SCALE = 0.7;
const fits = (element) => element.scrollWidth <= element.clientWidth + 1;

/** Lays a typeset display formula out to its box's width; sets data-fit to line, stack, scale or scroll. */
export function fitDisplay(element) {
  const width = element.clientWidth;
  if (!width || Number(element.dataset.fitWidth) === width) return;
  element.dataset.fitWidth = String(width);
  const tex = element.dataset.tex;
  const parts = displayParts(tex);
  const layouts = [tex];
  if (parts.length > 1) layouts.push(`\\begin{gathered} ${parts.join(' \\\\ ')} \\end{gathered}`);
  element.style.fontSize = '';
  for (const [index, layout] of layouts.entries()) {
    if (element.dataset.texLayout !== String(index)) {
      renderMath(element, layout);
      element.dataset.texLayout = String(index);
    }
    if (fits(element)) {
      element.dataset.fit = index === 0 ? 'line' : 'stack';
      return;
    }
  }
  const scale = Math.max(MIN_SCALE, Math.floor((100 * element.clientWidth) / element.scrollWidth) / 100);
  element.style.fontSize = `${scale}em`;
  element.dataset.fit = fits(element) ? 'scale' : 'scroll';
}

/** Lays out again those of `elements` that fitDisplay has laid out before. */
function refit(elements) {
  for (const element of elements) {
    if (element.dataset.fitWidth === undefined) continue;
    delete element.dataset.fitWidth;
    fitDisplay(element);
  }
}

const resized =
  typeof ResizeObserver === 'undefined'
    ? null
    : new ResizeObserver((entries) => {
        for (const entry of entries) fitDisplay(entry.target);
      });

/** Typesets every [data-tex] element under root (the TeX source is the attribute's value). */
export function renderAllMath(root = document) {
  for (const element of root.querySelectorAll('[data-tex]')) {
    if (element.dataset.texDone === element.dataset.tex) continue;
    const display = !element.hasAttribute('data-tex-inline');
    renderMath(element, element.dataset.tex, { display });
    element.dataset.texDone = element.dataset.tex;
    if (display) {
      element.dataset.texLayout = '0';
      delete element.dataset.fitWidth;
      fitDisplay(element);
      resized?.observe(element);
    }
  }
}
