// exp-decay — the distance-decay function of the chapter (§2.1.7): the kernel exp(-lambda|r|),
// i.e. the log-space bias -lambda|r|; with one head, ALiBi's symmetric form with slope lambda.
#include <cmath>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
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
  fillByDistance(w, out, [&](int64_t h, int64_t r) { return -lambda[h] * std::fabs(static_cast<double>(r)); });
}

Result expDecayBias(const Scheme&, const Params& params) {
  if (params.choice(kForm) == "log") return squareBias(params, fillExpDecayLog);
  const int64_t n = params.integer(common::n());
  const int64_t heads = params.integer(common::heads());
  const bool causal = params.boolean(common::causal());
  const std::vector<double> lambda = params.perHead(kLambda, heads, {});
  checkResultSize(params.where(), static_cast<double>(heads) * n * n);
  Tensor t = Tensor::floats({heads, n, n});
  fillByDistance(BiasWindow{heads, n, n, 0, 0}, t.f32.data(), [&](int64_t h, int64_t r) {
    // The multiplicative form of the causal mask is a weight of 0, not -Infinity.
    return causal && r > 0 ? 0.0 : std::exp(-lambda[h] * std::fabs(static_cast<double>(r)));
  });
  return single(std::move(t));
}

}  // namespace

Scheme expDecayScheme() {
  Scheme s = biasScheme(
      "exp-decay", "Exponential distance decay",
      "the chapter \"2.1 相对位置编码的数学理论\", §2.1.7 (距离衰减函数设计, the distance-decay function)",
      "Kernel exp(-lambda|j-i|), i.e. the log-space bias -lambda|j-i|; with one head ALiBi's symmetric form.",
      {kLambda, kForm}, fillExpDecayLog);
  s.bias = expDecayBias;
  s.scores = expDecayBias;
  return s;
}

}  // namespace relpos
