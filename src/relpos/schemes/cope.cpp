// cope — Golovneva, Wang, Weston and Sukhbaatar 2024, "Contextual Position Encoding: Learning to
// Count What's Important", arXiv:2405.18719. Causal only: positions count sigmoid gates of q.k.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/numeric.hpp"
#include "relpos/schemes/vector_family.hpp"

namespace relpos {

namespace {

const ParamInfo kCopeNposMax = integerParam(
    "nposMax", std::nan(""), 1, 1 << 20,
    "number of position embeddings; positions are clamped to nposMax-1 (default: rows of E, else the key count)");
const ParamInfo kCopeE = synthetic(
    arrayParam("E", "learned position embeddings [nposMax, d], row = integer position; default: the sinusoid of t"));
const ParamInfo kCopeScale =
    numberParam("scale", std::nan(""), 0, 1e12, "gate logit scale z = q.k*scale (> 0; default 1/sqrt(d))", true);
const ParamInfo kCopeOutput =
    onlyIn(choiceParam("output", "logits|positions",
                       "scores: logits z + cope (-Infinity above the diagonal) or the positions p (0 there)"),
           {"scores"});
const ParamInfo kCopeQ =
    actsIn(arrayParam("q", "scores: queries [n, d] (required: CoPE positions depend on content)"), {"scores"});
const ParamInfo kCopeK = actsIn(arrayParam("k", "scores: keys [n, d] (required)"), {"scores"});
// Read only to refuse false: the calls' own `causal` option, which CoPE has no use for.
const ParamInfo kCopeCausal = booleanParam("causal", true, "CoPE is causal by construction");

// CoPE's positions count gates of the keys up to the query: there is no non-causal CoPE.
void requireCausal(const Params& params) {
  if (!params.boolean(kCopeCausal)) {
    throwRange(params.where() + ": cope is causal by construction (its positions count the keys up to the query); " +
               "causal: false is not defined for it");
  }
}

struct CopeConfig {
  int64_t nposMax = 1;
  double scale = 1;
  std::vector<float> table;  // E [nposMax, d]
};

// nposMax defaults to the rows of E, else to the number of keys (positions never reach it).
CopeConfig copeConfig(const Params& params, int64_t d, int64_t keys) {
  CopeConfig c;
  const Value* e = params.find(kCopeE.name);
  if (params.has(kCopeNposMax.name)) {
    c.nposMax = params.integer(kCopeNposMax);
  } else if (e && e->type == Value::Type::Array) {
    c.nposMax = e->shape.size() == 2 ? e->shape[0] : static_cast<int64_t>(e->array.size()) / std::max<int64_t>(d, 1);
    if (c.nposMax < 1) throwRange(params.where() + ": E must have shape [nposMax, d] with nposMax >= 1");
  } else {
    c.nposMax = std::max<int64_t>(keys, 1);
  }
  c.scale = params.has(kCopeScale.name) ? params.number(kCopeScale) : 1.0 / std::sqrt(static_cast<double>(d));
  checkWorkingSet(params.where(), 4.0 * static_cast<double>(c.nposMax) * d, "the position table E [nposMax, d]");
  const std::string shape = "[nposMax, d] = [" + std::to_string(c.nposMax) + ", " + std::to_string(d) + "]";
  if (const Value* given = params.array(kCopeE.name, c.nposMax * d, shape)) {
    c.table.assign(given->array.begin(), given->array.end());
  } else {
    c.table = sinusoidTable(c.nposMax, 0, d);
  }
  return c;
}

// One query row at position `position`: gates g_t = sigmoid(z_t) over keys t <= position, positions
// p_j = sum_{t=j}^{position} g_t (clamped to nposMax-1), and logits z_j + interpolated q.E[p_j].
// Keys after the query get p = 0 and logit -Infinity: CoPE is causal by construction.
void copeRow(const CopeConfig& c, const float* qi, const float* k, int64_t nk, int64_t d, int64_t position,
             bool positions, float* out) {
  const int64_t last = std::min(position, nk - 1);
  const float masked = positions ? 0.0f : -std::numeric_limits<float>::infinity();
  for (int64_t j = std::max<int64_t>(last + 1, 0); j < nk; ++j) out[j] = masked;
  if (last < 0) return;
  std::vector<double> z(static_cast<size_t>(last + 1));
  for (int64_t j = 0; j <= last; ++j) z[j] = dot(qi, k + j * d, d) * c.scale;
  double count = 0;
  const double top = static_cast<double>(c.nposMax - 1);
  for (int64_t j = last; j >= 0; --j) {
    count += 1.0 / (1.0 + std::exp(-z[j]));
    const double p = std::min(count, top);
    if (positions) {
      out[j] = static_cast<float>(p);
      continue;
    }
    const double lo = std::floor(p);
    const double w = p - lo;
    const double eLo = dot(qi, c.table.data() + static_cast<int64_t>(lo) * d, d);
    const double eHi = dot(qi, c.table.data() + static_cast<int64_t>(std::ceil(p)) * d, d);
    // The CoPE term is not divided by sqrt(d); only the gates use the scaled z.
    out[j] = static_cast<float>(z[j] + w * eHi + (1 - w) * eLo);
  }
}

Result copeScores(const Scheme&, const Params& params) {
  requireCausal(params);
  for (const char* name : {"m", "queryOffset", "positions", "queryPositions", "keyPositions"}) {
    if (params.has(name)) {
      throwRange(params.where() + ": cope computes its positions from content (q, k); " + std::string(name) +
                 " does not apply to it");
    }
  }
  // n and d, when given, restate the shape of q.
  const Value* given = params.find("q");
  if (given && given->type == Value::Type::Array && given->shape.size() == 2) {
    for (const auto& [info, axis] : {std::pair<const ParamInfo*, int>{&common::n(), 0}, {&common::d(), 1}}) {
      if (params.has(info->name) && params.integer(*info) != given->shape[axis]) {
        throwRange(params.where() + ": " + info->name + " (" + std::to_string(params.integer(*info)) +
                   ") differs from the " + (axis == 0 ? "rows" : "width") + " of q (" +
                   std::to_string(given->shape[axis]) + ")");
      }
    }
  }
  const int64_t n = sizeFromParamOrMatrix(params, common::n(), "q", 0);
  const int64_t d = sizeFromParamOrMatrix(params, common::d(), "q", 1);
  const std::string shape = "[n, d] = [" + std::to_string(n) + ", " + std::to_string(d) + "]";
  const Value* q = params.array("q", n * d, shape);
  const Value* k = params.array("k", n * d, shape);
  if (!q || !k) {
    throwType(params.where() + ": cope needs q and k of shape [n, d] (its positions are computed from content)");
  }
  const bool positions = params.choice(kCopeOutput) == "positions";
  checkResultSize(params.where(), static_cast<double>(n) * n);
  const CopeConfig c = copeConfig(params, d, n);
  Tensor t = Tensor::floats({n, n});
  for (int64_t i = 0; i < n; ++i) {
    copeRow(c, q->array.data() + i * d, k->array.data(), n, d, i, positions, t.f32.data() + i * n);
  }
  return single(std::move(t));
}

// The embeddings stand in for learned ones, except in the positions view (which does not read them).
std::vector<std::string> syntheticTable(const Scheme&, const Params& params, const std::string& call) {
  if (params.has(kCopeE.name) || (call == "scores" && params.choice(kCopeOutput) == "positions")) return {};
  return {kCopeE.name};
}

// Attention hook: one head's q [nq, dh], k [nk, dh]; E (if given) is [nposMax, dh].
void copeLogits(const Params& params, const float* q, const float* k, int64_t nq, int64_t nk, int64_t dh,
                int64_t queryOffset, float* out) {
  requireCausal(params);
  const CopeConfig c = copeConfig(params, dh, nk);
  for (int64_t i = 0; i < nq; ++i) copeRow(c, q + i * dh, k, nk, dh, i + queryOffset, false, out + i * nk);
}

}  // namespace

Scheme copeScheme() {
  return logitScheme(
      describedScheme(
          "cope", "contextual", "CoPE (contextual position encoding)", "Golovneva et al. 2024, arXiv:2405.18719",
          "Positions count sigmoid gates of q.k between key and query; interpolated embeddings enter the logits. "
          "Causal by construction (causal: false is an error).",
          {restatement(common::n()), restatement(common::d()), kCopeNposMax, kCopeE, kCopeScale, kCopeOutput, kCopeQ,
           kCopeK}),
      copeScores, syntheticTable, copeLogits);
}

}  // namespace relpos
