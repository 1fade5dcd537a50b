#include "relpos/schemes/relative_vector.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/schemes/absolute.hpp"
#include "relpos/schemes/bias.hpp"

namespace relpos {

int64_t debertaLogBucket(int64_t delta, int64_t positionBuckets, int64_t maxRelativePositions) {
  if (positionBuckets <= 0) return delta;
  const int64_t mid = positionBuckets / 2;
  const int64_t a = (-mid < delta && delta < mid) ? mid - 1 : (delta < 0 ? -delta : delta);
  if (a <= mid) return delta;
  const double x = std::log(static_cast<double>(a) / mid) /
                   std::log(static_cast<double>(maxRelativePositions - 1) / mid) * (mid - 1);
  const int64_t magnitude = static_cast<int64_t>(std::ceil(snapToInteger(x))) + mid;
  return delta < 0 ? -magnitude : magnitude;
}

int64_t sizeFromParamOrMatrix(const Params& params, const ParamInfo& info, const std::string& matrix, int axis) {
  if (!params.has(info.name)) {
    const Value* m = params.find(matrix);
    if (m && m->type == Value::Type::Array && m->shape.size() == 2) return m->shape[axis];
  }
  return params.integer(info);
}

namespace {

constexpr double kDefaultTableBase = 10000;  // untrained default tables: the paper's sinusoid

std::string shapeText(const std::string& names, int64_t rows, int64_t cols) {
  return "[" + names + "] = [" + std::to_string(rows) + ", " + std::to_string(cols) + "]";
}

// A [rows, cols] matrix parameter, or nullptr when absent.
const float* matrixParam(const Params& params, const std::string& name, const std::string& names, int64_t rows,
                         int64_t cols) {
  const Value* v = params.array(name, rows * cols, shapeText(names, rows, cols));
  return v ? v->array.data() : nullptr;
}

// A vector parameter [d], or nullptr when absent.
const float* vectorParam(const Params& params, const std::string& name, int64_t d) {
  const Value* v = params.array(name, d, "[d] = [" + std::to_string(d) + "]");
  return v ? v->array.data() : nullptr;
}

// A probe vector [d] of a position-only score call, defaulting to `fallback` in every entry.
std::vector<float> probeVector(const Params& params, const std::string& name, int64_t d, float fallback) {
  if (const float* v = vectorParam(params, name, d)) return {v, v + d};
  return std::vector<float>(static_cast<size_t>(d), fallback);
}

// Signed sinusoid rows table[t] = sinusoid(t - shift) (interleaved, base 10000): the untrained
// default of the Shaw and DeBERTa tables.
std::vector<float> sinusoidTable(int64_t rows, int64_t shift, int64_t d) {
  std::vector<float> table(static_cast<size_t>(rows * d));
  for (int64_t t = 0; t < rows; ++t)
    sinusoid(static_cast<double>(t - shift), d, kDefaultTableBase, false, table.data() + t * d);
  return table;
}

// Probe-score results are the same for every head: copies head 0 to the others.
void repeatOverHeads(Tensor& t, int64_t heads, int64_t n) {
  for (int64_t h = 1; h < heads; ++h) std::copy_n(t.f32.begin(), n * n, t.f32.begin() + h * n * n);
}

const ParamInfo& queryParam() {
  static const ParamInfo p =
      arrayParam("q", "scores: probe query [d], or queries [n, d] with k [n, d] for the full logits");
  return p;
}
const ParamInfo& keyParam() {
  static const ParamInfo p = arrayParam("k", "scores: keys [n, d]; with q [n, d] gives the full logit matrix [n, n]");
  return p;
}

// ---------------------------------------------------------------------------------------------
// shaw — Shaw, Uszkoreit, Vaswani 2018

const ParamInfo& shawClip() {
  static const ParamInfo p =
      integerParam("clip", 8, 0, 1 << 20, "k: relative distances j-i are clipped to [-k, k] (integer >= 0)");
  return p;
}
const ParamInfo& shawAK() {
  static const ParamInfo p =
      arrayParam("aK", "key table [2k+1, d] indexed by clip(j-i)+k; default: sinusoid of signed j-i");
  return p;
}
const ParamInfo& shawAV() {
  static const ParamInfo p = arrayParam("aV", "value table [2k+1, d_v] added to the values in attention; default 0");
  return p;
}

int32_t shawIndex(int64_t r, int64_t clip) {
  return static_cast<int32_t>(std::clamp(r, -clip, clip) + clip);
}

// The clip the tables are built and indexed with. Given aK / aV fix it; otherwise the default table
// aK[r + k] = sinusoid(r) only needs the distances that occur (|r| <= span), so clip = 1,048,576 with
// n = 8 builds 15 rows, not two million (found by fuzz_schemes: a 20 s call for an 8 x 8 result).
int64_t effectiveClip(const Params& params, int64_t clip, int64_t span) {
  if (params.has(shawAK().name) || params.has(shawAV().name)) return clip;
  return std::min(clip, std::max<int64_t>(span, 0));
}

std::vector<float> shawKeyTable(const Params& params, int64_t clip, int64_t d) {
  const int64_t rows = 2 * clip + 1;
  checkWorkingSet(params.where(), 4.0 * static_cast<double>(rows) * d, "the relative key table aK [2*clip+1, d]");
  if (const float* a = matrixParam(params, shawAK().name, "2*clip+1, d", rows, d)) return {a, a + rows * d};
  return sinusoidTable(rows, clip, d);  // aK[r + k] = sinusoid(r)
}

Result shawBuckets(const Params& params) {
  const int64_t n = params.integer(common::n());
  const int64_t clip = params.integer(shawClip());
  checkResultSize(params.where(), static_cast<double>(n) * n);
  Tensor t = Tensor::ints({n, n});
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) t.i32[i * n + j] = shawIndex(j - i, clip);
  }
  return single(std::move(t));
}

// Full logits e_ij = q_i . (k_j + aK[idx(i, j)]) / sqrt(d), [n, n].
Result shawLogits(const Params& params, int64_t clip) {
  const int64_t n = sizeFromParamOrMatrix(params, common::n(), "q", 0);
  const int64_t d = sizeFromParamOrMatrix(params, common::d(), "q", 1);
  const float* q = matrixParam(params, "q", "n, d", n, d);
  const float* k = matrixParam(params, "k", "n, d", n, d);
  if (!q) throwType(params.where() + ": q must be a tensor of shape [n, d] when k is given");
  checkResultSize(params.where(), static_cast<double>(n) * n);
  clip = effectiveClip(params, clip, n - 1);
  const std::vector<float> table = shawKeyTable(params, clip, d);
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  Tensor t = Tensor::floats({n, n});
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const float* a = table.data() + shawIndex(j - i, clip) * d;
      t.f32[i * n + j] = static_cast<float>((dotRow(q + i * d, k + j * d, d) + dotRow(q + i * d, a, d)) * scale);
    }
  }
  if (params.boolean(common::causal())) applyCausalMask(t.f32.data(), 1, n, n, 0);
  return single(std::move(t));
}

// Position-only S_ij = q . aK[idx(i, j)] / sqrt(d) with a probe q (default ones), [heads, n, n].
Result shawScores(const Params& params) {
  const int64_t givenClip = params.integer(shawClip());
  if (params.has("k")) return shawLogits(params, givenClip);
  const int64_t n = params.integer(common::n());
  const int64_t d = params.integer(common::d());
  const int64_t heads = params.integer(common::heads());
  checkResultSize(params.where(), static_cast<double>(heads) * n * n);
  const int64_t clip = effectiveClip(params, givenClip, n - 1);
  const std::vector<float> q = probeVector(params, "q", d, 1.0f);
  const std::vector<float> table = shawKeyTable(params, clip, d);
  std::vector<double> byIndex(static_cast<size_t>(2 * clip + 1));
  for (size_t t = 0; t < byIndex.size(); ++t)
    byIndex[t] = dotRow(q.data(), table.data() + t * d, d) / std::sqrt(static_cast<double>(d));
  Tensor s = Tensor::floats({heads, n, n});
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) s.f32[i * n + j] = static_cast<float>(byIndex[shawIndex(j - i, clip)]);
  }
  repeatOverHeads(s, heads, n);
  if (params.boolean(common::causal())) applyCausalMask(s.f32.data(), heads, n, n, 0);
  return single(std::move(s));
}

// Attention (implicit): aK / aV tables shared by all heads, index for queries at i + queryOffset.
PairTable shawPairTable(const Params& params, int64_t nq, int64_t nk, int64_t queryOffset, int64_t dh) {
  const int64_t span = std::max(std::abs(nk - 1 - queryOffset), std::abs(queryOffset + nq - 1));
  const int64_t clip = effectiveClip(params, params.integer(shawClip()), span);
  const int64_t rows = 2 * clip + 1;
  PairTable table;
  table.keyTable = shawKeyTable(params, clip, dh);
  const Value* values = params.find("v");
  if (values && values->shape.size() == 2) {
    // Attention reads aV rows with the value head width, so check it against v here.
    const int64_t dv = values->shape[1] / params.integer(common::heads());
    if (const float* a = matrixParam(params, shawAV().name, "2*clip+1, d_v", rows, dv))
      table.valueTable.assign(a, a + rows * dv);
  }
  table.index.resize(static_cast<size_t>(nq * nk));
  for (int64_t i = 0; i < nq; ++i) {
    for (int64_t j = 0; j < nk; ++j) table.index[i * nk + j] = shawIndex(j - (i + queryOffset), clip);
  }
  return table;
}

Scheme shawScheme() {
  Scheme s;
  s.id = "shaw";
  s.family = "relative vector";
  s.name = "Shaw relative positions";
  s.cite = "Shaw, Uszkoreit, Vaswani 2018, arXiv:1803.02155";
  s.description =
      "Learned vectors a^K, a^V per clipped distance clip(j-i, k) added to keys and values; exactly relative.";
  s.params = {common::n(), common::d(), common::heads(), common::causal(), shawClip(),
              shawAK(),    shawAV(),    queryParam(),    keyParam()};
  s.buckets = shawBuckets;
  s.scores = shawScores;
  s.term = AttentionTerm::PairTable;
  s.pairTable = shawPairTable;
  return s;
}

// ---------------------------------------------------------------------------------------------
// transformer-xl — Dai et al. 2019 (uses i - j)

const ParamInfo& txlU() {
  static const ParamInfo p = arrayParam("u", "global content bias [d] (term c); default 0");
  return p;
}
const ParamInfo& txlV() {
  static const ParamInfo p = arrayParam(
      "v", "global position bias [d] (term d); default 0 (in rp.attention 'v' is the value matrix, so v = 0 there)");
  return p;
}
const ParamInfo& txlWR() {
  static const ParamInfo p = arrayParam("WR", "projection of the sinusoid R [dR, d]; default the identity");
  return p;
}
const ParamInfo& txlDR() {
  static const ParamInfo p =
      integerParam("dR", std::nan(""), 2, 1 << 16, "dimension of the sinusoid R (even); default d (or the rows of WR)");
  return p;
}

// The projected relative encodings R(delta) W_R for delta = i - j in [deltaMin, deltaMin + count).
struct TxlPositions {
  int64_t deltaMin = 0;
  int64_t d = 0;
  std::vector<double> rows;  // [count, d]
  const double* at(int64_t delta) const { return rows.data() + (delta - deltaMin) * d; }
};

TxlPositions txlPositions(const Params& params, int64_t d, int64_t deltaMin, int64_t deltaMax) {
  const Value* wrValue = params.find(txlWR().name);
  int64_t dR = d;
  if (params.has(txlDR().name)) {
    dR = params.integer(txlDR());
  } else if (wrValue && wrValue->type == Value::Type::Array && wrValue->shape.size() == 2) {
    dR = wrValue->shape[0];
  }
  if (dR % 2 != 0 || dR < 2) throwRange(params.where() + ": dR must be even and >= 2, got " + std::to_string(dR));
  const float* wr = matrixParam(params, txlWR().name, "dR, d", dR, d);
  const double base = params.number(common::base());
  std::vector<double> freq;  // omega_m = base^(-2m/dR), m < dR/2
  for (int64_t m = 0; m < dR / 2; ++m) freq.push_back(std::pow(base, -2.0 * static_cast<double>(m) / dR));

  checkWorkingSet(params.where(), 8.0 * static_cast<double>(deltaMax - deltaMin + 1) * d,
                  "the projected relative encodings R W_R [2n - 1, d]");
  TxlPositions out;
  out.deltaMin = deltaMin;
  out.d = d;
  out.rows.assign(static_cast<size_t>((deltaMax - deltaMin + 1) * d), 0.0);
  std::vector<double> r(static_cast<size_t>(dR));
  for (int64_t delta = deltaMin; delta <= deltaMax; ++delta) {
    // R(delta) in the concat layout [sin ... | cos ...]; defined for negative delta too (sine is odd).
    for (int64_t m = 0; m < dR / 2; ++m) {
      r[m] = std::sin(static_cast<double>(delta) * freq[m]);
      r[dR / 2 + m] = std::cos(static_cast<double>(delta) * freq[m]);
    }
    double* row = out.rows.data() + (delta - deltaMin) * d;
    for (int64_t m = 0; m < dR; ++m) {
      if (!wr) {
        if (m < d) row[m] += r[m];  // W_R = I (rectangular when dR != d)
        continue;
      }
      for (int64_t c = 0; c < d; ++c) row[c] += r[m] * wr[m * d + c];
    }
  }
  return out;
}

double dotMixed(const float* a, const double* b, int64_t d) {
  double sum = 0;
  for (int64_t c = 0; c < d; ++c) sum += a[c] * b[c];
  return sum;
}

// S_ij = [ (q_i + u).k_j + (q_i + v).(R(i - j) W_R) ] / sqrt(d) for queries at i + queryOffset.
void txlLogitRows(const Params& params, const float* q, const float* k, const float* u, const float* v, int64_t nq,
                  int64_t nk, int64_t d, int64_t queryOffset, float* out) {
  const TxlPositions pos = txlPositions(params, d, queryOffset - (nk - 1), nq - 1 + queryOffset);
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  for (int64_t i = 0; i < nq; ++i) {
    const float* qi = q + i * d;
    for (int64_t j = 0; j < nk; ++j) {
      const double* p = pos.at(i + queryOffset - j);
      double s = dotRow(qi, k + j * d, d) + dotMixed(qi, p, d);
      if (u) s += dotRow(u, k + j * d, d);
      if (v) s += dotMixed(v, p, d);
      out[i * nk + j] = static_cast<float>(s * scale);
    }
  }
}

Result txlScores(const Params& params) {
  const int64_t n = sizeFromParamOrMatrix(params, common::n(), "q", 0);
  const int64_t d = sizeFromParamOrMatrix(params, common::d(), "q", 1);
  const float* u = vectorParam(params, txlU().name, d);
  const float* v = vectorParam(params, txlV().name, d);
  const bool causal = params.boolean(common::causal());
  if (params.has("k")) {
    const float* q = matrixParam(params, "q", "n, d", n, d);
    const float* k = matrixParam(params, "k", "n, d", n, d);
    if (!q) throwType(params.where() + ": q must be a tensor of shape [n, d] when k is given");
    checkResultSize(params.where(), static_cast<double>(n) * n);
    Tensor t = Tensor::floats({n, n});
    txlLogitRows(params, q, k, u, v, n, n, d, 0, t.f32.data());
    if (causal) applyCausalMask(t.f32.data(), 1, n, n, 0);
    return single(std::move(t));
  }
  // Position-only: term (d) v.(R W_R)/sqrt(d), plus term (b) q.(R W_R)/sqrt(d) for a probe q.
  const int64_t heads = params.integer(common::heads());
  checkResultSize(params.where(), static_cast<double>(heads) * n * n);
  const std::vector<float> q = probeVector(params, "q", d, 0.0f);
  const TxlPositions pos = txlPositions(params, d, -(n - 1), n - 1);
  Tensor s = Tensor::floats({heads, n, n});
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const double* p = pos.at(i - j);
      const double term = dotMixed(q.data(), p, d) + (v ? dotMixed(v, p, d) : 0.0);
      s.f32[i * n + j] = static_cast<float>(term / std::sqrt(static_cast<double>(d)));
    }
  }
  repeatOverHeads(s, heads, n);
  if (causal) applyCausalMask(s.f32.data(), heads, n, n, 0);
  return single(std::move(s));
}

// In attention the name 'v' holds the value matrix, so the global position bias v is 0 here.
void txlLogits(const Params& params, const float* q, const float* k, int64_t nq, int64_t nk, int64_t dh,
               int64_t queryOffset, float* out) {
  const float* u = vectorParam(params, txlU().name, dh);
  txlLogitRows(params, q, k, u, nullptr, nq, nk, dh, queryOffset, out);
}

Scheme transformerXlScheme() {
  Scheme s;
  s.id = "transformer-xl";
  s.family = "relative vector";
  s.name = "Transformer-XL relative encoding";
  s.cite = "Dai et al. 2019, arXiv:1901.02860";
  s.description =
      "Logits (q+u).k + (q+v).(R(i-j) W_R): content and sinusoidal relative-position terms with global biases.";
  s.params = {common::n(), common::d(), common::heads(), common::causal(), txlU(),    txlV(),
              txlWR(),     txlDR(),     common::base(),  queryParam(),     keyParam()};
  s.scores = txlScores;
  s.term = AttentionTerm::Logits;
  s.logits = txlLogits;
  return s;
}

// ---------------------------------------------------------------------------------------------
// deberta — He et al. 2021 (uses delta = i - j)

const ParamInfo& debertaPositionBuckets() {
  static const ParamInfo p =
      integerParam("positionBuckets", 256, -1e9, 1 << 20, "log-bucket count (<= 0: no bucketing; 1 is invalid)");
  return p;
}
const ParamInfo& debertaMaxRelative() {
  static const ParamInfo p =
      integerParam("maxRelativePositions", 512, 2, 1 << 30,
                   "P: bucket(+-(P-1)) = +-(positionBuckets-1) (>= 2; P-1 > positionBuckets/2 when bucketing)");
  return p;
}
const ParamInfo& debertaOutput() {
  static const ParamInfo p = choiceParam("output", "logBucket|index",
                                         "buckets: signed bucket(i-j), or the table index clamp(bucket + s, 0, 2s-1)");
  return p;
}
const ParamInfo& debertaQc() {
  static const ParamInfo p =
      arrayParam("qc", "scores: content queries [n, d] (alias q); default: probe ones, position terms only");
  return p;
}
const ParamInfo& debertaKc() {
  static const ParamInfo p = arrayParam("kc", "scores: content keys [n, d] (alias k)");
  return p;
}
const ParamInfo& debertaQr() {
  static const ParamInfo p = arrayParam("qr", "relative query table [2s, d] (p2c); default: sinusoid of t - s");
  return p;
}
const ParamInfo& debertaKr() {
  static const ParamInfo p = arrayParam("kr", "relative key table [2s, d] (c2p); default: sinusoid of t - s");
  return p;
}
const ParamInfo& debertaPosAttType() {
  static const ParamInfo p = [] {
    ParamInfo info = arrayParam("posAttType", "position terms, a list of 'c2p' | 'p2c' (default both)");
    info.listOfStrings = true;
    info.choices = "c2p|p2c";
    return info;
  }();
  return p;
}

struct DebertaBuckets {
  int64_t positionBuckets = 256;
  int64_t maxRelative = 512;
  int64_t span = 256;  // s: positionBuckets if > 0, else P

  int64_t bucket(int64_t delta) const { return debertaLogBucket(delta, positionBuckets, maxRelative); }
  int32_t index(int64_t delta) const {
    return static_cast<int32_t>(std::clamp(bucket(delta) + span, int64_t{0}, 2 * span - 1));
  }
};

DebertaBuckets debertaBuckets(const Params& params) {
  DebertaBuckets b;
  b.positionBuckets = params.integer(debertaPositionBuckets());
  b.maxRelative = params.integer(debertaMaxRelative());
  if (b.positionBuckets == 1) {
    throwRange(params.where() + ": positionBuckets must be >= 2, or <= 0 for no bucketing, got 1");
  }
  if (b.positionBuckets > 0 && !(static_cast<double>(b.maxRelative - 1) > b.positionBuckets / 2.0)) {
    throwRange(params.where() +
               ": maxRelativePositions - 1 must be > positionBuckets/2 = " + formatNumber(b.positionBuckets / 2.0) +
               " when bucketing, got maxRelativePositions " + std::to_string(b.maxRelative));
  }
  b.span = b.positionBuckets > 0 ? b.positionBuckets : b.maxRelative;
  return b;
}

Result debertaBucketMap(const Params& params) {
  const int64_t n = params.integer(common::n());
  const DebertaBuckets b = debertaBuckets(params);
  const bool index = params.choice(debertaOutput()) == "index";
  checkResultSize(params.where(), static_cast<double>(n) * n);
  std::vector<int32_t> byDelta(static_cast<size_t>(2 * n - 1));
  for (int64_t delta = -(n - 1); delta <= n - 1; ++delta) {
    byDelta[delta + n - 1] = index ? b.index(delta) : static_cast<int32_t>(b.bucket(delta));
  }
  Tensor t = Tensor::ints({n, n});
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) t.i32[i * n + j] = byDelta[i - j + n - 1];
  }
  return single(std::move(t));
}

struct DebertaTerms {
  bool c2p = false;
  bool p2c = false;
  int count() const { return (c2p ? 1 : 0) + (p2c ? 1 : 0); }
};

DebertaTerms debertaTerms(const Params& params) {
  DebertaTerms terms;
  for (const std::string& t : params.strings(debertaPosAttType().name, {"c2p", "p2c"})) {
    if (t == "c2p") {
      terms.c2p = true;
    } else if (t == "p2c") {
      terms.p2c = true;
    } else {
      throwRange(params.where() + ": posAttType entries must be 'c2p' or 'p2c', got '" + t + "'");
    }
  }
  return terms;  // a repeated entry counts once, as in Hugging Face's scale factor
}

// The relative tables [2s, d] (given or the untrained default) and which terms use them.
struct DebertaTables {
  DebertaBuckets buckets;
  DebertaTerms terms;
  std::vector<float> qr, kr;
};

DebertaTables debertaTables(const Params& params, int64_t d) {
  DebertaTables t;
  t.buckets = debertaBuckets(params);
  t.terms = debertaTerms(params);
  const int64_t rows = 2 * t.buckets.span;
  auto table = [&](const ParamInfo& info) {
    if (const float* a = matrixParam(params, info.name, "2s, d", rows, d)) return std::vector<float>(a, a + rows * d);
    return sinusoidTable(rows, t.buckets.span, d);  // Qr[t] = Kr[t] = sinusoid(t - s)
  };
  t.qr = table(debertaQr());
  t.kr = table(debertaKr());
  return t;
}

// S_ij = (Qc_i.Kc_j [if content] + Qc_i.Kr[idx] [c2p] + Kc_j.Qr[idx] [p2c]) / sqrt(d (1 + #terms)),
// idx = idx(i + queryOffset - j). p2c uses the same idx as c2p (the code's sign, schemes.md §2).
void debertaLogitRows(const DebertaTables& t, const float* qc, const float* kc, bool content, int64_t nq, int64_t nk,
                      int64_t d, int64_t queryOffset, float* out) {
  const double scale = 1.0 / std::sqrt(static_cast<double>(d) * (1 + t.terms.count()));
  const int64_t deltaMin = queryOffset - (nk - 1);
  std::vector<int32_t> byDelta(static_cast<size_t>(nq + nk - 1));
  for (size_t e = 0; e < byDelta.size(); ++e) byDelta[e] = t.buckets.index(deltaMin + static_cast<int64_t>(e));
  for (int64_t i = 0; i < nq; ++i) {
    for (int64_t j = 0; j < nk; ++j) {
      const int64_t idx = byDelta[i + queryOffset - j - deltaMin];
      double s = content ? dotRow(qc + i * d, kc + j * d, d) : 0.0;
      if (t.terms.c2p) s += dotRow(qc + i * d, t.kr.data() + idx * d, d);
      if (t.terms.p2c) s += dotRow(kc + j * d, t.qr.data() + idx * d, d);
      out[i * nk + j] = static_cast<float>(s * scale);
    }
  }
}

// The name of a content matrix: `primary` (qc / kc) or its alias (q / k), not both.
std::string contentName(const Params& params, const std::string& primary, const std::string& alias) {
  if (params.has(primary) && params.has(alias)) {
    throwRange(params.where() + ": give " + primary + " or its alias " + alias + ", not both");
  }
  return params.has(alias) ? alias : primary;
}

Result debertaScores(const Params& params) {
  const std::string qName = contentName(params, "qc", "q");
  const std::string kName = contentName(params, "kc", "k");
  const int64_t n = sizeFromParamOrMatrix(params, common::n(), qName, 0);
  const int64_t d = sizeFromParamOrMatrix(params, common::d(), qName, 1);
  const bool causal = params.boolean(common::causal());
  const float* qc = matrixParam(params, qName, "n, d", n, d);
  const float* kc = matrixParam(params, kName, "n, d", n, d);
  if ((qc == nullptr) != (kc == nullptr)) {
    throwType(params.where() + ": " + qName + " and " + kName + " must be given together, each of shape [n, d]");
  }
  const DebertaTables tables = debertaTables(params, d);
  if (qc) {
    checkResultSize(params.where(), static_cast<double>(n) * n);
    Tensor t = Tensor::floats({n, n});
    debertaLogitRows(tables, qc, kc, true, n, n, d, 0, t.f32.data());
    if (causal) applyCausalMask(t.f32.data(), 1, n, n, 0);
    return single(std::move(t));
  }
  // Position-only: (c2p + p2c) / sqrt(d (1 + #terms)) for the probe Qc = Kc = ones.
  const int64_t heads = params.integer(common::heads());
  checkResultSize(params.where(), static_cast<double>(heads) * n * n);
  checkWorkingSet(params.where(), 4.0 * (static_cast<double>(heads) * n * n + static_cast<double>(n) * d),
                  "the [heads, n, n] result and the probe rows [n, d]");
  const std::vector<float> ones(static_cast<size_t>(n * d), 1.0f);
  Tensor s = Tensor::floats({heads, n, n});
  debertaLogitRows(tables, ones.data(), ones.data(), false, n, n, d, 0, s.f32.data());
  repeatOverHeads(s, heads, n);
  if (causal) applyCausalMask(s.f32.data(), heads, n, n, 0);
  return single(std::move(s));
}

void debertaLogits(const Params& params, const float* q, const float* k, int64_t nq, int64_t nk, int64_t dh,
                   int64_t queryOffset, float* out) {
  debertaLogitRows(debertaTables(params, dh), q, k, true, nq, nk, dh, queryOffset, out);
}

Scheme debertaScheme() {
  Scheme s;
  s.id = "deberta";
  s.family = "relative vector";
  s.name = "DeBERTa disentangled attention";
  s.cite = "He et al. 2021, arXiv:2006.03654 (v3: arXiv:2111.09543)";
  s.description = "Content and log-bucketed relative position disentangled: c2c + c2p + p2c logits over sqrt(3d).";
  s.params = {common::n(),          common::d(),        common::heads(), common::causal(), debertaPositionBuckets(),
              debertaMaxRelative(), debertaOutput(),    debertaQc(),     debertaKc(),      debertaQr(),
              debertaKr(),          debertaPosAttType()};
  s.buckets = debertaBucketMap;
  s.scores = debertaScores;
  s.term = AttentionTerm::Logits;
  s.logits = debertaLogits;
  return s;
}

}  // namespace

std::vector<Scheme> relativeVectorSchemes() {
  return {shawScheme(), transformerXlScheme(), debertaScheme()};
}

}  // namespace relpos
