#include "relpos/base/tensor.hpp"

namespace relpos {

std::string shapeText(const Shape& shape) {
  std::string out = "[";
  for (size_t axis = 0; axis < shape.size(); ++axis) out += (axis ? ", " : "") + std::to_string(shape[axis]);
  return out + "]";
}

Shape squeezeLeading(Shape shape, size_t rank) {
  size_t drop = 0;
  while (shape.size() - drop > rank && shape[drop] == 1) ++drop;
  shape.erase(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(drop));
  return shape;
}

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

Tensor Tensor::vector(const std::vector<double>& values) {
  Tensor t = floats({static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i) t.f32[i] = static_cast<float>(values[i]);
  return t;
}

}  // namespace relpos
