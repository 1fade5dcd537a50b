#include <gtest/gtest.h>

#include <cmath>

#include "relpos/base/errors.hpp"
#include "relpos/ops/operations.hpp"
#include "relpos/schemes/bias_family.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::params;
using relpos::testing::with;

TEST(Alibi, EightHeadSlopesArePowersOfOneHalf) {
  const auto slopes = alibiSlopes(8, 8.0);
  for (int h = 0; h < 8; ++h) EXPECT_DOUBLE_EQ(slopes[h], std::pow(2.0, -(h + 1)));
}

TEST(Alibi, SlopesFollowTheGeometricRuleForEveryHeadCount) {
  for (int heads = 1; heads <= 128; ++heads) {
    const auto slopes = alibiSlopes(heads, 8.0);
    ASSERT_EQ(static_cast<int>(slopes.size()), heads);
    int c = 1;
    while (c * 2 <= heads) c *= 2;
    // The first c heads are the c-head geometric list 2^(-8t/c).
    for (int t = 0; t < c; ++t) EXPECT_DOUBLE_EQ(slopes[t], std::pow(2.0, -8.0 * (t + 1) / c)) << heads;
    // The rest are every other slope of the 2c-head list, starting at the first.
    for (int t = c; t < heads; ++t)
      EXPECT_DOUBLE_EQ(slopes[t], std::pow(2.0, -8.0 * (2 * (t - c) + 1) / (2 * c))) << heads;
  }
}

TEST(Alibi, SymmetricBiasIsTranslationInvariantAndCausalMasksTheFuture) {
  Params p = with("bias", {{"n", 9}, {"heads", 3}});
  p.setBoolean("causal", true);
  const Tensor b = compute("bias", "alibi", p).at("data");
  ASSERT_EQ(b.shape, (Shape{3, 9, 9}));
  for (int h = 0; h < 3; ++h) {
    for (int i = 0; i + 1 < 9; ++i) {
      for (int j = 0; j + 1 < 9; ++j) {
        if (j <= i) EXPECT_EQ(b.f32[(h * 9 + i) * 9 + j], b.f32[(h * 9 + i + 1) * 9 + j + 1]);
      }
      EXPECT_TRUE(std::isinf(b.f32[(h * 9 + i) * 9 + i + 1]));
    }
  }
}

TEST(Alibi, UnknownParameterIsARangeErrorNamingIt) {
  const relpos::testing::Failure f =
      relpos::testing::failure("bias", "alibi", relpos::testing::with("bias", {{"n", 4}, {"slope", 2}}));
  EXPECT_TRUE(f.thrown);
  EXPECT_EQ(f.kind, ArgumentError::Kind::Range);
  EXPECT_TRUE(f.names("'slope'")) << f.message;
}

TEST(Catalogue, UnknownSchemeListsKnownIds) {
  try {
    compute("bias", "bogus", params("bias"));
    FAIL();
  } catch (const ArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("'alibi'"), std::string::npos);
  }
}
