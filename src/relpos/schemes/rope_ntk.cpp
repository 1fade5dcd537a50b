// rope-ntk — "NTK-aware" scaling (bloc97 2023, a post on r/LocalLLaMA; described in YaRN, Peng et al.
// 2023, arXiv:2309.00071 §3.1): base * s^(r/(r-2)), high frequencies kept, the lowest divided by s.
#include <cmath>

#include "relpos/schemes/rotary_family.hpp"

namespace relpos {

namespace {

RotaryPlan frequencies(const RotaryContext& c) {
  const double s = c.params.number(rotaryParams().factor);
  return planOf(ropeInvFreq(c.rotaryDim, c.base * std::pow(s, ntkExponent(c))));
}

}  // namespace

Scheme ropeNtkScheme() {
  return rotaryScheme(
      "rope-ntk", "rotary scaling", "NTK-aware", "bloc97 2023 (r/LocalLLaMA); Peng et al. 2023, arXiv:2309.00071 §3.1",
      "base * s^(r/(r-2)): high frequencies kept, lowest divided by s.", {rotaryParams().factor}, frequencies);
}

}  // namespace relpos
