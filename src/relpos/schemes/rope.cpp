// rope — Su et al. 2021, "RoFormer: Enhanced Transformer with Rotary Position Embedding",
// arXiv:2104.09864 §3.4: query/key pairs rotated by position * base^(-2k/r) (docs/rotary.md).
#include "relpos/schemes/rotary_family.hpp"

namespace relpos {

namespace {

RotaryPlan frequencies(const RotaryContext& c) {
  return planOf(ropeInvFreq(c.rotaryDim, c.base));
}

}  // namespace

Scheme ropeScheme() {
  Scheme s = rotaryScheme("rope", "rotary", "RoPE", "Su et al. 2021 (RoFormer), arXiv:2104.09864 §3.4",
                          "Rotates query/key pairs by position; q.k depends only on j-i.", {}, frequencies);
  s.lab = rotaryLabHooks("RoPE");
  return s;
}

}  // namespace relpos
