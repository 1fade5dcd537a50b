#include "relpos/schemes/bias_family.hpp"

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/schemes/grid.hpp"

namespace relpos {

int64_t viewHeads(const Scheme& scheme, const Params& params) {
  const int64_t heads = params.integer(common::heads());
  return scheme.perHead ? heads : 1;
}

Result gridBias(const Scheme& scheme, const Params& params, BiasFillFn fill, float masked) {
  const PositionGrid grid = readGrid(withTokenPositions(params));
  const int64_t heads = viewHeads(scheme, params);
  const bool causal = params.boolean(common::causal());
  const int64_t block = heads * grid.nq * grid.nk;
  checkResultSize(params.where(), static_cast<double>(grid.batch) * block);
  Tensor b = Tensor::floats(grid.shape({heads, grid.nq, grid.nk}));
  for (int64_t row = 0; row < grid.batch; ++row) {
    float* out = b.f32.data() + row * block;
    fill(params, grid.window(heads, row), out);
    if (causal) maskCausal(grid, row, heads, masked, out);
  }
  return single(std::move(b));
}

Result biasCall(const Scheme& scheme, const Params& params) {
  return gridBias(scheme, params, scheme.fillBias);
}

std::vector<double> biasLogitProfile(const Scheme& scheme, const Params& params, const ProfileRequest& request) {
  const int64_t n = request.n, count = 2 * n - 1;
  std::vector<float> row(static_cast<size_t>(request.heads * count));
  scheme.fillBias(params, BiasWindow{request.heads, 1, count, n - 1, 0}, row.data());
  return std::vector<double>(row.begin() + request.head * count, row.begin() + (request.head + 1) * count);
}

Scheme biasScheme(const char* id, const char* name, const char* cite, const char* description,
                  std::vector<ParamInfo> params, BiasFillFn fill, ClosedFormFn closedForm) {
  params.insert(params.begin(), {onlyIn(common::n(), {"bias", "scores", "buckets"}),
                                 onlyIn(common::heads(), {"bias", "scores", "attention"}), common::causal()});
  Scheme s = describedScheme(id, "relative bias", name, cite, description, std::move(params));
  s.bias = s.scores = biasCall;  // S = B
  s.reads = {{"scores", {"positions"}}};
  s.perHead = true;  // per-head parameters (a scheme without says so)
  s.term = AttentionTerm::Bias;
  s.fillBias = fill;  // for any window of query and key positions
  // A function of j - i unless the scheme says otherwise; its fill is then the profile of long maps.
  s.shiftInvariant = alwaysShiftInvariant;
  s.logitProfile = biasLogitProfile;
  s.closedForm = closedForm;
  return s;
}

namespace {

class FixedBiasTerm : public lab::Term {
 public:
  FixedBiasTerm(const Scheme& scheme, const lab::TermSetup& setup, Params params)
      : scheme_(scheme), heads_(setup.heads), params_(std::move(params)) {}

  void prepare(int64_t n, bool) override {
    if (n == n_) return;
    n_ = n;
    std::vector<float> out(static_cast<size_t>(heads_ * n * n));
    scheme_.fillBias(params_, BiasWindow{heads_, n, n, 0, 0}, out.data());
    bias_.assign(out.begin(), out.end());
  }
  bool addsBias() const override { return true; }
  void bias(const double*, double* out) const override { std::copy(bias_.begin(), bias_.end(), out); }

 private:
  const Scheme& scheme_;
  int64_t heads_;
  Params params_;
  int64_t n_ = -1;
  std::vector<double> bias_;
};

}  // namespace

std::unique_ptr<lab::Term> fixedBiasTerm(const Scheme& scheme, const lab::TermSetup& setup, Params params) {
  return std::make_unique<FixedBiasTerm>(scheme, setup, std::move(params));
}

}  // namespace relpos
