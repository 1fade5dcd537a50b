// The scheme catalogue: metadata for every scheme (what rp.schemes shows) and the functions that
// compute it, found by id. Each family file (absolute.cpp, relative_vector.cpp, bias.cpp,
// rotary.cpp, contextual.cpp) contributes its schemes through one *Schemes() function.
#pragma once
#include <string>
#include <vector>

#include "relpos/base/params.hpp"
#include "relpos/base/tensor.hpp"

namespace relpos {

// A public call on a scheme: reads validated Params, returns named tensors.
using OpFn = Result (*)(const Params&);

// A rectangular window of the bias: `rows` queries at positions queryStart .. queryStart+rows-1 and
// `cols` keys at keyStart .. keyStart+cols-1, for `heads` heads. rp.bias uses the square window
// at 0; attention with a KV cache starts its queries at queryOffset; pooled long-context maps
// walk the n x n matrix window by window.
struct BiasWindow {
  int64_t heads = 1;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t queryStart = 0;
  int64_t keyStart = 0;
};

// Fills B[h, i, j] (heads x rows x cols, row-major) for the window, without any causal mask (the
// caller applies it). Used by rp.bias, attention and attentionMap.
using BiasFillFn = void (*)(const Params&, const BiasWindow&, float* out);

// What a rotary scheme applies at a given position: pair k of the first rotaryDim dims is rotated
// by position * invFreq[k]; both rotated coordinates are multiplied by attentionFactor and, for
// xPos, by scale[k]^(±(p − center)/scaleBase) (query +, key −).
struct RotaryPlan {
  std::vector<double> invFreq;  // rotaryDim / 2 entries, float64
  double attentionFactor = 1.0;
  int64_t rotaryDim = 0;
  bool interleaved = false;
  std::vector<double> xposZeta;  // empty unless xPos
  double xposScaleBase = 512.0;
  double xposCenter = 0.0;
};
// d = head dim; seqLen = the sequence length the call covers (dynamic / longrope use it when the
// caller did not give seqLen).
using RotaryPlanFn = RotaryPlan (*)(const Params&, int64_t d, int64_t seqLenDefault);

// How a scheme enters rp.attention (schemes.md §7).
enum class AttentionTerm {
  None,
  Bias,       // B[h, i, j] added to the logits (fillBias)
  Rotary,     // q and k rotated by position (rotary)
  KeyVector,  // P[j] added to the keys (implicit mode), from the scheme's encoding
  PairTable,  // P[i, j] = table[idx(i, j)] added to the keys (and values), e.g. Shaw (pairTable)
  Logits,     // the scheme replaces QK^T/sqrt(d) with its own logits (logits)
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

struct Scheme {
  std::string id;
  std::string family;  // absolute vector | relative vector | relative bias | rotary | rotary scaling | contextual
  std::string name;
  std::string cite;
  std::string description;
  std::vector<ParamInfo> params;

  OpFn encoding = nullptr;
  OpFn bias = nullptr;
  OpFn buckets = nullptr;
  OpFn frequencies = nullptr;
  OpFn rotate = nullptr;
  OpFn scores = nullptr;

  AttentionTerm term = AttentionTerm::None;
  BiasFillFn fillBias = nullptr;    // term == Bias
  RotaryPlanFn rotary = nullptr;    // term == Rotary
  PairTableFn pairTable = nullptr;  // term == PairTable
  LogitsFn logits = nullptr;        // term == Logits
  // term == KeyVector uses `encoding` with n = number of keys and d = head dim.
};

std::vector<Scheme> absoluteSchemes();
std::vector<Scheme> relativeVectorSchemes();
std::vector<Scheme> biasSchemes();
std::vector<Scheme> rotarySchemes();
std::vector<Scheme> contextualSchemes();

// Every scheme, in catalogue order. Built once, immutable.
const std::vector<Scheme>& catalogue();
// Throws RangeError listing the known ids when `id` is unknown.
const Scheme& findScheme(const std::string& where, const std::string& id);

// The single entry point of the public edge: op is one of encoding, bias, buckets, frequencies,
// rotate, scores, attention. Checks that the scheme supports the op and that every parameter name
// is known, then computes. `id` may be empty for attention with a given B / P.
Result compute(const std::string& op, const std::string& id, const Params& params);

// rp.schemes as JSON text (the binding hands it to JS as is).
std::string catalogueJson();

}  // namespace relpos
