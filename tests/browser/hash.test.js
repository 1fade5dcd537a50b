// The playground keeps its whole state in the URL hash: a link reproduces the view, and a
// garbage or hostile hash is ignored (no error, no markup, valid defaults).
import { describe, expect, it } from 'vitest';
import { openPage, useSite } from './browser.js';

const shared = useSite();

const mapState = (page) =>
  page.evaluate(() => {
    const el = document.getElementById('map');
    return {
      scheme: el.getAttribute('scheme'),
      view: el.getAttribute('view'),
      n: el.getAttribute('n'),
      heads: el.getAttribute('heads'),
      head: el.getAttribute('head'),
      causal: el.getAttribute('causal'),
      colormap: el.getAttribute('colormap'),
      params: JSON.parse(el.getAttribute('params')),
      hash: location.hash,
    };
  });

// The pane's map, drawn at size n: the chapter's page draws its map before the pane takes it over
// (web/site/first-figure.js), and marks itself ready once the pane's map has drawn (chapter.js).
async function ready(page, n) {
  await page.waitForFunction((size) => {
    const el = document.getElementById('map');
    return (
      document.documentElement.dataset.ready === 'true' &&
      el?.dataset.state === 'ready' &&
      el.tensor?.shape.at(-1) === size
    );
  }, n);
}

describe('URL hash state', () => {
  it('a hash sets the view, control changes write the hash, and the hash round-trips', async () => {
    const { page, errors } = await openPage(
      shared.browser,
      `${shared.site.url}#scheme=rope&view=scores&n=32&heads=2&head=1&causal=true&colormap=magma&p.base=500`,
    );
    await ready(page, 32);
    let s = await mapState(page);
    expect(s).toMatchObject({
      scheme: 'rope',
      view: 'scores',
      n: '32',
      heads: '2',
      head: '1',
      causal: 'true',
      colormap: 'magma',
    });
    expect(s.params.base).toBe(500);
    await page.evaluate(() => {
      const n = document.getElementById('n');
      n.value = '48';
      n.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await ready(page, 48);
    s = await mapState(page);
    expect(s.hash).toContain('n=48');
    expect(s.hash).toContain('p.base=500');
    const { page: again, errors: errors2 } = await openPage(shared.browser, `${shared.site.url}${s.hash}`);
    await ready(again, 48);
    const t = await mapState(again);
    expect({ ...t, hash: undefined }).toEqual({ ...s, hash: undefined });
    expect(errors).toEqual([]);
    expect(errors2).toEqual([]);
    await page.close();
    await again.close();
  });

  it('survives garbage and hostile hashes', async () => {
    const hostile = [
      `#scheme=${encodeURIComponent('<img src=x onerror=alert(1)>')}&n=99999&view=%E0%A4%A&p.__proto__=1&head=-1`,
      '#%%%&&&===',
      `#${'n=8&'.repeat(3000)}`,
      `#view=${encodeURIComponent('"><script>alert(1)</script>')}&p.alibiBiasMax=1e999`,
    ];
    for (const hash of hostile) {
      const { page, errors } = await openPage(shared.browser, `${shared.site.url}${hash}`);
      let dialog = false;
      page.on('dialog', (d) => {
        dialog = true;
        d.dismiss();
      });
      await ready(page, 64);
      const s = await mapState(page);
      expect(s).toMatchObject({ scheme: 'alibi', view: 'bias', n: '64' });
      expect(Number.isFinite(s.params.alibiBiasMax)).toBe(true);
      expect(await page.evaluate(() => document.querySelectorAll('img, script:not([src])').length)).toBe(0);
      expect(dialog).toBe(false);
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it('follows hashchange (links inside the page)', async () => {
    const { page, errors } = await openPage(shared.browser, shared.site.url);
    await ready(page, 64);
    await page.evaluate(() => {
      location.hash = '#scheme=t5&view=buckets&n=40';
    });
    await ready(page, 40);
    expect(await mapState(page)).toMatchObject({ scheme: 't5', view: 'buckets', n: '40' });
    expect(errors).toEqual([]);
    await page.close();
  });
});
