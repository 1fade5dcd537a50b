// KaTeX, bundled by Vite with its CSS and fonts (served from this site, never a CDN). Formulas are
// language-neutral TeX; prose messages may hold inline math between $…$.
import katex from 'katex';
import 'katex/dist/katex.min.css';

const OPTIONS = { throwOnError: false, strict: 'ignore', output: 'htmlAndMathml' };

/** Typesets `tex` into `element` (display style unless inline). */
export function renderMath(element, tex, { display = true } = {}) {
  katex.render(tex, element, { ...OPTIONS, displayMode: display });
}

/** Sets text with $…$ segments typeset inline; the rest is plain text nodes (never parsed as markup). */
export function renderInlineMath(element, text) {
  element.textContent = '';
  const parts = text.split('$');
  parts.forEach((part, index) => {
    if (!part) return;
    if (index % 2 === 0) {
      element.append(document.createTextNode(part));
    } else {
      const span = document.createElement('span');
      katex.render(part, span, { ...OPTIONS, displayMode: false });
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
