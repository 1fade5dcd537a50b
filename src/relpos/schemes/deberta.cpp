// deberta — He, Liu, Gao and Chen 2021, "DeBERTa: Decoding-enhanced BERT with Disentangled
// Attention", arXiv:2006.03654 (v3: arXiv:2111.09543). Uses delta = i - j; log buckets in exact
// arithmetic (docs/buckets.md); the p2c index sign follows the released code (docs/schemes/vectors.md).
#include <algorithm>
#include <cmath>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/numeric.hpp"
#include "relpos/kernels/kernels.hpp"
#include "relpos/schemes/grid.hpp"
#include "relpos/schemes/vector_family.hpp"

namespace relpos {

namespace {

const ParamInfo kPositionBuckets =
    integerParam("positionBuckets", 256, -1e9, 1 << 20, "log-bucket count (<= 0: no bucketing; 1 is invalid)");
const ParamInfo kMaxRelative =
    integerParam("maxRelativePositions", 512, 2, 1 << 30,
                 "P: bucket(+-(P-1)) = +-(positionBuckets-1) (>= 2; P-1 > positionBuckets/2 when bucketing)");
const ParamInfo kOutput =
    onlyIn(choiceParam("output", "logBucket|index",
                       "buckets: signed bucket(i-j), or the table index clamp(bucket + s, 0, 2s-1)"),
           {"buckets"});
const ParamInfo kQc = onlyIn(
    arrayParam("qc", "scores: content queries [n, d] (alias q); default: probe ones, position terms only"), {"scores"});
const ParamInfo kKc = onlyIn(arrayParam("kc", "scores: content keys [n, d] (alias k)"), {"scores"});
// The tables and terms act on the logits, not on the bucket map.
const std::vector<std::string> kLogits = {"scores", "attention"};
const ParamInfo kQr = synthetic(
    actsIn(arrayParam("qr", "learned relative query table [2s, d] (p2c); default: the sinusoid of t - s"), kLogits));
const ParamInfo kKr = synthetic(
    actsIn(arrayParam("kr", "learned relative key table [2s, d] (c2p); default: the sinusoid of t - s"), kLogits));
const ParamInfo kPosAttType = [] {
  ParamInfo info = actsIn(arrayParam("posAttType", "position terms, a list of 'c2p' | 'p2c' (default both)"), kLogits);
  info.listOfStrings = true;
  info.choices = "c2p|p2c";
  return info;
}();

// The signed log bucket of delta = i - j; positionBuckets <= 0: identity. Not clamped. Expects
// validated arguments (positionBuckets != 1, P - 1 > positionBuckets / 2).
int64_t logBucket(int64_t delta, int64_t positionBuckets, int64_t maxRelativePositions) {
  if (positionBuckets <= 0) return delta;
  const int64_t mid = positionBuckets / 2;
  const int64_t a = (-mid < delta && delta < mid) ? mid - 1 : (delta < 0 ? -delta : delta);
  if (a <= mid) return delta;
  const double x = std::log(static_cast<double>(a) / mid) /
                   std::log(static_cast<double>(maxRelativePositions - 1) / mid) * (mid - 1);
  const int64_t magnitude = static_cast<int64_t>(std::ceil(snapToInteger(x))) + mid;
  return delta < 0 ? -magnitude : magnitude;
}

struct Buckets {
  int64_t positionBuckets = 256;
  int64_t maxRelative = 512;
  int64_t span = 256;  // s: positionBuckets if > 0, else P

  int64_t bucket(int64_t delta) const { return logBucket(delta, positionBuckets, maxRelative); }
  int32_t index(int64_t delta) const {
    return static_cast<int32_t>(std::clamp(bucket(delta) + span, int64_t{0}, 2 * span - 1));
  }
};

Buckets readBuckets(const Params& params) {
  Buckets b;
  b.positionBuckets = params.integer(kPositionBuckets);
  b.maxRelative = params.integer(kMaxRelative);
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

// delta = query - key = -r. causal marks later keys -1: the unmasked ones have delta >= 0, so a
// bucket >= 0 in either output.
Result bucketMap(const Scheme&, const Params& params) {
  const Buckets b = readBuckets(params);
  const bool index = params.choice(kOutput) == "index";
  return gridBuckets(params, "deberta", params.boolean(common::causal()),
                     [&](int64_t r) { return index ? b.index(-r) : b.bucket(-r); });
}

struct Terms {
  bool c2p = false;
  bool p2c = false;
  int count() const { return (c2p ? 1 : 0) + (p2c ? 1 : 0); }
};

Terms readTerms(const Params& params) {
  Terms terms;
  for (const std::string& t : params.strings(kPosAttType.name, {"c2p", "p2c"})) {
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
struct Tables {
  Buckets buckets;
  Terms terms;
  std::vector<float> qr, kr;
};

Tables readTables(const Params& params, int64_t d) {
  Tables t;
  t.buckets = readBuckets(params);
  t.terms = readTerms(params);
  const int64_t rows = 2 * t.buckets.span;
  auto table = [&](const ParamInfo& info) {
    if (const float* a = matrixParam(params, info.name, "2s, d", rows, d)) return std::vector<float>(a, a + rows * d);
    return sinusoidTable(rows, t.buckets.span, d);  // Qr[t] = Kr[t] = sinusoid(t - s)
  };
  t.qr = table(kQr);
  t.kr = table(kKr);
  return t;
}

// S_ij = (Qc_i.Kc_j [if content] + Qc_i.Kr[idx] [c2p] + Kc_j.Qr[idx] [p2c]) / sqrt(d (1 + #terms)),
// idx = idx(i + queryOffset - j). p2c uses the same idx as c2p (the code's sign).
void logitRows(const Tables& t, const float* qc, const float* kc, bool content, int64_t nq, int64_t nk, int64_t d,
               int64_t queryOffset, float* out) {
  const double scale = 1.0 / std::sqrt(static_cast<double>(d) * (1 + t.terms.count()));
  const int64_t deltaMin = queryOffset - (nk - 1);
  std::vector<int32_t> byDelta(static_cast<size_t>(nq + nk - 1));
  for (size_t e = 0; e < byDelta.size(); ++e) byDelta[e] = t.buckets.index(deltaMin + static_cast<int64_t>(e));
  for (int64_t i = 0; i < nq; ++i) {
    for (int64_t j = 0; j < nk; ++j) {
      const int64_t idx = byDelta[i + queryOffset - j - deltaMin];
      double s = content ? dot(qc + i * d, kc + j * d, d) : 0.0;
      if (t.terms.c2p) s += dot(qc + i * d, t.kr.data() + idx * d, d);
      if (t.terms.p2c) s += dot(kc + j * d, t.qr.data() + idx * d, d);
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

Result scores(const Scheme&, const Params& params) {
  const std::string qName = contentName(params, "qc", "q");
  const std::string kName = contentName(params, "kc", "k");
  const bool causal = params.boolean(common::causal());
  if (params.has(qName) || params.has(kName)) {
    requireSquareContent(params);
    const int64_t n = sizeFromParamOrMatrix(params, common::n(), qName, 0);
    const int64_t d = sizeFromParamOrMatrix(params, common::d(), qName, 1);
    const float* qc = matrixParam(params, qName, "n, d", n, d);
    const float* kc = matrixParam(params, kName, "n, d", n, d);
    if ((qc == nullptr) != (kc == nullptr)) {
      throwType(params.where() + ": " + qName + " and " + kName + " must be given together, each of shape [n, d]");
    }
    const Tables tables = readTables(params, d);
    checkResultSize(params.where(), static_cast<double>(n) * n);
    Tensor t = Tensor::floats({n, n});
    logitRows(tables, qc, kc, true, n, n, d, 0, t.f32.data());
    if (causal) kernels::applyCausalMask(t.f32.data(), 1, n, n, 0);
    return single(std::move(t));
  }
  // Position-only: (c2p + p2c) / sqrt(d (1 + #terms)) for the probe Qc = Kc = ones: each term is a
  // sum of the table row at idx(delta), delta = query - key = -r.
  const PositionGrid grid = readGrid(withTokenPositions(params));
  requireIntegerPositions(grid, params, "deberta");
  const int64_t d = params.integer(common::d());
  const Tables tables = readTables(params, d);
  const double scale = 1.0 / std::sqrt(static_cast<double>(d) * (1 + tables.terms.count()));
  auto rowSum = [d](const std::vector<float>& table, int64_t idx) {
    double sum = 0;
    for (int64_t c = 0; c < d; ++c) sum += table[static_cast<size_t>(idx * d + c)];
    return sum;
  };
  return distanceScores(params, grid, causal, [&](int64_t r) {
    const int64_t idx = tables.buckets.index(-r);
    double s = 0;
    if (tables.terms.c2p) s += rowSum(tables.kr, idx);
    if (tables.terms.p2c) s += rowSum(tables.qr, idx);
    return s * scale;
  });
}

// The tables a logit call leaves at their defaults: those its terms read (c2p: kr, p2c: qr).
std::vector<std::string> syntheticTables(const Scheme&, const Params& params, const std::string& call) {
  if (call == "buckets") return {};
  const Terms terms = readTerms(params);
  std::vector<std::string> out;
  if (terms.p2c && !params.has(kQr.name)) out.push_back(kQr.name);
  if (terms.c2p && !params.has(kKr.name)) out.push_back(kKr.name);
  return out;
}

void logits(const Params& params, const float* q, const float* k, int64_t nq, int64_t nk, int64_t dh,
            int64_t queryOffset, float* out) {
  logitRows(readTables(params, dh), q, k, true, nq, nk, dh, queryOffset, out);
}

}  // namespace

Scheme debertaScheme() {
  // Its logits: c2c + c2p + p2c in place of QK^T / sqrt(d).
  Scheme s = logitScheme(
      describedScheme("deberta", "relative vector", "DeBERTa disentangled attention",
                      "He et al. 2021, arXiv:2006.03654 (v3: arXiv:2111.09543)",
                      "Content and log-bucketed relative position disentangled: c2c + c2p + p2c logits over sqrt(3d).",
                      {onlyIn(common::n(), {"buckets", "scores"}), actsIn(common::d(), {"scores"}),
                       onlyIn(common::heads(), {"scores", "attention"}), common::causal(), kPositionBuckets,
                       kMaxRelative, kOutput, kQc, kKc, kQr, kKr, kPosAttType}),
      scores, syntheticTables, logits);
  s.buckets = bucketMap;
  s.reads = {{"scores", {"positions", "q", "k"}}};
  // Position-only scores read the tables at idx(i, j) = bucket(i − j) + s: a function of i − j.
  s.shiftInvariant = alwaysShiftInvariant;
  return s;
}

}  // namespace relpos
