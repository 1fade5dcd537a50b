// The scan of given arrays for values other than finite numbers (base/arrays.hpp), and the checks of
// Params::array / maskedArray with and without the result of a scan the binding made on the way in.
#include "relpos/base/arrays.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "relpos/base/errors.hpp"
#include "relpos/base/params.hpp"

using namespace relpos;

namespace {

float fromBits(uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

constexpr float kInfinity = std::numeric_limits<float>::infinity();

// What the scan must say about an array holding finite numbers and `special` (or nothing).
NonFinite expected(float special) {
  if (std::isnan(special) || special == kInfinity) return NonFinite::Other;
  return special == -kInfinity ? NonFinite::MinusInfinity : NonFinite::None;
}

std::string messageOf(const Params& p, bool masked) {
  try {
    if (masked) {
      p.maskedArray("B");
    } else {
      p.array("B");
    }
  } catch (const ArgumentError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ScanNonFinite, FindsEachKindAtEveryPositionAndLength) {
  // Finite numbers at the edges of the format (largest, smallest normal, denormal, signed zeros), and
  // every kind of non-finite value: both infinities, quiet and signalling NaNs of either sign.
  const std::vector<float> finite = {0.0f,
                                     -0.0f,
                                     1.0f,
                                     -2.5f,
                                     std::numeric_limits<float>::max(),
                                     -std::numeric_limits<float>::max(),
                                     std::numeric_limits<float>::min(),
                                     std::numeric_limits<float>::denorm_min(),
                                     -std::numeric_limits<float>::denorm_min()};
  const std::vector<float> specials = {kInfinity,
                                       -kInfinity,
                                       std::numeric_limits<float>::quiet_NaN(),
                                       -std::numeric_limits<float>::quiet_NaN(),
                                       fromBits(0x7f800001u),
                                       fromBits(0xff800001u),
                                       fromBits(0x7fffffffu),
                                       fromBits(0xffffffffu)};
  EXPECT_EQ(scanNonFinite(nullptr, 0), NonFinite::None);
  // Lengths around the vectorised loop's step (16 floats) and its remainder.
  for (size_t length : {1u, 3u, 15u, 16u, 17u, 33u, 100u}) {
    std::vector<float> values(length);
    for (size_t i = 0; i < length; ++i) values[i] = finite[i % finite.size()];
    EXPECT_EQ(scanNonFinite(values.data(), length), NonFinite::None) << length;
    for (float special : specials) {
      for (size_t at = 0; at < length; ++at) {
        std::vector<float> poisoned = values;
        poisoned[at] = special;
        EXPECT_EQ(scanNonFinite(poisoned.data(), length), expected(special)) << length << " " << at << " " << special;
        // With -Infinity elsewhere too, anything else still counts as Other.
        if (length > 1 && special != -kInfinity) {
          poisoned[(at + 1) % length] = -kInfinity;
          EXPECT_EQ(scanNonFinite(poisoned.data(), length), NonFinite::Other) << length << " " << at;
        }
      }
    }
  }
}

TEST(ScanNonFinite, ScansOfPartsCombineWithMax) {
  std::vector<float> values(40, 0.5f);
  values[30] = -kInfinity;
  const NonFinite first = scanNonFinite(values.data(), 20), second = scanNonFinite(values.data() + 20, 20);
  EXPECT_EQ(std::max(first, second), scanNonFinite(values.data(), 40));
  values[5] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(std::max(scanNonFinite(values.data(), 20), second), NonFinite::Other);
}

TEST(GivenArrays, ChecksReadTheScanOrScan) {
  struct Case {
    float entry;
    bool masked;  // read with maskedArray (a bias or mask), else with array
    std::string message;
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<Case> cases = {
      {0.25f, false, ""},
      {0.25f, true, ""},
      {-kInfinity, true, ""},
      {-kInfinity, false, "relpos.attention: B must hold finite numbers, got -Infinity"},
      {kInfinity, true, "relpos.attention: B must hold finite numbers or -Infinity, got Infinity"},
      {nan, true, "relpos.attention: B must hold finite numbers or -Infinity, got NaN"},
      {nan, false, "relpos.attention: B must hold finite numbers, got NaN"},
  };
  for (const Case& c : cases) {
    std::vector<float> data(50, -1.0f);
    data[37] = c.entry;
    // Unscanned (as the core's own arrays are) and scanned on the way in (as the binding does).
    Params unscanned("relpos.attention");
    unscanned.setArray("B", data, {5, 10});
    EXPECT_EQ(messageOf(unscanned, c.masked), c.message) << c.entry << c.masked;
    Params scanned("relpos.attention");
    const NonFinite found = scanNonFinite(data.data(), data.size());
    scanned.setGivenArray("B", FloatArray(data.begin(), data.end()), {5, 10}, found);
    EXPECT_EQ(scanned.find("B")->nonFinite, found);
    EXPECT_EQ(messageOf(scanned, c.masked), c.message) << c.entry << c.masked;
  }
}

TEST(GivenArrays, ValuesKeepTheirScanWhenCopiedOrMoved) {
  Params p("relpos.attention");
  p.setGivenArray("B", FloatArray(8, -kInfinity), {2, 4}, NonFinite::MinusInfinity);
  Params copy = p;
  EXPECT_EQ(copy.find("B")->nonFinite, NonFinite::MinusInfinity);
  EXPECT_EQ(copy.find("B")->array, p.find("B")->array);
  Value value = *copy.find("B");
  const Value moved = std::move(value);
  EXPECT_EQ(moved.nonFinite, NonFinite::MinusInfinity);
  EXPECT_EQ(moved.array.size(), 8u);
}

TEST(GivenArrays, UninitialisedFloatsHaveTheSizeAsked) {
  FloatArray a = uninitialisedFloats(1000);
  EXPECT_EQ(a.size(), 1000u);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i);
  EXPECT_EQ(a[999], 999.0f);
  EXPECT_TRUE(uninitialisedFloats(0).empty());
}
