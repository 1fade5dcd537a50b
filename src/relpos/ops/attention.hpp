// Attention with a positional term in explicit, implicit or mixed mode (docs/attention.md).
#pragma once
#include "relpos/base/params.hpp"
#include "relpos/base/tensor.hpp"
#include "relpos/schemes/scheme.hpp"

namespace relpos {

// params: q [n, heads*dh], k [m, heads*dh], optional v [m, heads*dv], heads, mode, alpha, beta,
// causal, queryOffset (default m - n), optional B ([n, m] or [heads, n, m]) and P ([m, dh] or
// [n, m, dh]), plus the scheme's own parameters. Returns "weights" [heads, n, m] and, with v,
// "output" [n, heads*dv].
Result attention(const Params& params, const Scheme* scheme);

}  // namespace relpos
