#include "relpos/schemes/bias.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/schemes/relative_vector.hpp"

namespace relpos {

std::vector<double> alibiSlopes(int64_t heads, double alibiBiasMax) {
  int64_t p = 1;
  while (p < heads) p *= 2;
  std::vector<double> slopes;
  for (int64_t t = 1; t <= p; ++t) slopes.push_back(std::pow(2.0, -static_cast<double>(t) * alibiBiasMax / p));
  if (p != heads) {
    std::vector<double> reordered;
    for (int64_t t = 1; t < p; t += 2) reordered.push_back(slopes[t]);  // m_2, m_4, ...
    for (int64_t t = 0; t < p; t += 2) reordered.push_back(slopes[t]);  // m_1, m_3, ...
    reordered.resize(heads);
    slopes = reordered;
  }
  return slopes;
}

void applyCausalMask(float* bias, int64_t heads, int64_t nq, int64_t nk, int64_t queryOffset) {
  const float minusInf = -std::numeric_limits<float>::infinity();
  for (int64_t h = 0; h < heads; ++h) {
    for (int64_t i = 0; i < nq; ++i) {
      float* row = bias + (h * nq + i) * nk;
      for (int64_t j = std::max<int64_t>(0, i + queryOffset + 1); j < nk; ++j) row[j] = minusInf;
    }
  }
}

Result squareBias(const Params& params, BiasFillFn fill) {
  const int64_t n = params.integer(common::n());
  const int64_t heads = params.integer(common::heads());
  const bool causal = params.boolean(common::causal());
  checkResultSize(params.where(), static_cast<double>(heads) * n * n);
  Tensor b = Tensor::floats({heads, n, n});
  fill(params, BiasWindow{heads, n, n, 0, 0}, b.f32.data());
  if (causal) applyCausalMask(b.f32.data(), heads, n, n, 0);
  return single(std::move(b));
}

namespace {

// ---------------------------------------------------------------------------------------------
// alibi — Press, Smith, Lewis 2022

const ParamInfo& alibiBiasMax() {
  static const ParamInfo p = numberParam("alibiBiasMax", 8, 0, 1e6, "slope exponent range: m_t = 2^(-t*max/p)", true);
  return p;
}
const ParamInfo& alibiForm() {
  static const ParamInfo p =
      choiceParam("form", "symmetric|keyPosition", "symmetric: -m|j-i| (paper/MPT); keyPosition: m*j (BLOOM)");
  return p;
}
const ParamInfo& alibiOutput() {
  static const ParamInfo p = choiceParam("output", "bias|slopes", "bias [heads, n, n] or the per-head slopes [heads]");
  return p;
}

void fillAlibi(const Params& params, const BiasWindow& w, float* out) {
  const int64_t heads = w.heads, nq = w.rows, nk = w.cols, queryOffset = w.queryStart - w.keyStart;
  const std::vector<double> slopes = alibiSlopes(heads, params.number(alibiBiasMax()));
  const bool keyPosition = params.choice(alibiForm()) == "keyPosition";
  for (int64_t h = 0; h < heads; ++h) {
    for (int64_t i = 0; i < nq; ++i) {
      float* row = out + (h * nq + i) * nk;
      for (int64_t j = 0; j < nk; ++j) {
        const double r = static_cast<double>(j - (i + queryOffset));
        row[j] = static_cast<float>((keyPosition ? slopes[h] * (j + w.keyStart) : -slopes[h] * std::fabs(r)) +
                                    0.0);  // +0.0: no -0 on the diagonal
      }
    }
  }
}

Result alibiBias(const Params& params) {
  if (params.choice(alibiOutput()) == "slopes") {
    const int64_t heads = params.integer(common::heads());
    const std::vector<double> slopes = alibiSlopes(heads, params.number(alibiBiasMax()));
    Tensor t = Tensor::floats({heads});
    for (int64_t h = 0; h < heads; ++h) t.f32[h] = static_cast<float>(slopes[h]);
    return single(std::move(t));
  }
  return squareBias(params, fillAlibi);
}

Result alibiScores(const Params& params) {
  return squareBias(params, fillAlibi);
}

// Tabulates valueAt(h, r) once per head and relative distance r = key position - query position, then
// copies it along the diagonals: every scheme below that depends on r alone uses it.
template <typename ValueAt>
void fillByDistance(const BiasWindow& w, float* out, ValueAt valueAt) {
  const int64_t heads = w.heads, nq = w.rows, nk = w.cols;
  const int64_t rMin = w.keyStart - (nq - 1 + w.queryStart);
  std::vector<float> profile(static_cast<size_t>(nq + nk - 1));
  for (int64_t h = 0; h < heads; ++h) {
    for (size_t t = 0; t < profile.size(); ++t) {
      profile[t] = static_cast<float>(valueAt(h, rMin + static_cast<int64_t>(t)));
    }
    for (int64_t i = 0; i < nq; ++i) {
      float* row = out + (h * nq + i) * nk;
      // r - rMin = j - i + nq - 1 for row i, column j
      for (int64_t j = 0; j < nk; ++j) row[j] = profile[static_cast<size_t>(j - i + nq - 1)];
    }
  }
}

// ---------------------------------------------------------------------------------------------
// t5 — Raffel et al. 2020

const ParamInfo& t5NumBuckets() {
  static const ParamInfo p = integerParam("numBuckets", 32, 4, 1 << 16,
                                          "number of buckets (even >= 4); halved per direction when bidirectional");
  return p;
}
const ParamInfo& t5MaxDistance() {
  static const ParamInfo p =
      integerParam("maxDistance", 128, 1, 1 << 30,
                   "distance where the log buckets end (> numBuckets/4 bidirectional, > numBuckets/2 not)");
  return p;
}
const ParamInfo& t5Bidirectional() {
  static const ParamInfo p =
      booleanParam("bidirectional", true, "separate buckets for future keys (encoder); false: decoder");
  return p;
}
const ParamInfo& t5Table() {
  static const ParamInfo p =
      arrayParam("table", "learned bias per bucket [heads, numBuckets]; default: quantised ALiBi");
  return p;
}

struct T5Buckets {
  int64_t numBuckets = 32;
  int64_t perDirection = 32;  // N: numBuckets, halved when bidirectional
  int64_t maxExact = 16;      // E = N / 2 (integer division, as Hugging Face)
  int64_t maxDistance = 128;
  bool bidirectional = true;
};

T5Buckets t5Buckets(const Params& params) {
  T5Buckets c;
  c.numBuckets = params.integer(t5NumBuckets());
  if (c.numBuckets % 2 != 0) {
    throwRange(params.where() + ": numBuckets must be even (>= 4), got " + std::to_string(c.numBuckets));
  }
  c.maxDistance = params.integer(t5MaxDistance());
  c.bidirectional = params.boolean(t5Bidirectional());
  c.perDirection = c.bidirectional ? c.numBuckets / 2 : c.numBuckets;
  c.maxExact = c.perDirection / 2;
  // ln(maxDistance / E) must be > 0; stated with the real quotient as schemes.md does.
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
// maps to take the value of the nearest lower bucket (schemes.md §3); bucket 0 holds a = 0.
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
  if (const Value* t = params.array(t5Table().name, heads * c.numBuckets, "[heads, numBuckets]")) return t->array;
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
  fillByDistance(w, out, [&](int64_t h, int64_t r) { return table[h * c.numBuckets + t5Bucket(r, c)]; });
}

Result t5Bias(const Params& params) {
  return squareBias(params, fillT5);
}

Result t5BucketMap(const Params& params) {
  const int64_t n = params.integer(common::n());
  const T5Buckets c = t5Buckets(params);
  checkResultSize(params.where(), static_cast<double>(n) * n);
  std::vector<int32_t> byDistance(static_cast<size_t>(2 * n - 1));
  for (int64_t r = -(n - 1); r <= n - 1; ++r) byDistance[r + n - 1] = static_cast<int32_t>(t5Bucket(r, c));
  Tensor t = Tensor::ints({n, n});
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) t.i32[i * n + j] = byDistance[j - i + n - 1];
  }
  return single(std::move(t));
}

Scheme t5Scheme() {
  Scheme s;
  s.id = "t5";
  s.family = "relative bias";
  s.name = "T5 relative buckets";
  s.cite = "Raffel et al. 2020, arXiv:1910.10683";
  s.description =
      "Learned scalar bias per log-spaced bucket of j-i, shared across layers; exact near, logarithmic far.";
  s.params = {common::n(),     common::heads(),   common::causal(), t5NumBuckets(),
              t5MaxDistance(), t5Bidirectional(), t5Table()};
  s.bias = t5Bias;
  s.buckets = t5BucketMap;
  s.scores = t5Bias;
  s.term = AttentionTerm::Bias;
  s.fillBias = fillT5;
  return s;
}

// ---------------------------------------------------------------------------------------------
// kerple-log, kerple-power — Chi et al. 2022

const ParamInfo& kerpleLogR1() {
  static const ParamInfo p = perHeadParam("r1", 1, 0, 1e6, "per-head scale (> 0)", true);
  return p;
}
const ParamInfo& kerpleLogR2() {
  static const ParamInfo p =
      perHeadParam("r2", std::nan(""), 0, 1e6, "per-head rate inside the log (> 0); default: the ALiBi slopes", true);
  return p;
}
const ParamInfo& kerplePowerR1() {
  static const ParamInfo p =
      perHeadParam("r1", std::nan(""), 0, 1e6, "per-head scale (> 0); default: the ALiBi slopes", true);
  return p;
}
const ParamInfo& kerplePowerR2() {
  static const ParamInfo p = perHeadParam("r2", 1, 0, 2, "per-head exponent (0 < r2 <= 2)", true);
  return p;
}

void fillKerpleLog(const Params& params, const BiasWindow& w, float* out) {
  const int64_t heads = w.heads;
  const std::vector<double> r1 = params.perHead(kerpleLogR1(), heads, {});
  const std::vector<double> r2 = params.perHead(kerpleLogR2(), heads, alibiSlopes(heads, 8));
  fillByDistance(w, out,
                 [&](int64_t h, int64_t r) { return -r1[h] * std::log1p(r2[h] * std::fabs(static_cast<double>(r))); });
}

void fillKerplePower(const Params& params, const BiasWindow& w, float* out) {
  const int64_t heads = w.heads;
  const std::vector<double> r1 = params.perHead(kerplePowerR1(), heads, alibiSlopes(heads, 8));
  const std::vector<double> r2 = params.perHead(kerplePowerR2(), heads, {});
  fillByDistance(w, out, [&](int64_t h, int64_t r) {
    return r == 0 ? 0.0 : -r1[h] * std::pow(std::fabs(static_cast<double>(r)), r2[h]);  // 0^p = 0
  });
}

Result kerpleLogBias(const Params& params) {
  return squareBias(params, fillKerpleLog);
}
Result kerplePowerBias(const Params& params) {
  return squareBias(params, fillKerplePower);
}

Scheme kerpleScheme(bool logForm) {
  Scheme s;
  s.id = logForm ? "kerple-log" : "kerple-power";
  s.family = "relative bias";
  s.name = logForm ? "KERPLE (log)" : "KERPLE (power)";
  s.cite = "Chi et al. 2022, arXiv:2205.09921";
  s.description = logForm ? "Kernelised bias -r1*ln(1 + r2|j-i|) per head: logarithmic decay, learned."
                          : "Kernelised bias -r1*|j-i|^r2 per head: sub-linear decay; r2 = 1 is ALiBi.";
  s.params = {common::n(), common::heads(), common::causal()};
  if (logForm) {
    s.params.push_back(kerpleLogR1());
    s.params.push_back(kerpleLogR2());
  } else {
    s.params.push_back(kerplePowerR1());
    s.params.push_back(kerplePowerR2());
  }
  s.bias = logForm ? kerpleLogBias : kerplePowerBias;
  s.scores = s.bias;
  s.term = AttentionTerm::Bias;
  s.fillBias = logForm ? fillKerpleLog : fillKerplePower;
  return s;
}

// ---------------------------------------------------------------------------------------------
// sandwich — Chi et al. 2023

const ParamInfo& sandwichDBar() {
  static const ParamInfo p =
      integerParam("dBar", 64, 2, 1 << 16, "sinusoid dimension (even; NeMo passes the per-head hidden size)");
  return p;
}

void fillSandwich(const Params& params, const BiasWindow& w, float* out) {
  const int64_t heads = w.heads;
  const int64_t dBar = params.integer(sandwichDBar());
  if (dBar % 2 != 0) throwRange(params.where() + ": dBar must be even, got " + std::to_string(dBar));
  const double base = params.number(common::base());
  std::vector<double> freq;  // 1 / base^(2m/dBar), m = 1..dBar/2: the index starts at 1
  for (int64_t m = 1; m <= dBar / 2; ++m) freq.push_back(std::pow(base, -2.0 * static_cast<double>(m) / dBar));
  fillByDistance(w, out, [&](int64_t h, int64_t r) {
    double sum = 0;
    for (double w : freq) sum += std::cos(static_cast<double>(r) * w);
    return (sum - static_cast<double>(dBar) / 2) / (8.0 * (h + 1) / heads);
  });
}

Result sandwichBias(const Params& params) {
  return squareBias(params, fillSandwich);
}

Scheme sandwichScheme() {
  Scheme s;
  s.id = "sandwich";
  s.family = "relative bias";
  s.name = "Sandwich";
  s.cite = "Chi et al. 2023, arXiv:2212.10356";
  s.description =
      "Parameter-free bias: the sinusoidal dot product PE(i).PE(j) minus its maximum, scaled per head like ALiBi.";
  s.params = {common::n(), common::heads(), common::causal(), sandwichDBar(), common::base()};
  s.bias = sandwichBias;
  s.scores = sandwichBias;
  s.term = AttentionTerm::Bias;
  s.fillBias = fillSandwich;
  return s;
}

// ---------------------------------------------------------------------------------------------
// fire — Li et al. 2023 (uses i - j)

const ParamInfo& fireC() {
  static const ParamInfo p =
      numberParam("c", 0.1, 0, 1e12, "log-transform sharpness: psi(x) = ln(1 + c*x) (> 0)", true);
  return p;
}
const ParamInfo& fireL() {
  static const ParamInfo p = numberParam("L", 512, 1, 1e12, "threshold: u = psi(i - j) / psi(max(L, i)) (>= 1)");
  return p;
}
const ParamInfo& fireMlpParam() {
  static const ParamInfo p =
      arrayParam("mlp", "per-head MLP [heads, 3*hidden+1] as [w1, b1, w2, b2]; default f(u) = -8u");
  return p;
}
const ParamInfo& fireOutput() {
  static const ParamInfo p =
      choiceParam("output", "bias|normalized", "bias f(u) [heads, n, n] or the normalised distance u");
  return p;
}

// One MLP per head (a single row is shared by every head): f(u) = sum_k w2_k relu(w1_k u + b1_k) + b2.
struct FireMlp {
  const float* weights = nullptr;  // nullptr: the untrained default f(u) = -8u
  int64_t rows = 0;
  int64_t hidden = 0;

  double operator()(int64_t head, double u) const {
    if (!weights) return -8.0 * u;
    const float* w = weights + (rows == 1 ? 0 : head) * (3 * hidden + 1);
    double f = w[3 * hidden];
    for (int64_t k = 0; k < hidden; ++k) f += w[2 * hidden + k] * std::max(0.0, w[k] * u + w[hidden + k]);
    return f;
  }
};

FireMlp fireMlp(const Params& params, int64_t heads) {
  FireMlp mlp;
  const Value* v = params.array(fireMlpParam().name);
  if (!v) return mlp;
  const int64_t size = static_cast<int64_t>(v->array.size());
  mlp.rows = v->shape.size() == 2 ? v->shape[0] : 1;
  const int64_t columns = mlp.rows > 0 ? size / mlp.rows : 0;
  if (v->shape.size() > 2 || (mlp.rows != 1 && mlp.rows != heads) || columns * mlp.rows != size || columns < 4 ||
      (columns - 1) % 3 != 0) {
    throwRange(params.where() + ": mlp must have shape [heads, 3*hidden+1] (heads = " + std::to_string(heads) +
               ", or one row shared by all heads), got " + std::to_string(size) + " values");
  }
  mlp.hidden = (columns - 1) / 3;
  mlp.weights = v->array.data();
  return mlp;
}

// u[i, j] = psi(max(i - j, 0)) / psi(max(L, i)) with i the query position; calls sink(i, j, u).
template <typename Sink>
void forEachFireDistance(const Params& params, const BiasWindow& w, Sink sink) {
  const double c = params.number(fireC());
  const double L = params.number(fireL());
  auto psi = [c](double x) { return std::log1p(c * x); };
  for (int64_t i = 0; i < w.rows; ++i) {
    const double position = static_cast<double>(i + w.queryStart);
    const double denominator = psi(std::max(L, position));  // > 0 since L >= 1, c > 0
    for (int64_t j = 0; j < w.cols; ++j) {
      sink(i, j, psi(std::max(position - static_cast<double>(j + w.keyStart), 0.0)) / denominator);
    }
  }
}

void fillFire(const Params& params, const BiasWindow& w, float* out) {
  const int64_t heads = w.heads, nq = w.rows, nk = w.cols;
  const FireMlp mlp = fireMlp(params, heads);
  forEachFireDistance(params, w, [&](int64_t i, int64_t j, double u) {
    for (int64_t h = 0; h < heads; ++h) out[(h * nq + i) * nk + j] = static_cast<float>(mlp(h, u));
  });
}

void fillFireNormalized(const Params& params, const BiasWindow& w, float* out) {
  const int64_t heads = w.heads, nq = w.rows, nk = w.cols;
  forEachFireDistance(params, w, [&](int64_t i, int64_t j, double u) {
    for (int64_t h = 0; h < heads; ++h) out[(h * nq + i) * nk + j] = static_cast<float>(u);
  });
}

Result fireBias(const Params& params) {
  return squareBias(params, params.choice(fireOutput()) == "normalized" ? fillFireNormalized : fillFire);
}

Result fireScores(const Params& params) {
  return squareBias(params, fillFire);
}  // S = f(u)

Scheme fireScheme() {
  Scheme s;
  s.id = "fire";
  s.family = "relative bias";
  s.name = "FIRE";
  s.cite = "Li et al. 2023 (ICLR 2024), arXiv:2310.04418";
  s.description =
      "Learned MLP of a log-normalised distance psi(i-j)/psi(max(L,i)): progressive interpolation for long context.";
  s.params = {common::n(), common::heads(), common::causal(), fireC(), fireL(), fireMlpParam(), fireOutput()};
  s.bias = fireBias;
  s.scores = fireScores;
  s.term = AttentionTerm::Bias;
  s.fillBias = fillFire;
  return s;
}

// ---------------------------------------------------------------------------------------------
// exp-decay — the seed's distance-decay function

const ParamInfo& expDecayLambda() {
  static const ParamInfo p = perHeadParam("lambda", 0.1, 0, 1e6, "decay rate per head (>= 0): kernel exp(-lambda|r|)");
  return p;
}
const ParamInfo& expDecayForm() {
  static const ParamInfo p = choiceParam(
      "form", "log|kernel", "log: bias -lambda|r| (-Infinity where masked); kernel: exp(-lambda|r|) (0 where masked)");
  return p;
}

// The log form. In attention exp-decay always enters through this form: adding -lambda|r| to the
// logits is exactly multiplying the unnormalised weights by the kernel exp(-lambda|r|), so the
// kernel form is only a view of the same term (rp.bias / rp.scores with form 'kernel').
void fillExpDecayLog(const Params& params, const BiasWindow& w, float* out) {
  const int64_t heads = w.heads;
  const std::vector<double> lambda = params.perHead(expDecayLambda(), heads, {});
  fillByDistance(w, out, [&](int64_t h, int64_t r) { return -lambda[h] * std::fabs(static_cast<double>(r)); });
}

Result expDecayBias(const Params& params) {
  if (params.choice(expDecayForm()) == "log") return squareBias(params, fillExpDecayLog);
  const int64_t n = params.integer(common::n());
  const int64_t heads = params.integer(common::heads());
  const bool causal = params.boolean(common::causal());
  const std::vector<double> lambda = params.perHead(expDecayLambda(), heads, {});
  checkResultSize(params.where(), static_cast<double>(heads) * n * n);
  Tensor t = Tensor::floats({heads, n, n});
  fillByDistance(BiasWindow{heads, n, n, 0, 0}, t.f32.data(), [&](int64_t h, int64_t r) {
    // The multiplicative form of the causal mask is a weight of 0, not -Infinity.
    return causal && r > 0 ? 0.0 : std::exp(-lambda[h] * std::fabs(static_cast<double>(r)));
  });
  return single(std::move(t));
}

Scheme expDecayScheme() {
  Scheme s;
  s.id = "exp-decay";
  s.family = "relative bias";
  s.name = "Exponential distance decay";
  s.cite = "the seed text (2.1.7, distance-decay function)";
  s.description =
      "Kernel exp(-lambda|j-i|), i.e. the log-space bias -lambda|j-i|; with one head ALiBi's symmetric form.";
  s.params = {common::n(), common::heads(), common::causal(), expDecayLambda(), expDecayForm()};
  s.bias = expDecayBias;
  s.scores = expDecayBias;
  s.term = AttentionTerm::Bias;
  s.fillBias = fillExpDecayLog;
  return s;
}

// ---------------------------------------------------------------------------------------------
// sin-freq — the seed's frequency modulation

const ParamInfo& sinFreqAlpha() {
  static const ParamInfo p =
      numberParam("alpha", 8, 0, 1e12, "period scale: B = amplitude*sin((j-i)/alpha) (> 0)", true);
  return p;
}
const ParamInfo& sinFreqAmplitude() {
  static const ParamInfo p = numberParam("amplitude", 1, -1e12, 1e12, "amplitude of the sine");
  return p;
}

void fillSinFreq(const Params& params, const BiasWindow& w, float* out) {
  const double alpha = params.number(sinFreqAlpha());
  const double amplitude = params.number(sinFreqAmplitude());
  fillByDistance(w, out, [&](int64_t, int64_t r) { return amplitude * std::sin(static_cast<double>(r) / alpha); });
}

Result sinFreqBias(const Params& params) {
  return squareBias(params, fillSinFreq);
}

Scheme sinFreqScheme() {
  Scheme s;
  s.id = "sin-freq";
  s.family = "relative bias";
  s.name = "Sinusoidal frequency bias";
  s.cite = "the seed text (2.1.7, frequency modulation)";
  s.description = "Odd bias amplitude*sin((j-i)/alpha): prefers one direction, does not decay, not PSD.";
  s.params = {common::n(), common::heads(), common::causal(), sinFreqAlpha(), sinFreqAmplitude()};
  s.bias = sinFreqBias;
  s.scores = sinFreqBias;
  s.term = AttentionTerm::Bias;
  s.fillBias = fillSinFreq;
  return s;
}

}  // namespace

std::vector<Scheme> biasSchemes() {
  std::vector<Scheme> out;

  Scheme alibi;
  alibi.id = "alibi";
  alibi.family = "relative bias";
  alibi.name = "ALiBi";
  alibi.cite = "Press, Smith, Lewis 2022, arXiv:2108.12409";
  alibi.description =
      "Linear recency bias -m_h|j-i| with geometric per-head slopes; no parameters, extrapolates gracefully.";
  alibi.params = {common::n(), common::heads(), common::causal(), alibiBiasMax(), alibiForm(), alibiOutput()};
  alibi.bias = alibiBias;
  alibi.scores = alibiScores;
  alibi.term = AttentionTerm::Bias;
  alibi.fillBias = fillAlibi;
  out.push_back(std::move(alibi));

  out.push_back(t5Scheme());
  out.push_back(kerpleScheme(true));
  out.push_back(kerpleScheme(false));
  out.push_back(sandwichScheme());
  out.push_back(fireScheme());
  out.push_back(expDecayScheme());
  out.push_back(sinFreqScheme());
  return out;
}

}  // namespace relpos
