// relpos: the public interface of the second module — the analyses (rp.analysis, Eigen) and the
// extrapolation lab (rp.lab) — the header its JS binding includes (bindings/analysis_bindings.cpp).
// It builds on the core's header; the core's never includes this one (docs/architecture.md).
#pragma once
#include <memory>
#include <string>

#include "relpos/analysis/analysis.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/lab/lab.hpp"
#include "relpos/relpos.hpp"

namespace relpos {

// Starts a long computation of this module: kind "train" (the extrapolation lab). Validates params
// up front and throws ArgumentError like every other call.
inline std::unique_ptr<PeekableJob> startAnalysisJob(const std::string& kind, const Params& params) {
  if (kind == "train") return startTraining(params);
  throwRange("relpos: unknown job kind '" + kind + "'; the analysis module runs 'train'");
}

}  // namespace relpos
