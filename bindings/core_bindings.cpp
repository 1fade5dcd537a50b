// The Embind layer of the core module (relpos.simd / relpos.baseline): the calls on schemes,
// attention, the catalogue and the core's jobs (pooled maps, attention beyond the synchronous
// budget). The analyses and the lab are the analysis module's (analysis_bindings.cpp), presets and
// config.json reading the models module's (models_bindings.cpp). Converts and validates only; no
// math here.
#include <emscripten/bind.h>
#include <emscripten/em_js.h>
#include <emscripten/em_macros.h>  // EMSCRIPTEN_KEEPALIVE, which EM_JS uses
#include <emscripten/val.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "binding.hpp"
#include "relpos/relpos.hpp"

#ifdef __wasm_simd128__
// The relaxed build's side module, when bindings/index.js loaded one beside this (SIMD) core
// (docs/build.md): its fusedRows export on the module object; 0 rows done without it. The kernels
// reach it through the entry registered below (relpos::setFusedRowsEntry), so src/ stays free of
// Emscripten.
EM_JS(int, relpos_fused_rows, (const RelposFusedCall* call), {
  var f = Module["fusedRows"];
  return f ? f(call) : 0;
});
#endif

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

// The operation `op`, whose options marked streamed (OpOption::streamed: attention's B and mask)
// its synchronous calls read from the caller's array as they need them.
const relpos::Operation* streamedBy(const std::string& op) {
  for (const auto& operation : relpos::operations()) {
    if (operation.name == op) return &operation;
  }
  return nullptr;
}

val compute(const std::string& op, const std::string& id, const val& options, bool unbounded) {
  return guarded(
      "relpos." + op, options, budgetOf(unbounded),
      [&](const relpos::Params& params) {
        val out = toJs(relpos::compute(op, id, params));
        setNotes(out, op, id, params);
        return out;
      },
      streamedBy(op));
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
  return guarded(
      "relpos." + op, options, budgetOf(unbounded),
      [&](const relpos::Params& params) {
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
      },
      streamedBy(op));
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

// One attention call, its weights going straight into a JS array (out, or a fresh one); `run`
// computes it into a sink (compute() by default; a KV cache's step).
template <class Run>
val runAttention(const std::string& id, const relpos::Params& params, const val& out, Run run) {
  JsWeightsSink sink(out);
  const relpos::Result result = run(&sink);
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
}

// What computeAttention streams: attention's streamed options, unless one of them shares its buffer
// with `out`, where the call writes the weights block by block over rows it has still to read: then
// they are copied in whole first, as before.
const relpos::Operation* streamedBeside(const val& options, const val& out) {
  const relpos::Operation* op = streamedBy("attention");
  if (out.isNull() || out.isUndefined()) return op;
  const val buffer = out["buffer"];
  for (const auto& o : op->options) {
    const val given = o.streamed ? options[o.name()] : val::undefined();
    if (given.isUndefined() || given.isNull()) continue;
    const val data = given["data"];
    if (!data.isUndefined() && data["buffer"].strictlyEquals(buffer)) return nullptr;
  }
  return op;
}

val computeAttention(const std::string& id, const val& options, const val& out, bool unbounded) {
  return guarded(
      "relpos.attention", options, budgetOf(unbounded),
      [&](const relpos::Params& params) {
        return runAttention(id, params, out,
                            [&](relpos::WeightsSink* sink) { return relpos::compute("attention", id, params, sink); });
      },
      streamedBeside(options, out));
}

// rp.kvCache: keys and values that stay in the wasm heap between decode steps (relpos::KvCache,
// src/relpos/ops/decode.hpp). append() copies only the new rows (checked for finite values once);
// attention() runs the step over the cached rows with the queries and options it is given.
std::map<int, std::unique_ptr<relpos::KvCache>>& kvCaches() {
  static std::map<int, std::unique_ptr<relpos::KvCache>> caches;
  return caches;
}

int kvCacheCreate(double kvHeads, double d, double dv) {
  static int next = 0;
  kvCaches().emplace(++next, std::make_unique<relpos::KvCache>(static_cast<int64_t>(kvHeads), static_cast<int64_t>(d),
                                                               static_cast<int64_t>(dv)));
  return next;
}

relpos::KvCache& kvCacheAt(int handle) {
  auto found = kvCaches().find(handle);
  if (found == kvCaches().end()) relpos::throwRange("relpos.kvCache: this cache was freed");
  return *found->second;
}

// options: { k: [rows, kvHeads * d], v: [rows, kvHeads * dv] } (their widths checked by the JS entry).
val kvCacheAppend(int handle, const val& options) {
  return guarded("relpos.kvCache.append", options, budgetOf(true), [&](const relpos::Params& params) {
    relpos::KvCache& cache = kvCacheAt(handle);
    const relpos::Value* k = params.array("k");  // finite values
    const relpos::Value* v = params.array("v");
    return val(static_cast<double>(cache.append(k->data(), v->data(), k->shape[0])));
  });
}

// One attention call over a cache, its weights (or output) going straight into a JS array as in
// runAttention.
val kvCacheAttention(int handle, const std::string& id, const val& options, const val& out, bool unbounded) {
  return guarded("relpos.kvCache.attention", options, budgetOf(unbounded), [&](const relpos::Params& given) {
    relpos::KvCache& cache = kvCacheAt(handle);
    auto& params = const_cast<relpos::Params&>(given);  // guarded's own, filled for this call
    return runAttention(id, params, out, [&](relpos::WeightsSink* sink) { return cache.attention(id, params, sink); });
  });
}

// A batched cache's step (rp.kvCache({ batch }), bindings/kv-cache-batch.js): the caches of
// `handles`, rows[s] query rows each in the options' q, in one call (relpos::attentionBatch).
val kvCacheBatchAttention(const val& handles, const val& rows, const std::string& id, const val& options,
                          bool unbounded) {
  return guarded("relpos.kvCache.attention", options, budgetOf(unbounded), [&](const relpos::Params& given) {
    std::vector<relpos::KvCache*> caches;
    std::vector<int64_t> counts;
    const auto count = handles["length"].as<unsigned>();
    for (unsigned s = 0; s < count; ++s) {
      caches.push_back(&kvCacheAt(handles[s].as<int>()));
      counts.push_back(static_cast<int64_t>(rows[s].as<double>()));
    }
    auto& params = const_cast<relpos::Params&>(given);  // guarded's own, filled for this call
    return runAttention(id, params, val::null(),
                        [&](relpos::WeightsSink*) { return relpos::attentionBatch(caches, counts, id, params); });
  });
}

void kvCacheFree(int handle) {
  kvCaches().erase(handle);
}

// rp.alloc: `count` floats, zero-filled, that stay in the wasm heap until heapTensorFree. Returns
// the address of the first float (its handle and the byte offset of the wrapper's view), or 0 when
// the heap cannot hold them.
double heapTensorCreate(double count) {
  try {
    relpos::FloatArray data = relpos::uninitialisedFloats(static_cast<size_t>(count));
    std::fill(data.begin(), data.end(), 0.0f);
    const auto address = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(data.data()));
    relpos_binding::heapTensors().setGivenArray(std::to_string(address), std::move(data), {},
                                                relpos::NonFinite::Unknown);
    return address;
  } catch (const std::bad_alloc&) {
    return 0;
  }
}

void heapTensorFree(double address) {
  relpos_binding::heapTensors().erase(std::to_string(static_cast<uint32_t>(address)));
}

// A plan of the pool's as JS takes it: [{ first, end, work }].
val cutsValue(const std::vector<relpos::RowCut>& cuts) {
  val out = val::array();
  for (const relpos::RowCut& cut : cuts) {
    val part = val::object();
    part.set("first", static_cast<double>(cut.first));
    part.set("end", static_cast<double>(cut.end));
    part.set("work", cut.work);
    out.call<void>("push", part);
  }
  return out;
}

// The pool's plan of an attention call (docs/workers.md): its query rows cut into at most `parts`
// ranges of nearly equal work (relpos::attentionCuts); empty when the core cannot read the call's
// shapes (the pool then runs it whole, and the call reports them).
val attentionCuts(const val& options, int parts) {
  return guarded("relpos.attentionAsync", options, relpos::kInf,
                 [&](const relpos::Params& params) { return cutsValue(relpos::attentionCuts(params, parts)); });
}

// The same for a map's rows, weighted as attention's are (relpos::attentionMapCuts).
val attentionMapCuts(const val& options, int parts) {
  return guarded("relpos.attentionMap", options, relpos::kInf,
                 [&](const relpos::Params& params) { return cutsValue(relpos::attentionMapCuts(params, parts)); });
}

val catalogueJson() {
  return guarded("relpos.schemes", [] { return jsonBytes(relpos::catalogueJson()); });
}

val operationsJson() {
  return guarded("relpos.operations", [] { return jsonBytes(relpos::operationsJson()); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(relpos) {
#ifdef __wasm_simd128__
  relpos::setFusedRowsEntry(&relpos_fused_rows);
#endif
  emscripten::function("compute", &compute);
  emscripten::function("computeView", &computeView);
  emscripten::function("computeAttention", &computeAttention);
  emscripten::function("kvCacheCreate", &kvCacheCreate);
  emscripten::function("kvCacheAppend", &kvCacheAppend);
  emscripten::function("kvCacheAttention", &kvCacheAttention);
  emscripten::function("kvCacheBatchAttention", &kvCacheBatchAttention);
  emscripten::function("kvCacheFree", &kvCacheFree);
  emscripten::function("releaseView", &releaseView);
  emscripten::function("heapTensorCreate", &heapTensorCreate);
  emscripten::function("heapTensorFree", &heapTensorFree);
  emscripten::function("attentionCuts", &attentionCuts);
  emscripten::function("attentionMapCuts", &attentionMapCuts);
  emscripten::function("catalogueJson", &catalogueJson);
  emscripten::function("operationsJson", &operationsJson);
  emscripten::function("heapInUse", &relpos_binding::heapInUse);
  relpos_binding::Jobs<relpos::Job, &relpos::startJob, &jobNotes>::bind();
}
