#include "relpos/relpos.hpp"

#include "relpos/ops/attention.hpp"
#include "relpos/ops/attention_map.hpp"

namespace relpos {

std::unique_ptr<Job> startJob(const std::string& kind, const Params& params) {
  if (kind == "attentionMap") {
    // Only attention reads tensors in place (OpOption::inPlace, ops/operations.cpp).
    for (const auto& name : params.borrowedNames()) {
      throwType(params.where() + ": " + name + " cannot be an rp.alloc tensor here (only rp.attention reads them)");
    }
    return startAttentionMap(params);
  }
  if (kind == "attention") return startAttention(params);
  // The lab's "train" job is the analysis module's (startAnalysisJob in analysis_lab.hpp).
  throwUnknownName("relpos", "job kind", kind, {"attention", "attentionMap"}, "job kinds", false);
}

}  // namespace relpos
