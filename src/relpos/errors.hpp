// Errors the public edge raises; the JS binding maps Kind onto TypeError / RangeError.
#pragma once
#include <stdexcept>
#include <string>

namespace relpos {

class ArgumentError : public std::invalid_argument {
 public:
  enum class Kind { Type, Range };
  ArgumentError(Kind kind, const std::string& message) : std::invalid_argument(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

[[noreturn]] void throwType(const std::string& message);
[[noreturn]] void throwRange(const std::string& message);

// Refuses results over the documented per-result limit before anything is allocated.
void checkResultSize(const std::string& where, double elements);
constexpr double kMaxResultElements = 64.0 * 1024 * 1024;  // 256 MiB of float32

std::string formatNumber(double value);

}  // namespace relpos
