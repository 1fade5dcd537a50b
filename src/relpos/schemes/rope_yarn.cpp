// rope-yarn — Peng, Quesnelle, Fan and Shippole 2023, "YaRN: Efficient Context Window Extension of
// Large Language Models", arXiv:2309.00071: an NTK-by-parts ramp between theta and theta/s plus an
// attention temperature, as the released code and Hugging Face compute it (docs/rotary.md).
#include <algorithm>
#include <cmath>

#include "relpos/base/errors.hpp"
#include "relpos/base/numeric.hpp"
#include "relpos/schemes/rotary_family.hpp"

namespace relpos {

namespace {

const ParamInfo kBetaFast = numberParam("betaFast", 32, 0, 1e6, "YaRN: rotations above which pairs keep theta", true);
const ParamInfo kBetaSlow = numberParam("betaSlow", 1, 0, 1e6, "YaRN: rotations below which pairs get theta/s", true);
const ParamInfo kTruncate = booleanParam("truncate", true, "YaRN: floor/ceil the correction range (gpt-oss: false)");
const ParamInfo kAttentionFactor =
    numberParam("attentionFactor", std::nan(""), 0, 1e6, "magnitude factor on cos and sin; replaces the default", true);
const ParamInfo kMscale = numberParam(
    "mscale", std::nan(""), 0, 1e6,
    "DeepSeek mscale: attentionFactor = mscale(s, mscale) / mscale(s, mscaleAllDim); with mscaleAllDim, 0 = not set");
const ParamInfo kMscaleAllDim =
    numberParam("mscaleAllDim", std::nan(""), 0, 1e6,
                "DeepSeek mscale_all_dim (see mscale); 0 = not set, as Hugging Face reads it");

double mscale(double s, double m) {
  return s <= 1 ? 1.0 : 0.1 * m * std::log(s) + 1.0;
}

// The attention factor: a given attentionFactor; else mscale(s, mscale) / mscale(s, mscaleAllDim) when
// both are non-zero (0 counts as not set, as Hugging Face's `if mscale and mscale_all_dim`); else
// mscale(s, 1). Half of the pair, or the pair beside attentionFactor, would change nothing: errors.
double attentionFactor(const Params& p, double s) {
  const bool hasM = p.has(kMscale.name), hasAll = p.has(kMscaleAllDim.name);
  if (p.has(kAttentionFactor.name)) {
    if (hasM || hasAll) {
      throwRange(p.where() + ": attentionFactor replaces the factor that mscale and mscaleAllDim give; " +
                 "pass one or the other");
    }
    return p.number(kAttentionFactor);
  }
  if (hasM != hasAll) {
    const std::string given = hasM ? kMscale.name : kMscaleAllDim.name;
    const std::string other = hasM ? kMscaleAllDim.name : kMscale.name;
    throwRange(p.where() + ": " + given + " needs " + other +
               " (attentionFactor = mscale(s, mscale) / mscale(s, mscaleAllDim)); give both (0 = not set) or neither");
  }
  const double m = hasM ? p.number(kMscale) : 0, all = hasAll ? p.number(kMscaleAllDim) : 0;
  if (m != 0 && all != 0) return mscale(s, m) / mscale(s, all);
  return mscale(s, 1.0);
}

RotaryPlan frequencies(const RotaryContext& c) {
  const Params& p = c.params;
  const double s = p.number(rotaryParams().factor);
  const double original = static_cast<double>(p.integer(rotaryParams().original2048));
  const double fast = p.number(kBetaFast);
  const double slow = p.number(kBetaSlow);
  if (!(slow < fast))
    throwRange(p.where() + ": betaSlow must be < betaFast, got " + formatNumber(slow) + " >= " + formatNumber(fast));
  // The pair index whose wavelength fits `rotations` times into the original length.
  const double r = static_cast<double>(c.rotaryDim);
  auto correction = [&](double rotations) {
    return r * std::log(original / (2 * kPi * rotations)) / (2 * std::log(c.base));
  };
  double low = correction(fast);
  double high = correction(slow);
  if (p.boolean(kTruncate)) {
    low = std::floor(low);
    high = std::ceil(high);
  }
  low = std::max(low, 0.0);
  high = std::min(high, r - 1);
  if (low == high) high += 0.001;
  RotaryPlan plan;
  plan.invFreq = ropeInvFreq(c.rotaryDim, c.base);
  for (size_t k = 0; k < plan.invFreq.size(); ++k) {
    const double ramp = std::clamp((static_cast<double>(k) - low) / (high - low), 0.0, 1.0);
    plan.invFreq[k] = plan.invFreq[k] / s * ramp + plan.invFreq[k] * (1 - ramp);
  }
  plan.attentionFactor = attentionFactor(p, s);
  return plan;
}

}  // namespace

Scheme ropeYarnScheme() {
  return rotaryScheme("rope-yarn", "rotary scaling", "YaRN", "Peng et al. 2023, arXiv:2309.00071",
                      "NTK-by-parts ramp between theta and theta/s plus an attention temperature.",
                      {rotaryParams().factor, rotaryParams().original2048, kBetaFast, kBetaSlow, kTruncate,
                       kAttentionFactor, kMscale, kMscaleAllDim},
                      frequencies);
}

}  // namespace relpos
