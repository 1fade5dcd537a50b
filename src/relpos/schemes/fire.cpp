// fire — Li et al. 2023 (ICLR 2024), "Functional Interpolation for Relative Positions Improves Long
// Context Transformers", arXiv:2310.04418. Uses i - j; not shift-invariant past L (the denominator
// grows with the query position). Learned in the lab (the MLP per layer and head).
#include <algorithm>
#include <cmath>

#include "relpos/base/errors.hpp"
#include "relpos/schemes/bias_family.hpp"

namespace relpos {

namespace {

const ParamInfo kC = numberParam("c", 0.1, 0, 1e12, "log-transform sharpness: psi(x) = ln(1 + c*x) (> 0)", true);
const ParamInfo kL = numberParam("L", 512, 1, 1e12, "threshold: u = psi(i - j) / psi(max(L, i)) (>= 1)");
const ParamInfo kMlp =
    synthetic(arrayParam("mlp", "learned per-head MLP [heads, 3*hidden+1] as [w1, b1, w2, b2]; default f(u) = -8u"));
const ParamInfo kOutput =
    onlyIn(choiceParam("output", "bias|normalized", "bias f(u) [heads, n, n] or the normalised distance u"),
           {"bias", "scores"});

// One head's MLP f(u) = sum_k w2_k relu(w1_k u + b1_k) + b2, weights laid out [w1, b1, w2, b2].
template <typename Weight>
double mlp(const Weight* w, int64_t hidden, double u) {
  double f = w[3 * hidden];
  for (int64_t k = 0; k < hidden; ++k) f += w[2 * hidden + k] * std::max(0.0, w[k] * u + w[hidden + k]);
  return f;
}

// One MLP per head (a single row is shared by every head).
struct FireMlp {
  const float* weights = nullptr;  // nullptr: the untrained default f(u) = -8u
  int64_t rows = 0;
  int64_t hidden = 0;

  double operator()(int64_t head, double u) const {
    if (!weights) return -8.0 * u;
    return mlp(weights + (rows == 1 ? 0 : head) * (3 * hidden + 1), hidden, u);
  }
};

FireMlp fireMlp(const Params& params, int64_t heads) {
  FireMlp out;
  const Value* v = params.array(kMlp.name);
  if (!v) return out;
  const int64_t size = static_cast<int64_t>(v->array.size());
  out.rows = v->shape.size() == 2 ? v->shape[0] : 1;
  const int64_t columns = out.rows > 0 ? size / out.rows : 0;
  if (v->shape.size() > 2 || (out.rows != 1 && out.rows != heads) || columns * out.rows != size || columns < 4 ||
      (columns - 1) % 3 != 0) {
    throwRange(params.where() + ": mlp must have shape [heads, 3*hidden+1] (heads = " + std::to_string(heads) +
               ", or one row shared by all heads), got " + std::to_string(size) + " values");
  }
  out.hidden = (columns - 1) / 3;
  out.weights = v->array.data();
  return out;
}

// u[i, j] = psi(max(i - j, 0)) / psi(max(L, i)) with i the query position; calls sink(i, j, u).
template <typename Sink>
void forEachFireDistance(const Params& params, const BiasWindow& w, Sink sink) {
  const double c = params.number(kC);
  const double L = params.number(kL);
  auto psi = [c](double x) { return std::log1p(c * x); };
  for (int64_t i = 0; i < w.rows; ++i) {
    const double position = w.queryAt(i);
    const double denominator = psi(std::max(L, position));  // > 0 since L >= 1, c > 0
    for (int64_t j = 0; j < w.cols; ++j) sink(i, j, psi(std::max(position - w.keyAt(j), 0.0)) / denominator);
  }
}

void fillFire(const Params& params, const BiasWindow& w, float* out) {
  const int64_t heads = w.heads, nq = w.rows, nk = w.cols;
  const FireMlp f = fireMlp(params, heads);
  forEachFireDistance(params, w, [&](int64_t i, int64_t j, double u) {
    for (int64_t h = 0; h < heads; ++h) out[(h * nq + i) * nk + j] = static_cast<float>(f(h, u));
  });
}

void fillFireNormalized(const Params& params, const BiasWindow& w, float* out) {
  const int64_t heads = w.heads, nq = w.rows, nk = w.cols;
  forEachFireDistance(params, w, [&](int64_t i, int64_t j, double u) {
    for (int64_t h = 0; h < heads; ++h) out[(h * nq + i) * nk + j] = static_cast<float>(u);
  });
}

Result fireBias(const Scheme& scheme, const Params& params) {
  return gridBias(scheme, params, params.choice(kOutput) == "normalized" ? fillFireNormalized : fillFire);
}

// The default MLP stands in for learned weights, except in the normalised-distance view.
std::vector<std::string> fireSynthetic(const Scheme&, const Params& params, const std::string&) {
  if (params.has(kMlp.name) || params.choice(kOutput) == "normalized") return {};
  return {kMlp.name};
}

// ---- the lab: one MLP of `fireHidden` units per layer and head, c = fireC, L = the training length

const ParamInfo kLabHidden = integerParam("fireHidden", 16, 1, 128, "fire: hidden units of the per-head MLP");
const ParamInfo kLabC = numberParam("fireC", 0.1, 0, 1e6, "fire: psi(x) = ln(1 + c x)", true);

class FireTerm : public lab::Term {
 public:
  explicit FireTerm(const lab::TermSetup& setup)
      : heads_(setup.heads), hidden_(setup.options->integer(kLabHidden)), params_(setup.options->where()) {
    params_.setNumber(kC.name, setup.options->number(kLabC));
    params_.setNumber(kL.name, static_cast<double>(setup.trainLength));
  }
  std::vector<lab::WeightSlice> weights() const override {
    return {{"fire.mlp", static_cast<size_t>(heads_ * (3 * hidden_ + 1))}};
  }
  void initialise(double* w, Random& rng) const override {
    auto fill = [&](double* at, int64_t size, double sd) {
      for (int64_t t = 0; t < size; ++t) at[t] = sd * rng.normal();
    };
    for (int64_t h = 0; h < heads_; ++h) {
      double* at = w + h * (3 * hidden_ + 1);
      fill(at, hidden_, 1.0);                                                          // w1
      fill(at + hidden_, hidden_, 0.5);                                                // b1
      fill(at + 2 * hidden_, hidden_, 1.0 / std::sqrt(static_cast<double>(hidden_)));  // w2
    }
  }
  void prepare(int64_t n, bool) override {
    if (n == n_) return;
    n_ = n;
    u_.assign(static_cast<size_t>(n * n), 0.0);
    forEachFireDistance(params_, BiasWindow{1, n, n, 0, 0},
                        [&](int64_t i, int64_t j, double u) { u_[i * n + j] = static_cast<float>(u); });
  }
  bool addsBias() const override { return true; }
  void bias(const double* w, double* out) const override {
    for (int64_t h = 0; h < heads_; ++h) {
      const double* m = w + h * (3 * hidden_ + 1);
      double* B = out + h * n_ * n_;
      for (int64_t i = 0; i < n_; ++i)
        for (int64_t j = 0; j <= i; ++j) B[i * n_ + j] = mlp(m, hidden_, u_[i * n_ + j]);
    }
  }
  void biasBackward(const double* w, const double* dB, double* g) const override {
    for (int64_t h = 0; h < heads_; ++h) {
      const double* m = w + h * (3 * hidden_ + 1);
      double* gm = g + h * (3 * hidden_ + 1);
      const double* d = dB + h * n_ * n_;
      for (int64_t i = 0; i < n_; ++i) {
        for (int64_t j = 0; j <= i; ++j) {
          const double gij = d[i * n_ + j];
          if (gij == 0) continue;
          const double u = u_[i * n_ + j];
          gm[3 * hidden_] += gij;
          for (int64_t k = 0; k < hidden_; ++k) {
            const double z = m[k] * u + m[hidden_ + k];
            if (z <= 0) continue;
            gm[2 * hidden_ + k] += gij * z;
            const double dz = gij * m[2 * hidden_ + k];
            gm[k] += dz * u;
            gm[hidden_ + k] += dz;
          }
        }
      }
    }
  }

 private:
  int64_t heads_, hidden_;
  Params params_;
  int64_t n_ = -1;
  std::vector<double> u_;  // u[i, j] as the bias call gives it (float32 values)
};

}  // namespace

Scheme fireScheme() {
  Scheme s = biasScheme(
      "fire", "FIRE", "Li et al. 2023 (ICLR 2024), arXiv:2310.04418",
      "Learned MLP of a log-normalised distance psi(i-j)/psi(max(L,i)): progressive interpolation for long context.",
      {kC, kL, kMlp, kOutput}, fillFire);
  s.bias = s.scores = fireBias;
  s.syntheticDefaults = fireSynthetic;
  s.shiftInvariant = nullptr;
  s.lab = {"FIRE (learned MLP)", {"explicit", "mixed"}, {kLabHidden, kLabC}, lab::makeTerm<FireTerm>};
  return s;
}

}  // namespace relpos
