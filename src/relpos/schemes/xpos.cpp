// xpos — Sun et al. 2022, "A Length-Extrapolatable Transformer", arXiv:2212.10554: interleaved RoPE
// times a per-pair exponential decay zeta_k^((i-j)/B) (queries scaled up, keys down).
#include "relpos/schemes/rotary_family.hpp"

namespace relpos {

namespace {

// The decay scales q and k, not the frequencies (nor Hugging Face's cos/sin cache).
const std::vector<std::string> kDecays = {"rotate", "scores", "attention"};
const ParamInfo kScaleBase = actsIn(numberParam("scaleBase", 512, 0, 1e9, "xPos decay length B", true), kDecays);
const ParamInfo kGamma =
    actsIn(numberParam("gamma", 0.4, 0, 1e6, "xPos zeta_k = (2k/d + gamma)/(1 + gamma)", true), kDecays);
// Which side rp.rotate scales, and the centre, which cancels in every q.k: rp.rotate alone.
const ParamInfo kRole =
    actsIn(choiceParam("role", "query|key", "rp.rotate: rows are queries (scaled by zeta^(p/B)) or keys (zeta^(-p/B))"),
           {"rotate"});
const ParamInfo kCenter = actsIn(
    numberParam("center", 0, -1e12, 1e12, "rp.rotate: centre c of the scale exponent (cancels in q.k)"), {"rotate"});

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
