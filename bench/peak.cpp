// The wasm SIMD mul+add peak probe of `npm run bench`: the most f32x4 multiply-then-add work one
// thread can issue (WebAssembly SIMD128 has no fused multiply-add). Twelve independent chains
// acc = acc * m + c keep the multipliers and adders busy without spilling the 16 vector registers;
// with 0 < m < 1 the values converge and never become denormal or infinite. Every chain feeds the
// returned value: when only one did, the compilers (clang for the FMA probe, V8 for the other)
// dropped the eleven dead chains and the probe timed one latency-bound chain while counting twelve
// (docs/performance.md, "The peak probes").
#include <wasm_simd128.h>

constexpr int CHAINS = 12;

namespace {

// `iterations` rounds of acc[i] = step(acc[i], m, c) over the CHAINS chains; returns the sum of
// every lane of every chain, so that none of them is dead code. m and c are arguments (not
// constants) so they sit in registers.
template <typename Step>
inline __attribute__((always_inline)) float chains(int iterations, float m, float c, Step step) {
  const v128_t mv = wasm_f32x4_splat(m);
  const v128_t cv = wasm_f32x4_splat(c);
  v128_t acc[CHAINS];
  for (int i = 0; i < CHAINS; ++i) acc[i] = wasm_f32x4_splat(static_cast<float>(i + 1));
#pragma clang loop unroll(disable)
  for (int it = 0; it < iterations; ++it) {
#pragma clang loop unroll(full)
    for (int i = 0; i < CHAINS; ++i) acc[i] = step(acc[i], mv, cv);
  }
  v128_t sum = acc[0];
  for (int i = 1; i < CHAINS; ++i) sum = wasm_f32x4_add(sum, acc[i]);
  return (wasm_f32x4_extract_lane(sum, 0) + wasm_f32x4_extract_lane(sum, 1)) +
         (wasm_f32x4_extract_lane(sum, 2) + wasm_f32x4_extract_lane(sum, 3));
}

}  // namespace

extern "C" {

// CHAINS multiplies and CHAINS adds of four lanes per round: the work is iterations *
// flopsPerIteration() operations.
__attribute__((used)) float peak(int iterations, float m, float c) {
  return chains(iterations, m, c,
                [](v128_t a, v128_t mv, v128_t cv) { return wasm_f32x4_add(wasm_f32x4_mul(a, mv), cv); });
}

#if defined(__wasm_relaxed_simd__)
// The same chains with f32x4.relaxed_madd: one fused multiply-add per chain and round where the
// engine has FMA hardware (the ceiling of the relaxed build's kernels). Built by clang-19
// (bench/native.mjs, buildFmaProbe); Emscripten 3.1.6 cannot.
__attribute__((used)) float peakFma(int iterations, float m, float c) {
  return chains(iterations, m, c, [](v128_t a, v128_t mv, v128_t cv) { return wasm_f32x4_relaxed_madd(a, mv, cv); });
}
#endif

__attribute__((used)) int flopsPerIteration() {
  return CHAINS * 8;
}
}
