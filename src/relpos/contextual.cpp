#include "relpos/catalogue.hpp"

namespace relpos {

std::vector<Scheme> contextualSchemes() { return {}; }

}  // namespace relpos
