// What both Embind modules share (core_bindings.cpp, analysis_bindings.cpp): JS options to
// relpos::Params, tensors to JS, C++ exceptions to { error, kind } for the JS wrapper to throw, the
// work budget of a call, and the registry of running jobs. No math here.
#pragma once
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <type_traits>

#include "relpos/relpos.hpp"

namespace relpos_binding {

using emscripten::val;

// A tensor's data (the wrapper hands a Float32Array) copied into fresh storage, never zero-filled
// first, and what they hold besides finite numbers. The copy goes a chunk at a time, each chunk
// scanned while it is still in cache: a std::vector<float>(n) would write zeros over all of it first
// (16 MB for a 2048 x 2048 bias), and a scan afterwards would read it all again. The wrapper never
// hands over a view into this module's own heap (bindings/heap-tensor.js, forCore): allocating
// `values` could grow the heap and empty it.
inline relpos::FloatArray copyIn(const val& given, relpos::NonFinite& nonFinite) {
  constexpr size_t kChunk = size_t{1} << 15;  // floats: 128 KiB, well within L2
  // rp.runJob passes options as they are: a plain number list becomes a Float32Array first.
  const val data =
      val::global("ArrayBuffer").call<bool>("isView", given) ? given : val::global("Float32Array").new_(given);
  const auto count = data["length"].as<size_t>();
  relpos::FloatArray values = relpos::uninitialisedFloats(count);
  nonFinite = relpos::NonFinite::None;
  for (size_t begin = 0; begin < count; begin += kChunk) {
    const size_t size = std::min(kChunk, count - begin);
    const val chunk = data.call<val>("subarray", static_cast<double>(begin), static_cast<double>(begin + size));
    // set() from a typed array is a memcpy. The view is made after every allocation (memory growth
    // would detach it).
    val(emscripten::typed_memory_view(size, values.data() + begin)).call<void>("set", chunk);
    nonFinite = std::max(nonFinite, relpos::scanNonFinite(values.data() + begin, size));
  }
  return values;
}

// A tensor the caller keeps (its Float32Array), read where the core needs it (relpos::TensorReader):
// attention reads a given B or mask a block of rows at a time into its scratch, so the n x m
// floats are never held in the heap. The view of the destination is made at each read (memory
// growth would detach one kept); set() from a subarray is a memcpy. The array lives as long as the
// call's Params, which hold this reader.
class JsTensorReader : public relpos::TensorReader {
 public:
  explicit JsTensorReader(val data) : data_(std::move(data)) {}
  void read(size_t offset, float* dst, size_t count) const override {
    const val rows = data_.call<val>("subarray", static_cast<double>(offset), static_cast<double>(offset + count));
    val(emscripten::typed_memory_view(count, dst)).call<void>("set", rows);
  }

 private:
  val data_;
};

// Tensors a caller fills in place (rp.alloc): their floats live here, in this module's heap, from
// heapTensorCreate to heapTensorFree (core_bindings.cpp), each under the decimal address of its
// first float (a Params is the map the core already has). A call handed one as { shape,
// heapTensor: address } reads it where it is (Params::setBorrowedArray), never copying it.
inline relpos::Params& heapTensors() {
  static relpos::Params held("relpos.alloc");
  return held;
}

// The JS wrapper hands over only numbers, booleans, strings, string lists, tensors
// { shape: number[], data: Float32Array } and rp.alloc tensors { shape, heapTensor: handle };
// anything else is a TypeError in the wrapper already.
// `reading` names the option being converted (an allocation failure there names it). The options in
// that `streamedBy` marks streamed (OpOption::streamed), given as a Float32Array, are read through a
// JsTensorReader instead of being copied in.
inline void fillParams(relpos::Params& params, const val& options, std::string& reading,
                       const relpos::Operation* streamedBy) {
  const auto streamed = [&](const std::string& name) {
    if (!streamedBy) return false;
    for (const auto& o : streamedBy->options) {
      if (o.streamed && o.name() == name) return true;
    }
    return false;
  };
  const val keys = val::global("Object").call<val>("keys", options);
  const size_t count = keys["length"].as<size_t>();
  // Each step below is a call into JS: the value is read by its key as the JS string it is (no round
  // trip through a C++ string) and its type is asked directly (no typeof string to decode).
  for (size_t index = 0; index < count; ++index) {
    const val key = keys[index];
    const std::string name = key.as<std::string>();
    reading = name;
    const val value = options[key];
    if (value.isNumber()) {
      params.setNumber(name, value.as<double>());
    } else if (value.isTrue() || value.isFalse()) {
      params.setBoolean(name, value.isTrue());
    } else if (value.isString()) {
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
      if (const val handle = value["heapTensor"]; !handle.isUndefined()) {
        // The wrapper has checked that the tensor is this instance's and alive; this is the backstop.
        const relpos::Value* held = heapTensors().find(std::to_string(handle.as<uint32_t>()));
        if (!held || relpos::elementCount(shape) != static_cast<int64_t>(held->array.size())) {
          relpos::throwRange(params.where() + ": " + name + " is an rp.alloc tensor that was freed");
        }
        params.setBorrowedArray(name, held->array.data(), held->array.size(), std::move(shape));
        continue;
      }
      relpos::NonFinite nonFinite = relpos::NonFinite::Unknown;
      const val data = value["data"];
      if (streamed(name) && data.instanceof (val::global("Float32Array"))) {
        const auto length = data["length"].as<size_t>();
        params.setReadArray(name, std::make_shared<JsTensorReader>(data), length, std::move(shape));
        continue;
      }
      relpos::FloatArray values = copyIn(data, nonFinite);
      params.setGivenArray(name, std::move(values), std::move(shape), nonFinite);
      // Numbers the caller gave in float64 (invFreq, factors, positions) keep it to the angle.
      if (data.instanceof (val::global("Float64Array"))) {
        params.setWide(name, emscripten::convertJSArrayToNumberVector<double>(data));
      }
    }
  }
  reading.clear();
}

// What a call was given, as an allocation failure names it: "q [20000, 512], k [20000, 512], heads = 8".
inline std::string givenSizes(const relpos::Params& params) {
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
// `where`, with the caller's work budget), then `body`. C++ errors come back as { error, kind } and
// the JS wrapper throws them: throwing from here would unwind through the Embind invoker without
// running C++ destructors (its std::string arguments would leak). A JS exception raised inside a val
// call (a getter of the caller's object, `set` on a detached typed array) is not caught here: it
// crosses the boundary with the same leak, so the wrapper hands over only plain data it has checked
// (bindings/convert.js). Every message names the function; an allocation failure also names what
// the call was given (or the option it was reading).
//
// One copy of this catch-and-report code serves every binding (each `guarded` below only forwards
// its body as a pointer and a plain function, no std::function): a template instance per binding
// cost about 0.9 KB of wasm each (docs/build.md, "Size of the first module").
using GuardedBody = val (*)(void* body, const relpos::Params& params);
__attribute__((noinline)) inline val guardedCall(const std::string& where, const val& options, double budget,
                                                 void* body, GuardedBody call, const relpos::Operation* streamedBy) {
  const char* kind = "Error";
  std::string message;
  std::string reading;
  relpos::Params params(where);
  params.setWorkBudget(budget);
  try {
    if (!options.isUndefined()) fillParams(params, options, reading, streamedBy);
    return call(body, params);
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

// `streamedBy`: the operation whose streamed options are read through a JsTensorReader (fillParams).
template <class Body>
val guarded(const std::string& where, const val& options, double budget, Body&& body,
            const relpos::Operation* streamedBy = nullptr) {
  using B = std::remove_reference_t<Body>;
  return guardedCall(
      where, options, budget, const_cast<void*>(static_cast<const void*>(&body)),
      [](void* b, const relpos::Params& params) -> val { return (*static_cast<B*>(b))(params); }, streamedBy);
}

// JSON text handed to JS as a fresh Uint8Array of its UTF-8 bytes, which bindings/index.js decodes
// with one TextDecoder call: Embind's own std::string conversion walks the text byte by byte in JS,
// which on a cold page cost about 20 ms for the catalogue alone.
inline val jsonBytes(const std::string& text) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  return val::global("Uint8Array").new_(emscripten::typed_memory_view(text.size(), bytes));
}

// The same for calls without options.
template <class Body>
val guarded(const std::string& where, Body&& body) {
  return guarded(where, val::undefined(), std::numeric_limits<double>::quiet_NaN(),
                 [&](const relpos::Params&) { return body(); });
}

// With view = true the data are typed-array views into the wasm heap instead of copies; the caller
// keeps the Result alive (see computeView) and the views are valid until the next call.
inline val jsTensor(const relpos::Shape& extents, const val& data) {
  val shape = val::array();
  for (int64_t extent : extents) shape.call<void>("push", static_cast<double>(extent));
  val out = val::object();
  out.set("shape", shape);
  out.set("data", data);
  return out;
}

inline val toJs(const relpos::Tensor& tensor, bool view = false) {
  // slice() copies out of the heap: the result is JS-owned and survives memory growth.
  val data = tensor.isInt ? val(emscripten::typed_memory_view(tensor.i32.size(), tensor.i32.data()))
                          : val(emscripten::typed_memory_view(tensor.f32.size(), tensor.f32.data()));
  return jsTensor(tensor.shape, view ? data : data.call<val>("slice"));
}

// The work budget of a call: its own (NaN: the operation table says), or none for rp.unbounded().
inline double budgetOf(bool unbounded) {
  return unbounded ? relpos::kInf : std::numeric_limits<double>::quiet_NaN();
}

// The result's notes beside its tensors: `synthetic` (names) and `sameForEveryHead`, when they say something.
inline void setNotes(val& out, const relpos::CallNotes& notes) {
  if (!notes.synthetic.empty()) {
    val names = val::array();
    for (const auto& name : notes.synthetic) names.call<void>("push", name);
    out.set("synthetic", names);
  }
  if (notes.sameForEveryHead) out.set("sameForEveryHead", true);
  if (!notes.notes.empty()) {
    val list = val::array();
    for (const auto& note : notes.notes) list.call<void>("push", note);
    out.set("notes", list);
  }
}

inline val toJs(const relpos::Result& result, bool view = false) {
  val out = val::object();
  for (const auto& entry : result) out.set(entry.first, toJs(entry.second, view));
  return out;
}

// Jobs live in a registry owned by the binding (the core is stateless): the JS wrapper starts one,
// steps it between event-loop turns, takes the result and always frees it. Each module has its
// own registry of its own kind of job (`JobT`), started by `start(kind, params)`; each job keeps
// the name of its call, so that an error in a later step names it, and the notes its result carries
// (`notesFor`, when the module has any). A job has no work budget.
template <class JobT, std::unique_ptr<JobT> (*start)(const std::string&, const relpos::Params&),
          relpos::CallNotes (*notesFor)(const std::string&, const relpos::Params&) = nullptr>
struct Jobs {
  struct Running {
    std::string where;
    std::unique_ptr<JobT> job;
    relpos::CallNotes notes;
  };

  static std::map<int, Running>& registry() {
    static std::map<int, Running> jobs;
    return jobs;
  }

  static JobT& at(int handle) {
    auto it = registry().find(handle);
    if (it == registry().end()) relpos::throwRange("relpos: no running job " + std::to_string(handle));
    return *it->second.job;
  }

  static std::string where(int handle) {
    auto it = registry().find(handle);
    return it == registry().end() ? std::string("relpos") : it->second.where;
  }

  // { handle } of a new job.
  static val begin(const std::string& kind, const val& options) {
    return guarded("relpos." + kind, options, relpos::kInf, [&](const relpos::Params& params) {
      static int next = 0;
      std::unique_ptr<JobT> job = start(kind, params);
      relpos::CallNotes notes;
      if constexpr (notesFor != nullptr) notes = notesFor(kind, params);
      registry()[++next] = Running{"relpos." + kind, std::move(job), std::move(notes)};
      val out = val::object();
      out.set("handle", next);
      return out;
    });
  }

  static val step(int handle, double budget) {
    return guarded(where(handle), [&] {
      JobT& job = at(handle);
      val out = val::object();
      out.set("progress", job.step(static_cast<int64_t>(budget)));
      out.set("done", job.done());
      return out;
    });
  }

  static val result(int handle) {
    return guarded(where(handle), [&] {
      val out = toJs(at(handle).result());
      setNotes(out, registry().at(handle).notes);
      return out;
    });
  }

  static void free(int handle) { registry().erase(handle); }

  static void bind() {
    emscripten::function("jobStart", &begin);
    emscripten::function("jobStep", &step);
    emscripten::function("jobResult", &result);
    emscripten::function("jobFree", &free);
  }
};

// Bytes in use by malloc: the leak tests check it returns to its level.
inline double heapInUse() {
  return static_cast<double>(mallinfo().uordblks);
}

}  // namespace relpos_binding
