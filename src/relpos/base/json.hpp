// A small, strict JSON reader and writer for the core (configs from the hub, presets out to JS).
// The input is treated as hostile: size and nesting are bounded, the grammar is RFC 8259 without
// extensions (no NaN/Infinity, comments or trailing commas), strings must be valid UTF-8.
#pragma once
#include <cstddef>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace relpos {

constexpr std::size_t kJsonMaxBytes = 4u << 20;  // 4 MiB: far above any config.json
constexpr int kJsonMaxDepth = 64;                // arrays/objects nested deeper are refused

struct JsonValue {
  enum class Type { Null, Boolean, Number, String, Array, Object };
  using Member = std::pair<std::string, JsonValue>;

  Type type = Type::Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> array;
  std::vector<Member> object;  // insertion order kept

  static JsonValue makeBoolean(bool v);
  static JsonValue makeNumber(double v);
  static JsonValue makeString(std::string v);
  static JsonValue makeArray(std::vector<JsonValue> items = {});
  static JsonValue makeObject();
  static JsonValue makeNumbers(const std::vector<double>& values);

  bool isNull() const { return type == Type::Null; }
  bool isObject() const { return type == Type::Object; }
  // Object member by key, or nullptr (also when this is not an object).
  const JsonValue* find(const std::string& key) const;
  // Sets an object member: replaces the value of an existing key in place, else appends.
  JsonValue& set(const std::string& key, JsonValue value);
  void push(JsonValue value) { array.push_back(std::move(value)); }
};

// An object of (key, value) members in order, e.g. jsonObject({{"id", JsonValue::makeString(id)}}).
JsonValue jsonObject(std::initializer_list<std::pair<const char*, JsonValue>> members);
// An array of strings.
JsonValue jsonStrings(const std::vector<std::string>& items);

// "null", "boolean", "number", "string", "array", "object": for error messages.
const char* jsonTypeName(JsonValue::Type type);

// Parses one JSON text. Throws std::invalid_argument ("JSON: <what> at line L, column C") on
// anything malformed, over kJsonMaxBytes or nested deeper than kJsonMaxDepth. Duplicate keys:
// the last value wins, at the position of the first (as JSON.parse does).
JsonValue parseJson(const std::string& text);

// Compact JSON text. Numbers are written so they parse back to the same double (shortest of
// %.15g..%.17g; exact integers without exponent). Throws std::invalid_argument on a non-finite
// number, which JSON cannot represent.
std::string toJson(const JsonValue& value);

// Whether the decimal text (as printf's %g or %f writes it: optional '-', digits, optional '.' and
// digits, optional exponent; at most 17 significant digits) reads back as exactly v, as
// std::strtod(text, nullptr) == v says: the writer's check without strtod, whose long-double
// arithmetic was about 7 KB gzip of the core's wasm (docs/build.md).
bool readsBackAs(const char* text, double v);

}  // namespace relpos
