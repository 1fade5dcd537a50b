// Shared pieces of rp.analysis: reading tensor arguments, size limits, the stationary profiles k(r)
// and the per-family analysis functions analyze() dispatches to.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "relpos/base/params.hpp"
#include "relpos/base/tensor.hpp"

namespace relpos::analysis {

// The largest square SVD / eigen problem accepted (a 2048×2048 double BDCSVD or eigensolve takes a
// few seconds in wasm; larger ones would freeze a page).
constexpr int64_t kMaxDecompositionSize = 2048;
// rows·cols·min(rows, cols) of the largest SVD accepted (~1290², a few seconds in wasm).
constexpr double kMaxSvdWork = 2147483648.0;
// The largest covariance gpSample factorises (Cholesky of 4096×4096 doubles: ~2e10 flops).
constexpr int64_t kMaxGpSize = 4096;
// Multiply-adds one call may spend in O(n²·d)-style loops (distances, precision, …): ~seconds in wasm.
constexpr double kMaxWork = 4e9;

// A float32 tensor argument with its shape (validated: rank, finite values).
struct TensorArg {
  Shape shape;
  const FloatArray* data = nullptr;
  int64_t dim(size_t axis) const { return shape[axis]; }
};

// Reads tensor `name` of rank in [minRank, maxRank]; TypeError "<where>: <name> must be a tensor of
// shape <shapeText>" when absent or of the wrong rank; RangeError on NaN / ±Infinity (or only NaN /
// +Infinity when allowMinusInfinity, for causally masked logits).
TensorArg tensorArg(const Params& params, const std::string& name, size_t minRank, size_t maxRank,
                    const std::string& shapeText, bool allowMinusInfinity = false);

// The 1-D tensor argument `name` as float64 values, or `fallback()` when it is absent.
template <class Fallback>
std::vector<double> valuesOr(const Params& params, const std::string& name, const std::string& shapeText,
                             Fallback fallback) {
  if (!params.has(name)) return fallback();
  const TensorArg v = tensorArg(params, name, 1, 1, shapeText);
  return std::vector<double>(v.data->begin(), v.data->end());
}

// first, first + 1, …, last.
std::vector<double> integerRange(int64_t first, int64_t last);

// RangeError naming the limit when `work` exceeds kMaxWork.
void checkWork(const Params& params, double work, const std::string& what);

// Rejects option names outside `own` (and, when given, the parameters of `schemeParams`).
void checkNames(const Params& params, const std::set<std::string>& own,
                const std::vector<ParamInfo>* schemeParams = nullptr);

// A copy of `params` without the names in `drop` (to hand the rest to a scheme), same `where`.
Params without(const Params& params, const std::set<std::string>& drop);

// The `tolerance` option of a symmetric / PSD test (psd, profile psd): `symmetric` is when the
// argument counts as symmetric, `psd` what PSD asks besides its smallest eigenvalue.
inline ParamInfo psdToleranceParam(const std::string& symmetric, const std::string& psd) {
  return numberParam(
      "tolerance", 1e-6, 0, 1,
      "symmetric when " + symmetric + "; PSD when " + psd + "the smallest eigenvalue >= -tolerance * max|eigenvalue|");
}

// Boolean results travel as 0/1 scalars; analysis.js turns them into booleans.
inline Tensor flag(bool value) {
  return Tensor::scalar(value ? 1.0 : 0.0);
}
Tensor vectorTensor(const std::vector<double>& values);

// ------------------------------------------------------------------------------------------------
// Stationary profiles k(r) (analysis_profiles.cpp).

// A named profile with its parameters resolved: a built-in kernel, a bias scheme (one head), or
// tabulated values. `value` and `slope` are the closed form k(r), k'(r) where there is one.
struct Profile {
  std::string name;  // exp-decay | gaussian | cosine | sinc | box | sin | sin-even | <bias id> | values
  int64_t n = 1;     // the table covers r = -(n-1) .. n-1
  std::function<double(double)> value;
  std::function<double(double)> slope;
  double bound = std::numeric_limits<double>::quiet_NaN();  // the closed form's sup |k(r)| (scheme.hpp)
  std::vector<double> table;                                // k(r) for r = -(n-1) .. n-1
};

// Names every profile-taking analysis accepts besides its own.
const std::set<std::string>& profileOptionNames();
// Resolves the `profile` option (a name) or `values`; `n` sizes the table (needTable) or checks the
// length of `values` (2n - 1). `own` are the calling analysis's option names.
Profile readProfile(const Params& params, int64_t n, const std::set<std::string>& own, bool needTable);
// k(r) for integer r with |r| < n (tabulated profiles) or any real r (named profiles).
double profileValue(const Profile& profile, double r);
// The analytic f'(r); throws RangeError for profiles without one. At kinks (r = 0 of |r| forms) the
// mean of the one-sided derivatives.
double profileDerivative(const Profile& profile, double r, const std::string& where);
// Whether profileDerivative has an analytic form for this profile.
bool hasDerivative(const Profile& profile);

// ------------------------------------------------------------------------------------------------
// Analyses, each reading validated Params and returning named tensors.

Result translationDefect(const Params& params);
Result svd(const Params& params);
Result eig(const Params& params);
Result distances(const Params& params);
Result project2d(const Params& params);
Result entropy(const Params& params);
Result distanceEntropy(const Params& params);
Result kernelCheck(const Params& params);
Result gpSample(const Params& params);
Result gpPosterior(const Params& params);
Result derivative(const Params& params);
Result decayBound(const Params& params);
Result precision(const Params& params);
Result angleCoverage(const Params& params);
Result scaledCosine(const Params& params);
Result peBound(const Params& params);

// Round-to-nearest-even of a double to the float formats the precision analysis emulates.
double roundToFloat32(double x);
double roundToFloat16(double x);
double roundToBfloat16(double x);

}  // namespace relpos::analysis
