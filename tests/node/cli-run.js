// The command line (bin/relpos.js) as a user runs it, in a child process, for the CLI tests
// (tests/node/cli.test.js, tests/node/cli-layers.test.js): one launcher and one scratch folder.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';

export const run = promisify(execFile);
export const cli = fileURLToPath(new URL('../../bin/relpos.js', import.meta.url));

/** Runs the CLI; resolves to { code, stdout, stderr } whatever the exit code. */
export async function relpos(...args) {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 60000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    if (typeof error.code !== 'number') throw error;
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

/** build/<name>/, empty before the calling file's tests and removed after them; its path ends in '/'. */
export function scratchDir(name) {
  const dir = fileURLToPath(new URL(`../../build/${name}/`, import.meta.url));
  beforeAll(() => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
