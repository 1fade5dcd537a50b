// The catalogue: every scheme, in the order rp.schemes lists them, found by id.
#pragma once
#include <string>
#include <vector>

#include "relpos/schemes/scheme.hpp"

namespace relpos {

// Every scheme, in catalogue order. Built once, immutable.
const std::vector<Scheme>& catalogue();

// The scheme with this id; a RangeError "<where>: unknown scheme id '<id>'; did you mean …? known
// ids: …" otherwise (`ALiBi` → 'alibi', `yarn` → 'rope-yarn', base/names.hpp).
const Scheme& findScheme(const std::string& where, const std::string& id);

}  // namespace relpos
