// rope-llama3 — the Llama 3.1 frequency scaling (Meta AI 2024, "The Llama 3 Herd of Models",
// arXiv:2407.21783; as Hugging Face _compute_llama3_parameters): wavelength bands, short kept, long
// divided by s, smooth in between.
#include <cmath>

#include "relpos/base/errors.hpp"
#include "relpos/base/numeric.hpp"
#include "relpos/schemes/rotary_family.hpp"

namespace relpos {

namespace {

const ParamInfo kLowFreqFactor =
    numberParam("lowFreqFactor", 1, 0, 1e6, "Llama 3: wavelengths above L0/low get theta/s", true);
const ParamInfo kHighFreqFactor =
    numberParam("highFreqFactor", 4, 0, 1e6, "Llama 3: wavelengths below L0/high keep theta", true);

RotaryPlan frequencies(const RotaryContext& c) {
  const Params& p = c.params;
  const double s = p.number(rotaryParams().factor8);
  const double low = p.number(kLowFreqFactor);
  const double high = p.number(kHighFreqFactor);
  // Equal factors (Llama-4-Scout) leave no smoothing band: a hard step at the wavelength L0/low.
  if (!(high >= low)) {
    throwRange(p.where() + ": highFreqFactor must be >= lowFreqFactor (" + formatNumber(low) + "), got " +
               formatNumber(high));
  }
  const double original = static_cast<double>(p.integer(rotaryParams().original8192));
  const double lowWavelen = original / low;
  const double highWavelen = original / high;
  RotaryPlan plan;
  plan.invFreq = ropeInvFreq(c.rotaryDim, c.base);
  for (double& theta : plan.invFreq) {
    const double wavelen = 2 * kPi / theta;
    if (wavelen < highWavelen) continue;
    if (wavelen > lowWavelen) {
      theta /= s;
    } else if (high > low) {
      const double smooth = (original / wavelen - low) / (high - low);
      theta = (1 - smooth) * theta / s + smooth * theta;
    }
  }
  return plan;
}

}  // namespace

Scheme ropeLlama3Scheme() {
  return rotaryScheme("rope-llama3", "rotary scaling", "Llama 3.1 scaling",
                      "Meta AI 2024, arXiv:2407.21783; Hugging Face _compute_llama3_parameters",
                      "Wavelength bands: short kept, long divided by s, smooth in between.",
                      {rotaryParams().factor8, kLowFreqFactor, kHighFreqFactor, rotaryParams().original8192},
                      frequencies);
}

}  // namespace relpos
