// The JS package imports one way (docs/architecture.md, "The JS layers"): figure/ (DOM-free figure
// code: colour maps, views, export formats, heatmap slicing) stands on nothing of the package;
// bindings/ and bin/ stand on figure/ and bindings/; web/ stands on all of them. So nothing in
// bindings/ or bin/ imports web/, and figure/ imports only its own folder and npm packages. This test
// reads every import, export … from, dynamic import() and new URL(…, import.meta.url) of those folders
// and fails on a wrong-way one.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

// What each folder may import from the package (besides npm packages and node: built-ins).
const ALLOWED = {
  figure: ['figure'],
  bindings: ['bindings', 'figure', 'dist'],
  bin: ['bin', 'bindings', 'figure'],
};

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(js|mjs|d\.ts)$/.test(entry.name) ? [path] : [];
  });
}

/** The module specifiers a JS or .d.ts text names. */
export function specifiers(text) {
  const patterns = [
    /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*(['"])([^'"]+)\1/gm,
    /^\s*import\s*(['"])([^'"]+)\1/gm,
    /\bimport\(\s*(['"])([^'"]+)\1\s*\)/g,
    /\bnew URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[2]));
}

/** Every import of `file` (a path under the repository) that goes the wrong way, as "from → to". */
export function wrongWayImports(file, text) {
  const own = relative(root, file).split('/')[0];
  const problems = [];
  for (const spec of specifiers(text)) {
    if (!spec.startsWith('.') && !spec.startsWith('/')) continue; // an npm package or node: built-in
    const target = relative(root, resolve(dirname(file), spec));
    const folder = target.split('/')[0];
    if (target.startsWith('..') || !ALLOWED[own].includes(folder)) problems.push(`${relative(root, file)} → ${target}`);
  }
  return problems;
}

describe('the JS layers import one way', () => {
  const files = Object.keys(ALLOWED).flatMap((folder) => sources(join(root, folder)));

  it('finds the imports it checks (figure/, bindings/ and bin/ import each other)', () => {
    const all = files.flatMap((file) => specifiers(readFileSync(file, 'utf8')).map((spec) => [file, spec]));
    const into = (folder) =>
      all.filter(([file, spec]) => relative(root, resolve(dirname(file), spec)).startsWith(folder));
    expect(into('figure/').length).toBeGreaterThan(8);
    expect(into('bindings/').length).toBeGreaterThan(8);
    expect(files.some((file) => file.endsWith('bin/relpos.js'))).toBe(true);
  });

  it('no file of bindings/ or bin/ imports web/, and figure/ imports nothing of the package but itself', () => {
    expect(files.flatMap((file) => wrongWayImports(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('refuses each wrong-way form: static, re-export, side effect, dynamic, URL', () => {
    const cases = [
      [join(root, 'bindings/figure.js'), "import { colorize } from '../web/components/colormap.js';"],
      [join(root, 'bindings/figure.js'), "export { fromJSON } from '../web/components/export.js';"],
      [join(root, 'bin/relpos.js'), "import '../web/index.js';"],
      [join(root, 'bin/relpos.js'), "const m = await import('../web/components/export.js');"],
      [join(root, 'bindings/worker.js'), "new URL('../web/lab/messages.js', import.meta.url)"],
      [join(root, 'figure/views.js'), "import { load } from '../bindings/index.js';"],
      [join(root, 'figure/export.js'), "import { formatMessage } from '../web/components/messages.js';"],
    ];
    for (const [file, text] of cases) expect(wrongWayImports(file, text)).toHaveLength(1);
    expect(wrongWayImports(join(root, 'bin/relpos.js'), "import { load } from '../bindings/index.js';")).toEqual([]);
  });
});

// Inside web/ the folders are layers too, low to high (docs/architecture.md, "The JS layers"): the
// lab's words and committed results (lab/), the elements (components/, which stand alone with their
// own English words), the site's words and language switch (i18n/, which hands the elements their
// translated words and renders messages with their inline TeX), the chapter and the explorer pane
// (tutorial/), and the site's shell and build (site/). A module imports its own layer or lower ones.
// Only a page's entry script — web/*.js at the top and the ENTRIES — composes from every layer.
export const WEB_LAYERS = ['public', 'lab', 'components', 'i18n', 'tutorial', 'site'];
const ENTRIES = ['web/tutorial/main.js', 'web/lab/lab.js'];

/** The layer of a file under web/: its folder's place in WEB_LAYERS; web/*.js and ENTRIES are above all. */
function webLayer(path) {
  const parts = path.split('/');
  if (parts.length === 2 || ENTRIES.includes(path)) return Infinity;
  const at = WEB_LAYERS.indexOf(parts[1]);
  if (at < 0) throw new Error(`${path}: web/${parts[1]}/ is not in WEB_LAYERS`);
  return at;
}

/** Every import of web file `file` that reaches up to a higher layer of web/, as "from → to". */
export function upwardImports(file, text) {
  const from = relative(root, file);
  const problems = [];
  for (const spec of specifiers(text)) {
    if (!spec.startsWith('.')) continue;
    const target = relative(root, resolve(dirname(file), spec.replace(/\?.*$/, '')));
    if (!target.startsWith('web/')) continue; // the package below web/: bindings/, figure/, dist/
    if (webLayer(target) > webLayer(from)) problems.push(`${from} → ${target}`);
  }
  return problems;
}

describe('web/ imports one way, low layer to high', () => {
  const webFiles = sources(join(root, 'web'));

  it('places every folder of web/ that holds code in WEB_LAYERS', () => {
    for (const file of webFiles) expect(() => webLayer(relative(root, file)), file).not.toThrow();
    expect(webFiles.length).toBeGreaterThan(40);
  });

  it('no module of web/ imports a higher layer', () => {
    expect(webFiles.flatMap((file) => upwardImports(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('refuses each upward import the layers once had (and allows the downward ones)', () => {
    const upward = [
      ['web/tutorial/pane.js', "import { familyKey, segmented } from '../site/controls.js';"],
      ['web/i18n/index.js', "import { renderInlineMath } from '../tutorial/tex.js';"],
      ['web/components/relpos-lab.js', "import { initI18n } from '../i18n/index.js';"],
      ['web/lab/messages.js', "import { renderCurve } from '../components/relpos-curve.js';"],
      ['web/components/relpos-curve.js', "const m = await import('../tutorial/format.js');"],
    ];
    for (const [file, text] of upward) expect(upwardImports(join(root, file), text), text).toHaveLength(1);
    const downward = [
      ['web/i18n/en.js', "import { defaultMessages } from '../components/messages.js';"],
      ['web/components/relpos-lab.js', "import { labMessages } from '../lab/messages.js';"],
      ['web/lab/lab.js', "import '../components/relpos-lab.js';"],
      ['web/site/controls.js', "import { el } from '../tutorial/ui.js';"],
      ['web/playground.js', "import { createPane } from './tutorial/pane.js';"],
    ];
    for (const [file, text] of downward) expect(upwardImports(join(root, file), text), text).toEqual([]);
  });
});
