// The Embind layer of the core module (relpos.simd / relpos.baseline): the calls on schemes,
// attention, the catalogue, presets, config.json reading and the pooled-map job. The analyses and
// the lab are the second module's (analysis_bindings.cpp). Converts and validates only; no math here.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>

#include "binding.hpp"
#include "relpos/relpos.hpp"

namespace {

using emscripten::val;
using relpos_binding::guarded;
using relpos_binding::toJs;
using relpos_binding::toParams;

val compute(const std::string& op, const std::string& id, const val& options) {
  return guarded([&] { return toJs(relpos::compute(op, id, toParams("relpos." + op, options))); });
}

// The zero-copy variant of compute: the last result stays alive here until the next computeView
// (or releaseView), and its tensors come back as views into the wasm heap.
std::unique_ptr<relpos::Result>& lastView() {
  static std::unique_ptr<relpos::Result> held;
  return held;
}

val computeView(const std::string& op, const std::string& id, const val& options) {
  return guarded([&] {
    lastView().reset();
    lastView() = std::make_unique<relpos::Result>(relpos::compute(op, id, toParams("relpos." + op, options)));
    return toJs(*lastView(), true);
  });
}

void releaseView() {
  lastView().reset();
}

val catalogueJson() {
  return guarded([] { return val(relpos::catalogueJson()); });
}

val operationsJson() {
  return guarded([] { return val(relpos::operationsJson()); });
}

val presetsJson() {
  return guarded([] { return val(relpos::presetsJson()); });
}

val fromConfigJson(const std::string& configText) {
  return guarded([&] { return val(relpos::fromConfigJson(configText)); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(relpos) {
  emscripten::function("compute", &compute);
  emscripten::function("computeView", &computeView);
  emscripten::function("releaseView", &releaseView);
  emscripten::function("catalogueJson", &catalogueJson);
  emscripten::function("operationsJson", &operationsJson);
  emscripten::function("presetsJson", &presetsJson);
  emscripten::function("fromConfigJson", &fromConfigJson);
  emscripten::function("heapInUse", &relpos_binding::heapInUse);
  relpos_binding::Jobs<relpos::Job, &relpos::startJob>::bind();
}
