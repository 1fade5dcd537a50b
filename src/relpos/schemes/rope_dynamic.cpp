// rope-dynamic — dynamic NTK scaling (emozilla and bloc97 2023; Hugging Face
// _compute_dynamic_ntk_parameters): the NTK base grown with the current sequence length past L0.
#include <algorithm>
#include <cmath>

#include "relpos/schemes/rotary_family.hpp"

namespace relpos {

namespace {

RotaryPlan frequencies(const RotaryContext& c) {
  const double s = c.params.number(rotaryParams().factor);
  const int64_t original = c.params.integer(rotaryParams().original2048);
  const double len = static_cast<double>(std::max(currentSeqLen(c, original), original));
  return planOf(ropeInvFreq(c.rotaryDim, c.base * std::pow(s * len / original - (s - 1), ntkExponent(c))));
}

}  // namespace

Scheme ropeDynamicScheme() {
  return rotaryScheme("rope-dynamic", "rotary scaling", "Dynamic NTK",
                      "emozilla / bloc97 2023; Hugging Face _compute_dynamic_ntk_parameters",
                      "NTK base grown with the current sequence length past L0.",
                      {rotaryParams().factor, rotaryParams().original2048, rotaryParams().seqLen}, frequencies);
}

}  // namespace relpos
