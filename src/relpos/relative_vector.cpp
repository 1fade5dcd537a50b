#include "relpos/catalogue.hpp"

namespace relpos {

std::vector<Scheme> relativeVectorSchemes() { return {}; }

}  // namespace relpos
