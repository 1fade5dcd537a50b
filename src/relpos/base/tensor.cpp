#include "relpos/base/tensor.hpp"

#include <cmath>
#include <cstdio>

#include "relpos/base/errors.hpp"

namespace relpos {

Tensor Tensor::floats(Shape s) {
  Tensor t;
  t.shape = std::move(s);
  t.f32.assign(static_cast<size_t>(elementCount(t.shape)), 0.0f);
  return t;
}

Tensor Tensor::ints(Shape s) {
  Tensor t;
  t.shape = std::move(s);
  t.isInt = true;
  t.i32.assign(static_cast<size_t>(elementCount(t.shape)), 0);
  return t;
}

Tensor Tensor::scalar(double value) {
  Tensor t = floats({});
  t.f32.assign(1, static_cast<float>(value));
  return t;
}

void throwType(const std::string& message) {
  throw ArgumentError(ArgumentError::Kind::Type, message);
}
void throwRange(const std::string& message) {
  throw ArgumentError(ArgumentError::Kind::Range, message);
}

std::string formatNumber(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.10g", value);
  return buffer;
}

void checkResultSize(const std::string& where, double elements) {
  if (elements > kMaxResultElements) {
    throwRange(where + ": the result would hold " + formatNumber(elements) + " values, over the limit of " +
               formatNumber(kMaxResultElements) + " (256 MiB); use rp.attentionMap for pooled long-context maps");
  }
}

}  // namespace relpos
