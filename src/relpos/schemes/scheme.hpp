// A positional scheme as one unit: its metadata and parameters (what rp.schemes shows), the public
// calls it offers, how it enters attention, its capabilities (shift invariance, a closed-form
// profile, its profile for long maps) and its lab hooks. Each scheme fills one Scheme in its own
// file (schemes/<id>.cpp) and is registered by one line in registry.cpp; everything above this
// layer dispatches through these fields, never on the id. Conventions: docs/conventions.md.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "relpos/base/params.hpp"
#include "relpos/base/tensor.hpp"
#include "relpos/kernels/rotary.hpp"
#include "relpos/schemes/lab_term.hpp"

namespace relpos {

struct Scheme;

// A public call on a scheme (rp.encoding, rp.bias, …): reads validated Params, returns named tensors.
using OpFn = Result (*)(const Scheme&, const Params&);

// A rectangular window of the bias: `rows` queries at positions queryStart .. queryStart+rows-1 and
// `cols` keys at keyStart .. keyStart+cols-1, for `heads` heads. rp.bias uses the square window
// at 0; attention with a KV cache starts its queries at queryOffset; pooled long-context maps
// walk the n x n matrix window by window.
// With explicit positions (rp.bias with queryPositions / keyPositions) `queryPositions` and
// `keyPositions` hold rows and cols values that replace queryStart + i and keyStart + j.
struct BiasWindow {
  int64_t heads = 1;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t queryStart = 0;
  int64_t keyStart = 0;
  const double* queryPositions = nullptr;
  const double* keyPositions = nullptr;

  bool regular() const { return !queryPositions && !keyPositions; }
  double queryAt(int64_t i) const { return queryPositions ? queryPositions[i] : static_cast<double>(queryStart + i); }
  double keyAt(int64_t j) const { return keyPositions ? keyPositions[j] : static_cast<double>(keyStart + j); }
};

// Fills B[h, i, j] (heads x rows x cols, row-major) for the window, without any causal mask (the
// caller applies it).
using BiasFillFn = void (*)(const Params&, const BiasWindow&, float* out);

// What a rotary scheme's frequency function gets: the validated rotary dimension, the base and the
// sequence length the call covers (<= 0: none; schemes that need one take their own default).
struct RotaryContext {
  const Params& params;
  int64_t rotaryDim;
  double base;
  int64_t seqLen;
};
// The scheme's inverse frequencies, attention factor and per-pair extras (xPos decay, grid axes);
// the caller sets the layout.
using RotaryFn = RotaryPlan (*)(const RotaryContext&);

// How a scheme enters rp.attention (docs/attention.md).
enum class AttentionTerm {
  Unsupported,  // not in rp.attention
  None,         // no positional term: content only
  Bias,         // B[h, i, j] added to the logits (fillBias)
  Rotary,       // q and k rotated by position (rotary)
  KeyVector,    // P[j] added to the keys (implicit mode), from the scheme's encoding
  PairTable,    // P[i, j] = table[idx(i, j)] added to the keys (and values), e.g. Shaw (pairTable)
  Logits,       // the scheme replaces QK^T/sqrt(d) with its own logits (logits)
};

// A relative table and its index map for queries at i + queryOffset: keyTable / valueTable are
// [T, dh] (valueTable may be empty), index is [nq, nk] into them.
struct PairTable {
  std::vector<float> keyTable;
  std::vector<float> valueTable;
  std::vector<int32_t> index;
};
using PairTableFn = PairTable (*)(const Params&, int64_t nq, int64_t nk, int64_t queryOffset, int64_t dh);

// Full per-head logits [nq, nk] (already scaled) from one head's q [nq, dh] and k [nk, dh].
using LogitsFn = void (*)(const Params&, const float* q, const float* k, int64_t nq, int64_t nk, int64_t dh,
                          int64_t queryOffset, float* out);

// Absolute position vectors [count, d] of positions first .. first+count-1 (term KeyVector).
using PositionVectorsFn = void (*)(const Params&, int64_t first, int64_t count, int64_t d, float* out);

// Whether the position-only logits depend on j - i alone for these parameters and head dim d.
using ShiftInvariantFn = bool (*)(const Params&, int64_t d);

// The position-only logit profile f(r) of one head, r = -(n-1) .. n-1 (index r + n - 1), as the
// pooled maps use it (1/sqrt(d) included where the scheme scales its logits).
struct ProfileRequest {
  int64_t n = 1;
  int64_t d = 1;
  int64_t heads = 1;
  int64_t head = 0;
};
using LogitProfileFn = std::vector<double> (*)(const Scheme&, const Params&, const ProfileRequest&);

// The learned inputs a call of this scheme fills with their synthetic defaults (ParamInfo::synthetic)
// for these parameters, in the order rp.schemes lists them.
using SyntheticFn = std::vector<std::string> (*)(const Scheme&, const Params&, const std::string& call);

// A bias profile k(r) of one head in closed form, for any real r, with its derivative (rp.analysis
// profiles). `value` is empty when the parameters have no closed form (e.g. ALiBi's keyPosition).
struct ClosedForm {
  std::function<double(double)> value;
  std::function<double(double)> slope;
  // sup |value(r)| over every real r where the form bounds it although no finite window shows it
  // (Sandwich's slowest cosine); NaN: the form states no bound.
  double bound = std::numeric_limits<double>::quiet_NaN();
};
using ClosedFormFn = ClosedForm (*)(const Params&);

struct Scheme {
  std::string id;
  std::string
      family;  // absolute vector | relative vector | relative bias | rotary | rotary scaling | contextual | none
  std::string name;
  std::string cite;
  std::string description;
  std::vector<ParamInfo> params;

  // The scheme-specific options each call of it reads besides its parameters (the operation table
  // marks them perScheme: d, q, k, offsets, output, positions); others refuse them.
  std::map<std::string, std::vector<std::string>> reads;

  // The public calls it offers (nullptr: not offered); ops/operations.cpp names them.
  OpFn encoding = nullptr;
  OpFn bias = nullptr;
  OpFn buckets = nullptr;
  OpFn frequencies = nullptr;
  OpFn rotate = nullptr;
  OpFn scores = nullptr;

  // Attention.
  AttentionTerm term = AttentionTerm::Unsupported;
  BiasFillFn fillBias = nullptr;                // term Bias, also any scheme with a bias (pooled maps, analysis)
  RotaryFn rotary = nullptr;                    // term Rotary
  PairTableFn pairTable = nullptr;              // term PairTable
  LogitsFn logits = nullptr;                    // term Logits
  PositionVectorsFn positionVectors = nullptr;  // term KeyVector

  // Capabilities.
  // Whether its bias / scores differ between heads (per-head parameters); when not, those views
  // return one head for any `heads`, marked sameForEveryHead.
  bool perHead = false;
  // The models that use it scale no logits by 1/sqrt(d) (T5: its scale is 1): rp.attention without
  // a `scale` notes that it used 1/sqrt(d).
  bool unscaledLogits = false;
  // Which synthetic defaults a call uses; nullptr: every absent synthetic parameter that acts on it.
  SyntheticFn syntheticDefaults = nullptr;
  ShiftInvariantFn shiftInvariant = nullptr;  // nullptr: not shift-invariant
  LogitProfileFn logitProfile = nullptr;      // for shift-invariant schemes: f(r) for pooled maps
  ClosedFormFn closedForm = nullptr;          // analytic k(r) and k'(r)

  // The extrapolation lab (lab.make == nullptr: not in the lab).
  lab::Hooks lab;

  // The scheme's own parameter `name`, or nullptr.
  const ParamInfo* param(const std::string& name) const;
  bool hasParam(const std::string& name) const { return param(name) != nullptr; }
};

// A scheme with its description and parameters, and no calls yet.
// The descriptions are the catalogue's literals, taken as they are (no std::string built at each call site).
Scheme describedScheme(const char* id, const char* family, const char* name, const char* cite, const char* description,
                       std::vector<ParamInfo> params);

// For Scheme::shiftInvariant: a scheme whose position-only logits always depend on j - i alone.
inline bool alwaysShiftInvariant(const Params&, int64_t) {
  return true;
}

}  // namespace relpos
