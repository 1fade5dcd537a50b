// `npm run lint` is part of `npm test`: ESLint, Prettier and clang-format report nothing.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

it('npm run lint is clean (ESLint, Prettier, clang-format)', () => {
  const run = spawnSync('bash', ['scripts/lint.sh'], { cwd: root, encoding: 'utf8' });
  expect(`${run.stdout}${run.stderr}`.trim()).toBe('');
  expect(run.status).toBe(0);
}, 60000);
