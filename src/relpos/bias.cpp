#include "relpos/bias.hpp"

#include <cmath>
#include <limits>

#include "relpos/common_params.hpp"
#include "relpos/errors.hpp"

namespace relpos {

std::vector<double> alibiSlopes(int64_t heads, double alibiBiasMax) {
  int64_t p = 1;
  while (p < heads) p *= 2;
  std::vector<double> slopes;
  for (int64_t t = 1; t <= p; ++t) slopes.push_back(std::pow(2.0, -static_cast<double>(t) * alibiBiasMax / p));
  if (p != heads) {
    std::vector<double> reordered;
    for (int64_t t = 1; t < p; t += 2) reordered.push_back(slopes[t]);  // m_2, m_4, ...
    for (int64_t t = 0; t < p; t += 2) reordered.push_back(slopes[t]);  // m_1, m_3, ...
    reordered.resize(heads);
    slopes = reordered;
  }
  return slopes;
}

void applyCausalMask(float* bias, int64_t heads, int64_t nq, int64_t nk, int64_t queryOffset) {
  const float minusInf = -std::numeric_limits<float>::infinity();
  for (int64_t h = 0; h < heads; ++h) {
    for (int64_t i = 0; i < nq; ++i) {
      float* row = bias + (h * nq + i) * nk;
      for (int64_t j = std::max<int64_t>(0, i + queryOffset + 1); j < nk; ++j) row[j] = minusInf;
    }
  }
}

Result squareBias(const Params& params, BiasFillFn fill) {
  const int64_t n = params.integer(common::n());
  const int64_t heads = params.integer(common::heads());
  const bool causal = params.boolean(common::causal());
  checkResultSize(params.where(), static_cast<double>(heads) * n * n);
  Tensor b = Tensor::floats({heads, n, n});
  fill(params, heads, n, n, 0, b.f32.data());
  if (causal) applyCausalMask(b.f32.data(), heads, n, n, 0);
  return {{"data", std::move(b)}};
}

namespace {

// ---------------------------------------------------------------------------------------------
// alibi — Press, Smith, Lewis 2022

const ParamInfo& alibiBiasMax() {
  static const ParamInfo p = numberParam("alibiBiasMax", 8, 0, 1e6, "slope exponent range: m_t = 2^(-t*max/p)", true);
  return p;
}
const ParamInfo& alibiForm() {
  static const ParamInfo p = choiceParam("form", "symmetric|keyPosition",
                                         "symmetric: -m|j-i| (paper/MPT); keyPosition: m*j (BLOOM)");
  return p;
}
const ParamInfo& alibiOutput() {
  static const ParamInfo p = choiceParam("output", "bias|slopes", "bias [heads, n, n] or the per-head slopes [heads]");
  return p;
}

void fillAlibi(const Params& params, int64_t heads, int64_t nq, int64_t nk, int64_t queryOffset, float* out) {
  const std::vector<double> slopes = alibiSlopes(heads, params.number(alibiBiasMax()));
  const bool keyPosition = params.choice(alibiForm()) == "keyPosition";
  for (int64_t h = 0; h < heads; ++h) {
    for (int64_t i = 0; i < nq; ++i) {
      float* row = out + (h * nq + i) * nk;
      for (int64_t j = 0; j < nk; ++j) {
        const double r = static_cast<double>(j - (i + queryOffset));
        row[j] = static_cast<float>((keyPosition ? slopes[h] * j : -slopes[h] * std::fabs(r)) + 0.0);  // +0.0: no -0 on the diagonal
      }
    }
  }
}

Result alibiBias(const Params& params) {
  if (params.choice(alibiOutput()) == "slopes") {
    const int64_t heads = params.integer(common::heads());
    const std::vector<double> slopes = alibiSlopes(heads, params.number(alibiBiasMax()));
    Tensor t = Tensor::floats({heads});
    for (int64_t h = 0; h < heads; ++h) t.f32[h] = static_cast<float>(slopes[h]);
    return {{"data", std::move(t)}};
  }
  return squareBias(params, fillAlibi);
}

Result alibiScores(const Params& params) { return squareBias(params, fillAlibi); }

}  // namespace

std::vector<Scheme> biasSchemes() {
  std::vector<Scheme> out;

  Scheme alibi;
  alibi.id = "alibi";
  alibi.family = "relative bias";
  alibi.name = "ALiBi";
  alibi.cite = "Press, Smith, Lewis 2022, arXiv:2108.12409";
  alibi.description = "Linear recency bias -m_h|j-i| with geometric per-head slopes; no parameters, extrapolates gracefully.";
  alibi.params = {common::n(), common::heads(), common::causal(), alibiBiasMax(), alibiForm(), alibiOutput()};
  alibi.bias = alibiBias;
  alibi.scores = alibiScores;
  alibi.term = AttentionTerm::Bias;
  alibi.fillBias = fillAlibi;
  out.push_back(std::move(alibi));

  return out;
}

}  // namespace relpos
