// What the relative-bias schemes (B[h, i, j] added to the logits, docs/schemes/bias.md) share: the
// square rp.bias call, filling by distance, ALiBi's slopes (other schemes' defaults), the generic
// profile for pooled maps and a fixed-bias lab term.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "relpos/schemes/scheme.hpp"

namespace relpos {

// ALiBi slopes, MPT's general rule: p = 2^ceil(log2 H), m_t = 2^(-t*maxBias/p); reordered as
// [m_2, m_4, ..., m_1, m_3, ...] and truncated when H is not a power of two (defined in alibi.cpp).
std::vector<double> alibiSlopes(int64_t heads, double alibiBiasMax);

// The heads a bias or score view returns: `heads` for a scheme with per-head parameters, else one
// (its map is the same for every head; the call's result then says sameForEveryHead).
int64_t viewHeads(const Scheme& scheme, const Params& params);

// rp.bias / rp.scores of a fill on the call's query and key positions (schemes/grid.hpp):
// [heads, n, m], or [batch, heads, n, m] with per-sequence positions, and `masked` where the key
// sits after the query when `causal`.
Result gridBias(const Scheme& scheme, const Params& params, BiasFillFn fill,
                float masked = -std::numeric_limits<float>::infinity());

// rp.bias / rp.scores of a bias scheme: gridBias with the scheme's fillBias (S = B).
Result biasCall(const Scheme& scheme, const Params& params);

// Fills valueAt(h, r) with r = key position - query position (a double): tabulated once per head
// and distance and copied along the diagonals for a window of consecutive positions, evaluated per
// entry for explicit positions. Every bias that depends on r alone fills this way.
template <typename ValueAt>
void fillByDistance(const BiasWindow& w, float* out, ValueAt valueAt) {
  const int64_t heads = w.heads, nq = w.rows, nk = w.cols;
  if (!w.regular()) {
    for (int64_t h = 0; h < heads; ++h) {
      for (int64_t i = 0; i < nq; ++i) {
        float* row = out + (h * nq + i) * nk;
        for (int64_t j = 0; j < nk; ++j) row[j] = static_cast<float>(valueAt(h, w.keyAt(j) - w.queryAt(i)));
      }
    }
    return;
  }
  const int64_t rMin = w.keyStart - (nq - 1 + w.queryStart);
  std::vector<float> profile(static_cast<size_t>(nq + nk - 1));
  for (int64_t h = 0; h < heads; ++h) {
    for (size_t t = 0; t < profile.size(); ++t) {
      profile[t] = static_cast<float>(valueAt(h, static_cast<double>(rMin + static_cast<int64_t>(t))));
    }
    // r - rMin = j - i + nq - 1 for row i, column j: each row is one slice of the profile.
    for (int64_t i = 0; i < nq; ++i) std::copy_n(profile.data() + (nq - 1 - i), nk, out + (h * nq + i) * nk);
  }
}

// f(r) of one head from the scheme's fill: one query at position n-1 against keys 0 .. 2n-2.
std::vector<double> biasLogitProfile(const Scheme& scheme, const Params& params, const ProfileRequest& request);

// A relative-bias scheme: rp.bias and rp.scores from `fill`, the bias term in attention,
// shift-invariant with its fill as the profile (a scheme that is not overrides shiftInvariant).
Scheme biasScheme(const char* id, const char* name, const char* cite, const char* description,
                  std::vector<ParamInfo> params, BiasFillFn fill, ClosedFormFn closedForm = nullptr);

// The lab term of a bias without learned weights: the scheme's fill with `params` (defaults when
// empty) for every sequence length.
std::unique_ptr<lab::Term> fixedBiasTerm(const Scheme& scheme, const lab::TermSetup& setup, Params params);

}  // namespace relpos
