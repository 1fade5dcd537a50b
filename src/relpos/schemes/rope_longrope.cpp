// rope-longrope — Ding et al. 2024, "LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens",
// arXiv:2402.13753 (as Hugging Face _compute_longrope_parameters and Phi-3): searched per-pair
// rescale factors, short or long by the current sequence length, and sqrt(1 + ln s / ln L0).
#include <cmath>

#include "relpos/base/errors.hpp"
#include "relpos/schemes/rotary_family.hpp"

namespace relpos {

namespace {

const ParamInfo kShortFactor = synthetic(arrayParam(
    "shortFactor", "searched per-pair rescale for seqLen <= L0 (r/2 values; default ones: plain RoPE frequencies)"));
const ParamInfo kLongFactor = synthetic(arrayParam(
    "longFactor", "searched per-pair rescale for seqLen > L0 (r/2 values; default ones: plain RoPE frequencies)"));
const ParamInfo kAttentionFactor = numberParam(
    "attentionFactor", std::nan(""), 0, 1e6,
    "magnitude factor on cos and sin; replaces sqrt(1 + ln s / ln L0) (Hugging Face attention_factor)", true);

// Whether the long factors apply: the current sequence length exceeds L0.
bool usesLongFactors(const RotaryContext& c) {
  const int64_t original = c.params.integer(rotaryParams().original4096);
  return currentSeqLen(c, original) > original;
}

// The factors a call falls back to: the ones it uses (short or long), when not given.
std::vector<std::string> syntheticFactors(const Scheme&, const Params& params, const std::string& call) {
  const RotaryContext c{params, 0, 0, callSeqLen(params, call)};
  const ParamInfo& used = usesLongFactors(c) ? kLongFactor : kShortFactor;
  if (params.has(used.name)) return {};
  return {used.name};
}

RotaryPlan frequencies(const RotaryContext& c) {
  const Params& p = c.params;
  const double s = p.number(rotaryParams().factor);
  const int64_t original = p.integer(rotaryParams().original4096);
  const int64_t pairs = c.rotaryDim / 2;
  const bool useLong = usesLongFactors(c);
  const std::string which = useLong ? kLongFactor.name : kShortFactor.name;
  const Value* factors = p.array(which, pairs, "[d/2]");
  p.array(useLong ? kShortFactor.name : kLongFactor.name, pairs, "[d/2]");  // validate the other list too
  RotaryPlan plan;
  plan.invFreq = ropeInvFreq(c.rotaryDim, c.base);
  for (int64_t k = 0; k < pairs; ++k) {
    const double e = factors ? factors->at(static_cast<size_t>(k)) : 1.0;
    if (!(e > 0)) throwRange(p.where() + ": " + which + " must be > 0, got " + formatNumber(e));
    plan.invFreq[k] /= e;
  }
  plan.attentionFactor = p.has(kAttentionFactor.name) ? p.number(kAttentionFactor)
                         : s > 1 ? std::sqrt(1 + std::log(s) / std::log(static_cast<double>(original)))
                                 : 1.0;
  return plan;
}

}  // namespace

Scheme ropeLongropeScheme() {
  Scheme s = rotaryScheme("rope-longrope", "rotary scaling", "LongRoPE", "Ding et al. 2024, arXiv:2402.13753",
                          "Searched per-pair rescale factors (short/long) plus sqrt(1 + ln s / ln L0).",
                          {rotaryParams().factor, rotaryParams().original4096, rotaryParams().seqLen, kShortFactor,
                           kLongFactor, kAttentionFactor},
                          frequencies);
  s.syntheticDefaults = syntheticFactors;
  return s;
}

}  // namespace relpos
