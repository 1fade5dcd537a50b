// Attention with a positional term in explicit, implicit or mixed mode (schemes.md §7).
#pragma once
#include "relpos/schemes/catalogue.hpp"

namespace relpos {

// params: q [n, heads*dh], k [m, heads*dh], optional v [m, heads*dv], heads, mode, alpha, beta,
// causal, queryOffset (default m - n), optional B ([n, m] or [heads, n, m]) and P ([m, dh] or
// [n, m, dh]), plus the scheme's own parameters. Returns "weights" [heads, n, m] and, with v,
// "output" [n, heads*dv].
Result attention(const Params& params, const Scheme* scheme);

// Row softmax in place over `count` logits: subtracts the row max; -Infinity gets weight exactly 0;
// a row that is entirely -Infinity becomes all zeros.
void softmaxRow(float* row, int64_t count);

}  // namespace relpos
