#include "relpos/schemes/absolute.hpp"

#include <cmath>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"

namespace relpos {

void sinusoid(double position, int64_t d, double base, bool concat, float* out) {
  if (concat) {
    const int64_t half = d / 2;
    for (int64_t i = 0; i < half; ++i) {
      const double angle = position * std::pow(base, -2.0 * static_cast<double>(i) / d);
      out[i] = static_cast<float>(std::sin(angle));
      out[half + i] = static_cast<float>(std::cos(angle));
    }
    return;
  }
  for (int64_t slot = 0; slot < d; ++slot) {
    const int64_t i = slot / 2;
    const double angle = position * std::pow(base, -2.0 * static_cast<double>(i) / d);
    out[slot] = static_cast<float>(slot % 2 == 0 ? std::sin(angle) : std::cos(angle));
  }
}

namespace {

const ParamInfo& sinusoidalLayout() {
  static const ParamInfo p =
      choiceParam("layout", "interleaved|concat",
                  "interleaved: [sin, cos] per pair (paper); concat: [sin... | cos...] (Transformer-XL, GPT-J)");
  return p;
}

Tensor sinusoidalTable(const Params& params, int64_t n, int64_t d) {
  const double base = params.number(common::base());
  const bool concat = params.choice(sinusoidalLayout()) == "concat";
  if (concat && d % 2 != 0)
    throwRange(params.where() + ": d must be even for layout 'concat', got " + std::to_string(d));
  checkResultSize(params.where(), static_cast<double>(n) * d);
  Tensor t = Tensor::floats({n, d});
  for (int64_t p = 0; p < n; ++p) sinusoid(static_cast<double>(p), d, base, concat, t.f32.data() + p * d);
  return t;
}

Result sinusoidalEncoding(const Params& params) {
  const int64_t n = params.integer(common::n());
  const int64_t d = params.integer(common::d());
  return {{"data", sinusoidalTable(params, n, d)}};
}

// S_ij = PE(i) . PE(j), the same for every head.
Result sinusoidalScores(const Params& params) {
  const int64_t n = params.integer(common::n());
  const int64_t d = params.integer(common::d());
  const int64_t heads = params.integer(common::heads());
  checkResultSize(params.where(), static_cast<double>(heads) * n * n);
  const Tensor pe = sinusoidalTable(params, n, d);
  Tensor s = Tensor::floats({heads, n, n});
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double dot = 0;
      for (int64_t c = 0; c < d; ++c) dot += static_cast<double>(pe.f32[i * d + c]) * pe.f32[j * d + c];
      for (int64_t h = 0; h < heads; ++h) s.f32[(h * n + i) * n + j] = static_cast<float>(dot);
    }
  }
  return single(std::move(s));
}

}  // namespace

std::vector<Scheme> absoluteSchemes() {
  Scheme s;
  s.id = "sinusoidal";
  s.family = "absolute vector";
  s.name = "Sinusoidal";
  s.cite = "Vaswani et al. 2017, arXiv:1706.03762 §3.5";
  s.description = "Fixed sin/cos position vectors added to the inputs; the raw dot product depends only on j-i.";
  s.params = {common::n(), common::d(), common::base(), sinusoidalLayout()};
  s.encoding = sinusoidalEncoding;
  s.scores = sinusoidalScores;
  s.term = AttentionTerm::KeyVector;
  return {s};
}

}  // namespace relpos
