// The chapter's first figure, production build: the page carries a picture of the explorer's first
// frame that the core computed at build time (web/site/first-figure.js). Through the stages of the
// load — the picture before <relpos-heatmap> is defined, the picture in the defined element while
// the core is held back, the live frame the core draws (in 2D) — the map is the same box on screen
// and shows the same pixels there; and the frame the element draws once the pane has taken it over
// (WebGL2, the default renderer) holds the same pixels as its 2D first frame. A picture that
// differed from what the core computes now (another state, scale, colour rule or place) fails here.
// The stages are held by holding back the element's module, the core's wasm and the chapter's module.
import pngjs from 'pngjs';
import { describe, expect, it } from 'vitest';
import { usePublishedSite } from './site-pages.js';

const published = usePublishedSite();

/** A request held until release() lets it through. */
function holdBack(page, pattern) {
  let release;
  const released = new Promise((resolve) => {
    release = resolve;
  });
  let seen;
  const requested = new Promise((resolve) => {
    seen = resolve;
  });
  return page
    .route(pattern, async (route) => {
      seen();
      await released;
      await route.continue();
    })
    .then(() => ({ release, requested }));
}

/**
 * The map's box: the picture's before the element is defined, else its surface's — in the page's
 * coordinates (`page`, compared between stages) and in the viewport's (`box`, for a screenshot).
 */
function mapBox() {
  const map = document.getElementById('map');
  const picture = map.querySelector(':scope > [slot="first"]');
  const defined = customElements.get('relpos-heatmap') !== undefined;
  const { x, y, width, height } = (
    defined ? map.shadowRoot.querySelector('.surface') : picture
  ).getBoundingClientRect();
  return {
    box: { x, y, width, height },
    page: { x: x + scrollX, y: y + scrollY, width, height },
    picture: Boolean(picture),
    defined,
  };
}

/**
 * The device pixels of `box` on screen, 1 px in from each edge (an edge on a fractional device
 * pixel blends in the surface's outline and the axes' ticks): a clipped screenshot, as RGBA bytes.
 */
async function pixels(page, { x, y, width, height }) {
  const clip = { x: x + 1, y: y + 1, width: width - 2, height: height - 2 };
  const shot = await page.screenshot({ clip, scale: 'device', animations: 'disabled', caret: 'hide' });
  const png = pngjs.PNG.sync.read(shot);
  return { width: png.width, height: png.height, data: png.data };
}

/** The pixels of the element's canvas (WebGL2 keeps its frame: drawImage reads it). */
function canvasPixels() {
  const canvas = document.getElementById('map').shadowRoot.querySelector('canvas.map');
  const copy = Object.assign(document.createElement('canvas'), { width: canvas.width, height: canvas.height });
  const context = copy.getContext('2d');
  context.drawImage(canvas, 0, 0);
  return {
    width: copy.width,
    height: copy.height,
    data: Array.from(context.getImageData(0, 0, copy.width, copy.height).data),
  };
}

/** How many pixels differ between two shots, and the first few where they do. */
function difference(a, b) {
  expect([b.width, b.height]).toEqual([a.width, a.height]);
  let count = 0;
  const where = [];
  for (let p = 0; p < a.data.length; p += 4) {
    if (a.data[p] !== b.data[p] || a.data[p + 1] !== b.data[p + 1] || a.data[p + 2] !== b.data[p + 2]) {
      count++;
      if (where.length < 5) where.push([(p / 4) % a.width, Math.floor(p / 4 / a.width)]);
    }
  }
  return { count, where };
}

describe('the first figure: a build-time picture, then the live heatmap', () => {
  for (const [name, viewport, deviceScaleFactor] of [
    // Tall enough to show the map without scrolling (a scroll position that moves while the element
    // grows would move the map between a box's measure and its screenshot).
    ['phone', { width: 390, height: 2200 }, 3],
    ['desktop', { width: 1280, height: 1600 }, 1],
  ]) {
    it(`${name}: same box and same pixels before the element, before the core, live, and under the pane`, async () => {
      const context = await published.browser.newContext({ serviceWorkers: 'block', viewport, deviceScaleFactor });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      // The core's wasm is fetched once: public/boot.js compiles it from its first byte and
      // bindings/loading.js instantiates that module (a second fetch: the glue compiling it again).
      let coreFetches = 0;
      page.on('request', (request) => {
        if (/\/assets\/relpos\.simd-[^/]*\.wasm$/.test(request.url())) coreFetches++;
      });
      try {
        const element = await holdBack(page, /\/assets\/relpos-heatmap-[^/]*\.js$/);
        const core = await holdBack(page, /\/assets\/relpos\.simd-[^/]*\.wasm$/);
        const chapter = await holdBack(page, /\/assets\/chapter-[^/]*\.js$/);
        await page.goto(published.host.url, { waitUntil: 'commit' });
        // Stage 1: the picture alone, as the HTML and stylesheet lay it out.
        await element.requested;
        await page.waitForFunction(() => {
          const img = document.querySelector('#map > [slot="first"]');
          return img?.complete && img.naturalWidth > 0 && document.readyState !== 'loading';
        });
        const before = await page.evaluate(mapBox);
        expect(before).toMatchObject({ picture: true, defined: false });
        const shots = [['picture', await pixels(page, before.box)]];

        // Stage 2: the element is defined; the core is still held back.
        element.release();
        await page.waitForFunction(() => customElements.get('relpos-heatmap') !== undefined);
        const defined = await page.evaluate(mapBox);
        expect(defined).toMatchObject({ picture: true, defined: true, page: before.page });
        shots.push(['picture in the element', await pixels(page, defined.box)]);

        // Stage 3: the live frame, drawn in 2D; the picture is gone with it.
        await core.requested;
        core.release();
        await page.waitForFunction(() => document.getElementById('map').dataset.state === 'ready');
        const live = {
          ...(await page.evaluate(mapBox)),
          renderer: await page.evaluate(() => document.getElementById('map').renderer),
        };
        expect(live).toMatchObject({ picture: false, renderer: '2d', page: before.page });
        shots.push(['live, 2D', await pixels(page, live.box)]);
        const [, first] = shots[0];
        expect(first.width).toBeGreaterThan(100);
        for (const [stage, shot] of shots.slice(1)) {
          expect(difference(first, shot), `${name}: ${stage} against the picture`).toEqual({ count: 0, where: [] });
        }
        const drawn2D = await page.evaluate(canvasPixels);

        // The pane takes the element over and draws it again with the default renderer (the words
        // above may move it when KaTeX typesets them: its canvas is compared, not the screen).
        chapter.release();
        await page.waitForFunction(
          () =>
            document.documentElement.dataset.ready === 'true' && document.getElementById('map').renderer === 'webgl2',
        );
        const drawnWebGL = await page.evaluate(canvasPixels);
        expect(drawnWebGL.width).toBe(drawn2D.width);
        expect(difference(drawn2D, drawnWebGL), `${name}: WebGL2 frame against the 2D one`).toEqual({
          count: 0,
          where: [],
        });
        expect(coreFetches).toBe(1);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120000);
  }
});
