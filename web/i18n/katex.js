// KaTeX with its CSS (and, through the CSS, its fonts): a chunk of its own that tex.js fetches once
// the page has drawn its first heatmap (docs/build.md, "First view").
import katex from 'katex';
import 'katex/dist/katex.min.css';

export default katex;
