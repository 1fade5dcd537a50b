// Rotary schemes (schemes.md §4) and their long-context scalings (§5).
#pragma once
#include <cstdint>
#include <vector>

#include "relpos/schemes/catalogue.hpp"

namespace relpos {

// theta_k = base^(-2k/r), k = 0 .. r/2 - 1, in float64.
std::vector<double> ropeInvFreq(int64_t rotaryDim, double base);

// Rotates the first plan.rotaryDim dims of one row of width d in place, at `position`.
// `queryRole` picks the sign of the xPos exponent (ignored without xPos).
void rotateRow(const RotaryPlan& plan, double position, bool queryRole, float* row);

// The plan a rotary scheme applies for a head of dimension d (rotaryDim defaults to d).
RotaryPlan rotaryPlan(const Scheme& scheme, const Params& params, int64_t d, int64_t seqLenDefault);

}  // namespace relpos
