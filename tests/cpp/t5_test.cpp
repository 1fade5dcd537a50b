#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "relpos/base/errors.hpp"
#include "relpos/ops/operations.hpp"
#include "relpos/schemes/bias_family.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::params;
using relpos::testing::with;

namespace {

struct BucketConfig {
  int numBuckets;
  int maxDistance;
  bool bidirectional;
};

Tensor t5Buckets(const BucketConfig& c, int n) {
  Params p = with("buckets", {{"n", n}, {"numBuckets", c.numBuckets}, {"maxDistance", c.maxDistance}});
  p.setBoolean("bidirectional", c.bidirectional);
  return compute("buckets", "t5", p).at("data");
}

// bucket(r) with r = j - i read off an [n, n] map: row 0 for r >= 0, column 0 for r < 0.
int bucketAt(const Tensor& map, int r) {
  const int64_t n = map.shape[0];
  return r >= 0 ? map.i32[r] : map.i32[-r * n];
}

void expectRangeError(const Params& p, const std::string& op, const std::string& mention) {
  try {
    compute(op, "t5", p);
    FAIL() << "expected a RangeError mentioning " << mention;
  } catch (const ArgumentError& e) {
    EXPECT_EQ(e.kind(), ArgumentError::Kind::Range);
    EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what();
  }
}

}  // namespace

TEST(T5, BidirectionalPublishedBuckets) {
  const Tensor map = t5Buckets({32, 128, true}, 140);
  ASSERT_EQ(map.shape, (Shape{140, 140}));
  ASSERT_TRUE(map.isInt);
  EXPECT_EQ(bucketAt(map, 0), 0);
  EXPECT_EQ(bucketAt(map, 1), 17);
  EXPECT_EQ(bucketAt(map, -1), 1);
  EXPECT_EQ(bucketAt(map, -8), 8);
  EXPECT_EQ(bucketAt(map, -16), 10);
  for (int r : {128, 129, 139}) {
    EXPECT_EQ(bucketAt(map, -r), 15) << r;
    EXPECT_EQ(bucketAt(map, r), 31) << r;
  }
}

TEST(T5, UnidirectionalPublishedBuckets) {
  const Tensor map = t5Buckets({32, 128, false}, 140);
  EXPECT_EQ(bucketAt(map, 0), 0);
  EXPECT_EQ(bucketAt(map, -32), 21);
  EXPECT_EQ(bucketAt(map, -139), 31);
  for (int r = 1; r < 140; ++r) EXPECT_EQ(bucketAt(map, r), 0) << "future keys fall in bucket 0";
}

TEST(T5, TieFollowsExactArithmetic) {
  // docs/buckets.md: 18 ln(5/3) / ln(25/9) = 9 exactly, so r = -30 is bucket 18 + 9 = 27 (float32: 26).
  const Tensor map = t5Buckets({36, 50, false}, 31);
  EXPECT_EQ(bucketAt(map, -30), 27);
}

TEST(T5, BucketsAreMonotoneInDistanceAndTranslationInvariant) {
  for (const BucketConfig& c : {BucketConfig{32, 128, true}, BucketConfig{32, 128, false}, BucketConfig{16, 32, true},
                                BucketConfig{36, 50, false}, BucketConfig{32, 20, false}, BucketConfig{6, 2, true}}) {
    const int n = 160;
    const Tensor map = t5Buckets(c, n);
    for (int a = 1; a < n; ++a) {
      EXPECT_LE(bucketAt(map, -(a - 1)), bucketAt(map, -a)) << c.numBuckets << "/" << c.maxDistance << " a=" << a;
      if (c.bidirectional && a > 1) EXPECT_LE(bucketAt(map, a - 1), bucketAt(map, a));
      EXPECT_LT(bucketAt(map, -a), c.numBuckets);
    }
    for (int i = 0; i + 1 < n; ++i) {
      for (int j = 0; j + 1 < n; ++j) ASSERT_EQ(map.i32[i * n + j], map.i32[(i + 1) * n + j + 1]);
    }
  }
}

TEST(T5, BiasLooksUpTheGivenTable) {
  // Golden 011_t5_bias_bias_causal.json: unidirectional 32/128, one head, causal.
  const std::vector<float> table = {-0.1254, -1.5523, 0.6293,  0.447,  0.0188,  -1.3456, -0.3889, 0.6822,
                                    -0.1843, 0.1201,  1.1452,  0.6335, -1.5987, 0.3666,  -0.9359, -2.2249,
                                    1.16,    -1.4856, -0.3155, 1.249,  0.703,   -0.062,  -0.8879, 0.2961,
                                    -0.0683, 0.8214,  0.3882,  0.7291, -1.5036, -0.8591, 0.1597,  0.3689};
  Params p = params("bias");
  p.setNumber("n", 8);
  p.setBoolean("causal", true);
  p.setBoolean("bidirectional", false);
  p.setArray("table", table, {1, 32});
  const Tensor b = compute("bias", "t5", p).at("data");
  ASSERT_EQ(b.shape, (Shape{1, 8, 8}));
  const std::vector<double> lastRow = {0.6822, -0.3889, -1.3456, 0.0188, 0.447, 0.6293, -1.5523, -0.1254};
  for (int j = 0; j < 8; ++j) EXPECT_NEAR(b.f32[56 + j], lastRow[j], 1e-6);
  EXPECT_TRUE(std::isinf(b.f32[1]) && b.f32[1] < 0);
}

TEST(T5, DefaultTableIsQuantisedAlibi) {
  Params p = with("bias", {{"n", 40}, {"heads", 8}});
  const Tensor b = compute("bias", "t5", p).at("data");
  const auto slopes = alibiSlopes(8, 8);
  for (int h = 0; h < 8; ++h) {
    for (int r = -7; r <= 7; ++r) {  // exact region of 32/128 bidirectional: a < 8
      const int i = 20, j = 20 + r;
      EXPECT_NEAR(b.f32[(h * 40 + i) * 40 + j], -slopes[h] * std::abs(r), 1e-7) << h << " " << r;
    }
    // r = -16 falls in bucket 10, whose smallest distance is 16.
    EXPECT_NEAR(b.f32[(h * 40 + 36) * 40 + 20], -slopes[h] * 16, 1e-6);
  }
  // Unidirectional 32/20 maps a = 17 to bucket 20 (buckets 17-19 are empty): -17 m there.
  Params u = params("bias");
  u.setNumber("n", 20);
  u.setBoolean("bidirectional", false);
  u.setNumber("maxDistance", 20);
  const Tensor bu = compute("bias", "t5", u).at("data");
  EXPECT_NEAR(bu.f32[17 * 20 + 0], -17.0 / 256, 1e-7);
  EXPECT_NEAR(bu.f32[16 * 20 + 0], -16.0 / 256, 1e-7);
}

TEST(T5, InvalidBucketConfigurationsAreRangeErrors) {
  Params p = with("buckets", {{"n", 4}, {"numBuckets", 31}});
  expectRangeError(p, "buckets", "numBuckets");
  p.setNumber("numBuckets", 2);
  expectRangeError(p, "buckets", "numBuckets");
  p.setNumber("numBuckets", 32);
  p.setNumber("maxDistance", 8);  // must be > 32/4 bidirectional
  expectRangeError(p, "buckets", "maxDistance");
  p.setNumber("maxDistance", 9);
  EXPECT_NO_THROW(compute("buckets", "t5", p));
  p.setBoolean("bidirectional", false);
  p.setNumber("maxDistance", 16);  // must be > 32/2 unidirectional
  expectRangeError(p, "buckets", "maxDistance");

  Params b = with("bias", {{"n", 4}, {"heads", 2}});
  b.setArray("table", std::vector<float>(32, 0.0f), {1, 32});
  expectRangeError(b, "bias", "table");
}

TEST(T5, AttentionWithAKvCacheMatchesTheLastRowsOfFullAttention) {
  const int n = 6, d = 4;
  std::vector<float> q(n * d), k(n * d);
  for (int t = 0; t < n * d; ++t) {
    q[t] = std::sin(0.7 * t);
    k[t] = std::cos(1.3 * t);
  }
  Params full = params("attention");
  full.setArray("q", q, {n, d});
  full.setArray("k", k, {n, d});
  full.setBoolean("causal", true);
  full.setNumber("numBuckets", 8);
  full.setNumber("maxDistance", 5);
  Params cached = full;
  cached.setArray("q", std::vector<float>(q.begin() + 4 * d, q.end()), {2, d});
  const Tensor all = compute("attention", "t5", full).at("weights");
  const Tensor last = compute("attention", "t5", cached).at("weights");
  for (int t = 0; t < 2 * n; ++t) EXPECT_NEAR(last.f32[t], all.f32[4 * n + t], 1e-6);
}
