// sin-freq — the frequency modulation of the chapter (§2.1.7): the odd bias amplitude*sin((j-i)/alpha),
// which prefers one direction, does not decay and is not positive semi-definite.
#include <cmath>

#include "relpos/schemes/bias_family.hpp"

namespace relpos {

namespace {

const ParamInfo kAlpha = numberParam("alpha", 8, 0, 1e12, "period scale: B = amplitude*sin((j-i)/alpha) (> 0)", true);
const ParamInfo kAmplitude = numberParam("amplitude", 1, -1e12, 1e12, "amplitude of the sine");

void fillSinFreq(const Params& params, const BiasWindow& w, float* out) {
  const double alpha = params.number(kAlpha);
  const double amplitude = params.number(kAmplitude);
  fillByDistance(w, out, [&](int64_t, double r) { return amplitude * std::sin(r / alpha); });
}

ClosedForm sinFreqClosedForm(const Params& params) {
  const double alpha = params.number(kAlpha);
  const double amplitude = params.number(kAmplitude);
  return {[=](double r) { return amplitude * std::sin(r / alpha); },
          [=](double r) { return amplitude / alpha * std::cos(r / alpha); }};
}

}  // namespace

Scheme sinFreqScheme() {
  Scheme s = biasScheme("sin-freq", "Sinusoidal frequency bias",
                        "the chapter \"2.1 相对位置编码的数学理论\", §2.1.7 (频率调节, frequency modulation)",
                        "Odd bias amplitude*sin((j-i)/alpha): prefers one direction, does not decay, not PSD.",
                        {kAlpha, kAmplitude}, fillSinFreq, sinFreqClosedForm);
  s.perHead = false;  // alpha and amplitude are shared: one map for every head
  return s;
}

}  // namespace relpos
