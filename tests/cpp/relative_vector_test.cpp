// shaw, transformer-xl, deberta (docs/schemes/vectors.md, docs/buckets.md).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "relpos/base/errors.hpp"
#include "relpos/schemes/vector_family.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::params;
using relpos::testing::wave;
using relpos::testing::with;

namespace {

double dot(const float* a, const float* b, int d) {
  double s = 0;
  for (int c = 0; c < d; ++c) s += static_cast<double>(a[c]) * b[c];
  return s;
}

void expectRangeError(const std::string& op, const std::string& id, const Params& p, const std::string& mention) {
  try {
    compute(op, id, p);
    FAIL() << id << ": expected a RangeError mentioning " << mention;
  } catch (const ArgumentError& e) {
    EXPECT_EQ(e.kind(), ArgumentError::Kind::Range);
    EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what();
  }
}

void expectToeplitz(const Tensor& s) {
  const int64_t n = s.shape[s.shape.size() - 1];
  for (int i = 0; i + 1 < n; ++i) {
    for (int j = 0; j + 1 < n; ++j) ASSERT_FLOAT_EQ(s.f32[i * n + j], s.f32[(i + 1) * n + j + 1]) << i << "," << j;
  }
}

// DeBERTa's signed bucket(delta) read off a logBucket map: column 0 for delta >= 0, row 0 otherwise.
int debertaBucket(int positionBuckets, int maxRelative, int delta) {
  const int n = std::abs(delta) + 1;
  Params p = with("buckets", {{"n", n}, {"positionBuckets", positionBuckets}, {"maxRelativePositions", maxRelative}});
  const Tensor map = compute("buckets", "deberta", p).at("data");
  return delta >= 0 ? map.i32[delta * n] : map.i32[-delta];
}

// Weights of full attention vs attention with a KV cache (the last `cached` queries only).
void expectCacheMatchesFullAttention(const std::string& id, Params base, int n, int width, int cached) {
  const std::vector<float> q = wave(n * width, 0.9, 0.3), k = wave(n * width, 1.7, 1.1);
  base.setArray("q", q, {n, width});
  base.setArray("k", k, {n, width});
  base.setBoolean("causal", true);
  Params last = base;
  last.setArray("q", std::vector<float>(q.begin() + (n - cached) * width, q.end()), {cached, width});
  const Tensor all = compute("attention", id, base).at("weights");
  const Tensor some = compute("attention", id, last).at("weights");
  const int64_t heads = all.shape[0];
  for (int h = 0; h < heads; ++h) {
    for (int t = 0; t < cached * n; ++t) {
      EXPECT_NEAR(some.f32[h * cached * n + t], all.f32[(h * n + n - cached) * n + t], 1e-6) << id;
    }
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------

TEST(Shaw, BucketsAreClippedDistances) {
  Params p = with("buckets", {{"n", 8}, {"clip", 3}});
  const Tensor map = compute("buckets", "shaw", p).at("data");
  ASSERT_TRUE(map.isInt);
  // Golden 003_shaw_bucket_n8_k3.json, row 2.
  const std::vector<int> row2 = {1, 2, 3, 4, 5, 6, 6, 6};
  for (int j = 0; j < 8; ++j) EXPECT_EQ(map.i32[16 + j], row2[j]);
  expectToeplitz(Tensor{map.shape, std::vector<float>(map.i32.begin(), map.i32.end()), {}, false});
  p.setNumber("clip", -1);
  expectRangeError("buckets", "shaw", p, "clip");
}

TEST(Shaw, ProbeScoresUseTheSinusoidOfSignedDistance) {
  Params p = with("scores", {{"n", 12}, {"d", 8}, {"clip", 4}, {"heads", 2}});
  const Tensor s = compute("scores", "shaw", p).at("data");
  ASSERT_EQ(s.shape, (Shape{1, 12, 12}));  // one map serves every head
  std::vector<float> pe(8);
  for (int i = 0; i < 12; ++i) {
    for (int j = 0; j < 12; ++j) {
      sinusoid(std::max(-4, std::min(4, j - i)), 8, 10000, false, pe.data());
      double sum = 0;
      for (float x : pe) sum += x;
      EXPECT_NEAR(s.f32[i * 12 + j], sum / std::sqrt(8.0), 1e-6);
    }
  }
  expectToeplitz(s);
  EXPECT_EQ(s.f32[0 * 12 + 11], s.f32[0 * 12 + 5]);  // beyond the clip distance nothing changes
}

TEST(Shaw, FullLogitsAddTheKeyTable) {
  const int n = 5, d = 3, clip = 1;
  const std::vector<float> q = wave(n * d, 0.8, 0.1), k = wave(n * d, 1.9, 0.4), aK = wave(3 * d, 2.3, 0.7);
  Params p = params("scores");
  p.setArray("q", q, {n, d});
  p.setArray("k", k, {n, d});
  p.setArray("aK", aK, {3, d});
  p.setNumber("clip", clip);
  const Tensor s = compute("scores", "shaw", p).at("data");
  ASSERT_EQ(s.shape, (Shape{n, n}));
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const int idx = std::max(-clip, std::min(clip, j - i)) + clip;
      const double want = (dot(&q[i * d], &k[j * d], d) + dot(&q[i * d], &aK[idx * d], d)) / std::sqrt(double(d));
      EXPECT_NEAR(s.f32[i * n + j], want, 1e-6);
    }
  }
  p.setArray("aK", wave(2 * d, 1, 0), {2, d});
  expectRangeError("scores", "shaw", p, "aK");
}

TEST(Shaw, AttentionIndexFollowsTheQueryOffset) {
  Params p = params("attention");
  p.setNumber("clip", 2);
  p.setArray("aK", wave(5 * 4, 0.5, 0.2), {5, 4});
  expectCacheMatchesFullAttention("shaw", p, 6, 4, 2);
  Params two = params("attention");
  two.setNumber("heads", 2);
  expectCacheMatchesFullAttention("shaw", two, 7, 8, 3);
}

// ---------------------------------------------------------------------------------------------

TEST(TransformerXl, UntrainedDefaultIsContentPlusSinusoidOfQueryMinusKey) {
  const int n = 6, d = 4;
  const std::vector<float> q = wave(n * d, 0.8, 0.1), k = wave(n * d, 1.9, 0.4);
  Params p = params("scores");
  p.setArray("q", q, {n, d});
  p.setArray("k", k, {n, d});
  const Tensor s = compute("scores", "transformer-xl", p).at("data");
  ASSERT_EQ(s.shape, (Shape{n, n}));
  std::vector<float> r(d);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      sinusoid(i - j, d, 10000, true, r.data());  // R(i - j), concat layout; u = v = 0, W_R = I
      const double want = (dot(&q[i * d], &k[j * d], d) + dot(&q[i * d], r.data(), d)) / 2.0;
      EXPECT_NEAR(s.f32[i * n + j], want, 1e-6);
    }
  }
}

TEST(TransformerXl, PositionTermsAreTranslationInvariant) {
  Params p = with("scores", {{"n", 10}, {"d", 4}, {"dR", 6}});
  p.setArray("v", {0.3f, -0.2f, 0.5f, 0.1f}, {4});
  p.setArray("q", {1.0f, 0.5f, -0.5f, 2.0f}, {4});
  p.setArray("WR", wave(24, 0.9, 0.5), {6, 4});
  const Tensor s = compute("scores", "transformer-xl", p).at("data");
  ASSERT_EQ(s.shape, (Shape{1, 10, 10}));
  expectToeplitz(s);
  p.setNumber("dR", 5);
  expectRangeError("scores", "transformer-xl", p, "dR");
  p.setNumber("dR", 4);
  expectRangeError("scores", "transformer-xl", p, "WR");
}

TEST(TransformerXl, AttentionWithAKvCacheMatchesFullAttention) {
  Params p = params("attention");
  p.setArray("u", {0.1f, -0.3f, 0.2f, 0.4f}, {4});
  expectCacheMatchesFullAttention("transformer-xl", p, 6, 4, 2);
}

// ---------------------------------------------------------------------------------------------

TEST(Deberta, LogBucketsMatchGoldenAndPublishedFacts) {
  Params p = with("buckets", {{"n", 40}, {"positionBuckets", 16}, {"maxRelativePositions", 32}});
  const Tensor log = compute("buckets", "deberta", p).at("data");
  // Golden 012_deberta_bucket_n40_pb16_mrp32_log.json, row 39 (delta = 39 - j): not clamped.
  const std::vector<int> row39 = {17, 17, 16, 16, 16, 16, 16, 16, 15, 15, 15, 15, 15, 15, 14, 14, 14, 14, 13, 13,
                                  13, 13, 12, 12, 12, 11, 11, 11, 10, 10, 9,  8,  7,  6,  5,  4,  3,  2,  1,  0};
  for (int j = 0; j < 40; ++j) EXPECT_EQ(log.i32[39 * 40 + j], row39[j]) << j;
  p.setString("output", "index");
  const Tensor index = compute("buckets", "deberta", p).at("data");
  // Golden 013_deberta_bucket_n40_pb16_mrp32_index.json, row 0.
  const std::vector<int> row0 = {16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3,
                                 3,  3,  2,  2,  2,  2,  1,  1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0};
  for (int j = 0; j < 40; ++j) EXPECT_EQ(index.i32[j], row0[j]) << j;

  for (int delta = -8; delta <= 8; ++delta) EXPECT_EQ(log.i32[(20 + delta) * 40 + 20], delta);  // identity near 0
  EXPECT_EQ(debertaBucket(16, 32, 31), 15);  // bucket(P-1) = 2 mid - 1
  EXPECT_EQ(debertaBucket(16, 32, -31), -15);
  EXPECT_EQ(debertaBucket(256, 512, 511), 255);
}

TEST(Deberta, TiesFollowExactArithmetic) {
  // docs/buckets.md: 125/64 = 1.25^3 -> exactly 189 -> +-253 (float32: +-254); 15 ln2 / ln8 = 5 -> 21.
  EXPECT_EQ(debertaBucket(128, 81, 125), 253);
  EXPECT_EQ(debertaBucket(128, 81, -125), -253);
  EXPECT_EQ(debertaBucket(32, 129, 32), 21);
}

TEST(Deberta, BucketsAreOddMonotoneAndTranslationInvariant) {
  for (auto [pb, mrp] :
       {std::pair{16, 32}, std::pair{256, 512}, std::pair{128, 81}, std::pair{4, 8}, std::pair{0, 6}}) {
    const int n = 300;
    Params p = with("buckets", {{"n", n}, {"positionBuckets", pb}, {"maxRelativePositions", mrp}});
    const Tensor map = compute("buckets", "deberta", p).at("data");
    for (int delta = 1; delta < n; ++delta) {
      EXPECT_EQ(map.i32[delta * n], -map.i32[delta]);                                 // odd
      EXPECT_LE(map.i32[(delta - 1) * n], map.i32[delta * n]) << pb << " " << delta;  // monotone in |delta|
    }
    for (int i = 0; i + 1 < n; i += 7) {
      for (int j = 0; j + 1 < n; j += 5) ASSERT_EQ(map.i32[i * n + j], map.i32[(i + 1) * n + j + 1]);
    }
  }
}

TEST(Deberta, InvalidBucketConfigurationsAreRangeErrors) {
  Params p = with("buckets", {{"n", 4}, {"positionBuckets", 1}});
  expectRangeError("buckets", "deberta", p, "positionBuckets");
  p.setNumber("positionBuckets", 16);
  p.setNumber("maxRelativePositions", 9);  // P - 1 = 8 is not > 16/2
  expectRangeError("buckets", "deberta", p, "maxRelativePositions");
  p.setNumber("maxRelativePositions", 10);
  EXPECT_NO_THROW(compute("buckets", "deberta", p));
  p.setNumber("positionBuckets", 0);
  p.setNumber("maxRelativePositions", 1);
  expectRangeError("buckets", "deberta", p, "maxRelativePositions");
}

TEST(Deberta, FullLogitsAreDisentangledTermsOverSqrtOfScaledDim) {
  const int n = 5, d = 4, span = 4;  // positionBuckets 4, P 8
  const std::vector<float> qc = wave(n * d, 0.7, 0.2), kc = wave(n * d, 1.3, 0.9);
  const std::vector<float> qr = wave(2 * span * d, 2.1, 0.3), kr = wave(2 * span * d, 0.4, 1.7);
  Params p = params("scores");
  p.setArray("qc", qc, {n, d});
  p.setArray("kc", kc, {n, d});
  p.setArray("qr", qr, {2 * span, d});
  p.setArray("kr", kr, {2 * span, d});
  p.setNumber("positionBuckets", 4);
  p.setNumber("maxRelativePositions", 8);
  const Tensor both = compute("scores", "deberta", p).at("data");
  Value c2pOnly;
  c2pOnly.type = Value::Type::Strings;
  c2pOnly.strings = {"c2p"};
  p.set("posAttType", c2pOnly);
  const Tensor c2p = compute("scores", "deberta", p).at("data");
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      int delta = i - j, bucket = delta;
      if (std::abs(delta) > 2)
        bucket = (delta > 0 ? 1 : -1) * (int(std::ceil(std::log(std::abs(delta) / 2.0) / std::log(3.5))) + 2);
      const int idx = std::max(0, std::min(2 * span - 1, bucket + span));
      const double content = dot(&qc[i * d], &kc[j * d], d);
      const double toPos = dot(&qc[i * d], &kr[idx * d], d), fromPos = dot(&kc[j * d], &qr[idx * d], d);
      EXPECT_NEAR(both.f32[i * n + j], (content + toPos + fromPos) / std::sqrt(3.0 * d), 1e-6);
      EXPECT_NEAR(c2p.f32[i * n + j], (content + toPos) / std::sqrt(2.0 * d), 1e-6);
    }
  }
  c2pOnly.strings = {"p2p"};
  p.set("posAttType", c2pOnly);
  expectRangeError("scores", "deberta", p, "posAttType");
}

TEST(Deberta, ProbeScoresAreTranslationInvariant) {
  Params p = with("scores", {{"n", 20}, {"d", 8}, {"positionBuckets", 8}, {"maxRelativePositions", 16}});
  const Tensor s = compute("scores", "deberta", p).at("data");
  ASSERT_EQ(s.shape, (Shape{1, 20, 20}));
  expectToeplitz(s);
}

TEST(Deberta, AttentionWithAKvCacheMatchesFullAttention) {
  Params p = with("attention", {{"positionBuckets", 4}, {"maxRelativePositions", 6}, {"heads", 2}});
  expectCacheMatchesFullAttention("deberta", p, 7, 8, 3);
}

TEST(RelativeVector, CatalogueEntriesAreComplete) {
  for (const char* id : {"shaw", "transformer-xl", "deberta"}) {
    const Scheme& s = findScheme("test", id);
    EXPECT_EQ(s.family, "relative vector");
    EXPECT_NE(s.cite.find("arXiv:"), std::string::npos) << id;
    EXPECT_FALSE(s.name.empty());
    EXPECT_FALSE(s.description.empty());
    EXPECT_NE(s.scores, nullptr);
    for (const auto& info : s.params) EXPECT_FALSE(info.doc.empty()) << id << "." << info.name;
  }
}
