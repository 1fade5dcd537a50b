// Entry of the chapter page: starts the wasm core first, then defines <relpos-heatmap>, so the
// explorer's heatmap the page already carries (web/site/first-figure.js: built with its first frame
// as a picture the core computed at build time) draws as soon as the core is here. The rest of the
// chapter (the site shell, words, pane, KaTeX, lazily mounted sections) is fetched once that
// heatmap has drawn (or failed to), so nothing else shares the wire with the core before it. The
// first heatmap needs the core alone: the models module (rp.presets, rp.fromConfig) comes after it
// (chapter.js).
import { load } from '../../bindings/index.js';

const rpReady = load({ models: false });
// The site shell (language and colour-scheme switches, the offline copy). The page's words are in
// English: a reader of another language (public/boot.js marks the page) gets the shell, and with
// it that language's words, at once; an English reader once the first heatmap has drawn.
const shell = () => import('../site/shell.js');
if (document.documentElement.dataset.words === 'pending') shell();
// The element's module after load() has started: the core instantiates while it arrives.
await import('../components/relpos-heatmap.js');
const map = document.getElementById('map');
// A page without the built first figure (or one whose figure has already drawn) goes straight on.
if (map && !map.dataset.state) {
  await new Promise((resolve) => {
    for (const type of ['relpos-render', 'relpos-error']) map.addEventListener(type, resolve, { once: true });
  });
}
shell();
const { start } = await import('./chapter.js');
await start(rpReady);
