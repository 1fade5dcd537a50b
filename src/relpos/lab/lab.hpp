// The extrapolation lab: a tiny causal attention model trained in the core on a synthetic task where
// position is what matters, then evaluated on longer sequences (docs/lab.md).
//
// One plain float64 implementation: token embedding → `layers` blocks of [optional layer norm →
// multi-head causal attention with a catalogue scheme → residual → optional layer norm → ReLU
// feed-forward → residual] → optional final layer norm → output projection → softmax cross-entropy
// on the task's target positions. Every backward pass is written by hand; the positional part of
// attention is the scheme's lab term (schemes/lab_term.hpp), which owns its inputs, learned weights
// and their gradients. Adam, global-norm clipping, warm-up then cosine/linear decay, and an own PRNG
// (no global state): a seed fixes everything.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "relpos/base/job.hpp"
#include "relpos/base/params.hpp"
#include "relpos/base/rng.hpp"
#include "relpos/base/tensor.hpp"

namespace relpos {

// kind "train": validates params (names, types, ranges) and returns the training job.
std::unique_ptr<PeekableJob> startTraining(const Params& params);

// rp.lab.schema as JSON: { options: { name: ParamInfo }, schemes: [{ id, name, modes }],
// tasks: [{ id, name, description }] } — every option with its default, range and doc.
std::string labSchemaJson();

namespace lab {

using Rng = Random;

// Two numbers mixed into one seed: the model's and the data's streams both come from config.seed.
uint64_t mixSeed(uint64_t a, uint64_t b);

struct Config {
  std::string scheme = "rope";  // a scheme with lab hooks (rp.lab.schemes)
  std::string mode = "auto";    // auto explicit implicit mixed input (input: position vectors added to x)
  double alpha = 1, beta = 1;   // mixed mode: (qk + alpha B + beta q.p) / sqrt(dh)
  std::string task = "copy";    // copy retrieve duplicate reverse sort addition count
  int64_t length = 32;          // training length L
  int64_t offset = 2;           // copy: the token `offset` positions back
  int64_t vocab = 16;           // content tokens; one more special token (SEP / marker / delimiter)
  // A beginning-of-sequence token (id vocab + 1, no target) before every sequence; task lengths do
  // not count it, the model sees n + 1 positions.
  bool bos = false;
  int64_t layers = 1, heads = 2, dModel = 32, dFF = 64;
  bool normalisation = true;
  int64_t steps = 500, batch = 16, warmup = 50;
  double lr = 1e-2, clip = 1.0, minLrRatio = 0.1, weightDecay = 0;
  std::string schedule = "cosine";  // cosine linear constant
  uint64_t seed = 1;
  int64_t evalSequences = 16;
  // Training lengths: L, or (trainUpTo) per step one drawn uniformly from the task's lengths <= L.
  bool trainUpTo = false;
  // The evaluated lengths: L, 2L, 4L, 8L, or every length the task allows up to evalUpTo.
  std::vector<int64_t> evalLengths{32, 64, 128, 256};
  // Every option as given; the scheme's own lab options (t5's numBuckets, fire's fireHidden, …) are
  // read from here by its term.
  Params options{"relpos.train"};
};

// Reads and validates the "train" options.
Config readConfig(const Params& params);

// The positions the model sees for a task length n (n, plus one with the BOS token).
inline int64_t modelLength(const Config& config, int64_t n) {
  return n + (config.bos ? 1 : 0);
}

// One example: tokens and per-position targets (-1: no loss at that position).
struct Example {
  std::vector<int32_t> tokens;
  std::vector<int32_t> targets;
};
Example makeExample(const Config& config, int64_t length, Rng& rng);

struct Slice {
  std::string name;
  size_t offset = 0, size = 0;
};

struct Eval {
  double loss = 0;
  int64_t correct = 0, total = 0;
  // Sequences with at least one target, and those whose every target was predicted (exact match).
  int64_t sequences = 0, exact = 0;
};

class Model {
 public:
  explicit Model(const Config& config);
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  const Config& config() const { return config_; }
  std::vector<double>& weights() { return w_; }
  const std::vector<Slice>& slices() const { return slices_; }

  // Mean cross-entropy over the target positions of the batch; when grad is non-null it is
  // resized to weights().size() and receives d loss / d weights.
  double loss(const std::vector<Example>& batch, std::vector<double>* grad, bool eval = false);
  // Forward only: loss sum and accuracy counts; `attention`, when non-null, receives the weights
  // [layers*heads, n, n] (zeros above the diagonal).
  Eval evaluate(const Example& example, std::vector<double>* attention = nullptr);
  // The positional bias B[h, i, j] the model adds for layer `layer` at length n (causal part),
  // [heads, n, n]; zeros for schemes without a bias. For tests against the catalogue fills.
  std::vector<double> positionalBias(int64_t layer, int64_t n, bool eval = false);

 private:
  struct Impl;
  Config config_;
  std::vector<double> w_;
  std::vector<Slice> slices_;
  std::unique_ptr<Impl> impl_;
};

// Adam with global-norm clipping and the learning-rate schedule.
class Trainer {
 public:
  explicit Trainer(const Config& config);
  Model& model() { return model_; }
  // One optimisation step on a fresh batch; returns the loss and stores the pre-clip grad norm.
  double step();
  double lastGradNorm() const { return gradNorm_; }
  double learningRate(int64_t step) const;
  int64_t stepsDone() const { return t_; }

 private:
  Config config_;
  Model model_;
  Rng data_;
  std::vector<int64_t> lengths_;  // trainUpTo: the task's lengths up to L
  std::vector<double> m_, v_, grad_;
  int64_t t_ = 0;
  double gradNorm_ = 0;
};

}  // namespace lab
}  // namespace relpos
