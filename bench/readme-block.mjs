// The README quotes the benchmarks only through blocks the benchmarks write: the text between
// <!-- bench:NAME --> and <!-- /bench:NAME --> in README.md is replaced by the run's summary, and
// the same block (markers included) goes into the run's results file, so tests/node/bench-claims.test.js
// can check that the README says what the last recorded run measured.
import { readFileSync, writeFileSync } from 'node:fs';

const README = new URL('../README.md', import.meta.url);

/** The block `name` with its markers around `text`. */
export function block(name, text) {
  return `<!-- bench:${name} -->\n${text.trim()}\n<!-- /bench:${name} -->`;
}

/** The block `name` (markers included) found in `source`, or null. */
export function findBlock(source, name) {
  const match = source.match(new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->`));
  return match ? match[0] : null;
}

/** Replaces block `name` in README.md with `text`; the README must already hold the markers. */
export function writeReadmeBlock(name, text) {
  const readme = readFileSync(README, 'utf8');
  const old = findBlock(readme, name);
  if (!old) throw new Error(`README.md has no <!-- bench:${name} --> block`);
  writeFileSync(README, readme.replace(old, block(name, text)));
}
