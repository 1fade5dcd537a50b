// The public calls on schemes as one table — rp.encoding, rp.bias, rp.buckets, rp.frequencies,
// rp.rotate, rp.scores and rp.attention: their names, the options each takes besides the scheme's
// own parameters (with their types, ranges and docs), how much work a call does, and what they
// return. compute() serves the binding, catalogueJson() is rp.schemes and operationsJson() hands the
// table to the JS entry, which builds its methods from it (and scripts/gen-types.mjs its types).
#pragma once
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "relpos/base/params.hpp"
#include "relpos/base/tensor.hpp"
#include "relpos/ops/attention.hpp"
#include "relpos/schemes/scheme.hpp"

namespace relpos {

// How a call's option is taken beyond the call itself (OpOption::roles).
struct Roles {
  // How rp.kvCache's step (cache.attention(q, options)) takes it: given at each step, held by the
  // cache (k, v, axes: a step naming it is refused), or fixed by the cache's shape (heads: a step
  // may repeat the cache's value only).
  enum class Cache { Step, Held, Shape };
  bool layer = false;      // a layer group (rp.fromConfig(...).groups, rp.presets[...].groups) sets it
  bool queryRows = false;  // indexed by query row: the rows [first, end) of a call take its rows
  Cache cache = Cache::Step;
  bool worker = true;  // relpos/worker carries it (false: the page's array or view cannot cross)
  bool pool = true;    // a call split over workers (`workers`) takes it
  // A scheme parameter of this name means the same (heads, causal, positions); otherwise a scheme
  // that has a parameter of this name takes it under `params` only (operations.cpp, callValueKey).
  bool sameInSchemes = false;
};

// One option of a call (besides the scheme's parameters), described like a scheme parameter.
struct OpOption {
  enum class Check {
    Always,   // compute() validates it against `info` (when the scheme does not declare the name itself)
    ByCall,   // the call reads and checks it itself (tensors whose shape depends on the others)
    Binding,  // taken by the JS entry (scheme, params, view) and never sent to the core; listed in errors
  };
  OpOption(ParamInfo info, Check check = Check::Always, bool required = false)
      : info(std::move(info)), check(check), required(required) {}
  // An option known only by name and doc (no type): rp.operations shows type 'unknown'.
  OpOption(const char* name, const char* doc) : info(stringParam(name, doc)), untyped(true) {}

  ParamInfo info;
  Check check = Check::Always;
  bool required = false;  // the call cannot do without it (rp.operations and the generated types say so)
  bool untyped = false;
  // Read only by the schemes that list it in Scheme::reads for this call (or own a parameter of that
  // name); refused by the others.
  bool perScheme = false;
  // May come as a tensor the caller filled in place (rp.alloc), which the call reads without a copy
  // (Value::borrowed); the JS entry lends no other option (bindings/heap-tensor.js, IN_PLACE).
  bool inPlace = false;
  // Given as { shape, data }, read block by block from the caller's own array as the call needs it
  // (Value::reader), never copied whole into the heap: the binding reads no other option this way.
  bool streamed = false;
  // Where else the option is taken: rp.operations lists these, and scripts/gen-types.mjs generates
  // from them bindings/option-table.js (the JS option reader's, the KV cache's, the worker's and the
  // pool's lists), the TypeScript types and the option tables of docs/api.md.
  Roles roles;
  const std::string& name() const { return info.name; }
};

// What a call would cost with these (validated) options: multiply-adds, and the values of its
// result (0: not known before the call, which then checks it itself). compute() refuses a result
// over kMaxResultElements, then work over the caller's budget (Params::workBudget), before dispatch:
// a result too big for any budget is reported as such, not as work for the worker.
struct Cost {
  double work = 0;
  double results = 0;
};
using WorkFn = Cost (*)(const Params&, const Scheme*);
// A check across options that needs no computation (e.g. a mode without the term it reads).
using PrecheckFn = void (*)(const Params&, const Scheme*);

struct Operation {
  Operation() = default;
  Operation(std::string name, std::string doc, OpFn Scheme::*hook, std::vector<OpOption> options, WorkFn work)
      : name(std::move(name)), doc(std::move(doc)), hook(hook), options(std::move(options)), work(work) {}

  std::string name;
  std::string doc;
  OpFn Scheme::*hook = nullptr;  // the scheme's function for it; nullptr for attention (every scheme with a term)
  std::vector<OpOption> options;
  WorkFn work = nullptr;
  // Multiply-adds one synchronous call may do: kSyncScalarWorkBudget for scalar loops, or
  // kSyncWorkBudget where the work runs in the SIMD kernels (attention).
  double budget = kSyncScalarWorkBudget;
  PrecheckFn precheck = nullptr;
  // The JS call that runs this operation as a job beyond the budget (progress, cancel), if any.
  std::string job;
  // How the JS method takes its arguments and shapes its result: (id, options) by default, or
  // (input, { scheme = defaultScheme, ... }) when `input` names the tensor argument; `returns` maps
  // result keys to 'tensor' | 'array' | 'number' (a single 'tensor' entry is returned as is).
  std::string input;
  std::string defaultScheme;
  std::vector<std::pair<std::string, std::string>> returns = {{"data", "tensor"}};
};

// Every operation, in the order rp.schemes lists a scheme's calls.
const std::vector<Operation>& operations();

// The single entry point of the public edge: op is an operation name. Checks that the scheme
// supports the op and that every parameter name is known, validates every given parameter against
// rp.schemes and the table, checks the work against the call's budget (or params.workBudget() when
// set), then computes. `id` may be empty for attention with a given B / P. `sink` (attention only)
// receives the weights block by block instead of the result holding them.
// `keys` (attention only): a KV cache's packed keys (ops/decode.hpp), or null.
Result compute(const std::string& op, const std::string& id, const Params& params, WeightsSink* sink = nullptr,
               PackedKeySource* keys = nullptr);

// The checks of compute() before any cost is counted or work done (names, values, cross-option
// prechecks): the scheme of the call (nullptr for attention without one). A job of the same call
// runs these and no work budget. `extra`: names allowed besides the call's options and the scheme's
// parameters (e.g. a job's "scheme").
const Scheme* checkedScheme(const std::string& op, const std::string& id, const Params& params,
                            const std::set<std::string>& extra = {});

// The key under which rp.attention's own option `info` arrives when `scheme` has a parameter of the
// same name with another meaning (sin-freq's alpha beside mixed mode's alpha): "call.<name>", the
// scheme's parameter keeping the plain name (the JS entry sends `params` entries so); else the name.
std::string callValueKey(const Scheme* scheme, const ParamInfo& info);

// The multiply-adds compute(op, id, params) would do (0 for an unknown op or scheme).
double workOf(const std::string& op, const std::string& id, const Params& params);

// What a call's result says besides its tensors: the learned inputs it filled with synthetic
// defaults (ParamInfo::synthetic), and whether a bias / score view asked for several heads got the
// one map that serves every head.
struct CallNotes {
  std::vector<std::string> synthetic;
  bool sameForEveryHead = false;
  std::vector<std::string> notes;  // what the caller should know about how the call ran (docs/api.md)
};
CallNotes callNotes(const std::string& op, const std::string& id, const Params& params);

// rp.schemes as JSON text (the binding hands it to JS as is).
std::string catalogueJson();

// The operation table as JSON text: [{ name, doc, options: [{ name, doc, type, default, min, max,
// exclusiveMin, integer, choices?, check, required, inPlace, streamed }], input?, defaultScheme?,
// job?, budget, returns }].
std::string operationsJson();

}  // namespace relpos
