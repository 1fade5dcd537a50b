// The Embind layer of the models module (relpos-models), which load() instantiates beside the core
// unless given models: false: rp.presets and rp.fromConfig. Converts and validates only; no math here.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "binding.hpp"
#include "relpos/models.hpp"

namespace {

using emscripten::val;
using relpos_binding::guarded;
using relpos_binding::jsonBytes;

val presetsJson() {
  return guarded("relpos.presets", [] { return jsonBytes(relpos::presetsJson()); });
}

val fromConfigJson(const std::string& configText) {
  return guarded("relpos.fromConfig", [&] { return jsonBytes(relpos::fromConfigJson(configText)); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(relpos_models) {
  emscripten::function("presetsJson", &presetsJson);
  emscripten::function("fromConfigJson", &fromConfigJson);
  emscripten::function("heapInUse", &relpos_binding::heapInUse);
}
