// The public calls on schemes as one table — rp.encoding, rp.bias, rp.buckets, rp.frequencies,
// rp.rotate, rp.scores and rp.attention: their names, the options each takes besides the scheme's
// own parameters, and what they return. compute() serves the binding, catalogueJson() is rp.schemes
// and operationsJson() hands the table to the JS entry, which builds its methods from it.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "relpos/base/params.hpp"
#include "relpos/base/tensor.hpp"
#include "relpos/schemes/scheme.hpp"

namespace relpos {

// One option of a call (besides the scheme's parameters). `checked`: the shared definition it is
// validated against when the scheme does not declare the name itself.
struct OpOption {
  std::string name;
  std::string doc;
  const ParamInfo* checked = nullptr;
  // Read only by the schemes that list it in Scheme::reads for this call (or own a parameter of that
  // name); refused by the others.
  bool perScheme = false;
};

struct Operation {
  Operation() = default;
  Operation(std::string name, std::string doc, OpFn Scheme::*hook, std::vector<OpOption> options)
      : name(std::move(name)), doc(std::move(doc)), hook(hook), options(std::move(options)) {}

  std::string name;
  std::string doc;
  OpFn Scheme::*hook = nullptr;  // the scheme's function for it; nullptr for attention (every scheme with a term)
  std::vector<OpOption> options;
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
// rp.schemes, then computes. `id` may be empty for attention with a given B / P.
Result compute(const std::string& op, const std::string& id, const Params& params);

// What a call's result says besides its tensors: the learned inputs it filled with synthetic
// defaults (ParamInfo::synthetic), and whether a bias / score view asked for several heads got the
// one map that serves every head.
struct CallNotes {
  std::vector<std::string> synthetic;
  bool sameForEveryHead = false;
};
CallNotes callNotes(const std::string& op, const std::string& id, const Params& params);

// rp.schemes as JSON text (the binding hands it to JS as is).
std::string catalogueJson();

// The operation table as JSON text: [{ name, doc, options: [{ name, doc }], input?, defaultScheme?, returns }].
std::string operationsJson();

}  // namespace relpos
