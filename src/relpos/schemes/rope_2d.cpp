// rope-2d — axial rotary for image patches (Heo, Park, Han and Yun 2024, "Rotary Position Embedding
// for Vision Transformer", arXiv:2403.13298, RoPE-Axial; as naver-ai/rope-vit compute_axial_cis):
// token t sits on a grid of `width` columns at x = t mod width, y = floor(t / width) (or at given
// (x, y) positions); the first r/4 pairs turn by x theta_k, the next r/4 by y theta_k, with
// theta_k = base^(-4k/r). Scores depend on (dx, dy), not on t' - t alone (docs/rotary.md).
#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/schemes/rotary_family.hpp"

namespace relpos {

namespace {

// Where tokens sit, which the inverse frequencies do not see.
const ParamInfo kWidth = actsIn(
    integerParam("width", 8, 1, 1 << 20, "grid columns: token t sits at column t mod width, row floor(t / width)"),
    {"encoding", "rotate", "scores", "attention"});

RotaryPlan frequencies(const RotaryContext& c) {
  if (c.rotaryDim % 4 != 0) {
    throwRange(c.params.where() + ": rope-2d needs a rotary dimension divisible by 4 (half the pairs per axis), got " +
               std::to_string(c.rotaryDim));
  }
  const std::vector<double> perAxis = ropeInvFreq(c.rotaryDim / 2, c.base);  // base^(-4k/r), k < r/4
  RotaryPlan plan;
  plan.gridWidth = c.params.integer(kWidth);
  for (uint8_t axis : {0, 1}) {
    plan.invFreq.insert(plan.invFreq.end(), perAxis.begin(), perAxis.end());
    plan.axis.insert(plan.axis.end(), perAxis.size(), axis);
  }
  return plan;
}

}  // namespace

Scheme rope2dScheme() {
  Scheme s = rotaryScheme("rope-2d", "rotary", "2-D axial RoPE", "Heo et al. 2024 (RoPE-ViT), arXiv:2403.13298",
                          "Image patches on a grid: half of the pairs rotate with the column, half with the row; "
                          "scores depend on (dx, dy).",
                          {kWidth}, frequencies);
  replaceParam(s, withDefault(common::base(), 100));
  replaceParam(s, rotaryParams().interleavedLayout);
  s.shiftInvariant = nullptr;  // a function of (dx, dy), which t' - t alone does not fix
  s.logitProfile = nullptr;
  s.lab = rotaryLabHooks("2-D axial RoPE (grid width 8)");
  return s;
}

}  // namespace relpos
