// docs/elements.md against the elements' sources and types: every attribute an element reads,
// every event it fires and every property or method it declares is documented in its section; the
// relpos-render detail the shared base builds is the RenderDetail the types and the docs describe.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const doc = read('docs/elements.md');
const dts = read('web/index.d.ts');
const base = read('web/components/element.js');

/** The text of docs/elements.md under `## <heading…>` up to the next `## `. */
function section(heading) {
  const start = doc.indexOf(`## ${heading}`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 3);
  return doc.slice(start, end < 0 ? undefined : end);
}

/** Attributes a source reads: getAttribute / hasAttribute / attr('…'), dataset.x, and quoted lists. */
function attributesRead(source, lists = []) {
  const names = [...source.matchAll(/\b(?:getAttribute|hasAttribute|attr)\('([\w-]+)'/g)].map((m) => m[1]);
  for (const m of source.matchAll(/\bdataset\.(\w+)/g)) {
    if (m[1] !== 'state' && m[1] !== 'format' && m[1] !== 'action') names.push(`data-${m[1]}`);
  }
  for (const list of lists) {
    const body = new RegExp(`const ${list} = \\[([^\\]]*)\\]`).exec(source)?.[1] ?? '';
    names.push(...[...body.matchAll(/'([\w-]+)'/g)].map((m) => m[1]));
  }
  return [...new Set(names)];
}

const eventsFired = (source) => [...new Set([...source.matchAll(/new CustomEvent\('([\w-]+)'/g)].map((m) => m[1]))];

/** Members of `export class <name> … { … }` in web/index.d.ts. */
function declaredMembers(name) {
  const start = dts.indexOf(`export class ${name} `);
  const body = dts.slice(dts.indexOf('{', start) + 1, dts.indexOf('\n}', start));
  return [...body.matchAll(/^\s+(?:readonly\s+)?(\w+)\s*[(:]/gm)].map((m) => m[1]);
}

/** Public getters, setters and methods of a class in a source (no #private, no lifecycle callbacks). */
function sourceMembers(source) {
  const lifecycle = ['constructor', 'connectedCallback', 'disconnectedCallback', 'attributeChangedCallback'];
  const names = [...source.matchAll(/^ {2}(?:async )?(?:get |set )?([a-z]\w*)\(/gm)].map((m) => m[1]);
  return [...new Set(names)].filter((name) => !lifecycle.includes(name));
}

const documented = (text, name) => text.includes(`\`${name}\``) || text.includes(`\`${name}(`);

const elements = [
  {
    tag: 'relpos-heatmap',
    source: read('web/components/relpos-heatmap.js'),
    shared: true,
    members: declaredMembers('RelposHeatmap'),
  },
  {
    tag: 'relpos-curve',
    source: read('web/components/relpos-curve.js'),
    shared: true,
    members: declaredMembers('RelposCurve'),
  },
  { tag: 'relpos-lab', source: read('web/components/relpos-lab.js'), shared: false },
];

describe('docs/elements.md documents every element', () => {
  for (const { tag, source, shared, members } of elements) {
    const text = section(`\`<${tag}>\``);
    const common = section('What every element shares');

    it(`<${tag}>: every attribute it reads`, () => {
      const names = attributesRead(source, ['OWN_ATTRIBUTES']);
      if (shared) names.push(...attributesRead(base, ['COMMON_OPTIONS']));
      expect(names.length).toBeGreaterThan(5);
      expect(names.filter((name) => !documented(text, name))).toEqual([]);
    });

    it(`<${tag}>: every event it fires`, () => {
      const events = eventsFired(source).concat(shared ? eventsFired(base) : []);
      expect(events.length).toBeGreaterThan(0);
      expect(events.filter((name) => !documented(text, name) && !(shared && documented(common, name)))).toEqual([]);
    });

    it(`<${tag}>: every property and method`, () => {
      const names = members ?? sourceMembers(source);
      expect(names.length).toBeGreaterThan(2);
      expect(names.filter((name) => !documented(text, name))).toEqual([]);
    });
  }

  it('the relpos-render detail the base builds is the documented RenderDetail, for every element', () => {
    const built = /const detail = \{([\s\S]*?)\n {6}\};/.exec(base)[1];
    const fields = [...built.matchAll(/^\s+(\w+)[,:]/gm)].map((m) => m[1]);
    const typed = /export interface RenderDetail[^{]*\{([\s\S]*?)\n\}/.exec(dts)[1];
    const types = [...typed.matchAll(/^\s+(\w+):/gm)].map((m) => m[1]);
    expect(fields.sort()).toEqual(types.sort());
    const table = section('What every element shares');
    expect(types.filter((name) => !documented(table, name))).toEqual([]);
    // Neither element builds its own detail.
    for (const { source, shared } of elements) if (shared) expect(source).not.toContain("CustomEvent('relpos-render'");
  });
});
