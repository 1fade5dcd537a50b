// docs/api.md against the API: every member of `interface Relpos` and every export declared in
// bindings/index.d.ts has a section; every section names something the loaded module really has;
// and every ```js example runs, printing what its `// comment` says.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import * as relpos from '../../bindings/index.js';

const root = new URL('../../', import.meta.url);
const dts = readFileSync(new URL('bindings/index.d.ts', root), 'utf8');
const doc = readFileSync(new URL('docs/api.md', root), 'utf8');

/** Members of `export interface <name> { … }` (properties and methods), read from a .d.ts text. */
function interfaceMembers(text, name) {
  const source = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const start = source.search(new RegExp(`export\\s+interface\\s+${name}\\b[^{]*\\{`));
  if (start < 0) throw new Error(`interface ${name} not found`);
  let i = source.indexOf('{', start);
  let braces = 0;
  let parens = 0;
  let top = '';
  for (; i < source.length; i++) {
    const c = source[i];
    if (c === '{') braces++;
    else if (c === '}') {
      braces--;
      if (braces === 0) break;
    } else if (c === '(') parens++;
    else if (c === ')') parens--;
    else if (braces === 1 && parens === 0) top += c;
  }
  return [
    ...new Set(
      top
        .split(/[;\n]/)
        .map((s) => /^\s*(?:readonly\s+)?([A-Za-z_$][\w$]*)\s*\??\s*[:<]?/.exec(s)?.[1])
        .filter(Boolean),
    ),
  ].filter((m) => !['readonly'].includes(m));
}

/** Exported functions and constants of a .d.ts text. */
function exportedNames(text) {
  return [...text.matchAll(/^export\s+(?:declare\s+)?(?:async\s+)?(?:function|const|let)\s+([A-Za-z_$][\w$]*)/gm)].map(
    (m) => m[1],
  );
}

// Section headings of docs/api.md: "### `rp.bias(id, options)`", "### `rp.schemes`", "### `load(options?)`".
const headings = [...doc.matchAll(/^###\s+`([^`]+)`/gm)].map((m) => m[1]);
const instanceSections = headings
  .filter((h) => h.startsWith('rp.'))
  .map((h) => ({ name: /^rp\.([\w$]+)/.exec(h)[1], method: h.includes('(') }));
const exportSections = headings
  .filter((h) => !h.startsWith('rp.'))
  .map((h) => ({ name: /^([\w$]+)/.exec(h)[1], method: h.includes('(') }));

describe('docs/api.md covers bindings/index.d.ts', { timeout: 30000 }, () => {
  const members = interfaceMembers(dts, 'Relpos');
  const exports = exportedNames(dts);

  it('reads the declarations (sanity)', () => {
    expect(members).toEqual(
      expect.arrayContaining(['version', 'simd', 'schemes', 'bias', 'attention', 'presets', 'fromConfig']),
    );
    expect(exports).toEqual(expect.arrayContaining(['load', 'version']));
  });

  it('documents every member of interface Relpos', () => {
    const documented = new Set(instanceSections.map((s) => s.name));
    expect(members.filter((m) => !documented.has(m))).toEqual([]);
  });

  it('documents every exported function and constant', () => {
    const documented = new Set(exportSections.map((s) => s.name));
    expect(exports.filter((m) => !documented.has(m))).toEqual([]);
  });

  it('documents only what the loaded instance and module have', async () => {
    const rp = await relpos.load();
    for (const { name, method } of instanceSections) {
      expect(name in rp, `rp.${name}`).toBe(true);
      if (method) expect(typeof rp[name], `rp.${name}`).toBe('function');
      else expect(typeof rp[name], `rp.${name}`).not.toBe('function');
      expect(members, `rp.${name} is documented but not declared in index.d.ts`).toContain(name);
    }
    for (const { name, method } of exportSections) {
      expect(name in relpos, `export ${name}`).toBe(true);
      if (method) expect(typeof relpos[name], `export ${name}`).toBe('function');
    }
  });
});

describe('docs/api.md examples', { timeout: 30000 }, () => {
  const blocks = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  const dir = new URL('build/docs-examples/', root);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has an example in every section', () => {
    const sections = doc.split(/^###\s+/m).slice(1);
    for (const section of sections) expect(section, section.split('\n')[0]).toContain('```js');
  });

  blocks.forEach((code, index) => {
    const title = /console\.log\(([^)]{0,40})/.exec(code)?.[1] ?? `block ${index + 1}`;
    it(`example ${index + 1} (${title}…) runs and prints what its comments say`, () => {
      mkdirSync(dir, { recursive: true });
      const file = fileURLToPath(new URL(`example-${index + 1}.mjs`, dir));
      const program = code.includes('import ')
        ? code
        : `import { load } from 'relpos';\nconst rp = await load();\n${code}`;
      writeFileSync(file, program);
      const printed = execFileSync(process.execPath, [file], { encoding: 'utf8' }).trimEnd().split('\n');
      // Single-line console.log calls map one-to-one to printed lines; a trailing comment is the
      // expected output (a parenthesised remark at its end is commentary).
      const logs = code.split('\n').filter((line) => line.includes('console.log('));
      expect(printed).toHaveLength(logs.length);
      logs.forEach((line, k) => {
        const comment = /\);\s*\/\/\s*(.+)$/.exec(line)?.[1];
        if (comment) expect(printed[k]).toBe(comment.replace(/\s*\([^()]*\)$/, '').trim());
      });
    });
  });
});
