#include "relpos/relpos.hpp"

#include "relpos/ops/attention_map.hpp"

namespace relpos {

std::unique_ptr<Job> startJob(const std::string& kind, const Params& params) {
  if (kind == "attentionMap") return startAttentionMap(params);
  if (kind == "train") return startTraining(params);
  throwRange("relpos: unknown job kind '" + kind + "'");
}

}  // namespace relpos
