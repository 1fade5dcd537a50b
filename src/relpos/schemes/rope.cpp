// rope — Su et al. 2021, "RoFormer: Enhanced Transformer with Rotary Position Embedding",
// arXiv:2104.09864 §3.4: query/key pairs rotated by position * base^(-2k/r) (docs/rotary.md).
#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/schemes/rotary_family.hpp"

namespace relpos {

namespace {

// base^(-2k/r), or the caller's own inverse frequencies (e.g. rotary-embedding-torch's "pixel"
// schedule linspace(1, max_freq/2, r/2) * pi).
RotaryPlan frequencies(const RotaryContext& c) {
  const Params& p = c.params;
  const std::string name = rotaryParams().invFreq.name;
  if (!p.has(name)) return planOf(ropeInvFreq(c.rotaryDim, c.base));
  if (p.has(common::base().name)) {
    throwRange(p.where() + ": give base or invFreq, not both (invFreq replaces base^(-2k/r))");
  }
  const Value* given = p.array(name, c.rotaryDim / 2, "[rotaryDim/2] = [" + std::to_string(c.rotaryDim / 2) + "]");
  std::vector<double> values(given->array.size());
  for (size_t k = 0; k < values.size(); ++k) values[k] = given->at(k);  // float64 when given so
  return planOf(std::move(values));
}

}  // namespace

Scheme ropeScheme() {
  Scheme s = rotaryScheme("rope", "rotary", "RoPE", "Su et al. 2021 (RoFormer), arXiv:2104.09864 §3.4",
                          "Rotates query/key pairs by position; q.k depends only on j-i.", {rotaryParams().invFreq},
                          frequencies);
  s.lab = rotaryLabHooks("RoPE");
  return s;
}

}  // namespace relpos
