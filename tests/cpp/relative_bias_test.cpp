// kerple-log, kerple-power, sandwich, fire, exp-decay, sin-freq (docs/schemes/bias.md).
#include <gtest/gtest.h>

#include <cmath>

#include "relpos/base/errors.hpp"
#include "relpos/ops/operations.hpp"
#include "relpos/schemes/bias_family.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::params;
using relpos::testing::with;

namespace {

Params biasParams(int n, int heads) {
  Params p = with("bias", {{"n", n}, {"heads", heads}});
  return p;
}

float at(const Tensor& b, int h, int i, int j) {
  const int64_t n = b.shape[1], m = b.shape[2];
  return b.f32[(h * n + i) * m + j];
}

void expectRangeError(const std::string& id, const Params& p, const std::string& mention) {
  try {
    compute("bias", id, p);
    FAIL() << id << ": expected a RangeError mentioning " << mention;
  } catch (const ArgumentError& e) {
    EXPECT_EQ(e.kind(), ArgumentError::Kind::Range);
    EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what();
  }
}

void expectTranslationInvariant(const Tensor& b) {
  const int64_t heads = b.shape[0], n = b.shape[1];
  for (int h = 0; h < heads; ++h) {
    for (int i = 0; i + 1 < n; ++i) {
      for (int j = 0; j + 1 < n; ++j) ASSERT_FLOAT_EQ(at(b, h, i, j), at(b, h, i + 1, j + 1));
    }
  }
}

}  // namespace

// The [2, 8, 8] bias of a KERPLE variant with per-head r1 and r2.
Tensor kerple(const std::string& id, std::vector<float> r1, std::vector<float> r2) {
  Params p = biasParams(8, 2);
  p.setArray("r1", std::move(r1), {2});
  p.setArray("r2", std::move(r2), {2});
  return compute("bias", id, p).at("data");
}

TEST(Kerple, LogMatchesGoldenValues) {
  const Tensor b = kerple("kerple-log", {1, 0.5}, {0.5, 2});  // golden 020_kerple-log_bias_n8_h2.json
  EXPECT_NEAR(at(b, 0, 0, 3), -0.916290731874155, 1e-6);
  EXPECT_NEAR(at(b, 1, 0, 5), -1.1989476363991853, 1e-6);
  expectTranslationInvariant(b);
}

TEST(Kerple, PowerMatchesGoldenValues) {
  const Tensor b = kerple("kerple-power", {1, 0.5}, {0.5, 1.5});  // golden 021_kerple-power_bias_n8_h2.json
  EXPECT_NEAR(at(b, 0, 0, 3), -1.7320508075688772, 1e-6);
  EXPECT_NEAR(at(b, 1, 7, 2), -5.590169943749474, 1e-5);
  EXPECT_EQ(at(b, 0, 4, 4), 0.0f);  // 0^p = 0
}

TEST(Kerple, PowerWithExponentOneIsAlibiWithSlopeR1) {
  Params alibi = biasParams(12, 8);
  const Tensor a = compute("bias", "alibi", alibi).at("data");
  Params power = biasParams(12, 8);  // untrained default: r1 = ALiBi slopes, r2 = 1
  EXPECT_EQ(compute("bias", "kerple-power", power).at("data").f32, a.f32);

  Params slopes = biasParams(12, 3);
  slopes.setArray("r1", {0.5f, 0.25f, 2.0f}, {3});
  slopes.setNumber("r2", 1);
  const Tensor b = compute("bias", "kerple-power", slopes).at("data");
  const double r1[] = {0.5, 0.25, 2.0};
  for (int h = 0; h < 3; ++h) {
    for (int i = 0; i < 12; ++i) {
      for (int j = 0; j < 12; ++j) EXPECT_FLOAT_EQ(at(b, h, i, j), static_cast<float>(-r1[h] * std::abs(j - i)));
    }
  }
}

TEST(Kerple, DefaultsUseAlibiSlopes) {
  const auto slopes = alibiSlopes(4, 8);
  const Tensor b = compute("bias", "kerple-log", biasParams(6, 4)).at("data");
  for (int h = 0; h < 4; ++h) EXPECT_NEAR(at(b, h, 5, 0), -std::log1p(slopes[h] * 5), 1e-7);
}

TEST(Kerple, InvalidParametersAreRangeErrors) {
  Params p = biasParams(4, 2);
  p.setNumber("r2", 2.5);
  expectRangeError("kerple-power", p, "r2");
  p.setNumber("r2", 0);
  expectRangeError("kerple-power", p, "r2");
  p.setNumber("r2", 2);
  EXPECT_NO_THROW(compute("bias", "kerple-power", p));
  p.setArray("r1", {1.0f, 1.0f, 1.0f}, {3});  // one per head
  expectRangeError("kerple-power", p, "r1");
  Params q = biasParams(4, 1);
  q.setNumber("r1", -1);
  expectRangeError("kerple-log", q, "r1");
}

TEST(Sandwich, ZeroDiagonalNonPositiveEvenAndGolden) {
  Params p = biasParams(8, 4);
  p.setNumber("dBar", 16);
  const Tensor b = compute("bias", "sandwich", p).at("data");
  for (int h = 0; h < 4; ++h) {
    for (int i = 0; i < 8; ++i) {
      EXPECT_NEAR(at(b, h, i, i), 0.0f, 1e-6);
      for (int j = 0; j < 8; ++j) {
        EXPECT_LE(at(b, h, i, j), 1e-6f);
        EXPECT_FLOAT_EQ(at(b, h, i, j), at(b, h, j, i));
      }
    }
  }
  expectTranslationInvariant(b);
  // Golden 022_sandwich_bias_n8_h4_db16.json.
  EXPECT_NEAR(at(b, 0, 0, 1), -0.027568033690319904, 1e-6);
  EXPECT_NEAR(at(b, 3, 0, 7), -0.23271456399067514, 1e-6);
  p.setNumber("dBar", 15);
  expectRangeError("sandwich", p, "dBar");
}

TEST(Fire, NormalizedDistanceMatchesGolden) {
  // Golden 023_fire_bias_u_n8.json: c = 0.1, L = 4.
  Params p = biasParams(8, 1);
  p.setNumber("c", 0.1);
  p.setNumber("L", 4);
  p.setString("output", "normalized");
  const Tensor u = compute("bias", "fire", p).at("data");
  EXPECT_NEAR(at(u, 0, 5, 2), 0.647069893860019, 1e-6);
  EXPECT_NEAR(at(u, 0, 7, 0), 1.0, 1e-6);
  EXPECT_EQ(at(u, 0, 2, 5), 0.0f);  // future keys: psi(0) = 0
}

TEST(Fire, MlpMatchesGoldenAndDefaultIsMinusEightU) {
  // Golden 024_fire_bias_mlp_n8.json: two heads, hidden 4, rows [w1, b1, w2, b2].
  const std::vector<float> mlp = {-2.1435, -1.1362, -0.6581, 0.6252,  -0.1643, -0.1911, 0.2646,  0.4262,  -1.0386,
                                  -0.2805, 0.0741,  -1.155,  -0.5231, -1.6988, 0.3818,  -0.2889, -1.3744, -0.4534,
                                  0.2438,  -0.0031, -0.465,  0.0497,  2.1458,  -0.0583, 1.175,   -1.4427};
  Params p = biasParams(8, 2);
  p.setNumber("c", 0.1);
  p.setNumber("L", 4);
  p.setArray("mlp", mlp, {2, 13});
  const Tensor b = compute("bias", "fire", p).at("data");
  EXPECT_NEAR(at(b, 0, 0, 0), -0.9957541400000001, 1e-5);
  EXPECT_NEAR(at(b, 0, 6, 1), -1.6383110564185497, 1e-5);
  EXPECT_NEAR(at(b, 1, 7, 3), -0.4000557785448984, 1e-5);

  Params d = biasParams(8, 1);
  d.setNumber("L", 4);
  const Tensor f = compute("bias", "fire", d).at("data");
  d.setString("output", "normalized");
  const Tensor u = compute("bias", "fire", d).at("data");
  for (size_t t = 0; t < f.f32.size(); ++t) EXPECT_FLOAT_EQ(f.f32[t], -8.0f * u.f32[t]);

  p.setArray("mlp", std::vector<float>(12, 0.0f), {2, 6});
  expectRangeError("fire", p, "mlp");
}

TEST(Fire, RelativeUpToLThenProgressivelyInterpolated) {
  Params p = biasParams(10, 1);
  p.setNumber("L", 4);
  const Tensor b = compute("bias", "fire", p).at("data");
  EXPECT_FLOAT_EQ(at(b, 0, 3, 1), at(b, 0, 4, 2));  // i <= L: depends on i - j only
  EXPECT_NE(at(b, 0, 6, 2), at(b, 0, 7, 3));        // i > L: the denominator grows with i
  Params bad = biasParams(4, 1);
  bad.setNumber("c", 0);
  expectRangeError("fire", bad, "c");
  bad.setNumber("c", 0.1);
  bad.setNumber("L", 0.5);
  expectRangeError("fire", bad, "L");
}

TEST(ExpDecay, LogFormIsAlibiSymmetricWithSlopeLambdaAndKernelIsItsExp) {
  Params p = biasParams(8, 1);
  p.setNumber("lambda", 0.5);
  const Tensor log = compute("bias", "exp-decay", p).at("data");
  p.setString("form", "kernel");
  const Tensor kernel = compute("bias", "exp-decay", p).at("data");
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 8; ++j) {
      EXPECT_FLOAT_EQ(at(log, 0, i, j), -0.5f * std::abs(j - i));
      EXPECT_NEAR(at(kernel, 0, i, j), std::exp(-0.5 * std::abs(j - i)), 1e-7);
    }
  }
  // Golden 029_exp-decay_bias_kernel_n8.json, row 0.
  EXPECT_NEAR(at(kernel, 0, 0, 1), 0.6065306597126334, 1e-7);
  EXPECT_NEAR(at(kernel, 0, 0, 7), 0.0301973834223185, 1e-7);
}

TEST(ExpDecay, CausalMasksWithMinusInfinityInLogFormAndZeroInKernelForm) {
  Params p = biasParams(5, 2);
  p.setArray("lambda", {0.1f, 1.0f}, {2});
  p.setBoolean("causal", true);
  const Tensor log = compute("bias", "exp-decay", p).at("data");
  p.setString("form", "kernel");
  const Tensor kernel = compute("bias", "exp-decay", p).at("data");
  EXPECT_TRUE(std::isinf(at(log, 1, 1, 3)));
  EXPECT_EQ(at(kernel, 1, 1, 3), 0.0f);
  EXPECT_NEAR(at(kernel, 1, 3, 1), std::exp(-2.0), 1e-7);
  p.setNumber("lambda", -0.1);
  expectRangeError("exp-decay", p, "lambda");
}

TEST(ExpDecay, AttentionUsesTheLogFormForEitherForm) {
  const int n = 5, d = 2;
  std::vector<float> q(n * d), k(n * d);
  for (int t = 0; t < n * d; ++t) {
    q[t] = std::sin(t + 1.0);
    k[t] = std::cos(2.0 * t);
  }
  Params a = params("attention");
  a.setArray("q", q, {n, d});
  a.setArray("k", k, {n, d});
  a.setNumber("lambda", 0.3);
  a.setString("form", "kernel");
  const Tensor w = compute("attention", "exp-decay", a).at("weights");
  for (int i = 0; i < n; ++i) {
    double logits[n], top = -1e300, sum = 0;
    for (int j = 0; j < n; ++j) {
      logits[j] = (q[i * d] * k[j * d] + q[i * d + 1] * k[j * d + 1]) / std::sqrt(2.0) - 0.3 * std::abs(j - i);
      top = std::max(top, logits[j]);
    }
    for (int j = 0; j < n; ++j) sum += std::exp(logits[j] - top);
    for (int j = 0; j < n; ++j) EXPECT_NEAR(w.f32[i * n + j], std::exp(logits[j] - top) / sum, 1e-6);
  }
}

TEST(SinFreq, OddInDistanceAndGolden) {
  Params p = biasParams(8, 1);
  p.setNumber("alpha", 2);
  const Tensor b = compute("bias", "sin-freq", p).at("data");
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 8; ++j) EXPECT_FLOAT_EQ(at(b, 0, i, j), -at(b, 0, j, i));
  }
  // Golden 030_sin-freq_bias_n8_a2.0.json.
  EXPECT_NEAR(at(b, 0, 0, 5), 0.5984721441039564, 1e-6);
  EXPECT_NEAR(at(b, 0, 5, 0), -0.5984721441039564, 1e-6);
  p.setNumber("amplitude", 3);
  EXPECT_NEAR(at(compute("bias", "sin-freq", p).at("data"), 0, 0, 5), 3 * 0.5984721441039564, 1e-6);
  p.setNumber("alpha", 0);
  expectRangeError("sin-freq", p, "alpha");
}

TEST(BiasSchemes, ScoresEqualBiasAndCatalogueEntriesAreComplete) {
  for (const char* id : {"t5", "kerple-log", "kerple-power", "sandwich", "fire", "exp-decay", "sin-freq"}) {
    Params p = with("bias", {{"n", 6}, {"heads", 3}});
    EXPECT_EQ(compute("bias", id, p).at("data").f32, compute("scores", id, p).at("data").f32) << id;
    const Scheme& s = findScheme("test", id);
    EXPECT_EQ(s.family, "relative bias");
    EXPECT_FALSE(s.name.empty());
    const bool fromChapter = s.id == "exp-decay" || s.id == "sin-freq";
    EXPECT_NE(s.cite.find(fromChapter ? "§2.1.7" : "arXiv:"), std::string::npos) << id;
    EXPECT_FALSE(s.description.empty());
    EXPECT_EQ(s.term, AttentionTerm::Bias);
    EXPECT_NE(s.fillBias, nullptr);
    for (const auto& info : s.params) EXPECT_FALSE(info.doc.empty()) << id << "." << info.name;
  }
}
