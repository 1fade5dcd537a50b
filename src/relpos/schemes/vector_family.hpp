// What the vector schemes (sinusoidal, shaw, transformer-xl, deberta, cope; docs/schemes/vectors.md)
// share: the sinusoid their untrained default tables use, and the argument helpers of their score
// calls (probe vectors, given q / k matrices, per-head copies).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "relpos/base/tensor.hpp"
#include "relpos/schemes/scheme.hpp"

namespace relpos {

// The base of every untrained default table (Shaw aK, DeBERTa Qr/Kr, CoPE E): the paper's sinusoid.
constexpr double kDefaultTableBase = 10000;

// Writes the d-dimensional sinusoid of a (possibly negative) position. interleaved:
// [sin w0 p, cos w0 p, sin w1 p, ...]; concat: [sin w0 p, ..., cos w0 p, ...] (even d),
// with w_i = base^(-2i/d). Angles in float64.
void sinusoid(double position, int64_t d, double base, bool concat, float* out);

// Rows table[t] = sinusoid(t - shift) (interleaved, kDefaultTableBase) for t < rows.
std::vector<float> sinusoidTable(int64_t rows, int64_t shift, int64_t d);

// "[names] = [rows, cols]" for shape messages.
std::string shapeText(const std::string& names, int64_t rows, int64_t cols);

// A [rows, cols] matrix parameter, or nullptr when absent.
const float* matrixParam(const Params& params, const std::string& name, const std::string& names, int64_t rows,
                         int64_t cols);

// A vector parameter [d], or nullptr when absent.
const float* vectorParam(const Params& params, const std::string& name, int64_t d);

// A probe vector [d] of a position-only score call, defaulting to `fallback` in every entry.
std::vector<float> probeVector(const Params& params, const std::string& name, int64_t d, float fallback);

// A size parameter (n or d) of a score call: the given value, else the extent `axis` of the 2-D
// matrix parameter `matrix` (e.g. q [n, d]); throws "<info.name> is required" when neither exists.
int64_t sizeFromParamOrMatrix(const Params& params, const ParamInfo& info, const std::string& matrix, int axis);

// Probe-score results are the same for every head: copies head 0 to the others.
void repeatOverHeads(Tensor& t, int64_t heads, int64_t n);

// The q and k of the score calls of shaw and transformer-xl.
const ParamInfo& queryParam();
const ParamInfo& keyParam();

}  // namespace relpos
