// t5 — Raffel et al. 2020, "Exploring the Limits of Transfer Learning with a Unified Text-to-Text
// Transformer", arXiv:1910.10683; buckets as Hugging Face T5Attention._relative_position_bucket, in
// exact arithmetic (docs/buckets.md). Learned in the lab (its table, per layer and head).
#include <algorithm>
#include <cmath>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/numeric.hpp"
#include "relpos/schemes/bias_family.hpp"
#include "relpos/schemes/grid.hpp"

namespace relpos {

namespace {

const ParamInfo kT5NumBuckets = integerParam("numBuckets", 32, 4, 1 << 16,
                                             "number of buckets (even >= 4); halved per direction when bidirectional");
const ParamInfo kT5MaxDistance =
    integerParam("maxDistance", 128, 1, 1 << 30,
                 "distance where the log buckets end (> numBuckets/4 bidirectional, > numBuckets/2 not)");
const ParamInfo kT5Bidirectional = booleanParam(
    "bidirectional", true,
    "separate buckets for future keys (encoder); false: decoder. Default: true, or false when causal (a decoder)");
const ParamInfo kT5Table = synthetic(
    actsIn(arrayParam("table",
                      "learned bias per bucket [heads, numBuckets]; default: a quantised ALiBi (demonstration values)"),
           {"bias", "scores", "attention"}));

struct T5Buckets {
  int64_t numBuckets = 32;
  int64_t perDirection = 32;  // N: numBuckets, halved when bidirectional
  int64_t maxExact = 16;      // E = N / 2 (integer division, as Hugging Face)
  int64_t maxDistance = 128;
  bool bidirectional = true;
};

T5Buckets t5Buckets(const Params& params) {
  T5Buckets c;
  c.numBuckets = params.integer(kT5NumBuckets);
  if (c.numBuckets % 2 != 0) {
    throwRange(params.where() + ": numBuckets must be even (>= 4), got " + std::to_string(c.numBuckets));
  }
  c.maxDistance = params.integer(kT5MaxDistance);
  // A causal call reads the decoder's one-directional buckets unless it says otherwise.
  c.bidirectional =
      params.has(kT5Bidirectional.name) ? params.boolean(kT5Bidirectional) : !params.boolean(common::causal());
  c.perDirection = c.bidirectional ? c.numBuckets / 2 : c.numBuckets;
  c.maxExact = c.perDirection / 2;
  // ln(maxDistance / E) must be > 0; stated with the real quotient, as docs/buckets.md does.
  const double bound = c.bidirectional ? c.numBuckets / 4.0 : c.numBuckets / 2.0;
  if (!(static_cast<double>(c.maxDistance) > bound)) {
    throwRange(params.where() + ": maxDistance must be > numBuckets/" + (c.bidirectional ? "4" : "2") + " = " +
               formatNumber(bound) + (c.bidirectional ? " when bidirectional" : " when not bidirectional") + ", got " +
               std::to_string(c.maxDistance));
  }
  return c;
}

// Bucket of a distance a >= 0 within one direction: exact below E, logarithmic up to maxDistance.
int64_t t5DirectionBucket(int64_t a, const T5Buckets& c) {
  if (a < c.maxExact) return a;
  const double x = std::log(static_cast<double>(a) / c.maxExact) /
                   std::log(static_cast<double>(c.maxDistance) / c.maxExact) * (c.perDirection - c.maxExact);
  const int64_t bucket = c.maxExact + static_cast<int64_t>(std::floor(snapToInteger(x)));
  return std::min(bucket, c.perDirection - 1);
}

// bucket(r), r = j - i (memory minus context).
int64_t t5Bucket(int64_t r, const T5Buckets& c) {
  if (c.bidirectional) return (r > 0 ? c.perDirection : 0) + t5DirectionBucket(r < 0 ? -r : r, c);
  return t5DirectionBucket(std::max<int64_t>(-r, 0), c);  // future keys fall in bucket 0 (masked)
}

// -a_min(b) per bucket of one direction: a quantised ALiBi with unit slope. Buckets no distance
// maps to take the value of the nearest lower bucket (docs/buckets.md); bucket 0 holds a = 0.
std::vector<double> t5QuantisedDistances(const T5Buckets& c) {
  std::vector<double> values(static_cast<size_t>(c.perDirection), 0.0);
  for (int64_t b = 1; b < c.perDirection; ++b) {
    // Smallest a with bucket(a) >= b; bucket(maxDistance) = N - 1, and bucket is monotone in a.
    int64_t lo = 0, hi = c.maxDistance;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (t5DirectionBucket(mid, c) >= b)
        hi = mid;
      else
        lo = mid + 1;
    }
    values[b] = t5DirectionBucket(lo, c) == b ? -static_cast<double>(lo) : values[b - 1];
  }
  return values;
}

// The bias table [heads, numBuckets]: the given one, or the untrained default.
std::vector<float> t5TableValues(const Params& params, const T5Buckets& c, int64_t heads) {
  if (const Value* t = params.array(kT5Table.name, heads * c.numBuckets, "[heads, numBuckets]")) {
    return std::vector<float>(t->array.begin(), t->array.end());
  }
  const std::vector<double> slopes = alibiSlopes(heads, 8);
  const std::vector<double> distances = t5QuantisedDistances(c);
  std::vector<float> table(static_cast<size_t>(heads * c.numBuckets));
  for (int64_t h = 0; h < heads; ++h) {
    for (int64_t b = 0; b < c.numBuckets; ++b) {
      // Both directions share the per-direction values; the unused "positive a = 0" bucket N
      // takes bucket 0's value, 0.
      table[h * c.numBuckets + b] = static_cast<float>(slopes[h] * distances[b % c.perDirection]);
    }
  }
  return table;
}

void fillT5(const Params& params, const BiasWindow& w, float* out) {
  const int64_t heads = w.heads;
  const T5Buckets c = t5Buckets(params);
  const std::vector<float> table = t5TableValues(params, c, heads);
  // Distances are integers here: t5Bias checks given positions first.
  fillByDistance(w, out, [&](int64_t h, double r) {
    return table[h * c.numBuckets + t5Bucket(static_cast<int64_t>(std::llround(r)), c)];
  });
}

Result t5Bias(const Scheme& scheme, const Params& params) {
  requireIntegerPositions(readGrid(params), params, "t5");
  return biasCall(scheme, params);
}

// The bucket map; causal chooses the decoder's direction (unless bidirectional is given) and marks
// later keys -1.
Result t5BucketMap(const Scheme&, const Params& params) {
  const T5Buckets c = t5Buckets(params);
  return gridBuckets(params, "t5", params.boolean(common::causal()), [&](int64_t r) { return t5Bucket(r, c); });
}

// ---- the lab: a learned table [heads, numBuckets] per layer over causal (unidirectional) buckets

const ParamInfo kLabNumBuckets = integerParam("numBuckets", 32, 4, 256, "t5: buckets (even)");
const ParamInfo kLabMaxDistance = integerParam("maxDistance", 128, 2, 1 << 20, "t5: where the log buckets end");

class T5Term : public lab::Term {
 public:
  explicit T5Term(const lab::TermSetup& setup) : heads_(setup.heads) {
    const Params& options = *setup.options;
    Params p(options.where());
    p.setNumber(kT5NumBuckets.name, static_cast<double>(options.integer(kLabNumBuckets)));
    p.setNumber(kT5MaxDistance.name, static_cast<double>(options.integer(kLabMaxDistance)));
    p.setBoolean(kT5Bidirectional.name, false);
    if (options.integer(kLabNumBuckets) % 2 != 0 ||
        options.integer(kLabMaxDistance) <= options.integer(kLabNumBuckets) / 2) {
      throwRange(options.where() + ": t5 needs an even numBuckets and maxDistance > numBuckets/2 (causal buckets)");
    }
    buckets_ = t5Buckets(p);
  }
  std::vector<lab::WeightSlice> weights() const override {
    return {{"t5.table", static_cast<size_t>(heads_ * buckets_.numBuckets)}};
  }
  void prepare(int64_t n, bool) override {
    bucket_.resize(static_cast<size_t>(n));
    for (int64_t a = 0; a < n; ++a) bucket_[a] = static_cast<int32_t>(t5Bucket(-a, buckets_));  // key a back
  }
  bool addsBias() const override { return true; }
  void bias(const double* w, double* out) const override {
    const int64_t n = static_cast<int64_t>(bucket_.size());
    for (int64_t h = 0; h < heads_; ++h) {
      const double* table = w + h * buckets_.numBuckets;
      double* B = out + h * n * n;
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j <= i; ++j) B[i * n + j] = table[bucket_[i - j]];
    }
  }
  void biasBackward(const double*, const double* dB, double* g) const override {
    const int64_t n = static_cast<int64_t>(bucket_.size());
    for (int64_t h = 0; h < heads_; ++h) {
      double* table = g + h * buckets_.numBuckets;
      const double* d = dB + h * n * n;
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j <= i; ++j) table[bucket_[i - j]] += d[i * n + j];
    }
  }

 private:
  int64_t heads_;
  T5Buckets buckets_;
  std::vector<int32_t> bucket_;  // bucket of the key a positions back, a = i - j >= 0
};

}  // namespace

Scheme t5Scheme() {
  Scheme s =
      biasScheme("t5", "T5 relative buckets", "Raffel et al. 2020, arXiv:1910.10683",
                 "Learned scalar bias per log-spaced bucket of j-i, shared across layers; exact near, logarithmic far.",
                 {kT5NumBuckets, kT5MaxDistance, kT5Bidirectional, kT5Table}, fillT5);
  s.bias = s.scores = t5Bias;
  s.buckets = t5BucketMap;
  s.perHead = true;
  s.unscaledLogits = true;  // Hugging Face's T5Attention: softmax(q k^T + position_bias), no 1/sqrt(d)
  s.lab = {"T5 buckets (learned)", {"explicit", "mixed"}, {kLabNumBuckets, kLabMaxDistance}, lab::makeTerm<T5Term>};
  return s;
}

}  // namespace relpos
