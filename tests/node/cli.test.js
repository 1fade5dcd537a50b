// The command line (bin/relpos.js) as a user runs it: a child process writing PNG, SVG, CSV and
// JSON files, listing schemes and presets, and failing clearly (non-zero exit) on bad input.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const cli = fileURLToPath(new URL('../../bin/relpos.js', import.meta.url));
const outDir = fileURLToPath(new URL('../../build/cli-test/', import.meta.url));
const out = (name) => `${outDir}${name}`;

/** Runs the CLI; resolves to { code, stdout, stderr } whatever the exit code. */
async function relpos(...args) {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 60000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    if (typeof error.code !== 'number') throw error;
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes) {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** A minimal well-formedness check: balanced tags, one root <svg>. */
function checkXml(text) {
  const body = text.replace(/<\?xml[^>]*\?>/, '').trim();
  expect(body.startsWith('<svg')).toBe(true);
  const stack = [];
  for (const [, close, name, selfClosing] of body.matchAll(/<(\/?)([A-Za-z][\w:-]*)(?:\s[^<>]*?)?(\/?)>/g)) {
    if (close) expect(stack.pop()).toBe(name);
    else if (!selfClosing) stack.push(name);
  }
  expect(stack).toEqual([]);
}

beforeAll(() => {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
});
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('relpos render', { timeout: 30000 }, () => {
  it('writes a PNG of the requested size (ALiBi, causal, one head of 8)', async () => {
    const { code, stderr } = await relpos(
      'render',
      'alibi',
      '--n',
      '96',
      '--heads',
      '8',
      '--head',
      '3',
      '--causal',
      '--out',
      out('alibi.png'),
    );
    expect(code, stderr).toBe(0);
    expect(pngSize(readFileSync(out('alibi.png')))).toEqual({ width: 96, height: 96 });
    expect(stderr).toContain('head 3 of 8');
  });

  it('scales PNG cells with --scale', async () => {
    const { code, stderr } = await relpos(
      'render',
      'exp-decay',
      '--n',
      '20',
      '--scale',
      '3',
      '--colormap',
      'magma',
      '--out',
      out('decay.png'),
    );
    expect(code, stderr).toBe(0);
    expect(pngSize(readFileSync(out('decay.png')))).toEqual({ width: 60, height: 60 });
  });

  it('writes a CSV with n rows of n numbers, equal to the API result', async () => {
    const { code, stderr } = await relpos(
      'render',
      't5',
      '--n',
      '40',
      '--view',
      'buckets',
      '--param',
      'numBuckets=16',
      '--out',
      out('t5.csv'),
    );
    expect(code, stderr).toBe(0);
    const rows = readFileSync(out('t5.csv'), 'utf8').trimEnd().split('\n');
    expect(rows).toHaveLength(40);
    for (const row of rows) expect(row.split(',')).toHaveLength(40);
    const { load } = await import('../../bindings/index.js');
    const rp = await load();
    const expected = rp.buckets('t5', { n: 40, numBuckets: 16 });
    expect(rows.flatMap((r) => r.split(',').map(Number))).toEqual(Array.from(expected.data));
  });

  it('writes -Infinity into CSV for masked cells', async () => {
    const { code } = await relpos('render', 'alibi', '--n', '4', '--causal', '--out', out('causal.csv'));
    expect(code).toBe(0);
    expect(readFileSync(out('causal.csv'), 'utf8').split('\n')[0].split(',')).toEqual([
      '0',
      '-Infinity',
      '-Infinity',
      '-Infinity',
    ]);
  });

  it('writes JSON with shape, metadata and rows (masked cells as null)', async () => {
    const { code, stderr } = await relpos(
      'render',
      'alibi',
      '--n',
      '12',
      '--heads',
      '4',
      '--head',
      '2',
      '--causal',
      '--param',
      'alibiBiasMax=4',
      '--out',
      out('alibi.json'),
    );
    expect(code, stderr).toBe(0);
    const json = JSON.parse(readFileSync(out('alibi.json'), 'utf8'));
    expect(json).toMatchObject({
      scheme: 'alibi',
      view: 'bias',
      n: 12,
      heads: 4,
      head: 2,
      causal: true,
      shape: [12, 12],
      params: { alibiBiasMax: 4 },
    });
    expect(json.data).toHaveLength(12);
    expect(json.data[0]).toHaveLength(12);
    expect(json.data[0][1]).toBeNull();
    expect(json.data[5][0]).toBeCloseTo(-5 * 2 ** -3, 6); // slope of head 2 of 4 with max 4: 2^-(3·4/4)
  });

  it('writes attention weights that are row-stochastic', async () => {
    const { code, stderr } = await relpos(
      'render',
      'rope',
      '--n',
      '16',
      '--d',
      '32',
      '--view',
      'weights',
      '--causal',
      '--out',
      out('weights.json'),
    );
    expect(code, stderr).toBe(0);
    const { data, view } = JSON.parse(readFileSync(out('weights.json'), 'utf8'));
    expect(view).toBe('weights');
    for (const row of data) expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    expect(data[0].slice(1).every((v) => v === 0)).toBe(true);
  });

  it('writes an SVG of <rect> cells for small n', async () => {
    const { code, stderr } = await relpos('render', 'kerple-log', '--n', '10', '--out', out('small.svg'));
    expect(code, stderr).toBe(0);
    const svg = readFileSync(out('small.svg'), 'utf8');
    checkXml(svg);
    expect(svg.match(/<rect /g)).toHaveLength(100);
    expect(svg).toContain('width="80"');
  });

  it('writes an SVG embedding a PNG for large n', async () => {
    const { code, stderr } = await relpos(
      'render',
      'rope',
      '--n',
      '128',
      '--view',
      'scores',
      '--out',
      out('large.svg'),
    );
    expect(code, stderr).toBe(0);
    const svg = readFileSync(out('large.svg'), 'utf8');
    checkXml(svg);
    expect(svg).not.toContain('<rect');
    const base64 = /data:image\/png;base64,([A-Za-z0-9+/=]+)/.exec(svg)[1];
    expect(pngSize(Buffer.from(base64, 'base64'))).toEqual({ width: 128, height: 128 });
  });

  it('accepts a preset id in place of a scheme (its params and heads)', async () => {
    const { code, stderr } = await relpos(
      'render',
      'bloom-7b1',
      '--n',
      '8',
      '--head',
      '31',
      '--out',
      out('bloom.json'),
    );
    expect(code, stderr).toBe(0);
    const json = JSON.parse(readFileSync(out('bloom.json'), 'utf8'));
    expect(json).toMatchObject({ scheme: 'alibi', preset: 'bloom-7b1', heads: 32, head: 31 });
  });
});

describe('relpos schemes / presets / --help', { timeout: 30000 }, () => {
  it('lists every scheme', async () => {
    const { code, stdout } = await relpos('schemes');
    expect(code).toBe(0);
    for (const id of ['alibi', 't5', 'rope-yarn', 'deberta', 'cope']) {
      expect(stdout).toMatch(new RegExp(`^${id}\\s`, 'm'));
    }
  });

  it('lists schemes as JSON with --json', async () => {
    const { code, stdout } = await relpos('schemes', '--json');
    expect(code).toBe(0);
    const schemes = JSON.parse(stdout);
    expect(schemes.find((s) => s.id === 'alibi').params).toHaveProperty('alibiBiasMax');
  });

  it('lists the presets', async () => {
    const { code, stdout } = await relpos('presets');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^llama-3\.1-8b\s+rope-llama3\s+32/m);
  });

  it('prints usage with --help', async () => {
    const { code, stdout } = await relpos('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('relpos render <scheme|preset>');
    expect(stdout).toContain('--view');
  });

  it('prints usage and exits 2 without a command', async () => {
    const { code, stdout } = await relpos();
    expect(code).toBe(2);
    expect(stdout).toContain('Usage:');
  });
});

describe('relpos errors', { timeout: 30000 }, () => {
  const cases = [
    [
      'an unknown scheme',
      ['render', 'alibbi', '--out', out('x.png')],
      2,
      /unknown scheme 'alibbi'; schemes: sinusoidal, .*alibi/,
    ],
    [
      '--param without =',
      ['render', 'alibi', '--param', 'alibiBiasMax', '--out', out('x.png')],
      2,
      /--param must look like name=value/,
    ],
    ['--param with bad JSON', ['render', 'alibi', '--param', 'x=[1,', '--out', out('x.png')], 2, /not valid JSON/],
    [
      'an unknown extension',
      ['render', 'alibi', '--out', out('x.gif')],
      2,
      /--out must end in \.png, \.svg, \.csv, \.json, got '\.gif'/,
    ],
    ['a missing --out', ['render', 'alibi'], 2, /needs --out/],
    ['an unknown option', ['render', 'alibi', '--bogus', '--out', out('x.png')], 2, /--bogus/],
    ['an unknown command', ['draw', 'alibi'], 2, /unknown command 'draw'/],
    ['a view the scheme lacks', ['render', 'alibi', '--view', 'buckets', '--out', out('x.png')], 2, /no buckets view/],
    ['a bad --n', ['render', 'alibi', '--n', 'ten', '--out', out('x.png')], 2, /--n must be an integer/],
    [
      'an unknown colormap',
      ['render', 'alibi', '--colormap', 'jet', '--out', out('x.png')],
      2,
      /--colormap must be one of viridis/,
    ],
    [
      '--head out of range',
      ['render', 'alibi', '--heads', '2', '--head', '2', '--out', out('x.png')],
      2,
      /--head must be < --heads/,
    ],
    [
      'an unknown scheme parameter (from the core)',
      ['render', 'alibi', '--param', 'slope=1', '--out', out('x.png')],
      1,
      /unknown parameter 'slope'/,
    ],
    [
      'an out-of-range parameter (from the core)',
      ['render', 'rope', '--view', 'scores', '--param', 'base=-1', '--out', out('x.png')],
      1,
      /base/,
    ],
  ];
  for (const [what, args, expectedCode, message] of cases) {
    it(`rejects ${what} with exit code ${expectedCode}`, async () => {
      const { code, stderr } = await relpos(...args);
      expect(code).toBe(expectedCode);
      expect(stderr).toMatch(/^relpos: /);
      expect(stderr).toMatch(message);
    });
  }
});
