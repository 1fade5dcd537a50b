// Entry of the chapter page: starts the wasm core first (streaming compile overlaps the rest), then
// loads the chapter (words, KaTeX, explorer, lazily mounted sections). The first heatmap needs the
// core alone: the models module (rp.presets, rp.fromConfig) is fetched after it (chapter.js).
import { load } from '../../bindings/index.js';

const rpReady = load({ models: false });
const { start } = await import('./chapter.js');
await start(rpReady);
