// rope-linear — Position Interpolation, Chen, Wong, Chen and Tian 2023, "Extending Context Window of
// Large Language Models via Positional Interpolation", arXiv:2306.15595: theta / s, i.e. positions
// squeezed into the trained range. In the lab it interpolates by n / L past the training length L.
#include "relpos/schemes/rotary_family.hpp"

namespace relpos {

namespace {

RotaryPlan frequencies(const RotaryContext& c) {
  const double s = c.params.number(rotaryParams().factor);
  std::vector<double> invFreq = ropeInvFreq(c.rotaryDim, c.base);
  for (double& t : invFreq) t /= s;
  return planOf(std::move(invFreq));
}

// Evaluated past the training length L, a sequence of length n is squeezed by s = n / L.
void interpolateAtEvaluation(Params& params, int64_t trainLength, int64_t n, bool eval) {
  if (eval && n > trainLength) {
    params.setNumber(rotaryParams().factor.name, static_cast<double>(n) / static_cast<double>(trainLength));
  }
}

}  // namespace

Scheme ropeLinearScheme() {
  Scheme s =
      rotaryScheme("rope-linear", "rotary scaling", "Position Interpolation", "Chen et al. 2023, arXiv:2306.15595",
                   "theta/s: positions squeezed into the trained range.", {rotaryParams().factor}, frequencies);
  s.lab = rotaryLabHooks("RoPE + linear interpolation at evaluation");
  s.lab.adjust = interpolateAtEvaluation;
  return s;
}

}  // namespace relpos
