// Minifies an emscripten JS glue file in place (local names mangled, dead code dropped), as a
// bundler would for a page: emcc 3.1.6 without the closure compiler only strips whitespace.
// Before that it cuts runtime code no relpos module can reach (stripUnreachable), which the
// minifier cannot see is dead: each cut must find its text, so another emscripten fails loudly.
// Usage: node scripts/minify-glue.mjs dist/relpos.simd.mjs …   (run by CMakeLists.txt after each link)
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minifySync } from 'rolldown/utils';

// std::wstring, std::u16string and std::u32string: embind registers them at start-up, but no
// binding of relpos takes or returns one (bindings/*_bindings.cpp pass std::string and emscripten::val),
// so their UTF-16 / UTF-32 codecs are never run. Registered still (a signature naming one would
// otherwise fail as an unbound type), with converters that say so if one is ever passed.
const WIDE_STRING =
  /function __embind_register_std_wstring\(rawType,charSize,name\)\{.*?"readValueFromPointer":simpleReadValueFromPointer,destructorFunction:function\(ptr\)\{_free\(ptr\)\}\}\)\}/s;
const WIDE_STRING_STUB =
  'function __embind_register_std_wstring(rawType,charSize,name){name=readLatin1String(name);' +
  'var refuse=function(){throwBindingError("relpos binds no "+name+" (its codec is not in this glue)")};' +
  'registerType(rawType,{name:name,"fromWireType":refuse,"toWireType":refuse,"argPackAdvance":8,' +
  '"readValueFromPointer":simpleReadValueFromPointer,destructorFunction:null})}';

const CUTS = [
  // The wide strings' codecs go with their only user (above); the decoder is made eagerly.
  { what: 'std::wstring registration', find: WIDE_STRING, put: WIDE_STRING_STUB },
  {
    what: 'the UTF-16 decoder',
    find: 'var UTF16Decoder=typeof TextDecoder!="undefined"?new TextDecoder("utf-16le"):undefined;',
    put: '',
  },
  // Module.count_emval_handles / get_first_emval: emscripten's leak-check hooks, which nothing
  // here calls (rp.heapInUse() counts the allocator instead).
  {
    what: 'the emval leak-check hooks',
    find: /function init_emval\(\)\{Module\["count_emval_handles"\]=count_emval_handles;Module\["get_first_emval"\]=get_first_emval\}/,
    put: 'function init_emval(){}',
  },
  // emval's search for the global object where there is no globalThis: every engine load() accepts
  // (WebAssembly exception handling: Chrome 95, Firefox 100, Safari 15.2, Node 17) has globalThis.
  {
    what: 'the global object search',
    find: /function emval_get_global\(\)\{if\(typeof globalThis=="object"\)\{return globalThis\}.*?throw Error\("unable to get global object\."\)\}/s,
    put: 'function emval_get_global(){return globalThis}',
  },
  // Image and audio preloading tables of emscripten's file packager (FILESYSTEM=0: no packager).
  { what: 'the preload tables', find: 'Module["preloadedImages"]={};Module["preloadedAudios"]={};', put: '' },
];

/** The glue `source` without the runtime code of CUTS; an Error naming a cut whose text is missing. */
export function stripUnreachable(source, file = 'glue') {
  let out = source;
  for (const { what, find, put } of CUTS) {
    const found = typeof find === 'string' ? out.includes(find) : find.test(out);
    if (!found) throw new Error(`${file}: minify-glue found no ${what} to cut (another emscripten version?)`);
    out = out.replace(find, put);
  }
  return out;
}

/** The glue minified: CUTS applied, then names mangled and dead code dropped. */
export function minifyGlue(source, file = 'glue.mjs') {
  const { code, errors } = minifySync(basename(file), stripUnreachable(source, file), {
    module: true,
    compress: true,
    mangle: true,
  });
  if (errors?.length) throw new Error(`${file}: ${errors.map((e) => e.message).join('; ')}`);
  return code;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const file of process.argv.slice(2)) writeFileSync(file, minifyGlue(readFileSync(file, 'utf8'), file));
}
