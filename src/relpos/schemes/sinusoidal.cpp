// sinusoidal — Vaswani et al. 2017, "Attention Is All You Need", arXiv:1706.03762 §3.5: fixed
// sin/cos vectors added to the inputs (or, in attention's implicit mode, to the keys). Layouts and
// the dot-product identity: docs/schemes/vectors.md.
#include <cmath>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/numeric.hpp"
#include "relpos/schemes/vector_family.hpp"

namespace relpos {

namespace {

const ParamInfo kLayout =
    choiceParam("layout", "interleaved|concat",
                "interleaved: [sin, cos] per pair (paper); concat: [sin... | cos...] (Transformer-XL, GPT-J)");

void positionVectors(const Params& params, int64_t first, int64_t count, int64_t d, float* out) {
  const double base = params.number(common::base());
  const bool concat = params.choice(kLayout) == "concat";
  if (concat && d % 2 != 0)
    throwRange(params.where() + ": d must be even for layout 'concat', got " + std::to_string(d));
  for (int64_t p = 0; p < count; ++p) sinusoid(static_cast<double>(first + p), d, base, concat, out + p * d);
}

Tensor table(const Params& params, int64_t n, int64_t d) {
  checkResultSize(params.where(), static_cast<double>(n) * d);
  Tensor t = Tensor::floats({n, d});
  positionVectors(params, 0, n, d, t.f32.data());
  return t;
}

Result encoding(const Scheme&, const Params& params) {
  return single(table(params, params.integer(common::n()), params.integer(common::d())));
}

// S_ij = PE(i) . PE(j), the same for every head.
Result scores(const Scheme&, const Params& params) {
  const int64_t n = params.integer(common::n());
  const int64_t d = params.integer(common::d());
  const int64_t heads = params.integer(common::heads());
  checkResultSize(params.where(), static_cast<double>(heads) * n * n);
  const Tensor pe = table(params, n, d);
  Tensor s = Tensor::floats({heads, n, n});
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const float value = static_cast<float>(dot(pe.f32.data() + i * d, pe.f32.data() + j * d, d));
      for (int64_t h = 0; h < heads; ++h) s.f32[(h * n + i) * n + j] = value;
    }
  }
  return single(std::move(s));
}

// PE(i).PE(j) = sum_m cos(w_m (j - i)) for even d: a function of j - i alone.
bool evenWidth(const Params&, int64_t d) {
  return d % 2 == 0;
}

// f(r) = sum_m cos(w_m r) / sqrt(d), the implicit-mode logit of position-only queries and keys.
std::vector<double> profile(const Scheme&, const Params& params, const ProfileRequest& request) {
  const int64_t n = request.n, d = request.d;
  const double base = params.number(common::base());
  std::vector<double> f(static_cast<size_t>(2 * n - 1));
  for (int64_t t = 0; t < 2 * n - 1; ++t) {
    const double r = static_cast<double>(t - (n - 1));
    double sum = 0;
    for (int64_t m = 0; m < d / 2; ++m) sum += std::cos(r * std::pow(base, -2.0 * m / d));
    f[t] = sum / std::sqrt(static_cast<double>(d));
  }
  return f;
}

// The lab: the table added to the keys (implicit, mixed) or to the token embeddings (input).
class SinusoidalTerm : public lab::Term {
 public:
  explicit SinusoidalTerm(const lab::TermSetup& setup) : params_(setup.options->where()) {}
  void prepare(int64_t n, bool) override { n_ = n; }
  std::vector<double> vectors(int64_t width) const override {
    std::vector<float> out(static_cast<size_t>(n_ * width));
    positionVectors(params_, 0, n_, width, out.data());
    return {out.begin(), out.end()};
  }

 private:
  Params params_;
  int64_t n_ = 0;
};

}  // namespace

Scheme sinusoidalScheme() {
  Scheme s =
      describedScheme("sinusoidal", "absolute vector", "Sinusoidal", "Vaswani et al. 2017, arXiv:1706.03762 §3.5",
                      "Fixed sin/cos position vectors added to the inputs; the raw dot product depends only on j-i.",
                      {common::n(), common::d(), common::base(), kLayout});
  s.encoding = encoding;
  s.scores = scores;  // PE(i).PE(j)
  // In attention (implicit mode) the vectors are added to the keys.
  s.term = AttentionTerm::KeyVector;
  s.positionVectors = positionVectors;
  s.shiftInvariant = evenWidth;  // PE(i).PE(j) = sum_m cos(w_m (j - i)) for even d
  s.logitProfile = profile;
  s.lab = {"Sinusoidal", {"implicit", "mixed", "input"}, {}, lab::makeTerm<SinusoidalTerm>};
  return s;
}

}  // namespace relpos
