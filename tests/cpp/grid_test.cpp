// Query-key grids (schemes/grid.hpp), per-head rotation and the scaling details real models need,
// in the core: a KV-cache bias is the last rows of the square one, explicit positions place queries
// and keys, causal masks by position, heads split x, llama3 with equal factors is a hard step.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "test_helpers.hpp"

namespace {

using relpos::Params;
using relpos::Shape;
using relpos::Tensor;
using relpos::testing::data;
using relpos::testing::failure;
using relpos::testing::params;
using relpos::testing::wave;
using relpos::testing::with;

Tensor run(const std::string& op, const std::string& id, const Params& p) {
  return relpos::compute(op, id, p).at("data");
}

TEST(Grid, AKvCacheBiasIsTheLastRowsOfTheSquareOneForEveryBiasScheme) {
  for (const char* id : {"alibi", "t5", "kerple-log", "kerple-power", "sandwich", "fire", "exp-decay", "sin-freq"}) {
    const Tensor square = run("bias", id, with("bias", {{"n", 7}, {"heads", 2}}));
    const Tensor cache = run("bias", id, with("bias", {{"n", 3}, {"m", 7}, {"heads", 2}}));
    const int64_t heads = cache.shape[0];
    ASSERT_EQ(cache.shape, (Shape{heads, 3, 7})) << id;
    for (int64_t h = 0; h < heads; ++h) {
      for (int64_t i = 0; i < 3; ++i) {
        for (int64_t j = 0; j < 7; ++j) {
          EXPECT_NEAR(cache.f32[(h * 3 + i) * 7 + j], square.f32[(h * 7 + i + 4) * 7 + j], 1e-6) << id;
        }
      }
    }
  }
}

TEST(Grid, ExplicitPositionsPlaceQueriesAndKeysAndCausalMasksByPosition) {
  Params p = with("bias", {{"heads", 1}});
  p.setArray("queryPositions", {2, 5}, {2});
  p.setArray("keyPositions", {0, 3, 5, 6}, {4});
  p.setBoolean("causal", true);
  const Tensor b = run("bias", "alibi", p);
  ASSERT_EQ(b.shape, (Shape{1, 2, 4}));
  const double m = std::pow(2.0, -8.0);  // one head
  const float inf = -std::numeric_limits<float>::infinity();
  const std::vector<float> want = {static_cast<float>(-2 * m), inf, inf, inf, static_cast<float>(-5 * m),
                                   static_cast<float>(-2 * m), 0,   inf};
  EXPECT_EQ(b.f32, want);
}

TEST(Grid, PositionsPerSequenceGiveABatchAxis) {
  Params p = with("bias", {{"n", 3}, {"heads", 2}});
  p.setString("form", "keyPosition");
  p.setArray("keyPositions", {0, 0, 1, 0, 1, 2}, {2, 3});
  const Tensor b = run("bias", "alibi", p);
  ASSERT_EQ(b.shape, (Shape{2, 2, 3, 3}));
  // Head 0's slope is 2^-4: sequence 0 has keys at 0, 0, 1, sequence 1 at 0, 1, 2.
  EXPECT_EQ(b.f32[0 * 18 + 1], 0.0f);
  EXPECT_EQ(b.f32[0 * 18 + 2], 0.0625f);
  EXPECT_EQ(b.f32[1 * 18 + 2], 0.125f);
}

TEST(Grid, ConflictingSizesAndBucketPositionsAreRangeErrorsNamingThem) {
  Params p = with("bias", {{"n", 4}});
  p.setArray("queryPositions", {0, 1, 2}, {3});
  EXPECT_TRUE(failure("bias", "alibi", p).names("n (4) differs from the length of queryPositions (3)"));
  Params q = params("buckets");
  q.setArray("queryPositions", {0.5}, {1});
  q.setArray("keyPositions", {0, 1}, {2});
  EXPECT_TRUE(failure("buckets", "t5", q).names("t5 needs integer positions"));
  q.setArray("queryPositions", {1e30}, {1});
  EXPECT_TRUE(failure("buckets", "t5", q).names("t5 needs integer positions"));
}

TEST(Grid, T5WithCausalReadsTheDecoderBucketsAndMarksLaterKeys) {
  Params causal = with("buckets", {{"n", 20}});
  causal.setBoolean("causal", true);
  Params decoder = with("buckets", {{"n", 20}});
  decoder.setBoolean("bidirectional", false);
  const Tensor masked = run("buckets", "t5", causal);
  const Tensor uni = run("buckets", "t5", decoder);
  Params both = causal;
  both.setBoolean("bidirectional", true);
  const Tensor bi = run("buckets", "t5", both);
  const Tensor encoder = run("buckets", "t5", with("buckets", {{"n", 20}}));
  for (int i = 0; i < 20; ++i) {
    for (int j = 0; j < 20; ++j) {
      const int e = i * 20 + j;
      EXPECT_EQ(masked.i32[e], j > i ? -1 : uni.i32[e]) << i << ", " << j;
      EXPECT_EQ(bi.i32[e], j > i ? -1 : encoder.i32[e]) << i << ", " << j;
    }
  }
}

TEST(Grid, ViewsWithoutPerHeadParametersReturnOneMap) {
  const Tensor s = run("scores", "rope", with("scores", {{"n", 4}, {"d", 8}, {"heads", 8}}));
  EXPECT_EQ(s.shape, (Shape{1, 4, 4}));
  const relpos::CallNotes notes = relpos::callNotes("scores", "rope", with("scores", {{"heads", 8}}));
  EXPECT_TRUE(notes.sameForEveryHead);
  EXPECT_EQ(run("bias", "alibi", with("bias", {{"n", 4}, {"heads", 8}})).shape, (Shape{8, 4, 4}));
}

TEST(Grid, RotaryScoresAreMaskedWhenCausal) {
  Params p = with("scores", {{"n", 4}, {"d", 8}});
  p.setBoolean("causal", true);
  const Tensor s = run("scores", "rope", p);
  EXPECT_EQ(s.f32[1], -std::numeric_limits<float>::infinity());
  EXPECT_FLOAT_EQ(s.f32[0], 8.0f);
}

TEST(Rotate, HeadsSplitXAndStartIndexOffsetsTheRotatedDims) {
  const std::vector<float> x = wave(2 * 16, 0.7, 0.2);
  Params both = with("rotate", {{"heads", 2}, {"rotaryDim", 4}, {"startIndex", 2}});
  both.setArray("x", x, {2, 16});
  both.setArray("positions", {3, 9}, {2});
  const Tensor all = run("rotate", "rope", both);
  for (int head = 0; head < 2; ++head) {
    Params one = with("rotate", {{"rotaryDim", 4}, {"startIndex", 2}});
    std::vector<float> slice;
    for (int i = 0; i < 2; ++i)
      slice.insert(slice.end(), x.begin() + i * 16 + head * 8, x.begin() + i * 16 + head * 8 + 8);
    one.setArray("x", slice, {2, 8});
    one.setArray("positions", {3, 9}, {2});
    const Tensor part = run("rotate", "rope", one);
    for (int i = 0; i < 2; ++i) {
      for (int c = 0; c < 8; ++c) EXPECT_EQ(all.f32[i * 16 + head * 8 + c], part.f32[i * 8 + c]);
      for (int c : {0, 1, 6, 7}) EXPECT_EQ(part.f32[i * 8 + c], slice[i * 8 + c]);  // outside dims 2..5
    }
  }
  Params wide = with("rotate", {{"d", 8}});
  wide.setArray("x", x, {2, 16});
  EXPECT_TRUE(failure("rotate", "rope", wide).names("pass heads: 2"));
}

TEST(RopeLlama3, EqualFactorsAreAHardStep) {
  Params p = with("frequencies", {{"d", 128},
                                  {"base", 500000},
                                  {"factor", 16},
                                  {"lowFreqFactor", 1},
                                  {"highFreqFactor", 1},
                                  {"originalMaxPositionEmbeddings", 8192}});
  const std::vector<float> inv = data(relpos::compute("frequencies", "rope-llama3", p), "invFreq");
  for (int k = 0; k < 64; ++k) {
    const double theta = std::pow(500000.0, -2.0 * k / 128);
    EXPECT_FLOAT_EQ(inv[k], static_cast<float>(2 * M_PI / theta > 8192 ? theta / 16 : theta)) << k;
  }
  p.setNumber("highFreqFactor", 0.5);
  EXPECT_TRUE(failure("frequencies", "rope-llama3", p).names("highFreqFactor must be >= lowFreqFactor"));
}

TEST(RopeYarn, ZeroInTheMscalePairMeansUnset) {
  Params p = with("frequencies", {{"d", 64}, {"factor", 40}, {"originalMaxPositionEmbeddings", 4096}});
  p.setNumber("mscale", 0.707);
  p.setNumber("mscaleAllDim", 0);
  const double factor = data(relpos::compute("frequencies", "rope-yarn", p), "attentionFactor")[0];
  EXPECT_NEAR(factor, 0.1 * std::log(40.0) + 1, 1e-6);
  p.erase("mscaleAllDim");
  EXPECT_TRUE(failure("frequencies", "rope-yarn", p).names("mscale needs mscaleAllDim"));
}

TEST(RopeLongrope, AGivenAttentionFactorReplacesTheDerivedOne) {
  Params p = with("frequencies", {{"d", 16}, {"factor", 10}, {"originalMaxPositionEmbeddings", 2048}});
  p.setNumber("attentionFactor", 0.5);
  EXPECT_EQ(data(relpos::compute("frequencies", "rope-longrope", p), "attentionFactor")[0], 0.5f);
}

TEST(Rope, CallerGivenInverseFrequencies) {
  Params p = params("frequencies");
  p.setArray("invFreq", {3.0f, 1.5f}, {2});
  EXPECT_EQ(data(relpos::compute("frequencies", "rope", p), "invFreq"), (std::vector<float>{3.0f, 1.5f}));
  p.setNumber("base", 500);
  EXPECT_TRUE(failure("frequencies", "rope", p).names("give base or invFreq, not both"));
}

}  // namespace
