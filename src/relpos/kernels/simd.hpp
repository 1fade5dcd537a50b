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
inline F4 nearest(F4 a) {
  return {wasm_f32x4_nearest(a.v)};
}
// 2^n for integral n in [-126, 127], built from the exponent bits.
inline F4 pow2i(F4 n) {
  const v128_t biased = wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n.v), wasm_i32x4_splat(127));
  return {wasm_i32x4_shl(biased, 23)};
}
// Lanes where a < limit become +0.
inline F4 zeroBelow(F4 a, F4 value, float limit) {
  return {wasm_v128_andnot(value.v, wasm_f32x4_lt(a.v, wasm_f32x4_splat(limit)))};
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
inline F4 nearest(F4 a) {
  F4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = std::nearbyint(a.v[i]);  // ties to even, as f32x4.nearest
  return r;
}
inline F4 pow2i(F4 n) {
  F4 r;
  for (int i = 0; i < 4; ++i) {
    const int32_t bits = (static_cast<int32_t>(n.v[i]) + 127) * (1 << 23);
    std::memcpy(&r.v[i], &bits, sizeof bits);
  }
  return r;
}
inline F4 zeroBelow(F4 a, F4 value, float limit) {
  F4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = a.v[i] < limit ? 0.0f : value.v[i];
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

// e^x for x <= 0 (softmax arguments), Cephes-style: x = n ln2 + r, e^r by a degree-6 polynomial,
// 2^n from the exponent bits. About 1 ulp; exactly 0 below -87 (so -Infinity gives weight 0).
inline F4 expNonPositive(F4 x) {
  const F4 n = nearest(mul(x, splat(1.44269504088896341f)));
  F4 r = sub(x, mul(n, splat(0.693359375f)));
  r = sub(r, mul(n, splat(-2.12194440e-4f)));
  F4 p = splat(1.9875691500e-4f);
  p = add(mul(p, r), splat(1.3981999507e-3f));
  p = add(mul(p, r), splat(8.3334519073e-3f));
  p = add(mul(p, r), splat(4.1665795894e-2f));
  p = add(mul(p, r), splat(1.6666665459e-1f));
  p = add(mul(p, r), splat(5.0000001201e-1f));
  const F4 e = add(add(mul(mul(p, r), r), r), splat(1.0f));
  return zeroBelow(x, mul(e, pow2i(max(n, splat(-126.0f)))), -87.0f);
}

inline float expNonPositive(float x) {
  float lanes[4] = {x, x, x, x};
  return lane(expNonPositive(load(lanes)), 0);
}

}  // namespace relpos::simd
