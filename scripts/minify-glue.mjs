// Minifies an emscripten JS glue file in place (local names mangled, dead code dropped), as a
// bundler would for a page: emcc 3.1.6 without the closure compiler only strips whitespace.
// Usage: node scripts/minify-glue.mjs dist/relpos.simd.mjs …   (run by CMakeLists.txt after each link)
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { minifySync } from 'rolldown/utils';

for (const file of process.argv.slice(2)) {
  const source = readFileSync(file, 'utf8');
  const { code, errors } = minifySync(basename(file), source, { module: true, compress: true, mangle: true });
  if (errors?.length) throw new Error(`${file}: ${errors.map((e) => e.message).join('; ')}`);
  writeFileSync(file, code);
}
