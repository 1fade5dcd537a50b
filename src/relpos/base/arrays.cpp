#include "relpos/base/arrays.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "relpos/base/params.hpp"
#include "relpos/base/tensor.hpp"

template class std::vector<float, relpos::UninitialisedAllocator<float>>;

namespace relpos {

FloatArray uninitialisedFloats(size_t count) {
  FloatArray out;
  out.resize(count);
  return out;
}

NonFinite scanNonFinite(const float* data, size_t count) {
  // The largest bit pattern, read as signed and as unsigned: +Infinity and the NaNs with the sign
  // bit clear lie above every finite number as signed ints (0x7f800000 and up); the NaNs with the
  // sign bit set lie above -Infinity (0xff800000) as unsigned ones. Two max reductions vectorise
  // into two instructions per four floats; four accumulators keep them from waiting on each other.
  int32_t signedMax = std::numeric_limits<int32_t>::min();
  uint32_t unsignedMax = 0;
#if defined(__wasm_simd128__)  // elsewhere (the fuzzers at -O1) the request could not be met
#pragma clang loop vectorize_width(4) interleave_count(4)
#endif
  for (size_t i = 0; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, data + i, sizeof bits);
    signedMax = std::max(signedMax, static_cast<int32_t>(bits));
    unsignedMax = std::max(unsignedMax, bits);
  }
  constexpr uint32_t kPlusInfinity = 0x7f800000u, kMinusInfinity = 0xff800000u;
  if (signedMax >= static_cast<int32_t>(kPlusInfinity) || unsignedMax > kMinusInfinity) return NonFinite::Other;
  return unsignedMax == kMinusInfinity ? NonFinite::MinusInfinity : NonFinite::None;
}

// Here at -O3 the vectors' destructors free their storage without visiting the elements.
Value::~Value() = default;

// Every member but the borrowed or read floats, which the copy owns (params.hpp).
Value::Value(const Value& other)
    : type(other.type),
      number(other.number),
      boolean(other.boolean),
      text(other.text),
      array(other.borrowed || other.reader ? FloatArray(other.data(), other.data() + other.size()) : other.array),
      wide(other.wide),
      shape(other.shape),
      strings(other.strings),
      nonFinite(other.nonFinite) {}

const float* Value::readWhole() const {
  if (whole.size() != readerSize) {
    whole = uninitialisedFloats(readerSize);
    reader->read(0, whole.data(), readerSize);
  }
  return whole.data();
}

Value& Value::operator=(const Value& other) {
  return *this = Value(other);
}
Tensor::~Tensor() = default;

}  // namespace relpos
