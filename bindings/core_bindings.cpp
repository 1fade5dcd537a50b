// The Embind layer of the core module (relpos.simd / relpos.baseline): the calls on schemes,
// attention, the catalogue, presets, config.json reading and the core's jobs (pooled maps,
// attention beyond the synchronous budget). The analyses and the lab are the second module's
// (analysis_bindings.cpp). Converts and validates only; no math here.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <memory>
#include <string>

#include "binding.hpp"
#include "relpos/relpos.hpp"

namespace {

using emscripten::val;
using relpos_binding::budgetOf;
using relpos_binding::guarded;
using relpos_binding::jsonBytes;
using relpos_binding::jsTensor;
using relpos_binding::setNotes;
using relpos_binding::toJs;

void setNotes(val& out, const std::string& op, const std::string& id, const relpos::Params& params) {
  setNotes(out, relpos::callNotes(op, id, params));
}

val compute(const std::string& op, const std::string& id, const val& options, bool unbounded) {
  return guarded("relpos." + op, options, budgetOf(unbounded), [&](const relpos::Params& params) {
    val out = toJs(relpos::compute(op, id, params));
    setNotes(out, op, id, params);
    return out;
  });
}

// The notes of a job that runs an operation (attention beyond the synchronous budget), as the call
// itself would give them.
relpos::CallNotes jobNotes(const std::string& kind, const relpos::Params& params) {
  const relpos::Value* scheme = params.find("scheme");
  if (!scheme || scheme->type != relpos::Value::Type::String) return {};
  for (const auto& op : relpos::operations()) {
    if (op.name == kind) return relpos::callNotes(kind, scheme->text, params);
  }
  return {};
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

val catalogueJson() {
  return guarded("relpos.schemes", [] { return jsonBytes(relpos::catalogueJson()); });
}

val operationsJson() {
  return guarded("relpos.operations", [] { return jsonBytes(relpos::operationsJson()); });
}

val presetsJson() {
  return guarded("relpos.presets", [] { return jsonBytes(relpos::presetsJson()); });
}

val fromConfigJson(const std::string& configText) {
  return guarded("relpos.fromConfig", [&] { return jsonBytes(relpos::fromConfigJson(configText)); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(relpos) {
  emscripten::function("compute", &compute);
  emscripten::function("computeView", &computeView);
  emscripten::function("computeAttention", &computeAttention);
  emscripten::function("releaseView", &releaseView);
  emscripten::function("catalogueJson", &catalogueJson);
  emscripten::function("operationsJson", &operationsJson);
  emscripten::function("presetsJson", &presetsJson);
  emscripten::function("fromConfigJson", &fromConfigJson);
  emscripten::function("heapInUse", &relpos_binding::heapInUse);
  relpos_binding::Jobs<relpos::Job, &relpos::startJob, &jobNotes>::bind();
}
