// kerple-log — Chi, Fan, Ramadge and Rudnicky 2022, "KERPLE: Kernelized Relative Positional
// Embedding for Length Extrapolation", arXiv:2205.09921 (its logarithmic variant). Learned in the
// lab (r1 and r2 per layer and head, clamped to >= 0.01 as the authors' code does).
#include <algorithm>
#include <cmath>

#include "relpos/schemes/bias_family.hpp"

namespace relpos {

namespace {

const ParamInfo kR1 = perHeadParam("r1", 1, 0, 1e6, "per-head scale (> 0)", true);
const ParamInfo kR2 = synthetic(perHeadParam(
    "r2", std::nan(""), 0, 1e6, "learned per-head rate inside the log (> 0); default: the ALiBi slopes", true));

// B = -r1 ln(1 + r2 a) at distance a = |j - i|.
double kerpleLog(double r1, double r2, double a) {
  return -r1 * std::log1p(r2 * a);
}

void fillKerpleLog(const Params& params, const BiasWindow& w, float* out) {
  const int64_t heads = w.heads;
  const std::vector<double> r1 = params.perHead(kR1, heads, {});
  const std::vector<double> r2 = params.perHead(kR2, heads, alibiSlopes(heads, 8));
  fillByDistance(w, out, [&](int64_t h, double r) { return kerpleLog(r1[h], r2[h], std::fabs(r)); });
}

ClosedForm kerpleLogClosedForm(const Params& params) {
  const double r1 = params.perHead(kR1, 1, {})[0];
  const double r2 = params.perHead(kR2, 1, alibiSlopes(1, 8))[0];
  return {[=](double r) { return kerpleLog(r1, r2, std::fabs(r)); },
          [=](double r) {
            const double s = r > 0 ? 1.0 : (r < 0 ? -1.0 : 0.0);
            return -r1 * r2 * s / (1 + r2 * std::fabs(r));
          }};
}

constexpr double kClampMin = 0.01;  // the KERPLE code clamps r1, r2 to >= 0.01

class KerpleLogTerm : public lab::Term {
 public:
  explicit KerpleLogTerm(const lab::TermSetup& setup) : heads_(setup.heads) {}
  std::vector<lab::WeightSlice> weights() const override {
    return {{"kerple.r1", static_cast<size_t>(heads_)}, {"kerple.r2", static_cast<size_t>(heads_)}};
  }
  // The catalogue's untrained default: r1 = 1, r2 = ALiBi slopes (kept above the clamp).
  void initialise(double* w, Random&) const override {
    const std::vector<double> slopes = alibiSlopes(heads_, 8);
    for (int64_t h = 0; h < heads_; ++h) {
      w[h] = 1.0;
      w[heads_ + h] = std::max(slopes[h], 0.05);
    }
  }
  void prepare(int64_t n, bool) override { n_ = n; }
  bool addsBias() const override { return true; }
  void bias(const double* w, double* out) const override {
    for (int64_t h = 0; h < heads_; ++h) {
      const double r1 = std::max(w[h], kClampMin), r2 = std::max(w[heads_ + h], kClampMin);
      double* B = out + h * n_ * n_;
      for (int64_t i = 0; i < n_; ++i)
        for (int64_t j = 0; j <= i; ++j) B[i * n_ + j] = kerpleLog(r1, r2, static_cast<double>(i - j));
    }
  }
  void biasBackward(const double* w, const double* dB, double* g) const override {
    for (int64_t h = 0; h < heads_; ++h) {
      const double r1raw = w[h], r2raw = w[heads_ + h];
      const double r1 = std::max(r1raw, kClampMin), r2 = std::max(r2raw, kClampMin);
      const double* d = dB + h * n_ * n_;
      double g1 = 0, g2 = 0;
      for (int64_t i = 0; i < n_; ++i) {
        for (int64_t j = 0; j <= i; ++j) {
          const double a = static_cast<double>(i - j);
          g1 -= d[i * n_ + j] * std::log1p(r2 * a);
          g2 -= d[i * n_ + j] * r1 * a / (1.0 + r2 * a);
        }
      }
      if (r1raw > kClampMin) g[h] += g1;
      if (r2raw > kClampMin) g[heads_ + h] += g2;
    }
  }

 private:
  int64_t heads_;
  int64_t n_ = 0;
};

}  // namespace

Scheme kerpleLogScheme() {
  Scheme s = biasScheme("kerple-log", "KERPLE (log)", "Chi et al. 2022, arXiv:2205.09921",
                        "Kernelised bias -r1*ln(1 + r2|j-i|) per head: logarithmic decay, learned.", {kR1, kR2},
                        fillKerpleLog, kerpleLogClosedForm);
  s.lab = {"KERPLE log (learned r1, r2)", {"explicit", "mixed"}, {}, lab::makeTerm<KerpleLogTerm>};
  return s;
}

}  // namespace relpos
