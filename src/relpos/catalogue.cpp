#include "relpos/catalogue.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "relpos/attention.hpp"
#include "relpos/errors.hpp"

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

void jsonString(std::ostringstream& out, const std::string& text) {
  out << '"';
  for (char c : text) {
    switch (c) {
      case '"': out << "\\\""; break;
      case '\\': out << "\\\\"; break;
      case '\n': out << "\\n"; break;
      default: out << c;
    }
  }
  out << '"';
}

void jsonNumber(std::ostringstream& out, double v) {
  if (std::isnan(v) || std::isinf(v)) {
    out << "null";
  } else {
    out << formatNumber(v);
  }
}

const char* typeName(ParamType t) {
  switch (t) {
    case ParamType::Number: return "number";
    case ParamType::Integer: return "integer";
    case ParamType::Boolean: return "boolean";
    case ParamType::Choice: return "choice";
    case ParamType::PerHead: return "perHead";
    case ParamType::Array: return "array";
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
    return attention(params, scheme);
  }
  const Scheme& scheme = findScheme(where, id);
  OpFn fn = opFunction(scheme, op);
  if (!fn) {
    throwRange(where + ": scheme '" + id + "' has no " + op + "; schemes with one: " + joinQuoted(supportedIds(op)));
  }
  for (const auto& p : scheme.params) allowed.insert(p.name);
  checkKnownNames(where, params, allowed);
  return fn(params);
}

std::string catalogueJson() {
  std::ostringstream out;
  out << '[';
  bool firstScheme = true;
  for (const auto& s : catalogue()) {
    if (!firstScheme) out << ',';
    firstScheme = false;
    out << "{\"id\":";
    jsonString(out, s.id);
    out << ",\"family\":";
    jsonString(out, s.family);
    out << ",\"name\":";
    jsonString(out, s.name);
    out << ",\"cite\":";
    jsonString(out, s.cite);
    out << ",\"description\":";
    jsonString(out, s.description);
    out << ",\"calls\":[";
    bool firstCall = true;
    for (const char* op : {"encoding", "bias", "buckets", "frequencies", "rotate", "scores"}) {
      if (!opFunction(s, op)) continue;
      out << (firstCall ? "" : ",") << '"' << op << '"';
      firstCall = false;
    }
    if (s.term != AttentionTerm::None) {
      out << (firstCall ? "" : ",") << "\"attention\"";
    }
    out << "],\"params\":{";
    bool firstParam = true;
    for (const auto& p : s.params) {
      if (!firstParam) out << ',';
      firstParam = false;
      jsonString(out, p.name);
      out << ":{\"type\":\"" << typeName(p.type) << "\",\"default\":";
      if (p.type == ParamType::Boolean) {
        out << (p.def != 0 ? "true" : "false");
      } else if (p.type == ParamType::Choice) {
        jsonString(out, p.choices.substr(0, p.choices.find('|')));
      } else {
        jsonNumber(out, p.def);
      }
      out << ",\"min\":";
      jsonNumber(out, p.min);
      out << ",\"max\":";
      jsonNumber(out, p.max);
      out << ",\"exclusiveMin\":" << (p.minOpen ? "true" : "false");
      out << ",\"integer\":" << (p.type == ParamType::Integer ? "true" : "false");
      if (p.type == ParamType::Choice) {
        out << ",\"choices\":[";
        std::string rest = p.choices;
        bool firstChoice = true;
        size_t start = 0;
        while (start <= rest.size()) {
          size_t bar = rest.find('|', start);
          if (bar == std::string::npos) bar = rest.size();
          out << (firstChoice ? "" : ",");
          jsonString(out, rest.substr(start, bar - start));
          firstChoice = false;
          start = bar + 1;
        }
        out << ']';
      }
      out << ",\"doc\":";
      jsonString(out, p.doc);
      out << '}';
    }
    out << "}}";
  }
  out << ']';
  return out.str();
}

}  // namespace relpos
