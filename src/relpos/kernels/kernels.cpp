#include "relpos/kernels/kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "relpos/kernels/fused_call.h"
#include "relpos/kernels/simd.hpp"

namespace relpos::kernels {

using simd::F4;

// The side module reads every field of a LogitSpec (src/relpos/kernels/relaxed/fused.cpp): a new
// field (a logit transform, a kind of key range) must reach fusedRows' eligibility check below and
// the side module, or calls that use it must fall back.
static_assert(sizeof(LogitSpec) == 112 && sizeof(Term) == 32 && sizeof(KeyRange) == 32,
              "LogitSpec changed: update fusedRows in kernels.cpp and kernels/relaxed/fused.cpp");

namespace {

constexpr float kMinusInf = -std::numeric_limits<float>::infinity();
constexpr float kLog2e = 1.44269504088896341f;  // softmax logits are taken in base 2
constexpr int64_t kKeyBlock = 128;              // keys per block of the online softmax (a multiple of kPanel)
constexpr int64_t kValueRun = 32;               // keys of V per pass over the columns (weightedRows)

// acc[r] += sum_c a[c * R + r] * b[c * ldb + 0 .. 7] for c < depth: R rows times one panel of
// eight columns, two four-lane accumulators per row. `a` holds the R rows interleaved (see
// interleave), so one pointer walks them and each row's value is one broadcast load at a constant
// offset; both pointers advance instead of being recomputed (V8 then spends ~16 scalar instructions
// less per step). The QKᵀ tile (a = queries, b = a packed key panel, ldb = 8) and the W·V tile
// (a = weights, b = rows of V, ldb = its stride) are this loop.
template <int R>
inline void tile(const float* a, const float* b, int64_t ldb, int64_t depth, F4 (&lo)[R], F4 (&hi)[R]) {
  for (const float* end = a + depth * R; a < end; a += R, b += ldb) {
    const F4 b0 = simd::load(b);
    const F4 b1 = simd::load(b + 4);
    for (int r = 0; r < R; ++r) {
      const F4 x = simd::broadcast(a + r);
      lo[r] = simd::add(lo[r], simd::mul(x, b0));
      hi[r] = simd::add(hi[r], simd::mul(x, b1));
    }
  }
}

// out[c * R + r] = rows[r * ld + c] for c < depth: the layout tile() reads. Only the first `valid`
// rows are read; the tile's other rows (a last, partial tile of a call) repeat the last of them.
template <int R>
void interleave(const float* rows, int64_t ld, int64_t depth, float* out, int valid = R) {
  for (int64_t c = 0; c < depth; ++c) {
    for (int r = 0; r < R; ++r) out[c * R + r] = rows[std::min(r, valid - 1) * ld + c];
  }
}

// The rows of one register tile and what each of them sees. A call's last tile may hold fewer than
// R rows: rows from `valid` on repeat the last real one (its range, its terms, its queries), and
// what they compute is dropped — one tile shape for every row keeps a single copy of the kernels.
template <int R>
struct Rows {
  int64_t first;  // absolute index of the first row
  int valid;      // rows that are real
  int64_t begin[R];
  int64_t end[R];
  int64_t lo;  // union of the ranges: [lo, hi)
  int64_t hi;
  Rows(const KeyRange& keys, int64_t first_, int64_t m, int valid_ = R) : first(first_), valid(valid_), lo(m), hi(0) {
    for (int r = 0; r < R; ++r) {
      begin[r] = keys.begin(row(r), m);
      end[r] = keys.end(row(r), m);
      if (begin[r] < end[r]) {
        lo = std::min(lo, begin[r]);
        hi = std::max(hi, end[r]);
      }
    }
    if (hi <= lo) lo = hi = 0;
  }
  // The absolute row whose range and terms tile row r uses.
  int64_t row(int r) const { return first + std::min(r, valid - 1); }
  // Panel-aligned start of the union (panels are kPanel keys from key 0).
  int64_t panelLo() const { return lo / kPanel * kPanel; }
};

// cap * tanh(x / cap) in each lane, in float64. The logits are in the domain's units (times
// log2(e) for a softmax), and so is cap (the soft-cap times the domain): the same function of
// scale * q.k as capping first and converting after, with one rounding less, and the scaled logit
// of a cap far larger than it comes back as the same float (docs/attention.md, "Soft-cap").
inline F4 capped(F4 x, double cap) {
  alignas(16) float lanes[4];
  simd::store(lanes, x);
  for (float& t : lanes) t = static_cast<float>(cap * std::tanh(static_cast<double>(t) / cap));
  return simd::load(lanes);
}

// What the epilogue does to R rows' logits: the scale, the soft-cap, then each term's row, all
// times `domain`.
template <int R>
struct Epilogue {
  F4 scale, biasWeight, maskWeight;
  bool softcap;
  double cap;
  const float* bias[R];
  const float* mask[R];
  // perRow: R specs, each tile row's own terms (the heads of a KV group, groupOutput); else spec's.
  Epilogue(const LogitSpec& spec, const Rows<R>& rows, float domain, const LogitSpec* perRow = nullptr)
      : scale(simd::splat(spec.scale * domain)),
        biasWeight(simd::splat(spec.bias.weight * domain)),
        maskWeight(simd::splat(domain)),
        softcap(spec.softcap > 0.0f),
        cap(static_cast<double>(spec.softcap) * domain),
        bias{},
        mask{} {
    for (int r = 0; r < R; ++r) {
      const LogitSpec& own = perRow ? perRow[r] : spec;
      if (own.bias.data) bias[r] = own.bias.row(rows.row(r));
      if (own.mask.data) mask[r] = own.mask.row(rows.row(r));
    }
  }
};

// Interior panels [ja, jb): full panels inside every row's key range, so the epilogue is scale,
// terms, max and store with no checks; kBias / kMask choose the terms at compile time, and the row
// loops are unrolled so the accumulators stay in registers (rolled, they went through the stack:
// the epilogue then cost as much as a third of the tile).
template <int R, bool kBias, bool kMask>
void interiorPanels(const float* q, const float* panels, int64_t d, const Epilogue<R>& e, int64_t ja, int64_t jb,
                    int64_t j0, float* dst, int64_t ldd, F4 (&top)[R]) {
  for (int64_t j = ja; j < jb; j += kPanel) {
    F4 lo[R], hi[R];
    RELPOS_UNROLL
    for (int r = 0; r < R; ++r) lo[r] = hi[r] = simd::splat(0.0f);
    tile<R>(q, panels + j * d, kPanel, d, lo, hi);
    RELPOS_UNROLL
    for (int r = 0; r < R; ++r) {
      F4 x0 = simd::mul(lo[r], e.scale);
      F4 x1 = simd::mul(hi[r], e.scale);
      if (e.softcap) {
        x0 = capped(x0, e.cap);
        x1 = capped(x1, e.cap);
      }
      if (kBias) {
        x0 = simd::add(x0, simd::mul(e.biasWeight, simd::load(e.bias[r] + j)));
        x1 = simd::add(x1, simd::mul(e.biasWeight, simd::load(e.bias[r] + j + 4)));
      }
      if (kMask) {
        x0 = simd::add(x0, simd::mul(e.maskWeight, simd::load(e.mask[r] + j)));
        x1 = simd::add(x1, simd::mul(e.maskWeight, simd::load(e.mask[r] + j + 4)));
      }
      top[r] = simd::max(top[r], simd::max(x0, x1));
      float* o = dst + r * ldd + (j - j0);
      simd::store(o, x0);
      simd::store(o + 4, x1);
    }
  }
}

// Edge panels [ja, jb): the last, partial panel (ending at key m) and panels that cross some row's
// key range, whose keys outside the range become -Infinity. Few per row, so the terms are runtime
// choices here.
template <int R>
void edgePanels(const float* q, const Rows<R>& rows, const float* panels, int64_t m, int64_t d, const Epilogue<R>& e,
                int64_t ja, int64_t jb, int64_t j0, float* dst, int64_t ldd, F4 (&top)[R]) {
  for (int64_t j = ja; j < jb; j += kPanel) {
    F4 lo[R], hi[R];
    for (int r = 0; r < R; ++r) lo[r] = hi[r] = simd::splat(0.0f);
    tile<R>(q, panels + j * d, kPanel, d, lo, hi);
    const int64_t count = std::min<int64_t>(kPanel, m - j);
    for (int r = 0; r < R; ++r) {
      alignas(16) float b[kPanel] = {}, k[kPanel] = {};  // the terms, zero past key m - 1
      for (int64_t t = 0; t < count; ++t) {
        if (e.bias[r]) b[t] = e.bias[r][j + t];
        if (e.mask[r]) k[t] = e.mask[r][j + t];
      }
      F4 x0 = simd::mul(lo[r], e.scale);
      F4 x1 = simd::mul(hi[r], e.scale);
      if (e.softcap) {
        x0 = capped(x0, e.cap);
        x1 = capped(x1, e.cap);
      }
      x0 = simd::add(x0, simd::mul(e.biasWeight, simd::load(b)));
      x1 = simd::add(x1, simd::mul(e.biasWeight, simd::load(b + 4)));
      x0 = simd::add(x0, simd::mul(e.maskWeight, simd::load(k)));
      x1 = simd::add(x1, simd::mul(e.maskWeight, simd::load(k + 4)));
      const auto first = static_cast<int32_t>(j);
      const auto begin = static_cast<int32_t>(rows.begin[r]), end = static_cast<int32_t>(rows.end[r]);
      x0 = simd::keepRange(x0, first, begin, end, kMinusInf);
      x1 = simd::keepRange(x1, first + 4, begin, end, kMinusInf);
      top[r] = simd::max(top[r], simd::max(x0, x1));
      alignas(16) float values[kPanel];
      simd::store(values, x0);
      simd::store(values + 4, x1);
      std::memcpy(dst + r * ldd + (j - j0), values, sizeof(float) * static_cast<size_t>(count));
    }
  }
}

// Logits of R rows (q: the rows interleaved, d values each) over keys j0 .. j1 - 1 (j0 a multiple
// of kPanel, j1 <= m) into dst[r * ldd + (j - j0)], times `domain` (log2(e) for a softmax, whose
// exponential is then a power of two), with the running row maxima in top.
template <int R>
void logitBlock(const float* q, const Rows<R>& rows, const float* panels, int64_t m, int64_t d, const LogitSpec& spec,
                int64_t j0, int64_t j1, float* dst, int64_t ldd, F4 (&top)[R], float domain,
                const LogitSpec* perRow = nullptr) {
  const Epilogue<R> e(spec, rows, domain, perRow);
  // Interior: from the first panel at or past every row's begin to the last full panel that ends
  // at or before every row's end.
  int64_t begin = 0, end = m;
  for (int r = 0; r < R; ++r) {
    begin = std::max(begin, rows.begin[r]);
    end = std::min(end, rows.end[r]);
  }
  const int64_t ja = std::min(j1, j0 + (std::max(begin, j0) - j0 + kPanel - 1) / kPanel * kPanel);
  const int64_t jb = std::max(ja, j0 + (std::min(end, j1) - j0) / kPanel * kPanel);
  edgePanels<R>(q, rows, panels, m, d, e, j0, ja, j0, dst, ldd, top);
  const bool bias = spec.bias.data != nullptr, mask = spec.mask.data != nullptr;
  if (bias && mask) {
    interiorPanels<R, true, true>(q, panels, d, e, ja, jb, j0, dst, ldd, top);
  } else if (bias) {
    interiorPanels<R, true, false>(q, panels, d, e, ja, jb, j0, dst, ldd, top);
  } else if (mask) {
    interiorPanels<R, false, true>(q, panels, d, e, ja, jb, j0, dst, ldd, top);
  } else {
    interiorPanels<R, false, false>(q, panels, d, e, ja, jb, j0, dst, ldd, top);
  }
  edgePanels<R>(q, rows, panels, m, d, e, jb, j1, j0, dst, ldd, top);
}

// row[j] = 2^(row[j] - top) for j < count (logits in base 2, see logitBlock); returns their sum (two vectors per step
// with their own lane sums, so two exponentials are in flight at once; then the tail).
float expAndSum(float* row, int64_t count, float top) {
  const F4 shift = simd::splat(top);
  F4 sum0 = simd::splat(0.0f), sum1 = simd::splat(0.0f);
  int64_t j = 0;
  for (; j + 8 <= count; j += 8) {
    const F4 e0 = simd::exp2NonPositive(simd::sub(simd::load(row + j), shift));
    const F4 e1 = simd::exp2NonPositive(simd::sub(simd::load(row + j + 4), shift));
    simd::store(row + j, e0);
    simd::store(row + j + 4, e1);
    sum0 = simd::add(sum0, e0);
    sum1 = simd::add(sum1, e1);
  }
  for (; j + 4 <= count; j += 4) {
    const F4 e = simd::exp2NonPositive(simd::sub(simd::load(row + j), shift));
    simd::store(row + j, e);
    sum0 = simd::add(sum0, e);
  }
  float sum = simd::horizontalSum(simd::add(sum0, sum1));
  for (; j < count; ++j) sum += (row[j] = simd::exp2NonPositive(row[j] - top));
  return sum;
}

void scaleRow(float* row, int64_t count, float factor) {
  const F4 f = simd::splat(factor);
  int64_t j = 0;
  for (; j + 4 <= count; j += 4) simd::store(row + j, simd::mul(simd::load(row + j), f));
  for (; j < count; ++j) row[j] *= factor;
}

// row[j] = 2^(row[j] - top) / (their sum) for j < count: softmax weights from base-2 logits whose
// largest is top (at least the sink's, `sink` in base 2, whose 2^(sink - top) joins the sum; a sink
// of -Infinity adds +0, which leaves the sum's bits as they were). Weights below 2^-125 become +0
// before the division by the sum, so none comes out subnormal (see simd::exp2NonPositive for why
// that matters).
void normaliseRow(float* row, int64_t count, float top, float sink) {
  float sum = expAndSum(row, count, top);
  if (sink != kMinusInf) sum += simd::exp2NonPositive(sink - top);
  const float factor = 1.0f / sum;
  const F4 f = simd::splat(factor), least = simd::splat(0x1p-125f * sum);
  int64_t j = 0;
  for (; j + 4 <= count; j += 4) {
    const F4 e = simd::load(row + j);
    simd::store(row + j, simd::mul(simd::zeroWhereBelow(e, e, least), f));
  }
  for (; j < count; ++j) row[j] = row[j] < 0x1p-125f * sum ? 0.0f : row[j] * factor;
}

// The weights of a row that sees no key: zeros ([lo, hi) is all that is not zero yet), or 1/m on
// every key (LogitSpec::uniformEmpty): torch's softmax of m equal logits, exp(0) / m.
void emptyRow(float* row, int64_t m, int64_t lo, int64_t hi, bool uniform) {
  if (uniform) {
    std::fill(row, row + m, 1.0f / static_cast<float>(m));
  } else if (hi > lo) {
    std::fill(row + lo, row + hi, 0.0f);
  }
}

// What weightRows leaves in its rows: logits as given, softmax weights, or base-2 logits with
// each row's maximum (the softmax's first half, for callers that reduce the weights).
enum class RowsOut { Logits, Weights, BaseTwo };

// R rows of weights (or logits) from `valid` query rows (stride ldq) into R rows of out (the rows
// past `valid` are scratch); `packed` holds R * d floats; rowTop receives each row's maximum in
// BaseTwo mode.
template <int R, RowsOut kMode>
void weightRows(const float* q, int64_t ldq, int64_t first, int valid, const float* panels, int64_t m, int64_t d,
                const LogitSpec& spec, float* packed, float* out, int64_t ldo, float* rowTop) {
  const Rows<R> rows(spec.keys, first, m, valid);
  const int64_t lo = rows.panelLo(), hi = rows.hi;
  F4 top[R];
  for (int r = 0; r < R; ++r) top[r] = simd::splat(kMinusInf);
  if (hi > lo) {
    interleave<R>(q, ldq, d, packed, valid);
    logitBlock<R>(packed, rows, panels, m, d, spec, lo, hi, out + lo, ldo, top,
                  kMode == RowsOut::Logits ? 1.0f : kLog2e);
  }
  const float sink = spec.sink * kLog2e;
  for (int r = 0; r < valid; ++r) {
    float* o = out + r * ldo;
    const float fill = kMode == RowsOut::Weights ? 0.0f : kMinusInf;
    std::fill(o, o + lo, fill);
    std::fill(o + std::max(lo, hi), o + m, fill);
    if (kMode == RowsOut::BaseTwo) rowTop[r] = simd::horizontalMax(top[r]);
    if (kMode != RowsOut::Weights) continue;
    const float t = std::max(hi > lo ? simd::horizontalMax(top[r]) : kMinusInf, sink);
    if (t == kMinusInf) {
      emptyRow(o, m, lo, hi, spec.uniformEmpty);
      continue;
    }
    if (hi > lo) normaliseRow(o + lo, hi - lo, t, sink);
  }
}

// The relaxed build's side module, reached through the entry the binding registers
// (setFusedRowsEntry; bindings/core_bindings.cpp): null in every build that registers none.
FusedRowsEntry fusedRowsEntry = nullptr;

// Whole tiles of rows through the registered entry (logits or weights); returns the rows it did:
// 0 without an entry, when the entry has no side module, or for a call it does not take (32-bit fields,
// or a soft-cap: the side module has no tanh, so soft-capped layers run this file's kernels, bit for
// bit the SIMD build's; docs/build.md, "The relaxed build").
int64_t fusedRows(bool weights, const float* q, int64_t ldq, int64_t first, int64_t rows, const float* panels,
                  int64_t m, int64_t d, const LogitSpec& spec, float* out, int64_t ldo, float* packed) {
  if (fusedRowsEntry == nullptr) return 0;
  constexpr int64_t kMax = INT32_MAX / 2;
  const int64_t whole = rows / kRowTile * kRowTile;
  const bool fits = whole > 0 && m < kMax && d < kMax && ldq < kMax && ldo < kMax && first + rows < kMax &&
                    std::abs(spec.bias.stride) < kMax && std::abs(spec.bias.origin) < kMax &&
                    std::abs(spec.mask.stride) < kMax && std::abs(spec.mask.origin) < kMax &&
                    std::abs(spec.keys.queryOffset) < kMax && spec.keys.window < kMax && spec.keys.window >= 0 &&
                    spec.keys.chunk < kMax && spec.keys.chunk >= 0 && !(spec.softcap > 0.0f);
  if (!fits) return 0;
  const auto i32 = [](int64_t x) { return static_cast<int32_t>(x); };
  const RelposFusedCall call{q,
                             i32(ldq),
                             i32(first),
                             i32(whole),
                             panels,
                             i32(m),
                             i32(d),
                             spec.scale,
                             spec.bias.data,
                             i32(spec.bias.stride),
                             spec.bias.weight,
                             i32(spec.bias.origin),
                             spec.mask.data,
                             i32(spec.mask.stride),
                             i32(spec.mask.origin),
                             spec.keys.causal ? 1 : 0,
                             i32(spec.keys.queryOffset),
                             i32(spec.keys.window),
                             i32(spec.keys.chunk),
                             spec.sink,
                             spec.uniformEmpty ? 1 : 0,
                             out,
                             i32(ldo),
                             packed,
                             weights ? RELPOS_FUSED_WEIGHTS : RELPOS_FUSED_LOGITS};
  return fusedRowsEntry(&call);
}

template <RowsOut kMode>
void weightRowsAll(const float* q, int64_t ldq, int64_t first, int64_t rows, const float* panels, int64_t m, int64_t d,
                   const LogitSpec& spec, float* out, int64_t ldo, float* top = nullptr) {
  std::vector<float> packed(static_cast<size_t>(kRowTile * d));
  int64_t r = 0;
  if constexpr (kMode != RowsOut::BaseTwo) {
    r = fusedRows(kMode == RowsOut::Weights, q, ldq, first, rows, panels, m, d, spec, out, ldo, packed.data());
  }
  for (; r + kRowTile <= rows; r += kRowTile) {
    weightRows<kRowTile, kMode>(q + r * ldq, ldq, first + r, kRowTile, panels, m, d, spec, packed.data(), out + r * ldo,
                                ldo, top ? top + r : nullptr);
  }
  if (r == rows) return;
  // The last, partial tile: computed into scratch rows, of which the real ones are handed over.
  const int valid = static_cast<int>(rows - r);
  std::vector<float> tail(static_cast<size_t>(kRowTile * m));
  float tailTop[kRowTile];
  weightRows<kRowTile, kMode>(q + r * ldq, ldq, first + r, valid, panels, m, d, spec, packed.data(), tail.data(), m,
                              tailTop);
  for (int t = 0; t < valid; ++t) {
    std::copy_n(tail.data() + t * m, m, out + (r + t) * ldo);
    if (top) top[r + t] = tailTop[t];
  }
}

// One row of precomputed logits in place, in base 2: soft-capped, the terms added, keys outside
// [begin, end) set to `outside`; returns the row's maximum.
float baseTwoRow(float* row, int64_t i, int64_t m, const LogitSpec& spec, float outside) {
  const int64_t begin = spec.keys.begin(i, m), end = spec.keys.end(i, m);
  const double cap = spec.softcap;
  float top = kMinusInf;
  for (int64_t j = begin; j < end; ++j) {
    if (cap > 0) row[j] = static_cast<float>(cap * std::tanh(static_cast<double>(row[j]) / cap));
    if (spec.bias.data) row[j] += spec.bias.weight * spec.bias.row(i)[j];
    if (spec.mask.data) row[j] += spec.mask.row(i)[j];
    row[j] *= kLog2e;
    top = std::max(top, row[j]);
  }
  std::fill(row, row + std::min(begin, m), outside);
  std::fill(row + std::max(begin, end), row + m, outside);
  return top;
}

// weightedRows over at most kValueRun keys: columns in groups of 8, then 4, then one.
template <int R>
void weightedRun(const float* w, int64_t depth, const float* v, int64_t ldv, int64_t dv, float* out, int64_t ldo) {
  int64_t c = 0;
  for (; c + 8 <= dv; c += 8) {
    F4 a[R], b[R];
    for (int r = 0; r < R; ++r) {
      a[r] = simd::load(out + r * ldo + c);
      b[r] = simd::load(out + r * ldo + c + 4);
    }
    tile<R>(w, v + c, ldv, depth, a, b);
    for (int r = 0; r < R; ++r) {
      simd::store(out + r * ldo + c, a[r]);
      simd::store(out + r * ldo + c + 4, b[r]);
    }
  }
  for (; c + 4 <= dv; c += 4) {
    for (int r = 0; r < R; ++r) {
      F4 a = simd::load(out + r * ldo + c);
      for (int64_t j = 0; j < depth; ++j)
        a = simd::add(a, simd::mul(simd::broadcast(w + j * R + r), simd::load(v + j * ldv + c)));
      simd::store(out + r * ldo + c, a);
    }
  }
  for (; c < dv; ++c) {
    for (int r = 0; r < R; ++r) {
      float a = out[r * ldo + c];
      for (int64_t j = 0; j < depth; ++j) a += w[j * R + r] * v[j * ldv + c];
      out[r * ldo + c] = a;
    }
  }
}

// out rows (R of them) += w . v over keys [0, depth): `w` holds the R rows of weights interleaved
// (R * depth floats), v starts at the first key. The keys go in runs of kValueRun, each run over
// every column: a column strip over all 128 keys of a block touched 128 rows of V (4 KB apart in a
// KV cache's [m, kvHeads * dv]) at once, more pages than the TLB holds, and the step's K stream
// slowed with it (8B shape, 8,192 keys: 20.5 -> 10-11 ms a step). Each output still adds its keys
// in key order, so the bits are those of one pass.
template <int R>
void weightedRows(const float* w, int64_t depth, const float* v, int64_t ldv, int64_t dv, float* out, int64_t ldo) {
  for (int64_t j = 0; j < depth; j += kValueRun) {
    weightedRun<R>(w + j * R, std::min(kValueRun, depth - j), v + j * ldv, ldv, dv, out, ldo);
  }
}

// out[c] += sum_j v[j, c] / m over every key: the output of a row whose weights are all 1/m
// (LogitSpec::uniformEmpty), those weights times V in key order.
void uniformOutput(const float* v, int64_t ldv, int64_t m, int64_t dv, float* out) {
  const float w = 1.0f / static_cast<float>(m);
  for (int64_t j = 0; j < m; ++j) {
    for (int64_t c = 0; c < dv; ++c) out[c] += w * v[j * ldv + c];
  }
}

// perRow (groupOutput): R specs, one per tile row, whose rows are the heads of one KV group at the
// one query row `first` (so every tile row has that row's key range); else `valid` consecutive rows.
template <int R>
void outputRows(const float* q, int64_t ldq, int64_t first, int valid, const float* panels, int64_t m, int64_t d,
                const float* v, int64_t ldv, int64_t dv, const LogitSpec& spec, OnlineScratch& scratch, float* out,
                int64_t ldo, const LogitSpec* perRow = nullptr) {
  const Rows<R> rows(spec.keys, first, m, perRow ? 1 : valid);

  const int64_t lo = rows.panelLo(), hi = rows.hi;
  const int64_t lda = dv + 8;
  float* s = scratch.logits.data();
  float* p = scratch.weights.data();
  float* acc = scratch.acc.data();
  float* packed = scratch.queries.data();
  interleave<R>(q, ldq, d, packed, valid);
  std::fill(acc, acc + R * lda, 0.0f);
  // The sink is the state each row starts from: its logit the running max, its 2^0 = 1 the sum
  // (none: -Infinity and 0, where a row starts without one).
  float rowMax[R], rowSum[R];
  for (int r = 0; r < R; ++r) {
    const float sink = (perRow ? perRow[r] : spec).sink * kLog2e;
    rowMax[r] = sink;
    rowSum[r] = sink == kMinusInf ? 0.0f : 1.0f;
  }
  for (int64_t j0 = lo; j0 < hi; j0 += kKeyBlock) {
    const int64_t j1 = std::min(hi, j0 + kKeyBlock);
    F4 top[R];
    for (int r = 0; r < R; ++r) top[r] = simd::splat(kMinusInf);
    logitBlock<R>(packed, rows, panels, m, d, spec, j0, j1, s, kKeyBlock, top, kLog2e, perRow);
    for (int r = 0; r < R; ++r) {
      float* sr = s + r * kKeyBlock;
      const float blockTop = simd::horizontalMax(top[r]);
      if (blockTop == kMinusInf) {  // nothing visible in this block: weights 0
        std::fill(sr, sr + (j1 - j0), 0.0f);
        continue;
      }
      if (blockTop > rowMax[r]) {
        // The running max grows: rescale what was accumulated against the old one.
        const float factor = rowMax[r] == kMinusInf ? 0.0f : simd::exp2NonPositive(rowMax[r] - blockTop);
        rowSum[r] *= factor;
        scaleRow(acc + r * lda, dv, factor);
        rowMax[r] = blockTop;
      }
      rowSum[r] += expAndSum(sr, j1 - j0, rowMax[r]);
    }
    // acc += exp(logits - max) . V over this block (keys j0 .. j1 - 1).
    interleave<R>(s, kKeyBlock, j1 - j0, p);
    weightedRows<R>(p, j1 - j0, v + j0 * ldv, ldv, dv, acc, lda);
  }
  for (int r = 0; r < valid; ++r) {
    float* o = out + r * ldo;
    if (!(rowSum[r] > 0.0f)) {
      std::fill(o, o + dv, 0.0f);
      if (spec.uniformEmpty) uniformOutput(v, ldv, m, dv, o);
      continue;
    }
    std::copy(acc + r * lda, acc + r * lda + dv, o);
    scaleRow(o, dv, 1.0f / rowSum[r]);
  }
}

}  // namespace

void setFusedRowsEntry(FusedRowsEntry entry) {
  fusedRowsEntry = entry;
}

namespace {

// The first key of the chunk of the query at position p (floor division, p may be negative).
int64_t chunkStart(int64_t p, int64_t chunk) {
  return (p >= 0 ? p / chunk : -((-p + chunk - 1) / chunk)) * chunk;
}

}  // namespace

int64_t KeyRange::begin(int64_t row, int64_t m) const {
  int64_t first = window > 0 ? row + queryOffset - window + 1 : 0;
  if (chunk > 0) first = std::max(first, chunkStart(row + queryOffset, chunk));
  return std::clamp<int64_t>(first, 0, m);
}

int64_t KeyRange::end(int64_t row, int64_t m) const {
  int64_t last = m;
  if (causal) {
    last = row + queryOffset + 1;
  } else if (window > 0) {
    last = row + queryOffset + window;
  }
  if (chunk > 0) last = std::min(last, chunkStart(row + queryOffset, chunk) + chunk);
  return std::clamp<int64_t>(last, 0, m);
}

int64_t packedSize(int64_t m, int64_t d) {
  return (m + kPanel - 1) / kPanel * kPanel * d;
}

void packKeys(const float* k, int64_t m, int64_t d, int64_t ld, float* out) {
  std::fill(out, out + packedSize(m, d), 0.0f);
  for (int64_t j = 0; j < m; ++j) {
    float* panel = out + (j / kPanel) * d * kPanel + j % kPanel;
    for (int64_t c = 0; c < d; ++c) panel[c * kPanel] = k[j * ld + c];
  }
}

std::vector<float> packKeys(const float* k, int64_t m, int64_t d, int64_t ld) {
  std::vector<float> out(static_cast<size_t>(packedSize(m, d)));
  packKeys(k, m, d, ld, out.data());
  return out;
}

void softmaxWeights(const float* q, int64_t ldq, int64_t first, int64_t rows, const float* panels, int64_t m, int64_t d,
                    const LogitSpec& spec, float* out, int64_t ldo) {
  weightRowsAll<RowsOut::Weights>(q, ldq, first, rows, panels, m, d, spec, out, ldo);
}

void logits(const float* q, int64_t ldq, int64_t first, int64_t rows, const float* panels, int64_t m, int64_t d,
            const LogitSpec& spec, float* out, int64_t ldo) {
  weightRowsAll<RowsOut::Logits>(q, ldq, first, rows, panels, m, d, spec, out, ldo);
}

void weightedSum(const float* w, int64_t ldw, int64_t first, int64_t rows, int64_t m, const float* v, int64_t ldv,
                 int64_t dv, const KeyRange& keys, float* out, int64_t ldo) {
  std::vector<float> packed(static_cast<size_t>(kRowTile * m));
  int64_t r = 0;
  for (; r + kRowTile <= rows; r += kRowTile) {
    const Rows<kRowTile> group(keys, first + r, m);
    interleave<kRowTile>(w + r * ldw + group.lo, ldw, group.hi - group.lo, packed.data());
    weightedRows<kRowTile>(packed.data(), group.hi - group.lo, v + group.lo * ldv, ldv, dv, out + r * ldo, ldo);
  }
  if (r == rows) return;
  // The last, partial tile accumulates into scratch rows, of which the real ones are handed back.
  const int valid = static_cast<int>(rows - r);
  std::vector<float> tail(static_cast<size_t>(kRowTile * dv), 0.0f);
  for (int t = 0; t < valid; ++t) std::copy_n(out + (r + t) * ldo, dv, tail.data() + t * dv);
  const Rows<kRowTile> group(keys, first + r, m, valid);
  interleave<kRowTile>(w + r * ldw + group.lo, ldw, group.hi - group.lo, packed.data(), valid);
  weightedRows<kRowTile>(packed.data(), group.hi - group.lo, v + group.lo * ldv, ldv, dv, tail.data(), dv);
  for (int t = 0; t < valid; ++t) std::copy_n(tail.data() + t * dv, dv, out + (r + t) * ldo);
}

void softmaxLogits(float* w, int64_t ldw, int64_t first, int64_t rows, int64_t m, const LogitSpec& spec) {
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t i = first + r;
    float* row = w + r * ldw;
    const float sink = spec.sink * kLog2e;
    const float top = std::max(baseTwoRow(row, i, m, spec, 0.0f), sink);
    const int64_t begin = std::min(spec.keys.begin(i, m), m), end = std::max(begin, spec.keys.end(i, m));
    if (top == kMinusInf) {
      emptyRow(row, m, begin, end, spec.uniformEmpty);
      continue;
    }
    normaliseRow(row + begin, end - begin, top, sink);
  }
}

void baseTwoLogits(const float* q, int64_t ldq, int64_t first, int64_t rows, const float* panels, int64_t m, int64_t d,
                   const LogitSpec& spec, float* out, int64_t ldo, float* top) {
  weightRowsAll<RowsOut::BaseTwo>(q, ldq, first, rows, panels, m, d, spec, out, ldo, top);
}

void baseTwoLogits(float* w, int64_t ldw, int64_t first, int64_t rows, int64_t m, const LogitSpec& spec, float* top) {
  for (int64_t r = 0; r < rows; ++r) top[r] = baseTwoRow(w + r * ldw, first + r, m, spec, kMinusInf);
}

int64_t tileExp2(const float* x, const int64_t* bounds, int64_t tiles, int64_t end, float top, float* sums,
                 float* maxima) {
  const F4 shift = simd::splat(top);
  int64_t touched = 0;
  for (; touched < tiles && bounds[touched] < end; ++touched) {
    const int64_t t = touched;
    const int64_t lo = bounds[t], hi = std::min(bounds[t + 1], end);
    // Two vectors per step with their own sums and maxima: two exponentials in flight.
    F4 sum0 = simd::splat(0.0f), sum1 = sum0, most0 = simd::splat(kMinusInf), most1 = most0;
    int64_t j = lo;
    for (; j + 8 <= hi; j += 8) {
      const F4 v0 = simd::load(x + j), v1 = simd::load(x + j + 4);
      most0 = simd::max(most0, v0);
      most1 = simd::max(most1, v1);
      sum0 = simd::add(sum0, simd::exp2NonPositive(simd::sub(v0, shift)));
      sum1 = simd::add(sum1, simd::exp2NonPositive(simd::sub(v1, shift)));
    }
    for (; j < hi; j += 4) {  // the last 1 to 7 keys; lanes past hi are -Infinity (weight 0)
      const F4 v = simd::keepRange(simd::load(x + j), static_cast<int32_t>(j), static_cast<int32_t>(lo),
                                   static_cast<int32_t>(hi), kMinusInf);
      most0 = simd::max(most0, v);
      sum0 = simd::add(sum0, simd::exp2NonPositive(simd::sub(v, shift)));
    }
    sums[t] = simd::horizontalSum(simd::add(sum0, sum1));
    if (maxima) maxima[t] = simd::horizontalMax(simd::max(most0, most1));
  }
  if (!maxima) return touched;
  // The largest weights (times the row sum): 2^(max - top), four tiles at a time.
  int64_t t = 0;
  for (; t + 4 <= touched; t += 4)
    simd::store(maxima + t, simd::exp2NonPositive(simd::sub(simd::load(maxima + t), shift)));
  for (; t < touched; ++t) maxima[t] = simd::exp2NonPositive(maxima[t] - top);
  return touched;
}

void applyCausalMask(float* values, int64_t heads, int64_t nq, int64_t nk, int64_t queryOffset) {
  for (int64_t h = 0; h < heads; ++h) {
    for (int64_t i = 0; i < nq; ++i) {
      float* row = values + (h * nq + i) * nk;
      for (int64_t j = std::max<int64_t>(0, i + queryOffset + 1); j < nk; ++j) row[j] = kMinusInf;
    }
  }
}

// The buffers outputRows<kRowTile> works in, for heads of width d and values of width dv.
static void sizeScratch(OnlineScratch& scratch, int64_t d, int64_t dv) {
  scratch.logits.resize(static_cast<size_t>(kRowTile * kKeyBlock));
  scratch.weights.resize(static_cast<size_t>(kRowTile * kKeyBlock));
  scratch.queries.resize(static_cast<size_t>(kRowTile * d));
  scratch.acc.resize(static_cast<size_t>(kRowTile * (dv + 8)));
}

void groupOutput(const float* q, int64_t ldq, int64_t row, int64_t heads, const float* panels, int64_t m, int64_t d,
                 const float* v, int64_t ldv, int64_t dv, const LogitSpec* specs, OnlineScratch& scratch, float* out,
                 int64_t ldo) {
  sizeScratch(scratch, d, dv);
  for (int64_t h = 0; h < heads; h += kRowTile) {
    const int valid = static_cast<int>(std::min(kRowTile, heads - h));
    // A last, partial tile repeats its last head (as outputRows repeats its last row).
    LogitSpec tile[kRowTile];
    for (int r = 0; r < kRowTile; ++r) tile[r] = specs[h + std::min(r, valid - 1)];
    outputRows<kRowTile>(q + h * ldq, ldq, row, valid, panels, m, d, v, ldv, dv, specs[h], scratch, out + h * ldo, ldo,
                         tile);
  }
}

void attentionOutput(const float* q, int64_t ldq, int64_t first, int64_t rows, const float* panels, int64_t m,
                     int64_t d, const float* v, int64_t ldv, int64_t dv, const LogitSpec& spec, OnlineScratch& scratch,
                     float* out, int64_t ldo) {
  sizeScratch(scratch, d, dv);
  for (int64_t r = 0; r < rows; r += kRowTile) {
    const int valid = static_cast<int>(std::min(kRowTile, rows - r));
    outputRows<kRowTile>(q + r * ldq, ldq, first + r, valid, panels, m, d, v, ldv, dv, spec, scratch, out + r * ldo,
                         ldo);
  }
}

}  // namespace relpos::kernels
