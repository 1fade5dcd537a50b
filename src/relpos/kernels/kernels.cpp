#include "relpos/kernels/kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "relpos/kernels/simd.hpp"

namespace relpos::kernels {

using simd::F4;

namespace {

constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

// A register tile of R query rows x one panel of 8 keys, accumulated over the d dimensions.
template <int R>
void tile(const float* q, int64_t ldq, const float* panel, int64_t d, F4 (&lo)[R], F4 (&hi)[R]) {
  for (int r = 0; r < R; ++r) lo[r] = hi[r] = simd::splat(0.0f);
  for (int64_t c = 0; c < d; ++c) {
    const F4 k0 = simd::load(panel + c * kPanel);
    const F4 k1 = simd::load(panel + c * kPanel + 4);
    for (int r = 0; r < R; ++r) {
      const F4 qv = simd::splat(q[r * ldq + c]);
      lo[r] = simd::add(lo[r], simd::mul(qv, k0));
      hi[r] = simd::add(hi[r], simd::mul(qv, k1));
    }
  }
}

// Scale + bias + mask fused into the store of one tile row.
void storeRow(F4 lo, F4 hi, float scale, const float* bias, float biasWeight, int64_t j0, int64_t m, int64_t visible,
              float* out) {
  alignas(16) float values[kPanel];
  const F4 s = simd::splat(scale);
  F4 a = simd::mul(lo, s);
  F4 b = simd::mul(hi, s);
  const int64_t count = std::min<int64_t>(kPanel, m - j0);
  if (bias && count == kPanel) {
    const F4 w = simd::splat(biasWeight);
    a = simd::add(a, simd::mul(w, simd::load(bias + j0)));
    b = simd::add(b, simd::mul(w, simd::load(bias + j0 + 4)));
    simd::store(values, a);
    simd::store(values + 4, b);
  } else {
    simd::store(values, a);
    simd::store(values + 4, b);
    if (bias) {
      for (int64_t t = 0; t < count; ++t) values[t] += biasWeight * bias[j0 + t];
    }
  }
  for (int64_t t = 0; t < count; ++t) out[j0 + t] = j0 + t < visible ? values[t] : kMinusInf;
}

template <int R>
void logitRows(const float* q, int64_t row0, int64_t ldq, const float* panels, int64_t m, int64_t d, float scale,
               const float* bias, int64_t ldb, float biasWeight, const Mask& mask, float* out, int64_t ldo) {
  int64_t widest = 0;
  for (int r = 0; r < R; ++r) widest = std::max(widest, mask.visible(row0 + r, m));
  F4 lo[R], hi[R];
  for (int64_t j0 = 0; j0 < widest; j0 += kPanel) {
    tile<R>(q + row0 * ldq, ldq, panels + j0 * d, d, lo, hi);
    for (int r = 0; r < R; ++r) {
      const int64_t i = row0 + r;
      storeRow(lo[r], hi[r], scale, bias ? bias + i * ldb : nullptr, biasWeight, j0, m, mask.visible(i, m),
               out + i * ldo);
    }
  }
  // Keys no row of this block can see: masked without computing them.
  const int64_t start = std::min(m, (widest + kPanel - 1) / kPanel * kPanel);
  for (int r = 0; r < R; ++r) std::fill(out + (row0 + r) * ldo + start, out + (row0 + r) * ldo + m, kMinusInf);
}

}  // namespace

int64_t Mask::visible(int64_t row, int64_t m) const {
  if (!causal) return m;
  return std::clamp<int64_t>(row + queryOffset + 1, 0, m);
}

void applyCausalMask(float* values, int64_t heads, int64_t nq, int64_t nk, int64_t queryOffset) {
  for (int64_t h = 0; h < heads; ++h) {
    for (int64_t i = 0; i < nq; ++i) {
      float* row = values + (h * nq + i) * nk;
      for (int64_t j = std::max<int64_t>(0, i + queryOffset + 1); j < nk; ++j) row[j] = kMinusInf;
    }
  }
}

std::vector<float> packKeys(const float* k, int64_t m, int64_t d, int64_t ld) {
  const int64_t panels = (m + kPanel - 1) / kPanel;
  std::vector<float> packed(static_cast<size_t>(panels * d * kPanel), 0.0f);
  for (int64_t j = 0; j < m; ++j) {
    float* panel = packed.data() + (j / kPanel) * d * kPanel + j % kPanel;
    for (int64_t c = 0; c < d; ++c) panel[c * kPanel] = k[j * ld + c];
  }
  return packed;
}

void logits(const float* q, int64_t rows, int64_t ldq, const float* panels, int64_t m, int64_t d, float scale,
            const float* bias, int64_t ldb, float biasWeight, const Mask& mask, float* out, int64_t ldo) {
  int64_t i = 0;
  for (; i + 4 <= rows; i += 4) logitRows<4>(q, i, ldq, panels, m, d, scale, bias, ldb, biasWeight, mask, out, ldo);
  for (; i < rows; ++i) logitRows<1>(q, i, ldq, panels, m, d, scale, bias, ldb, biasWeight, mask, out, ldo);
}

void softmaxRows(float* w, int64_t rows, int64_t m, int64_t ld, const Mask& mask) {
  for (int64_t i = 0; i < rows; ++i) {
    float* row = w + i * ld;
    const int64_t visible = mask.visible(i, m);
    std::fill(row + visible, row + m, 0.0f);
    F4 top4 = simd::splat(kMinusInf);
    int64_t j = 0;
    for (; j + 4 <= visible; j += 4) top4 = simd::max(top4, simd::load(row + j));
    float top = simd::horizontalMax(top4);
    for (; j < visible; ++j) top = std::max(top, row[j]);
    if (top == kMinusInf) {  // every key masked
      std::fill(row, row + visible, 0.0f);
      continue;
    }
    const F4 shift = simd::splat(top);
    F4 sum4 = simd::splat(0.0f);
    for (j = 0; j + 4 <= visible; j += 4) {
      const F4 e = simd::expNonPositive(simd::sub(simd::load(row + j), shift));
      simd::store(row + j, e);
      sum4 = simd::add(sum4, e);
    }
    float sum = simd::horizontalSum(sum4);
    for (; j < visible; ++j) {
      row[j] = simd::expNonPositive(row[j] - top);
      sum += row[j];
    }
    const F4 inv = simd::splat(1.0f / sum);
    for (j = 0; j + 4 <= visible; j += 4) simd::store(row + j, simd::mul(simd::load(row + j), inv));
    for (; j < visible; ++j) row[j] *= 1.0f / sum;
  }
}

void weightedSum(const float* w, int64_t rows, int64_t m, int64_t ldw, const float* v, int64_t dv, int64_t ldv,
                 const Mask& mask, float* out, int64_t ldo) {
  for (int64_t i = 0; i < rows; ++i) {
    const float* wi = w + i * ldw;
    float* oi = out + i * ldo;
    const int64_t visible = mask.visible(i, m);
    int64_t c = 0;
    for (; c + 8 <= dv; c += 8) {
      F4 a = simd::load(oi + c);
      F4 b = simd::load(oi + c + 4);
      for (int64_t j = 0; j < visible; ++j) {
        const F4 weight = simd::splat(wi[j]);
        a = simd::add(a, simd::mul(weight, simd::load(v + j * ldv + c)));
        b = simd::add(b, simd::mul(weight, simd::load(v + j * ldv + c + 4)));
      }
      simd::store(oi + c, a);
      simd::store(oi + c + 4, b);
    }
    for (; c + 4 <= dv; c += 4) {
      F4 a = simd::load(oi + c);
      for (int64_t j = 0; j < visible; ++j)
        a = simd::add(a, simd::mul(simd::splat(wi[j]), simd::load(v + j * ldv + c)));
      simd::store(oi + c, a);
    }
    for (; c < dv; ++c) {
      float a = oi[c];
      for (int64_t j = 0; j < visible; ++j) a += wi[j] * v[j * ldv + c];
      oi[c] = a;
    }
  }
}

}  // namespace relpos::kernels
