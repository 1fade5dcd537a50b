// p-rope (docs/rotary.md): only the highest-frequency fraction p of the pairs rotates. p = 1 is rope
// bit for bit, p = 0 is nope, and in between exactly the first floor(p r/2) pairs turn.
#include <gtest/gtest.h>

#include "relpos/relpos.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::attendContent;
using relpos::testing::labLosses;
using relpos::testing::learned;
using relpos::testing::wave;
using relpos::testing::with;

namespace {

Params withP(Params p, double value) {
  p.setNumber("p", value);
  return p;
}

}  // namespace

TEST(PRope, WithPOneItIsRopeBitForBit) {
  const Params freq = with("frequencies", {{"d", 32}});
  EXPECT_EQ(compute("frequencies", "p-rope", withP(freq, 1)).at("invFreq").f32,
            compute("frequencies", "rope", freq).at("invFreq").f32);
  Params rot = with("rotate", {});
  rot.setArray("x", wave(7 * 24, 0.9, 0.2), {7, 24});
  rot.setArray("positions", {0, 3, 100, 7, 1e5, 2.5f, 9}, {7});
  EXPECT_EQ(compute("rotate", "p-rope", withP(rot, 1)).at("data").f32, compute("rotate", "rope", rot).at("data").f32);
  const Params scores = with("scores", {{"n", 12}, {"d", 16}});
  EXPECT_EQ(compute("scores", "p-rope", withP(scores, 1)).at("data").f32,
            compute("scores", "rope", scores).at("data").f32);
  EXPECT_EQ(attendContent("p-rope", withP(Params("relpos.attention"), 1), 16).at("weights").f32,
            attendContent("rope", Params("relpos.attention"), 16).at("weights").f32);
}

TEST(PRope, WithPZeroItIsNope) {
  const Result none = attendContent("nope", Params("relpos.attention"), 16);
  const Result zero = attendContent("p-rope", withP(Params("relpos.attention"), 0), 16);
  EXPECT_EQ(zero.at("weights").f32, none.at("weights").f32);
  EXPECT_EQ(zero.at("output").f32, none.at("output").f32);
  EXPECT_NE(attendContent("rope", Params("relpos.attention"), 16).at("weights").f32,
            none.at("weights").f32);  // rotation does change them
  Params rot = with("rotate", {});
  const std::vector<float> x = wave(5 * 8, 0.9, 0.2);
  rot.setArray("x", x, {5, 8});
  EXPECT_EQ(compute("rotate", "p-rope", withP(rot, 0)).at("data").f32, x);
}

TEST(PRope, ExactlyTheFirstFloorPRHalfPairsTurn) {
  for (double p : {0.25, 0.5, 0.75, 0.9}) {
    const std::vector<float> rope = compute("frequencies", "rope", with("frequencies", {{"d", 16}})).at("invFreq").f32;
    const std::vector<float> got =
        compute("frequencies", "p-rope", withP(with("frequencies", {{"d", 16}}), p)).at("invFreq").f32;
    const size_t rotating = static_cast<size_t>(std::floor(p * 16 / 2));
    for (size_t k = 0; k < got.size(); ++k) EXPECT_EQ(got[k], k < rotating ? rope[k] : 0.0f) << p << " pair " << k;
  }
  // The default p = 0.75 of a 64-wide head: 24 of 32 pairs.
  const std::vector<float> def = compute("frequencies", "p-rope", with("frequencies", {{"d", 64}})).at("invFreq").f32;
  EXPECT_NE(def[23], 0.0f);
  EXPECT_EQ(def[24], 0.0f);
}

TEST(PRope, TheLabTrainsWithIt) {
  EXPECT_TRUE(learned(labLosses("p-rope")));
}
