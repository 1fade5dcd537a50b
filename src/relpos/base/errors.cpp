#include "relpos/base/errors.hpp"

#include <cmath>
#include <cstdio>

namespace relpos {

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

std::string quotedList(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "'" : ", '") + name + "'";
  return out;
}

void checkResultSize(const std::string& where, double elements) {
  if (elements > kMaxResultElements) {
    throwRange(where + ": the result would hold " + formatNumber(elements) + " values, over the limit of " +
               formatNumber(kMaxResultElements) + " (256 MiB); use rp.attentionMap for pooled long-context maps");
  }
}

void checkWorkingSet(const std::string& where, double bytes, const std::string& what) {
  if (!(bytes <= kMaxWorkingSetBytes)) {
    const double mib = std::ceil(bytes / (1024.0 * 1024.0));
    throwRange(
        where + ": this call would need " + formatNumber(mib) + " MiB of working memory" +
        (what.empty() ? "" : " (" + what + ")") + ", over the limit of " +
        formatNumber(kMaxWorkingSetBytes / (1024.0 * 1024.0)) +
        " MiB (the wasm heap holds at most 2 GiB); use smaller sizes, or rp.attentionMap for pooled long-context maps");
  }
}

}  // namespace relpos
