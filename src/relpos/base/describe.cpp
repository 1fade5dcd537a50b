#include "relpos/base/describe.hpp"

#include <cmath>

namespace relpos {

namespace {

JsonValue finiteOrNull(double v) {
  return std::isfinite(v) ? JsonValue::makeNumber(v) : JsonValue();
}

// In the order of ParamType.
const char* const kTypeNames[] = {"number", "integer", "boolean", "choice", "perHead", "array", "string", "options"};

}  // namespace

JsonValue describeParam(const ParamInfo& p) {
  JsonValue out = JsonValue::makeObject();
  out.set("type", JsonValue::makeString(kTypeNames[static_cast<int>(p.type)]));
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
  if (p.type == ParamType::Choice || (p.listOfStrings && !p.choices.empty())) {
    JsonValue list = JsonValue::makeArray();
    for (const auto& c : choices) list.push(JsonValue::makeString(c));
    out.set("choices", std::move(list));
  }
  // An array of strings (DeBERTa's posAttType) rather than of numbers.
  if (p.listOfStrings) out.set("items", JsonValue::makeString("string"));
  out.set("doc", JsonValue::makeString(p.doc));
  return out;
}

}  // namespace relpos
