#include "relpos/schemes/registry.hpp"

#include "relpos/base/errors.hpp"

// One line per scheme, in catalogue order: X(name) names the function `Scheme nameScheme()` that
// the scheme's own file (schemes/<id>.cpp) defines. A new scheme is one more line above the end.
#define RELPOS_SCHEMES(X) \
  X(sinusoidal)           \
  X(shaw)                 \
  X(transformerXl)        \
  X(deberta)              \
  X(alibi)                \
  X(t5)                   \
  X(kerpleLog)            \
  X(kerplePower)          \
  X(sandwich)             \
  X(fire)                 \
  X(expDecay)             \
  X(sinFreq)              \
  X(rope)                 \
  X(xpos)                 \
  X(ropeLinear)           \
  X(ropeNtk)              \
  X(ropeDynamic)          \
  X(ropeYarn)             \
  X(ropeLlama3)           \
  X(ropeLongrope)         \
  X(cope)                 \
  X(nope)                 \
  X(pRope)                \
  X(rope2d)               \
  /* end of the list */

namespace relpos {

#define RELPOS_DECLARE_SCHEME(name) Scheme name##Scheme();
RELPOS_SCHEMES(RELPOS_DECLARE_SCHEME)
#undef RELPOS_DECLARE_SCHEME

const std::vector<Scheme>& catalogue() {
#define RELPOS_BUILD_SCHEME(name) name##Scheme(),
  static const std::vector<Scheme> schemes = {RELPOS_SCHEMES(RELPOS_BUILD_SCHEME)};
#undef RELPOS_BUILD_SCHEME
  return schemes;
}

const Scheme& findScheme(const std::string& where, const std::string& id) {
  for (const auto& s : catalogue()) {
    if (s.id == id) return s;
  }
  std::vector<std::string> ids;
  for (const auto& s : catalogue()) ids.push_back(s.id);
  throwUnknownName(where, "scheme id", id, ids, "known ids", false);
}

Scheme describedScheme(const char* id, const char* family, const char* name, const char* cite, const char* description,
                       std::vector<ParamInfo> params) {
  Scheme s;
  s.id = id;
  s.family = family;
  s.name = name;
  s.cite = cite;
  s.description = description;
  s.params = std::move(params);
  return s;
}

const ParamInfo* Scheme::param(const std::string& name) const {
  for (const auto& p : params) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

}  // namespace relpos
