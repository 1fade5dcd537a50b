// The Embind layer: converts JS options to relpos::Params, calls the core, copies results into
// fresh JS typed arrays, and reports C++ exceptions as { error, kind } for the JS wrapper to throw
// as TypeError / RangeError. No math here.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <map>
#include <memory>
#include <new>
#include <string>

#include "relpos/relpos.hpp"

using emscripten::val;

namespace {

// The JS wrapper hands over only numbers, booleans, strings, string lists and tensors
// { shape: number[], data: Float32Array }; anything else is a TypeError in the wrapper already.
relpos::Params toParams(const std::string& where, const val& options) {
  relpos::Params params(where);
  const val keys = val::global("Object").call<val>("keys", options);
  const size_t count = keys["length"].as<size_t>();
  for (size_t index = 0; index < count; ++index) {
    const std::string name = keys[index].as<std::string>();
    const val value = options[name];
    const std::string type = value.typeOf().as<std::string>();
    if (type == "number") {
      params.setNumber(name, value.as<double>());
    } else if (type == "boolean") {
      params.setBoolean(name, value.as<bool>());
    } else if (type == "string") {
      params.setString(name, value.as<std::string>());
    } else if (value.isArray()) {
      relpos::Value list;
      list.type = relpos::Value::Type::Strings;
      const size_t length = value["length"].as<size_t>();
      for (size_t i = 0; i < length; ++i) list.strings.push_back(value[i].as<std::string>());
      params.set(name, std::move(list));
    } else {
      relpos::Shape shape;
      for (double extent : emscripten::vecFromJSArray<double>(value["shape"]))
        shape.push_back(static_cast<int64_t>(extent));
      params.setArray(name, emscripten::convertJSArrayToNumberVector<float>(value["data"]), std::move(shape));
    }
  }
  return params;
}

// With view = true the data are typed-array views into the wasm heap instead of copies; the caller
// keeps the Result alive (see computeView) and the views are valid until the next call.
val toJs(const relpos::Tensor& tensor, bool view = false) {
  val shape = val::array();
  for (int64_t extent : tensor.shape) shape.call<void>("push", static_cast<double>(extent));
  val out = val::object();
  out.set("shape", shape);
  // slice() copies out of the heap: the result is JS-owned and survives memory growth.
  val data = tensor.isInt ? val(emscripten::typed_memory_view(tensor.i32.size(), tensor.i32.data()))
                          : val(emscripten::typed_memory_view(tensor.f32.size(), tensor.f32.data()));
  out.set("data", view ? data : data.call<val>("slice"));
  return out;
}

// Errors come back as { error, kind } and the JS wrapper throws them. Throwing a JS exception from
// here would unwind through the Embind invoker without running C++ destructors (its std::string
// arguments would leak), so nothing JS-side is ever thrown across the wasm boundary.
template <class Body>
val guarded(Body&& body) {
  const char* kind = "Error";
  std::string message;
  try {
    return body();
  } catch (const relpos::ArgumentError& e) {
    kind = e.kind() == relpos::ArgumentError::Kind::Type ? "TypeError" : "RangeError";
    message = e.what();
  } catch (const std::bad_alloc&) {
    kind = "RangeError";
    message = "relpos: out of memory; use rp.attentionMap for pooled long-context maps";
  } catch (const std::exception& e) {
    message = e.what();
  }
  val failure = val::object();
  failure.set("error", message);
  failure.set("kind", std::string(kind));
  return failure;
}

// The result's notes beside its tensors: `synthetic` (names) and `sameForEveryHead`, when they say something.
void setNotes(val& out, const std::string& op, const std::string& id, const relpos::Params& params) {
  const relpos::CallNotes notes = relpos::callNotes(op, id, params);
  if (!notes.synthetic.empty()) {
    val names = val::array();
    for (const auto& name : notes.synthetic) names.call<void>("push", name);
    out.set("synthetic", names);
  }
  if (notes.sameForEveryHead) out.set("sameForEveryHead", true);
}

val compute(const std::string& op, const std::string& id, const val& options) {
  return guarded([&] {
    const relpos::Params params = toParams("relpos." + op, options);
    const relpos::Result result = relpos::compute(op, id, params);
    val out = val::object();
    for (const auto& entry : result) out.set(entry.first, toJs(entry.second));
    setNotes(out, op, id, params);
    return out;
  });
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
    const relpos::Params params = toParams("relpos." + op, options);
    lastView() = std::make_unique<relpos::Result>(relpos::compute(op, id, params));
    val out = val::object();
    for (const auto& entry : *lastView()) out.set(entry.first, toJs(entry.second, true));
    setNotes(out, op, id, params);
    return out;
  });
}

void releaseView() {
  lastView().reset();
}

val analyze(const std::string& name, const val& options) {
  return guarded([&] {
    const relpos::Result result = relpos::analyze(name, toParams("relpos.analysis." + name, options));
    val out = val::object();
    for (const auto& entry : result) out.set(entry.first, toJs(entry.second));
    return out;
  });
}

val catalogueJson() {
  return guarded([] { return val(relpos::catalogueJson()); });
}

val operationsJson() {
  return guarded([] { return val(relpos::operationsJson()); });
}

val labSchemaJson() {
  return guarded([] { return val(relpos::labSchemaJson()); });
}

val presetsJson() {
  return guarded([] { return val(relpos::presetsJson()); });
}

val fromConfigJson(const std::string& configText) {
  return guarded([&] { return val(relpos::fromConfigJson(configText)); });
}

// Jobs live in a registry owned by the binding (the core is stateless): the JS wrapper starts one,
// steps it between event-loop turns, takes the result and always frees it.
std::map<int, std::unique_ptr<relpos::Job>>& jobs() {
  static std::map<int, std::unique_ptr<relpos::Job>> registry;
  return registry;
}

val jobStart(const std::string& kind, const val& options) {
  return guarded([&] {
    static int next = 0;
    std::unique_ptr<relpos::Job> job = relpos::startJob(kind, toParams("relpos." + kind, options));
    jobs()[++next] = std::move(job);
    val out = val::object();
    out.set("handle", next);
    return out;
  });
}

relpos::Job& jobAt(int handle) {
  auto it = jobs().find(handle);
  if (it == jobs().end()) relpos::throwRange("relpos: no running job " + std::to_string(handle));
  return *it->second;
}

val jobStep(int handle, double budget) {
  return guarded([&] {
    relpos::Job& job = jobAt(handle);
    val out = val::object();
    out.set("progress", job.step(static_cast<int64_t>(budget)));
    out.set("done", job.done());
    return out;
  });
}

val jobResult(int handle) {
  return guarded([&] {
    const relpos::Result result = jobAt(handle).result();
    val out = val::object();
    for (const auto& entry : result) out.set(entry.first, toJs(entry.second));
    return out;
  });
}

void jobFree(int handle) {
  jobs().erase(handle);
}

// Partial state of a job that offers it (the training job: loss and gradient-norm curves so far).
val jobPeek(int handle) {
  return guarded([&] {
    const auto* job = dynamic_cast<const relpos::PeekableJob*>(&jobAt(handle));
    if (!job) relpos::throwRange("relpos: job " + std::to_string(handle) + " has no partial state");
    val out = val::object();
    for (const auto& entry : job->peek()) out.set(entry.first, toJs(entry.second));
    return out;
  });
}

// Bytes in use by malloc: the leak tests check it returns to its level.
double heapInUse() {
  return static_cast<double>(mallinfo().uordblks);
}

}  // namespace

EMSCRIPTEN_BINDINGS(relpos) {
  emscripten::function("compute", &compute);
  emscripten::function("computeView", &computeView);
  emscripten::function("releaseView", &releaseView);
  emscripten::function("analyze", &analyze);
  emscripten::function("catalogueJson", &catalogueJson);
  emscripten::function("operationsJson", &operationsJson);
  emscripten::function("labSchemaJson", &labSchemaJson);
  emscripten::function("presetsJson", &presetsJson);
  emscripten::function("fromConfigJson", &fromConfigJson);
  emscripten::function("heapInUse", &heapInUse);
  emscripten::function("jobStart", &jobStart);
  emscripten::function("jobStep", &jobStep);
  emscripten::function("jobResult", &jobResult);
  emscripten::function("jobFree", &jobFree);
  emscripten::function("jobPeek", &jobPeek);
}
