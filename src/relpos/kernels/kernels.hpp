// The attention hot path, knowing nothing of positional schemes: a register-tiled QKᵀ whose
// epilogue applies the scale, additive terms (a bias and a mask, each a matrix, a broadcast row or
// a Toeplitz profile) and the key range in registers; the row softmax while the rows are in cache;
// W·V with the same micro-kernel; and an online-softmax variant that produces only the output in
// O(rows·(keyBlock + dv)) scratch. Built on simd.hpp, so the same source is the SIMD kernel in the
// -msimd128 build and the scalar one elsewhere, with identical results.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

struct RelposFusedCall;  // relpos/kernels/fused_call.h

namespace relpos::kernels {

constexpr int64_t kPanel = 8;    // keys per packed panel (two four-lane vectors)
constexpr int64_t kRowTile = 4;  // query rows per register tile

// Keys [m, d] (row stride ld) as panels of kPanel keys, dimension-major inside a panel, zero
// padded: out[(p * d + c) * kPanel + t] = k[p * kPanel + t][c]; packedSize(m, d) floats.
int64_t packedSize(int64_t m, int64_t d);
void packKeys(const float* k, int64_t m, int64_t d, int64_t ld, float* out);
std::vector<float> packKeys(const float* k, int64_t m, int64_t d, int64_t ld);

// Which keys query row i (at position p = i + queryOffset) sees: [begin(i), end(i, m)). Causal keeps
// keys up to the query's position; a window w keeps 0 <= p - j < w with causal, and |p - j| < w
// without; a chunk c (Llama-4's chunked layers, with causal) keeps keys j with floor(j / c) =
// floor(p / c). Every one of them is a range of keys, so no mask is built for any.
struct KeyRange {
  bool causal = false;
  int64_t queryOffset = 0;
  int64_t window = 0;  // 0: no window
  int64_t chunk = 0;   // 0: no chunk
  int64_t begin(int64_t row, int64_t m) const;
  int64_t end(int64_t row, int64_t m) const;
};

// An additive logit term: row i starts at data + (i - origin) * stride (origin: the row data
// points at, for a block of rows). A stride of 0 broadcasts one row; a stride of -1 over a table
// t[r + offset] makes the Toeplitz matrix t[j - i + offset] of a term that depends on j - i only,
// which is then never materialised as n x m.
struct Term {
  const float* data = nullptr;
  int64_t stride = 0;
  float weight = 1.0f;
  int64_t origin = 0;
  const float* row(int64_t i) const { return data + (i - origin) * stride; }
};

// logit(i, j) = cap(scale * q_i . k_j) + bias.weight * bias(i, j) + mask(i, j), -Infinity outside
// the key range, where cap(x) = softcap * tanh(x / softcap) (Gemma-2), or x without a soft-cap.
// Row indices are those of the whole head (they address the terms and the range). A sink (gpt-oss)
// is one more logit in every row's softmax denominator that has no value: it starts each row's
// running max and sum; -Infinity is no sink and leaves every bit as it was.
struct LogitSpec {
  float scale = 1.0f;
  float softcap = 0.0f;  // 0: none
  float sink = -std::numeric_limits<float>::infinity();
  // A row that sees no key (and no finite sink): all zeros, or, when set, weights 1/m on every key
  // of 0 .. m-1 (Hugging Face's eager attention, whose masked logits are all the same finite value).
  bool uniformEmpty = false;
  Term bias;  // optional (data null)
  Term mask;  // optional; its weight is ignored (1)
  KeyRange keys;
};

// Softmax weights of query rows first .. first + rows - 1: q points at row `first` (stride ldq),
// `panels` from packKeys, out at the first output row (stride ldo, every column 0 .. m-1 written).
// A row that sees no key, or only -Infinity logits, is all zeros (see LogitSpec::uniformEmpty).
void softmaxWeights(const float* q, int64_t ldq, int64_t first, int64_t rows, const float* panels, int64_t m, int64_t d,
                    const LogitSpec& spec, float* out, int64_t ldo);

// The logits themselves (no softmax), -Infinity outside the key range.
void logits(const float* q, int64_t ldq, int64_t first, int64_t rows, const float* panels, int64_t m, int64_t d,
            const LogitSpec& spec, float* out, int64_t ldo);

// out[i, :] += sum_j w[i, j] v[j, :] over the keys of row i's range; v is [m, dv] with stride ldv.
void weightedSum(const float* w, int64_t ldw, int64_t first, int64_t rows, int64_t m, const float* v, int64_t ldv,
                 int64_t dv, const KeyRange& keys, float* out, int64_t ldo);

// Softmax of precomputed logits in place (a scheme's own logits): the terms of `spec` are added
// (its scale is not applied) and keys outside the range get weight 0, as in softmaxWeights.
void softmaxLogits(float* w, int64_t ldw, int64_t first, int64_t rows, int64_t m, const LogitSpec& spec);

// The softmax's first half, for callers that reduce the weights instead of storing them (pooled
// maps): the logits in base 2 (log2(e) times those of `logits`, -Infinity outside the key range)
// and each row's largest in top[r] (-Infinity for a row that sees no key). Key j's weight in row r
// is then 2^(out[r, j] - top[r]) over the row's sum of them. The second form takes precomputed
// logits in place, as softmaxLogits does.
void baseTwoLogits(const float* q, int64_t ldq, int64_t first, int64_t rows, const float* panels, int64_t m, int64_t d,
                   const LogitSpec& spec, float* out, int64_t ldo, float* top);
void baseTwoLogits(float* w, int64_t ldw, int64_t first, int64_t rows, int64_t m, const LogitSpec& spec, float* top);

// Per tile t of one row x of base-2 logits (keys bounds[t] .. bounds[t + 1] - 1, none at or past
// `end`; tiles that start at or past `end` are not touched): sums[t] = the sum of 2^(x - top) and,
// when maxima is not null, maxima[t] = 2^(largest x - top) (the tile's largest weight times the
// row's sum). One pass, nothing stored; reads up to 3 floats past a tile's end, so x needs 3 floats
// of padding after its last key. Returns the number of tiles touched.
int64_t tileExp2(const float* x, const int64_t* bounds, int64_t tiles, int64_t end, float top, float* sums,
                 float* maxima);

// Sets the entries of keys j > i + queryOffset to -Infinity in heads x nq x nk logits or biases.
void applyCausalMask(float* values, int64_t heads, int64_t nq, int64_t nk, int64_t queryOffset);

// Scratch for attentionOutput, reusable across calls.
struct OnlineScratch {
  std::vector<float> logits;   // one block of logits, row by row
  std::vector<float> weights;  // the same block's weights, interleaved for the W·V tile
  std::vector<float> queries;  // the tile's query rows, interleaved
  std::vector<float> acc;      // the unnormalised outputs
};

// Only the attention output softmax(logits) V of query rows first .. first + rows - 1, computed
// over blocks of keys with a running max and sum per row (online softmax): no row of weights is
// ever held whole. out is written (not accumulated); a row that sees no key is zero.
void attentionOutput(const float* q, int64_t ldq, int64_t first, int64_t rows, const float* panels, int64_t m,
                     int64_t d, const float* v, int64_t ldv, int64_t dv, const LogitSpec& spec, OnlineScratch& scratch,
                     float* out, int64_t ldo);

// attentionOutput for one query row (`row`) of `heads` query heads that share keys and values (a
// KV group; decoding): q holds the heads' rows at stride ldq and out receives them at stride ldo;
// specs[h] is head h's spec (every head with the scale, soft-cap, key range and kinds of terms of
// specs[0]; its own bias and mask rows and sink). Each block of K and V is read once for every
// kRowTile heads, and each head's output is the bits attentionOutput gives for that head alone (a
// tile's rows never mix).
void groupOutput(const float* q, int64_t ldq, int64_t row, int64_t heads, const float* panels, int64_t m, int64_t d,
                 const float* v, int64_t ldv, int64_t dv, const LogitSpec* specs, OnlineScratch& scratch, float* out,
                 int64_t ldo);

// The relaxed build's fused kernels (src/relpos/kernels/relaxed/fused.cpp, docs/build.md) live in a
// side module the core cannot link against; the binding registers the function that reaches them.
// The entry runs whole 4-row tiles of one call and returns the rows it did (0: none, the kernels
// here do them). nullptr (the default) unregisters it.
using FusedRowsEntry = int (*)(const RelposFusedCall* call);
void setFusedRowsEntry(FusedRowsEntry entry);

}  // namespace relpos::kernels
