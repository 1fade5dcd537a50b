#include "relpos/base/json.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <stdexcept>

namespace relpos {

JsonValue JsonValue::makeBoolean(bool v) {
  JsonValue j;
  j.type = Type::Boolean;
  j.boolean = v;
  return j;
}
JsonValue JsonValue::makeNumber(double v) {
  JsonValue j;
  j.type = Type::Number;
  j.number = v;
  return j;
}
JsonValue JsonValue::makeString(std::string v) {
  JsonValue j;
  j.type = Type::String;
  j.string = std::move(v);
  return j;
}
JsonValue JsonValue::makeArray(std::vector<JsonValue> items) {
  JsonValue j;
  j.type = Type::Array;
  j.array = std::move(items);
  return j;
}
JsonValue JsonValue::makeObject() {
  JsonValue j;
  j.type = Type::Object;
  return j;
}
JsonValue JsonValue::makeNumbers(const std::vector<double>& values) {
  JsonValue j = makeArray();
  for (double v : values) j.push(makeNumber(v));
  return j;
}

const JsonValue* JsonValue::find(const std::string& key) const {
  for (const auto& member : object) {
    if (member.first == key) return &member.second;
  }
  return nullptr;
}

JsonValue& JsonValue::set(const std::string& key, JsonValue value) {
  for (auto& member : object) {
    if (member.first == key) return member.second = std::move(value);
  }
  object.emplace_back(key, std::move(value));
  return object.back().second;
}

JsonValue jsonObject(std::initializer_list<std::pair<const char*, JsonValue>> members) {
  JsonValue o = JsonValue::makeObject();
  for (const auto& m : members) o.set(m.first, m.second);
  return o;
}

JsonValue jsonStrings(const std::vector<std::string>& items) {
  JsonValue a = JsonValue::makeArray();
  for (const auto& item : items) a.push(JsonValue::makeString(item));
  return a;
}

const char* jsonTypeName(JsonValue::Type type) {
  static const char* const names[] = {"null", "boolean", "number", "string", "array", "object"};  // Type's order
  return names[static_cast<int>(type)];
}

namespace {

void appendUtf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Recursive descent; recursion is bounded by kJsonMaxDepth, so hostile nesting cannot overflow
// the (small, in wasm) stack.
class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  JsonValue document() {
    if (s_.size() > kJsonMaxBytes) {
      throw std::invalid_argument("JSON: input of " + std::to_string(s_.size()) + " bytes is over the limit of " +
                                  std::to_string(kJsonMaxBytes) + " bytes (4 MiB)");
    }
    JsonValue v = value(0);
    skipSpace();
    if (pos_ != s_.size()) fail("unexpected trailing characters after the value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < pos_ && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    throw std::invalid_argument("JSON: " + what + " at line " + std::to_string(line) + ", column " +
                                std::to_string(column));
  }

  bool atEnd() const { return pos_ >= s_.size(); }
  char peek() const { return atEnd() ? '\0' : s_[pos_]; }

  void skipSpace() {
    while (!atEnd() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }

  void expect(char c, const char* what) {
    skipSpace();
    if (peek() != c) fail(std::string("expected ") + what);
    ++pos_;
  }

  JsonValue value(int depth) {
    skipSpace();
    if (atEnd()) fail("unexpected end of input, expected a value");
    const char c = s_[pos_];
    if (c == '{' || c == '[') {
      if (depth >= kJsonMaxDepth) fail("nesting deeper than " + std::to_string(kJsonMaxDepth) + " levels");
      return c == '{' ? objectValue(depth + 1) : arrayValue(depth + 1);
    }
    if (c == '"') return JsonValue::makeString(stringValue());
    if (c == '-' || (c >= '0' && c <= '9')) return numberValue();
    if (s_.compare(pos_, 4, "true") == 0) return pos_ += 4, JsonValue::makeBoolean(true);
    if (s_.compare(pos_, 5, "false") == 0) return pos_ += 5, JsonValue::makeBoolean(false);
    if (s_.compare(pos_, 4, "null") == 0) return pos_ += 4, JsonValue();
    if (s_.compare(pos_, 3, "NaN") == 0 || s_.compare(pos_, 8, "Infinity") == 0) {
      fail("NaN and Infinity are not JSON numbers");
    }
    fail(std::string("unexpected character '") + c + "'");
  }

  JsonValue objectValue(int depth) {
    ++pos_;  // '{'
    JsonValue obj = JsonValue::makeObject();
    // A tree, not a hash map: duplicate keys stay O(log n) each, and the core needs no hashing code.
    std::map<std::string, std::size_t> index;
    skipSpace();
    if (peek() == '}') return ++pos_, obj;
    for (;;) {
      skipSpace();
      if (peek() != '"') fail("expected a string key");
      std::string key = stringValue();
      expect(':', "':' after an object key");
      JsonValue v = value(depth);
      auto found = index.find(key);
      if (found != index.end()) {
        obj.object[found->second].second = std::move(v);
      } else {
        index.emplace(key, obj.object.size());
        obj.object.emplace_back(std::move(key), std::move(v));
      }
      if (!nextItem('}', "',' or '}' in an object")) return obj;
    }
  }

  JsonValue arrayValue(int depth) {
    ++pos_;  // '['
    JsonValue arr = JsonValue::makeArray();
    skipSpace();
    if (peek() == ']') return ++pos_, arr;
    do {
      arr.push(value(depth));
    } while (nextItem(']', "',' or ']' in an array"));
    return arr;
  }

  // After an item of an object or array: true when a ',' follows, false after the closing bracket.
  bool nextItem(char close, const char* what) {
    skipSpace();
    if (peek() == ',') {
      ++pos_;
      return true;
    }
    expect(close, what);
    return false;
  }

  unsigned hex4() {
    if (pos_ + 4 > s_.size()) fail("truncated \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= static_cast<unsigned>(c - 'A' + 10);
      else
        fail("invalid hex digit in a \\u escape");
    }
    return v;
  }

  // A \u escape (after the backslash and 'u'); surrogates must come as a valid pair.
  unsigned escapedCodePoint() {
    const unsigned hi = hex4();
    if (hi >= 0xDC00 && hi <= 0xDFFF) fail("unpaired low surrogate in a \\u escape");
    if (hi < 0xD800 || hi > 0xDBFF) return hi;
    if (s_.compare(pos_, 2, "\\u") != 0) fail("unpaired high surrogate in a \\u escape");
    pos_ += 2;
    const unsigned lo = hex4();
    if (lo < 0xDC00 || lo > 0xDFFF) fail("high surrogate not followed by a low surrogate");
    return 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
  }

  // Copies one raw UTF-8 sequence, rejecting overlong forms, surrogates and code points > U+10FFFF.
  void rawUtf8(std::string& out) {
    const auto b0 = static_cast<unsigned char>(s_[pos_]);
    int length = 0;
    unsigned cp = 0, min = 0;
    if (b0 >= 0xC2 && b0 <= 0xDF)
      length = 2, cp = b0 & 0x1F, min = 0x80;
    else if (b0 >= 0xE0 && b0 <= 0xEF)
      length = 3, cp = b0 & 0x0F, min = 0x800;
    else if (b0 >= 0xF0 && b0 <= 0xF4)
      length = 4, cp = b0 & 0x07, min = 0x10000;
    else
      fail("invalid UTF-8 in a string");
    if (pos_ + length > s_.size()) fail("truncated UTF-8 sequence in a string");
    for (int i = 1; i < length; ++i) {
      const auto b = static_cast<unsigned char>(s_[pos_ + i]);
      if ((b & 0xC0) != 0x80) fail("invalid UTF-8 in a string");
      cp = (cp << 6) | (b & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) fail("invalid UTF-8 in a string");
    out.append(s_, pos_, length);
    pos_ += length;
  }

  std::string stringValue() {
    ++pos_;  // opening quote
    std::string out;
    for (;;) {
      if (atEnd()) fail("unterminated string");
      const auto c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') return ++pos_, out;
      if (c < 0x20) fail("unescaped control character in a string");
      if (c >= 0x80) {
        rawUtf8(out);
        continue;
      }
      ++pos_;
      if (c != '\\') {
        out += static_cast<char>(c);
        continue;
      }
      if (atEnd()) fail("unterminated string");
      const char e = s_[pos_++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u':
          appendUtf8(out, escapedCodePoint());
          break;
        default:
          --pos_, fail(std::string("invalid escape '\\") + e + "'");
      }
    }
  }

  bool digit() const { return !atEnd() && s_[pos_] >= '0' && s_[pos_] <= '9'; }

  JsonValue numberValue() {
    const std::size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (s_.compare(pos_, 8, "Infinity") == 0) fail("NaN and Infinity are not JSON numbers");
    if (peek() == '0') {
      ++pos_;
      if (digit()) fail("leading zeros are not allowed in a number");
    } else {
      if (!digit()) fail("invalid number");
      while (digit()) ++pos_;
    }
    if (peek() == '.') {
      ++pos_;
      if (!digit()) fail("expected a digit after the decimal point");
      while (digit()) ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!digit()) fail("expected a digit in the exponent");
      while (digit()) ++pos_;
    }
    // The grammar above is a subset of what strtod reads (the core never changes the C locale).
    const double v = std::strtod(s_.substr(start, pos_ - start).c_str(), nullptr);
    if (!std::isfinite(v)) pos_ = start, fail("number out of the double range");
    return JsonValue::makeNumber(v);
  }

  const std::string& s_;
  std::size_t pos_ = 0;
};

// An exact decimal as fixed-point digits: kIntDigits before the point, kFracDigits after (a
// double's exact expansion has at most 309 and 1074; halving a gap adds one).
constexpr int kIntDigits = 310, kFracDigits = 1080, kDigits = kIntDigits + kFracDigits;
using Decimal = std::string;  // digit values 0..9, not characters

// The digits of a decimal text ("-1.25e-7", "0.001", "123"; the sign is ignored) into a Decimal.
Decimal decimalOf(const char* text) {
  Decimal out(kDigits, '\0');
  const char* p = text + (*text == '-');
  int point = -1, count = 0, exponent = 0;
  const char* digits = p;
  for (; (*p >= '0' && *p <= '9') || *p == '.'; ++p) {
    if (*p == '.')
      point = count;
    else
      ++count;
  }
  if (*p == 'e' || *p == 'E') exponent = std::atoi(p + 1);
  if (point < 0) point = count;
  // Digit t (0-based) has weight 10^(point - 1 - t + exponent): index kIntDigits - 1 - that power.
  for (int t = 0; *digits != '\0' && *digits != 'e' && *digits != 'E'; ++digits) {
    if (*digits == '.') continue;
    const int index = kIntDigits - point + t - exponent;
    if (index >= 0 && index < kDigits) out[index] = static_cast<char>(*digits - '0');
    ++t;
  }
  return out;
}

// The exact decimal expansion of a finite x >= 0 (printf prints every digit of a double).
Decimal exactDecimal(double x) {
  std::string text(kDigits + 16, '\0');
  std::snprintf(&text[0], text.size(), "%.*f", kFracDigits - 1, x);
  return decimalOf(text.c_str());
}

Decimal halved(Decimal d) {
  int carry = 0;
  for (auto& digit : d) {
    const int value = carry * 10 + digit;
    digit = static_cast<char>(value / 2);
    carry = value % 2;
  }
  return d;
}

// a + sign * b, digit by digit (a - b only where a >= b).
Decimal combined(Decimal a, const Decimal& b, int sign) {
  int carry = 0;
  for (int t = kDigits - 1; t >= 0; --t) {
    int value = a[t] + sign * b[t] + carry;
    carry = value < 0 ? -1 : value / 10;
    if (value < 0) value += 10;
    a[t] = static_cast<char>(value % 10);
  }
  return a;
}

int compared(const Decimal& a, const Decimal& b) {
  for (int t = 0; t < kDigits; ++t) {
    if (a[t] != b[t]) return a[t] < b[t] ? -1 : 1;
  }
  return 0;
}

}  // namespace

bool readsBackAs(const char* text, double v) {
  if (!std::isfinite(v) || (*text == '-') != std::signbit(v)) return false;
  const double a = std::fabs(v);
  // Clinger's fast path: M * 10^k or M / 10^k with M < 2^53 and |k| <= 22 is one correctly rounded
  // operation on exact operands, the double strtod would read.
  static const double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  uint64_t mantissa = 0;
  int digits = 0, fraction = 0;
  bool afterPoint = false;
  const char* p = text + (*text == '-');
  for (; (*p >= '0' && *p <= '9') || *p == '.'; ++p) {
    if (*p == '.') {
      afterPoint = true;
      continue;
    }
    if (mantissa != 0 || *p != '0') ++digits;
    if (digits > 17) return false;  // not text this writer makes
    mantissa = mantissa * 10 + static_cast<uint64_t>(*p - '0');
    fraction += afterPoint;
  }
  const int k = ((*p == 'e' || *p == 'E') ? std::atoi(p + 1) : 0) - fraction;
  if (mantissa <= (uint64_t{1} << 53) && k >= -22 && k <= 22) {
    const double m = static_cast<double>(mantissa);
    return (k >= 0 ? m * kPowers[k] : m / kPowers[-k]) == a;
  }
  if (a == 0) return mantissa == 0;
  // Otherwise exactly: the text reads back as a when it lies between the midpoints to a's
  // neighbours, or on one of them when a's last bit is even (round half to even).
  const double below = a - std::nextafter(a, 0.0);
  const double above =
      a == std::numeric_limits<double>::max() ? below : std::nextafter(a, std::numeric_limits<double>::infinity()) - a;
  const Decimal exact = exactDecimal(a), given = decimalOf(text);
  const int low = compared(given, combined(exact, halved(exactDecimal(below)), -1));
  const int high = compared(given, combined(exact, halved(exactDecimal(above)), +1));
  uint64_t bits;
  std::memcpy(&bits, &a, sizeof bits);
  const bool even = (bits & 1) == 0;
  return (low > 0 || (low == 0 && even)) && (high < 0 || (high == 0 && even));
}

namespace {

void writeString(std::string& out, const std::string& text) {
  out += '"';
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
          out += buffer;
        } else {
          out += ch;
        }
    }
  }
  out += '"';
}

void writeNumber(std::string& out, double v) {
  if (!std::isfinite(v)) throw std::invalid_argument("JSON: cannot write the non-finite number " + std::to_string(v));
  char buffer[40];
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) {  // 2^53: every integer exact
    std::snprintf(buffer, sizeof buffer, "%.0f", v);
  } else {
    // 17 significant digits always read back; readsBackAs decides for 15 and 16.
    for (int precision = 15; precision <= 17; ++precision) {
      std::snprintf(buffer, sizeof buffer, "%.*g", precision, v);
      if (precision == 17 || readsBackAs(buffer, v)) break;
    }
  }
  out += buffer;
}

void write(std::string& out, const JsonValue& v) {
  switch (v.type) {
    case JsonValue::Type::Null:
      out += "null";
      break;
    case JsonValue::Type::Boolean:
      out += v.boolean ? "true" : "false";
      break;
    case JsonValue::Type::Number:
      writeNumber(out, v.number);
      break;
    case JsonValue::Type::String:
      writeString(out, v.string);
      break;
    case JsonValue::Type::Array:
      out += '[';
      for (std::size_t i = 0; i < v.array.size(); ++i) {
        if (i) out += ',';
        write(out, v.array[i]);
      }
      out += ']';
      break;
    case JsonValue::Type::Object:
      out += '{';
      for (std::size_t i = 0; i < v.object.size(); ++i) {
        if (i) out += ',';
        writeString(out, v.object[i].first);
        out += ':';
        write(out, v.object[i].second);
      }
      out += '}';
      break;
  }
}

}  // namespace

JsonValue parseJson(const std::string& text) {
  return Parser(text).document();
}

std::string toJson(const JsonValue& value) {
  std::string out;
  write(out, value);
  return out;
}

}  // namespace relpos
