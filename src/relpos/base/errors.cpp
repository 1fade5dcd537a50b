#include "relpos/base/errors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "relpos/base/names.hpp"

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

void throwUnknownName(const std::string& where, const std::string& what, const std::string& name,
                      std::vector<std::string> known, const std::string& label, bool sort) {
  if (sort) std::sort(known.begin(), known.end());
  known.erase(std::unique(known.begin(), known.end()), known.end());
  const std::string shown = name.size() > 40 ? name.substr(0, 40) + "..." : name;
  std::string message = where + ": unknown " + what + " '" + shown + "'; ";
  const std::vector<std::string> suggestions = suggestNames(name, known);
  if (!suggestions.empty()) {
    std::string options;
    for (size_t i = 0; i < suggestions.size(); ++i) {
      options += (i == 0 ? "" : i + 1 == suggestions.size() ? " or " : ", ") + ("'" + suggestions[i] + "'");
    }
    message += "did you mean " + options + "? ";
  }
  throwRange(message + label + ": " + quotedList(known));
}

void checkWork(const std::string& where, double work, double budget, const std::string& alternative) {
  if (!(work > budget)) return;
  char needed[32], limit[48];
  std::snprintf(needed, sizeof needed, "%.3g", work);
  const double power = std::log2(budget);
  if (power == std::floor(power)) {
    std::snprintf(limit, sizeof limit, "2^%d = %.0f", static_cast<int>(power), budget);
  } else {
    std::snprintf(limit, sizeof limit, "%.0f", budget);
  }
  throwRange(where + ": this call needs about " + needed + " multiply-adds, over the synchronous budget of " + limit +
             "; run it " + (alternative.empty() ? "" : "as a job with " + alternative + ", ") +
             "in the worker (createRelposWorker() from 'relpos/worker': off the main thread, no budget), or where "
             "blocking is fine on rp.unbounded()");
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
