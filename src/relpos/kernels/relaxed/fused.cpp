// The relaxed-SIMD side module (docs/build.md, "The relaxed build"): kernels::softmaxWeights and
// kernels::logits for whole 4-row tiles with f32x4.relaxed_madd, which engines with FMA hardware
// run as one fused multiply-add. Built by clang-19 (Emscripten 3.1.6's Binaryen cannot read relaxed
// SIMD), freestanding — no libc, no C++ library, no memory of its own: it imports the core's
// memory, and the core passes the scratch it needs, so it has no data segments and no stack (the
// build checks both). The algorithm is kernels.cpp's (same tile, same epilogue order, the
// same base-2 exponential's polynomial, evaluated in Horner form with fused multiply-adds);
// results agree with the SIMD build within the tolerance tests/node/attention-relaxed.test.js
// checks, not bit for bit. docs/performance.md ("The relaxed kernel in V8") says what was measured.
#include <stdint.h>
#include <wasm_simd128.h>

#include "relpos/kernels/fused_call.h"

#define UNROLL _Pragma("clang loop unroll(full)")
// The tile's state lives in locals only if every function that takes it by reference is inlined
// (otherwise clang gives it an address on a stack this module does not have).
#define INLINE inline __attribute__((always_inline))

namespace {

constexpr int R = 4;       // rows per tile (kernels::kRowTile)
constexpr int kPanel = 8;  // keys per panel (kernels::kPanel)
constexpr float kLog2e = 1.44269504088896341f;
const float kMinusInf = -__builtin_inff();

inline int32_t imin(int32_t a, int32_t b) {
  return a < b ? a : b;
}
inline int32_t imax(int32_t a, int32_t b) {
  return a < b ? b : a;
}
inline int32_t clamp(int32_t x, int32_t lo, int32_t hi) {
  return x < lo ? lo : x > hi ? hi : x;
}
inline v128_t madd(v128_t a, v128_t b, v128_t c) {
  return wasm_f32x4_relaxed_madd(a, b, c);
}

// kernels::KeyRange::begin / end, with its chunk.
inline int32_t chunkStart(int32_t p, int32_t chunk) {
  return (p >= 0 ? p / chunk : -((-p + chunk - 1) / chunk)) * chunk;
}
inline int32_t rangeBegin(const RelposFusedCall& c, int32_t row) {
  int32_t first = c.window > 0 ? row + c.queryOffset - c.window + 1 : 0;
  if (c.chunk > 0) first = imax(first, chunkStart(row + c.queryOffset, c.chunk));
  return clamp(first, 0, c.m);
}
inline int32_t rangeEnd(const RelposFusedCall& c, int32_t row) {
  int32_t last = c.m;
  if (c.causal) {
    last = row + c.queryOffset + 1;
  } else if (c.window > 0) {
    last = row + c.queryOffset + c.window;
  }
  if (c.chunk > 0) last = imin(last, chunkStart(row + c.queryOffset, c.chunk) + c.chunk);
  return clamp(last, 0, c.m);
}

// simd::exp2NonPositive's polynomial, in Horner form with its multiply-adds fused. Below -126 it
// gives 2^-126, the least normal float, instead of +0: never subnormal, and cheaper than a compare
// and an andnot (clang turns the pair into a select, which V8 runs as three instructions).
// normaliseRow's threshold turns those weights into +0 (a row's sum is at least 1, from its top).
inline v128_t exp2NonPositive(v128_t x) {
  const v128_t magic = wasm_f32x4_splat(12582912.0f + 127.0f);
  const v128_t clamped = wasm_f32x4_pmax(x, wasm_f32x4_splat(-126.0f));
  const v128_t k = wasm_f32x4_add(clamped, magic);
  const v128_t f = wasm_f32x4_sub(clamped, wasm_f32x4_sub(k, magic));
  v128_t p = madd(wasm_f32x4_splat(1.5346960976e-4f), f, wasm_f32x4_splat(1.3399941641e-3f));
  p = madd(p, f, wasm_f32x4_splat(9.6184846996e-3f));
  p = madd(p, f, wasm_f32x4_splat(5.5503287445e-2f));
  p = madd(p, f, wasm_f32x4_splat(2.4022646930e-1f));
  p = madd(p, f, wasm_f32x4_splat(6.9314720576e-1f));
  p = madd(p, f, wasm_f32x4_splat(1.0f));
  return wasm_f32x4_mul(p, wasm_i32x4_shl(k, 23));
}

inline float hmax(v128_t a) {
  const float x0 = wasm_f32x4_extract_lane(a, 0), x1 = wasm_f32x4_extract_lane(a, 1);
  const float x2 = wasm_f32x4_extract_lane(a, 2), x3 = wasm_f32x4_extract_lane(a, 3);
  float m = x0;
  m = x1 > m ? x1 : m;
  m = x2 > m ? x2 : m;
  return x3 > m ? x3 : m;
}
inline float hsum(v128_t a) {
  return (wasm_f32x4_extract_lane(a, 0) + wasm_f32x4_extract_lane(a, 1)) +
         (wasm_f32x4_extract_lane(a, 2) + wasm_f32x4_extract_lane(a, 3));
}

// Up to 4 floats from p (count of them, the rest 0) without reading past them.
inline v128_t loadPartial(const float* p, int32_t count) {
  if (count >= 4) return wasm_v128_load(p);
  v128_t v = wasm_f32x4_splat(0.0f);
  if (count > 0) v = wasm_f32x4_replace_lane(v, 0, p[0]);
  if (count > 1) v = wasm_f32x4_replace_lane(v, 1, p[1]);
  if (count > 2) v = wasm_f32x4_replace_lane(v, 2, p[2]);
  return v;
}
inline void storePartial(float* p, v128_t v, int32_t count) {
  if (count >= 4) {
    wasm_v128_store(p, v);
    return;
  }
  if (count > 0) p[0] = wasm_f32x4_extract_lane(v, 0);
  if (count > 1) p[1] = wasm_f32x4_extract_lane(v, 1);
  if (count > 2) p[2] = wasm_f32x4_extract_lane(v, 2);
}

inline v128_t keepRange(v128_t a, int32_t first, int32_t begin, int32_t end) {
  const v128_t index = wasm_i32x4_add(wasm_i32x4_splat(first), wasm_i32x4_make(0, 1, 2, 3));
  const v128_t inside =
      wasm_v128_and(wasm_i32x4_ge(index, wasm_i32x4_splat(begin)), wasm_i32x4_lt(index, wasm_i32x4_splat(end)));
  return wasm_v128_bitselect(a, wasm_f32x4_splat(kMinusInf), inside);
}

INLINE void step(v128_t x, v128_t b0, v128_t b1, v128_t& lo, v128_t& hi) {
  lo = madd(x, b0, lo);
  hi = madd(x, b1, hi);
}

// The 4 × 8 register tile over depth d: a = the 4 rows interleaved, b = one packed key panel.
INLINE void tile(const float* a, const float* b, int32_t depth, v128_t (&lo)[R], v128_t (&hi)[R]) {
  for (const float* end = a + depth * R; a < end; a += R, b += kPanel) {
    const v128_t b0 = wasm_v128_load(b);
    const v128_t b1 = wasm_v128_load(b + 4);
    // One load of the 4 rows' values and a shuffle each (not 4 splat loads): fewer loads per
    // multiply-add, and V8 keeps each splat in one register next to its two multiply-adds.
    const v128_t x = wasm_v128_load(a);
    step(wasm_i32x4_shuffle(x, x, 0, 0, 0, 0), b0, b1, lo[0], hi[0]);
    step(wasm_i32x4_shuffle(x, x, 1, 1, 1, 1), b0, b1, lo[1], hi[1]);
    step(wasm_i32x4_shuffle(x, x, 2, 2, 2, 2), b0, b1, lo[2], hi[2]);
    step(wasm_i32x4_shuffle(x, x, 3, 3, 3, 3), b0, b1, lo[3], hi[3]);
  }
}

struct Tile {
  int32_t begin[R], end[R];
  int32_t lo, hi;            // union of the rows' ranges
  int32_t common0, common1;  // intersection
  const float* bias[R];
  const float* mask[R];
  v128_t scale, biasWeight, maskWeight;
};

// The tile's q·k products with panel j (columns j .. j + 3 in lo, j + 4 .. j + 7 in hi).
INLINE void panelProducts(const RelposFusedCall& c, int32_t j, v128_t (&lo)[R], v128_t (&hi)[R]) {
  UNROLL
  for (int r = 0; r < R; ++r) lo[r] = hi[r] = wasm_f32x4_splat(0.0f);
  tile(c.packed, c.panels + j * c.d, c.d, lo, hi);
}

// Interior panels [ja, jb): inside every row's range, terms chosen at compile time.
template <bool kBias, bool kMask>
INLINE void interior(const RelposFusedCall& c, const Tile& t, int32_t ja, int32_t jb, float* out, v128_t (&top)[R]) {
  for (int32_t j = ja; j < jb; j += kPanel) {
    v128_t lo[R], hi[R];
    panelProducts(c, j, lo, hi);
    UNROLL
    for (int r = 0; r < R; ++r) {
      v128_t x0 = wasm_f32x4_mul(lo[r], t.scale);
      v128_t x1 = wasm_f32x4_mul(hi[r], t.scale);
      if (kBias) {
        x0 = madd(t.biasWeight, wasm_v128_load(t.bias[r] + j), x0);
        x1 = madd(t.biasWeight, wasm_v128_load(t.bias[r] + j + 4), x1);
      }
      if (kMask) {
        x0 = madd(t.maskWeight, wasm_v128_load(t.mask[r] + j), x0);
        x1 = madd(t.maskWeight, wasm_v128_load(t.mask[r] + j + 4), x1);
      }
      top[r] = wasm_f32x4_pmax(top[r], wasm_f32x4_pmax(x0, x1));
      float* o = out + r * c.ldo + j;
      wasm_v128_store(o, x0);
      wasm_v128_store(o + 4, x1);
    }
  }
}

// Edge panels [ja, jb): the partial last panel and panels crossing a row's range.
INLINE void edge(const RelposFusedCall& c, const Tile& t, int32_t ja, int32_t jb, float* out, v128_t (&top)[R]) {
  for (int32_t j = ja; j < jb; j += kPanel) {
    v128_t lo[R], hi[R];
    panelProducts(c, j, lo, hi);
    const int32_t count = imin(kPanel, c.m - j);
    UNROLL
    for (int r = 0; r < R; ++r) {
      v128_t x0 = wasm_f32x4_mul(lo[r], t.scale);
      v128_t x1 = wasm_f32x4_mul(hi[r], t.scale);
      if (t.bias[r]) {
        x0 = madd(t.biasWeight, loadPartial(t.bias[r] + j, count), x0);
        x1 = madd(t.biasWeight, loadPartial(t.bias[r] + j + 4, count - 4), x1);
      }
      if (t.mask[r]) {
        x0 = madd(t.maskWeight, loadPartial(t.mask[r] + j, count), x0);
        x1 = madd(t.maskWeight, loadPartial(t.mask[r] + j + 4, count - 4), x1);
      }
      x0 = keepRange(x0, j, t.begin[r], t.end[r]);
      x1 = keepRange(x1, j + 4, t.begin[r], t.end[r]);
      top[r] = wasm_f32x4_pmax(top[r], wasm_f32x4_pmax(x0, x1));
      float* o = out + r * c.ldo + j;
      storePartial(o, x0, count);
      storePartial(o + 4, x1, count - 4);
    }
  }
}

float expAndSum(float* row, int32_t count, float top) {
  const v128_t shift = wasm_f32x4_splat(top);
  // One vector a step: the exponential's temporaries and constants then fit V8's registers.
  v128_t sum = wasm_f32x4_splat(0.0f);
  int32_t j = 0;
  for (; j + 4 <= count; j += 4) {
    const v128_t e = exp2NonPositive(wasm_f32x4_sub(wasm_v128_load(row + j), shift));
    wasm_v128_store(row + j, e);
    sum = wasm_f32x4_add(sum, e);
  }
  if (j < count) {  // the last 1 to 3: lanes past count are 0 and not stored
    const int32_t left = count - j;
    const v128_t inside = wasm_i32x4_lt(wasm_i32x4_make(0, 1, 2, 3), wasm_i32x4_splat(left));
    const v128_t e = wasm_v128_and(exp2NonPositive(wasm_f32x4_sub(loadPartial(row + j, left), shift)), inside);
    storePartial(row + j, e, left);
    sum = wasm_f32x4_add(sum, e);
  }
  return hsum(sum);
}

// kernels.cpp's normaliseRow: the weights, none of them subnormal; a sink's 2^(sink - top) (base
// 2, -Infinity: none) joins the sum.
void normaliseRow(float* row, int32_t count, float top, float sink) {
  float sum = expAndSum(row, count, top);
  if (sink != kMinusInf) sum += wasm_f32x4_extract_lane(exp2NonPositive(wasm_f32x4_splat(sink - top)), 0);
  const float factor = 1.0f / sum;
  const v128_t f = wasm_f32x4_splat(factor), least = wasm_f32x4_splat(0x1p-125f * sum);
  int32_t j = 0;
  for (; j + 4 <= count; j += 4) {
    const v128_t e = wasm_v128_load(row + j);
    wasm_v128_store(row + j, wasm_f32x4_mul(wasm_v128_andnot(e, wasm_f32x4_lt(e, least)), f));
  }
  for (; j < count; ++j) row[j] = row[j] < 0x1p-125f * sum ? 0.0f : row[j] * factor;
}

void fill(float* p, int32_t count, float value) {
  for (int32_t j = 0; j < count; ++j) p[j] = value;
}

INLINE void fourRows(const RelposFusedCall& c, int32_t first, const float* q, float* out) {
  const bool weights = c.mode == RELPOS_FUSED_WEIGHTS;
  const float domain = weights ? kLog2e : 1.0f;
  Tile t;
  t.lo = c.m;
  t.hi = 0;
  t.common0 = 0;
  t.common1 = c.m;
  UNROLL
  for (int r = 0; r < R; ++r) {
    const int32_t i = first + r;
    t.begin[r] = rangeBegin(c, i);
    t.end[r] = rangeEnd(c, i);
    if (t.begin[r] < t.end[r]) {
      t.lo = imin(t.lo, t.begin[r]);
      t.hi = imax(t.hi, t.end[r]);
    }
    t.common0 = imax(t.common0, t.begin[r]);
    t.common1 = imin(t.common1, t.end[r]);
    t.bias[r] = c.bias ? c.bias + (i - c.biasOrigin) * c.biasStride : nullptr;
    t.mask[r] = c.mask ? c.mask + (i - c.maskOrigin) * c.maskStride : nullptr;
  }
  if (t.hi <= t.lo) t.lo = t.hi = 0;
  t.scale = wasm_f32x4_splat(c.scale * domain);
  t.biasWeight = wasm_f32x4_splat(c.biasWeight * domain);
  t.maskWeight = wasm_f32x4_splat(domain);
  const int32_t lo = t.lo / kPanel * kPanel, hi = t.hi;
  v128_t top[R];
  UNROLL
  for (int r = 0; r < R; ++r) top[r] = wasm_f32x4_splat(kMinusInf);
  if (hi > lo) {
    // Interleave the 4 query rows: packed[col * 4 + r] = q[r][col].
    for (int32_t col = 0; col < c.d; ++col) {
      UNROLL
      for (int r = 0; r < R; ++r) c.packed[col * R + r] = q[r * c.ldq + col];
    }
    const int32_t ja = imin(hi, lo + (imax(t.common0, lo) - lo + kPanel - 1) / kPanel * kPanel);
    const int32_t jb = imax(ja, lo + (imin(t.common1, hi) - lo) / kPanel * kPanel);
    edge(c, t, lo, ja, out, top);
    if (c.bias && c.mask) {
      interior<true, true>(c, t, ja, jb, out, top);
    } else if (c.bias) {
      interior<true, false>(c, t, ja, jb, out, top);
    } else if (c.mask) {
      interior<false, true>(c, t, ja, jb, out, top);
    } else {
      interior<false, false>(c, t, ja, jb, out, top);
    }
    edge(c, t, jb, hi, out, top);
  }
  const float sink = c.sink * kLog2e;
  UNROLL
  for (int r = 0; r < R; ++r) {
    float* o = out + r * c.ldo;
    const float outside = weights ? 0.0f : kMinusInf;
    fill(o, lo, outside);
    fill(o + imax(lo, hi), c.m - imax(lo, hi), outside);
    if (!weights) continue;
    float most = hi > lo ? hmax(top[r]) : kMinusInf;
    most = sink > most ? sink : most;
    if (most == kMinusInf) {  // a row that sees no key: zeros, or 1/m everywhere (uniformEmpty)
      if (c.uniformEmpty) {
        fill(o, c.m, 1.0f / static_cast<float>(c.m));
      } else if (hi > lo) {
        fill(o + lo, hi - lo, 0.0f);
      }
      continue;
    }
    if (hi > lo) normaliseRow(o + lo, hi - lo, most, sink);
  }
}

}  // namespace

// Runs one call (whole tiles of 4 rows); returns the rows done.
extern "C" __attribute__((export_name("fusedRows"))) int32_t fusedRows(const RelposFusedCall* call) {
  const RelposFusedCall& c = *call;
  int32_t r = 0;
  for (; r + R <= c.rows; r += R) fourRows(c, c.first + r, c.q + r * c.ldq, c.out + r * c.ldo);
  return r;
}
