// Relative-bias schemes (schemes.md §3): B[h, i, j] added to the attention logits.
#pragma once
#include <cstdint>
#include <vector>

#include "relpos/schemes/catalogue.hpp"

namespace relpos {

// ALiBi slopes, MPT's general rule: p = 2^ceil(log2 H), m_t = 2^(-t*maxBias/p); reordered as
// [m_2, m_4, ..., m_1, m_3, ...] and truncated when H is not a power of two.
std::vector<double> alibiSlopes(int64_t heads, double alibiBiasMax);

// rp.bias for any scheme with a BiasFillFn: reads n, heads, causal; fills [heads, n, n] and sets
// -Infinity on keys after the query when causal.
Result squareBias(const Params& params, BiasFillFn fill);

// Sets B[h, i, j] = -Infinity where key j > i + queryOffset.
void applyCausalMask(float* bias, int64_t heads, int64_t nq, int64_t nk, int64_t queryOffset);

}  // namespace relpos
