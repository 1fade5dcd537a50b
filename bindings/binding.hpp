// What both Embind modules share (core_bindings.cpp, analysis_bindings.cpp): JS options to
// relpos::Params, tensors to JS, C++ exceptions to { error, kind } for the JS wrapper to throw, and
// the registry of running jobs. No math here.
#pragma once
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <map>
#include <memory>
#include <new>
#include <string>

#include "relpos/relpos.hpp"

namespace relpos_binding {

using emscripten::val;

// The JS wrapper hands over only numbers, booleans, strings, string lists and tensors
// { shape: number[], data: Float32Array }; anything else is a TypeError in the wrapper already.
inline relpos::Params toParams(const std::string& where, const val& options) {
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
inline val toJs(const relpos::Tensor& tensor, bool view = false) {
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

inline val toJs(const relpos::Result& result, bool view = false) {
  val out = val::object();
  for (const auto& entry : result) out.set(entry.first, toJs(entry.second, view));
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

// Jobs live in a registry owned by the binding (the core is stateless): the JS wrapper starts one,
// steps it between event-loop turns, takes the result and always frees it. Each module has its
// own registry of its own kind of job (`JobT`), started by `start(kind, params)`.
template <class JobT, std::unique_ptr<JobT> (*start)(const std::string&, const relpos::Params&)>
struct Jobs {
  static std::map<int, std::unique_ptr<JobT>>& registry() {
    static std::map<int, std::unique_ptr<JobT>> jobs;
    return jobs;
  }

  static JobT& at(int handle) {
    auto it = registry().find(handle);
    if (it == registry().end()) relpos::throwRange("relpos: no running job " + std::to_string(handle));
    return *it->second;
  }

  // { handle } of a new job.
  static val begin(const std::string& kind, const val& options) {
    return guarded([&] {
      static int next = 0;
      std::unique_ptr<JobT> job = start(kind, toParams("relpos." + kind, options));
      registry()[++next] = std::move(job);
      val out = val::object();
      out.set("handle", next);
      return out;
    });
  }

  static val step(int handle, double budget) {
    return guarded([&] {
      JobT& job = at(handle);
      val out = val::object();
      out.set("progress", job.step(static_cast<int64_t>(budget)));
      out.set("done", job.done());
      return out;
    });
  }

  static val result(int handle) {
    return guarded([&] { return toJs(at(handle).result()); });
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
