// Errors the public edge raises; the JS binding maps Kind onto TypeError / RangeError.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

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

// The wasm heap is capped at 2 GiB (-sMAXIMUM_MEMORY=2GB in CMakeLists.txt) and also holds the
// inputs, so everything one call allocates at once (result plus scratch: packed keys, rotated rows,
// tables, decompositions) must fit in this budget. Calls size their buffers up front with
// checkWorkingSet, so an allocation never fails half-way (and 32-bit size_t never wraps).
constexpr double kMaxWorkingSetBytes = 1024.0 * 1024 * 1024;  // 1 GiB

// RangeError naming the limit and rp.attentionMap when `bytes` exceeds kMaxWorkingSetBytes; `what`
// says what needs the memory ("rotated queries and keys"), may be empty.
void checkWorkingSet(const std::string& where, double bytes, const std::string& what = "");

// A number as error messages show it (%.10g; NaN, Infinity, -Infinity).
std::string formatNumber(double value);

// "'a', 'b', 'c'": the one way a message lists names (allowed options, known ids, choices).
std::string quotedList(const std::vector<std::string>& names);

// The one message for a name the caller got wrong (a parameter, a scheme id, an analysis, a job
// kind), a RangeError:
//   "<where>: unknown <what> '<name>'; did you mean 'x'? <label>: 'a', 'b', …"
// with the suggestion of suggestNames (base/names.hpp) when there is one, and every known name,
// sorted when `sort`. Used by checkKnownNames and findScheme, the places that reject a name.
[[noreturn]] void throwUnknownName(const std::string& where, const std::string& what, const std::string& name,
                                   std::vector<std::string> known, const std::string& label = "allowed",
                                   bool sort = true);

// The entry of `list` whose `id` member is `name`; else throwUnknownName with every id in table
// order (an operation, a lab task).
template <class List, class Id>
const auto& findNamed(const List& list, Id id, const std::string& name, const std::string& where,
                      const std::string& what, const std::string& label) {
  for (const auto& entry : list) {
    if (entry.*id == name) return entry;
  }
  std::vector<std::string> known;
  for (const auto& entry : list) known.push_back(entry.*id);
  throwUnknownName(where, what, name, known, label, false);
}

// Work one synchronous call may do, in multiply-adds (docs/api.md, "Limits"): 2^34 where the work
// runs in the SIMD attention kernels, 2^30 where it runs in scalar loops (rp.scores and the other
// calls on schemes, each of whose multiply-adds costs about as much as sixteen of the kernel's).
// Each entry of the operation table says which is its own. Larger calls run as jobs or in the
// worker, which have no budget.
constexpr double kSyncWorkBudget = 17179869184.0;       // 2^34
constexpr double kSyncScalarWorkBudget = 1073741824.0;  // 2^30

// RangeError when `work` (multiply-adds) exceeds `budget`: names the call's size and where it can
// run instead (`alternative`, e.g. "rp.attentionAsync (a job with progress and cancel)", may be
// empty; the worker and rp.unbounded() always can).
void checkWork(const std::string& where, double work, double budget, const std::string& alternative = "");

}  // namespace relpos
