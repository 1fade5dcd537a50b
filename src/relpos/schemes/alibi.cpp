// alibi — Press, Smith and Lewis 2022, "Train Short, Test Long", arXiv:2108.12409; slopes as MPT's
// llm-foundry gen_slopes, keyPosition form as BLOOM. Formula and forms: docs/schemes/bias.md.
#include <algorithm>
#include <cmath>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
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
const ParamInfo kSlopes = perHeadParam("slopes", std::nan(""), 0, 1e6,
                                       "per-head slopes m_h (>= 0; a list sets heads); replaces the geometric rule of "
                                       "alibiBiasMax (0: a head without bias)");
const ParamInfo kAlibiOutput =
    choiceParam("output", "bias|slopes", "bias [heads, n, n] or the per-head slopes [heads]");

bool keyPositionForm(const Params& params) {
  return params.choice(kAlibiForm) == "keyPosition";
}

// The per-head slopes: the given ones (a scalar or one per head), else MPT's geometric rule.
std::vector<double> slopesOf(const Params& params, int64_t heads) {
  if (params.has(kSlopes.name)) {
    if (params.has(kAlibiBiasMax.name)) throwRange(params.where() + ": give slopes or alibiBiasMax, not both");
    return params.perHead(kSlopes, heads, {});
  }
  return alibiSlopes(heads, params.number(kAlibiBiasMax));
}

void fillAlibi(const Params& params, const BiasWindow& w, float* out) {
  const int64_t heads = w.heads, nq = w.rows, nk = w.cols;
  const std::vector<double> slopes = slopesOf(params, heads);
  if (!keyPositionForm(params)) {
    // +0.0: no -0 on the diagonal
    fillByDistance(w, out, [&](int64_t h, double r) { return -slopes[h] * std::fabs(r) + 0.0; });
    return;
  }
  // m*j does not depend on the query: one row per head, copied to the others.
  for (int64_t h = 0; h < heads; ++h) {
    float* first = out + h * nq * nk;
    for (int64_t j = 0; j < nk; ++j) first[j] = static_cast<float>(slopes[h] * w.keyAt(j) + 0.0);
    for (int64_t i = 1; i < nq; ++i) std::copy_n(first, nk, first + i * nk);
  }
}

// Params whose `heads` is the number of given slopes when the call does not say.
Params withSlopeHeads(const Params& params) {
  const Value* given = params.find(kSlopes.name);
  if (params.has(common::heads().name) || !given || given->type != Value::Type::Array) return params;
  Params out = params;
  out.setNumber(common::heads().name, static_cast<double>(given->array.size()));
  return out;
}

Result alibiBias(const Scheme& scheme, const Params& given) {
  const Params params = withSlopeHeads(given);
  if (params.choice(kAlibiOutput) != "slopes") return gridBias(scheme, params, fillAlibi);
  for (const ParamInfo* p : {&common::n(), &common::m(), &common::queryOffset(), &common::queryPositions(),
                             &common::keyPositions(), &common::causal()}) {
    if (params.has(p->name)) {
      throwRange(params.where() + ": output 'slopes' returns the per-head slopes [heads]; " + p->name +
                 " does not apply to it");
    }
  }
  const int64_t heads = params.integer(common::heads());
  return single(Tensor::vector(slopesOf(params, heads)));
}

// The keyPosition form m*j depends on the key's position, not on j - i alone.
bool alibiShiftInvariant(const Params& params, int64_t) {
  const Value* form = params.find(kAlibiForm.name);
  return !form || form->type != Value::Type::String || form->text != "keyPosition";
}

ClosedForm alibiClosedForm(const Params& params) {
  if (keyPositionForm(params)) return {};
  const Params withHeads = withSlopeHeads(params);  // head 0 of the given slopes, or of the rule
  const double slope = slopesOf(withHeads, withHeads.integer(common::heads()))[0];
  return {[slope](double r) { return -slope * std::fabs(r); },
          [slope](double r) { return -slope * (r > 0 ? 1.0 : (r < 0 ? -1.0 : 0.0)); }};
}

}  // namespace

Scheme alibiScheme() {
  Scheme s = biasScheme("alibi", "ALiBi", "Press, Smith, Lewis 2022, arXiv:2108.12409",
                        "Linear recency bias -m_h|j-i| with geometric per-head slopes; no learned parameters.",
                        {kAlibiBiasMax, kSlopes, kAlibiForm, onlyIn(kAlibiOutput, {"bias", "scores"})}, fillAlibi,
                        alibiClosedForm);
  s.bias = s.scores = alibiBias;
  s.perHead = true;
  s.shiftInvariant = alibiShiftInvariant;
  s.lab = {"ALiBi", {"explicit", "mixed"}, {}, [](const Scheme& scheme, const lab::TermSetup& setup) {
             return fixedBiasTerm(scheme, setup, Params(setup.options->where()));
           }};
  return s;
}

}  // namespace relpos
