// The extrapolation lab: model, hand-written backward passes, optimiser, tasks and the "train" job.
// See lab.hpp for the model. Conventions follow schemes.md §0/§7: causal attention, key j at
// position j, query i at position i; explicit mode adds B to QKᵀ/√dh, implicit adds the position
// vector to the keys, mixed is (QKᵀ + αB + βQPᵀ)/√dh.
#include "relpos/lab/lab.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "relpos/base/errors.hpp"
#include "relpos/schemes/bias.hpp"
#include "relpos/schemes/catalogue.hpp"
#include "relpos/schemes/rotary.hpp"

namespace relpos {
namespace lab {

// ---------------------------------------------------------------------------------------------
// PRNG

uint64_t Rng::next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
double Rng::uniform() {
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}
int64_t Rng::below(int64_t n) {
  return static_cast<int64_t>(uniform() * static_cast<double>(n));
}
double Rng::normal() {
  const double u1 = 1.0 - uniform(), u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

namespace {

uint64_t mixSeed(uint64_t a, uint64_t b) {
  Rng r(a * 0x9E3779B97F4A7C15ull + b + 0x632BE59BD9B4E019ull);
  return r.next();
}

// ---------------------------------------------------------------------------------------------
// Options

const ParamInfo& pScheme() {
  static const ParamInfo p = choiceParam("scheme", "rope|none|sinusoidal|alibi|t5|kerple-log|fire|rope-linear|xpos",
                                         "positional scheme of every attention layer");
  return p;
}
const ParamInfo& pMode() {
  static const ParamInfo p = choiceParam("mode", "auto|explicit|implicit|mixed|input",
                                         "attention mode; input: sinusoidal added to the token embeddings");
  return p;
}
const ParamInfo& pTask() {
  static const ParamInfo p = choiceParam("task", "copy|retrieve|reverse|sort|count", "synthetic task");
  return p;
}
const ParamInfo& pSchedule() {
  static const ParamInfo p = choiceParam("schedule", "cosine|linear|constant", "learning-rate decay after warm-up");
  return p;
}
const std::vector<ParamInfo>& numericParams() {
  static const std::vector<ParamInfo> list = {
      numberParam("alpha", 1, -1e6, 1e6, "mixed mode: weight of the bias"),
      numberParam("beta", 1, -1e6, 1e6, "mixed mode: weight of q.p"),
      integerParam("length", 32, 4, 128, "training length L (evaluated at L, 2L, 4L, 8L)"),
      integerParam("offset", 2, 1, 64, "copy: predict the token this many positions back"),
      integerParam("vocab", 16, 2, 64, "content tokens (plus one special token)"),
      integerParam("layers", 1, 1, 4, "attention blocks"),
      integerParam("heads", 2, 1, 4, "heads per layer"),
      integerParam("dModel", 32, 4, 128, "model width (divisible by heads)"),
      integerParam("dFF", 64, 1, 512, "feed-forward width"),
      booleanParam("normalisation", true, "pre-layer-norm in every block and before the output"),
      integerParam("steps", 500, 1, 100000, "optimisation steps"),
      integerParam("batch", 16, 1, 256, "sequences per step"),
      integerParam("warmup", 50, 0, 100000, "linear warm-up steps"),
      numberParam("lr", 1e-2, 0, 10, "peak learning rate", true),
      numberParam("clip", 1, 0, 1e6, "clip the global gradient norm to this (0: off)"),
      numberParam("minLrRatio", 0.1, 0, 1, "final learning rate / peak"),
      numberParam("weightDecay", 0, 0, 1, "decoupled weight decay (AdamW)"),
      integerParam("seed", 1, 0, 9007199254740991.0, "seed of initialisation, data and evaluation"),
      integerParam("evalSequences", 16, 1, 256, "evaluation sequences per length"),
      integerParam("numBuckets", 32, 4, 256, "t5: buckets (even)"),
      integerParam("maxDistance", 128, 2, 1 << 20, "t5: where the log buckets end"),
      integerParam("fireHidden", 16, 1, 128, "fire: hidden units of the per-head MLP"),
      numberParam("fireC", 0.1, 0, 1e6, "fire: psi(x) = ln(1 + c x)", true),
  };
  return list;
}
const ParamInfo& numeric(const std::string& name) {
  for (const ParamInfo& p : numericParams()) {
    if (p.name == name) return p;
  }
  throwRange("relpos.train: internal: no option " + name);
}

bool isRotary(const std::string& s) {
  return s == "rope" || s == "rope-linear" || s == "xpos";
}
bool isBias(const std::string& s) {
  return s == "alibi" || s == "t5" || s == "kerple-log" || s == "fire";
}

}  // namespace

Config readConfig(const Params& params) {
  const std::string where = params.where();
  for (const std::string& name : params.names()) {
    bool known = name == "scheme" || name == "mode" || name == "task" || name == "schedule";
    for (const ParamInfo& p : numericParams()) known = known || p.name == name;
    if (!known) {
      std::string list = "scheme, mode, task, schedule";
      for (const ParamInfo& p : numericParams()) list += ", " + p.name;
      throwRange(where + ": unknown option '" + name + "' (known: " + list + ")");
    }
  }
  Config c;
  c.scheme = params.choice(pScheme());
  c.mode = params.choice(pMode());
  c.task = params.choice(pTask());
  c.schedule = params.choice(pSchedule());
  c.alpha = params.number(numeric("alpha"));
  c.beta = params.number(numeric("beta"));
  c.length = params.integer(numeric("length"));
  c.offset = params.integer(numeric("offset"));
  c.vocab = params.integer(numeric("vocab"));
  c.layers = params.integer(numeric("layers"));
  c.heads = params.integer(numeric("heads"));
  c.dModel = params.integer(numeric("dModel"));
  c.dFF = params.integer(numeric("dFF"));
  c.normalisation = params.boolean(numeric("normalisation"));
  c.steps = params.integer(numeric("steps"));
  c.batch = params.integer(numeric("batch"));
  c.warmup = params.integer(numeric("warmup"));
  c.lr = params.number(numeric("lr"));
  c.clip = params.number(numeric("clip"));
  c.minLrRatio = params.number(numeric("minLrRatio"));
  c.weightDecay = params.number(numeric("weightDecay"));
  c.seed = static_cast<uint64_t>(params.integer(numeric("seed")));
  c.evalSequences = params.integer(numeric("evalSequences"));
  c.numBuckets = params.integer(numeric("numBuckets"));
  c.maxDistance = params.integer(numeric("maxDistance"));
  c.fireHidden = params.integer(numeric("fireHidden"));
  c.fireC = params.number(numeric("fireC"));

  if (c.dModel % c.heads != 0) {
    throwRange(where + ": dModel (" + std::to_string(c.dModel) + ") must be divisible by heads (" +
               std::to_string(c.heads) + ")");
  }
  const int64_t dh = c.dModel / c.heads;
  if (isRotary(c.scheme) && dh % 2 != 0) throwRange(where + ": rotary schemes need an even head width dModel/heads");
  if (c.task == "copy" && c.offset >= c.length) throwRange(where + ": offset must be < length");
  if ((c.task == "reverse" || c.task == "sort") && c.length % 2 != 0)
    throwRange(where + ": reverse/sort need an even length");
  if (c.scheme == "t5" && (c.numBuckets % 2 != 0 || c.maxDistance <= c.numBuckets / 2)) {
    throwRange(where + ": t5 needs an even numBuckets and maxDistance > numBuckets/2 (causal buckets)");
  }
  const std::string m = c.mode;
  if (m != "auto") {
    const bool ok = (c.scheme == "sinusoidal" && (m == "implicit" || m == "mixed" || m == "input")) ||
                    (isBias(c.scheme) && (m == "explicit" || m == "mixed")) ||
                    ((isRotary(c.scheme) || c.scheme == "none") && m == "explicit");
    if (!ok) throwRange(where + ": mode '" + m + "' does not apply to scheme '" + c.scheme + "'");
  }
  return c;
}

// ---------------------------------------------------------------------------------------------
// Tasks. Content tokens are 0 .. vocab-1; token `vocab` is the task's special token (SEP, marker
// or delimiter). Targets are token ids (count: the count itself, capped at vocab-1).

Example makeExample(const Config& c, int64_t n, Rng& rng) {
  Example e;
  e.tokens.assign(static_cast<size_t>(n), 0);
  e.targets.assign(static_cast<size_t>(n), -1);
  const int32_t special = static_cast<int32_t>(c.vocab);
  auto content = [&] { return static_cast<int32_t>(rng.below(c.vocab)); };
  if (c.task == "copy") {
    for (int64_t i = 0; i < n; ++i) e.tokens[i] = content();
    for (int64_t i = c.offset; i < n; ++i) e.targets[i] = e.tokens[i - c.offset];
  } else if (c.task == "retrieve") {
    // Markers at random positions (about one in eight, never two in a row); at every later position
    // the target is the token that followed the most recent marker (an induction-style lookup).
    for (int64_t i = 0; i < n; ++i) {
      const bool marker = i + 1 < n && (i == 0 || e.tokens[i - 1] != special) && rng.below(8) == 0;
      e.tokens[i] = marker ? special : content();
    }
    int64_t last = -1;
    for (int64_t i = 0; i < n; ++i) {
      if (last >= 0 && i > last + 1 && e.tokens[i] != special) e.targets[i] = e.tokens[last + 1];
      if (e.tokens[i] == special) last = i;
    }
  } else if (c.task == "reverse" || c.task == "sort") {
    // [x_1 .. x_m, SEP, y_1 .. y_{m-1}]: position m-1+t+1 predicts y_{t+1}, i.e. target[m+t] = y[t].
    const int64_t m = n / 2;
    std::vector<int32_t> x(static_cast<size_t>(m));
    for (auto& v : x) v = content();
    std::vector<int32_t> y = x;
    if (c.task == "reverse")
      std::reverse(y.begin(), y.end());
    else
      std::sort(y.begin(), y.end());
    for (int64_t i = 0; i < m; ++i) e.tokens[i] = x[i];
    e.tokens[m] = special;
    for (int64_t t = 0; t + 1 < m; ++t) e.tokens[m + 1 + t] = y[t];
    for (int64_t t = 0; t < m; ++t) e.targets[m + t] = y[t];
  } else {  // count: tokens since the last delimiter (position 0 is a delimiter)
    int64_t last = 0;
    for (int64_t i = 0; i < n; ++i) {
      const bool delimiter = i == 0 || rng.below(8) == 0;
      e.tokens[i] = delimiter ? special : content();
      if (delimiter) last = i;
      e.targets[i] = static_cast<int32_t>(std::min<int64_t>(i - last, c.vocab - 1));
    }
  }
  return e;
}

// ---------------------------------------------------------------------------------------------
// Dense helpers (row-major float64)

namespace {

// C[n, m] = A[n, k] W[k, m] (+ bias[m])
void matmul(const double* A, int64_t n, int64_t k, const double* W, int64_t m, double* C,
            const double* bias = nullptr) {
  for (int64_t i = 0; i < n; ++i) {
    double* c = C + i * m;
    for (int64_t t = 0; t < m; ++t) c[t] = bias ? bias[t] : 0.0;
    for (int64_t p = 0; p < k; ++p) {
      const double a = A[i * k + p];
      if (a == 0) continue;
      const double* w = W + p * m;
      for (int64_t t = 0; t < m; ++t) c[t] += a * w[t];
    }
  }
}

// Given C = A W (+ b): dA += dC Wᵀ (when dA), dW += Aᵀ dC, db += Σ_rows dC (when db).
void matmulBack(const double* A, int64_t n, int64_t k, const double* W, int64_t m, const double* dC, double* dA,
                double* dW, double* db = nullptr) {
  for (int64_t i = 0; i < n; ++i) {
    const double* dc = dC + i * m;
    for (int64_t p = 0; p < k; ++p) {
      const double* w = W + p * m;
      double* dw = dW + p * m;
      const double a = A[i * k + p];
      double s = 0;
      for (int64_t t = 0; t < m; ++t) {
        s += dc[t] * w[t];
        dw[t] += a * dc[t];
      }
      if (dA) dA[i * k + p] += s;
    }
    if (db)
      for (int64_t t = 0; t < m; ++t) db[t] += dc[t];
  }
}

constexpr double kLnEps = 1e-5;

void layerNorm(const double* x, int64_t n, int64_t D, const double* g, const double* b, double* y, double* xhat,
               double* rstd) {
  for (int64_t i = 0; i < n; ++i) {
    const double* r = x + i * D;
    double mean = 0, var = 0;
    for (int64_t c = 0; c < D; ++c) mean += r[c];
    mean /= D;
    for (int64_t c = 0; c < D; ++c) var += (r[c] - mean) * (r[c] - mean);
    var /= D;
    const double s = 1.0 / std::sqrt(var + kLnEps);
    rstd[i] = s;
    for (int64_t c = 0; c < D; ++c) {
      xhat[i * D + c] = (r[c] - mean) * s;
      y[i * D + c] = g[c] * xhat[i * D + c] + b[c];
    }
  }
}

// dx += LN backward of dy; dg, db accumulate.
void layerNormBack(const double* dy, int64_t n, int64_t D, const double* g, const double* xhat, const double* rstd,
                   double* dx, double* dg, double* db) {
  for (int64_t i = 0; i < n; ++i) {
    double m1 = 0, m2 = 0;
    for (int64_t c = 0; c < D; ++c) {
      const double dxh = dy[i * D + c] * g[c];
      m1 += dxh;
      m2 += dxh * xhat[i * D + c];
      dg[c] += dy[i * D + c] * xhat[i * D + c];
      db[c] += dy[i * D + c];
    }
    m1 /= D;
    m2 /= D;
    for (int64_t c = 0; c < D; ++c) {
      const double dxh = dy[i * D + c] * g[c];
      dx[i * D + c] += rstd[i] * (dxh - m1 - xhat[i * D + c] * m2);
    }
  }
}

constexpr size_t kNone = static_cast<size_t>(-1);
constexpr double kKerpleMin = 0.01;  // KERPLE's code clamps r1, r2 to >= 0.01

struct LayerIdx {
  size_t ln1g = kNone, ln1b = kNone, wq = 0, wk = 0, wv = 0, wo = 0, ln2g = kNone, ln2b = kNone, w1 = 0, b1 = 0, w2 = 0,
         b2 = 0, pos = kNone, pos2 = kNone;
};

// Positional inputs for one sequence length (fixed: they come from the catalogue).
struct PosCache {
  std::vector<double> fixedBias;  // alibi [H, n, n]
  std::vector<int32_t> bucket;    // t5: bucket of distance a = i - j >= 0, [n]
  std::vector<double> fireU;      // fire: u[i, j], [n, n]
  std::vector<double> sinus;      // sinusoidal: [n, dh] (keys) or [n, D] (input)
  std::vector<int64_t> pairA, pairB;
  std::vector<double> cosT, sinT, scaleQ, scaleK;  // rotary [n, pairs]
};

struct LayerCache {
  std::vector<double> xIn, a, aHat, aRstd, q, k, v, P, o, x1, b, bHat, bRstd, hPre, h;
};

}  // namespace

struct Model::Impl {
  int64_t D = 0, H = 0, dh = 0, F = 0, V = 0;  // V: vocabulary incl. the special token
  size_t embed = 0, lnfg = kNone, lnfb = kNone, wout = 0, bout = 0;
  std::vector<LayerIdx> layers;
  bool input = false;     // sinusoidal added to the embeddings
  double keyWeight = 0;   // beta on q.p (implicit / mixed sinusoidal)
  double biasWeight = 0;  // weight of B in the logits
  std::map<std::pair<int64_t, bool>, PosCache> caches;
  // Per-forward scratch for a batch.
  std::vector<std::vector<double>> bias;   // per layer [H, n, n]
  std::vector<std::vector<double>> dBias;  // per layer
  std::vector<LayerCache> lc;
  std::vector<double> x, f, fHat, fRstd, logits;

  const PosCache& pos(const Config& c, int64_t n, bool eval);
  void computeBias(const Config& c, const std::vector<double>& w, const PosCache& pc, int64_t layer, int64_t n,
                   std::vector<double>& out) const;
  void biasBack(const Config& c, const std::vector<double>& w, const PosCache& pc, int64_t layer, int64_t n,
                const std::vector<double>& dB, std::vector<double>& g) const;
  void rotate(const PosCache& pc, double* rows, int64_t n, bool query, bool backward) const;
  // Forward of one sequence; returns the loss sum over targets; fills lc / logits.
  double forward(const Config& c, const std::vector<double>& w, const PosCache& pc, const Example& e, int64_t* correct,
                 int64_t* total);
  void backward(const Config& c, const std::vector<double>& w, const PosCache& pc, const Example& e, double scale,
                std::vector<double>& g);
};

const PosCache& Model::Impl::pos(const Config& c, int64_t n, bool eval) {
  // rope-linear differs at evaluation only (factor n / L past the training length).
  const bool key = eval && c.scheme == "rope-linear";
  auto found = caches.find({n, key});
  if (found != caches.end()) return found->second;
  PosCache pc;
  Params p("relpos.train");
  if (c.scheme == "alibi") {
    pc.fixedBias.resize(static_cast<size_t>(H * n * n));
    std::vector<float> out(pc.fixedBias.size());
    findScheme(p.where(), "alibi").fillBias(p, BiasWindow{H, n, n, 0, 0}, out.data());
    std::copy(out.begin(), out.end(), pc.fixedBias.begin());
  } else if (c.scheme == "t5") {
    p.setNumber("n", static_cast<double>(n));
    p.setNumber("numBuckets", static_cast<double>(c.numBuckets));
    p.setNumber("maxDistance", static_cast<double>(c.maxDistance));
    p.setBoolean("bidirectional", false);
    const Result r = findScheme(p.where(), "t5").buckets(p);
    const Tensor& map = r.at("data");
    pc.bucket.resize(static_cast<size_t>(n));
    for (int64_t a = 0; a < n; ++a) pc.bucket[a] = map.i32[(n - 1) * n + (n - 1 - a)];  // row n-1, key n-1-a
  } else if (c.scheme == "fire") {
    p.setNumber("n", static_cast<double>(n));
    p.setNumber("heads", 1);
    p.setString("output", "normalized");
    p.setNumber("c", c.fireC);
    p.setNumber("L", static_cast<double>(c.length));
    const Result r = findScheme(p.where(), "fire").bias(p);
    const Tensor& u = r.at("data");
    pc.fireU.assign(u.f32.begin(), u.f32.end());
  } else if (c.scheme == "sinusoidal") {
    const int64_t width = input ? D : dh;
    p.setNumber("n", static_cast<double>(n));
    p.setNumber("d", static_cast<double>(width));
    const Result r = findScheme(p.where(), "sinusoidal").encoding(p);
    const Tensor& t = r.at("data");
    pc.sinus.assign(t.f32.begin(), t.f32.end());
  } else if (isRotary(c.scheme)) {
    std::string id = c.scheme == "xpos" ? "xpos" : "rope";
    if (key && n > c.length) {
      id = "rope-linear";
      p.setNumber("factor", static_cast<double>(n) / static_cast<double>(c.length));
    }
    const RotaryPlan plan = rotaryPlan(findScheme(p.where(), id), p, dh, n);
    const int64_t pairs = plan.rotaryDim / 2;
    for (int64_t k = 0; k < pairs; ++k) {
      pc.pairA.push_back(plan.interleaved ? 2 * k : k);
      pc.pairB.push_back(plan.interleaved ? 2 * k + 1 : k + pairs);
    }
    const size_t size = static_cast<size_t>(n * pairs);
    pc.cosT.resize(size);
    pc.sinT.resize(size);
    pc.scaleQ.assign(size, plan.attentionFactor);
    pc.scaleK.assign(size, plan.attentionFactor);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t k = 0; k < pairs; ++k) {
        const double angle = static_cast<double>(i) * plan.invFreq[k];
        pc.cosT[i * pairs + k] = std::cos(angle);
        pc.sinT[i * pairs + k] = std::sin(angle);
        if (!plan.xposZeta.empty()) {
          const double e = (static_cast<double>(i) - plan.xposCenter) / plan.xposScaleBase;
          pc.scaleQ[i * pairs + k] *= std::pow(plan.xposZeta[k], e);
          pc.scaleK[i * pairs + k] *= std::pow(plan.xposZeta[k], -e);
        }
      }
    }
  }
  return caches.emplace(std::make_pair(n, key), std::move(pc)).first->second;
}

void Model::Impl::computeBias(const Config& c, const std::vector<double>& w, const PosCache& pc, int64_t layer,
                              int64_t n, std::vector<double>& out) const {
  out.assign(static_cast<size_t>(H * n * n), 0.0);
  const LayerIdx& L = layers[layer];
  for (int64_t h = 0; h < H; ++h) {
    double* B = out.data() + h * n * n;
    if (c.scheme == "alibi") {
      std::copy(pc.fixedBias.begin() + h * n * n, pc.fixedBias.begin() + (h + 1) * n * n, B);
    } else if (c.scheme == "t5") {
      const double* table = w.data() + L.pos + h * c.numBuckets;
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j <= i; ++j) B[i * n + j] = table[pc.bucket[i - j]];
    } else if (c.scheme == "kerple-log") {
      const double r1 = std::max(w[L.pos + h], kKerpleMin), r2 = std::max(w[L.pos2 + h], kKerpleMin);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j <= i; ++j) B[i * n + j] = -r1 * std::log1p(r2 * static_cast<double>(i - j));
    } else if (c.scheme == "fire") {
      const int64_t hid = c.fireHidden;
      const double* m = w.data() + L.pos + h * (3 * hid + 1);
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j <= i; ++j) {
          const double u = pc.fireU[i * n + j];
          double f = m[3 * hid];
          for (int64_t k = 0; k < hid; ++k) f += m[2 * hid + k] * std::max(0.0, m[k] * u + m[hid + k]);
          B[i * n + j] = f;
        }
      }
    }
  }
}

void Model::Impl::biasBack(const Config& c, const std::vector<double>& w, const PosCache& pc, int64_t layer, int64_t n,
                           const std::vector<double>& dB, std::vector<double>& g) const {
  const LayerIdx& L = layers[layer];
  for (int64_t h = 0; h < H; ++h) {
    const double* d = dB.data() + h * n * n;
    if (c.scheme == "t5") {
      double* table = g.data() + L.pos + h * c.numBuckets;
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j <= i; ++j) table[pc.bucket[i - j]] += d[i * n + j];
    } else if (c.scheme == "kerple-log") {
      const double r1raw = w[L.pos + h], r2raw = w[L.pos2 + h];
      const double r1 = std::max(r1raw, kKerpleMin), r2 = std::max(r2raw, kKerpleMin);
      double g1 = 0, g2 = 0;
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j <= i; ++j) {
          const double a = static_cast<double>(i - j);
          g1 -= d[i * n + j] * std::log1p(r2 * a);
          g2 -= d[i * n + j] * r1 * a / (1.0 + r2 * a);
        }
      }
      if (r1raw > kKerpleMin) g[L.pos + h] += g1;
      if (r2raw > kKerpleMin) g[L.pos2 + h] += g2;
    } else if (c.scheme == "fire") {
      const int64_t hid = c.fireHidden;
      const double* m = w.data() + L.pos + h * (3 * hid + 1);
      double* gm = g.data() + L.pos + h * (3 * hid + 1);
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j <= i; ++j) {
          const double gij = d[i * n + j];
          if (gij == 0) continue;
          const double u = pc.fireU[i * n + j];
          gm[3 * hid] += gij;
          for (int64_t k = 0; k < hid; ++k) {
            const double z = m[k] * u + m[hid + k];
            if (z <= 0) continue;
            gm[2 * hid + k] += gij * z;
            const double dz = gij * m[2 * hid + k];
            gm[k] += dz * u;
            gm[hid + k] += dz;
          }
        }
      }
    }
  }
}

// Rotates (or, backward, applies the transpose of the rotation to) every head of n rows [n, D].
void Model::Impl::rotate(const PosCache& pc, double* rows, int64_t n, bool query, bool backward) const {
  const int64_t pairs = static_cast<int64_t>(pc.pairA.size());
  const std::vector<double>& scale = query ? pc.scaleQ : pc.scaleK;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t h = 0; h < H; ++h) {
      double* r = rows + i * D + h * dh;
      for (int64_t k = 0; k < pairs; ++k) {
        const size_t t = static_cast<size_t>(i * pairs + k);
        const double cs = pc.cosT[t], sn = backward ? -pc.sinT[t] : pc.sinT[t], s = scale[t];
        const double a = r[pc.pairA[k]], b = r[pc.pairB[k]];
        r[pc.pairA[k]] = s * (a * cs - b * sn);
        r[pc.pairB[k]] = s * (b * cs + a * sn);
      }
    }
  }
}

double Model::Impl::forward(const Config& c, const std::vector<double>& w, const PosCache& pc, const Example& e,
                            int64_t* correct, int64_t* total) {
  const int64_t n = static_cast<int64_t>(e.tokens.size());
  const bool norm = c.normalisation;
  const bool rotary = isRotary(c.scheme);
  const double scale = 1.0 / std::sqrt(static_cast<double>(dh));
  lc.resize(static_cast<size_t>(c.layers));
  x.assign(static_cast<size_t>(n * D), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t t = 0; t < D; ++t) {
      x[i * D + t] = w[embed + e.tokens[i] * D + t] + (input ? pc.sinus[i * D + t] : 0.0);
    }
  }
  for (int64_t l = 0; l < c.layers; ++l) {
    const LayerIdx& L = layers[l];
    LayerCache& C = lc[l];
    const size_t nd = static_cast<size_t>(n * D);
    C.xIn = x;
    C.a.resize(nd);
    if (norm) {
      C.aHat.resize(nd);
      C.aRstd.resize(static_cast<size_t>(n));
      layerNorm(x.data(), n, D, &w[L.ln1g], &w[L.ln1b], C.a.data(), C.aHat.data(), C.aRstd.data());
    } else {
      C.a = x;
    }
    C.q.resize(nd);
    C.k.resize(nd);
    C.v.resize(nd);
    matmul(C.a.data(), n, D, &w[L.wq], D, C.q.data());
    matmul(C.a.data(), n, D, &w[L.wk], D, C.k.data());
    matmul(C.a.data(), n, D, &w[L.wv], D, C.v.data());
    if (rotary) {
      rotate(pc, C.q.data(), n, true, false);
      rotate(pc, C.k.data(), n, false, false);
    }
    C.P.assign(static_cast<size_t>(H * n * n), 0.0);
    C.o.assign(nd, 0.0);
    const std::vector<double>& B = bias[l];
    const bool hasBias = biasWeight != 0 && !B.empty();
    const bool hasKeyVec = keyWeight != 0 && !pc.sinus.empty() && !input;
    for (int64_t h = 0; h < H; ++h) {
      for (int64_t i = 0; i < n; ++i) {
        const double* qi = &C.q[i * D + h * dh];
        double* p = &C.P[(h * n + i) * n];
        double mx = -1e300;
        for (int64_t j = 0; j <= i; ++j) {
          const double* kj = &C.k[j * D + h * dh];
          double s = 0;
          for (int64_t t = 0; t < dh; ++t) s += qi[t] * kj[t];
          if (hasKeyVec) {
            double sp = 0;
            for (int64_t t = 0; t < dh; ++t) sp += qi[t] * pc.sinus[j * dh + t];
            s += keyWeight * sp;
          }
          s *= scale;
          if (hasBias) s += biasWeight * B[(h * n + i) * n + j];
          p[j] = s;
          mx = std::max(mx, s);
        }
        double sum = 0;
        for (int64_t j = 0; j <= i; ++j) sum += (p[j] = std::exp(p[j] - mx));
        double* oi = &C.o[i * D + h * dh];
        for (int64_t j = 0; j <= i; ++j) {
          p[j] /= sum;
          const double* vj = &C.v[j * D + h * dh];
          for (int64_t t = 0; t < dh; ++t) oi[t] += p[j] * vj[t];
        }
      }
    }
    C.x1.resize(nd);
    matmul(C.o.data(), n, D, &w[L.wo], D, C.x1.data());
    for (size_t t = 0; t < nd; ++t) C.x1[t] += C.xIn[t];
    C.b.resize(nd);
    if (norm) {
      C.bHat.resize(nd);
      C.bRstd.resize(static_cast<size_t>(n));
      layerNorm(C.x1.data(), n, D, &w[L.ln2g], &w[L.ln2b], C.b.data(), C.bHat.data(), C.bRstd.data());
    } else {
      C.b = C.x1;
    }
    C.hPre.resize(static_cast<size_t>(n * F));
    matmul(C.b.data(), n, D, &w[L.w1], F, C.hPre.data(), &w[L.b1]);
    C.h = C.hPre;
    for (double& v : C.h) v = std::max(v, 0.0);
    matmul(C.h.data(), n, F, &w[L.w2], D, x.data(), &w[L.b2]);
    for (size_t t = 0; t < nd; ++t) x[t] += C.x1[t];
  }
  const size_t nd = static_cast<size_t>(n * D);
  if (norm) {
    f.resize(nd);
    fHat.resize(nd);
    fRstd.resize(static_cast<size_t>(n));
    layerNorm(x.data(), n, D, &w[lnfg], &w[lnfb], f.data(), fHat.data(), fRstd.data());
  } else {
    f = x;
  }
  logits.resize(static_cast<size_t>(n * V));
  matmul(f.data(), n, D, &w[wout], V, logits.data(), &w[bout]);
  // Softmax in place (logits become probabilities) and the loss.
  double loss = 0;
  for (int64_t i = 0; i < n; ++i) {
    double* z = &logits[i * V];
    const double mx = *std::max_element(z, z + V);
    const int64_t best = std::max_element(z, z + V) - z;
    double sum = 0;
    for (int64_t t = 0; t < V; ++t) sum += (z[t] = std::exp(z[t] - mx));
    for (int64_t t = 0; t < V; ++t) z[t] /= sum;
    const int32_t target = e.targets[i];
    if (target < 0) continue;
    loss -= std::log(std::max(z[target], 1e-300));
    if (correct) *correct += best == target ? 1 : 0;
    if (total) *total += 1;
  }
  return loss;
}

void Model::Impl::backward(const Config& c, const std::vector<double>& w, const PosCache& pc, const Example& e,
                           double lossScale, std::vector<double>& g) {
  const int64_t n = static_cast<int64_t>(e.tokens.size());
  const size_t nd = static_cast<size_t>(n * D);
  const bool norm = c.normalisation;
  const bool rotary = isRotary(c.scheme);
  const double scale = 1.0 / std::sqrt(static_cast<double>(dh));
  // d loss / d logits = (p - onehot) * lossScale at target positions.
  std::vector<double> dz(static_cast<size_t>(n * V), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    const int32_t target = e.targets[i];
    if (target < 0) continue;
    for (int64_t t = 0; t < V; ++t) dz[i * V + t] = logits[i * V + t] * lossScale;
    dz[i * V + target] -= lossScale;
  }
  std::vector<double> df(nd, 0.0), dx(nd, 0.0);
  matmulBack(f.data(), n, D, &w[wout], V, dz.data(), df.data(), &g[wout], &g[bout]);
  if (norm)
    layerNormBack(df.data(), n, D, &w[lnfg], fHat.data(), fRstd.data(), dx.data(), &g[lnfg], &g[lnfb]);
  else
    dx = df;

  std::vector<double> dx1, dh_(static_cast<size_t>(n * F)), db(nd), dO(nd), dq(nd), dk(nd), dv(nd), da(nd), dp;
  for (int64_t l = c.layers - 1; l >= 0; --l) {
    const LayerIdx& L = layers[l];
    LayerCache& C = lc[l];
    // Feed-forward: x = x1 + relu(b W1 + b1) W2 + b2.
    dx1 = dx;
    std::fill(dh_.begin(), dh_.end(), 0.0);
    matmulBack(C.h.data(), n, F, &w[L.w2], D, dx.data(), dh_.data(), &g[L.w2], &g[L.b2]);
    for (size_t t = 0; t < dh_.size(); ++t)
      if (C.hPre[t] <= 0) dh_[t] = 0;
    std::fill(db.begin(), db.end(), 0.0);
    matmulBack(C.b.data(), n, D, &w[L.w1], F, dh_.data(), db.data(), &g[L.w1], &g[L.b1]);
    if (norm)
      layerNormBack(db.data(), n, D, &w[L.ln2g], C.bHat.data(), C.bRstd.data(), dx1.data(), &g[L.ln2g], &g[L.ln2b]);
    else
      for (size_t t = 0; t < nd; ++t) dx1[t] += db[t];
    // Attention output: x1 = xIn + o Wo.
    std::fill(dO.begin(), dO.end(), 0.0);
    matmulBack(C.o.data(), n, D, &w[L.wo], D, dx1.data(), dO.data(), &g[L.wo]);
    std::fill(dq.begin(), dq.end(), 0.0);
    std::fill(dk.begin(), dk.end(), 0.0);
    std::fill(dv.begin(), dv.end(), 0.0);
    const bool hasBias = biasWeight != 0 && !dBias[l].empty();
    const bool hasKeyVec = keyWeight != 0 && !pc.sinus.empty() && !input;
    dp.resize(static_cast<size_t>(n));
    for (int64_t h = 0; h < H; ++h) {
      for (int64_t i = 0; i < n; ++i) {
        const double* p = &C.P[(h * n + i) * n];
        const double* doi = &dO[i * D + h * dh];
        double dot = 0;
        for (int64_t j = 0; j <= i; ++j) {
          const double* vj = &C.v[j * D + h * dh];
          double* dvj = &dv[j * D + h * dh];
          double s = 0;
          for (int64_t t = 0; t < dh; ++t) {
            s += doi[t] * vj[t];
            dvj[t] += p[j] * doi[t];
          }
          dp[j] = s;
          dot += p[j] * s;
        }
        const double* qi = &C.q[i * D + h * dh];
        double* dqi = &dq[i * D + h * dh];
        for (int64_t j = 0; j <= i; ++j) {
          const double ds = p[j] * (dp[j] - dot);  // d loss / d logit_ij
          if (hasBias) dBias[l][(h * n + i) * n + j] += biasWeight * ds;
          const double dss = ds * scale;
          const double* kj = &C.k[j * D + h * dh];
          double* dkj = &dk[j * D + h * dh];
          for (int64_t t = 0; t < dh; ++t) {
            dqi[t] += dss * kj[t];
            dkj[t] += dss * qi[t];
          }
          if (hasKeyVec) {
            for (int64_t t = 0; t < dh; ++t) dqi[t] += dss * keyWeight * pc.sinus[j * dh + t];
          }
        }
      }
    }
    if (rotary) {
      rotate(pc, dq.data(), n, true, true);
      rotate(pc, dk.data(), n, false, true);
    }
    std::fill(da.begin(), da.end(), 0.0);
    matmulBack(C.a.data(), n, D, &w[L.wq], D, dq.data(), da.data(), &g[L.wq]);
    matmulBack(C.a.data(), n, D, &w[L.wk], D, dk.data(), da.data(), &g[L.wk]);
    matmulBack(C.a.data(), n, D, &w[L.wv], D, dv.data(), da.data(), &g[L.wv]);
    dx = dx1;  // residual
    if (norm)
      layerNormBack(da.data(), n, D, &w[L.ln1g], C.aHat.data(), C.aRstd.data(), dx.data(), &g[L.ln1g], &g[L.ln1b]);
    else
      for (size_t t = 0; t < nd; ++t) dx[t] += da[t];
  }
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t t = 0; t < D; ++t) g[embed + e.tokens[i] * D + t] += dx[i * D + t];
  }
}

// ---------------------------------------------------------------------------------------------
// Model

Model::Model(const Config& config) : config_(config), impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  const Config& c = config_;
  m.D = c.dModel;
  m.H = c.heads;
  m.dh = c.dModel / c.heads;
  m.F = c.dFF;
  m.V = c.vocab + 1;
  const std::string mode = c.mode == "auto" ? (c.scheme == "sinusoidal" ? "implicit" : "explicit") : c.mode;
  m.input = c.scheme == "sinusoidal" && mode == "input";
  if (c.scheme == "sinusoidal" && !m.input) m.keyWeight = mode == "mixed" ? c.beta : 1.0;
  if (isBias(c.scheme)) m.biasWeight = mode == "mixed" ? c.alpha / std::sqrt(static_cast<double>(m.dh)) : 1.0;

  size_t total = 0;
  auto add = [&](const std::string& name, size_t size) {
    slices_.push_back(Slice{name, total, size});
    total += size;
    return total - size;
  };
  const size_t D = static_cast<size_t>(m.D), F = static_cast<size_t>(m.F), V = static_cast<size_t>(m.V);
  const size_t H = static_cast<size_t>(m.H);
  m.embed = add("embed", V * D);
  for (int64_t l = 0; l < c.layers; ++l) {
    LayerIdx L;
    const std::string p = "layer" + std::to_string(l) + ".";
    if (c.normalisation) {
      L.ln1g = add(p + "ln1.gain", D);
      L.ln1b = add(p + "ln1.bias", D);
    }
    L.wq = add(p + "Wq", D * D);
    L.wk = add(p + "Wk", D * D);
    L.wv = add(p + "Wv", D * D);
    L.wo = add(p + "Wo", D * D);
    if (c.normalisation) {
      L.ln2g = add(p + "ln2.gain", D);
      L.ln2b = add(p + "ln2.bias", D);
    }
    L.w1 = add(p + "W1", D * F);
    L.b1 = add(p + "b1", F);
    L.w2 = add(p + "W2", F * D);
    L.b2 = add(p + "b2", D);
    if (c.scheme == "t5") L.pos = add(p + "t5.table", H * static_cast<size_t>(c.numBuckets));
    if (c.scheme == "kerple-log") {
      L.pos = add(p + "kerple.r1", H);
      L.pos2 = add(p + "kerple.r2", H);
    }
    if (c.scheme == "fire") L.pos = add(p + "fire.mlp", H * static_cast<size_t>(3 * c.fireHidden + 1));
    m.layers.push_back(L);
  }
  if (c.normalisation) {
    m.lnfg = add("lnf.gain", D);
    m.lnfb = add("lnf.bias", D);
  }
  m.wout = add("Wout", D * V);
  m.bout = add("bout", V);
  w_.assign(total, 0.0);

  // Initialisation from the seed's own stream.
  Rng rng(mixSeed(c.seed, 1));
  auto fill = [&](size_t at, size_t size, double sd) {
    for (size_t t = 0; t < size; ++t) w_[at + t] = sd * rng.normal();
  };
  const double sdD = 1.0 / std::sqrt(static_cast<double>(D));
  fill(m.embed, V * D, c.normalisation ? 1.0 : 0.5);
  const std::vector<double> slopes = alibiSlopes(m.H, 8);
  for (const LayerIdx& L : m.layers) {
    if (c.normalisation) {
      std::fill_n(w_.begin() + L.ln1g, D, 1.0);
      std::fill_n(w_.begin() + L.ln2g, D, 1.0);
    }
    fill(L.wq, D * D, sdD);
    fill(L.wk, D * D, sdD);
    fill(L.wv, D * D, sdD);
    fill(L.wo, D * D, sdD / std::sqrt(2.0 * c.layers));
    fill(L.w1, D * F, std::sqrt(2.0) * sdD);
    fill(L.w2, F * D, 1.0 / std::sqrt(static_cast<double>(F) * 2.0 * c.layers));
    if (c.scheme == "kerple-log") {
      // The catalogue's untrained default: r1 = 1, r2 = ALiBi slopes (kept above the clamp).
      for (size_t h = 0; h < H; ++h) {
        w_[L.pos + h] = 1.0;
        w_[L.pos2 + h] = std::max(slopes[h], 0.05);
      }
    }
    if (c.scheme == "fire") {
      const size_t hid = static_cast<size_t>(c.fireHidden);
      for (size_t h = 0; h < H; ++h) {
        const size_t at = L.pos + h * (3 * hid + 1);
        fill(at, hid, 1.0);                                                  // w1
        fill(at + hid, hid, 0.5);                                            // b1
        fill(at + 2 * hid, hid, 1.0 / std::sqrt(static_cast<double>(hid)));  // w2
      }
    }
  }
  if (c.normalisation) std::fill_n(w_.begin() + m.lnfg, D, 1.0);
  fill(m.wout, D * V, sdD);
}

Model::~Model() = default;

double Model::loss(const std::vector<Example>& batch, std::vector<double>* grad, bool eval) {
  Impl& m = *impl_;
  const Config& c = config_;
  if (batch.empty()) return 0;
  const int64_t n = static_cast<int64_t>(batch[0].tokens.size());
  const PosCache& pc = m.pos(c, n, eval);
  m.bias.resize(static_cast<size_t>(c.layers));
  m.dBias.resize(static_cast<size_t>(c.layers));
  for (int64_t l = 0; l < c.layers; ++l) {
    if (isBias(c.scheme))
      m.computeBias(c, w_, pc, l, n, m.bias[l]);
    else
      m.bias[l].clear();
    if (grad && isBias(c.scheme))
      m.dBias[l].assign(m.bias[l].size(), 0.0);
    else
      m.dBias[l].clear();
  }
  int64_t targets = 0;
  for (const Example& e : batch) {
    for (int32_t t : e.targets) targets += t >= 0 ? 1 : 0;
  }
  const double inv = 1.0 / std::max<int64_t>(targets, 1);
  if (grad) grad->assign(w_.size(), 0.0);
  double total = 0;
  for (const Example& e : batch) {
    total += m.forward(c, w_, pc, e, nullptr, nullptr);
    if (grad) m.backward(c, w_, pc, e, inv, *grad);
  }
  if (grad && isBias(c.scheme)) {
    for (int64_t l = 0; l < c.layers; ++l) m.biasBack(c, w_, pc, l, n, m.dBias[l], *grad);
  }
  return total * inv;
}

Eval Model::evaluate(const Example& e, std::vector<double>* attention) {
  Impl& m = *impl_;
  const Config& c = config_;
  const int64_t n = static_cast<int64_t>(e.tokens.size());
  const PosCache& pc = m.pos(c, n, true);
  m.bias.resize(static_cast<size_t>(c.layers));
  for (int64_t l = 0; l < c.layers; ++l) {
    if (isBias(c.scheme))
      m.computeBias(c, w_, pc, l, n, m.bias[l]);
    else
      m.bias[l].clear();
  }
  Eval r;
  r.loss = m.forward(c, w_, pc, e, &r.correct, &r.total);
  if (attention) {
    attention->clear();
    for (const LayerCache& C : m.lc) attention->insert(attention->end(), C.P.begin(), C.P.end());
  }
  return r;
}

std::vector<double> Model::positionalBias(int64_t layer, int64_t n, bool eval) {
  std::vector<double> out;
  if (!isBias(config_.scheme)) return std::vector<double>(static_cast<size_t>(impl_->H * n * n), 0.0);
  impl_->computeBias(config_, w_, impl_->pos(config_, n, eval), layer, n, out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Trainer

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
    shape = 0.5 * (1.0 + std::cos(3.141592653589793 * progress));
  else if (c.schedule == "linear")
    shape = 1.0 - progress;
  return c.lr * (c.minLrRatio + (1.0 - c.minLrRatio) * shape);
}

double Trainer::step() {
  const Config& c = config_;
  std::vector<Example> batch;
  batch.reserve(static_cast<size_t>(c.batch));
  for (int64_t b = 0; b < c.batch; ++b) batch.push_back(makeExample(c, c.length, data_));
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

}  // namespace lab

// ---------------------------------------------------------------------------------------------
// The "train" job: `steps` optimisation steps (one budget unit each), then evaluation sequence by
// sequence at L, 2L, 4L, 8L (budget units weighted by cost), then the attention examples.

namespace {

class TrainingJob : public PeekableJob {
 public:
  explicit TrainingJob(const lab::Config& c) : c_(c), trainer_(c) {
    for (int64_t f : c.evalFactors) lengths_.push_back(f * c.length);
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
    Tensor lengths = Tensor::floats({count}), accuracy = Tensor::floats({count}), evalLoss = Tensor::floats({count});
    for (int64_t i = 0; i < count; ++i) {
      const lab::Eval& e = evals_[i];
      lengths.f32[i] = static_cast<float>(lengths_[i]);
      accuracy.f32[i] = e.total ? static_cast<float>(static_cast<double>(e.correct) / e.total) : 0.0f;
      evalLoss.f32[i] = e.total ? static_cast<float>(e.loss / e.total) : 0.0f;
    }
    r.emplace("evalLengths", std::move(lengths));
    r.emplace("accuracy", std::move(accuracy));
    r.emplace("evalLoss", std::move(evalLoss));
    r.emplace("attentionL", attentionTensor(attnShort_, c_.length));
    r.emplace("attention4L", attentionTensor(attnLong_, 4 * c_.length));
    r.emplace("tokensL", tokens(example(c_.length)));
    r.emplace("tokens4L", tokens(example(4 * c_.length)));
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
    trainer_.model().evaluate(example(4 * c_.length), &attnLong_);
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

std::unique_ptr<Job> startTraining(const Params& params) {
  const lab::Config config = lab::readConfig(params);
  // Refuse configurations whose evaluation maps would not fit the per-result limit.
  const double n = 4.0 * static_cast<double>(config.length);
  checkResultSize(params.where(), static_cast<double>(config.layers * config.heads) * n * n);
  return std::make_unique<TrainingJob>(config);
}

}  // namespace relpos
