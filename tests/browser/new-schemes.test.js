// The three schemes added as one file each (nope, p-rope, rope-2d) reach the pages with no edit to
// them: the playground lists and draws them (it lists rp.schemes) and the lab offers them (it reads
// rp.lab.schema).
import { describe, expect, it } from 'vitest';
import { PARAM_LABELS_EN } from '../../web/i18n/schemes.en.js';
import { openPage, useSitePage } from './browser.js';

const NEW = ['nope', 'p-rope', 'rope-2d'];
const context = useSitePage('playground.html');

describe('new schemes on the pages', () => {
  it('the playground lists and draws each, with its own parameters', async () => {
    const { page, errors } = context;
    await page.waitForFunction(() => document.getElementById('map')?.dataset.state === 'ready');
    const options = await page.evaluate(() => [...document.getElementById('scheme').options].map((o) => o.value));
    expect(options).toEqual(expect.arrayContaining(NEW));
    for (const id of NEW) {
      await page.selectOption('#scheme', id);
      await page.waitForFunction((scheme) => {
        const map = document.getElementById('map');
        return map.getAttribute('scheme') === scheme && map.dataset.state === 'ready';
      }, id);
    }
    const params = await page.evaluate(() =>
      [...document.querySelectorAll('#scheme-params label')].map((label) => label.textContent),
    );
    // rope-2d's grid width (rp.schemes: width), under its words from web/i18n/schemes.en.js
    expect(params.join(' ')).toContain(PARAM_LABELS_EN.width);
    expect(errors).toEqual([]);
  });

  it('the lab offers each', async () => {
    const { page, errors } = await openPage(context.browser, `${context.site.url}lab.html`);
    await page.waitForFunction(() => document.getElementById('lab')?.shadowRoot?.querySelector('form'));
    const offered = await page.evaluate(() =>
      [...document.getElementById('lab').shadowRoot.querySelectorAll('input[name=scheme]')].map((box) => box.value),
    );
    expect(offered).toEqual(expect.arrayContaining(NEW));
    expect(errors).toEqual([]);
    await page.close();
  });
});
