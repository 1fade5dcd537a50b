// The analyses of chapter 2.1 (rp.analysis): invariance, geometry, spectra, probability, decay and
// precision, with Eigen for the linear algebra.
#pragma once
#include <string>

#include "relpos/base/params.hpp"
#include "relpos/base/tensor.hpp"

namespace relpos {

// The single entry point of rp.analysis: `name` is the analysis (translationDefect, svd, eig,
// distances, project2d, entropy, distanceEntropy, kernelCheck, gpSample, gpPosterior, derivative, decayBound,
// precision, angleCoverage, scaledCosine, peBound; see analysis/internal.hpp and bindings/analysis.d.ts).
// Unknown names are a RangeError listing the known ones.
Result analyze(const std::string& name, const Params& params);

// How the analyses were compiled, as JSON: { eigen: "3.4.0", vectorized, instructionSets } —
// `instructionSets` is Eigen's own list of the vector paths in use ("SSE, SSE2, …, SSE4.2" in the
// wasm SIMD build, which reaches Eigen's SSE path through the SSE-to-wasm-SIMD headers; "None" in the
// baseline build). rp.analysis.build shows it.
std::string analysisBuildJson();

}  // namespace relpos
