// relpos: the public interface of the core, the one header the JS binding includes.
//
// The core's parts include one way — base → kernels → schemes → ops → {analysis, lab, models} →
// this header (tests/node/layers.test.js enforces it; docs/architecture.md explains the layers):
//   base/     errors, tensors, parameters, JSON, random numbers, small numeric helpers, jobs
//   kernels/  SIMD attention kernels and rotary plans; know no schemes
//   schemes/  the Scheme interface, one file per scheme, the registry (one line per scheme)
//   ops/      the operation table (rp.encoding … rp.attention), attention, pooled attention maps
//   analysis/ rp.analysis;  lab/ rp.lab;  models/ presets and config.json reading
#pragma once
#include <memory>
#include <string>

#include "relpos/analysis/analysis.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/job.hpp"
#include "relpos/base/params.hpp"
#include "relpos/base/tensor.hpp"
#include "relpos/lab/lab.hpp"
#include "relpos/models/models.hpp"
#include "relpos/ops/operations.hpp"

namespace relpos {

// Starts a long computation: kind "attentionMap" (pooled long-context attention maps) or "train"
// (the extrapolation lab). Validates params up front and throws ArgumentError like every other call.
std::unique_ptr<Job> startJob(const std::string& kind, const Params& params);

}  // namespace relpos
