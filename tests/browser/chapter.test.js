// The chapter as a reader sees it, in Chromium: 中文 glyphs are drawn (not empty boxes), anchors land
// below the sticky header, every demo is a numbered figure the text refers to, heatmaps carry axes and a
// colour scale, log axes label their small ticks, rows are counted the same way in text and hover, and
// the chapter's labs speak the page's language.
import { describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';
import { labMessagesZh } from '../../web/lab/messages.zh.js';
import { openPage, useSite } from './browser.js';
import { mountDemos } from './site-pages.js';

const shared = useSite();

/** Ink mask of a cell of a screenshot, resampled to 16×16 (1 = darker than the background). */
function cellMask(png, { x, y, width, height }) {
  const N = 16;
  const mask = new Uint8Array(N * N);
  let ink = 0;
  for (let gy = 0; gy < N; gy++) {
    for (let gx = 0; gx < N; gx++) {
      const px = Math.min(png.width - 1, Math.floor(x + ((gx + 0.5) / N) * width));
      const py = Math.min(png.height - 1, Math.floor(y + ((gy + 0.5) / N) * height));
      const at = (py * png.width + px) * 4;
      const luminance = 0.299 * png.data[at] + 0.587 * png.data[at + 1] + 0.114 * png.data[at + 2];
      mask[gy * N + gx] = luminance < 128 ? 1 : 0;
      ink += mask[gy * N + gx];
    }
  }
  return { mask, coverage: ink / (N * N) };
}

const differs = (a, b) => a.mask.reduce((sum, v, k) => sum + (v !== b.mask[k] ? 1 : 0), 0) / a.mask.length;

describe('the chapter as it renders', () => {
  it('draws 中文 glyphs: every character cell has ink, differs from the missing-glyph box and from the others', async () => {
    const { page, errors } = await openPage(shared.browser, `${shared.site.url}?lang=zh#s211`);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
    // The heading of 2.1.1, followed by a character no font has (its cell shows the missing-glyph box).
    // The section sets its words again when it comes into view, so the probe goes in after that.
    await page.evaluate(() => document.querySelector('#s211 h2').scrollIntoView());
    await page.waitForFunction(() => document.getElementById('s211').dataset.shown === 'true');
    await page.evaluate(() => {
      const h2 = document.querySelector('#s211 h2');
      const probe = document.createElement('span');
      probe.className = 'tofu-probe';
      probe.textContent = '\u0378';
      h2.append(probe);
    });
    const measure = () =>
      page.evaluate(() => {
        const h2 = document.querySelector('#s211 h2');
        const text = h2.firstChild;
        const rects = [];
        for (let k = 0; k < text.data.length; k++) {
          if (!/[\u4e00-\u9fff]/.test(text.data[k])) continue;
          const range = document.createRange();
          range.setStart(text, k);
          range.setEnd(text, k + 1);
          const r = range.getBoundingClientRect();
          rects.push({ char: text.data[k], x: r.x, y: r.y, width: r.width, height: r.height });
        }
        const t = h2.querySelector('.tofu-probe').getBoundingClientRect();
        return { rects, tofu: { char: 'tofu', x: t.x, y: t.y, width: t.width, height: t.height } };
      });
    // Demos around the heading mount as it scrolls into view and can move it: the cells are measured
    // before and after the screenshot, and the screenshot is kept only when the two agree.
    let cells;
    let shot;
    for (let attempt = 0; attempt < 20; attempt++) {
      const before = await measure();
      const png = PNG.sync.read(await page.screenshot());
      const after = await measure();
      if (JSON.stringify(before) === JSON.stringify(after)) {
        [cells, shot] = [after, png];
        break;
      }
      await page.waitForTimeout(250);
    }
    expect(cells, 'the heading stayed put for one screenshot').toBeDefined();
    expect(cells.rects.length).toBeGreaterThanOrEqual(8);
    const tofu = cellMask(shot, cells.tofu);
    const glyphs = cells.rects.map((r) => ({ char: r.char, ...cellMask(shot, r) }));
    for (const g of glyphs) {
      expect(g.coverage, `${g.char} has ink`).toBeGreaterThan(0.05);
      expect(differs(g, tofu), `${g.char} is not the missing-glyph box`).toBeGreaterThan(0.1);
    }
    // Distinct characters draw distinct shapes (missing glyphs would all draw the same box).
    const chars = [...new Set(glyphs.map((g) => g.char))];
    const shapes = new Set(glyphs.map((g) => g.mask.join('')));
    expect(shapes.size).toBeGreaterThanOrEqual(chars.length - 1);
    // Chinese glyphs are full width: each cell is about as wide as it is tall.
    for (const r of cells.rects) expect(r.width / r.height).toBeGreaterThan(0.6);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('an anchor link lands below the sticky header', async () => {
    const { page, errors } = await openPage(shared.browser, shared.site.url);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
    for (const id of ['s213', 's217']) {
      await page.click(`.toc a[href="#${id}"]`);
      // Wait until the demos around the section have mounted and the section has stayed put for
      // 300 ms, judged two frames later: a height change and the scroll that answers it (a
      // ResizeObserver, after layout) land in the same frame, never between two of them.
      await page.waitForFunction(
        (s) =>
          new Promise((resolve) => {
            const top = () => document.querySelector(`#${s} h2`).getBoundingClientRect().top;
            const [y, t] = [scrollY, top()];
            const loading = () => document.querySelector('.demo[data-state="loading"]');
            const frames = (f) => requestAnimationFrame(() => requestAnimationFrame(f));
            setTimeout(() => frames(() => resolve(scrollY === y && top() === t && !loading())), 300);
          }),
        id,
        { timeout: 30000 },
      );
      const { header, heading } = await page.evaluate((s) => {
        const bar = document.querySelector('.topbar, body > header');
        return {
          header: bar.getBoundingClientRect().bottom,
          heading: document.querySelector(`#${s} h2`).getBoundingClientRect().top,
        };
      }, id);
      expect(heading, id).toBeGreaterThanOrEqual(header - 1);
      expect(heading, id).toBeLessThan(header + 120);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  for (const [language, table] of [
    ['en', en],
    ['zh', zh],
  ]) {
    it(`every demo is a numbered figure with a caption that the text refers to (${language})`, async () => {
      const { page, errors } = await openPage(shared.browser, `${shared.site.url}?lang=${language}`);
      await mountDemos(page);
      const report = await page.evaluate(() => {
        const figures = Array.from(document.querySelectorAll('#chapter .rp-figure'), (f) => ({
          id: f.id,
          caption: f.querySelector(':scope > figcaption')?.textContent ?? '',
          text: f.querySelector(':scope > figcaption .rp-figure-text')?.textContent ?? '',
          inDemo: Boolean(f.closest('.demo')),
        }));
        // The prose: everything in the chapter outside figures and demos.
        const prose = Array.from(document.querySelectorAll('#chapter p, #chapter li'))
          .filter((p) => !p.closest('.demo, .rp-figure'))
          .map((p) => p.textContent)
          .join('\n');
        const demos = Array.from(document.querySelectorAll('.demo[data-demo]'), (d) => ({
          id: `${d.dataset.demo}/${d.dataset.part ?? ''}`,
          figures: d.querySelectorAll('.rp-figure').length,
        }));
        return { figures, prose, demos };
      });
      for (const demo of report.demos) expect(demo.figures, demo.id).toBeGreaterThan(0);
      const numbers = report.figures.map((f) => f.id.replace(/^fig-(\d)-(\d)-(\d)-([a-z])$/, '$1.$2.$3-$4'));
      expect(new Set(numbers).size).toBe(numbers.length);
      report.figures.forEach((f, k) => {
        expect(f.id).toMatch(/^fig-2-1-\d-[a-z]$/);
        const label = table.page['ui.figure'].replace('{n}', numbers[k]);
        expect(f.caption.startsWith(label), f.id).toBe(true);
        expect(f.text.trim().length, f.id).toBeGreaterThan(5);
      });
      const referenced = new Set(report.prose.match(/2\.1\.\d-[a-z]/g));
      for (const n of numbers) expect(referenced.has(n), `the text refers to ${n}`).toBe(true);
      for (const n of referenced) expect(numbers, `${n} exists`).toContain(n);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it('heatmaps carry axes and a colour scale; log axes label their small ticks', async () => {
    const { page, errors } = await openPage(shared.browser, shared.site.url);
    await mountDemos(page);
    const grids = await page.evaluate(() =>
      Array.from(document.querySelectorAll('#chapter .rp-matrix-grid'), (g) => ({
        x: g.querySelectorAll('.rp-axis-x span').length,
        y: g.querySelectorAll('.rp-axis-y span').length,
        bar: g.querySelectorAll('.rp-colorbar-ticks span').length,
        gradient: g.querySelector('.rp-colorbar').style.background.includes('gradient'),
        titles: Array.from(g.querySelectorAll('.rp-axis-title, .rp-colorbar-unit'), (t) => t.textContent.trim()),
      })),
    );
    expect(grids.length).toBeGreaterThan(10);
    for (const g of grids) {
      expect(g.x).toBeGreaterThanOrEqual(2);
      expect(g.y).toBeGreaterThanOrEqual(2);
      expect(g.bar).toBeGreaterThanOrEqual(2);
      expect(g.gradient).toBe(true);
      expect(g.titles.every((t) => t.length > 0)).toBe(true);
    }
    // Figure 2.1.8-c: rotation errors from ~1e-8 up, on log axes — every tick label is distinct, none is "0".
    const labels = await page.evaluate(() => {
      const plot = document.querySelector('#fig-2-1-8-c relpos-curve').plot;
      return plot.axes.map((a) => (a._values ?? []).filter((v) => v != null));
    });
    const y = labels[1];
    expect(y.length).toBeGreaterThanOrEqual(3);
    expect(new Set(y).size).toBe(y.length);
    expect(y).not.toContain('0');
    expect(y.some((v) => v.includes('10⁻'))).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('counts rows the same way in the text and in the hover readout', async () => {
    const { page, errors } = await openPage(shared.browser, `${shared.site.url}#s211`);
    await mountDemos(page);
    for (const k of [0, 3]) {
      await page.focus(`#s211 .tokens > :nth-child(${k + 1}) button`);
      const { row, readout } = await page.evaluate(() => ({
        row: document.querySelector('#s211 .readout-row').textContent,
        readout: document.querySelector('#s211 .readout').textContent,
      }));
      expect(row.startsWith(`Row i = ${k}:`), row).toBe(true);
      expect(readout.startsWith(`i = ${k}, j = ${k},`), readout).toBe(true);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a claim whose check fails is marked after its sentence, in the reader’s language', async () => {
    const { page, errors } = await openPage(shared.browser, `${shared.site.url}#s212`);
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
    const selector = '[data-i18n="s212.claim.relativeInvariant"]';
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.holds, selector);
    const note = () => page.evaluate((s) => getComputedStyle(document.querySelector(s), '::after').content, selector);
    // Every claim of the page holds at its settings: nothing is marked.
    expect(await page.evaluate(() => document.querySelectorAll('[data-claim][data-holds="false"]').length)).toBe(0);
    expect(await note()).toBe('none');
    // A failing check (forced here) shows the note, and the note follows the language.
    await page.evaluate((s) => {
      document.querySelector(s).dataset.holds = 'false';
    }, selector);
    expect(await note()).toBe(JSON.stringify(en.page['claim.fails']));
    await page.selectOption('#lang', 'zh');
    await page.waitForFunction(() => document.documentElement.lang.startsWith('zh'));
    expect(await note()).toBe(JSON.stringify(zh.page['claim.fails']));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('2.1.7: a preset sets every control from the preset alone, whatever came before', async () => {
    const { page, errors } = await openPage(shared.browser, `${shared.site.url}#s217`);
    await mountDemos(page);
    const part = '.demo[data-demo="s217"][data-part="turns"]';
    const read = () =>
      page.evaluate((p) => {
        const root = document.querySelector(p);
        const value = (name) => root.querySelector(`[name="${name}"]`).value;
        return {
          state: JSON.parse(root.dataset.state),
          scaling: value('scaling'),
          factor: value('factor'),
          rotD: value('rotD'),
          train: value('train'),
          incomplete: root.querySelector('[data-stat="incomplete"]').textContent,
        };
      }, part);
    const choose = (id) => page.selectOption(`${part} [name="preset"]`, id);
    await choose('llama-3.1-8b');
    expect(await read()).toMatchObject({ scaling: 'rope-llama3', factor: '8' });
    await choose('qwen2-7b');
    expect(await read()).toMatchObject({ scaling: 'rope', train: '131072' });
    await choose('gpt-j-6b');
    const gptj = await read();
    expect(gptj).toMatchObject({ rotD: '64', incomplete: '11 of 32 (first: pair 21)' });
    await choose('mistral-7b');
    expect((await read()).train).toBe('4096');
    await choose('deepseek-v3');
    expect((await read()).factor).toBe('40');
    // Moving a control leaves the preset.
    await page.selectOption(`${part} [name="scaling"]`, 'rope-ntk');
    expect((await read()).state.preset).toBe('');
    expect(await page.evaluate((p) => document.querySelector(`${p} [name="preset"]`).value, part)).toBe('');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the chapter’s labs speak 中文 and 2.1.8 offers one comparison per strategy', async () => {
    const { page, errors } = await openPage(shared.browser, `${shared.site.url}?lang=zh`);
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
    await page.waitForFunction(() => document.querySelectorAll('relpos-lab').length === 3);
    const labs = await page.evaluate(() =>
      Array.from(document.querySelectorAll('relpos-lab'), (lab) => ({
        section: lab.dataset.section,
        title: lab.shadowRoot.querySelector('h3')?.textContent,
        length: lab.shadowRoot.querySelector('[name=length]')?.value,
        steps: lab.shadowRoot.querySelector('[name=steps]')?.value,
      })),
    );
    for (const lab of labs) expect(lab.title, lab.section).toBe(labMessagesZh.title);
    // 2.1.2's lab runs the budget its text states.
    expect(labs.find((l) => l.section === 's212')).toMatchObject({ length: '16', steps: '500' });
    const buttons = await page.evaluate(() =>
      Array.from(document.querySelectorAll('.lab-slot[data-lab=s218] button[data-strategy]'), (b) => b.textContent),
    );
    expect(buttons).toEqual([
      zh.page['s218.run.normalisation'],
      zh.page['s218.run.clipping'],
      zh.page['s218.run.learningRate'],
    ]);
    // And back to English (its words load when asked: web/i18n/index.js).
    await page.selectOption('#lang', 'en');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    expect(
      await page.evaluate(() => document.querySelector('relpos-lab').shadowRoot.querySelector('h3').textContent),
    ).toBe('Extrapolation lab');
    expect(errors).toEqual([]);
    await page.close();
  });
});
