#include "relpos/relpos.hpp"

#include "relpos/ops/attention.hpp"
#include "relpos/ops/attention_map.hpp"

namespace relpos {

std::unique_ptr<Job> startJob(const std::string& kind, const Params& params) {
  if (kind == "attentionMap") return startAttentionMap(params);
  if (kind == "attention") return startAttention(params);
  if (kind == "train") return startTraining(params);
  throwUnknownName("relpos", "job kind", kind, {"attention", "attentionMap", "train"}, "job kinds", false);
}

}  // namespace relpos
