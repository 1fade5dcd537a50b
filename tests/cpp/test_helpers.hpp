// Small helpers shared by the native tests: build Params, read results, catch the core's errors.
#pragma once
#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "relpos/base/errors.hpp"
#include "relpos/ops/operations.hpp"
#include "relpos/schemes/registry.hpp"

namespace relpos::testing {

inline Params params(const std::string& op) {
  return Params("relpos." + op);
}

// Params of a call with the given numbers, e.g. with("scores", {{"n", 8}, {"d", 16}}).
inline Params with(const std::string& op, std::initializer_list<std::pair<const char*, double>> numbers) {
  Params p = params(op);
  for (const auto& [name, value] : numbers) p.setNumber(name, value);
  return p;
}

inline std::vector<float> data(const Result& r, const std::string& key = "data") {
  return r.at(key).f32;
}

// sin(rate * t + phase) for t < count: reproducible content for q, k and tables.
inline std::vector<float> wave(int count, double rate, double phase) {
  std::vector<float> out(count);
  for (int t = 0; t < count; ++t) out[t] = static_cast<float>(std::sin(rate * t + phase));
  return out;
}

// What a call threw: whether an ArgumentError, its kind and message.
struct Failure {
  bool thrown = false;
  ArgumentError::Kind kind = ArgumentError::Kind::Range;
  std::string message;
  bool names(const std::string& text) const { return message.find(text) != std::string::npos; }
};

inline Failure failure(const std::string& op, const std::string& id, const Params& p) {
  Failure f;
  try {
    compute(op, id, p);
  } catch (const ArgumentError& e) {
    f.thrown = true;
    f.kind = e.kind();
    f.message = e.what();
  }
  return f;
}

}  // namespace relpos::testing
