// The public edge refuses bad input with ArgumentError (TypeError / RangeError) naming the function,
// the parameter and the value, also for parameters the call does not read, and sizes every
// allocation up front (kMaxResultElements, kMaxWorkingSetBytes).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "relpos/analysis/analysis.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/ops/operations.hpp"
#include "relpos/schemes/registry.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using namespace relpos::testing;

TEST(Hardening, ParametersTheCallIgnoresAreStillValidated) {
  Params p = with("buckets", {{"n", 4}, {"heads", std::nan("")}});
  Failure f = failure("buckets", "t5", p);
  ASSERT_TRUE(f.thrown);
  EXPECT_EQ(f.kind, ArgumentError::Kind::Range);
  EXPECT_EQ(f.message, "relpos.buckets: heads must be finite, got NaN");

  Params layout = with("frequencies", {{"d", 8}});
  layout.setNumber("layout", 3);
  f = failure("frequencies", "rope", layout);
  ASSERT_TRUE(f.thrown);
  EXPECT_EQ(f.kind, ArgumentError::Kind::Type);
  EXPECT_EQ(f.message, "relpos.frequencies: layout must be one of 'half', 'interleaved', got 3");

  Params causal = with("scores", {{"n", 2}, {"d", 8}});
  causal.setString("causal", "yes");
  f = failure("scores", "rope", causal);
  ASSERT_TRUE(f.thrown);
  EXPECT_EQ(f.message, "relpos.scores: causal must be a boolean, got 'yes'");
}

TEST(Hardening, TypeErrorsSayWhatTheyGot) {
  Params p = params("bias");
  p.setNumber("n", 4);
  p.setBoolean("alibiBiasMax", true);
  Failure f = failure("bias", "alibi", p);
  ASSERT_TRUE(f.thrown);
  EXPECT_EQ(f.kind, ArgumentError::Kind::Type);
  EXPECT_EQ(f.message, "relpos.bias: alibiBiasMax must be a number, got true");
}

TEST(Hardening, FrequenciesCheckRotaryDim) {
  Failure f = failure("frequencies", "rope", with("frequencies", {{"d", 8}, {"rotaryDim", 10}}));
  ASSERT_TRUE(f.thrown);
  EXPECT_EQ(f.message, "relpos.frequencies: rotaryDim must be <= d (8), got 10");
  const Result r = compute("frequencies", "rope", with("frequencies", {{"d", 8}, {"rotaryDim", 4}}));
  ASSERT_EQ(r.at("invFreq").f32.size(), 2u);
  EXPECT_FLOAT_EQ(r.at("invFreq").f32[1], static_cast<float>(std::pow(10000.0, -0.5)));
}

TEST(Hardening, HugePositionsDoNotOverflowIntegerCasts) {
  Params p = with("frequencies", {{"d", 8}, {"factor", 2}});
  p.setArray("positions", {3e38f, 0.0f}, {2});
  EXPECT_NO_THROW(compute("frequencies", "rope-dynamic", p));
  Params offsets = with("scores", {{"d", 8}});
  offsets.setString("output", "offsets");
  offsets.setArray("offsets", {-3e38f, 1.0f}, {2});
  EXPECT_NO_THROW(compute("scores", "rope-longrope", offsets));
}

// Memory limits hold also where the work budget is lifted (the worker, jobs, rp.unbounded()).
namespace {
Params unbounded(Params p) {
  p.setWorkBudget(std::numeric_limits<double>::infinity());
  return p;
}
}  // namespace

TEST(Hardening, WorkingSetIsRefusedBeforeAllocating) {
  Failure f = failure("scores", "rope", unbounded(with("scores", {{"n", 8192}, {"d", 65536}})));
  ASSERT_TRUE(f.thrown);
  EXPECT_NE(f.message.find("relpos.scores: this call would need"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("over the limit of 1024 MiB"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("rp.attentionMap"), std::string::npos) << f.message;

  f = failure("scores", "shaw", unbounded(with("scores", {{"n", 8000}, {"d", 65536}, {"clip", 1 << 20}})));
  ASSERT_TRUE(f.thrown);
  EXPECT_NE(f.message.find("aK"), std::string::npos) << f.message;

  f = failure("scores", "transformer-xl", unbounded(with("scores", {{"n", 8000}, {"d", 65536}})));
  ASSERT_TRUE(f.thrown);
  EXPECT_NE(f.message.find("working memory"), std::string::npos) << f.message;
}

TEST(Hardening, RotaryAttentionWithAHugeQueryOffset) {
  Params p = params("attention");
  p.setArray("q", {1, 0, 0, 1, 0, 1, 1, 0}, {2, 4});
  p.setArray("k", {1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 1, 1}, {3, 4});
  p.setNumber("queryOffset", 1e9);
  const Result far = compute("attention", "rope", p);
  ASSERT_EQ(far.at("weights").f32.size(), 6u);
  for (float w : far.at("weights").f32) EXPECT_TRUE(std::isfinite(w));
  // Against the same call with the two tables computed over one span (small offset) shifted: only
  // j - (i + offset) matters, so offset 1e9 with keys at 1e9.. equals offset 0 with keys at 0..;
  // here simply check each row is a distribution.
  for (int i = 0; i < 2; ++i) {
    double sum = 0;
    for (int j = 0; j < 3; ++j) sum += far.at("weights").f32[i * 3 + j];
    EXPECT_NEAR(sum, 1.0, 1e-5);
  }
}
