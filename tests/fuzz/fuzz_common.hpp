// Shared by the libFuzzer targets (scripts/fuzz.sh): decodes an input into a call of the core the
// way the JS binding would make it, caps sizes so one run stays fast, and turns anything but a
// clean ArgumentError into a crash the fuzzer reports.
//
// Input format (JSON, so seeds come straight from the golden files):
//   { "op": "bias", "id": "alibi", "params": { "n": 8, "heads": 2, "r1": [1, 0.5],
//     "x": { "shape": [2, 4], "data": [...] }, "layout": "half", "output": "slopes" } }
// A number list becomes a flat array, nested lists a row-major tensor, { shape, data } a tensor
// (the wrapper guarantees data.length == product(shape); inputs breaking that are skipped, as the
// JS layer refuses them before the core), a list of strings a string list.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <typeinfo>

#include "relpos/base/errors.hpp"
#include "relpos/base/json.hpp"
#include "relpos/base/params.hpp"
#include "relpos/base/tensor.hpp"

namespace fuzz {

// Sizes above these (but inside the core's documented ranges) are skipped so a run stays fast;
// values outside the documented ranges are kept: the core must refuse them itself.
struct Caps {
  double n = 256, d = 128, heads = 16, elements = 1 << 16;
};

inline bool tooLarge(const std::string& name, double v, const Caps& caps) {
  if (!std::isfinite(v)) return false;
  // Within the documented ranges (common_params.hpp) but too slow for fuzzing.
  if ((name == "n" || name == "m" || name == "count" || name == "nposMax") && v > caps.n && v <= (1 << 30)) return true;
  if ((name == "d" || name == "dR" || name == "dBar" || name == "rotaryDim") && v > caps.d && v <= 65536) return true;
  if (name == "heads" && v > caps.heads && v <= 1024) return true;
  return false;
}

// A contract violation found by a target. Not a std::exception, so nothing in the core catches it;
// the libFuzzer entry points abort on it (a crash the fuzzer saves), the GoogleTest replay of
// tests/fuzz/regressions reports it as a failure.
struct Finding {
  std::string what;
};

[[noreturn]] inline void finding(const std::string& what) {
  throw Finding{what};
}

// Returns false when the input does not describe a call the JS layer could make.
inline bool toValue(const relpos::JsonValue& j, relpos::Value& out, const Caps& caps) {
  using relpos::JsonValue;
  using relpos::Value;
  switch (j.type) {
    case JsonValue::Type::Number:
      out.type = Value::Type::Number;
      out.number = j.number;
      return true;
    case JsonValue::Type::Boolean:
      out.type = Value::Type::Boolean;
      out.boolean = j.boolean;
      return true;
    case JsonValue::Type::String:
      out.type = Value::Type::String;
      out.text = j.string;
      return true;
    case JsonValue::Type::Null:
      return false;  // the wrapper refuses null
    case JsonValue::Type::Array: {
      if (j.array.empty()) return false;
      if (j.array[0].type == JsonValue::Type::String) {
        out.type = Value::Type::Strings;
        for (const auto& s : j.array) {
          if (s.type != JsonValue::Type::String) return false;
          out.strings.push_back(s.string);
        }
        return true;
      }
      out.type = Value::Type::Array;
      // Nested lists: a rectangular tensor.
      relpos::Shape shape;
      for (const JsonValue* level = &j; level->type == JsonValue::Type::Array; level = &level->array[0]) {
        shape.push_back(static_cast<int64_t>(level->array.size()));
        if (level->array.empty() || shape.size() > 4) return false;
      }
      double total = 1;
      for (auto e : shape) total *= static_cast<double>(e);
      if (total > caps.elements) return false;
      // Flatten depth-first, checking raggedness.
      struct Walk {
        const relpos::Shape& shape;
        relpos::FloatArray& data;
        bool operator()(const JsonValue& node, size_t depth) const {
          if (depth == shape.size()) {
            if (node.type != JsonValue::Type::Number) return false;
            data.push_back(static_cast<float>(node.number));
            return true;
          }
          if (node.type != JsonValue::Type::Array || static_cast<int64_t>(node.array.size()) != shape[depth])
            return false;
          for (const auto& child : node.array) {
            if (!(*this)(child, depth + 1)) return false;
          }
          return true;
        }
      };
      if (!Walk{shape, out.array}(j, 0)) return false;
      out.shape = shape;
      return true;
    }
    case JsonValue::Type::Object: {
      const JsonValue* shape = j.find("shape");
      const JsonValue* data = j.find("data");
      if (!shape || !data || shape->type != JsonValue::Type::Array || data->type != JsonValue::Type::Array)
        return false;
      double total = 1;
      out.type = Value::Type::Array;
      for (const auto& e : shape->array) {
        if (e.type != JsonValue::Type::Number || !(e.number >= 0) || std::floor(e.number) != e.number || e.number > 1e9)
          return false;
        total *= e.number;
        out.shape.push_back(static_cast<int64_t>(e.number));
      }
      if (total > caps.elements || total != static_cast<double>(data->array.size())) return false;
      for (const auto& x : data->array) {
        if (x.type != JsonValue::Type::Number) return false;
        out.array.push_back(static_cast<float>(x.number));
      }
      return true;
    }
  }
  return false;
}

inline bool toParams(const relpos::JsonValue* object, relpos::Params& params, const Caps& caps) {
  if (!object) return true;
  if (!object->isObject()) return false;
  for (const auto& member : object->object) {
    if (member.first == "shapes") continue;  // golden files' shape table, applied by the seed generator
    relpos::Value value;
    if (!toValue(member.second, value, caps)) return false;
    if (value.type == relpos::Value::Type::Number && tooLarge(member.first, value.number, caps)) return false;
    if (value.type == relpos::Value::Type::Array && member.first == "positions") {
      for (float p : value.array) {
        if (std::fabs(p) > 1e7 && std::fabs(p) < 1e12) return false;
      }
    }
    params.set(member.first, std::move(value));
  }
  return true;
}

// Every result tensor must hold exactly product(shape) values.
inline void checkResult(const relpos::Result& result, const std::string& what) {
  for (const auto& entry : result) {
    const relpos::Tensor& t = entry.second;
    double count = 1;
    for (auto e : t.shape) {
      if (e < 0) finding(what + ": negative extent in result '" + entry.first + "'");
      count *= static_cast<double>(e);
    }
    const double held = static_cast<double>(t.isInt ? t.i32.size() : t.f32.size());
    if (held != count)
      finding(what + ": result '" + entry.first + "' holds " + std::to_string(held) + " values for a shape of " +
              std::to_string(count));
    if (count > relpos::kMaxResultElements) finding(what + ": result over kMaxResultElements");
  }
}

// Runs `body`; only relpos::ArgumentError (TypeError / RangeError at the edge) may escape it.
template <class Body>
void expectCleanErrors(const std::string& what, Body&& body) {
  try {
    body();
  } catch (const relpos::ArgumentError& e) {
    const std::string message = e.what();
    if (message.rfind("relpos", 0) != 0) finding(what + ": error message does not name the function: " + message);
  } catch (const std::bad_alloc&) {
    finding(what + ": std::bad_alloc (an allocation the core did not size-check)");
  } catch (const std::exception& e) {
    finding(what + ": non-ArgumentError exception " + typeid(e).name() + ": " + e.what());
  }
}

}  // namespace fuzz
