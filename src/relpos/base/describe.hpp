// Parameter metadata as JSON, the form rp.schemes and rp.lab.schema show: { type, default, min,
// max, exclusiveMin, integer, choices?, items? ("string" for a list of strings), doc }.
#pragma once
#include "relpos/base/json.hpp"
#include "relpos/base/params.hpp"

namespace relpos {

JsonValue describeParam(const ParamInfo& info);

}  // namespace relpos
