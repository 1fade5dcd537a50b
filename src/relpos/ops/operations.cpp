#include "relpos/ops/operations.hpp"

#include <algorithm>
#include <set>

#include "relpos/base/common_params.hpp"
#include "relpos/base/describe.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/json.hpp"
#include "relpos/ops/attention.hpp"
#include "relpos/schemes/registry.hpp"
#include "relpos/schemes/rotary_family.hpp"

namespace relpos {

const std::vector<Operation>& operations() {
  static const std::vector<Operation> table = [] {
    const OpOption n{"n", "number of queries (and keys, unless m says otherwise)", &common::n()};
    const OpOption d{"d", "head dimension", &common::d(), true};
    // Every scheme's scores take the head width (bias schemes do not depend on it), so one call
    // serves every scheme.
    const OpOption headWidth{"d", "head dimension (bias schemes' scores do not depend on it)", &common::d()};
    const OpOption heads{"heads", "number of heads", &common::heads()};
    const OpOption causal{"causal", "mask keys after the query", &common::causal()};
    const OpOption output{"output", "an alternative result the scheme offers (rp.schemes lists its choices)", nullptr,
                          true};
    // The query-key grid of bias, buckets and scores (schemes/grid.hpp).
    const OpOption m{"m", "number of keys (KV cache: the n queries are the last n of them)", &common::m()};
    const OpOption queryOffset{"queryOffset", "position of query row 0 (default m - n)", &common::queryOffset()};
    const OpOption queryPositions{"queryPositions", "explicit query positions [n] or [batch, n]",
                                  &common::queryPositions()};
    const OpOption keyPositions{"keyPositions", "explicit key positions [m] or [batch, m]", &common::keyPositions()};
    const OpOption positions{"positions", "positions of the rows / tokens", &rotaryParams().positions, true};
    std::vector<Operation> ops(7);
    ops[0] = {"encoding", "absolute position vectors [n, d]", &Scheme::encoding, {n, d, positions, output}};
    ops[1] = {"bias",
              "the additive logit bias B [heads, n, m]",
              &Scheme::bias,
              {n, m, queryOffset, queryPositions, keyPositions, heads, causal, output}};
    ops[2] = {"buckets",
              "bucket / clipped-distance index map [n, m] (Int32)",
              &Scheme::buckets,
              {n, m, queryOffset, queryPositions, keyPositions, causal, output}};
    ops[3] = {"frequencies",
              "rotary inverse frequencies [rotaryDim/2] and the attention factor",
              &Scheme::frequencies,
              {{"d", "head width (the rotated dims: rotaryDim, default d)", nullptr, true}, positions}};
    ops[3].returns = {{"invFreq", "array"}, {"attentionFactor", "number"}};
    ops[4] = {"rotate",
              "rows of x [n, heads*d] rotated by position, every head",
              &Scheme::rotate,
              {{"x", "rows [n, heads*d]"},
               positions,
               heads,
               {"d", "head width (a check: x and heads fix it)", nullptr, true},
               {"startIndex", "where the rotated dims start in each head", &rotaryParams().startIndex, true},
               {"layout", "pair layout"},
               {"rotaryDim", "rotated dims"}}};
    ops[4].input = "x";
    ops[4].defaultScheme = "rope";
    ops[5] = {"scores",
              "the position-only logit matrix [heads, n, m]",
              &Scheme::scores,
              {n,
               m,
               queryOffset,
               positions,
               queryPositions,
               keyPositions,
               headWidth,
               heads,
               {"q", "probe or content queries", nullptr, true},
               {"k", "probe or content keys", nullptr, true},
               {"offsets", "relative offsets (output 'offsets')", nullptr, true},
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

// The calls of the scheme that parameter `p` acts on, in table order.
std::vector<std::string> actingCalls(const Scheme& scheme, const ParamInfo& p) {
  std::vector<std::string> calls;
  if (p.restates) return calls;
  for (const auto& op : operations()) {
    if (!offers(scheme, op)) continue;
    if (p.affects.empty() || std::find(p.affects.begin(), p.affects.end(), op.name) != p.affects.end()) {
      calls.push_back(op.name);
    }
  }
  return calls;
}

// A scheme parameter that acts on some calls only and is refused elsewhere (ParamInfo::onlyThere),
// unless the call has an option of that name itself (attention's heads, q, k).
void refuseElsewhere(const Operation& op, const Scheme& scheme, const Params& params) {
  for (const auto& p : scheme.params) {
    if (!p.onlyThere || !params.has(p.name)) continue;
    if (std::find(p.affects.begin(), p.affects.end(), op.name) != p.affects.end()) continue;
    if (std::any_of(op.options.begin(), op.options.end(), [&](const OpOption& o) { return o.name == p.name; })) {
      continue;
    }
    std::string calls;
    for (const auto& c : actingCalls(scheme, p)) calls += (calls.empty() ? "rp." : ", rp.") + c;
    throwRange(params.where() + ": " + p.name + " applies to " + calls + " of '" + scheme.id + "', not to rp." +
               op.name);
  }
}

// A call option only some schemes read (OpOption::perScheme), given to one that does not.
void refuseUnread(const Operation& op, const Scheme& scheme, const Params& params) {
  const auto listed = scheme.reads.find(op.name);
  for (const auto& o : op.options) {
    if (!o.perScheme || !params.has(o.name) || scheme.hasParam(o.name)) continue;
    if (listed != scheme.reads.end() &&
        std::find(listed->second.begin(), listed->second.end(), o.name) != listed->second.end()) {
      continue;
    }
    throwRange(params.where() + ": '" + scheme.id + "' takes no " + o.name + " in rp." + op.name + " (" + o.doc + ")");
  }
}

}  // namespace

CallNotes callNotes(const std::string& op, const std::string& id, const Params& params) {
  CallNotes notes;
  if (id.empty()) return notes;
  const Scheme& scheme = findScheme("relpos." + op, id);
  if (scheme.syntheticDefaults) {
    notes.synthetic = scheme.syntheticDefaults(scheme, params, op);
  } else {
    for (const auto& p : scheme.params) {
      if (!p.synthetic || params.has(p.name)) continue;
      const std::vector<std::string> calls = actingCalls(scheme, p);
      if (std::find(calls.begin(), calls.end(), op) != calls.end()) notes.synthetic.push_back(p.name);
    }
  }
  const bool view = op == "bias" || op == "scores";
  notes.sameForEveryHead =
      view && !scheme.perHead && params.has(common::heads().name) && params.integer(common::heads()) > 1;
  return notes;
}

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
    refuseElsewhere(operation, *scheme, params);
    if (operation.hook) refuseUnread(operation, *scheme, params);
  }
  if (!operation.hook) return attention(params, scheme);
  // The call's own sizes and flags, also where this scheme ignores them.
  for (const auto& o : operation.options) {
    if (o.checked && !scheme->hasParam(o.name)) validateParam(params, *o.checked);
  }
  return (scheme->*operation.hook)(*scheme, params);
}

namespace {

// What a page may ask of a scheme before calling it: the capabilities of docs/architecture.md, with
// shift-invariance judged at the scheme's defaults and an even head width of 64 (a parameter such as
// ALiBi's keyPosition form, or an odd sinusoidal width, can still break it).
JsonValue capabilitiesJson(const Scheme& s) {
  const bool shiftInvariant = s.shiftInvariant && s.shiftInvariant(Params("relpos.schemes"), 64);
  return jsonObject({{"shiftInvariant", JsonValue::makeBoolean(shiftInvariant)},
                     {"closedForm", JsonValue::makeBoolean(s.closedForm != nullptr)},
                     {"lab", JsonValue::makeBoolean(s.lab.make != nullptr)},
                     {"perHead", JsonValue::makeBoolean(s.perHead)}});
}

}  // namespace

std::string catalogueJson() {
  JsonValue all = JsonValue::makeArray();
  for (const auto& s : catalogue()) {
    std::vector<std::string> calls;
    for (const auto& op : operations()) {
      if (offers(s, op)) calls.push_back(op.name);
    }
    JsonValue params = JsonValue::makeObject();
    for (const auto& p : s.params) {
      JsonValue described = describeParam(p);
      described.set("affects", jsonStrings(actingCalls(s, p)));
      described.set("synthetic", JsonValue::makeBoolean(p.synthetic));
      params.set(p.name, std::move(described));
    }
    all.push(jsonObject({{"id", JsonValue::makeString(s.id)},
                         {"family", JsonValue::makeString(s.family)},
                         {"name", JsonValue::makeString(s.name)},
                         {"cite", JsonValue::makeString(s.cite)},
                         {"description", JsonValue::makeString(s.description)},
                         {"calls", jsonStrings(calls)},
                         {"capabilities", capabilitiesJson(s)},
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
