#include "relpos/relpos.hpp"

#include "relpos/kernels/kernels.hpp"
#include "relpos/ops/attention.hpp"
#include "relpos/ops/attention_map.hpp"

namespace relpos {

std::unique_ptr<Job> startJob(const std::string& kind, const Params& params) {
  // A job outlives the call that starts it: a copy of the parameters owns any tensor it was lent.
  if (params.lends()) return startJob(kind, Params(params));
  if (kind == "attentionMap") return startAttentionMap(params);
  if (kind == "attention") return startAttention(params);
  // The lab's "train" job is the analysis module's (startAnalysisJob in analysis_lab.hpp).
  throwUnknownName("relpos", "job kind", kind, {"attention", "attentionMap"}, "job kinds", false);
}

void setFusedRowsEntry(int (*entry)(const RelposFusedCall* call)) {
  kernels::setFusedRowsEntry(entry);
}

}  // namespace relpos
