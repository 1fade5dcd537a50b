// The Embind layer: converts JS options to relpos::Params, calls the core, copies results into
// fresh JS typed arrays, and reports C++ exceptions as { error, kind } for the JS wrapper to throw
// as TypeError / RangeError. No math here.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <string>

#include "relpos/relpos.hpp"

using emscripten::val;

namespace {

// The JS wrapper hands over only numbers, booleans, strings, string lists and tensors
// { shape: number[], data: Float32Array }; anything else is a TypeError in the wrapper already.
// `reading` names the option being converted (an allocation failure there names it).
void fillParams(relpos::Params& params, const val& options, std::string& reading) {
  const val keys = val::global("Object").call<val>("keys", options);
  const size_t count = keys["length"].as<size_t>();
  for (size_t index = 0; index < count; ++index) {
    const std::string name = keys[index].as<std::string>();
    reading = name;
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
      // One bulk copy (the wrapper hands a Float32Array): set() from a heap view is a memcpy.
      const val data = value["data"];
      std::vector<float> values(data["length"].as<size_t>());
      val(emscripten::typed_memory_view(values.size(), values.data())).call<void>("set", data);
      params.setArray(name, std::move(values), std::move(shape));
    }
  }
  reading.clear();
}

// What a call was given, as an allocation failure names it: "q [20000, 512], k [20000, 512], heads = 8".
std::string givenSizes(const relpos::Params& params) {
  std::string out;
  for (const auto& name : params.names()) {
    const relpos::Value* v = params.find(name);
    std::string item;
    if (v->type == relpos::Value::Type::Number) item = name + " = " + relpos::formatNumber(v->number);
    if (v->type == relpos::Value::Type::Array) item = name + " " + relpos::shapeText(v->shape);
    if (!item.empty()) out += (out.empty() ? "" : ", ") + item;
  }
  return out;
}

// One call of the core as the binding makes it: the options converted into `params` (named by
// `where`, with the caller's work budget), then `body`. Errors come back as { error, kind } and the
// JS wrapper throws them. Throwing a JS exception from here would unwind through the Embind invoker
// without running C++ destructors (its std::string arguments would leak), so nothing JS-side is
// ever thrown across the wasm boundary. Every message names the function; an allocation failure
// also names what the call was given (or the option it was reading).
template <class Body>
val guarded(const std::string& where, const val& options, double budget, Body&& body) {
  const char* kind = "Error";
  std::string message;
  std::string reading;
  relpos::Params params(where);
  params.setWorkBudget(budget);
  try {
    if (!options.isUndefined()) fillParams(params, options, reading);
    return body(params);
  } catch (const relpos::ArgumentError& e) {
    kind = e.kind() == relpos::ArgumentError::Kind::Type ? "TypeError" : "RangeError";
    message = e.what();
  } catch (const std::bad_alloc&) {
    kind = "RangeError";
    const std::string what = !reading.empty() ? " while reading " + reading : " for " + givenSizes(params);
    message = where + ": out of memory" + (what == " for " ? "" : what) +
              " (the wasm heap holds at most 2 GiB, shared with the inputs and anything still held); use smaller sizes";
  } catch (const std::exception& e) {
    message = e.what();
    if (message.rfind("relpos", 0) != 0) message = where + ": " + message;
  }
  val failure = val::object();
  failure.set("error", message);
  failure.set("kind", std::string(kind));
  return failure;
}

// The same for calls without options.
template <class Body>
val guarded(const std::string& where, Body&& body) {
  return guarded(where, val::undefined(), std::numeric_limits<double>::quiet_NaN(),
                 [&](const relpos::Params&) { return body(); });
}

// With view = true the data are typed-array views into the wasm heap instead of copies; the caller
// keeps the Result alive (see computeView) and the views are valid until the next call.
val jsTensor(const relpos::Shape& extents, const val& data) {
  val shape = val::array();
  for (int64_t extent : extents) shape.call<void>("push", static_cast<double>(extent));
  val out = val::object();
  out.set("shape", shape);
  out.set("data", data);
  return out;
}

val toJs(const relpos::Tensor& tensor, bool view = false) {
  // slice() copies out of the heap: the result is JS-owned and survives memory growth.
  val data = tensor.isInt ? val(emscripten::typed_memory_view(tensor.i32.size(), tensor.i32.data()))
                          : val(emscripten::typed_memory_view(tensor.f32.size(), tensor.f32.data()));
  return jsTensor(tensor.shape, view ? data : data.call<val>("slice"));
}

// The work budget of a call: its own (NaN: the operation table says), or none for rp.unbounded().
double budgetOf(bool unbounded) {
  return unbounded ? relpos::kInf : std::numeric_limits<double>::quiet_NaN();
}

// The result's notes beside its tensors: `synthetic` (names) and `sameForEveryHead`, when they say something.
void setNotes(val& out, const relpos::CallNotes& notes) {
  if (!notes.synthetic.empty()) {
    val names = val::array();
    for (const auto& name : notes.synthetic) names.call<void>("push", name);
    out.set("synthetic", names);
  }
  if (notes.sameForEveryHead) out.set("sameForEveryHead", true);
}

void setNotes(val& out, const std::string& op, const std::string& id, const relpos::Params& params) {
  setNotes(out, relpos::callNotes(op, id, params));
}

val compute(const std::string& op, const std::string& id, const val& options, bool unbounded) {
  return guarded("relpos." + op, options, budgetOf(unbounded), [&](const relpos::Params& params) {
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

// Attention weights of a view: written by the kernel straight into this buffer, never zero-filled
// first (it is kept alive beside lastView).
class HeapWeightsSink : public relpos::WeightsSink {
 public:
  void begin(const relpos::Shape& shape) override {
    count_ = relpos::elementCount(shape);
    data_.reset(new float[static_cast<size_t>(count_)]);
  }
  float* destination(int64_t offset, int64_t) override { return data_.get() + offset; }
  void write(int64_t offset, const float* data, int64_t count) override {
    std::copy(data, data + count, data_.get() + offset);
  }
  val view() const { return val(emscripten::typed_memory_view(static_cast<size_t>(count_), data_.get())); }

 private:
  int64_t count_ = 0;
  std::unique_ptr<float[]> data_;
};

std::unique_ptr<HeapWeightsSink>& lastViewWeights() {
  static std::unique_ptr<HeapWeightsSink> held;
  return held;
}

void releaseView() {
  lastView().reset();
  lastViewWeights().reset();
}

val computeView(const std::string& op, const std::string& id, const val& options, bool unbounded) {
  return guarded("relpos." + op, options, budgetOf(unbounded), [&](const relpos::Params& params) {
    releaseView();
    if (op == "attention") lastViewWeights() = std::make_unique<HeapWeightsSink>();
    lastView() = std::make_unique<relpos::Result>(relpos::compute(op, id, params, lastViewWeights().get()));
    val out = val::object();
    for (const auto& [name, tensor] : *lastView()) {
      const bool sunk = name == "weights" && lastViewWeights();
      out.set(name, sunk ? jsTensor(tensor.shape, lastViewWeights()->view()) : toJs(tensor, true));
    }
    setNotes(out, op, id, params);
    return out;
  });
}

// Attention weights go straight from the kernel's cache-sized blocks into one JS Float32Array (the
// caller's `out`, or a fresh one): the n x m weights are never held in the wasm heap and are copied
// once. With weights: false, `out` receives the output instead.
class JsWeightsSink : public relpos::WeightsSink {
 public:
  explicit JsWeightsSink(val out) : out_(std::move(out)) {}
  void begin(const relpos::Shape& shape) override { target_ = claim(relpos::elementCount(shape), "the weights"); }
  void write(int64_t offset, const float* data, int64_t count) override {
    target_.call<void>("set", val(emscripten::typed_memory_view(static_cast<size_t>(count), data)),
                       static_cast<double>(offset));
  }
  // `out` when given (checked against `count`), else a fresh Float32Array.
  val claim(int64_t count, const std::string& what) {
    if (out_.isNull() || out_.isUndefined()) return val::global("Float32Array").new_(static_cast<double>(count));
    const auto length = out_["length"].as<double>();
    if (length != static_cast<double>(count)) {
      relpos::throwRange("relpos.attention: out must be a Float32Array of " + std::to_string(count) + " values for " +
                         what + ", got " + relpos::formatNumber(length));
    }
    return out_;
  }
  const val& target() const { return target_; }

 private:
  val out_;
  val target_ = val::undefined();
};

val computeAttention(const std::string& id, const val& options, const val& out, bool unbounded) {
  return guarded("relpos.attention", options, budgetOf(unbounded), [&](const relpos::Params& params) {
    JsWeightsSink sink(out);
    const relpos::Result result = relpos::compute("attention", id, params, &sink);
    val js = val::object();
    for (const auto& [name, tensor] : result) {
      if (name == "weights") {
        js.set(name, jsTensor(tensor.shape, sink.target()));
      } else if (name == "output" && !result.count("weights")) {
        val data = sink.claim(tensor.size(), "the output");
        data.call<void>("set", val(emscripten::typed_memory_view(tensor.f32.size(), tensor.f32.data())));
        js.set(name, jsTensor(tensor.shape, data));
      } else {
        js.set(name, toJs(tensor));
      }
    }
    setNotes(js, "attention", id, params);
    return js;
  });
}

val analyze(const std::string& name, const val& options) {
  return guarded("relpos.analysis." + name, options, budgetOf(false), [&](const relpos::Params& params) {
    const relpos::Result result = relpos::analyze(name, params);
    val out = val::object();
    for (const auto& entry : result) out.set(entry.first, toJs(entry.second));
    return out;
  });
}

val catalogueJson() {
  return guarded("relpos.schemes", [] { return val(relpos::catalogueJson()); });
}

val operationsJson() {
  return guarded("relpos.operations", [] { return val(relpos::operationsJson()); });
}

val labSchemaJson() {
  return guarded("relpos.lab.schema", [] { return val(relpos::labSchemaJson()); });
}

val presetsJson() {
  return guarded("relpos.presets", [] { return val(relpos::presetsJson()); });
}

val fromConfigJson(const std::string& configText) {
  return guarded("relpos.fromConfig", [&] { return val(relpos::fromConfigJson(configText)); });
}

// Jobs live in a registry owned by the binding (the core is stateless): the JS wrapper starts one,
// steps it between event-loop turns, takes the result and always frees it. Each keeps its kind, so
// that an error in a later step names the call.
struct RunningJob {
  std::string where;
  std::unique_ptr<relpos::Job> job;
  relpos::CallNotes notes;  // an attention job's, as rp.attention gives them
};

std::map<int, RunningJob>& jobs() {
  static std::map<int, RunningJob> registry;
  return registry;
}

val jobStart(const std::string& kind, const val& options) {
  return guarded("relpos." + kind, options, relpos::kInf, [&](const relpos::Params& params) {
    static int next = 0;
    std::unique_ptr<relpos::Job> job = relpos::startJob(kind, params);
    relpos::CallNotes notes;
    if (kind == "attention") {
      const relpos::Value* scheme = params.find("scheme");
      if (scheme && scheme->type == relpos::Value::Type::String) notes = relpos::callNotes(kind, scheme->text, params);
    }
    jobs()[++next] = RunningJob{"relpos." + kind, std::move(job), std::move(notes)};
    val out = val::object();
    out.set("handle", next);
    return out;
  });
}

const RunningJob& jobAt(int handle) {
  auto it = jobs().find(handle);
  if (it == jobs().end()) relpos::throwRange("relpos: no running job " + std::to_string(handle));
  return it->second;
}

std::string jobWhere(int handle) {
  auto it = jobs().find(handle);
  return it == jobs().end() ? std::string("relpos") : it->second.where;
}

val jobStep(int handle, double budget) {
  return guarded(jobWhere(handle), [&] {
    relpos::Job& job = *jobAt(handle).job;
    val out = val::object();
    out.set("progress", job.step(static_cast<int64_t>(budget)));
    out.set("done", job.done());
    return out;
  });
}

val jobResult(int handle) {
  return guarded(jobWhere(handle), [&] {
    const relpos::Result result = jobAt(handle).job->result();
    val out = val::object();
    for (const auto& entry : result) out.set(entry.first, toJs(entry.second));
    setNotes(out, jobAt(handle).notes);
    return out;
  });
}

void jobFree(int handle) {
  jobs().erase(handle);
}

// Partial state of a job that offers it (the training job: loss and gradient-norm curves so far).
val jobPeek(int handle) {
  return guarded(jobWhere(handle), [&] {
    const auto* job = dynamic_cast<const relpos::PeekableJob*>(jobAt(handle).job.get());
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
  emscripten::function("computeAttention", &computeAttention);
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
