// p-rope — Barbero, Vitvitskyi, Perivolaropoulos, Pascanu and Veličković 2024, "Round and Round We
// Go! What makes Rotary Positional Encodings useful?", arXiv:2410.06205: RoPE in which only the
// highest-frequency fraction p of the pairs rotates (theta_k = base^(-2k/r) for k < floor(p r/2),
// 0 for the rest): p = 1 is RoPE, p = 0 is NoPE (docs/rotary.md).
#include <cmath>

#include "relpos/schemes/rotary_family.hpp"

namespace relpos {

namespace {

const ParamInfo kP =
    numberParam("p", 0.75, 0, 1, "fraction of the pairs that rotate, the highest frequencies first (1: RoPE, 0: NoPE)");

RotaryPlan frequencies(const RotaryContext& c) {
  std::vector<double> invFreq = ropeInvFreq(c.rotaryDim, c.base);
  const double rotating = std::floor(c.params.number(kP) * static_cast<double>(c.rotaryDim) / 2);
  for (size_t k = static_cast<size_t>(rotating); k < invFreq.size(); ++k) invFreq[k] = 0;
  return planOf(std::move(invFreq));
}

}  // namespace

Scheme pRopeScheme() {
  Scheme s = rotaryScheme("p-rope", "rotary", "p-RoPE", "Barbero et al. 2024, arXiv:2410.06205",
                          "RoPE with only the highest-frequency fraction p of the pairs rotating; the rest carry "
                          "content undisturbed by position (p = 1: RoPE, p = 0: NoPE).",
                          {kP}, frequencies);
  s.lab = rotaryLabHooks("p-RoPE (p = 0.75)");
  return s;
}

}  // namespace relpos
