// The Embind layer of the second module (relpos-analysis.simd / relpos-analysis.baseline), which a
// page loads on first use: rp.analysis (Eigen) and rp.lab (the training job). Converts and
// validates only; no math here.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>

#include "binding.hpp"
#include "relpos/analysis_lab.hpp"

namespace {

using emscripten::val;
using relpos_binding::budgetOf;
using relpos_binding::guarded;
using relpos_binding::jsonBytes;
using relpos_binding::toJs;

val analyze(const std::string& name, const val& options) {
  return guarded("relpos.analysis." + name, options, budgetOf(false),
                 [&](const relpos::Params& params) { return toJs(relpos::analyze(name, params)); });
}

val labSchemaJson() {
  return guarded("relpos.lab.schema", [] { return jsonBytes(relpos::labSchemaJson()); });
}

val buildJson() {
  return guarded("relpos.analysis.build", [] { return jsonBytes(relpos::analysisBuildJson()); });
}

using Jobs = relpos_binding::Jobs<relpos::PeekableJob, &relpos::startAnalysisJob>;

// Partial state of a running job (the training job: loss and gradient-norm curves so far).
val jobPeek(int handle) {
  return guarded(Jobs::where(handle), [&] { return toJs(Jobs::at(handle).peek()); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(relpos_analysis) {
  emscripten::function("analyze", &analyze);
  emscripten::function("labSchemaJson", &labSchemaJson);
  emscripten::function("buildJson", &buildJson);
  emscripten::function("jobPeek", &jobPeek);
  emscripten::function("heapInUse", &relpos_binding::heapInUse);
  Jobs::bind();
}
