// rp.analysis in the core: each analysis against known answers (the chapter's claims, 2.1.2–2.1.8).
#include "relpos/analysis/analysis.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "relpos/analysis/internal.hpp"
#include "relpos/base/errors.hpp"
#include "test_helpers.hpp"

using namespace relpos;

namespace {

Params options(const std::string& name) {
  return Params("relpos.analysis." + name);
}

Params withMatrix(const std::string& name, const std::string& key, int64_t rows, int64_t cols,
                  std::vector<float> data) {
  Params p = options(name);
  p.setArray(key, std::move(data), {rows, cols});
  return p;
}

double scalar(const Result& r, const std::string& key) {
  return r.at(key).f32.at(0);
}
const std::vector<float>& vec(const Result& r, const std::string& key) {
  return r.at(key).f32;
}

Result run(const std::string& name, const Params& p) {
  return analyze(name, p);
}

std::vector<float> toeplitzOf(int64_t n, double (*f)(double)) {
  std::vector<float> s(static_cast<size_t>(n * n));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) s[i * n + j] = static_cast<float>(f(static_cast<double>(j - i)));
  return s;
}

Result kernel(const std::string& profile, int64_t n = 64) {
  Params p = options("kernelCheck");
  p.setString("profile", profile);
  p.setNumber("n", static_cast<double>(n));
  return run("kernelCheck", p);
}

template <class Fn>
ArgumentError::Kind errorKind(Fn&& fn, std::string* message = nullptr) {
  try {
    fn();
  } catch (const ArgumentError& e) {
    if (message) *message = e.what();
    return e.kind();
  }
  ADD_FAILURE() << "no ArgumentError";
  return ArgumentError::Kind::Type;
}

}  // namespace

// --- 2.1.2 translation invariance --------------------------------------------------------------

TEST(TranslationDefect, IsZeroForAToeplitzMatrix) {
  const Result r = run("translationDefect", withMatrix("translationDefect", "S", 12, 12, toeplitzOf(12, [](double d) {
                                                         return std::cos(0.3 * d) - 0.1 * std::fabs(d);
                                                       })));
  EXPECT_EQ(scalar(r, "max"), 0.0f);
  EXPECT_EQ(scalar(r, "mean"), 0.0f);
  EXPECT_EQ(scalar(r, "isToeplitz"), 1.0f);
}

TEST(TranslationDefect, MatchesTheDefinitionOverAllIJKOnANonToeplitzMatrix) {
  const int64_t n = 9;
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> s(n * n);
  for (auto& x : s) x = u(gen);
  // Brute force: every (i, j, k >= 1) with both entries inside.
  double max = 0, sum = 0, count = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 1; i + k < n && j + k < n; ++k) {
        const double diff = std::fabs(static_cast<double>(s[(i + k) * n + j + k]) - s[i * n + j]);
        max = std::max(max, diff);
        sum += diff;
        count += 1;
      }
  const Result r = run("translationDefect", withMatrix("translationDefect", "S", n, n, s));
  EXPECT_NEAR(scalar(r, "max"), max, 1e-6);
  EXPECT_NEAR(scalar(r, "mean"), sum / count, 1e-6);
  EXPECT_GT(scalar(r, "max"), 0.1);
  EXPECT_EQ(scalar(r, "isToeplitz"), 0.0f);
}

TEST(TranslationDefect, AFixedShiftComparesOnlyThatShift) {
  // S[i, j] = i: shifting by k changes every entry by exactly k.
  const int64_t n = 6;
  std::vector<float> s(n * n);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) s[i * n + j] = static_cast<float>(i);
  Params p = withMatrix("translationDefect", "S", n, n, s);
  p.setNumber("shift", 2);
  const Result r = run("translationDefect", p);
  EXPECT_EQ(scalar(r, "max"), 2.0f);
  EXPECT_EQ(scalar(r, "mean"), 2.0f);
}

TEST(TranslationDefect, CausallyMaskedEntriesMatchEachOtherAndPerHeadResultsAreKept) {
  const int64_t n = 5;
  std::vector<float> s(2 * n * n);
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        s[(h * n + i) * n + j] = j > i ? -INFINITY : static_cast<float>(h == 0 ? -(i - j) : i * j);
  Params p = options("translationDefect");
  p.setArray("S", s, {2, n, n});
  const Result r = run("translationDefect", p);
  EXPECT_EQ(vec(r, "perHeadMax")[0], 0.0f);  // causal ALiBi-like: invariant where defined
  EXPECT_GT(vec(r, "perHeadMax")[1], 0.0f);
  EXPECT_EQ(scalar(r, "max"), vec(r, "perHeadMax")[1]);
}

TEST(TranslationDefect, RopeScoresAreToeplitzAndProjectedSinusoidalLogitsAreNot) {
  Params sp = relpos::testing::params("scores");
  sp.setNumber("n", 48);
  sp.setNumber("d", 32);
  const Tensor rope = compute("scores", "rope", sp).at("data");
  Params p = options("translationDefect");
  p.setArray("S", rope.f32, rope.shape);
  EXPECT_EQ(scalar(run("translationDefect", p), "isToeplitz"), 1.0f);

  const Tensor pe = compute("encoding", "sinusoidal", sp).at("data");  // [48, 32]
  std::mt19937 gen(1);
  std::normal_distribution<double> g;
  std::vector<double> wq(32 * 32), wk(32 * 32);
  for (auto& w : wq) w = g(gen);
  for (auto& w : wk) w = g(gen);
  auto project = [&](const std::vector<double>& w, int64_t i, int64_t c) {
    double sum = 0;
    for (int64_t t = 0; t < 32; ++t) sum += pe.f32[i * 32 + t] * w[t * 32 + c];
    return sum;
  };
  std::vector<float> logits(48 * 48);
  for (int64_t i = 0; i < 48; ++i)
    for (int64_t j = 0; j < 48; ++j) {
      double dot = 0;
      for (int64_t c = 0; c < 32; ++c) dot += project(wq, i, c) * project(wk, j, c);
      logits[i * 48 + j] = static_cast<float>(dot / std::sqrt(32.0));
    }
  const Result r = run("translationDefect", withMatrix("translationDefect", "S", 48, 48, logits));
  EXPECT_EQ(scalar(r, "isToeplitz"), 0.0f);
  EXPECT_GT(scalar(r, "relative"), 0.01);
}

// --- 2.1.3 geometry ----------------------------------------------------------------------------

TEST(Distances, EuclideanCosineAndManhattanBetweenRows) {
  const std::vector<float> e = {0, 0, 3, 4, 1, 0};  // rows (0,0), (3,4), (1,0)
  Params p = withMatrix("distances", "E", 3, 2, e);
  EXPECT_EQ(vec(run("distances", p), "data"),
            (std::vector<float>{0, 5, 1, 5, 0, std::sqrt(20.0f), 1, std::sqrt(20.0f), 0}));
  p.setString("metric", "manhattan");
  EXPECT_EQ(vec(run("distances", p), "data"), (std::vector<float>{0, 7, 1, 7, 0, 6, 1, 6, 0}));
  p.setString("metric", "cosine");
  const auto c = vec(run("distances", p), "data");
  EXPECT_FLOAT_EQ(c[1 * 3 + 2], 1.0f - 0.6f);  // cos((3,4), (1,0)) = 0.6
  EXPECT_FLOAT_EQ(c[0 * 3 + 1], 1.0f);         // the zero row has no direction: distance 1
}

TEST(Project2d, ACircleInAPlaneOfR3ProjectsOntoTwoEqualComponents) {
  const int64_t n = 64;
  std::vector<float> e;
  for (int64_t p = 0; p < n; ++p) {
    const double a = 6.283185307179586 * p / n;
    // The unit circle in the plane spanned by (1, 0, 1)/√2 and (0, 1, 0), shifted off the origin.
    const double c = std::cos(a) / std::sqrt(2.0);
    e.insert(e.end(), {static_cast<float>(c + 5), static_cast<float>(std::sin(a)), static_cast<float>(c)});
  }
  const Result r = run("project2d", withMatrix("project2d", "E", n, 3, e));
  EXPECT_NEAR(vec(r, "explained")[0], 0.5, 1e-5);
  EXPECT_NEAR(vec(r, "explained")[1], 0.5, 1e-5);
  const auto& pts = vec(r, "points");
  for (int64_t p = 0; p < n; ++p) EXPECT_NEAR(std::hypot(pts[2 * p], pts[2 * p + 1]), 1.0, 1e-4);
}

// --- 2.1.4 SVD and eigenvalues -----------------------------------------------------------------

TEST(Svd, DiagonalMatrixGivesItsEntriesSortedWithEntropyRankAndCondition) {
  const Result r = run("svd", withMatrix("svd", "M", 3, 3, {1, 0, 0, 0, -3, 0, 0, 0, 2}));
  EXPECT_EQ(vec(r, "singularValues"), (std::vector<float>{3, 2, 1}));
  EXPECT_FLOAT_EQ(scalar(r, "conditionNumber"), 3.0f);
  const double h = -(0.5 * std::log(0.5) + (1.0 / 3) * std::log(1.0 / 3) + (1.0 / 6) * std::log(1.0 / 6));
  EXPECT_NEAR(scalar(r, "effectiveRank"), std::exp(h), 1e-6);
  EXPECT_EQ(r.count("U"), 0u);
}

TEST(Svd, RankOneMatrixHasOneSingularValueAndVectorsReconstructIt) {
  const std::vector<float> u = {1, 2, 3, 4}, v = {2, -1, 0.5};
  std::vector<float> m;
  for (float a : u)
    for (float b : v) m.push_back(a * b);
  Params p = withMatrix("svd", "M", 4, 3, m);
  p.setBoolean("vectors", true);
  const Result r = run("svd", p);
  const auto& s = vec(r, "singularValues");
  ASSERT_EQ(s.size(), 3u);
  EXPECT_NEAR(s[0], std::sqrt(30.0) * std::sqrt(5.25), 1e-5);
  EXPECT_LT(s[1], 1e-6);
  EXPECT_NEAR(scalar(r, "effectiveRank"), 1.0, 1e-6);
  EXPECT_EQ(scalar(r, "rank"), 1.0f);
  EXPECT_GT(scalar(r, "conditionNumber"), 1e10);
  ASSERT_EQ(r.at("U").shape, (Shape{4, 3}));
  ASSERT_EQ(r.at("V").shape, (Shape{3, 3}));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) {
      double sum = 0;
      for (int k = 0; k < 3; ++k) sum += vec(r, "U")[i * 3 + k] * s[k] * vec(r, "V")[j * 3 + k];
      EXPECT_NEAR(sum, m[i * 3 + j], 1e-5);
    }
}

TEST(Eig, KnownSymmetricMatrixAndTheSymmetricPartOfAnyOther) {
  Params p = withMatrix("eig", "M", 3, 3, {2, -1, 0, -1, 2, -1, 0, -1, 2});
  p.setBoolean("vectors", true);
  const Result r = run("eig", p);
  const double s2 = std::sqrt(2.0);
  EXPECT_NEAR(vec(r, "values")[0], 2 - s2, 1e-6);
  EXPECT_NEAR(vec(r, "values")[1], 2, 1e-6);
  EXPECT_NEAR(vec(r, "values")[2], 2 + s2, 1e-6);
  EXPECT_EQ(scalar(r, "isPSD"), 1.0f);
  EXPECT_EQ(r.at("vectors").shape, (Shape{3, 3}));
  // (M + Mᵀ)/2 of [[1, 4], [0, 1]] is [[1, 2], [2, 1]]: eigenvalues -1 and 3.
  const Result q = run("eig", withMatrix("eig", "M", 2, 2, {1, 4, 0, 1}));
  EXPECT_NEAR(vec(q, "values")[0], -1, 1e-6);
  EXPECT_NEAR(vec(q, "values")[1], 3, 1e-6);
  EXPECT_EQ(scalar(q, "isPSD"), 0.0f);
}

TEST(Svd, RankCutIsTheFloat32RoundingOfTheEntriesAndARankDeficientMatrixHasNoFiniteCondition) {
  // S = P Pᵀ with P = [n, 2] of unit circles: rank 2 exactly, the rest float32 rounding of the entries.
  const int64_t n = 48;
  std::vector<float> m(static_cast<size_t>(n * n));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) m[i * n + j] = static_cast<float>(std::cos(0.3 * static_cast<double>(j - i)));
  const Result r = run("svd", withMatrix("svd", "M", n, n, m));
  // The cut is ε_float32 · ‖M‖_F / σ_max, ‖M‖_F = √(Σ σ_i²).
  const std::vector<float> sigma = vec(r, "singularValues");
  double frobenius = 0;
  for (const float s : sigma) frobenius += static_cast<double>(s) * s;
  EXPECT_NEAR(scalar(r, "tolerance"), std::numeric_limits<float>::epsilon() * std::sqrt(frobenius) / sigma[0], 1e-9);
  EXPECT_EQ(scalar(r, "rank"), 2.0f);
  EXPECT_TRUE(std::isinf(scalar(r, "conditionNumber")));
  // An explicit float64-style cut counts the rounding noise as rank.
  Params p = withMatrix("svd", "M", n, n, m);
  p.setNumber("tolerance", n * std::numeric_limits<double>::epsilon());
  EXPECT_GT(scalar(run("svd", p), "rank"), 2.0f);
}

TEST(Svd, AnExactFullRankMatrixWithSmallButRealSingularValuesKeepsItsRank) {
  // ALiBi's −|i − j| / 16 at n = 256: every entry exact in float32; full rank with σ_min / σ_max ≈ 2.2e-5,
  // below the old cut max(rows, cols) · ε_float32 = 3.1e-5 that called it rank 166.
  const int64_t n = 256;
  std::vector<float> m(static_cast<size_t>(n * n));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) m[i * n + j] = -static_cast<float>(std::abs(i - j)) / 16.0f;
  const Result r = run("svd", withMatrix("svd", "M", n, n, m));
  EXPECT_EQ(scalar(r, "rank"), static_cast<float>(n));
  EXPECT_NEAR(scalar(r, "conditionNumber"), 45533, 1);
}

TEST(Eig, AnAntisymmetricMatrixIsNotSymmetricAndNotPositiveSemiDefinite) {
  // sin((j - i)/4): odd in j - i, so M = -Mᵀ and its symmetric part is 0.
  const int64_t n = 16;
  std::vector<float> m(static_cast<size_t>(n * n));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) m[i * n + j] = static_cast<float>(std::sin(static_cast<double>(j - i) / 4));
  const Result r = run("eig", withMatrix("eig", "M", n, n, m));
  EXPECT_EQ(scalar(r, "symmetric"), 0.0f);
  EXPECT_NEAR(scalar(r, "asymmetry"), 2.0, 1e-6);
  EXPECT_EQ(scalar(r, "isPSD"), 0.0f);
  for (float v : vec(r, "values")) EXPECT_EQ(v, 0.0f);
  const Result s = run("eig", withMatrix("eig", "M", 2, 2, {2, 1, 1, 2}));
  EXPECT_EQ(scalar(s, "symmetric"), 1.0f);
  EXPECT_EQ(scalar(s, "asymmetry"), 0.0f);
  EXPECT_EQ(scalar(s, "isPSD"), 1.0f);
}

// --- 2.1.5 kernels, GP samples and entropy ------------------------------------------------------

TEST(KernelCheck, ExpDecayGaussianCosineAndSincAreValidKernels) {
  for (const char* name : {"exp-decay", "gaussian", "cosine", "sinc"}) {
    const Result r = kernel(name);
    EXPECT_EQ(scalar(r, "symmetric"), 1.0f) << name;
    EXPECT_EQ(scalar(r, "isPSD"), 1.0f) << name;
    EXPECT_EQ(r.at("eigenvalues").shape, (Shape{64})) << name;
  }
}

TEST(KernelCheck, SinIsNotEvenSoItIsNoCovarianceAtAll) {
  const Result r = kernel("sin");
  EXPECT_EQ(scalar(r, "symmetric"), 0.0f);
  EXPECT_EQ(scalar(r, "isPSD"), 0.0f);
  for (float v : vec(r, "eigenvalues")) EXPECT_NEAR(v, 0.0, 1e-9);  // its symmetric part is 0
}

TEST(KernelCheck, SinEvenAndTheBoxAreSymmetricButHaveNegativeEigenvalues) {
  for (const char* name : {"sin-even", "box"}) {
    const Result r = kernel(name);
    EXPECT_EQ(scalar(r, "symmetric"), 1.0f) << name;
    EXPECT_EQ(scalar(r, "isPSD"), 0.0f) << name;
    EXPECT_LT(scalar(r, "minEigenvalue"), -0.1) << name;
  }
}

TEST(KernelCheck, BiasSchemesAndTabulatedValuesAreProfilesToo) {
  EXPECT_EQ(scalar(kernel("alibi", 16), "symmetric"), 1.0f);
  EXPECT_EQ(scalar(kernel("alibi", 16), "isPSD"), 0.0f);  // -m|r| is only conditionally PD
  EXPECT_EQ(scalar(kernel("sin-freq", 16), "symmetric"), 0.0f);
  Params p = options("kernelCheck");
  std::vector<float> values;
  for (int r = -3; r <= 3; ++r) values.push_back(static_cast<float>(std::exp(-0.5 * r * r)));
  p.setArray("values", values, {7});
  const Result r = run("kernelCheck", p);  // n = 4 from the 2n - 1 values
  EXPECT_EQ(r.at("eigenvalues").shape, (Shape{4}));
  EXPECT_EQ(scalar(r, "isPSD"), 1.0f);
}

TEST(KernelCheck, MinusAbsoluteDistanceBiasesAreConditionallyPositiveDefinite) {
  for (const char* name : {"alibi", "kerple-log", "kerple-power"}) {
    const Result r = kernel(name);
    EXPECT_EQ(scalar(r, "isPSD"), 0.0f) << name;
    EXPECT_EQ(scalar(r, "isCPD"), 1.0f) << name;
  }
  EXPECT_EQ(scalar(kernel("exp-decay"), "isCPD"), 1.0f);  // PSD implies CPD
  EXPECT_EQ(scalar(kernel("sin"), "isCPD"), 0.0f);
  Params p = options("kernelCheck");
  std::vector<float> square;
  for (int r = -15; r <= 15; ++r) square.push_back(static_cast<float>(r * r));  // conditionally negative definite
  p.setArray("values", square, {31});
  EXPECT_EQ(scalar(run("kernelCheck", p), "isCPD"), 0.0f);
}

TEST(GpPosterior, ConditioningOnOnePointMatchesTheClosedForm) {
  Params p = options("gpPosterior");
  p.setString("profile", "exp-decay");
  p.setNumber("lambda", 0.5);
  p.setNumber("n", 5);
  p.setArray("at", {2}, {1});
  p.setArray("y", {1}, {1});
  p.setNumber("noise", 0.5);
  const Result r = run("gpPosterior", p);
  // mean(t) = k(t - 2) / (k(0) + 0.25) · y, var(t) = 1 - k(t - 2)² / 1.25.
  for (int t = 0; t < 5; ++t) {
    const double k = std::exp(-0.5 * std::abs(t - 2));
    EXPECT_NEAR(vec(r, "mean")[t], k / 1.25, 1e-6) << t;
    EXPECT_NEAR(vec(r, "std")[t], std::sqrt(1 - k * k / 1.25), 1e-6) << t;
  }
  Params bad = options("gpPosterior");
  bad.setString("profile", "sin");
  bad.setNumber("n", 5);
  bad.setArray("at", {2}, {1});
  bad.setArray("y", {1}, {1});
  EXPECT_EQ(errorKind([&] { run("gpPosterior", bad); }), ArgumentError::Kind::Range);
}

TEST(GpSample, SampleCovarianceMatchesTheKernelAndTheSeedFixesTheDraw) {
  Params p = options("gpSample");
  p.setString("profile", "gaussian");
  p.setNumber("sigma", 2);
  p.setNumber("n", 6);
  p.setNumber("count", 20000);
  p.setNumber("seed", 7);
  const Result r = run("gpSample", p);
  ASSERT_EQ(r.at("data").shape, (Shape{20000, 6}));
  const auto& x = vec(r, "data");
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      double cov = 0;
      for (int c = 0; c < 20000; ++c) cov += static_cast<double>(x[c * 6 + i]) * x[c * 6 + j];
      EXPECT_NEAR(cov / 20000, std::exp(-(j - i) * (j - i) / 8.0), 0.04) << i << "," << j;
    }
  EXPECT_EQ(vec(run("gpSample", p), "data"), x);
  p.setNumber("seed", 8);
  EXPECT_NE(vec(run("gpSample", p), "data"), x);
}

TEST(GpSample, JitterIsAddedOnlyWhenTheFactorisationNeedsIt) {
  Params p = options("gpSample");
  p.setString("profile", "exp-decay");
  p.setNumber("n", 32);
  EXPECT_EQ(scalar(run("gpSample", p), "jitter"), 0.0f);
  p.setString("profile", "cosine");  // rank 2: singular
  p.erase("lambda");
  const Result r = run("gpSample", p);
  EXPECT_GT(scalar(r, "jitter"), 0.0f);
  EXPECT_LE(scalar(r, "jitter"), 1e-4f);
}

TEST(GpSample, RefusesProfilesThatAreNoCovariance) {
  for (const char* name : {"sin", "box"}) {
    Params p = options("gpSample");
    p.setString("profile", name);
    p.setNumber("n", 64);
    std::string message;
    EXPECT_EQ(errorKind([&] { run("gpSample", p); }, &message), ArgumentError::Kind::Range) << name;
    EXPECT_NE(message.find("kernelCheck"), std::string::npos) << message;
  }
}

TEST(Entropy, UniformRowsHaveLogMAndOneHotRowsZero) {
  Params p = withMatrix("entropy", "W", 2, 4, {0.25, 0.25, 0.25, 0.25, 0, 0, 3, 0});  // row 2 is normalised first
  const Result r = run("entropy", p);
  EXPECT_NEAR(vec(r, "data")[0], std::log(4.0), 1e-6);
  EXPECT_EQ(vec(r, "data")[1], 0.0f);
}

TEST(DistanceEntropy, AttendingToSelfPutsAllMassAtDistanceZero) {
  std::vector<float> w(16, 0);
  for (int i = 0; i < 4; ++i) w[i * 4 + i] = 1;
  Result r = run("distanceEntropy", withMatrix("distanceEntropy", "W", 4, 4, w));
  ASSERT_EQ(vec(r, "p").size(), 7u);
  EXPECT_EQ(vec(r, "p")[3], 1.0f);
  EXPECT_EQ(scalar(r, "entropy"), 0.0f);
  // Uniform causal attention: row i spreads 1/(i+1) over r = -i .. 0.
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) w[i * 4 + j] = j <= i ? 1.0f / (i + 1) : 0.0f;
  r = run("distanceEntropy", withMatrix("distanceEntropy", "W", 4, 4, w));
  EXPECT_NEAR(vec(r, "p")[3], (1 + 0.5 + 1.0 / 3 + 0.25) / 4, 1e-6);
  EXPECT_NEAR(vec(r, "p")[0], 0.25 / 4, 1e-6);
  EXPECT_GT(scalar(r, "entropy"), 0.5);
}

// --- 2.1.7 decay and frequency design ----------------------------------------------------------

TEST(DecayBound, StartsAtTheMeanPartialSumLengthAndDecaysWithDistance) {
  Params p = options("decayBound");
  p.setNumber("d", 128);
  p.setNumber("maxDistance", 4000);
  const auto b = vec(run("decayBound", p), "data");
  ASSERT_EQ(b.size(), 4001u);
  EXPECT_NEAR(b[0], (64 + 1) / 2.0, 1e-4);  // r = 0: |S_j| = j, mean over j = 1..64
  auto meanOf = [&](int from, int to) {
    double s = 0;
    for (int r = from; r < to; ++r) s += b[r];
    return s / (to - from);
  };
  EXPECT_GT(meanOf(0, 10), meanOf(10, 100));
  EXPECT_GT(meanOf(10, 100), meanOf(100, 1000));
  EXPECT_GT(meanOf(100, 1000), meanOf(1000, 4000));
}

TEST(AngleCoverage, LowFrequencyPairsNeverCompleteATurnAndLinearScalingMakesThatWorse) {
  Params p = options("angleCoverage");
  p.setNumber("d", 128);
  p.setNumber("trainLength", 4096);
  const Result r = run("angleCoverage", p);
  // theta_k = 10000^(-2k/128) completes a turn when 4095·theta_k >= 2π.
  int expected = 0;
  while (expected < 64 && 4095 * std::pow(10000.0, -2.0 * expected / 128) >= 6.283185307179586) ++expected;
  EXPECT_EQ(scalar(r, "firstIncomplete"), expected);
  EXPECT_EQ(scalar(r, "incompleteCount"), 64 - expected);
  EXPECT_NEAR(vec(r, "wavelength")[0], 6.283185307179586, 1e-5);
  p.setString("scheme", "rope-linear");
  p.setNumber("factor", 4);
  EXPECT_GT(scalar(run("angleCoverage", p), "incompleteCount"), 64 - expected);
}

TEST(ScaledCosine, IsOneWithoutScalingAndFallsWhenTheScalingIsIgnored) {
  Params p = options("scaledCosine");
  p.setNumber("d", 64);
  p.setString("scheme", "rope-linear");
  p.setArray("positions", {0, 100, 1000, 10000}, {4});
  p.setNumber("factor", 1);
  const Result unscaled = run("scaledCosine", p);
  for (float c : vec(unscaled, "data")) EXPECT_NEAR(c, 1.0, 1e-6);
  p.setNumber("factor", 4);
  const std::vector<float> c = vec(run("scaledCosine", p), "data");
  EXPECT_NEAR(c[0], 1.0, 1e-6);
  EXPECT_LT(c[3], 0.5);
}

// --- 2.1.8 numerical stability -----------------------------------------------------------------

TEST(Derivative, AnalyticSlopesMatchCentralFiniteDifferences) {
  const std::vector<std::string> names = {"exp-decay", "gaussian",   "cosine",       "sinc",     "sin",     "sin-even",
                                          "alibi",     "kerple-log", "kerple-power", "sin-freq", "sandwich"};
  const std::vector<double> at = {-7.3, -2.5, -0.6, 0.4, 1.7, 5.2, 33.1};
  for (const auto& name : names) {
    Params p = options("derivative");
    p.setString("profile", name);
    const analysis::Profile profile = analysis::readProfile(p, 1, {"n", "at"}, false);
    for (double r : at) {
      const double h = 1e-5;
      const double fd = (analysis::profileValue(profile, r + h) - analysis::profileValue(profile, r - h)) / (2 * h);
      EXPECT_NEAR(analysis::profileDerivative(profile, r, "test"), fd, 1e-6 * std::max(1.0, std::fabs(fd)))
          << name << " r=" << r;
    }
    std::vector<float> atF(at.begin(), at.end());
    p.setArray("at", atF, {static_cast<int64_t>(at.size())});
    const Result res = run("derivative", p);
    EXPECT_EQ(res.at("derivative").shape, (Shape{static_cast<int64_t>(at.size())})) << name;
  }
  Params box = options("derivative");
  box.setString("profile", "box");
  box.setNumber("n", 4);
  EXPECT_EQ(errorKind([&] { run("derivative", box); }), ArgumentError::Kind::Range);
}

TEST(PeBound, SinusoidalNormsEqualTheBoundSqrtHalfD) {
  Params p = options("peBound");
  p.setNumber("d", 64);
  p.setNumber("n", 500);
  const Result r = run("peBound", p);
  EXPECT_FLOAT_EQ(scalar(r, "C"), std::sqrt(32.0f));
  for (float norm : vec(r, "norms")) EXPECT_NEAR(norm, std::sqrt(32.0), 1e-5);
  // The entry bound is measured: cos(0) = 1 at position 0; never above 1.
  EXPECT_FLOAT_EQ(scalar(r, "elementBound"), 1.0f);
  Params one = options("peBound");
  one.setNumber("d", 2);
  one.setNumber("n", 1);
  EXPECT_FLOAT_EQ(scalar(run("peBound", one), "elementBound"), 1.0f);
}

TEST(Precision, AnglesInFloat32StoreOnlyTheTablesInTheDtype) {
  auto errors = [](const std::string& dtype, bool float32Angles) {
    Params p = options("precision");
    p.setNumber("d", 16);
    p.setNumber("n", 64);
    p.setString("dtype", dtype);
    if (float32Angles) p.setString("angles", "float32");
    return vec(run("precision", p), "angleError");
  };
  EXPECT_EQ(errors("bfloat16", true), errors("float32", false));
  EXPECT_NE(errors("bfloat16", false), errors("float32", false));
}

TEST(Precision, RoundingEmulationIsRoundToNearestEven) {
  EXPECT_EQ(analysis::roundToFloat16(1 + std::ldexp(1.0, -11)), 1.0);                          // tie → even
  EXPECT_EQ(analysis::roundToFloat16(1 + 3 * std::ldexp(1.0, -11)), 1 + std::ldexp(1.0, -9));  // tie → even (up)
  EXPECT_EQ(analysis::roundToFloat16(65504), 65504);
  EXPECT_TRUE(std::isinf(analysis::roundToFloat16(65520)));
  EXPECT_EQ(analysis::roundToFloat16(std::ldexp(1.0, -24)), std::ldexp(1.0, -24));  // smallest subnormal
  EXPECT_EQ(analysis::roundToBfloat16(1 + std::ldexp(1.0, -8)), 1.0);
  EXPECT_EQ(analysis::roundToBfloat16(3.0e38), std::ldexp(226.0, 120));
  EXPECT_EQ(analysis::roundToFloat32(0.1), static_cast<double>(0.1f));
}

TEST(Precision, ErrorGrowsWithPositionAndBfloat16IsWorseThanFloat16WorseThanFloat32) {
  auto errors = [](const std::string& dtype) {
    Params p = options("precision");
    p.setNumber("d", 128);
    p.setString("dtype", dtype);
    p.setArray("positions", {10, 100, 1000, 10000, 60000}, {5});
    return vec(run("precision", p), "angleError");
  };
  const auto f32 = errors("float32"), f16 = errors("float16"), bf16 = errors("bfloat16");
  for (size_t i = 0; i < f32.size(); ++i) {
    EXPECT_LT(f32[i], f16[i]) << i;
    EXPECT_LT(f16[i], bf16[i]) << i;
  }
  EXPECT_LT(f32[0], f32[4]);
  EXPECT_LT(bf16[0], bf16[4]);
  EXPECT_GT(bf16[4], 50);  // bf16 holds 60000 only to a spacing of 256 (59904 or 60160)
}

// --- the edge ----------------------------------------------------------------------------------

TEST(AnalysisErrors, NameTheFunctionAndTheArgument) {
  std::string message;
  EXPECT_EQ(errorKind([&] { run("svd", options("svd")); }, &message), ArgumentError::Kind::Type);
  EXPECT_EQ(message, "relpos.analysis.svd: M must be a tensor of shape [rows, cols], got nothing");
  EXPECT_EQ(errorKind(
                [&] {
                  run("svd", withMatrix("svd", "M", 1, 2, {1, NAN}));
                },
                &message),
            ArgumentError::Kind::Range);
  EXPECT_EQ(message, "relpos.analysis.svd: M must hold finite numbers, got NaN");
  EXPECT_EQ(errorKind([&] { run("eig", withMatrix("eig", "M", 1, 2, {1, 2})); }, &message), ArgumentError::Kind::Range);
  EXPECT_NE(message.find("M must be square"), std::string::npos);
  EXPECT_EQ(errorKind([&] { run("svd", withMatrix("svd", "M", 2049, 1, std::vector<float>(2049))); }, &message),
            ArgumentError::Kind::Range);
  EXPECT_NE(message.find("at most 2048"), std::string::npos);
  Params big = options("gpSample");
  big.setString("profile", "gaussian");
  big.setNumber("n", 5000);
  EXPECT_EQ(errorKind([&] { run("gpSample", big); }, &message), ArgumentError::Kind::Range);
  EXPECT_NE(message.find("n must be <= 4096"), std::string::npos);
  Params unknown = options("kernelCheck");
  unknown.setString("profile", "gaussian");
  unknown.setNumber("n", 4);
  unknown.setNumber("lambda", 1);  // exp-decay's parameter, not the Gaussian's
  EXPECT_EQ(errorKind([&] { run("kernelCheck", unknown); }, &message), ArgumentError::Kind::Range);
  EXPECT_NE(message.find("unknown parameter 'lambda'"), std::string::npos);
  EXPECT_EQ(errorKind([&] { run("nope", options("nope")); }, &message), ArgumentError::Kind::Range);
  EXPECT_NE(message.find("unknown analysis 'nope'"), std::string::npos);
}
