// Feature tests for what the wasm builds need: SIMD128 (the SIMD build), relaxed SIMD (the fused
// kernels of the relaxed build) and exception handling (every build: C++ exceptions compile to
// wasm `try`/`catch`). As meshoptimizer does, each validates
// a tiny module that uses the feature; engines without it reject the module.
// SIMD: one function returning `i8x16.splat(i32.const 0)`.
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

// Relaxed SIMD (the relaxed build's fused kernels, docs/build.md): one function returning
// `f32x4.relaxed_madd` (opcode 0xfd 0x105, the final encoding) of three `i8x16.splat(i32.const 0)`.
const RELAXED_SIMD_PROBE = new Uint8Array([
  ...[0, 97, 115, 109, 1, 0, 0, 0], // \0asm, version 1
  ...[1, 5, 1, 96, 0, 1, 123], // type section: () -> v128
  ...[3, 2, 1, 0], // function section: one function of type 0
  ...[10, 19, 1, 17, 0], // code section, one body of 17 bytes, no locals
  ...[65, 0, 253, 15, 65, 0, 253, 15, 65, 0, 253, 15], // three i8x16.splat(i32.const 0)
  ...[253, 133, 2, 11], // f32x4.relaxed_madd; end
]);

// Exception handling: one function whose body is `try catch_all end`.
const EXCEPTIONS_PROBE = new Uint8Array([
  ...[0, 97, 115, 109, 1, 0, 0, 0], // \0asm, version 1
  ...[1, 4, 1, 96, 0, 0], // type section: () -> ()
  ...[3, 2, 1, 0], // function section: one function of type 0
  ...[10, 8, 1, 6, 0, 6, 64, 25, 11, 11], // code: try (empty block type); catch_all; end; end
]);

function validates(bytes) {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(bytes);
  } catch {
    return false;
  }
}

export function simdSupported() {
  return validates(SIMD_PROBE);
}

export function relaxedSimdSupported() {
  return validates(RELAXED_SIMD_PROBE);
}

export function exceptionsSupported() {
  return validates(EXCEPTIONS_PROBE);
}
