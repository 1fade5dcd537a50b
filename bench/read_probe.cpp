// The wasm SIMD memory-read probe of bench/decode.mjs: how fast one thread of this engine reads a
// buffer larger than the caches, with the loads of a decode step's kernel (f32x4). A decode step
// reads every cached key and value once, so its time is at least (K and V bytes) / this bandwidth
// (docs/api.md, "rp.kvCache").
#include <wasm_simd128.h>

namespace {

constexpr int kMaxFloats = 40 << 20;  // 160 MB, more than any cache level
alignas(16) float data[kMaxFloats];

}  // namespace

extern "C" {

// Writes the first `floats` floats once (so their pages are committed before timing); returns
// how many the probe may read.
__attribute__((used)) int prepare(int floats) {
  if (floats > kMaxFloats) floats = kMaxFloats;
  for (int i = 0; i < floats; ++i) data[i] = static_cast<float>(i & 1023) * 0x1p-10f;
  return floats;
}

// Sums the first `floats` floats (a multiple of 32) with eight independent f32x4 chains, so that
// the loads, not the adds, bound it; the sum is returned so that no load is dead.
__attribute__((used)) float readAll(int floats) {
  v128_t a[8];
  for (auto& x : a) x = wasm_f32x4_splat(0.0f);
  for (int i = 0; i + 32 <= floats; i += 32) {
#pragma clang loop unroll(full)
    for (int t = 0; t < 8; ++t) a[t] = wasm_f32x4_add(a[t], wasm_v128_load(data + i + 4 * t));
  }
  v128_t s = a[0];
  for (int t = 1; t < 8; ++t) s = wasm_f32x4_add(s, a[t]);
  return wasm_f32x4_extract_lane(s, 0) + wasm_f32x4_extract_lane(s, 3);
}
}
