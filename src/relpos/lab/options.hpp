// The lab's options, defined once (rp.lab.schema shows them) and read into a Config.
#pragma once
#include <string>
#include <vector>

#include "relpos/lab/lab.hpp"
#include "relpos/schemes/scheme.hpp"

namespace relpos::lab {

// The schemes the lab trains with (those with lab hooks), in catalogue order.
std::vector<const Scheme*> labSchemes();

// The lab scheme with this id (or its lab alias); the options have validated the name.
const Scheme& findLabScheme(const std::string& name);

// The attention mode a config resolves to ('auto': the scheme's first mode).
std::string resolvedMode(const Config& config);

}  // namespace relpos::lab
