// Adam with global-norm clipping, decoupled weight decay and the learning-rate schedule (warm-up,
// then cosine, linear or constant down to minLrRatio of the peak).
#include <cmath>

#include "relpos/base/numeric.hpp"
#include "relpos/lab/lab.hpp"
#include "relpos/lab/tasks.hpp"

namespace relpos::lab {

Trainer::Trainer(const Config& config) : config_(config), model_(config), data_(mixSeed(config.seed, 2)) {
  m_.assign(model_.weights().size(), 0.0);
  v_.assign(model_.weights().size(), 0.0);
}

double Trainer::learningRate(int64_t step) const {
  const Config& c = config_;
  if (step < c.warmup) return c.lr * static_cast<double>(step + 1) / static_cast<double>(c.warmup + 1);
  const int64_t span = std::max<int64_t>(c.steps - c.warmup, 1);
  const double progress = std::min(1.0, static_cast<double>(step - c.warmup) / static_cast<double>(span));
  double shape = 1.0;
  if (c.schedule == "cosine")
    shape = 0.5 * (1.0 + std::cos(kPi * progress));
  else if (c.schedule == "linear")
    shape = 1.0 - progress;
  return c.lr * (c.minLrRatio + (1.0 - c.minLrRatio) * shape);
}

double Trainer::step() {
  const Config& c = config_;
  std::vector<Example> batch;
  batch.reserve(static_cast<size_t>(c.batch));
  // One length per batch: the model prepares its positional inputs for one length at a time.
  int64_t n = c.length;
  if (c.trainUpTo) {
    if (lengths_.empty()) lengths_ = taskLengths(c, c.length);
    n = lengths_[static_cast<size_t>(data_.below(static_cast<int64_t>(lengths_.size())))];
  }
  for (int64_t b = 0; b < c.batch; ++b) batch.push_back(makeExample(c, n, data_));
  const double loss = model_.loss(batch, &grad_);
  double sq = 0;
  for (double g : grad_) sq += g * g;
  gradNorm_ = std::sqrt(sq);
  const double clipScale = (c.clip > 0 && gradNorm_ > c.clip) ? c.clip / gradNorm_ : 1.0;
  const double lr = learningRate(t_);
  ++t_;
  const double b1 = 0.9, b2 = 0.98, eps = 1e-8;
  const double c1 = 1.0 - std::pow(b1, static_cast<double>(t_)), c2 = 1.0 - std::pow(b2, static_cast<double>(t_));
  std::vector<double>& w = model_.weights();
  for (size_t i = 0; i < w.size(); ++i) {
    const double g = grad_[i] * clipScale;
    m_[i] = b1 * m_[i] + (1 - b1) * g;
    v_[i] = b2 * v_[i] + (1 - b2) * g * g;
    w[i] -= lr * ((m_[i] / c1) / (std::sqrt(v_[i] / c2) + eps) + c.weightDecay * w[i]);
  }
  return loss;
}

}  // namespace relpos::lab
