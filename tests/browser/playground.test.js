// The playground in Chromium: two schemes side by side, presets, a pasted config.json read by
// rp.fromConfig (warnings shown), and the URL hash round trip of both panes.
import { describe, expect, it } from 'vitest';
import { openPage, useSite } from './browser.js';
import { withRp } from './fixtures.js';

const shared = useSite();
const RENDER = `/@fs${new URL('../../web/components/render-heatmap.js', import.meta.url).pathname}`;

const ready = (page, id) => page.waitForFunction((el) => document.getElementById(el)?.dataset.state === 'ready', id);
const attrs = (page, id) =>
  page.evaluate((el) => {
    const m = document.getElementById(el);
    return {
      scheme: m.getAttribute('scheme'),
      n: m.getAttribute('n'),
      heads: m.getAttribute('heads'),
      view: m.getAttribute('view'),
      params: JSON.parse(m.getAttribute('params')),
    };
  }, id);

describe('playground', () => {
  it('shows two schemes side by side and loads a preset', async () => {
    const { page, errors } = await openPage(shared.browser, `${shared.site.url}playground.html`);
    await ready(page, 'map');
    await ready(page, 'b-map');
    expect((await attrs(page, 'map')).scheme).toBe('alibi');
    expect((await attrs(page, 'b-map')).scheme).toBe('rope');
    const boxes = await page.evaluate(() =>
      ['pane-a', 'pane-b'].map((id) => document.getElementById(id).getBoundingClientRect().toJSON()),
    );
    expect(boxes[1].left).toBeGreaterThan(boxes[0].left); // side by side at desktop width
    await page.selectOption('#b-preset', 'llama-3.1-8b');
    await page.waitForFunction(() => document.getElementById('b-map').getAttribute('scheme') === 'rope-llama3');
    const b = await attrs(page, 'b-map');
    expect(b.params.base).toBe(500000);
    expect(b.params.factor).toBe(8);
    await ready(page, 'b-map');
    expect(await page.evaluate(() => location.hash)).toContain('b.scheme=rope-llama3');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('reads a pasted config.json with rp.fromConfig and shows its warnings', async () => {
    const { page, errors } = await openPage(shared.browser, `${shared.site.url}playground.html`);
    await ready(page, 'map');
    const config = {
      model_type: 'qwen2',
      hidden_size: 3584,
      num_attention_heads: 28,
      rope_theta: 1000000,
      max_position_embeddings: 32768,
      rope_scaling: { type: 'yarn', factor: 4, original_max_position_embeddings: 32768 },
    };
    await page.click('#config summary'); // loading a model is a disclosure, opened when asked
    await page.fill('#config-json', JSON.stringify(config));
    await page.selectOption('#config-target', 'a');
    await page.click('#config-apply');
    await page.waitForFunction(() => document.getElementById('map').getAttribute('scheme') === 'rope-yarn');
    const a = await attrs(page, 'map');
    expect(a.params.base).toBe(1000000);
    expect(a.params.factor).toBe(4);
    expect(await page.evaluate(() => document.getElementById('config-result').dataset.kind)).toBe('yes');
    expect(await page.evaluate(() => document.querySelectorAll('#config-warnings li').length)).toBeGreaterThan(0);
    // Something it cannot read is reported, not thrown.
    await page.fill('#config-json', '{"model_type": "mystery"}');
    await page.click('#config-apply');
    expect(await page.evaluate(() => document.getElementById('config-result').dataset.kind)).toBe('no');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('round-trips both panes through the URL hash', async () => {
    const hash = '#scheme=t5&view=bias&n=40&heads=4&head=1&b.scheme=kerple-log&b.n=56&b.heads=2&b.view=scores';
    const { page, errors } = await openPage(shared.browser, `${shared.site.url}playground.html${hash}`);
    await ready(page, 'map');
    await ready(page, 'b-map');
    expect(await attrs(page, 'map')).toMatchObject({ scheme: 't5', n: '40', heads: '4', view: 'bias' });
    expect(await attrs(page, 'b-map')).toMatchObject({ scheme: 'kerple-log', n: '56', heads: '2', view: 'scores' });
    await page.evaluate(() => {
      const n = document.getElementById('b-n');
      n.value = '64';
      n.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const written = await page.evaluate(() => location.hash);
    expect(written).toContain('b.n=64');
    const { page: again, errors: errors2 } = await openPage(
      shared.browser,
      `${shared.site.url}playground.html${written}`,
    );
    await ready(again, 'b-map');
    expect(await attrs(again, 'b-map')).toEqual(await attrs(page, 'b-map'));
    expect(await attrs(again, 'map')).toEqual(await attrs(page, 'map'));
    expect(errors).toEqual([]);
    expect(errors2).toEqual([]);
    await page.close();
    await again.close();
  });

  it('the long-context map runs in a Web Worker and draws what rp.attentionMap computes', async () => {
    const { page, errors } = await openPage(shared.browser, `${shared.site.url}playground.html`);
    await ready(page, 'map');
    const workers = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    await page.evaluate(() => {
      document.querySelector('#pane-a details.long').open = true;
      document.getElementById('long-n').value = '8192';
      document.getElementById('long-size').value = '128';
    });
    await page.click('#pane-a details.long button[data-i18n="pg.long.run"]');
    await page.waitForFunction(
      () => /8,192/.test(document.querySelector('#pane-a details.long .status').textContent),
      null,
      {
        timeout: 60000,
      },
    );
    expect(workers.some((url) => /worker/.test(url))).toBe(true);
    // The drawn map is the one the direct API computes for the pane's scheme (position-only, max
    // pool), drawn by the same renderer: the two canvases hold the same pixels.
    const same = await withRp(
      page,
      `async (rp) => {
        const { renderHeatmap } = await import(${JSON.stringify(RENDER)});
        const direct = await rp.attentionMap({ n: 8192, scheme: document.getElementById('scheme').value, size: 128, pool: 'max' });
        const shown = document.querySelector('#pane-a details.long canvas');
        const fresh = document.createElement('canvas');
        renderHeatmap(fresh, direct, { colormap: shown.dataset.colormap || undefined });
        const pixels = (c) => c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const a = pixels(shown);
        const b = pixels(fresh);
        return shown.width === 128 && a.length === b.length && a.every((v, i) => v === b[i]);
      }`,
    );
    expect(same).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});
