// kerple-power — Chi, Fan, Ramadge and Rudnicky 2022, "KERPLE: Kernelized Relative Positional
// Embedding for Length Extrapolation", arXiv:2205.09921 (its power variant; r2 = 1 is ALiBi).
#include <cmath>

#include "relpos/schemes/bias_family.hpp"

namespace relpos {

namespace {

const ParamInfo kR1 = synthetic(
    perHeadParam("r1", std::nan(""), 0, 1e6, "learned per-head scale (> 0); default: the ALiBi slopes", true));
const ParamInfo kR2 = perHeadParam("r2", 1, 0, 2, "per-head exponent (0 < r2 <= 2)", true);

// B = -r1 a^r2 at distance a = |j - i|, with 0^p = 0.
double kerplePower(double r1, double r2, double a) {
  return a == 0 ? 0.0 : -r1 * std::pow(a, r2);
}

void fillKerplePower(const Params& params, const BiasWindow& w, float* out) {
  const int64_t heads = w.heads;
  const std::vector<double> r1 = params.perHead(kR1, heads, alibiSlopes(heads, 8));
  const std::vector<double> r2 = params.perHead(kR2, heads, {});
  fillByDistance(w, out, [&](int64_t h, double r) { return kerplePower(r1[h], r2[h], std::fabs(r)); });
}

ClosedForm kerplePowerClosedForm(const Params& params) {
  const double r1 = params.perHead(kR1, 1, alibiSlopes(1, 8))[0];
  const double r2 = params.perHead(kR2, 1, {})[0];
  return {[=](double r) { return kerplePower(r1, r2, std::fabs(r)); },
          [=](double r) {
            const double a = std::fabs(r), s = r > 0 ? 1.0 : (r < 0 ? -1.0 : 0.0);
            return a == 0 ? 0.0 : -r1 * r2 * std::pow(a, r2 - 1) * s;
          }};
}

}  // namespace

Scheme kerplePowerScheme() {
  return biasScheme("kerple-power", "KERPLE (power)", "Chi et al. 2022, arXiv:2205.09921",
                    "Kernelised bias -r1*|j-i|^r2 per head: sub-linear decay; r2 = 1 is ALiBi.", {kR1, kR2},
                    fillKerplePower, kerplePowerClosedForm);
}

}  // namespace relpos
