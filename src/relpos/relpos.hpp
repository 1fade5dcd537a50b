// relpos: the public interface of the core module, the header its JS binding includes
// (bindings/core_bindings.cpp). The analyses and the lab are a second module with its own header,
// analysis_lab.hpp, and presets and config reading a third, models.hpp; both include this one, and
// this one never includes analysis/, lab/ or models/, so the module a page loads first holds
// neither Eigen, the lab nor the config.json reader.
//
// The core's parts include one way — base → kernels → schemes → ops → {analysis, lab, models} →
// the public headers (tests/node/layers.test.js enforces it; docs/architecture.md explains the layers):
//   base/     errors, tensors, parameters, JSON, random numbers, small numeric helpers, jobs
//   kernels/  SIMD attention kernels and rotary plans; know no schemes
//   schemes/  the Scheme interface, one file per scheme, the registry (one line per scheme)
//   ops/      the operation table (rp.encoding … rp.attention), attention, pooled attention maps,
//             the KV cache of decoding (decode.hpp)
//   analysis/ rp.analysis;  lab/ rp.lab;  models/ presets and config.json reading
#pragma once
#include <memory>
#include <string>

#include "relpos/base/errors.hpp"
#include "relpos/base/job.hpp"
#include "relpos/base/params.hpp"
#include "relpos/base/tensor.hpp"
#include "relpos/ops/attention_map.hpp"
#include "relpos/ops/decode.hpp"
#include "relpos/ops/operations.hpp"

struct RelposFusedCall;  // relpos/kernels/fused_call.h

namespace relpos {

// Starts a long computation of the core: kind "attentionMap" (pooled long-context attention maps)
// or "attention" (rp.attention of any size, e.g. output only at long n). Validates params up front
// and throws ArgumentError like every other call. The lab's "train" job is the second module's
// (startAnalysisJob in analysis_lab.hpp).
std::unique_ptr<Job> startJob(const std::string& kind, const Params& params);

// The relaxed build's fused kernels (kernels/relaxed/fused.cpp) live in a side module the core
// cannot link against: the binding registers the function that reaches them, which runs whole
// 4-row tiles of one call and returns the rows it did (kernels::setFusedRowsEntry; nullptr: none).
void setFusedRowsEntry(int (*entry)(const RelposFusedCall* call));

}  // namespace relpos
