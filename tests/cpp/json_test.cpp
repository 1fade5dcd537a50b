#include "relpos/base/json.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

using namespace relpos;

namespace {

// The message of the std::invalid_argument parseJson throws, or "" when it parses.
std::string parseError(const std::string& text) {
  try {
    parseJson(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool sameBits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

TEST(Json, ParsesEveryKindOfValue) {
  const JsonValue v = parseJson(R"( {"a": [1, -2.5e3, true, false, null], "b": {"c": "x"}, "": 0} )");
  ASSERT_TRUE(v.isObject());
  ASSERT_EQ(v.object.size(), 3u);
  const JsonValue* a = v.find("a");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->array.size(), 5u);
  EXPECT_EQ(a->array[0].number, 1);
  EXPECT_EQ(a->array[1].number, -2500);
  EXPECT_TRUE(a->array[2].boolean);
  EXPECT_EQ(a->array[3].type, JsonValue::Type::Boolean);
  EXPECT_TRUE(a->array[4].isNull());
  EXPECT_EQ(v.find("b")->find("c")->string, "x");
  EXPECT_EQ(v.find(""), &v.object[2].second);
  EXPECT_EQ(v.find("missing"), nullptr);
}

TEST(Json, CompactTextRoundTripsExactly) {
  for (const std::string text : {R"({"k":[1,2.5,-0.125,"s\"\\\n\t",{"x":null}],"b":true})", R"([])", R"({})",
                                 R"("\u0001\u001f")", R"([1e-07,123456789012345,0.1,-3,1.5e+300])"}) {
    EXPECT_EQ(toJson(parseJson(text)), text);
  }
}

TEST(Json, KeepsInsertionOrderAndTheLastDuplicateWins) {
  const JsonValue v = parseJson(R"({"z": 1, "a": 2, "z": 3})");
  ASSERT_EQ(v.object.size(), 2u);
  EXPECT_EQ(v.object[0].first, "z");
  EXPECT_EQ(v.object[0].second.number, 3);  // value of the last, position of the first (JSON.parse)
  EXPECT_EQ(v.object[1].first, "a");
  EXPECT_EQ(toJson(v), R"({"z":3,"a":2})");
}

TEST(Json, NumbersAreWrittenSoTheyParseBackBitForBit) {
  const double values[] = {0.1,
                           1.0 / 3,
                           2.0 / 3,
                           1e-300,
                           5e-324,
                           1.7976931348623157e308,
                           -0.0,
                           9007199254740992.0,
                           9007199254740994.0,
                           1e21,
                           123456789012.0,
                           1.0299999713897705,
                           -2.000000000000001,
                           1e-7};
  for (double v : values) {
    const std::string text = toJson(JsonValue::makeNumber(v));
    EXPECT_TRUE(sameBits(parseJson(text).number, v)) << text;
  }
  EXPECT_EQ(toJson(JsonValue::makeNumber(1e15)), "1000000000000000");
  EXPECT_EQ(toJson(JsonValue::makeNumber(131072)), "131072");
  EXPECT_EQ(toJson(JsonValue::makeNumber(0.25)), "0.25");
  EXPECT_EQ(toJson(JsonValue::makeNumber(0.1)), "0.1");
  EXPECT_EQ(toJson(JsonValue::makeNumber(-7)), "-7");
}

// The writer's check without strtod (readsBackAs) against strtod itself, on texts that read back and
// texts that do not: each value's %.15g, %.16g and %.17g, and those of its two neighbours, over
// random bit patterns (every exponent, subnormals included), random 15- to 17-digit decimals, and
// ties (a text exactly halfway between two doubles).
namespace {

std::string printed(const char* format, int precision, double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, precision, v);
  return buffer;
}

// The writer as it was with strtod: the shortest of %.15g..%.17g that reads back.
std::string strtodWriter(double v) {
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) return printed("%.*f", 0, v);
  std::string text;
  for (int precision = 15; precision <= 17; ++precision) {
    text = printed("%.*g", precision, v);
    if (std::strtod(text.c_str(), nullptr) == v) break;
  }
  return text;
}

void expectSameAsStrtod(double v) {
  for (double source : {v, std::nextafter(v, -INFINITY), std::nextafter(v, INFINITY)}) {
    if (!std::isfinite(source)) continue;
    for (int precision = 15; precision <= 17; ++precision) {
      for (const char* format : {"%.*g", "%.*e"}) {
        const std::string text = printed(format, precision - (format[3] == 'e'), source);
        ASSERT_EQ(readsBackAs(text.c_str(), v), std::strtod(text.c_str(), nullptr) == v)
            << text << " for " << printed("%.*g", 17, v);
      }
    }
  }
  ASSERT_EQ(toJson(JsonValue::makeNumber(v)), strtodWriter(v)) << printed("%.*g", 17, v);
}

}  // namespace

TEST(Json, ReadsBackAsAgreesWithStrtod) {
  std::mt19937_64 random(20261204);
  const double edges[] = {std::numeric_limits<double>::max(),
                          std::numeric_limits<double>::min(),
                          std::numeric_limits<double>::denorm_min(),
                          std::nextafter(std::numeric_limits<double>::min(), 0.0),
                          0.1,
                          1.0 / 3,
                          2.0 / 3,
                          5e-324,
                          1e-7,
                          1e22,
                          1e23,
                          9007199254740993.0,
                          123456789.123456789,
                          0.30000000000000004,
                          1.7976931348623157e308,
                          2.2250738585072014e-308,
                          4.9406564584124654e-324};
  for (double v : edges) {
    expectSameAsStrtod(v);
    expectSameAsStrtod(-v);
  }
  for (int e = -1074; e <= 1023; e += 7) expectSameAsStrtod(std::ldexp(1.0, e));  // powers of two: unequal gaps
  for (int i = 0; i < 500; ++i) {
    const uint64_t bits = random();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    if (std::isfinite(v)) expectSameAsStrtod(v);
  }
  std::uniform_real_distribution<double> unit(1.0, 10.0);
  std::uniform_int_distribution<int> exponent(-40, 40), digits(15, 17);
  for (int i = 0; i < 4000; ++i) {
    const std::string text = printed("%.*e", digits(random) - 1, unit(random)) + "e" + std::to_string(exponent(random));
    std::string joined = text.substr(0, text.find('e')) + text.substr(text.rfind('e'));
    expectSameAsStrtod(std::strtod(joined.c_str(), nullptr));
  }
  // Ties: the text halfway between two integers above 2^53 reads back as the one with an even last bit.
  for (uint64_t start :
       {uint64_t{1} << 54, (uint64_t{1} << 54) + 4, (uint64_t{1} << 55) + 8, (uint64_t{1} << 56) + 48}) {
    const double v = static_cast<double>(start);
    const uint64_t gap = static_cast<uint64_t>(std::nextafter(v, INFINITY) - v);
    for (uint64_t middle : {start + gap / 2, start - gap / 2, start - gap / 4}) {
      const std::string text = std::to_string(middle);
      EXPECT_EQ(readsBackAs(text.c_str(), v), std::strtod(text.c_str(), nullptr) == v) << text;
    }
  }
}

TEST(Json, WriterRefusesNonFiniteNumbers) {
  EXPECT_THROW(toJson(JsonValue::makeNumber(std::nan(""))), std::invalid_argument);
  EXPECT_THROW(toJson(JsonValue::makeNumber(std::numeric_limits<double>::infinity())), std::invalid_argument);
}

TEST(Json, DecodesEscapesAndSurrogatePairsToUtf8) {
  const JsonValue v = parseJson(R"("\u00e9\ud83d\ude00\/\b\f\r")");
  EXPECT_EQ(v.string, "\xC3\xA9\xF0\x9F\x98\x80/\b\f\r");
  EXPECT_EQ(parseJson("\"\xE2\x82\xAC\"").string, "\xE2\x82\xAC");  // raw UTF-8 passes through
  EXPECT_EQ(parseJson(R"("a\u0000b")").string, std::string("a\0b", 3));
  // The writer escapes what JSON requires and leaves UTF-8 alone.
  EXPECT_EQ(toJson(JsonValue::makeString("\xC3\xA9\x01\"")), "\"\xC3\xA9\\u0001\\\"\"");
}

TEST(Json, RejectsNestingDeeperThanTheLimitWithoutCrashing) {
  EXPECT_EQ(parseError(std::string(kJsonMaxDepth, '[') + std::string(kJsonMaxDepth, ']')), "");
  const std::string tooDeep = std::string(kJsonMaxDepth + 1, '[') + std::string(kJsonMaxDepth + 1, ']');
  EXPECT_NE(parseError(tooDeep).find("nesting deeper than 64 levels"), std::string::npos);
  std::string hostile;
  for (int i = 0; i < 10000; ++i) hostile += "{\"a\":[";
  EXPECT_NE(parseError(hostile).find("nesting deeper than 64"), std::string::npos);
  EXPECT_NE(parseError(std::string(10000, '[')).find("nesting deeper than 64"), std::string::npos);
}

TEST(Json, RejectsInputOverFourMebibytes) {
  std::string big = "[" + std::string(kJsonMaxBytes, ' ') + "]";
  EXPECT_NE(parseError(big).find("over the limit of 4194304 bytes"), std::string::npos);
  big = "\"" + std::string(kJsonMaxBytes - 2, 'x') + "\"";
  EXPECT_EQ(parseError(big), "");
}

TEST(Json, RejectsNanInfinityAndMalformedNumbers) {
  for (const char* text : {"NaN", "Infinity", "-Infinity", "[1, NaN]"}) {
    EXPECT_NE(parseError(text).find("NaN and Infinity are not JSON numbers"), std::string::npos) << text;
  }
  for (const char* text : {"01", "1.", ".5", "+1", "1e", "1e+", "-", "0x10", "1.5.2", "- 1"}) {
    EXPECT_NE(parseError(text), "") << text;
  }
  EXPECT_NE(parseError("1e400").find("out of the double range"), std::string::npos);
  EXPECT_EQ(parseJson("1e-400").number, 0.0);  // underflow is a valid (tiny) number
  EXPECT_EQ(parseJson("-0").number, 0.0);
}

TEST(Json, RejectsTrailingGarbageAndNonJsonSyntax) {
  EXPECT_NE(parseError("{} x").find("trailing characters"), std::string::npos);
  EXPECT_NE(parseError("[1] [2]").find("trailing characters"), std::string::npos);
  for (const char* text : {"", "   ", "[1,]", "{\"a\":1,}", "{'a':1}", "{a:1}", "[1 2]", "{\"a\" 1}", "// c\n1", "tru",
                           "nul", "True", "\"abc", "[", "{\"a\":", "\"\\x\"", "\"\\u12\"", "\"\\uZZZZ\""}) {
    EXPECT_NE(parseError(text), "") << text;
  }
  EXPECT_NE(parseError("\"a\tb\"").find("unescaped control character"), std::string::npos);
}

TEST(Json, RejectsInvalidUtf8AndLoneSurrogates) {
  EXPECT_NE(parseError(R"("\ud800")").find("unpaired high surrogate"), std::string::npos);
  EXPECT_NE(parseError(R"("\ud800\u0041")").find("not followed by a low surrogate"), std::string::npos);
  EXPECT_NE(parseError(R"("\udc00")").find("unpaired low surrogate"), std::string::npos);
  for (const char* raw : {"\"\xFF\"", "\"\xC0\xAF\"", "\"\xE0\x80\xAF\"", "\"\xED\xA0\x80\"", "\"\xF4\x90\x80\x80\"",
                          "\"\xC3\"", "\"\xE2\x82\"", "\"\x80\""}) {
    EXPECT_NE(parseError(raw).find("UTF-8"), std::string::npos) << raw;
  }
}

TEST(Json, ErrorsNameLineAndColumn) {
  EXPECT_EQ(parseError("{\n  \"a\": x}"), "JSON: unexpected character 'x' at line 2, column 8");
}

TEST(Json, SetReplacesInPlaceAndAppendsNewKeys) {
  JsonValue o = JsonValue::makeObject();
  o.set("a", JsonValue::makeNumber(1));
  o.set("b", JsonValue::makeString("x"));
  o.set("a", JsonValue::makeNumbers({1, 2}));
  EXPECT_EQ(toJson(o), R"({"a":[1,2],"b":"x"})");
}
