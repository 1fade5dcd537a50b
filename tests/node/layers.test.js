// The core's layers include one way (docs/architecture.md): base → kernels → schemes → ops →
// {analysis, lab, models} → the public headers. A file may include its own folder and any lower
// layer; the three top folders do not include each other. Three wasm modules, three public headers
// (docs/build.md): src/relpos/relpos.hpp for the core module, which reaches none of analysis/, lab/
// and models/; src/relpos/analysis_lab.hpp for the analysis module and src/relpos/models.hpp for
// the models module, which build on it — never the other way. This test reads every
// #include "relpos/…" and fails on a wrong-way one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

// Files the comments of the core, the binding and the native tests cite ("docs/rotary.md",
// "tests/node/layers.test.js", …) — each must exist in the repository.
function citedFiles() {
  const files = [...sources(core), ...sources(join(root, 'bindings')), ...sources(join(root, 'tests/cpp'))];
  const js = readdirSync(join(root, 'bindings')).filter((name) => /\.(js|ts)$/.test(name));
  const texts = [...files, ...js.map((name) => join(root, 'bindings', name))].map((file) => [
    relative(root, file),
    readFileSync(file, 'utf8'),
  ]);
  return texts.flatMap(([from, text]) =>
    [...text.matchAll(/\b((?:docs|tests|src|bindings|scripts)\/[\w./-]+\.(?:md|js|cpp|hpp|json|cmake|sh))\b/g)].map(
      (match) => ({ from, path: match[1] }),
    ),
  );
}

describe('comments cite files of the repository', () => {
  it('every cited docs/, tests/, src/, bindings/ or scripts/ file exists', () => {
    const cited = citedFiles();
    expect(cited.length).toBeGreaterThan(20);
    expect(
      cited.filter(({ path }) => !existsSync(join(root, path))).map(({ from, path }) => `${from} → ${path}`),
    ).toEqual([]);
  });

  it('cites no document outside it and speaks of no issues', () => {
    const files = [...sources(core), ...sources(join(root, 'bindings'))];
    const offending = files.filter((file) =>
      /schemes\.md|spec\/|toolchain\.md|anchors\.md|\bissue\b/i.test(readFileSync(file, 'utf8')),
    );
    expect(offending.map((file) => relative(root, file))).toEqual([]);
  });
});

describe('the core includes one way', () => {
  it('has a layer for every folder and no wrong-way include', () => {
    expect(sources(core).length).toBeGreaterThan(40);
    expect(wrongWayIncludes()).toEqual([]);
  });

  it('has one public header per module, the only core header each binding includes', () => {
    const binding = (name) => join(root, 'bindings', name);
    expect(includes(binding('binding.hpp'))).toEqual(['relpos.hpp']);
    expect(includes(binding('core_bindings.cpp'))).toEqual(['relpos.hpp']);
    expect(includes(binding('analysis_bindings.cpp'))).toEqual(['analysis_lab.hpp']);
    expect(includes(binding('models_bindings.cpp'))).toEqual(['models.hpp']);
  });

  it('keeps the core module free of the analyses, the lab and the models, and includes one way between the headers', () => {
    // Every core file a file reaches through its includes, transitively.
    const reach = (start) => {
      const seen = new Set();
      const visit = (path) => {
        for (const target of includes(join(core, path))) {
          if (!seen.has(target)) {
            seen.add(target);
            visit(target);
          }
        }
      };
      visit(start);
      return [...seen];
    };
    const coreReach = [...reach('relpos.hpp'), ...reach('relpos.cpp')];
    expect(
      coreReach.filter(
        (path) => /^(analysis|lab|models)\//.test(path) || ['analysis_lab.hpp', 'models.hpp'].includes(path),
      ),
    ).toEqual([]);
    expect(includes(join(core, 'analysis_lab.hpp'))).toContain('relpos.hpp');
    expect(includes(join(core, 'models.hpp'))).toContain('relpos.hpp');
    // The analysis module does not hold the models, nor the models module the analyses.
    expect(reach('analysis_lab.hpp').filter((path) => /^models\//.test(path) || path === 'models.hpp')).toEqual([]);
    expect(reach('models.hpp').filter((path) => /^(analysis|lab)\//.test(path) || path === 'analysis_lab.hpp')).toEqual(
      [],
    );
  });

  it('keeps the SIMD kernels free of schemes', () => {
    const kernels = sources(join(core, 'kernels')).flatMap((file) => includes(file));
    expect(kernels.filter((target) => !/^(base|kernels)\//.test(target))).toEqual([]);
  });
});
