// The core's layers include one way (docs/architecture.md): base → kernels → schemes → ops →
// {analysis, lab, models} → src/relpos/relpos.hpp, the one header the binding includes. A file may
// include its own folder and any lower layer; the three top folders do not include each other.
// This test reads every #include "relpos/…" and fails on a wrong-way one.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const core = join(root, 'src/relpos');

// The layer of each folder; equal numbers are siblings that must not include each other.
const LAYERS = { base: 0, kernels: 1, schemes: 2, ops: 3, analysis: 4, lab: 4, models: 4, '': 5 };

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(cpp|hpp|inc)$/.test(entry.name) ? [path] : [];
  });
}

// The folder under src/relpos a path names ('' for the top: relpos.hpp, relpos.cpp).
const folderOf = (path) => (path.includes('/') ? path.split('/')[0] : '');
const includes = (file) =>
  [...readFileSync(file, 'utf8').matchAll(/^\s*#include\s+"relpos\/([^"]+)"/gm)].map((match) => match[1]);

// Every include that goes the wrong way, as "from → to".
export function wrongWayIncludes() {
  const problems = [];
  for (const file of sources(core)) {
    const from = relative(core, file);
    const own = folderOf(from);
    if (!(own in LAYERS)) {
      problems.push(`${from}: folder '${own}' has no layer`);
      continue;
    }
    for (const target of includes(file)) {
      const other = folderOf(target);
      const allowed = other === own || (other in LAYERS && LAYERS[other] < LAYERS[own]);
      if (!allowed) problems.push(`${from} → ${target}`);
    }
  }
  return problems;
}

describe('the core includes one way', () => {
  it('has a layer for every folder and no wrong-way include', () => {
    expect(sources(core).length).toBeGreaterThan(40);
    expect(wrongWayIncludes()).toEqual([]);
  });

  it('has one public header, the only core header the binding includes', () => {
    const binding = join(root, 'bindings/relpos_bindings.cpp');
    expect(includes(binding)).toEqual(['relpos.hpp']);
  });

  it('keeps the SIMD kernels free of schemes', () => {
    const kernels = sources(join(core, 'kernels')).flatMap((file) => includes(file));
    expect(kernels.filter((target) => !/^(base|kernels)\//.test(target))).toEqual([]);
  });
});
