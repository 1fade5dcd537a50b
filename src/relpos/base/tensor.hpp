// Dense row-major tensors the core returns, and the named-result bundle of one call.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace relpos {

using Shape = std::vector<int64_t>;

inline int64_t elementCount(const Shape& shape) {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  return count;
}

// "[2, 3, 4]": a shape as error messages show it.
std::string shapeText(const Shape& shape);

// `shape` with leading extents of 1 dropped until it has at most `rank` axes: wherever a matrix is
// expected, the [1, n, n] a per-head call returns for one head is that [n, n] matrix. Shapes that
// cannot be squeezed so come back unchanged (the caller refuses them, showing the shape).
Shape squeezeLeading(Shape shape, size_t rank);

// Float32 payload for maps and vectors; Int32 for bucket/index maps.
struct Tensor {
  Shape shape;
  std::vector<float> f32;
  std::vector<int32_t> i32;
  bool isInt = false;

  // Still an aggregate; only the destructor is out of line, in arrays.cpp at -O3 (see arrays.hpp).
  Tensor() = default;
  Tensor(const Tensor&) = default;
  Tensor(Tensor&&) noexcept = default;
  Tensor& operator=(const Tensor&) = default;
  Tensor& operator=(Tensor&&) noexcept = default;
  ~Tensor();

  static Tensor floats(Shape s);
  static Tensor ints(Shape s);
  static Tensor scalar(double value);
  // A rank-1 float32 tensor of the given float64 values.
  static Tensor vector(const std::vector<double>& values);
  int64_t size() const { return elementCount(shape); }
};

// One call can return several named tensors (attention: weights + output; frequencies: invFreq +
// attentionFactor). Single-tensor results use the key "data".
using Result = std::map<std::string, Tensor>;

// A one-tensor result under "data". Moves: an initializer list would copy the tensor, which for
// large maps costs a full extra pass over fresh pages.
inline Result single(Tensor t) {
  Result r;
  r.emplace("data", std::move(t));
  return r;
}

}  // namespace relpos
