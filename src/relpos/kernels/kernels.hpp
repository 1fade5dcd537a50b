// The attention hot path: packed QK^T with scale, bias and causal mask fused into the store,
// stable softmax and W.V (rotary application from a cached table is in rotary.hpp). Built on
// simd.hpp, so the same source is the SIMD kernel in the -msimd128 build and the scalar one elsewhere.
// The kernels know no schemes.
#pragma once
#include <cstdint>
#include <vector>

namespace relpos::kernels {

constexpr int64_t kPanel = 8;  // keys per packed panel (two four-lane vectors)

// Keys [m, d] (row stride ld) as panels of kPanel keys, dimension-major inside a panel, zero
// padded: panels[(p * d + c) * kPanel + t] = k[p * kPanel + t][c].
std::vector<float> packKeys(const float* k, int64_t m, int64_t d, int64_t ld);

// Which keys each query row may see: keys j <= row + queryOffset when causal, all otherwise.
struct Mask {
  bool causal = false;
  int64_t queryOffset = 0;
  int64_t visible(int64_t row, int64_t m) const;
};

// out[i, j] = scale * q_i . k_j + biasWeight * bias[i, j] (bias may be null; may alias out), and
// -Infinity on masked keys. q is [rows, d] with row stride ldq.
// `panels` from packKeys; to start at key j0 (a multiple of kPanel) pass panels + j0 * d.
void logits(const float* q, int64_t rows, int64_t ldq, const float* panels, int64_t m, int64_t d, float scale,
            const float* bias, int64_t ldb, float biasWeight, const Mask& mask, float* out, int64_t ldo);

// Sets the entries of keys j > i + queryOffset to -Infinity in heads x nq x nk logits or biases.
void applyCausalMask(float* values, int64_t heads, int64_t nq, int64_t nk, int64_t queryOffset);

// Row-wise softmax in place: subtracts the row max; masked keys get exactly 0; a row with every key
// masked becomes all zeros.
void softmaxRows(float* w, int64_t rows, int64_t m, int64_t ld, const Mask& mask);

// out[i, :] += sum_j w[i, j] v[j, :] over the visible keys; v is [m, dv] with row stride ldv.
void weightedSum(const float* w, int64_t rows, int64_t m, int64_t ldw, const float* v, int64_t dv, int64_t ldv,
                 const Mask& mask, float* out, int64_t ldo);

}  // namespace relpos::kernels
