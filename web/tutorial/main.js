// Entry of the chapter page: starts the wasm core first, then defines <relpos-heatmap>, so the
// explorer's heatmap the page already carries (web/site/first-figure.js: built with its first frame
// as a picture the core computed at build time) draws as soon as the core is here. The rest of the
// chapter (the site shell, words, pane, KaTeX, lazily mounted sections) is fetched once that
// heatmap has drawn (or failed to), so nothing else shares the wire with the core before it. The
// first heatmap needs the core alone: the models module (rp.presets, rp.fromConfig) comes after it
// (chapter.js).
import { load } from '../../bindings/index.js';
import { loadCore } from '../../bindings/core-instance.js';

// The core alone before the first heatmap (which calls nothing else); load() once it has drawn
// adds the wrappers of rp.analysis, rp.lab and rp.kvCache (bindings/extras.js) for the chapter.
loadCore({ models: false }).catch(() => {}); // a failure shows on the heatmap and in start()'s load()
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
await start(load({ models: false }));
