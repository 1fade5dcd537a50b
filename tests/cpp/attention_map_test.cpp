#include "relpos/ops/attention_map.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "relpos/base/errors.hpp"
#include "relpos/ops/operations.hpp"
#include "relpos/relpos.hpp"
#include "relpos/schemes/registry.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::params;
using relpos::testing::with;

namespace {

Tensor runMap(const Params& p) {
  std::unique_ptr<Job> job = startJob("attentionMap", p);
  double progress = 0;
  while (!job->done()) {
    const double next = job->step(3);
    EXPECT_GE(next, progress);
    progress = next;
  }
  EXPECT_DOUBLE_EQ(progress, 1.0);
  return job->result().at("data");
}

// Brute force: the full [n, n] weights of one head, pooled over the same tiles.
std::vector<double> pooledReference(const std::vector<float>& w, int64_t n, int64_t size, bool max) {
  std::vector<double> out(static_cast<size_t>(size * size), 0.0);
  for (int64_t a = 0; a < size; ++a) {
    for (int64_t b = 0; b < size; ++b) {
      const int64_t i0 = a * n / size, i1 = (a + 1) * n / size, j0 = b * n / size, j1 = (b + 1) * n / size;
      double acc = 0;
      for (int64_t i = i0; i < i1; ++i) {
        for (int64_t j = j0; j < j1; ++j)
          acc = max ? std::max(acc, static_cast<double>(w[i * n + j])) : acc + w[i * n + j];
      }
      out[a * size + b] = max ? acc : acc / static_cast<double>((i1 - i0) * (j1 - j0));
    }
  }
  return out;
}

std::vector<float> fullWeights(const std::string& scheme, int64_t n, int64_t d, bool causal,
                               const std::vector<float>& q, const std::vector<float>& k, int64_t heads, int64_t head) {
  Params p = params("attention");
  p.setArray("q", q, {n, d * heads});
  p.setArray("k", k, {n, d * heads});
  p.setNumber("heads", static_cast<double>(heads));
  p.setBoolean("causal", causal);
  const Tensor w = compute("attention", scheme, p).at("weights");
  return std::vector<float>(w.f32.begin() + head * n * n, w.f32.begin() + (head + 1) * n * n);
}

}  // namespace

TEST(AttentionMap, PositionOnlyMapsOfShiftInvariantSchemesEqualPooledFullWeights) {
  // n = 40 takes the equal-tile path (8 divides it), n = 37 the row-by-row walk.
  for (int64_t n : {37, 40})
    for (const char* scheme : {"alibi", "t5", "kerple-log", "exp-decay", "sin-freq"}) {
      for (bool causal : {false, true}) {
        for (bool max : {false, true}) {
          Params p = params("attentionMap");
          p.setNumber("n", n);
          p.setString("scheme", scheme);
          p.setNumber("heads", 4);
          p.setNumber("head", 2);
          p.setNumber("size", 8);
          p.setString("pool", max ? "max" : "mean");
          p.setBoolean("causal", causal);
          const Tensor map = runMap(p);
          ASSERT_EQ(map.shape, (Shape{8, 8}));
          // Zero content: q = k = 0, so the weights are the softmax of the bias alone.
          const std::vector<float> zeros(static_cast<size_t>(n * 4 * 4), 0.0f);
          const auto want = pooledReference(fullWeights(scheme, n, 4, causal, zeros, zeros, 4, 2), n, 8, max);
          for (size_t t = 0; t < want.size(); ++t) EXPECT_NEAR(map.f32[t], want[t], 2e-6) << scheme << " " << t;
        }
      }
    }
}

TEST(AttentionMap, MapsWithContentEqualPooledFullWeights) {
  const int64_t n = 45, d = 8;
  std::mt19937 rng(5);
  std::normal_distribution<float> normal;
  std::vector<float> q(static_cast<size_t>(n * d)), k(static_cast<size_t>(n * d));
  for (float& x : q) x = normal(rng);
  for (float& x : k) x = normal(rng);
  for (const char* scheme : {"alibi", "rope", "fire"}) {
    for (bool causal : {false, true}) {
      Params p = with("attentionMap", {{"n", n}, {"d", d}});
      p.setString("scheme", scheme);
      p.setNumber("size", 9);
      p.setString("pool", "mean");
      p.setBoolean("causal", causal);
      p.setArray("q", q, {n, d});
      p.setArray("k", k, {n, d});
      const Tensor map = runMap(p);
      const auto want = pooledReference(fullWeights(scheme, n, d, causal, q, k, 1, 0), n, 9, false);
      for (size_t t = 0; t < want.size(); ++t) EXPECT_NEAR(map.f32[t], want[t], 2e-6) << scheme << " " << t;
    }
  }
}

TEST(AttentionMap, RopePositionOnlyMapUsesTheScaledOnesProbe) {
  const int64_t n = 30, d = 16;
  Params p = with("attentionMap", {{"n", n}, {"d", d}});
  p.setString("scheme", "rope");
  p.setNumber("size", 30);
  p.setString("pool", "max");
  const Tensor map = runMap(p);
  // size = n: every cell is one weight; logits are S / sqrt(d) with the ones probe.
  Params s = with("scores", {{"n", n}, {"d", d}});
  const Tensor scores = compute("scores", "rope", s).at("data");
  for (int64_t i = 0; i < n; ++i) {
    double top = -INFINITY, sum = 0;
    for (int64_t j = 0; j < n; ++j) top = std::max<double>(top, scores.f32[i * n + j] / 4.0);
    for (int64_t j = 0; j < n; ++j) sum += std::exp(scores.f32[i * n + j] / 4.0 - top);
    for (int64_t j = 0; j < n; ++j)
      EXPECT_NEAR(map.f32[i * n + j], std::exp(scores.f32[i * n + j] / 4.0 - top) / sum, 1e-5);
  }
}

TEST(AttentionMap, RefusesContentMapsBeyondTheLimitAndUnsupportedSchemes) {
  Params p = with("attentionMap", {{"n", kMaxMapContent + 1}, {"seed", 1}});
  EXPECT_THROW(startJob("attentionMap", p), ArgumentError);
  Params q = params("attentionMap");
  q.setNumber("n", 16);
  q.setString("scheme", "cope");
  EXPECT_THROW(startJob("attentionMap", q), ArgumentError);
}

namespace {

// The keys sequence rows of map rows [a, b) see in a causal map of n rows drawn at `size`.
double causalKeys(int64_t n, int64_t size, int64_t a, int64_t b) {
  double sum = 0;
  for (int64_t i = a * n / size; i < b * n / size; ++i) sum += static_cast<double>(i + 1);
  return sum;
}

}  // namespace

TEST(AttentionMap, CutsWeighMapRowsByTheKeysTheirRowsSee) {
  // A causal map with content streams each row over the keys it sees (rows i see i + 1): equal
  // halves of the map rows would split 2,098,176 : 6,292,480 keys.
  Params p = with("attentionMap", {{"n", 4096}, {"d", 16}, {"size", 512}, {"seed", 1}});
  p.setBoolean("causal", true);
  const std::vector<RowCut> cuts = attentionMapCuts(p, 2);
  ASSERT_EQ(cuts.size(), 2u);
  EXPECT_EQ(cuts[0].first, 0);
  EXPECT_EQ(cuts[0].end, cuts[1].first);
  EXPECT_EQ(cuts[1].end, 512);
  const double a = causalKeys(4096, 512, 0, cuts[0].end), b = causalKeys(4096, 512, cuts[1].first, 512);
  // Balanced within one map row (8 sequence rows of at most 4,096 keys each).
  EXPECT_LE(std::abs(a - b), 8.0 * 4096);
  EXPECT_DOUBLE_EQ(cuts[0].work, a * 16);
  // mapRows: the cuts stay inside the rows asked for.
  p.setArray("mapRows", {100.0f, 300.0f}, {2});
  const std::vector<RowCut> some = attentionMapCuts(p, 3);
  ASSERT_EQ(some.size(), 3u);
  EXPECT_EQ(some.front().first, 100);
  EXPECT_EQ(some.back().end, 300);
  EXPECT_GT(some[0].end - some[0].first, some[2].end - some[2].first);  // earlier rows see fewer keys
}

TEST(AttentionMap, CutsOfMapsWhoseRowsCostAlikeAreEqualAndUnreadableCallsHaveNone) {
  // Without causal every row sees every key.
  Params plain = with("attentionMap", {{"n", 4096}, {"d", 16}, {"size", 512}, {"seed", 1}});
  const std::vector<RowCut> halves = attentionMapCuts(plain, 2);
  ASSERT_EQ(halves.size(), 2u);
  EXPECT_EQ(halves[0].end, 256);
  // A position-only map of a shift-invariant scheme with equal tiles fills each row of tiles from one
  // table, causal or not: its rows cost alike.
  Params profile = with("attentionMap", {{"n", 4096}, {"size", 512}});
  profile.setString("scheme", "alibi");
  profile.setBoolean("causal", true);
  const std::vector<RowCut> even = attentionMapCuts(profile, 4);
  ASSERT_EQ(even.size(), 4u);
  for (int t = 0; t < 4; ++t) EXPECT_EQ(even[t].end - even[t].first, 128);
  Params bad = with("attentionMap", {{"n", 4096}, {"size", 512}});
  bad.setArray("mapRows", {3.0f, 2.0f}, {2});
  EXPECT_TRUE(attentionMapCuts(bad, 2).empty());
}
