// rope-2d (docs/rotary.md): axial rotary on a grid of `width` columns. Scores depend on the offset
// (dx, dy) between two tokens and on nothing else — in particular not on t' - t alone.
#include <gtest/gtest.h>

#include <cmath>

#include "relpos/analysis_lab.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::learned;
using relpos::testing::wave;
using relpos::testing::with;

namespace {

constexpr int64_t kWidth = 5;

Tensor scores2d(int64_t n, int64_t d) {
  Params p = with("scores", {{"n", n}, {"d", d}, {"width", kWidth}});
  p.setArray("q", wave(static_cast<int>(d), 0.9, 0.3), {d});
  p.setArray("k", wave(static_cast<int>(d), 1.7, 0.8), {d});
  return compute("scores", "rope-2d", p).at("data");
}

}  // namespace

TEST(Rope2d, ScoresDependOnlyOnTheGridOffset) {
  const int64_t n = 30, d = 16;
  const Tensor s = scores2d(n, d);
  ASSERT_EQ(s.shape, (Shape{1, n, n}));
  const auto dx = [](int64_t i, int64_t j) { return j % kWidth - i % kWidth; };
  const auto dy = [](int64_t i, int64_t j) { return j / kWidth - i / kWidth; };
  int64_t same = 0, differentOffsets = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t a = 0; a < n; ++a) {
        for (int64_t b = 0; b < n; ++b) {
          const float x = s.f32[i * n + j], y = s.f32[a * n + b];
          if (dx(i, j) == dx(a, b) && dy(i, j) == dy(a, b)) {
            ASSERT_NEAR(x, y, 1e-5 * (1 + std::fabs(x))) << i << "," << j << " vs " << a << "," << b;
            ++same;
          } else if (j - i == b - a && std::fabs(x - y) > 1e-3) {
            ++differentOffsets;  // same t' - t, another grid offset: another score
          }
        }
      }
    }
  }
  EXPECT_GT(same, 10000);
  EXPECT_GT(differentOffsets, 1000);
}

TEST(Rope2d, HalfThePairsTurnWithTheColumnAndHalfWithTheRow) {
  const std::vector<float> inv = compute("frequencies", "rope-2d", with("frequencies", {{"d", 16}})).at("invFreq").f32;
  ASSERT_EQ(inv.size(), 8u);
  for (int k = 0; k < 4; ++k) {
    EXPECT_FLOAT_EQ(inv[k], static_cast<float>(std::pow(100.0, -4.0 * k / 16)));  // base 100
    EXPECT_EQ(inv[4 + k], inv[k]);
  }
  // A token one column to the right turns only the first half; one row down only the second.
  Params p = with("rotate", {{"width", kWidth}});
  p.setArray("x", std::vector<float>(3 * 16, 1.0f), {3, 16});
  p.setArray("positions", {0, 1, kWidth}, {3});
  const std::vector<float> r = compute("rotate", "rope-2d", p).at("data").f32;
  for (int c = 0; c < 16; ++c) {
    EXPECT_EQ(r[c], 1.0f);                                   // position 0: (0, 0)
    EXPECT_EQ(r[16 + c] == 1.0f, c >= 8) << "column " << c;  // (1, 0): the row pairs keep still
    EXPECT_EQ(r[32 + c] == 1.0f, c < 8) << "column " << c;   // (0, 1): the column pairs keep still
  }
}

TEST(Rope2d, GivenPositionsAreColumnAndRow) {
  Params flat = with("rotate", {{"width", kWidth}});
  const std::vector<float> x = wave(4 * 8, 0.9, 0.2);
  flat.setArray("x", x, {4, 8});
  Params grid = flat;
  flat.setArray("positions", {0, 7, 13, 24}, {4});
  grid.setArray("positions", {0, 0, 2, 1, 3, 2, 4, 4}, {4, 2});  // (x, y) = (t mod 5, t / 5)
  EXPECT_EQ(compute("rotate", "rope-2d", grid).at("data").f32, compute("rotate", "rope-2d", flat).at("data").f32);
  // A 1-D scheme has no columns and rows: (x, y) positions are refused.
  Params oneD = with("rotate", {});
  oneD.setArray("x", x, {4, 8});
  oneD.setArray("positions", {0, 0, 2, 1, 3, 2, 4, 4}, {4, 2});
  const relpos::testing::Failure f = relpos::testing::failure("rotate", "rope", oneD);
  EXPECT_TRUE(f.thrown && f.names("positions")) << f.message;
}

TEST(Rope2d, ItsLongMapsStreamTheProbeOfItsScores) {
  // Not shift-invariant in t, so the pooled map streams; without content its queries and keys are
  // the ones probe of rp.scores, i.e. the map is attention over the rotated ones.
  const int64_t n = 40, d = 8;
  Params a = with("attention", {{"width", kWidth}});
  a.setArray("q", std::vector<float>(n * d, 1.0f), {n, d});
  a.setArray("k", std::vector<float>(n * d, 1.0f), {n, d});
  const std::vector<float> weights = compute("attention", "rope-2d", a).at("weights").f32;
  Params m = with("attentionMap", {{"n", n}, {"d", d}, {"size", n}, {"width", kWidth}});
  m.setString("scheme", "rope-2d");
  m.setString("pool", "mean");
  std::unique_ptr<Job> job = startJob("attentionMap", m);
  while (!job->done()) job->step(8);
  const std::vector<float> map = job->result().at("data").f32;
  ASSERT_EQ(map.size(), weights.size());
  for (size_t t = 0; t < map.size(); ++t) EXPECT_NEAR(map[t], weights[t], 1e-5 * (1 + weights[t])) << t;
}

TEST(Rope2d, TheLabTrainsWithIt) {
  EXPECT_TRUE(learned(relpos::testing::labLosses("rope-2d")));
  // A head width the axes cannot share is refused up front.
  Params options = with("train", {{"dModel", 12}});  // 2 heads of 6: not divisible by 4
  options.setString("scheme", "rope-2d");
  EXPECT_THROW(startAnalysisJob("train", options), ArgumentError);
}
