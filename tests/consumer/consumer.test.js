// The package as users get it: `npm pack` → install the tarball into a fresh project under the
// system temp dir (never a file: dep, which would be symlinked and hide bundler behaviour), then
//   (a) import it in Node 20 and compute; run the installed `relpos` bin,
//   (b) build a page with Vite 8 (production build and dev server) and render a heatmap in Chromium,
//   (c) embed <relpos-heatmap> in a plain HTML page without a bundler (the prebuilt
//       dist/web/relpos-web.js, under a strict CSP; and relpos/web source through an import map),
//   (d) type-check a TypeScript consumer with tsc --strict.
// Hermetic: dependencies come from the npm cache (--prefer-offline); pages are served on
// 127.0.0.1 and any other request fails the test. Needs the wasm build and the web bundle in dist/.
import { execFile } from 'node:child_process';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowser, openPage } from '../browser/browser.js';

const exec = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const keep = Boolean(process.env.RELPOS_KEEP_CONSUMER);

let work; // temp dir holding the tarball and the consumer project
let app; // the consumer project (has node_modules/relpos from the tarball)
let packed; // npm pack --json result
let browser;

const npm = (args, cwd) =>
  exec('npm', args, {
    cwd,
    encoding: 'utf8',
    timeout: 180000,
    maxBuffer: 1 << 26,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
/** Runs node; on failure throws with a short message (emscripten aborts print the whole glue). */
const node = (args, cwd) =>
  exec(process.execPath, args, { cwd, encoding: 'utf8', timeout: 60000, maxBuffer: 1 << 26 }).catch((error) => {
    const short = (text) =>
      String(text ?? '')
        .split('\n')
        .map((line) => line.slice(0, 300))
        .slice(-12)
        .join('\n');
    throw Object.assign(new Error(`node ${args.join(' ')} failed (exit ${error.code}):\n${short(error.stderr)}`), {
      stdout: error.stdout,
    });
  });
const write = (path, text) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
};

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.json': 'application/json',
};

/** A tiny static server on 127.0.0.1 (no directory listing, no escaping the root). */
async function serve(root, headers = {}) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root)) return res.writeHead(403).end();
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) return res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', ...headers });
    createReadStream(file).pipe(res);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((ok) => server.close(ok)) };
}

/**
 * Waits for a <relpos-heatmap> (data-state="ready"), or the page's own canvas, to draw and reads
 * what is displayed: the canvas (2D or WebGL2) is copied through drawImage onto a 2D canvas.
 */
async function heatmapPixels(page, selector) {
  await page.waitForFunction(
    (sel) => {
      const el = document.querySelector(sel);
      if (el?.dataset.state === 'error') return true;
      return el?.dataset.state === 'ready';
    },
    selector,
    { timeout: 20000 },
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (el.dataset.state === 'error') {
      throw new Error(`heatmap error: ${el.shadowRoot?.querySelector('.error')?.textContent ?? ''}`);
    }
    const canvas = el.tagName === 'CANVAS' ? el : el.shadowRoot.querySelector('canvas.map');
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const context = copy.getContext('2d');
    context.drawImage(canvas, 0, 0);
    const { width, height } = copy;
    const px = context.getImageData(0, 0, width, height).data;
    const colours = new Set();
    for (let i = 0; i < px.length; i += 4) colours.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
    // Near the diagonal of a bias map (0) and its far lower-left corner (most negative) must differ.
    const at = (fy, fx) => {
      const k = (Math.floor(fy * height) * width + Math.floor(fx * width)) * 4;
      return Array.from(px.subarray(k, k + 3));
    };
    const n = el.tagName === 'CANVAS' ? width : el.tensor?.shape.at(-1);
    return { n, width, height, colours: colours.size, diagonal: at(0.05, 0.05), corner: at(0.97, 0.02) };
  }, selector);
}

/** Opens `url` in Chromium, runs `check(tab)`, expects no page error; closes the tab, then `server`. */
async function inChromium(server, url, check) {
  try {
    const { page: tab, errors } = await openPage(browser, url);
    await check(tab);
    expect(errors).toEqual([]);
    await tab.close();
  } finally {
    await server.close();
  }
}

function expectHeatmap(result, n) {
  expect(result.n).toBe(n);
  expect(result.width).toBeGreaterThanOrEqual(n);
  expect(result.colours).toBeGreaterThan(8);
  expect(result.diagonal).not.toEqual(result.corner);
}

/** The build's output the package ships: the wasm builds with their glue, and the web bundle. */
const BUILT = [
  'dist/relpos.simd.wasm',
  'dist/relpos.simd.mjs',
  'dist/relpos.baseline.wasm',
  'dist/relpos.baseline.mjs',
  'dist/relpos-analysis.simd.wasm',
  'dist/relpos-analysis.simd.mjs',
  'dist/relpos-analysis.baseline.wasm',
  'dist/relpos-analysis.baseline.mjs',
  'dist/relpos-models.wasm',
  'dist/relpos-models.mjs',
  'dist/web/relpos-web.js',
];

beforeAll(async () => {
  const missing = BUILT.filter((f) => !existsSync(join(repo, f)));
  if (missing.length) throw new Error(`missing ${missing.join(', ')}: run 'bash scripts/build.sh wasm' first`);

  work = mkdtempSync(join(tmpdir(), 'relpos-consumer-'));
  mkdirSync(join(repo, 'build'), { recursive: true });
  // --ignore-scripts: test what is built; packing must not start a build of its own.
  // Under the build lock of scripts/build.sh, so a build running in parallel cannot hand us a
  // wasm file and a glue file from two different builds.
  const { stdout } = await exec(
    'flock',
    [join(repo, 'build', '.build.lock'), 'npm', 'pack', '--json', '--ignore-scripts', '--pack-destination', work],
    { cwd: repo, encoding: 'utf8', timeout: 600000, maxBuffer: 1 << 26 },
  );
  packed = JSON.parse(stdout)[0];
  app = join(work, 'app');
  write(join(app, 'package.json'), JSON.stringify({ name: 'relpos-consumer', private: true, type: 'module' }, null, 2));
  await npm(
    [
      'install',
      join(work, packed.filename),
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--loglevel=error',
    ],
    app,
  );
  browser = await startBrowser();
}, 240000);

afterAll(async () => {
  await browser?.close();
  if (work && !keep) rmSync(work, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('ships the wasm builds, JS entries, types, web components, web bundle and CLI, and nothing else', () => {
    const files = packed.files.map((f) => f.path).sort();
    for (const f of [
      'package.json',
      'README.md',
      'CHANGELOG.md',
      'bin/relpos.js',
      'bindings/index.js',
      'bindings/index.d.ts',
      'bindings/convert.js',
      'bindings/simd.js',
      'bindings/analysis.js',
      ...BUILT,
      'web/index.js',
      'web/index.d.ts',
      'web/components/relpos-heatmap.js',
      'figure/colormap.js',
    ]) {
      expect(files).toContain(f);
    }
    // Every bindings/*.js in the checkout lands (e.g. the worker entry).
    for (const f of readdirSync(join(repo, 'bindings')).filter((name) => /\.(js|d\.ts)$/.test(name))) {
      expect(files).toContain(`bindings/${f}`);
    }
    for (const f of ['docs/elements.md', 'docs/cli.md', 'bindings/figure.js', 'bindings/figure.d.ts']) {
      expect(files).toContain(f);
    }
    const allowed =
      /^(package\.json|README\.md|CHANGELOG\.md|LICENSE|bin\/[\w.-]+\.js|bindings\/[\w.-]+\.(js|d\.ts)|figure\/[\w.-]+\.js|dist\/relpos(-analysis)?\.(simd|baseline)\.(mjs|wasm)|dist\/relpos-models\.(mjs|wasm)|dist\/relpos-fused\.relaxed\.wasm|dist\/web\/[\w./-]+\.js|web\/index\.(js|d\.ts)|web\/components\/[\w.-]+\.(js|d\.ts)|web\/lab\/(messages(\.zh)?|reproduction-words)\.js|docs\/[\w./-]+\.(md|svg|png))$/;
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
    expect(files.some((f) => /\.(cpp|hpp|h)$|^(src|tests|build|scripts)\/|CMakeLists/.test(f))).toBe(false);
  });

  it('holds every file its modules import, and imports nothing but its dependencies', () => {
    const files = new Set(packed.files.map((f) => f.path));
    const missing = [];
    const bare = new Set();
    for (const file of [...files].filter((f) => /\.(m?js)$/.test(f) && !f.startsWith('dist/'))) {
      // Comments (JSDoc's import('…') types among them) are not imports.
      const text = readFileSync(join(app, 'node_modules', 'relpos', file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      const specifiers = [
        ...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm),
        ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
        ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
        ...text.matchAll(/new URL\(\s*['"](\.[^'"]+)['"],\s*import\.meta\.url\)/g),
      ].map((m) => m[1]);
      for (const specifier of specifiers) {
        if (specifier.startsWith('.')) {
          const target = normalize(join(file, '..', specifier));
          if (!files.has(target)) missing.push(`${file} → ${specifier}`);
        } else if (!specifier.startsWith('node:')) bare.add(specifier.split('/')[0]);
      }
    }
    expect(missing).toEqual([]);
    expect([...bare].sort()).toEqual(Object.keys(pkg.dependencies).sort());
  });

  it("keeps the README's and the docs' links inside the package", () => {
    const root = join(app, 'node_modules', 'relpos');
    const broken = [];
    for (const file of packed.files.map((f) => f.path).filter((f) => /^(README\.md|docs\/.*\.md)$/.test(f))) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        // The README links to anything; the docs' links to other docs must resolve (code they cite lives in the repository).
        if (file.startsWith('docs/') && !target.endsWith('.md')) continue;
        if (!existsSync(join(root, file, '..', target))) broken.push(`${file} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('declares ESM exports with types first, the bin, and runtime dependencies only for runtime code', () => {
    expect(pkg.type).toBe('module');
    for (const [key, target] of Object.entries(pkg.exports)) {
      if (typeof target === 'object') expect(Object.keys(target)[0], key).toBe('types');
    }
    expect(pkg.bin).toEqual({ relpos: 'bin/relpos.js' });
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['pngjs', 'uplot']);
    expect(pkg.devDependencies).toHaveProperty('katex');
  });
});

describe('(a) Node 20', () => {
  it('imports the installed package and computes', async () => {
    write(
      join(app, 'node.mjs'),
      `
      import { load, version } from 'relpos';
      import pkg from 'relpos/package.json' with { type: 'json' };
      const rp = await load();
      const bias = rp.bias('alibi', { n: 4, heads: 2, causal: true });
      const { invFreq } = rp.frequencies('rope', { d: 8 });
      // The models module, which load() instantiates beside the core.
      const llama = rp.fromConfig({ model_type: 'llama', hidden_size: 64, num_attention_heads: 4, rope_theta: 500000 });
      console.log(JSON.stringify({ version, pkg: pkg.version, simd: rp.simd, shape: bias.shape,
        row: Array.from(bias.data.subarray(4, 8)), invFreq: Array.from(invFreq), schemes: rp.schemes.length,
        presets: rp.presets.length, config: [llama.scheme, llama.params.base, llama.heads] }));
    `,
    );
    const { stdout } = await node(['node.mjs'], app);
    const out = JSON.parse(stdout);
    expect(out.version).toBe(pkg.version);
    expect(out.pkg).toBe(pkg.version);
    expect(out.simd).toBe(true);
    expect(out.shape).toEqual([2, 4, 4]);
    expect(out.row).toEqual([-0.0625, 0, null, null]); // row 1 of head 0 (slope 2^-4); −Infinity → null in JSON
    expect(out.invFreq.map((v) => Number(v.toFixed(6)))).toEqual([1, 0.1, 0.01, 0.001]);
    expect(out.schemes).toBeGreaterThan(15);
    expect(out.presets).toBeGreaterThan(10);
    expect(out.config).toEqual(['rope', 500000, 4]);
  });

  it('loads the analysis module on first use, in both builds', async () => {
    write(
      join(app, 'analysis.mjs'),
      `
      import { load } from 'relpos';
      for (const simd of [true, false]) {
        const rp = await load({ simd });
        await rp.analysis.ready;
        const { singularValues } = rp.analysis.svd([[3, 0], [0, 4]]);
        const build = rp.analysis.buildInfo();
        console.log(rp.simd, Array.from(singularValues).join(','), build.vectorized, rp.lab.tasks.length > 0);
      }
    `,
    );
    const { stdout } = await node(['analysis.mjs'], app);
    expect(stdout.trim().split('\n')).toEqual(['true 4,3 true true', 'false 4,3 false true']);
  });

  it('loads the baseline build too', async () => {
    write(
      join(app, 'baseline.mjs'),
      `
      import { load } from 'relpos';
      const rp = await load({ simd: false });
      console.log(rp.simd, rp.bias('t5', { n: 3 }).shape.join('x'));
    `,
    );
    const { stdout } = await node(['baseline.mjs'], app);
    expect(stdout.trim()).toBe('false 1x3x3');
  });

  it('runs the installed relpos command (node_modules/.bin) and writes a PNG through pngjs', async () => {
    const bin = join(app, 'node_modules', '.bin', 'relpos');
    const { stderr } = await exec(bin, ['render', 'alibi', '--n', '24', '--heads', '4', '--out', 'out/alibi.png'], {
      cwd: app,
      encoding: 'utf8',
    });
    expect(stderr).toContain('wrote out/alibi.png');
    const png = readFileSync(join(app, 'out', 'alibi.png'));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([24, 24]);
  });

  it('draws a config.json with the installed command, saying which form it drew', async () => {
    const config = readFileSync(join(repo, 'tests', 'fixtures', 'configs', 'bloom-7b1.json'), 'utf8');
    write(join(app, 'bloom-config.json'), config);
    const bin = join(app, 'node_modules', '.bin', 'relpos');
    const args = ['render', '--config', 'bloom-config.json', '--n', '16', '--out', 'out/bloom.csv'];
    const { stderr } = await exec(bin, args, { cwd: app, encoding: 'utf8' });
    expect(stderr).toMatch(/form = keyPosition \(config\): m\*j \(BLOOM\)/);
    expect(readFileSync(join(app, 'out', 'bloom.csv'), 'utf8').split('\n')).toHaveLength(17);
  });

  it('imports every module the package exports that Node can load, and writes a figure with relpos/figure', async () => {
    write(
      join(app, 'exports.mjs'),
      `
      import * as main from 'relpos';
      import * as worker from 'relpos/worker';
      import * as figure from 'relpos/figure';
      import pkg from 'relpos/package.json' with { type: 'json' };
      const rp = await main.load();
      const { figure: f, call } = figure.viewFigure(rp, { scheme: 'rope', view: 'weights', n: 16, causal: true });
      const written = await figure.writeFigure('out/rope.png', f, { scale: 2 });
      console.log(JSON.stringify({ worker: typeof worker.createRelposWorker, pkg: pkg.name, call: call.call,
        format: written.format, rows: f.rows, views: figure.VIEWS }));
    `,
    );
    const out = JSON.parse((await node(['exports.mjs'], app)).stdout);
    expect(out).toEqual({
      worker: 'function',
      pkg: 'relpos',
      call: 'attention',
      format: 'png',
      rows: 16,
      views: ['bias', 'scores', 'weights', 'buckets', 'distances'],
    });
    const png = readFileSync(join(app, 'out', 'rope.png'));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([32, 32]);
    // relpos/web and relpos/web/bundle need a DOM: (b) and (c) load them in Chromium.
    expect(Object.keys(pkg.exports).sort()).toEqual(
      ['.', './figure', './package.json', './web', './web/bundle', './worker'].sort(),
    );
  });
});

describe('(b) Vite 8', () => {
  const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>relpos in vite</title></head>
<body>
  <canvas id="own"></canvas>
  <relpos-heatmap id="element" scheme="alibi" n="48" heads="8" head="2" causal></relpos-heatmap>
  <script type="module" src="./main.js"></script>
  <script type="module">
    import 'relpos/web';   // the README's bundler snippet: an inline module script Vite processes
  </script>
</body></html>`;
  const main = `import { load } from 'relpos';
import { renderHeatmap } from 'relpos/web';
const rp = await load();
const canvas = document.getElementById('own');
renderHeatmap(canvas, rp.bias('alibi', { n: 64, heads: 8 }), { head: 1 });
canvas.dataset.state = 'ready';
// The analysis module arrives on first use, as a chunk and a wasm file of its own.
await rp.analysis.ready;
document.body.dataset.svd = Array.from(rp.analysis.svd([[3, 0], [0, 4]]).singularValues).join(',');
`;

  beforeAll(() => {
    write(join(app, 'vite-site', 'index.html'), page);
    write(join(app, 'vite-site', 'main.js'), main);
  });

  it('builds for production (wasm emitted as a hashed asset) and renders in Chromium', async () => {
    const { build } = await import('vite');
    const root = join(app, 'vite-site');
    await build({
      root,
      configFile: false,
      logLevel: 'error',
      build: { outDir: join(root, 'dist'), target: 'es2022' },
    });
    const assets = readdirSync(join(root, 'dist', 'assets'));
    expect(assets.some((f) => /^relpos\.simd-[\w-]+\.wasm$/.test(f))).toBe(true);
    expect(assets.some((f) => /^relpos-analysis\.simd-[\w-]+\.wasm$/.test(f))).toBe(true);
    const site = await serve(join(root, 'dist'));
    await inChromium(site, `${site.url}/`, async (tab) => {
      expectHeatmap(await heatmapPixels(tab, '#own'), 64);
      expectHeatmap(await heatmapPixels(tab, '#element'), 48);
      await tab.waitForFunction(() => document.body.dataset.svd);
      expect(await tab.evaluate(() => document.body.dataset.svd)).toBe('4,3');
    });
  }, 120000);

  it('serves it from the dev server (pre-bundled dependency) and renders in Chromium', async () => {
    const { createServer: createViteServer } = await import('vite');
    const root = join(app, 'vite-site');
    const server = await createViteServer({
      root,
      configFile: false,
      logLevel: 'error',
      cacheDir: join(root, '.vite'),
      server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
    });
    await server.listen();
    await inChromium(server, `http://127.0.0.1:${server.httpServer.address().port}/`, async (tab) => {
      expectHeatmap(await heatmapPixels(tab, '#own'), 64);
      expectHeatmap(await heatmapPixels(tab, '#element'), 48);
      await tab.waitForFunction(() => document.body.dataset.svd);
      expect(await tab.evaluate(() => document.body.dataset.svd)).toBe('4,3');
    });
  }, 120000);
});

describe('(c) plain HTML, no bundler', () => {
  it('draws <relpos-heatmap> from the prebuilt bundle with one module script, under a strict CSP', async () => {
    write(
      join(app, 'plain', 'index.html'),
      `<!doctype html>
<html><head><meta charset="utf-8"><title>relpos, no bundler</title>
<script type="module" src="/node_modules/relpos/dist/web/relpos-web.js"></script>
</head><body>
<relpos-heatmap id="element" scheme="alibi" n="64" heads="8" head="3"></relpos-heatmap>
</body></html>`,
    );
    // No 'unsafe-eval' (only 'wasm-unsafe-eval'), no inline scripts.
    const csp =
      "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";
    const site = await serve(app, { 'content-security-policy': csp });
    await inChromium(site, `${site.url}/plain/`, async (tab) => {
      expectHeatmap(await heatmapPixels(tab, '#element'), 64);
      // Live attributes: a new n redraws.
      await tab.evaluate(() => {
        const el = document.getElementById('element');
        el.dataset.state = 'pending';
        el.setAttribute('n', '32');
      });
      expectHeatmap(await heatmapPixels(tab, '#element'), 32);
    });
  }, 60000);

  it('draws it from the relpos/web source through an import map', async () => {
    const map = {
      imports: {
        'relpos/web': '/node_modules/relpos/web/index.js',
        uplot: '/node_modules/uplot/dist/uPlot.esm.js',
      },
    };
    write(
      join(app, 'importmap', 'index.html'),
      `<!doctype html>
<html><head><meta charset="utf-8"><title>relpos with an import map</title>
<script type="importmap">${JSON.stringify(map)}</script>
<script type="module">import 'relpos/web';</script>
</head><body>
<relpos-heatmap id="element" scheme="t5" n="40" view="buckets"></relpos-heatmap>
</body></html>`,
    );
    const site = await serve(app);
    await inChromium(site, `${site.url}/importmap/`, async (tab) => {
      const result = await heatmapPixels(tab, '#element');
      expect(result.n).toBe(40);
      expect(result.colours).toBeGreaterThan(8);
    });
  }, 60000);
});

describe('(d) TypeScript', () => {
  it('type-checks a strict consumer of relpos and relpos/web against the installed types', async () => {
    write(
      join(app, 'ts', 'consumer.ts'),
      `
import { load, version, type Relpos, type Tensor, type SchemeInfo } from 'relpos';
import { renderHeatmap, colormapNames, heatmapRendererStats, type HeatmapDrawn, type HeatmapRendererStats,
  type RelposCurve, type RenderDetail } from 'relpos/web';

export async function draw(canvas: HTMLCanvasElement): Promise<HeatmapDrawn> {
  const rp: Relpos = await load({ simd: true });
  const v: string = version;
  const schemes: readonly SchemeInfo[] = rp.schemes;
  const bias: Tensor = rp.bias('alibi', { n: 64, heads: 8, causal: true });
  const buckets: Int32Array = rp.buckets('t5', { n: 16 }).data;
  const { invFreq, attentionFactor } = rp.frequencies('rope-yarn', { d: 64, factor: 4 });
  console.log(v, schemes.length, buckets[0], invFreq[0] * attentionFactor, colormapNames.join());
  return renderHeatmap(canvas, bias, { head: 2, colormap: 'magma' });
}

// @ts-expect-error: bias needs a scheme id
load().then((rp) => rp.bias({ n: 4 }));

export function listen(map: HTMLElementTagNameMap['relpos-heatmap'], curve: RelposCurve): void {
  // One detail shape for every element's relpos-render.
  const onRender = (event: CustomEvent<RenderDetail>) => {
    const { figure, tensor, source, renderer, ms, computeMs, drawMs } = event.detail;
    console.log(figure.kind, tensor?.shape, source?.call, renderer, ms + computeMs + drawMs);
  };
  map.addEventListener('relpos-render', onRender);
  curve.addEventListener('relpos-render', onRender);
  map.addEventListener('relpos-export', (event) => event.detail.blob.size);
  const stats: HeatmapRendererStats = heatmapRendererStats();
  console.log(stats.textures, stats.lost);
}
`,
    );
    write(
      join(app, 'ts', 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['es2022', 'dom'],
          types: [],
          skipLibCheck: false,
        },
        files: ['consumer.ts', 'figure.ts', 'schemes.ts', 'readings.ts'],
      }),
    );
    write(join(app, 'ts', 'package.json'), JSON.stringify({ type: 'module' }));
    // relpos/figure's strict consumer, the generated option types' consumer (with its
    // @ts-expect-error lines for theta, sheme and unknown ids) and the readings' (keyed by scheme),
    // the ones tests/types type-checks against the checkout, here against the packed tarball.
    for (const file of ['figure.ts', 'schemes.ts', 'readings.ts']) {
      write(join(app, 'ts', file), readFileSync(join(repo, 'tests', 'types', file), 'utf8'));
    }
    const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await node([tsc, '-p', join(app, 'ts', 'tsconfig.json')], app).catch((error) => error);
    expect(result.stdout ?? '', 'tsc errors').toBe('');
  }, 60000);
});
