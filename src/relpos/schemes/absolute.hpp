// Absolute position vectors (schemes.md §1) and the sinusoid other schemes reuse as untrained
// default tables (Shaw aK, DeBERTa Qr/Kr, CoPE E, Transformer-XL R).
#pragma once
#include <cstdint>

#include "relpos/schemes/catalogue.hpp"

namespace relpos {

// Writes the d-dimensional sinusoid of a (possibly negative) position. interleaved:
// [sin w0 p, cos w0 p, sin w1 p, ...]; concat: [sin w0 p, ..., cos w0 p, ...] (even d),
// with w_i = base^(-2i/d). Angles in float64.
void sinusoid(double position, int64_t d, double base, bool concat, float* out);

}  // namespace relpos
