// transformer-xl — Dai et al. 2019, "Transformer-XL: Attentive Language Models Beyond a
// Fixed-Length Context", arXiv:1901.02860 §3.3. Uses i - j; content and sinusoidal relative terms
// with global biases u and v (docs/schemes/vectors.md).
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

const ParamInfo kU =
    synthetic(arrayParam("u", "learned global content bias [d] (term c; with content only); default 0"));
const ParamInfo kV = synthetic(actsIn(
    arrayParam(
        "v",
        "learned global position bias [d] (term d); default 0 (in rp.attention 'v' is the value matrix, so v = 0 "
        "there)"),
    {"scores"}));
const ParamInfo kWr = synthetic(arrayParam("WR", "learned projection of the sinusoid R [dR, d]; default the identity"));
const ParamInfo kDR =
    integerParam("dR", std::nan(""), 2, 1 << 16, "dimension of the sinusoid R (even); default d (or the rows of WR)");

// The projected relative encodings R(delta) W_R for delta = i - j in [deltaMin, deltaMin + count).
struct Positions {
  int64_t deltaMin = 0;
  int64_t d = 0;
  std::vector<double> rows;  // [count, d]
  const double* at(int64_t delta) const { return rows.data() + (delta - deltaMin) * d; }
};

Positions positions(const Params& params, int64_t d, int64_t deltaMin, int64_t deltaMax) {
  const Value* wrValue = params.find(kWr.name);
  int64_t dR = d;
  if (params.has(kDR.name)) {
    dR = params.integer(kDR);
  } else if (wrValue && wrValue->type == Value::Type::Array && wrValue->shape.size() == 2) {
    dR = wrValue->shape[0];
  }
  if (dR % 2 != 0 || dR < 2) throwRange(params.where() + ": dR must be even and >= 2, got " + std::to_string(dR));
  const float* wr = matrixParam(params, kWr.name, "dR, d", dR, d);
  const double base = params.number(common::base());
  std::vector<double> freq;  // omega_m = base^(-2m/dR), m < dR/2
  for (int64_t m = 0; m < dR / 2; ++m) freq.push_back(std::pow(base, -2.0 * static_cast<double>(m) / dR));

  checkWorkingSet(params.where(), 8.0 * static_cast<double>(deltaMax - deltaMin + 1) * d,
                  "the projected relative encodings R W_R [2n - 1, d]");
  Positions out;
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

// S_ij = [ (q_i + u).k_j + (q_i + v).(R(i - j) W_R) ] / sqrt(d) for queries at i + queryOffset.
void logitRows(const Params& params, const float* q, const float* k, const float* u, const float* v, int64_t nq,
               int64_t nk, int64_t d, int64_t queryOffset, float* out) {
  const Positions pos = positions(params, d, queryOffset - (nk - 1), nq - 1 + queryOffset);
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  for (int64_t i = 0; i < nq; ++i) {
    const float* qi = q + i * d;
    for (int64_t j = 0; j < nk; ++j) {
      const double* p = pos.at(i + queryOffset - j);
      double s = dot(qi, k + j * d, d) + dot(qi, p, d);
      if (u) s += dot(u, k + j * d, d);
      if (v) s += dot(v, p, d);
      out[i * nk + j] = static_cast<float>(s * scale);
    }
  }
}

Result scores(const Scheme&, const Params& params) {
  const bool causal = params.boolean(common::causal());
  if (params.has("k")) {
    requireSquareContent(params);
    const int64_t n = sizeFromParamOrMatrix(params, common::n(), "q", 0);
    const int64_t d = sizeFromParamOrMatrix(params, common::d(), "q", 1);
    const float* u = vectorParam(params, kU.name, d);
    const float* v = vectorParam(params, kV.name, d);
    const float* q = matrixParam(params, "q", "n, d", n, d);
    const float* k = matrixParam(params, "k", "n, d", n, d);
    if (!q) throwType(params.where() + ": q must be a tensor of shape [n, d] when k is given");
    checkResultSize(params.where(), static_cast<double>(n) * n);
    Tensor t = Tensor::floats({n, n});
    logitRows(params, q, k, u, v, n, n, d, 0, t.f32.data());
    if (causal) kernels::applyCausalMask(t.f32.data(), 1, n, n, 0);
    return single(std::move(t));
  }
  // Position-only: term (d) v.(R W_R)/sqrt(d), plus term (b) q.(R W_R)/sqrt(d) for a probe q, at the
  // integer distance i - j = -r of the call's grid. u multiplies content only.
  if (params.has(kU.name)) {
    throwRange(params.where() + ": u multiplies the content keys (term c); give q and k matrices to use it");
  }
  const PositionGrid grid = readGrid(withTokenPositions(params));
  requireIntegerPositions(grid, params, "transformer-xl");
  const int64_t d = params.integer(common::d());
  const float* v = vectorParam(params, kV.name, d);
  const std::vector<float> q = probeVector(params, "q", d, 0.0f);
  const int64_t far = static_cast<int64_t>(std::min(grid.span(), 1e9));
  const Positions pos = positions(params, d, -far, far);
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  return distanceScores(params, grid, causal, [&](int64_t r) {
    const double* p = pos.at(-r);
    return (dot(q.data(), p, d) + (v ? dot(v, p, d) : 0.0)) * scale;
  });
}

// The learned inputs a score or attention call leaves at their defaults: W_R always; v in the
// scores (attention's v is the value matrix); u only with content (scores with q and k, attention).
std::vector<std::string> syntheticInputs(const Scheme&, const Params& params, const std::string& call) {
  const bool content = call == "attention" || params.has("k");
  std::vector<std::string> out;
  if (!params.has(kU.name) && content) out.push_back(kU.name);
  if (!params.has(kV.name) && call == "scores") out.push_back(kV.name);
  if (!params.has(kWr.name)) out.push_back(kWr.name);
  return out;
}

// In attention the name 'v' holds the value matrix, so the global position bias v is 0 here.
void logits(const Params& params, const float* q, const float* k, int64_t nq, int64_t nk, int64_t dh,
            int64_t queryOffset, float* out) {
  const float* u = vectorParam(params, kU.name, dh);
  logitRows(params, q, k, u, nullptr, nq, nk, dh, queryOffset, out);
}

}  // namespace

Scheme transformerXlScheme() {
  Scheme s = logitScheme(
      describedScheme(
          "transformer-xl", "relative vector", "Transformer-XL relative encoding", "Dai et al. 2019, arXiv:1901.02860",
          "Logits (q+u).k + (q+v).(R(i-j) W_R): content and sinusoidal relative-position terms with global biases.",
          {onlyIn(common::n(), {"scores"}), actsIn(common::d(), {"scores"}), common::heads(), common::causal(), kU, kV,
           kWr, kDR, common::base(), queryParam(), keyParam()}),
      scores, syntheticInputs, logits);
  s.reads = {{"scores", {"positions"}}};
  // Position-only scores v·R(i − j)W_R / √d: a function of i − j.
  s.shiftInvariant = alwaysShiftInvariant;
  return s;
}

}  // namespace relpos
