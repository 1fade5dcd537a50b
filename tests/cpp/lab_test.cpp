// The extrapolation lab: finite-difference gradient checks for every supported scheme, the
// positional forward against the catalogue's fills, the tasks, learning, reproducibility, the job.
#include "relpos/lab/lab.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "relpos/analysis_lab.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/lab/tasks.hpp"
#include "relpos/ops/operations.hpp"
#include "relpos/schemes/registry.hpp"

namespace {

using relpos::lab::Config;
using relpos::lab::Example;
using relpos::lab::Model;
using relpos::lab::Rng;

constexpr int64_t kBuckets = 8;
constexpr int64_t kFireHidden = 4;

Config tiny(const std::string& scheme, const std::string& mode = "auto") {
  Config c;
  c.scheme = scheme;
  c.mode = mode;
  c.task = "copy";
  c.length = 8;
  c.offset = 2;
  c.vocab = 5;
  c.layers = 2;
  c.heads = 2;
  c.dModel = 8;
  c.dFF = 8;
  c.options.setNumber("numBuckets", kBuckets);
  c.options.setNumber("maxDistance", 16);
  c.options.setNumber("fireHidden", kFireHidden);
  c.seed = 7;
  return c;
}

// Central differences on a few entries of every parameter tensor.
void checkGradients(Config c, bool eval = false, int64_t length = 0) {
  Model model(c);
  Rng rng(99);
  // Move every weight off its initial value so learned tables and gains are not trivially uniform.
  for (double& w : model.weights()) w += 0.05 * rng.normal();
  std::vector<Example> batch;
  for (int b = 0; b < 2; ++b) batch.push_back(relpos::lab::makeExample(c, length ? length : c.length, rng));
  std::vector<double> grad;
  model.loss(batch, &grad, eval);
  const double eps = 1e-6;
  int checked = 0;
  double worst = 0;
  std::string worstName;
  for (const relpos::lab::Slice& s : model.slices()) {
    // Every entry of the positional parameters (T5 table, KERPLE r1/r2, FIRE MLP); 4 of the others.
    const bool positional = s.name.find("t5.") != std::string::npos || s.name.find("kerple.") != std::string::npos ||
                            s.name.find("fire.") != std::string::npos;
    if (positional) {
      double largest = 0;
      for (size_t t = 0; t < s.size; ++t) largest = std::max(largest, std::fabs(grad[s.offset + t]));
      EXPECT_GT(largest, 1e-6) << s.name << ": the positional gradient vanishes";
    }
    const size_t picks = positional ? s.size : 4;
    for (size_t pick = 0; pick < picks; ++pick) {
      const size_t i = s.offset + (positional ? pick : static_cast<size_t>(rng.below(static_cast<int64_t>(s.size))));
      double& w = model.weights()[i];
      const double saved = w;
      w = saved + eps;
      const double up = model.loss(batch, nullptr, eval);
      w = saved - eps;
      const double down = model.loss(batch, nullptr, eval);
      w = saved;
      const double numeric = (up - down) / (2 * eps);
      const double err = std::fabs(numeric - grad[i]) / std::max(1e-4, std::fabs(numeric) + std::fabs(grad[i]));
      if (err > worst) {
        worst = err;
        worstName = s.name;
      }
      EXPECT_LT(err, 1e-5) << c.scheme << " " << s.name << "[" << i - s.offset << "]: analytic " << grad[i]
                           << " numeric " << numeric;
      ++checked;
    }
  }
  EXPECT_GT(checked, 40);
  ::testing::Test::RecordProperty("worst_" + c.scheme, std::to_string(worst) + " " + worstName);
  std::printf("[lab grad] %s/%s: %d entries, worst relative error %.2e (%s)\n", c.scheme.c_str(), c.mode.c_str(),
              checked, worst, worstName.c_str());
}

// One gradient check per lab scheme and mode: the mixed modes with weights other than 1, and
// rope-linear evaluated past its training length (where it interpolates).
struct GradientCase {
  const char* scheme;
  const char* mode = "auto";
  double alpha = 1, beta = 1;
  bool eval = false;
  int64_t length = 0;
};

void PrintTo(const GradientCase& g, std::ostream* os) {
  *os << g.scheme << " (" << g.mode << ")";
}

class LabGradients : public ::testing::TestWithParam<GradientCase> {};

TEST_P(LabGradients, MatchCentralDifferences) {
  const GradientCase& g = GetParam();
  Config c = tiny(g.scheme, g.mode);
  c.alpha = g.alpha;
  c.beta = g.beta;
  checkGradients(c, g.eval, g.length);
}

INSTANTIATE_TEST_SUITE_P(Schemes, LabGradients,
                         ::testing::Values(GradientCase{"sinusoidal"}, GradientCase{"sinusoidal", "input"},
                                           GradientCase{"sinusoidal", "mixed", 1, 0.5}, GradientCase{"alibi"},
                                           GradientCase{"alibi", "mixed", 2}, GradientCase{"t5"},
                                           GradientCase{"kerple-log"}, GradientCase{"fire"}, GradientCase{"rope"},
                                           GradientCase{"rope-linear", "auto", 1, 1, true, 16}, GradientCase{"xpos"},
                                           GradientCase{"nope"}, GradientCase{"p-rope"}, GradientCase{"rope-2d"}),
                         [](const ::testing::TestParamInfo<GradientCase>& info) {
                           std::string name = std::string(info.param.scheme) + "_" + info.param.mode;
                           for (char& ch : name) ch = std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                           return name + "_" + std::to_string(info.index);
                         });

TEST(LabGradientsOther, WithoutNormalisation) {
  for (const char* scheme : {"rope", "t5", "fire"}) {
    Config c = tiny(scheme);
    c.normalisation = false;
    c.layers = 1;
    checkGradients(c);
  }
}
TEST(LabGradientsOther, RetrieveAndReverseTasks) {
  Config c = tiny("kerple-log");
  c.task = "retrieve";
  c.length = 16;
  checkGradients(c);
  c.task = "reverse";
  checkGradients(c);
}

// The learned biases the model adds equal the catalogue's fills given the same parameters.
void expectMatchesCatalogue(const Config& c, relpos::Params p) {
  Model model(c);
  Rng rng(3);
  for (double& w : model.weights()) w += 0.1 * rng.normal();
  const int64_t n = 12, H = c.heads;
  // Copy the model's positional parameters of layer 0 into the catalogue's params.
  for (const relpos::lab::Slice& s : model.slices()) {
    std::vector<float> v(model.weights().begin() + s.offset, model.weights().begin() + s.offset + s.size);
    if (s.name == "layer0.t5.table") p.setArray("table", v, {H, kBuckets});
    if (s.name == "layer0.kerple.r1") p.setArray("r1", v, {H});
    if (s.name == "layer0.kerple.r2") p.setArray("r2", v, {H});
    if (s.name == "layer0.fire.mlp") p.setArray("mlp", v, {H, 3 * kFireHidden + 1});
  }
  std::vector<float> expected(static_cast<size_t>(H * n * n));
  relpos::findScheme("test", c.scheme).fillBias(p, relpos::BiasWindow{H, n, n, 0, 0}, expected.data());
  const std::vector<double> got = model.positionalBias(0, n);
  for (int64_t h = 0; h < H; ++h) {
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j <= i; ++j) {
        const size_t t = static_cast<size_t>((h * n + i) * n + j);
        EXPECT_NEAR(got[t], expected[t], 1e-5 * (1 + std::fabs(expected[t])))
            << c.scheme << " h" << h << " " << i << "," << j;
      }
    }
  }
}

TEST(LabPositional, BiasesMatchTheCatalogue) {
  expectMatchesCatalogue(tiny("alibi"), relpos::Params("test"));
  {
    relpos::Params p("test");
    p.setNumber("numBuckets", 8);
    p.setNumber("maxDistance", 16);
    p.setBoolean("bidirectional", false);
    expectMatchesCatalogue(tiny("t5"), p);
  }
  expectMatchesCatalogue(tiny("kerple-log"), relpos::Params("test"));
  {
    Config c = tiny("fire");
    relpos::Params p("test");
    p.setNumber("c", 0.1);  // the lab's default fireC
    p.setNumber("L", static_cast<double>(c.length));
    expectMatchesCatalogue(c, p);
  }
}

TEST(LabTasks, TargetsFollowTheirDefinitions) {
  Config c = tiny("rope");
  Rng rng(5);
  c.task = "copy";
  Example e = relpos::lab::makeExample(c, 20, rng);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(e.targets[i], i < 2 ? -1 : e.tokens[i - 2]);
  c.task = "reverse";
  e = relpos::lab::makeExample(c, 12, rng);
  EXPECT_EQ(e.tokens[6], c.vocab);
  for (int t = 0; t < 6; ++t) EXPECT_EQ(e.targets[6 + t], e.tokens[5 - t]);
  for (int t = 0; t + 1 < 6; ++t) EXPECT_EQ(e.tokens[7 + t], e.targets[6 + t]);
  c.task = "sort";
  e = relpos::lab::makeExample(c, 12, rng);
  for (int t = 0; t + 1 < 6; ++t) EXPECT_LE(e.targets[6 + t], e.targets[7 + t]);
  c.task = "count";
  e = relpos::lab::makeExample(c, 64, rng);
  EXPECT_EQ(e.tokens[0], c.vocab);
  for (int i = 1; i < 64; ++i) {
    EXPECT_EQ(e.targets[i], e.tokens[i] == c.vocab ? 0 : std::min<int>(e.targets[i - 1] + 1, c.vocab - 1));
  }
  c.task = "retrieve";
  e = relpos::lab::makeExample(c, 64, rng);
  int last = -1;
  for (int i = 0; i < 64; ++i) {
    if (last >= 0 && i > last + 1 && e.tokens[i] != c.vocab)
      EXPECT_EQ(e.targets[i], e.tokens[last + 1]);
    else
      EXPECT_EQ(e.targets[i], -1);
    if (e.tokens[i] == c.vocab) last = i;
  }
}

TEST(LabTasks, DuplicateAndAdditionFollowTheirDefinitions) {
  Config c = tiny("rope");
  c.vocab = 10;
  Rng rng(7);
  c.task = "duplicate";
  Example e = relpos::lab::makeExample(c, 12, rng);
  EXPECT_EQ(e.tokens[6], c.vocab);
  for (int t = 0; t < 6; ++t) EXPECT_EQ(e.targets[6 + t], e.tokens[t]);
  c.task = "addition";
  for (int k = 1; k <= 6; ++k) {
    const int n = 3 * k + 2;
    e = relpos::lab::makeExample(c, n, rng);
    EXPECT_EQ(e.tokens[k], c.vocab);
    EXPECT_EQ(e.tokens[2 * k + 1], c.vocab);
    // a + b, every number least significant digit first; the sum has k + 1 digits.
    int64_t a = 0, b = 0, sum = 0, place = 1;
    for (int t = 0; t < k; ++t, place *= 10) {
      a += e.tokens[t] * place;
      b += e.tokens[k + 1 + t] * place;
    }
    place = 1;
    for (int t = 0; t <= k; ++t, place *= 10) sum += e.targets[2 * k + 1 + t] * place;
    EXPECT_EQ(sum, a + b);
    for (int t = 0; t < k; ++t) EXPECT_EQ(e.tokens[2 * k + 2 + t], e.targets[2 * k + 1 + t]);
    for (int i = 0; i < 2 * k + 1; ++i) EXPECT_EQ(e.targets[i], -1);
  }
}

// With `bos`, token vocab + 1 (no target) opens the sequence and the task's layout follows it.
TEST(LabTasks, BeginningOfSequenceTokenOpensEverySequence) {
  Config c = tiny("nope");
  c.vocab = 10;
  c.task = "duplicate";
  Rng plain(5), opened(5);
  const Example e = relpos::lab::makeExample(c, 8, plain);
  c.bos = true;
  const Example b = relpos::lab::makeExample(c, 8, opened);
  ASSERT_EQ(b.tokens.size(), 9u);
  EXPECT_EQ(b.tokens[0], c.vocab + 1);
  EXPECT_EQ(b.targets[0], -1);
  for (size_t i = 0; i < e.tokens.size(); ++i) {
    EXPECT_EQ(b.tokens[i + 1], e.tokens[i]);
    EXPECT_EQ(b.targets[i + 1], e.targets[i]);
  }
  EXPECT_EQ(relpos::lab::modelLength(c, 8), 9);
}

TEST(LabGradientsOther, WithBeginningOfSequenceToken) {
  for (const char* scheme : {"nope", "fire", "t5"}) {
    Config c = tiny(scheme);
    c.bos = true;
    checkGradients(c);
  }
}

TEST(LabTasks, LengthsEachTaskLaysOut) {
  Config c = tiny("rope");
  c.task = "addition";
  EXPECT_EQ(relpos::lab::taskLengths(c, 16), (std::vector<int64_t>{5, 8, 11, 14}));
  EXPECT_EQ(relpos::lab::fitLength(c, 16), 14);
  c.task = "reverse";
  EXPECT_EQ(relpos::lab::taskLengths(c, 7), (std::vector<int64_t>{2, 4, 6}));
  EXPECT_EQ(relpos::lab::fitLength(c, 9), 8);
  c.task = "copy";
  c.offset = 2;
  EXPECT_EQ(relpos::lab::taskLengths(c, 5), (std::vector<int64_t>{3, 4, 5}));
}

TEST(LabTraining, LossDecreasesOnTheCopyTaskAndIsReproducible) {
  relpos::Params options("relpos.train");
  for (const auto& [name, value] :
       {std::pair<const char*, double>{"length", 16}, {"steps", 200}, {"warmup", 20}, {"batch", 8}, {"seed", 11}}) {
    options.setNumber(name, value);
  }
  const Config c = relpos::lab::readConfig(options);
  EXPECT_EQ(c.scheme, "rope");
  EXPECT_EQ(c.task, "copy");
  relpos::lab::Trainer a(c), b(c);
  std::vector<double> losses;
  for (int s = 0; s < c.steps; ++s) {
    losses.push_back(a.step());
    ASSERT_EQ(losses.back(), b.step()) << "step " << s;  // bit-identical for a seed
  }
  double first = 0, last = 0;
  for (int s = 0; s < 10; ++s) first += losses[s] / 10;
  for (int s = c.steps - 10; s < c.steps; ++s) last += losses[s] / 10;
  EXPECT_LT(last, 0.5 * first) << "first " << first << " last " << last;
  // The learning-rate schedule: warm-up to lr, then cosine down to minLrRatio * lr.
  EXPECT_NEAR(a.learningRate(c.warmup), c.lr, 1e-12);
  EXPECT_NEAR(a.learningRate(c.steps), c.lr * c.minLrRatio, 1e-12);
  EXPECT_LT(a.learningRate(0), c.lr / 10);
}

TEST(LabJob, TrainJobRunsToItsResult) {
  relpos::Params p("relpos.train");
  p.setString("scheme", "alibi");
  p.setNumber("steps", 5);
  p.setNumber("length", 8);
  p.setNumber("evalSequences", 2);
  std::unique_ptr<relpos::Job> job = relpos::startAnalysisJob("train", p);
  double progress = 0;
  int calls = 0;
  while (!job->done()) {
    const double next = job->step(1);
    EXPECT_GE(next, progress);
    progress = next;
    ASSERT_LT(++calls, 1000);
  }
  EXPECT_EQ(progress, 1.0);
  const relpos::Result r = job->result();
  EXPECT_EQ(r.at("loss").shape, relpos::Shape{5});
  EXPECT_EQ(r.at("gradNorm").shape, relpos::Shape{5});
  EXPECT_EQ(r.at("accuracy").shape, relpos::Shape{4});
  EXPECT_EQ(r.at("evalLengths").f32, (std::vector<float>{8, 16, 32, 64}));
  EXPECT_EQ(r.at("attentionL").shape, (relpos::Shape{2, 8, 8}));
  EXPECT_EQ(r.at("attention4L").shape, (relpos::Shape{2, 32, 32}));
  // Each attention row sums to 1 over the visible keys.
  const relpos::Tensor& a = r.at("attention4L");
  for (int64_t row = 0; row < 2 * 32; ++row) {
    double sum = 0;
    for (int64_t j = 0; j < 32; ++j) sum += a.f32[row * 32 + j];
    EXPECT_NEAR(sum, 1.0, 1e-5);
  }
  const auto* peekable = dynamic_cast<relpos::PeekableJob*>(job.get());
  ASSERT_NE(peekable, nullptr);
  EXPECT_EQ(peekable->peek().at("loss").shape, relpos::Shape{5});
}

TEST(LabJob, AttentionMapsCountTheBeginningOfSequenceToken) {
  relpos::Params p("relpos.train");
  p.setString("scheme", "nope");
  p.setString("task", "reverse");
  p.setBoolean("bos", true);
  p.setNumber("steps", 3);
  p.setNumber("length", 8);
  p.setNumber("evalSequences", 2);
  std::unique_ptr<relpos::Job> job = relpos::startAnalysisJob("train", p);
  while (!job->done()) job->step(100);
  const relpos::Result r = job->result();
  EXPECT_EQ(r.at("evalLengths").f32, (std::vector<float>{8, 16, 32, 64}));
  EXPECT_EQ(r.at("attentionL").shape, (relpos::Shape{2, 9, 9}));
  EXPECT_EQ(r.at("attention4L").shape, (relpos::Shape{2, 33, 33}));
  EXPECT_EQ(r.at("tokensL").f32.size(), 9u);
  EXPECT_EQ(r.at("tokensL").f32[0], 17.0f);  // vocab 16 (the default) + 1
}

TEST(LabJob, RejectsBadOptions) {
  relpos::Params p("relpos.train");
  p.setNumber("bogus", 1);
  EXPECT_THROW(relpos::startAnalysisJob("train", p), relpos::ArgumentError);
  relpos::Params q("relpos.train");
  q.setNumber("heads", 3);  // 32 is not divisible by 3
  EXPECT_THROW(relpos::startAnalysisJob("train", q), relpos::ArgumentError);
  relpos::Params r("relpos.train");
  r.setString("scheme", "rope");
  r.setString("mode", "implicit");
  EXPECT_THROW(relpos::startAnalysisJob("train", r), relpos::ArgumentError);
}

}  // namespace
