#include <algorithm>

#include "relpos/base/errors.hpp"
#include "relpos/lab/lab.hpp"
#include "relpos/lab/tasks.hpp"

namespace relpos {

// The "train" job: `steps` optimisation steps (one budget unit each), then evaluation sequence by
// sequence at L, 2L, 4L, 8L or every length up to evalUpTo (budget units weighted by cost), then the
// attention examples at L and 4L.

namespace {

class TrainingJob : public PeekableJob {
 public:
  explicit TrainingJob(const lab::Config& c) : c_(c), trainer_(c) {
    lengths_ = c.evalLengths;
    evals_.resize(lengths_.size());
    double total = static_cast<double>(c.steps);
    for (int64_t n : lengths_) total += cost(n) * static_cast<double>(c.evalSequences);
    totalWork_ = total;
  }

  double step(int64_t budget) override {
    double spent = 0;
    while (!done_ && spent < static_cast<double>(std::max<int64_t>(budget, 1))) {
      if (trainer_.stepsDone() < c_.steps) {
        const int64_t t = trainer_.stepsDone();
        losses_.push_back(static_cast<float>(trainer_.step()));
        norms_.push_back(static_cast<float>(trainer_.lastGradNorm()));
        rates_.push_back(static_cast<float>(trainer_.learningRate(t)));
        spent += 1;
        work_ += 1;
      } else if (lengthIndex_ < lengths_.size()) {
        const int64_t n = lengths_[lengthIndex_];
        const lab::Eval e = trainer_.model().evaluate(evalExample(lengthIndex_, sequence_));
        lab::Eval& acc = evals_[lengthIndex_];
        acc.loss += e.loss;
        acc.correct += e.correct;
        acc.total += e.total;
        acc.sequences += e.sequences;
        acc.exact += e.exact;
        spent += cost(n);
        work_ += cost(n);
        if (++sequence_ >= c_.evalSequences) {
          sequence_ = 0;
          ++lengthIndex_;
        }
      } else {
        finish();
      }
    }
    return done_ ? 1.0 : std::min(0.999, work_ / totalWork_);
  }

  bool done() const override { return done_; }

  Result result() override {
    if (!done_) throwRange("relpos.train: the job has not finished");
    Result r;
    r.emplace("loss", curve(losses_));
    r.emplace("gradNorm", curve(norms_));
    r.emplace("learningRate", curve(rates_));
    const int64_t count = static_cast<int64_t>(lengths_.size());
    Tensor lengths = Tensor::floats({count}), accuracy = Tensor::floats({count}), evalLoss = Tensor::floats({count}),
           exact = Tensor::floats({count});
    for (int64_t i = 0; i < count; ++i) {
      const lab::Eval& e = evals_[i];
      lengths.f32[i] = static_cast<float>(lengths_[i]);
      accuracy.f32[i] = e.total ? static_cast<float>(static_cast<double>(e.correct) / e.total) : 0.0f;
      evalLoss.f32[i] = e.total ? static_cast<float>(e.loss / e.total) : 0.0f;
      exact.f32[i] = e.sequences ? static_cast<float>(static_cast<double>(e.exact) / e.sequences) : 0.0f;
    }
    r.emplace("evalLengths", std::move(lengths));
    r.emplace("accuracy", std::move(accuracy));
    r.emplace("evalLoss", std::move(evalLoss));
    r.emplace("exactMatch", std::move(exact));
    Tensor parameters = Tensor::floats({1});
    parameters.f32[0] = static_cast<float>(trainer_.model().weights().size());
    r.emplace("parameters", std::move(parameters));
    r.emplace("attentionL", attentionTensor(attnShort_, lab::modelLength(c_, c_.length)));
    r.emplace("attention4L", attentionTensor(attnLong_, lab::modelLength(c_, lab::fitLength(c_, 4 * c_.length))));
    r.emplace("tokensL", tokens(example(c_.length)));
    r.emplace("tokens4L", tokens(example(lab::fitLength(c_, 4 * c_.length))));
    return r;
  }

  Result peek() const override {
    Result r;
    r.emplace("step", Tensor::scalar(static_cast<double>(losses_.size())));
    r.emplace("loss", curve(losses_));
    r.emplace("gradNorm", curve(norms_));
    return r;
  }

 private:
  // Work of one evaluation sequence of length n, in training steps.
  double cost(int64_t n) const {
    const double D = static_cast<double>(c_.dModel);
    const double perToken = [&](double len) { return 12 * D * D + 4 * len * D; }(static_cast<double>(n));
    const double trainToken = 12 * D * D + 4 * static_cast<double>(c_.length) * D;
    return static_cast<double>(n) * perToken / (3.0 * static_cast<double>(c_.batch * c_.length) * trainToken);
  }

  lab::Example evalExample(size_t lengthIndex, int64_t sequence) const {
    lab::Rng rng(lab::Rng(c_.seed * 0x100000001B3ull + 0xE7A1).next() ^
                 (static_cast<uint64_t>(lengths_[lengthIndex]) << 20) ^ static_cast<uint64_t>(sequence));
    return lab::makeExample(c_, lengths_[lengthIndex], rng);
  }
  lab::Example example(int64_t n) const {
    for (size_t i = 0; i < lengths_.size(); ++i) {
      if (lengths_[i] == n) return evalExample(i, 0);
    }
    lab::Rng rng(c_.seed ^ static_cast<uint64_t>(n));
    return lab::makeExample(c_, n, rng);
  }

  void finish() {
    trainer_.model().evaluate(example(c_.length), &attnShort_);
    trainer_.model().evaluate(example(lab::fitLength(c_, 4 * c_.length)), &attnLong_);
    done_ = true;
  }

  Tensor attentionTensor(const std::vector<double>& a, int64_t n) const {
    Tensor t = Tensor::floats({c_.layers * c_.heads, n, n});
    for (size_t i = 0; i < t.f32.size() && i < a.size(); ++i) t.f32[i] = static_cast<float>(a[i]);
    return t;
  }
  static Tensor tokens(const lab::Example& e) {
    Tensor t = Tensor::floats({static_cast<int64_t>(e.tokens.size())});
    for (size_t i = 0; i < e.tokens.size(); ++i) t.f32[i] = static_cast<float>(e.tokens[i]);
    return t;
  }
  static Tensor curve(const std::vector<float>& v) {
    Tensor t = Tensor::floats({static_cast<int64_t>(v.size())});
    t.f32 = v;
    return t;
  }

  lab::Config c_;
  lab::Trainer trainer_;
  std::vector<float> losses_, norms_, rates_;
  std::vector<int64_t> lengths_;
  std::vector<lab::Eval> evals_;
  size_t lengthIndex_ = 0;
  int64_t sequence_ = 0;
  std::vector<double> attnShort_, attnLong_;
  double work_ = 0, totalWork_ = 1;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<PeekableJob> startTraining(const Params& params) {
  const lab::Config config = lab::readConfig(params);
  // Refuse configurations whose evaluation maps would not fit the per-result limit.
  const double n = static_cast<double>(lab::modelLength(config, 4 * config.length));
  checkResultSize(params.where(), static_cast<double>(config.layers * config.heads) * n * n);
  return std::make_unique<TrainingJob>(config);
}

}  // namespace relpos
