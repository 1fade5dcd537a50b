#include "relpos/ops/operations.hpp"

#include <set>

#include "relpos/base/common_params.hpp"
#include "relpos/base/describe.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/json.hpp"
#include "relpos/ops/attention.hpp"
#include "relpos/schemes/registry.hpp"

namespace relpos {

const std::vector<Operation>& operations() {
  static const std::vector<Operation> table = [] {
    const OpOption n{"n", "sequence length", &common::n()};
    const OpOption d{"d", "head dimension", &common::d()};
    const OpOption heads{"heads", "number of heads", &common::heads()};
    const OpOption causal{"causal", "mask keys after the query", &common::causal()};
    const OpOption output{"output", "an alternative result the scheme offers (rp.schemes lists its choices)"};
    std::vector<Operation> ops(7);
    ops[0] = {"encoding", "absolute position vectors [n, d]", &Scheme::encoding, {n, d, output}};
    ops[1] = {"bias", "the additive logit bias B [heads, n, n]", &Scheme::bias, {n, heads, causal, output}};
    ops[2] = {"buckets", "bucket / clipped-distance index map [n, n] (Int32)", &Scheme::buckets, {n, output}};
    ops[3] = {"frequencies",
              "rotary inverse frequencies [d/2] and the attention factor",
              &Scheme::frequencies,
              {{"d", "rotary dimension"}, {"positions", "positions the call covers"}, {"seqLen", "sequence length"}}};
    ops[3].returns = {{"invFreq", "array"}, {"attentionFactor", "number"}};
    ops[4] = {"rotate",
              "rows of x rotated by position [n, d]",
              &Scheme::rotate,
              {{"x", "rows [n, d]"},
               {"positions", "positions of the rows"},
               {"layout", "pair layout"},
               {"rotaryDim", "rotated dims"},
               {"d", "rotary width"}}};
    ops[4].input = "x";
    ops[4].defaultScheme = "rope";
    ops[5] = {"scores",
              "the position-only logit matrix [heads, n, n]",
              &Scheme::scores,
              {n,
               d,
               heads,
               {"q", "probe or content queries"},
               {"k", "probe or content keys"},
               {"offsets", "relative offsets (output 'offsets')"},
               output,
               causal}};
    ops[6] = {"attention",
              "attention weights [heads, n, m] and output [n, heads*dv] with a positional term",
              nullptr,
              {{"q", "queries [n, heads*d]"},
               {"k", "keys [m, heads*d]"},
               {"v", "values [m, heads*dv]"},
               {"heads", "number of heads"},
               {"mode", "explicit | implicit | mixed"},
               {"alpha", "mixed mode: weight of B"},
               {"beta", "mixed mode: weight of Q P^T"},
               {"causal", "mask keys after the query"},
               {"queryOffset", "position of query row 0"},
               {"B", "a given bias [n, m] or [heads, n, m]"},
               {"P", "given position vectors [m, d] or [n, m, d]"}}};
    ops[6].returns = {{"weights", "tensor"}, {"output", "tensor"}};
    return ops;
  }();
  return table;
}

namespace {

const Operation& findOperation(const std::string& op) {
  for (const auto& o : operations()) {
    if (o.name == op) return o;
  }
  throwRange("relpos: unknown operation '" + op + "'");
}

bool offers(const Scheme& scheme, const Operation& op) {
  return op.hook ? scheme.*op.hook != nullptr : scheme.term != AttentionTerm::Unsupported;
}

// The names a call accepts: its own options and the scheme's parameters.
std::set<std::string> allowedNames(const Operation& op, const Scheme* scheme) {
  std::set<std::string> allowed;
  for (const auto& o : op.options) allowed.insert(o.name);
  if (scheme) {
    for (const auto& p : scheme->params) allowed.insert(p.name);
  }
  return allowed;
}

}  // namespace

Result compute(const std::string& op, const std::string& id, const Params& params) {
  const Operation& operation = findOperation(op);
  const std::string where = "relpos." + op;
  const Scheme* scheme = id.empty() && !operation.hook ? nullptr : &findScheme(where, id);
  if (scheme && !offers(*scheme, operation)) {
    std::vector<std::string> ids;
    for (const auto& s : catalogue()) {
      if (offers(s, operation)) ids.push_back(s.id);
    }
    throwRange(where + ": scheme '" + id + "' has no " + op + "; schemes with one: " + quotedList(ids));
  }
  checkKnownNames(params, allowedNames(operation, scheme));
  // Every parameter given is checked against rp.schemes, also those this call does not read.
  if (scheme) {
    for (const auto& p : scheme->params) validateParam(params, p);
  }
  if (!operation.hook) return attention(params, scheme);
  // The call's own sizes and flags, also where this scheme ignores them.
  for (const auto& o : operation.options) {
    if (o.checked && !scheme->hasParam(o.name)) validateParam(params, *o.checked);
  }
  return (scheme->*operation.hook)(*scheme, params);
}

std::string catalogueJson() {
  JsonValue all = JsonValue::makeArray();
  for (const auto& s : catalogue()) {
    std::vector<std::string> calls;
    for (const auto& op : operations()) {
      if (offers(s, op)) calls.push_back(op.name);
    }
    JsonValue params = JsonValue::makeObject();
    for (const auto& p : s.params) params.set(p.name, describeParam(p));
    all.push(jsonObject({{"id", JsonValue::makeString(s.id)},
                         {"family", JsonValue::makeString(s.family)},
                         {"name", JsonValue::makeString(s.name)},
                         {"cite", JsonValue::makeString(s.cite)},
                         {"description", JsonValue::makeString(s.description)},
                         {"calls", jsonStrings(calls)},
                         {"params", std::move(params)}}));
  }
  return toJson(all);
}

std::string operationsJson() {
  JsonValue all = JsonValue::makeArray();
  for (const auto& op : operations()) {
    JsonValue options = JsonValue::makeArray();
    for (const auto& o : op.options) {
      options.push(jsonObject({{"name", JsonValue::makeString(o.name)}, {"doc", JsonValue::makeString(o.doc)}}));
    }
    JsonValue returns = JsonValue::makeObject();
    for (const auto& [key, kind] : op.returns) returns.set(key, JsonValue::makeString(kind));
    JsonValue entry = jsonObject({{"name", JsonValue::makeString(op.name)},
                                  {"doc", JsonValue::makeString(op.doc)},
                                  {"options", std::move(options)},
                                  {"returns", std::move(returns)}});
    if (!op.input.empty()) entry.set("input", JsonValue::makeString(op.input));
    if (!op.defaultScheme.empty()) entry.set("defaultScheme", JsonValue::makeString(op.defaultScheme));
    all.push(std::move(entry));
  }
  return toJson(all);
}

}  // namespace relpos
