// What the rotary schemes (q and k rotated by position; docs/rotary.md) share: their common
// parameters, the plan a call applies, the public calls (frequencies, rotate, the cos/sin encoding,
// scores), the profile for pooled maps and the lab term. Each scheme adds only its frequencies.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "relpos/schemes/scheme.hpp"

namespace relpos {

// The parameters rotary schemes share, defined once.
struct RotaryParams {
  ParamInfo width;              // "d": the head width (the first rotaryDim dims of it rotate)
  ParamInfo halfLayout;         // "layout", default 'half'
  ParamInfo interleavedLayout;  // "layout", default 'interleaved'
  ParamInfo rotaryDim;
  ParamInfo positions;   // a call option of rotate, encoding, frequencies and scores, not a scheme parameter
  ParamInfo startIndex;  // where the rotated dims start in each head (default 0)
  ParamInfo invFreq;     // caller-given inverse frequencies (rope)
  ParamInfo seqLen;
  ParamInfo factor;        // context extension factor s, default 1
  ParamInfo factor8;       // the same, default 8
  ParamInfo original2048;  // L0 = originalMaxPositionEmbeddings, default 2048
  ParamInfo original4096;
  ParamInfo original8192;
};
const RotaryParams& rotaryParams();

// theta_k = base^(-2k/r), k = 0 .. r/2 - 1, in float64.
std::vector<double> ropeInvFreq(int64_t rotaryDim, double base);

// A plan of these frequencies alone (attention factor 1, 1-D, no decay); the caller sets the layout.
inline RotaryPlan planOf(std::vector<double> invFreq) {
  RotaryPlan plan;
  plan.invFreq = std::move(invFreq);
  return plan;
}

// The NTK exponent r / (r - 2) (RangeError for r < 4).
double ntkExponent(const RotaryContext& c);

// The sequence length a call covers when it does not give seqLen (as the calls compute it: the
// largest position + 1, n, the keys of attention; 0 for frequencies without positions).
int64_t callSeqLen(const Params& params, const std::string& call);

// The current sequence length: seqLen if given, else the length the call covers, else `original`.
int64_t currentSeqLen(const RotaryContext& c, int64_t original);

// The plan a rotary scheme applies for a head of dimension d (it rotates rotaryDim dims from
// startIndex on; rotaryDim defaults to d - startIndex, startIndex to 0); seqLen is
// the sequence length the call covers (schemes that scale with it use it when seqLen is not given).
// A `d` among the parameters must be that head width or the rotary width (rotaryDim).
RotaryPlan rotaryPlan(const Scheme& scheme, const Params& params, int64_t d, int64_t seqLen);

// A rotary scheme: the common parameters (d, base, layout, rotaryDim, startIndex) and `extra`, the
// calls frequencies / rotate / encoding (Hugging Face's cos / sin cache) / scores, the rotary term
// in attention, shift-invariant with the ones-probe profile for pooled maps.
Scheme rotaryScheme(const char* id, const char* family, const char* name, const char* cite, const char* description,
                    std::vector<ParamInfo> extra, RotaryFn rotary);

// Replaces the scheme's parameter of the same name (e.g. a layout or base with another default).
void replaceParam(Scheme& scheme, ParamInfo info);

// The lab hooks of a rotary scheme: queries and keys rotated by the scheme's plan with its defaults
// (and whatever the hooks' `adjust` sets per sequence length).
lab::Hooks rotaryLabHooks(const char* name);

}  // namespace relpos
