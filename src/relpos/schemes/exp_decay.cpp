// exp-decay — the distance-decay function of the chapter (§2.1.7): the kernel exp(-lambda|r|),
// i.e. the log-space bias -lambda|r|; with one head, ALiBi's symmetric form with slope lambda.
#include <cmath>

#include "relpos/schemes/bias_family.hpp"

namespace relpos {

namespace {

const ParamInfo kLambda = perHeadParam("lambda", 0.1, 0, 1e6, "decay rate per head (>= 0): kernel exp(-lambda|r|)");
const ParamInfo kForm = choiceParam(
    "form", "log|kernel", "log: bias -lambda|r| (-Infinity where masked); kernel: exp(-lambda|r|) (0 where masked)");

// The log form. In attention exp-decay always enters through this form: adding -lambda|r| to the
// logits is exactly multiplying the unnormalised weights by the kernel exp(-lambda|r|), so the
// kernel form is only a view of the same term (rp.bias / rp.scores with form 'kernel').
void fillExpDecayLog(const Params& params, const BiasWindow& w, float* out) {
  const std::vector<double> lambda = params.perHead(kLambda, w.heads, {});
  fillByDistance(w, out, [&](int64_t h, double r) { return -lambda[h] * std::fabs(r); });
}

void fillExpDecayKernel(const Params& params, const BiasWindow& w, float* out) {
  const std::vector<double> lambda = params.perHead(kLambda, w.heads, {});
  fillByDistance(w, out, [&](int64_t h, double r) { return std::exp(-lambda[h] * std::fabs(r)); });
}

// The multiplicative form of the causal mask is a weight of 0, not -Infinity.
Result expDecayBias(const Scheme& scheme, const Params& params) {
  if (params.choice(kForm) == "log") return gridBias(scheme, params, fillExpDecayLog);
  return gridBias(scheme, params, fillExpDecayKernel, 0.0f);
}

}  // namespace

Scheme expDecayScheme() {
  Scheme s = biasScheme(
      "exp-decay", "Exponential distance decay",
      "the chapter \"2.1 相对位置编码的数学理论\", §2.1.7 (距离衰减函数设计, the distance-decay function)",
      "Kernel exp(-lambda|j-i|), i.e. the log-space bias -lambda|j-i|; with one head ALiBi's symmetric form.",
      {kLambda, actsIn(kForm, {"bias", "scores"})}, fillExpDecayLog);
  s.bias = expDecayBias;
  s.scores = expDecayBias;
  return s;
}

}  // namespace relpos
