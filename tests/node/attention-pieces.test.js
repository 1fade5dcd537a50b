// The attention run (src/relpos/ops/attention.cpp) in pieces a reader can hold in their head: the
// model options' reading, the call as read (Call), the key side (KeySide), a block's terms
// (BlockTerms), the results (Results) and the block driver (AttentionRun), each under 150 lines.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const file = fileURLToPath(new URL('../../src/relpos/ops/attention.cpp', import.meta.url));

/** Each top-level class or struct of the file with its length in lines (its opening line to its `};`). */
function pieces(text) {
  const lines = text.split('\n');
  const found = {};
  lines.forEach((line, at) => {
    const head = /^(?:class|struct) (\w+)\b[^;]*\{$/.exec(line);
    if (!head) return;
    const end = lines.findIndex((l, t) => t > at && l === '};');
    found[head[1]] = end - at + 1;
  });
  return found;
}

it('splits the attention run into pieces of under 150 lines each', () => {
  const found = pieces(readFileSync(file, 'utf8'));
  for (const name of ['Call', 'KeySide', 'BlockTerms', 'Results', 'AttentionRun']) expect(found).toHaveProperty(name);
  const long = Object.entries(found).filter(([, lines]) => lines >= 150);
  expect(long).toEqual([]);
});
