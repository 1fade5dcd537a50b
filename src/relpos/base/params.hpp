// Named, typed call parameters and their metadata. Every public call of the core takes a Params
// (converted from the JS options object by the binding) and reads it through the accessors below,
// which validate type and range against the scheme's ParamInfo and name the argument on failure.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "relpos/base/arrays.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/tensor.hpp"

namespace relpos {

constexpr double kInf = std::numeric_limits<double>::infinity();

// String: free text a call checks itself (e.g. an `output` whose choices depend on the scheme);
// Options: a nested options object the JS entry flattens (`params`).
enum class ParamType { Number, Integer, Boolean, Choice, PerHead, Array, String, Options };

// One documented parameter: default, valid range and a one-line doc (rp.schemes exposes these).
struct ParamInfo {
  std::string name;
  ParamType type = ParamType::Number;
  double def = 0;  // NaN: no default (required, or derived by the scheme)
  double min = -kInf;
  double max = kInf;
  bool minOpen = false;  // true: value must be > min (not >=)
  std::string choices;   // "half|interleaved" for Choice; the default is the first
  std::string doc;
  bool listOfStrings = false;  // Array whose entries are strings (e.g. DeBERTa's posAttType), from `choices`
  // The calls whose result this parameter changes (empty: every call of its scheme). Given to
  // another call it is accepted as part of the scheme's description (a preset's params feed every
  // call), unless `onlyThere`: then that call refuses it, naming the calls that read it.
  std::vector<std::string> affects;
  bool onlyThere = false;
  // Restates a size other inputs fix (CoPE's n and d: the shape of q): checked where given, acts on
  // no call (its affects list is empty).
  bool restates = false;
  // A learned input whose default is relpos's untrained demonstration value (a call that falls back
  // to it names it in its result's `synthetic` list).
  bool synthetic = false;
};

// The same parameter acting only in `calls` (accepted elsewhere), or only there (refused elsewhere).
ParamInfo actsIn(ParamInfo info, std::initializer_list<const char*> calls);
ParamInfo onlyIn(ParamInfo info, std::initializer_list<const char*> calls);
ParamInfo actsIn(ParamInfo info, std::vector<std::string> calls);
// The same parameter marked as a learned input with a synthetic default.
ParamInfo synthetic(ParamInfo info);
// The same parameter as a restatement of a size other inputs fix (ParamInfo::restates).
ParamInfo restatement(ParamInfo info);

// The factories take the catalogue's literals as they are (no std::string built at each call site).
ParamInfo numberParam(const char* name, double def, double min, double max, const char* doc, bool minOpen = false);
ParamInfo integerParam(const char* name, double def, double min, double max, const char* doc);
ParamInfo booleanParam(const char* name, bool def, const char* doc);
ParamInfo choiceParam(const char* name, const char* choices, const char* doc);
ParamInfo perHeadParam(const char* name, double def, double min, double max, const char* doc, bool minOpen = false);
ParamInfo arrayParam(const char* name, const char* doc);
ParamInfo stringParam(const char* name, const char* doc);
ParamInfo optionsParam(const char* name, const char* doc);
// Choices and docs composed at run time (the lab's and the analyses' options).
inline ParamInfo choiceParam(const char* name, const std::string& choices, const char* doc) {
  return choiceParam(name, choices.c_str(), doc);
}
inline ParamInfo numberParam(const char* name, double def, double min, double max, const std::string& doc,
                             bool minOpen = false) {
  return numberParam(name, def, min, max, doc.c_str(), minOpen);
}
// The same parameter with another default (and, when given, another upper bound): one name, range
// and doc, with the default a particular call needs.
ParamInfo withDefault(const ParamInfo& info, double def, double max = std::numeric_limits<double>::quiet_NaN());

// The allowed values of a Choice parameter, default first.
std::vector<std::string> choiceList(const ParamInfo& info);

// Where a tensor's floats are read from when the caller keeps them (the binding's reader of the
// caller's own JS array, bindings/binding.hpp): read() copies `count` consecutive row-major floats
// from `offset` into dst. Attention reads a given B or mask through it block by block (options the
// operation table marks `streamed`), so nothing n x m of it is held in the heap.
class TensorReader {
 public:
  virtual ~TensorReader() = default;
  virtual void read(size_t offset, float* dst, size_t count) const = 0;
};

struct Value {
  enum class Type { Number, Boolean, String, Array, Strings };
  Type type = Type::Number;
  double number = 0;
  bool boolean = false;
  std::string text;
  FloatArray array;  // float32 payload, row-major
  // A tensor read in place (rp.alloc, docs/api.md): floats the binding holds for the caller, lent
  // for one call and never copied; `array` is then empty. data() and size() read either kind. Only
  // the options the operation table marks inPlace are borrowed (the JS entry lends no other), and
  // attention reads them with data(). A copy of a Value owns its floats (a job's copy of its
  // parameters outlives the call that lent them); a move keeps them borrowed.
  const float* borrowed = nullptr;
  size_t borrowedSize = 0;
  // A tensor the caller keeps, read through `reader` (TensorReader); `array` is then empty. Attention
  // reads B and mask block by block (Given in ops/attention.cpp); any other reader, data() included,
  // reads the whole tensor through it once, on first use, into `whole`. A copy owns the floats.
  const TensorReader* reader = nullptr;  // kept alive by the Params it was set in
  size_t readerSize = 0;
  const float* data() const { return borrowed ? borrowed : reader ? readWhole() : array.data(); }
  size_t size() const { return borrowed ? borrowedSize : reader ? readerSize : array.size(); }
  // The same numbers in float64 when the caller gave them so (a Float64Array; the JS entry hands
  // invFreq, LongRoPE's factors and positions over that way): empty otherwise. at() reads them.
  std::vector<double> wide;
  double at(size_t i) const { return wide.empty() ? static_cast<double>(data()[i]) : wide[i]; }
  Shape shape;  // of array; {size} when the caller gave a flat list
  std::vector<std::string> strings;
  // What `array` holds besides finite numbers, when whoever filled it scanned it on the way (the
  // binding does, chunk by chunk while copying it in); Unknown: array() and maskedArray() scan it.
  NonFinite nonFinite = NonFinite::Unknown;

  Value() = default;
  Value(const Value& other);  // in arrays.cpp, with ~Value: copies borrowed or read floats into `array`
  Value(Value&&) noexcept = default;
  Value& operator=(const Value& other);
  Value& operator=(Value&&) noexcept = default;
  ~Value();  // in arrays.cpp, at -O3 (see arrays.hpp)

 private:
  const float* readWhole() const;  // in arrays.cpp
  mutable FloatArray whole;        // the reader's floats, once something reads them whole
};

class Params {
 public:
  explicit Params(std::string where = "relpos") : where_(std::move(where)) {}

  const std::string& where() const { return where_; }
  void setWhere(std::string where) { where_ = std::move(where); }

  void set(const std::string& name, Value value) { values_[name] = std::move(value); }
  void setNumber(const std::string& name, double v);
  void setBoolean(const std::string& name, bool v);
  void setString(const std::string& name, std::string v);
  void setArray(const std::string& name, const std::vector<float>& data, Shape shape);
  // A tensor as the binding hands it over: moved in, with what its scan found in it (nonFinite).
  void setGivenArray(const std::string& name, FloatArray data, Shape shape, NonFinite nonFinite);
  // A tensor lent by the binding for this call (Value::borrowed): `count` floats at `data`.
  void setBorrowedArray(const std::string& name, const float* data, size_t count, Shape shape);
  // A tensor the caller keeps, read through `reader` (Value::reader): `count` floats.
  void setReadArray(const std::string& name, std::shared_ptr<const TensorReader> reader, size_t count, Shape shape);
  // Whether any tensor is borrowed (Value::borrowed).
  bool lends() const;
  // The float64 values of an array already set (Value::wide).
  void setWide(const std::string& name, std::vector<double> values);
  void erase(const std::string& name) { values_.erase(name); }

  bool has(const std::string& name) const { return values_.count(name) != 0; }
  const Value* find(const std::string& name) const;
  std::vector<std::string> names() const;

  // Accessors validated against metadata (default, range, integer-ness, choices).
  double number(const ParamInfo& info) const;
  int64_t integer(const ParamInfo& info) const;
  bool boolean(const ParamInfo& info) const;
  std::string choice(const ParamInfo& info) const;
  // A scalar (same for every head) or a list of `heads` values; `fallback` when absent.
  std::vector<double> perHead(const ParamInfo& info, int64_t heads, const std::vector<double>& fallback) const;
  // An array parameter; nullptr when absent. Checks the element count when expected >= 0.
  const Value* array(const std::string& name, int64_t expected = -1, const std::string& shapeText = "") const;
  // An array whose -Infinity entries mean "masked" (an additive bias or mask); NaN and +Infinity are
  // refused as array() refuses every non-finite value.
  const Value* maskedArray(const std::string& name) const;
  // The check of maskedArray() over `count` floats of the array `name` (a part of it, when the
  // caller scans a borrowed tensor block by block as it reads it).
  void checkMasked(const std::string& name, const float* data, size_t count) const;
  std::vector<std::string> strings(const std::string& name, const std::vector<std::string>& fallback) const;

  // Plain required numbers without metadata (sizes such as n, d).
  int64_t requiredInteger(const std::string& name, double min, double max) const;

  std::string argument(const std::string& name) const { return where_ + ": " + name; }

  // The multiply-adds this call may do (ops/operations.cpp checks it before dispatch): NaN (the
  // default) for the call's own synchronous budget; Infinity where blocking is fine (the worker,
  // rp.unbounded()).
  double workBudget() const { return workBudget_; }
  void setWorkBudget(double budget) { workBudget_ = budget; }

 private:
  std::string where_;
  std::map<std::string, Value> values_;
  double workBudget_ = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::shared_ptr<const TensorReader>> readers_;  // those of setReadArray
};

// "1.5", "'abc'", "true", "a tensor of shape [2, 3]": the "got ..." part of an error message.
std::string describeValue(const Value& value);

// The one check of option names: a RangeError "<where>: unknown parameter '<name>'; did you mean
// 'x'? allowed: 'a', 'b', …" (throwUnknownName, sorted) for the first given name that is not in
// `allowed`. `alsoListed` are names the JS entry takes before the core sees the options (scheme,
// params, view): the list shows them, so that a misspelt `sheme` suggests `scheme`.
void checkKnownNames(const Params& params, const std::set<std::string>& allowed,
                     const std::set<std::string>& alsoListed = {});

// Validates a parameter that is present against its metadata (type, range, integer-ness, choices,
// finite array entries) whether or not the call then reads it; absent parameters pass.
void validateParam(const Params& params, const ParamInfo& info);

}  // namespace relpos
