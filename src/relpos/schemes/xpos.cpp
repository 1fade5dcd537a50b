// xpos — Sun et al. 2022, "A Length-Extrapolatable Transformer", arXiv:2212.10554: interleaved RoPE
// times a per-pair exponential decay zeta_k^((i-j)/B) (queries scaled up, keys down).
#include "relpos/schemes/rotary_family.hpp"

namespace relpos {

namespace {

const ParamInfo kScaleBase = numberParam("scaleBase", 512, 0, 1e9, "xPos decay length B", true);
const ParamInfo kGamma = numberParam("gamma", 0.4, 0, 1e6, "xPos zeta_k = (2k/d + gamma)/(1 + gamma)", true);
const ParamInfo kRole = choiceParam("role", "query|key", "xPos: queries scale by zeta^(p/B), keys by zeta^(-p/B)");
const ParamInfo kCenter = numberParam("center", 0, -1e12, 1e12, "xPos centre c of the scale exponent");

RotaryPlan frequencies(const RotaryContext& c) {
  RotaryPlan plan;
  plan.invFreq = ropeInvFreq(c.rotaryDim, c.base);
  const double gamma = c.params.number(kGamma);
  for (int64_t k = 0; k < c.rotaryDim / 2; ++k) plan.xposZeta.push_back((2.0 * k / c.rotaryDim + gamma) / (1 + gamma));
  plan.xposScaleBase = c.params.number(kScaleBase);
  plan.xposCenter = c.params.number(kCenter);
  plan.keyRole = c.params.choice(kRole) == "key";
  return plan;
}

}  // namespace

Scheme xposScheme() {
  Scheme s = rotaryScheme("xpos", "rotary", "xPos", "Sun et al. 2022, arXiv:2212.10554",
                          "RoPE times a per-pair exponential decay zeta_k^((i-j)/B).",
                          {kScaleBase, kGamma, kRole, kCenter}, frequencies);
  replaceParam(s, rotaryParams().interleavedLayout);
  s.lab = rotaryLabHooks("xPos");
  return s;
}

}  // namespace relpos
