// Feature test for WebAssembly SIMD128 (as meshoptimizer does): validate a tiny module whose only
// function returns `i8x16.splat(i32.const 0)`. Engines without SIMD reject it.
const SIMD_PROBE = new Uint8Array([
  0,
  97,
  115,
  109,
  1,
  0,
  0,
  0, // \0asm, version 1
  1,
  5,
  1,
  96,
  0,
  1,
  123, // type section: () -> v128
  3,
  2,
  1,
  0, // function section: one function of type 0
  10,
  8,
  1,
  6,
  0,
  65,
  0,
  253,
  15,
  11, // code: i32.const 0; i8x16.splat; end
]);

export function simdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}
