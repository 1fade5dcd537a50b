// cope (docs/schemes/contextual.md).
#include <gtest/gtest.h>

#include <cmath>

#include "relpos/base/errors.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::params;
using relpos::testing::wave;

namespace {

Params copeParams(const std::vector<float>& q, const std::vector<float>& k, int n, int d, const std::string& output) {
  Params p = params("scores");
  p.setArray("q", q, {n, d});
  p.setArray("k", k, {n, d});
  p.setString("output", output);
  return p;
}

}  // namespace

TEST(Cope, AllGatesOneCountTokens) {
  const int n = 7, d = 4;
  const std::vector<float> big(n * d, 10.0f);  // q.k*scale = 200: every gate is 1 in float64
  Params p = copeParams(big, big, n, d, "positions");
  p.setNumber("nposMax", n + 1);
  const Tensor pos = compute("scores", "cope", p).at("data");
  ASSERT_EQ(pos.shape, (Shape{n, n}));
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) EXPECT_FLOAT_EQ(pos.f32[i * n + j], j <= i ? float(i - j + 1) : 0.0f) << i << "," << j;
  }
}

TEST(Cope, ZeroQueriesGiveHalfGatesAndContentFreeLogits) {
  const int n = 5, d = 2;
  const std::vector<float> zeros(n * d, 0.0f), k = wave(n * d, 1.1, 0.3);
  const Tensor pos = compute("scores", "cope", copeParams(zeros, k, n, d, "positions")).at("data");
  const Tensor logits = compute("scores", "cope", copeParams(zeros, k, n, d, "logits")).at("data");
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      EXPECT_FLOAT_EQ(pos.f32[i * n + j], j <= i ? 0.5f * (i - j + 1) : 0.0f);
      if (j <= i) {
        EXPECT_EQ(logits.f32[i * n + j], 0.0f);  // z = 0 and q.E = 0
      } else {
        EXPECT_TRUE(std::isinf(logits.f32[i * n + j]) && logits.f32[i * n + j] < 0);
      }
    }
  }
}

TEST(Cope, LogitsInterpolateTheEmbeddingsWithoutScaling) {
  const int n = 4, d = 2;
  const std::vector<float> q = wave(n * d, 0.9, 0.2), k = wave(n * d, 1.4, 0.8);
  const std::vector<float> E = {1, 0, 0, 1, 1, 1, 2, -1};  // nposMax 4
  Params p = copeParams(q, k, n, d, "positions");
  p.setArray("E", E, {4, d});
  const Tensor pos = compute("scores", "cope", p).at("data");
  p.setString("output", "logits");
  const Tensor logits = compute("scores", "cope", p).at("data");
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      const double z = (q[i * d] * k[j * d] + q[i * d + 1] * k[j * d + 1]) / std::sqrt(2.0);
      const double pij = pos.f32[i * n + j], lo = std::floor(pij), w = pij - lo;
      const int a = int(lo), b = int(std::ceil(pij));
      const double eLo = q[i * d] * E[a * d] + q[i * d + 1] * E[a * d + 1];
      const double eHi = q[i * d] * E[b * d] + q[i * d + 1] * E[b * d + 1];
      EXPECT_NEAR(logits.f32[i * n + j], z + w * eHi + (1 - w) * eLo, 1e-5);
    }
  }
}

TEST(Cope, PositionsAreClampedAndNotAFunctionOfDistanceAlone) {
  const int n = 8, d = 4;
  const std::vector<float> q = wave(n * d, 0.9, 0.2), k = wave(n * d, 2.4, 0.8);
  Params p = copeParams(q, k, n, d, "positions");
  p.setNumber("nposMax", 3);
  const Tensor pos = compute("scores", "cope", p).at("data");
  bool varies = false;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      EXPECT_LE(pos.f32[i * n + j], 2.0f);
      if (i + 1 < n && std::fabs(pos.f32[i * n + j] - pos.f32[(i + 1) * n + j + 1]) > 1e-4) varies = true;
    }
  }
  EXPECT_TRUE(varies);
}

TEST(Cope, AttentionIsTheSoftmaxOfTheScoreLogitsPerHead) {
  const int n = 5, d = 2, heads = 2;
  const std::vector<float> q = wave(n * d * heads, 0.9, 0.2), k = wave(n * d * heads, 1.4, 0.8);
  Params a = params("attention");
  a.setArray("q", q, {n, d * heads});
  a.setArray("k", k, {n, d * heads});
  a.setNumber("heads", heads);
  const Tensor w = compute("attention", "cope", a).at("weights");
  for (int h = 0; h < heads; ++h) {
    std::vector<float> qh, kh;
    for (int i = 0; i < n; ++i) {
      qh.insert(qh.end(), q.begin() + i * d * heads + h * d, q.begin() + i * d * heads + (h + 1) * d);
      kh.insert(kh.end(), k.begin() + i * d * heads + h * d, k.begin() + i * d * heads + (h + 1) * d);
    }
    const Tensor s = compute("scores", "cope", copeParams(qh, kh, n, d, "logits")).at("data");
    for (int i = 0; i < n; ++i) {
      double top = -1e300, sum = 0;
      for (int j = 0; j <= i; ++j) top = std::max(top, double(s.f32[i * n + j]));
      for (int j = 0; j <= i; ++j) sum += std::exp(s.f32[i * n + j] - top);
      for (int j = 0; j < n; ++j) {
        const double want = j <= i ? std::exp(s.f32[i * n + j] - top) / sum : 0.0;
        EXPECT_NEAR(w.f32[(h * n + i) * n + j], want, 1e-6);
      }
    }
  }
}

TEST(Cope, AttentionWithAKvCacheMatchesFullAttention) {
  const int n = 6, d = 4, cached = 2;
  const std::vector<float> q = wave(n * d, 0.9, 0.2), k = wave(n * d, 1.4, 0.8);
  Params full = params("attention");
  full.setArray("q", q, {n, d});
  full.setArray("k", k, {n, d});
  full.setBoolean("causal", true);
  Params last = full;
  last.setArray("q", std::vector<float>(q.begin() + (n - cached) * d, q.end()), {cached, d});
  const Tensor all = compute("attention", "cope", full).at("weights");
  const Tensor some = compute("attention", "cope", last).at("weights");
  for (int t = 0; t < cached * n; ++t) EXPECT_NEAR(some.f32[t], all.f32[(n - cached) * n + t], 1e-6);
}

TEST(Cope, MissingContentIsATypeErrorAndBadTablesAreRangeErrors) {
  const relpos::testing::Failure missing =
      relpos::testing::failure("scores", "cope", relpos::testing::with("scores", {{"n", 4}, {"d", 2}}));
  EXPECT_TRUE(missing.thrown && missing.kind == ArgumentError::Kind::Type && missing.names("q")) << missing.message;
  Params bad = copeParams(wave(8, 1, 0), wave(8, 2, 0), 4, 2, "logits");
  bad.setNumber("nposMax", 3);
  bad.setArray("E", wave(4, 1, 0), {2, 2});
  const relpos::testing::Failure table = relpos::testing::failure("scores", "cope", bad);
  EXPECT_TRUE(table.thrown && table.kind == ArgumentError::Kind::Range && table.names("E")) << table.message;
  const Scheme& s = findScheme("test", "cope");
  EXPECT_EQ(s.family, "contextual");
  EXPECT_NE(s.cite.find("arXiv:2405.18719"), std::string::npos);
}
