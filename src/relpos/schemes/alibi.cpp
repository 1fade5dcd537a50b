// alibi — Press, Smith and Lewis 2022, "Train Short, Test Long", arXiv:2108.12409; slopes as MPT's
// llm-foundry gen_slopes, keyPosition form as BLOOM. Formula and forms: docs/schemes/bias.md.
#include <cmath>

#include "relpos/base/common_params.hpp"
#include "relpos/schemes/bias_family.hpp"

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

namespace {

const ParamInfo kAlibiBiasMax =
    numberParam("alibiBiasMax", 8, 0, 1e6, "slope exponent range: m_t = 2^(-t*max/p)", true);
const ParamInfo kAlibiForm =
    choiceParam("form", "symmetric|keyPosition", "symmetric: -m|j-i| (paper/MPT); keyPosition: m*j (BLOOM)");
const ParamInfo kAlibiOutput =
    choiceParam("output", "bias|slopes", "bias [heads, n, n] or the per-head slopes [heads]");

bool keyPositionForm(const Params& params) {
  return params.choice(kAlibiForm) == "keyPosition";
}

void fillAlibi(const Params& params, const BiasWindow& w, float* out) {
  const int64_t heads = w.heads, nq = w.rows, nk = w.cols, queryOffset = w.queryStart - w.keyStart;
  const std::vector<double> slopes = alibiSlopes(heads, params.number(kAlibiBiasMax));
  const bool keyPosition = keyPositionForm(params);
  for (int64_t h = 0; h < heads; ++h) {
    for (int64_t i = 0; i < nq; ++i) {
      float* row = out + (h * nq + i) * nk;
      for (int64_t j = 0; j < nk; ++j) {
        const double r = static_cast<double>(j - (i + queryOffset));
        row[j] = static_cast<float>((keyPosition ? slopes[h] * (j + w.keyStart) : -slopes[h] * std::fabs(r)) +
                                    0.0);  // +0.0: no -0 on the diagonal
      }
    }
  }
}

Result alibiBias(const Scheme&, const Params& params) {
  if (params.choice(kAlibiOutput) == "slopes") {
    const int64_t heads = params.integer(common::heads());
    const std::vector<double> slopes = alibiSlopes(heads, params.number(kAlibiBiasMax));
    Tensor t = Tensor::floats({heads});
    for (int64_t h = 0; h < heads; ++h) t.f32[h] = static_cast<float>(slopes[h]);
    return single(std::move(t));
  }
  return squareBias(params, fillAlibi);
}

// The keyPosition form m*j depends on the key's position, not on j - i alone.
bool alibiShiftInvariant(const Params& params, int64_t) {
  const Value* form = params.find(kAlibiForm.name);
  return !form || form->type != Value::Type::String || form->text != "keyPosition";
}

ClosedForm alibiClosedForm(const Params& params) {
  if (keyPositionForm(params)) return {};
  const double slope = alibiSlopes(1, params.number(kAlibiBiasMax))[0];
  return {[slope](double r) { return -slope * std::fabs(r); },
          [slope](double r) { return -slope * (r > 0 ? 1.0 : (r < 0 ? -1.0 : 0.0)); }};
}

}  // namespace

Scheme alibiScheme() {
  Scheme s = biasScheme(
      "alibi", "ALiBi", "Press, Smith, Lewis 2022, arXiv:2108.12409",
      "Linear recency bias -m_h|j-i| with geometric per-head slopes; no parameters, extrapolates gracefully.",
      {kAlibiBiasMax, kAlibiForm, kAlibiOutput}, fillAlibi, alibiClosedForm);
  s.bias = alibiBias;
  s.shiftInvariant = alibiShiftInvariant;
  s.lab = {"ALiBi", {"explicit", "mixed"}, {}, [](const Scheme& scheme, const lab::TermSetup& setup) {
             return fixedBiasTerm(scheme, setup, Params(setup.options->where()));
           }};
  return s;
}

}  // namespace relpos
