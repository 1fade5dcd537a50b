// A four-lane float vector: WebAssembly SIMD128 intrinsics in the -msimd128 build, plain scalar
// lanes everywhere else (the baseline wasm build and native builds). Both paths perform the same
// IEEE operations in the same order, so the SIMD and scalar kernels give identical results.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

// Fully unrolls the loop that follows (a register tile's row loop: rolled, its accumulators would
// live in memory).
#if defined(__clang__)
#define RELPOS_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define RELPOS_UNROLL _Pragma("GCC unroll 8")
#else
#define RELPOS_UNROLL
#endif

namespace relpos::simd {

#if defined(__wasm_simd128__)

struct F4 {
  v128_t v;
};
inline F4 load(const float* p) {
  return {wasm_v128_load(p)};
}
inline void store(float* p, F4 a) {
  wasm_v128_store(p, a.v);
}
inline F4 splat(float x) {
  return {wasm_f32x4_splat(x)};
}
// One float from memory in all four lanes (a single broadcast load).
inline F4 broadcast(const float* p) {
  return {wasm_v128_load32_splat(p)};
}
inline F4 add(F4 a, F4 b) {
  return {wasm_f32x4_add(a.v, b.v)};
}
inline F4 sub(F4 a, F4 b) {
  return {wasm_f32x4_sub(a.v, b.v)};
}
inline F4 mul(F4 a, F4 b) {
  return {wasm_f32x4_mul(a.v, b.v)};
}
// pmax (a < b ? b : a) is one x86 instruction; f32x4.max needs a NaN/±0 fix-up sequence.
inline F4 max(F4 a, F4 b) {
  return {wasm_f32x4_pmax(a.v, b.v)};
}
// The integer lanes of a shifted left by `bits`, read back as floats (exponent-field arithmetic).
inline F4 shiftBitsLeft(F4 a, int bits) {
  return {wasm_i32x4_shl(a.v, bits)};
}
// Lanes whose index first + t (t = 0..3) lies outside [begin, end) become `fill`.
inline F4 keepRange(F4 a, int32_t first, int32_t begin, int32_t end, float fill) {
  const v128_t index = wasm_i32x4_add(wasm_i32x4_splat(first), wasm_i32x4_make(0, 1, 2, 3));
  const v128_t inside =
      wasm_v128_and(wasm_i32x4_ge(index, wasm_i32x4_splat(begin)), wasm_i32x4_lt(index, wasm_i32x4_splat(end)));
  return {wasm_v128_bitselect(a.v, wasm_f32x4_splat(fill), inside)};
}
// The lanes of `value` where x < limit become +0 (a NaN x keeps its lane).
inline F4 zeroWhereBelow(F4 value, F4 x, F4 limit) {
  return {wasm_v128_andnot(value.v, wasm_f32x4_lt(x.v, limit.v))};
}
inline float lane(F4 a, int i) {
  float out[4];
  wasm_v128_store(out, a.v);
  return out[i];
}

#else

struct F4 {
  float v[4];
};
inline F4 load(const float* p) {
  F4 r;
  std::memcpy(r.v, p, sizeof r.v);
  return r;
}
inline void store(float* p, F4 a) {
  std::memcpy(p, a.v, sizeof a.v);
}
inline F4 splat(float x) {
  return {{x, x, x, x}};
}
inline F4 broadcast(const float* p) {
  return splat(*p);
}
#define RELPOS_LANEWISE(name, expr)              \
  inline F4 name(F4 a, F4 b) {                   \
    F4 r;                                        \
    for (int i = 0; i < 4; ++i) r.v[i] = (expr); \
    return r;                                    \
  }
RELPOS_LANEWISE(add, a.v[i] + b.v[i])
RELPOS_LANEWISE(sub, a.v[i] - b.v[i])
RELPOS_LANEWISE(mul, a.v[i] * b.v[i])
RELPOS_LANEWISE(max, a.v[i] < b.v[i] ? b.v[i] : a.v[i])
#undef RELPOS_LANEWISE
inline F4 shiftBitsLeft(F4 a, int bits) {
  F4 r;
  for (int i = 0; i < 4; ++i) {
    uint32_t word;
    std::memcpy(&word, &a.v[i], sizeof word);
    word <<= bits;
    std::memcpy(&r.v[i], &word, sizeof word);
  }
  return r;
}
inline F4 keepRange(F4 a, int32_t first, int32_t begin, int32_t end, float fill) {
  F4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = first + i >= begin && first + i < end ? a.v[i] : fill;
  return r;
}
inline F4 zeroWhereBelow(F4 value, F4 x, F4 limit) {
  F4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = x.v[i] < limit.v[i] ? 0.0f : value.v[i];
  return r;
}
inline float lane(F4 a, int i) {
  return a.v[i];
}

#endif

inline float horizontalMax(F4 a) {
  float m = lane(a, 0);
  for (int i = 1; i < 4; ++i) m = lane(a, i) > m ? lane(a, i) : m;
  return m;
}
inline float horizontalSum(F4 a) {
  return (lane(a, 0) + lane(a, 1)) + (lane(a, 2) + lane(a, 3));
}

// 2^x for x <= 0: the softmax's exponential, taken in base 2 because the kernels fold log2(e) into
// the logits' scale for free (kernels.cpp). x = n + f with n = round(x) and f = x - n in
// [-1/2, 1/2] exactly (no two-part ln 2 reduction as e^x needs); 2^f by a degree-6 polynomial,
// near-minimax on that interval (relative error 1.9e-9, so ~1 ulp after float rounding). n is
// rounded by adding 1.5·2^23 + 127, which leaves n + 127 in the low mantissa bits; shifting them
// into the exponent field is 2^n, with no float-to-integer conversion (a long instruction sequence
// in wasm SIMD on x86). x is clamped at -127 (so that n + 127 stays in the field), and below -126
// the power of two is +0: -Infinity and everything below -126 give exactly 0. Results are then 0 or
// at least 2^-126, never subnormal — x86 takes a slow microcode assist for each
// multiply whose result is subnormal (wasm cannot flush them), which cost ALiBi's n = 2048 softmax
// 75 000 of them (docs/performance.md, "Subnormal weights").
inline F4 exp2NonPositive(F4 x) {
  const F4 magic = splat(12582912.0f + 127.0f);
  const F4 clamped = max(x, splat(-127.0f));
  const F4 k = add(clamped, magic);
  const F4 f = sub(clamped, sub(k, magic));
  // Estrin's form: a third of Horner's dependency chain for two more operations; the chain, not
  // the operation count, bounds the softmax's exp pass (12 % faster measured side by side).
  const F4 f2 = mul(f, f);
  const F4 a = add(mul(splat(6.9314720576e-1f), f), splat(1.0f));
  const F4 b = add(mul(splat(5.5503287445e-2f), f), splat(2.4022646930e-1f));
  const F4 c = add(mul(splat(1.5346960976e-4f), f2), add(mul(splat(1.3399941641e-3f), f), splat(9.6184846996e-3f)));
  const F4 p = add(add(a, mul(f2, b)), mul(mul(f2, f2), c));
  return mul(p, zeroWhereBelow(shiftBitsLeft(k, 23), clamped, splat(-126.0f)));
}

inline float exp2NonPositive(float x) {
  float lanes[4] = {x, x, x, x};
  return lane(exp2NonPositive(load(lanes)), 0);
}

}  // namespace relpos::simd
