// scripts/minify-glue.mjs cuts emscripten runtime code no relpos module reaches before minifying each
// glue: the wide strings' UTF-16 / UTF-32 codecs (their types stay registered, with converters that
// refuse), the emval leak-check hooks, emval's global-object search for engines without globalThis
// and the file packager's preload tables. The built glues in
// dist/ carry none of it; a glue without the text a cut expects (another emscripten) is an error.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stripUnreachable } from '../../scripts/minify-glue.mjs';

const GLUES = ['relpos.simd', 'relpos.baseline', 'relpos-analysis.simd', 'relpos-analysis.baseline', 'relpos-models'];
const glue = (name) => readFileSync(new URL(`../../dist/${name}.mjs`, import.meta.url), 'utf8');

describe('minify-glue', () => {
  it.each(GLUES)(
    'dist/%s.mjs holds no wide-string codec, emval leak hooks, global search or preload tables',
    (name) => {
      const text = glue(name);
      for (const cut of [
        'utf-16le',
        'count_emval_handles',
        'get_first_emval',
        '$$$embind_global$$$',
        'preloadedImages',
        'preloadedAudios',
      ]) {
        expect(text.includes(cut), cut).toBe(false);
      }
      // The wide string types are still registered, refusing a value with their name.
      expect(text).toContain('relpos binds no ');
    },
  );

  it('names the cut whose text a glue lacks', () => {
    expect(() => stripUnreachable('var Module={};', 'x.mjs')).toThrow(
      'x.mjs: minify-glue found no std::wstring registration to cut (another emscripten version?)',
    );
  });
});
