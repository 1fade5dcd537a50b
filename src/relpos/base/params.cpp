#include "relpos/base/params.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "relpos/base/errors.hpp"

namespace relpos {

namespace {

std::string rangeText(const ParamInfo& info) {
  std::string text;
  if (info.min > -kInf) text += (info.minOpen ? "> " : ">= ") + formatNumber(info.min);
  if (info.max < kInf) text += (text.empty() ? "" : " and ") + std::string("<= ") + formatNumber(info.max);
  return text.empty() ? "a finite number" : text;
}

void checkRange(const std::string& where, const ParamInfo& info, double v) {
  if (!std::isfinite(v)) {
    throwRange(where + ": " + info.name + " must be finite, got " + formatNumber(v));
  }
  bool low = info.minOpen ? !(v > info.min) : !(v >= info.min);
  if (low || v > info.max) {
    throwRange(where + ": " + info.name + " must be " + rangeText(info) + ", got " + formatNumber(v));
  }
  if (info.type == ParamType::Integer && std::floor(v) != v) {
    throwRange(where + ": " + info.name + " must be an integer, got " + formatNumber(v));
  }
}

}  // namespace

std::vector<std::string> choiceList(const ParamInfo& info) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= info.choices.size()) {
    size_t bar = info.choices.find('|', start);
    if (bar == std::string::npos) bar = info.choices.size();
    out.push_back(info.choices.substr(start, bar - start));
    start = bar + 1;
  }
  return out;
}

std::string describeValue(const Value& v) {
  switch (v.type) {
    case Value::Type::Number:
      return formatNumber(v.number);
    case Value::Type::Boolean:
      return v.boolean ? "true" : "false";
    case Value::Type::String: {
      const std::string shown = v.text.size() > 40 ? v.text.substr(0, 40) + "..." : v.text;
      return "'" + shown + "'";
    }
    case Value::Type::Array:
      return v.shape.size() > 1 ? "a tensor of shape " + shapeText(v.shape)
                                : "an array of " + std::to_string(v.size()) + " values";
    case Value::Type::Strings:
      return "a list of " + std::to_string(v.strings.size()) + " strings";
  }
  return "a value";
}

void validateParam(const Params& params, const ParamInfo& info) {
  const Value* v = params.find(info.name);
  if (!v) return;
  switch (info.type) {
    case ParamType::Number:
    case ParamType::Integer:  // number() checks integer-ness for Integer parameters
      params.number(info);
      break;
    case ParamType::Boolean:
      params.boolean(info);
      break;
    case ParamType::Choice:
      params.choice(info);
      break;
    case ParamType::PerHead:
      if (v->type == Value::Type::Array) {
        // The length is checked against heads by the scheme; each value against the range here.
        for (float x : v->array) checkRange(params.where(), info, x);
      } else {
        params.perHead(info, 1, {});
      }
      break;
    case ParamType::Array:
      if (info.listOfStrings) {
        const std::vector<std::string> allowed = choiceList(info);
        for (const auto& entry : params.strings(info.name, {})) {
          if (info.choices.empty() || std::find(allowed.begin(), allowed.end(), entry) != allowed.end()) continue;
          throwRange(params.where() + ": " + info.name + " entries must be one of " + quotedList(allowed) + ", got '" +
                     entry + "'");
        }
      } else {
        params.array(info.name);
      }
      break;
    case ParamType::String:
      if (v->type != Value::Type::String) {
        throwType(params.where() + ": " + info.name + " must be a string, got " + describeValue(*v));
      }
      break;
    case ParamType::Options:
      // Flattened by the JS entry: a nested object never reaches the core.
      throwType(params.where() + ": " + info.name + " must be a plain object of options, got " + describeValue(*v));
  }
}

void checkKnownNames(const Params& params, const std::set<std::string>& allowed,
                     const std::set<std::string>& alsoListed) {
  for (const auto& name : params.names()) {
    if (allowed.count(name)) continue;
    std::vector<std::string> listed(allowed.begin(), allowed.end());
    listed.insert(listed.end(), alsoListed.begin(), alsoListed.end());
    throwUnknownName(params.where(), "parameter", name, listed);
  }
}

ParamInfo actsIn(ParamInfo info, std::initializer_list<const char*> calls) {
  info.affects.assign(calls.begin(), calls.end());
  return info;
}

ParamInfo actsIn(ParamInfo info, std::vector<std::string> calls) {
  info.affects = std::move(calls);
  return info;
}

ParamInfo onlyIn(ParamInfo info, std::initializer_list<const char*> calls) {
  info = actsIn(std::move(info), calls);
  info.onlyThere = true;
  return info;
}

ParamInfo synthetic(ParamInfo info) {
  info.synthetic = true;
  return info;
}

ParamInfo restatement(ParamInfo info) {
  info.restates = true;
  return info;
}

ParamInfo withDefault(const ParamInfo& info, double def, double max) {
  ParamInfo out = info;
  out.def = def;
  if (!std::isnan(max)) out.max = max;
  return out;
}

namespace {

ParamInfo described(ParamType type, const char* name, double def, double min, double max, const char* doc) {
  ParamInfo p;
  p.name = name;
  p.type = type;
  p.def = def;
  p.min = min;
  p.max = max;
  p.doc = doc;
  return p;
}

}  // namespace

ParamInfo numberParam(const char* name, double def, double min, double max, const char* doc, bool minOpen) {
  ParamInfo p = described(ParamType::Number, name, def, min, max, doc);
  p.minOpen = minOpen;
  return p;
}

ParamInfo integerParam(const char* name, double def, double min, double max, const char* doc) {
  return described(ParamType::Integer, name, def, min, max, doc);
}

ParamInfo booleanParam(const char* name, bool def, const char* doc) {
  return described(ParamType::Boolean, name, def ? 1 : 0, 0, 1, doc);
}

ParamInfo choiceParam(const char* name, const char* choices, const char* doc) {
  ParamInfo p = described(ParamType::Choice, name, 0, -kInf, kInf, doc);
  p.choices = choices;
  return p;
}

ParamInfo perHeadParam(const char* name, double def, double min, double max, const char* doc, bool minOpen) {
  ParamInfo p = numberParam(name, def, min, max, doc, minOpen);
  p.type = ParamType::PerHead;
  return p;
}

ParamInfo stringParam(const char* name, const char* doc) {
  return described(ParamType::String, name, std::nan(""), -kInf, kInf, doc);
}

ParamInfo optionsParam(const char* name, const char* doc) {
  return described(ParamType::Options, name, std::nan(""), -kInf, kInf, doc);
}

ParamInfo arrayParam(const char* name, const char* doc) {
  return described(ParamType::Array, name, std::nan(""), -kInf, kInf, doc);
}

void Params::setNumber(const std::string& name, double v) {
  Value value;
  value.type = Value::Type::Number;
  value.number = v;
  set(name, std::move(value));
}

void Params::setBoolean(const std::string& name, bool v) {
  Value value;
  value.type = Value::Type::Boolean;
  value.boolean = v;
  set(name, std::move(value));
}

void Params::setString(const std::string& name, std::string v) {
  Value value;
  value.type = Value::Type::String;
  value.text = std::move(v);
  set(name, std::move(value));
}

void Params::setArray(const std::string& name, const std::vector<float>& data, Shape shape) {
  setGivenArray(name, FloatArray(data.begin(), data.end()), std::move(shape), NonFinite::Unknown);
}

void Params::setGivenArray(const std::string& name, FloatArray data, Shape shape, NonFinite nonFinite) {
  Value value;
  value.type = Value::Type::Array;
  value.array = std::move(data);
  value.shape = std::move(shape);
  value.nonFinite = nonFinite;
  set(name, std::move(value));
}

void Params::setBorrowedArray(const std::string& name, const float* data, size_t count, Shape shape) {
  Value value;
  value.type = Value::Type::Array;
  value.borrowed = data;
  value.borrowedSize = count;
  value.shape = std::move(shape);
  set(name, std::move(value));
}

void Params::setReadArray(const std::string& name, std::shared_ptr<const TensorReader> reader, size_t count,
                          Shape shape) {
  Value value;
  value.type = Value::Type::Array;
  value.reader = reader.get();
  value.readerSize = count;
  readers_.push_back(std::move(reader));
  value.shape = std::move(shape);
  set(name, std::move(value));
}

bool Params::lends() const {
  for (const auto& entry : values_) {
    if (entry.second.borrowed) return true;
  }
  return false;
}

void Params::setWide(const std::string& name, std::vector<double> values) {
  auto it = values_.find(name);
  if (it != values_.end()) it->second.wide = std::move(values);
}

const Value* Params::find(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? nullptr : &it->second;
}

std::vector<std::string> Params::names() const {
  std::vector<std::string> out;
  for (const auto& entry : values_) out.push_back(entry.first);
  return out;
}

double Params::number(const ParamInfo& info) const {
  const Value* v = find(info.name);
  if (!v) {
    if (std::isnan(info.def)) throwType(where_ + ": " + info.name + " is required");
    return info.def;
  }
  if (v->type != Value::Type::Number)
    throwType(where_ + ": " + info.name + " must be a number, got " + describeValue(*v));
  checkRange(where_, info, v->number);
  return v->number;
}

int64_t Params::integer(const ParamInfo& info) const {
  ParamInfo asInteger = info;
  asInteger.type = ParamType::Integer;
  return static_cast<int64_t>(number(asInteger));
}

bool Params::boolean(const ParamInfo& info) const {
  const Value* v = find(info.name);
  if (!v) return info.def != 0;
  if (v->type != Value::Type::Boolean)
    throwType(where_ + ": " + info.name + " must be a boolean, got " + describeValue(*v));
  return v->boolean;
}

std::string Params::choice(const ParamInfo& info) const {
  std::vector<std::string> allowed = choiceList(info);
  const Value* v = find(info.name);
  if (!v) return allowed.front();
  if (v->type != Value::Type::String) {
    throwType(where_ + ": " + info.name + " must be one of " + quotedList(allowed) + ", got " + describeValue(*v));
  }
  for (const auto& a : allowed) {
    if (a == v->text) return a;
  }
  throwRange(where_ + ": " + info.name + " must be one of " + quotedList(allowed) + ", got '" + v->text + "'");
}

std::vector<double> Params::perHead(const ParamInfo& info, int64_t heads, const std::vector<double>& fallback) const {
  const Value* v = find(info.name);
  if (!v) {
    if (!fallback.empty()) return fallback;
    return std::vector<double>(static_cast<size_t>(heads), number(info));
  }
  if (v->type == Value::Type::Number) {
    return std::vector<double>(static_cast<size_t>(heads), number(info));
  }
  if (v->type != Value::Type::Array) {
    throwType(where_ + ": " + info.name + " must be a number or a list of one number per head, got " +
              describeValue(*v));
  }
  if (static_cast<int64_t>(v->array.size()) != heads) {
    throwRange(where_ + ": " + info.name + " must have one value per head (" + std::to_string(heads) + "), got " +
               std::to_string(v->array.size()));
  }
  std::vector<double> out;
  for (float x : v->array) {
    checkRange(where_, info, x);
    out.push_back(x);
  }
  return out;
}

namespace {

// What v's array holds besides finite numbers: as its filler found it, else by a scan.
NonFinite nonFiniteOf(const Value& v) {
  return v.nonFinite != NonFinite::Unknown ? v.nonFinite : scanNonFinite(v.data(), v.size());
}

}  // namespace

void Params::checkMasked(const std::string& name, const float* data, size_t count) const {
  if (scanNonFinite(data, count) != NonFinite::Other) return;
  for (size_t i = 0; i < count; ++i) {
    const float x = data[i];
    if (std::isnan(x) || x == std::numeric_limits<float>::infinity())
      throwRange(where_ + ": " + name + " must hold finite numbers or -Infinity, got " + formatNumber(x));
  }
}

const Value* Params::maskedArray(const std::string& name) const {
  const Value* v = find(name);
  if (!v) return nullptr;
  if (v->type != Value::Type::Array) throwType(where_ + ": " + name + " must be an array, got " + describeValue(*v));
  if (v->nonFinite == NonFinite::Unknown || v->nonFinite == NonFinite::Other) checkMasked(name, v->data(), v->size());
  return v;
}

const Value* Params::array(const std::string& name, int64_t expected, const std::string& shapeText) const {
  const Value* v = find(name);
  if (!v) return nullptr;
  if (v->type != Value::Type::Array) {
    throwType(where_ + ": " + name + " must be an array" + (shapeText.empty() ? "" : " of shape " + shapeText) +
              ", got " + describeValue(*v));
  }
  if (expected >= 0 && static_cast<int64_t>(v->size()) != expected) {
    throwRange(where_ + ": " + name + " must hold " + std::to_string(expected) + " values" +
               (shapeText.empty() ? "" : " (shape " + shapeText + ")") + ", got " + std::to_string(v->size()));
  }
  if (nonFiniteOf(*v) != NonFinite::None) {
    for (size_t i = 0; i < v->size(); ++i) {
      const float x = v->data()[i];
      if (!std::isfinite(x)) throwRange(where_ + ": " + name + " must hold finite numbers, got " + formatNumber(x));
    }
  }
  return v;
}

std::vector<std::string> Params::strings(const std::string& name, const std::vector<std::string>& fallback) const {
  const Value* v = find(name);
  if (!v) return fallback;
  if (v->type == Value::Type::String) return {v->text};
  if (v->type != Value::Type::Strings)
    throwType(where_ + ": " + name + " must be a list of strings, got " + describeValue(*v));
  return v->strings;
}

int64_t Params::requiredInteger(const std::string& name, double min, double max) const {
  ParamInfo info = integerParam(name.c_str(), std::nan(""), min, max, "");
  return integer(info);
}

}  // namespace relpos
