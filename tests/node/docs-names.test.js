// Docs name only what exists: every code identifier in backticks in these pages is a name in the
// repository's source, and every file or folder path in backticks is one of its files or folders.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const PAGES = ['docs/architecture.md', 'docs/models.md', 'docs/cli.md'];
// Names the pages cite as other projects' own (Hugging Face's modeling code and config files,
// PyTorch), not as relpos's.
const THEIRS = new Set([
  'config.json',
  'q_norm',
  'k_norm',
  'qk_norm',
  'k_rot.expand',
  'modeling_rope_utils.py',
  'apply_rotary_pos_emb_interleave',
  'finfo.min',
]);
// Where names are defined: the library, its bindings, the command line, the figure layer, the web
// front-end, the build and its scripts (not the tests, which may name what does not exist).
const SOURCES = ['src', 'bindings', 'bin', 'figure', 'web', 'scripts', 'cmake', 'CMakeLists.txt', 'package.json'];
const SOURCE_FILE = /\.(c|cc|cpp|h|hpp|inc|js|mjs|ts|json|cmake|sh|txt)$/;

function files(path, only = SOURCE_FILE) {
  const full = join(root, path);
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const child = join(path, entry.name);
    if (entry.isDirectory()) return files(child, only);
    return only.test(entry.name) ? [join(root, child)] : [];
  });
}

function sourceWords() {
  const words = new Set();
  for (const file of SOURCES.flatMap((path) => files(path))) {
    for (const [word] of readFileSync(file, 'utf8').matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) words.add(word);
  }
  return words;
}

// A code identifier: a name (optionally called, or reached through rp.), e.g. `checkKnownNames`,
// `compute()`, `rp.attention`, `RotaryPlan`; a path: a file with an extension or a folder ending in /.
const IDENTIFIER = /^(?:rp\.)?([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))*(?:\(\))?$/;
const PATH = /^[\w.-]+(?:\/[\w.-]+)*(?:\/|\.(?:js|mjs|cpp|hpp|h|json|cmake|sh|md))$/;

function backticked(text) {
  return [...text.matchAll(/`([^`\n]+)`/g)].map(([, code]) => code.trim());
}

// Paths are written from the repository root, from src/relpos/, or (a file) by its name alone.
function pathExists(path, allFiles) {
  if (existsSync(join(root, path)) || existsSync(join(root, 'src/relpos', path))) return true;
  return !path.endsWith('/') && allFiles.some((file) => file.endsWith(`/${path}`));
}

const checked = (page) => {
  const words = sourceWords();
  const allFiles = [...SOURCES, 'docs', 'tests'].flatMap((path) => files(path, /./));
  const missing = [];
  for (const code of backticked(readFileSync(join(root, page), 'utf8'))) {
    if (THEIRS.has(code)) continue;
    if (PATH.test(code) && /[/.]/.test(code) && !/^rp\./.test(code)) {
      if (!pathExists(code, allFiles)) missing.push(code);
      continue;
    }
    const match = IDENTIFIER.exec(code);
    if (!match) continue;
    const names = code.replace(/^rp\./, '').replace(/\(\)$/, '').split('.');
    if (!names.every((name) => words.has(name))) missing.push(code);
  }
  return missing;
};

for (const page of PAGES) {
  it(`${page} names only what exists in the source`, () => {
    expect(checked(page)).toEqual([]);
  });
}

it('the check finds a name that does not exist', () => {
  const words = sourceWords();
  expect(words.has('readInputs')).toBe(true);
  expect(words.has('checkMemory')).toBe(false);
  expect(IDENTIFIER.test('checkMemory')).toBe(true);
});
