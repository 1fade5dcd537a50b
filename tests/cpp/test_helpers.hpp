// Small helpers shared by the native tests: build Params and read results.
#pragma once
#include <string>
#include <vector>

#include "relpos/ops/operations.hpp"
#include "relpos/schemes/registry.hpp"

namespace relpos::testing {

inline Params params(const std::string& op) {
  return Params("relpos." + op);
}

inline std::vector<float> data(const Result& r, const std::string& key = "data") {
  return r.at(key).f32;
}

}  // namespace relpos::testing
