// sinusoidal — Vaswani et al. 2017, "Attention Is All You Need", arXiv:1706.03762 §3.5: fixed
// sin/cos vectors added to the inputs (or, in attention's implicit mode, to the keys). Layouts and
// the dot-product identity: docs/schemes/vectors.md.
#include <cmath>
#include <limits>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/numeric.hpp"
#include "relpos/schemes/grid.hpp"
#include "relpos/schemes/vector_family.hpp"

namespace relpos {

namespace {

// The layout moves components of each vector, which PE(i).PE(j) does not see.
const ParamInfo kLayout =
    actsIn(choiceParam("layout", "interleaved|concat",
                       "interleaved: [sin, cos] per pair (paper); concat: [sin... | cos...] (Transformer-XL, GPT-J)"),
           {"encoding", "attention"});

void positionVectors(const Params& params, int64_t first, int64_t count, int64_t d, float* out) {
  const double base = params.number(common::base());
  const bool concat = params.choice(kLayout) == "concat";
  if (concat && d % 2 != 0)
    throwRange(params.where() + ": d must be even for layout 'concat', got " + std::to_string(d));
  for (int64_t p = 0; p < count; ++p) sinusoid(static_cast<double>(first + p), d, base, concat, out + p * d);
}

// PE at real positions (the paper defines it for any position).
void vectorsAt(const Params& params, const std::vector<double>& positions, int64_t d, float* out) {
  const double base = params.number(common::base());
  const bool concat = params.choice(kLayout) == "concat";
  if (concat && d % 2 != 0)
    throwRange(params.where() + ": d must be even for layout 'concat', got " + std::to_string(d));
  for (size_t p = 0; p < positions.size(); ++p) sinusoid(positions[p], d, base, concat, out + p * d);
}

// rp.encoding: [n, d] at positions 0 .. n-1, or at the given positions [n].
Result encoding(const Scheme&, const Params& params) {
  const int64_t d = params.integer(common::d());
  std::vector<double> positions;
  if (const Value* given = params.array("positions")) {
    if (given->shape.size() != 1) throwRange(params.where() + ": positions must have shape [n]");
    positions.assign(given->array.begin(), given->array.end());
    if (params.has(common::n().name) && params.integer(common::n()) != static_cast<int64_t>(positions.size())) {
      throwRange(params.where() + ": n (" + std::to_string(params.integer(common::n())) +
                 ") differs from the length of positions (" + std::to_string(positions.size()) + ")");
    }
  } else {
    for (int64_t p = 0; p < params.integer(common::n()); ++p) positions.push_back(static_cast<double>(p));
  }
  const int64_t n = static_cast<int64_t>(positions.size());
  checkResultSize(params.where(), static_cast<double>(n) * d);
  Tensor t = Tensor::floats({n, d});
  vectorsAt(params, positions, d, t.f32.data());
  return single(std::move(t));
}

// S_ij = PE(p_i) . PE(p_j) at the call's query and key positions: one map for every head.
Result scores(const Scheme&, const Params& params) {
  const PositionGrid grid = readGrid(withTokenPositions(params));
  const int64_t d = params.integer(common::d());
  const bool causal = params.boolean(common::causal());
  const int64_t block = grid.nq * grid.nk;
  checkResultSize(params.where(), static_cast<double>(grid.batch) * block);
  Tensor s = Tensor::floats(grid.shape({1, grid.nq, grid.nk}));
  std::vector<double> qp(static_cast<size_t>(grid.nq)), kp(static_cast<size_t>(grid.nk));
  std::vector<float> pq(static_cast<size_t>(grid.nq * d)), pk(static_cast<size_t>(grid.nk * d));
  for (int64_t b = 0; b < grid.batch; ++b) {
    for (int64_t i = 0; i < grid.nq; ++i) qp[i] = grid.queryAt(b, i);
    for (int64_t j = 0; j < grid.nk; ++j) kp[j] = grid.keyAt(b, j);
    vectorsAt(params, qp, d, pq.data());
    vectorsAt(params, kp, d, pk.data());
    float* out = s.f32.data() + b * block;
    for (int64_t i = 0; i < grid.nq; ++i) {
      for (int64_t j = 0; j < grid.nk; ++j) {
        out[i * grid.nk + j] = static_cast<float>(dot(pq.data() + i * d, pk.data() + j * d, d));
      }
    }
    if (causal) maskCausal(grid, b, 1, -std::numeric_limits<float>::infinity(), out);
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
                      {onlyIn(common::n(), {"encoding", "scores"}), actsIn(common::d(), {"encoding", "scores"}),
                       common::base(), kLayout});
  s.encoding = encoding;
  s.reads = {{"encoding", {"positions"}}, {"scores", {"positions"}}};
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
