#include "relpos/analysis.hpp"

#include "relpos/errors.hpp"

namespace relpos {

Result analyze(const std::string& name, const Params& params) {
  (void)params;
  throwRange("relpos.analysis: unknown analysis '" + name + "'");
}

}  // namespace relpos
