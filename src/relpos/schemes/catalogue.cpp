#include "relpos/schemes/catalogue.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/json.hpp"
#include "relpos/ops/attention.hpp"

namespace relpos {

namespace {

std::vector<Scheme> buildCatalogue() {
  std::vector<Scheme> all;
  for (auto family : {absoluteSchemes, relativeVectorSchemes, biasSchemes, rotarySchemes, contextualSchemes}) {
    for (auto& s : family()) all.push_back(std::move(s));
  }
  return all;
}

// Options every scheme accepts for a given call, besides its own parameters.
const std::set<std::string>& opOptions(const std::string& op) {
  static const std::map<std::string, std::set<std::string>> options = {
      {"encoding", {"n", "d", "output"}},
      {"bias", {"n", "heads", "causal", "output"}},
      {"buckets", {"n", "output"}},
      {"frequencies", {"d", "positions", "seqLen"}},
      {"rotate", {"x", "positions", "layout", "rotaryDim", "d"}},
      {"scores", {"n", "d", "heads", "q", "k", "offsets", "output", "causal"}},
      {"attention", {"q", "k", "v", "heads", "mode", "alpha", "beta", "causal", "queryOffset", "B", "P"}},
  };
  auto it = options.find(op);
  if (it == options.end()) throwRange("relpos: unknown operation '" + op + "'");
  return it->second;
}

OpFn opFunction(const Scheme& s, const std::string& op) {
  if (op == "encoding") return s.encoding;
  if (op == "bias") return s.bias;
  if (op == "buckets") return s.buckets;
  if (op == "frequencies") return s.frequencies;
  if (op == "rotate") return s.rotate;
  if (op == "scores") return s.scores;
  return nullptr;
}

std::vector<std::string> supportedIds(const std::string& op) {
  std::vector<std::string> ids;
  for (const auto& s : catalogue()) {
    if (opFunction(s, op)) ids.push_back(s.id);
  }
  return ids;
}

std::string joinQuoted(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "'" : ", '") + item + "'";
  return out;
}

void checkKnownNames(const std::string& where, const Params& params, const std::set<std::string>& allowed) {
  for (const auto& name : params.names()) {
    if (!allowed.count(name)) {
      std::vector<std::string> sorted(allowed.begin(), allowed.end());
      throwRange(where + ": unknown parameter '" + name + "'; allowed: " + joinQuoted(sorted));
    }
  }
}

JsonValue finiteOrNull(double v) {
  return std::isfinite(v) ? JsonValue::makeNumber(v) : JsonValue();
}

const char* typeName(ParamType t) {
  switch (t) {
    case ParamType::Number:
      return "number";
    case ParamType::Integer:
      return "integer";
    case ParamType::Boolean:
      return "boolean";
    case ParamType::Choice:
      return "choice";
    case ParamType::PerHead:
      return "perHead";
    case ParamType::Array:
      return "array";
  }
  return "number";
}

}  // namespace

const std::vector<Scheme>& catalogue() {
  static const std::vector<Scheme> schemes = buildCatalogue();
  return schemes;
}

const Scheme& findScheme(const std::string& where, const std::string& id) {
  for (const auto& s : catalogue()) {
    if (s.id == id) return s;
  }
  std::vector<std::string> ids;
  for (const auto& s : catalogue()) ids.push_back(s.id);
  throwRange(where + ": unknown scheme id '" + id + "'; known ids: " + joinQuoted(ids));
}

Result compute(const std::string& op, const std::string& id, const Params& params) {
  const std::string where = "relpos." + op;
  std::set<std::string> allowed = opOptions(op);
  if (op == "attention") {
    const Scheme* scheme = id.empty() ? nullptr : &findScheme(where, id);
    if (scheme) {
      for (const auto& p : scheme->params) allowed.insert(p.name);
    }
    checkKnownNames(where, params, allowed);
    if (scheme) {
      for (const auto& p : scheme->params) validateParam(params, p);
    }
    return attention(params, scheme);
  }
  const Scheme& scheme = findScheme(where, id);
  OpFn fn = opFunction(scheme, op);
  if (!fn) {
    throwRange(where + ": scheme '" + id + "' has no " + op + "; schemes with one: " + joinQuoted(supportedIds(op)));
  }
  for (const auto& p : scheme.params) allowed.insert(p.name);
  checkKnownNames(where, params, allowed);
  // Every parameter given is checked against rp.schemes, also those this call does not read.
  for (const auto& p : scheme.params) validateParam(params, p);
  // The call's own sizes and flags, also where this scheme ignores them.
  for (const ParamInfo* p : {&common::n(), &common::d(), &common::heads(), &common::causal()}) {
    const bool own =
        std::any_of(scheme.params.begin(), scheme.params.end(), [&](const ParamInfo& q) { return q.name == p->name; });
    if (!own && opOptions(op).count(p->name)) validateParam(params, *p);
  }
  return fn(params);
}

namespace {

JsonValue paramJson(const ParamInfo& p) {
  JsonValue out = JsonValue::makeObject();
  out.set("type", JsonValue::makeString(typeName(p.type)));
  const std::vector<std::string> choices = choiceList(p);
  if (p.type == ParamType::Boolean) {
    out.set("default", JsonValue::makeBoolean(p.def != 0));
  } else if (p.type == ParamType::Choice) {
    out.set("default", JsonValue::makeString(choices.front()));
  } else {
    out.set("default", finiteOrNull(p.def));
  }
  out.set("min", finiteOrNull(p.min));
  out.set("max", finiteOrNull(p.max));
  out.set("exclusiveMin", JsonValue::makeBoolean(p.minOpen));
  out.set("integer", JsonValue::makeBoolean(p.type == ParamType::Integer));
  if (p.type == ParamType::Choice) {
    JsonValue list = JsonValue::makeArray();
    for (const auto& c : choices) list.push(JsonValue::makeString(c));
    out.set("choices", std::move(list));
  }
  out.set("doc", JsonValue::makeString(p.doc));
  return out;
}

}  // namespace

std::string catalogueJson() {
  JsonValue all = JsonValue::makeArray();
  for (const auto& s : catalogue()) {
    JsonValue entry = JsonValue::makeObject();
    entry.set("id", JsonValue::makeString(s.id));
    entry.set("family", JsonValue::makeString(s.family));
    entry.set("name", JsonValue::makeString(s.name));
    entry.set("cite", JsonValue::makeString(s.cite));
    entry.set("description", JsonValue::makeString(s.description));
    JsonValue calls = JsonValue::makeArray();
    for (const char* op : {"encoding", "bias", "buckets", "frequencies", "rotate", "scores"}) {
      if (opFunction(s, op)) calls.push(JsonValue::makeString(op));
    }
    if (s.term != AttentionTerm::None) calls.push(JsonValue::makeString("attention"));
    entry.set("calls", std::move(calls));
    JsonValue params = JsonValue::makeObject();
    for (const auto& p : s.params) params.set(p.name, paramJson(p));
    entry.set("params", std::move(params));
    all.push(std::move(entry));
  }
  return toJson(all);
}

}  // namespace relpos
