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
