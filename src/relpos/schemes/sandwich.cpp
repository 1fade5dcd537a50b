// sandwich — Chi, Fan, Rudnicky and Ramadge 2023, "Dissecting Transformer Length Extrapolation via
// the Lens of Receptive Field Analysis", arXiv:2212.10356; the form NVIDIA NeMo implements
// (docs/schemes/bias.md).
#include <cmath>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/schemes/bias_family.hpp"

namespace relpos {

namespace {

const ParamInfo kDBar =
    integerParam("dBar", 64, 2, 1 << 16, "sinusoid dimension (even; NeMo passes the per-head hidden size)");

// 1 / base^(2m/dBar), m = 1..dBar/2: the index starts at 1.
std::vector<double> sandwichFrequencies(const Params& params) {
  const int64_t dBar = params.integer(kDBar);
  if (dBar % 2 != 0) throwRange(params.where() + ": dBar must be even, got " + std::to_string(dBar));
  const double base = params.number(common::base());
  std::vector<double> freq;
  for (int64_t m = 1; m <= dBar / 2; ++m) freq.push_back(std::pow(base, -2.0 * static_cast<double>(m) / dBar));
  return freq;
}

// B[h] at distance r: (sum_m cos(r w_m) - dBar/2) / (8 (h + 1) / heads).
double sandwich(const std::vector<double>& freq, double r, int64_t h, int64_t heads) {
  double sum = 0;
  for (double w : freq) sum += std::cos(r * w);
  return (sum - static_cast<double>(freq.size())) / (8.0 * (h + 1) / heads);
}

void fillSandwich(const Params& params, const BiasWindow& w, float* out) {
  const std::vector<double> freq = sandwichFrequencies(params);
  fillByDistance(w, out, [&](int64_t h, double r) { return sandwich(freq, r, h, w.heads); });
}

// One head: the divisor is 8. Each of the dBar/2 cosines lies in [-1, 1], so b(r) lies in
// [-dBar/8, 0] at every r: the bound.
ClosedForm sandwichClosedForm(const Params& params) {
  const std::vector<double> freq = sandwichFrequencies(params);
  return {[freq](double r) { return sandwich(freq, r, 0, 1); },
          [freq](double r) {
            double sum = 0;
            for (double w : freq) sum -= w * std::sin(r * w);
            return sum / 8.0;
          },
          static_cast<double>(freq.size()) / 4.0};
}

}  // namespace

Scheme sandwichScheme() {
  return biasScheme(
      "sandwich", "Sandwich", "Chi et al. 2023, arXiv:2212.10356",
      "Parameter-free bias: the sinusoidal dot product PE(i).PE(j) minus its maximum, scaled per head like ALiBi.",
      {kDBar, common::base()}, fillSandwich, sandwichClosedForm);
}

}  // namespace relpos
