// Entry of the chapter page: starts the wasm core first (streaming compile overlaps the rest), then
// loads the chapter (words, KaTeX, explorer, lazily mounted sections).
import { load } from '../../bindings/index.js';

const rpReady = load();
const { start } = await import('./chapter.js');
await start(rpReady);
