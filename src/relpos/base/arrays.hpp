// Whole-array work on the float arrays a call is given: their storage (FloatArray), and the scan for
// values other than finite numbers. Compiled at -O3 (CMakeLists.txt) with the special members of
// Value and Tensor, unlike the rest of base/ at -Oz: there the scan would not vectorise, and libc++
// walks every element of a float vector it sizes or frees (docs/build.md, "Per-file optimisation").
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

namespace relpos {

// std::allocator, except that a vector growing with resize() leaves its new floats uninitialised
// instead of zeroing them. Copies still construct (a memcpy): only the no-argument construct is here.
template <class T>
struct UninitialisedAllocator {
  using value_type = T;
  UninitialisedAllocator() = default;
  template <class U>
  UninitialisedAllocator(const UninitialisedAllocator<U>&) noexcept {}
  T* allocate(size_t n) { return std::allocator<T>().allocate(n); }
  void deallocate(T* p, size_t n) noexcept { std::allocator<T>().deallocate(p, n); }
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U>
  bool operator==(const UninitialisedAllocator<U>&) const noexcept {
    return true;
  }
  template <class U>
  bool operator!=(const UninitialisedAllocator<U>&) const noexcept {
    return false;
  }
};

// The float32 payload of a given tensor (Value::array).
using FloatArray = std::vector<float, UninitialisedAllocator<float>>;

}  // namespace relpos

// One instance of FloatArray's members, arrays.cpp's at -O3: left to each file, the linker kept a
// -Oz file's resize(), which walks the new floats one by one (docs/build.md).
extern template class std::vector<float, relpos::UninitialisedAllocator<float>>;

namespace relpos {

// `count` floats of uninitialised storage, to be written over (here at -O3, where resize() does not
// visit them).
FloatArray uninitialisedFloats(size_t count);

// What an array holds besides finite numbers, in increasing order: nothing, -Infinity (a masked pair
// in a bias or mask), or NaN / +Infinity (with or without -Infinity). Unknown: not scanned yet.
enum class NonFinite : uint8_t { Unknown, None, MinusInfinity, Other };

// One pass over `count` floats. The scans of consecutive parts combine with std::max.
NonFinite scanNonFinite(const float* data, size_t count);

}  // namespace relpos
