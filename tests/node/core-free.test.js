// The core (src/) is plain C++17 that builds natively as well as to wasm (docs/architecture.md): no
// Emscripten header, macro or namespace in it. The wasm-only glue — the relaxed side module's
// entry (EM_JS relpos_fused_rows), Embind — lives in bindings/ and is registered into the core.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(c|cc|cpp|h|hpp|inc)$/.test(entry.name) ? [path] : [];
  });
}

// What ties a file to Emscripten: its headers, its EM_ macros, its C++ namespace.
const EMSCRIPTEN =
  /#\s*include\s*[<"]emscripten[/.]|\bEM_(JS|ASM\w*|ASYNC_JS)\s*\(|\bEMSCRIPTEN_KEEPALIVE\b|\bemscripten::/;

function emscriptenLines(files) {
  const found = [];
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, at) => {
        if (EMSCRIPTEN.test(line)) found.push(`${relative(root, file)}:${at + 1}: ${line.trim()}`);
      });
  }
  return found;
}

it('src/ includes no Emscripten header and uses no Emscripten macro or namespace', () => {
  const files = sources(join(root, 'src'));
  expect(files.length).toBeGreaterThan(50);
  expect(emscriptenLines(files)).toEqual([]);
});

it('the check finds what it looks for (the bindings use Emscripten)', () => {
  const found = emscriptenLines(sources(join(root, 'bindings')));
  expect(found.some((line) => line.includes('#include <emscripten/bind.h>'))).toBe(true);
  expect(found.some((line) => line.includes('EM_JS(int, relpos_fused_rows'))).toBe(true);
});
