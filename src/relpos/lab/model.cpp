// The lab's model: parameter layout and initialisation, and the forward and backward passes per
// layer type (embedding, attention with the scheme's positional term, feed-forward, output).
// Conventions (docs/conventions.md, docs/attention.md): causal attention, key j at position j,
// query i at position i; explicit mode adds B to QKᵀ/√dh, implicit adds the position vector to the
// keys, mixed is (QKᵀ + αB + βQPᵀ)/√dh.
#include <algorithm>
#include <cmath>

#include "relpos/lab/dense.hpp"
#include "relpos/lab/lab.hpp"
#include "relpos/lab/options.hpp"
#include "relpos/schemes/lab_term.hpp"

namespace relpos::lab {

namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

// Where a layer's weights sit in the flat weight vector.
struct LayerIdx {
  size_t ln1g = kNone, ln1b = kNone, wq = 0, wk = 0, wv = 0, wo = 0, ln2g = kNone, ln2b = kNone, w1 = 0, b1 = 0, w2 = 0,
         b2 = 0, pos = kNone;
};

// What one layer's forward keeps for its backward.
struct LayerCache {
  std::vector<double> xIn, a, aHat, aRstd, q, k, v, P, o, x1, b, bHat, bRstd, hPre, h;
};

}  // namespace

uint64_t mixSeed(uint64_t a, uint64_t b) {
  Rng r(a * 0x9E3779B97F4A7C15ull + b + 0x632BE59BD9B4E019ull);
  return r.next();
}

struct Model::Impl {
  int64_t D = 0, H = 0, dh = 0, F = 0, V = 0;  // V: vocabulary incl. the special (and BOS) tokens
  size_t embed = 0, lnfg = kNone, lnfb = kNone, wout = 0, bout = 0;
  std::vector<LayerIdx> layers;
  std::unique_ptr<Term> term;
  bool input = false;     // position vectors added to the embeddings
  double keyWeight = 0;   // beta on q.p (implicit / mixed position vectors)
  double biasWeight = 0;  // weight of B in the logits
  // The sequence length the term is prepared for, and its position vectors then.
  int64_t preparedN = -1;
  bool preparedEval = false;
  std::vector<double> vectors;
  // Per-forward scratch for a batch.
  std::vector<std::vector<double>> bias;   // per layer [H, n, n]
  std::vector<std::vector<double>> dBias;  // per layer
  std::vector<LayerCache> lc;
  std::vector<double> x, f, fHat, fRstd, logits;

  size_t layOut(const Config& c, std::vector<Slice>& slices);
  void initialise(const Config& c, std::vector<double>& w);
  void prepare(int64_t n, bool eval);
  bool hasKeyVectors() const { return keyWeight != 0 && !vectors.empty() && !input; }
  void computeBiases(const Config& c, const std::vector<double>& w, bool withGrad);

  // Forward of one sequence: the loss sum over targets; fills lc / logits.
  double forward(const Config& c, const std::vector<double>& w, const Example& e, int64_t* correct, int64_t* total);
  void embedForward(const std::vector<double>& w, const Example& e);
  void attentionForward(const Config& c, const std::vector<double>& w, int64_t l, int64_t n);
  void attendHeads(int64_t l, int64_t n);
  void feedForwardForward(const Config& c, const std::vector<double>& w, int64_t l, int64_t n);
  double outputForward(const Config& c, const std::vector<double>& w, const Example& e, int64_t* correct,
                       int64_t* total);

  void backward(const Config& c, const std::vector<double>& w, const Example& e, double scale, std::vector<double>& g);
  void feedForwardBackward(const Config& c, const std::vector<double>& w, int64_t l, int64_t n, std::vector<double>& dx,
                           std::vector<double>& g);
  void attentionBackward(const Config& c, const std::vector<double>& w, int64_t l, int64_t n, std::vector<double>& dx,
                         std::vector<double>& g);
  void attendHeadsBackward(int64_t l, int64_t n, const std::vector<double>& dO, std::vector<double>& dq,
                           std::vector<double>& dk, std::vector<double>& dv);
};

void Model::Impl::prepare(int64_t n, bool eval) {
  if (n == preparedN && eval == preparedEval) return;
  term->prepare(n, eval);
  vectors = term->vectors(input ? D : dh);
  preparedN = n;
  preparedEval = eval;
}

void Model::Impl::computeBiases(const Config& c, const std::vector<double>& w, bool withGrad) {
  const int64_t n = preparedN;
  bias.resize(static_cast<size_t>(c.layers));
  dBias.resize(static_cast<size_t>(c.layers));
  for (int64_t l = 0; l < c.layers; ++l) {
    bias[l].clear();
    dBias[l].clear();
    if (!term->addsBias()) continue;
    bias[l].assign(static_cast<size_t>(H * n * n), 0.0);
    term->bias(layers[l].pos == kNone ? nullptr : &w[layers[l].pos], bias[l].data());
    if (withGrad) dBias[l].assign(bias[l].size(), 0.0);
  }
}

// ---------------------------------------------------------------------------------------------
// Forward

void Model::Impl::embedForward(const std::vector<double>& w, const Example& e) {
  const int64_t n = static_cast<int64_t>(e.tokens.size());
  x.assign(static_cast<size_t>(n * D), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t t = 0; t < D; ++t) {
      x[i * D + t] = w[embed + e.tokens[i] * D + t] + (input ? vectors[i * D + t] : 0.0);
    }
  }
}

// Causal softmax attention of every head: P [H, n, n] and o [n, D] from q, k, v (already rotated)
// with the positional bias and key vectors.
void Model::Impl::attendHeads(int64_t l, int64_t n) {
  LayerCache& C = lc[l];
  const double scale = 1.0 / std::sqrt(static_cast<double>(dh));
  const std::vector<double>& B = bias[l];
  const bool hasBias = biasWeight != 0 && !B.empty();
  const bool hasKeyVec = hasKeyVectors();
  C.P.assign(static_cast<size_t>(H * n * n), 0.0);
  C.o.assign(static_cast<size_t>(n * D), 0.0);
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
          for (int64_t t = 0; t < dh; ++t) sp += qi[t] * vectors[j * dh + t];
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
}

// x1 = x + attention(LN1(x)) Wo.
void Model::Impl::attentionForward(const Config& c, const std::vector<double>& w, int64_t l, int64_t n) {
  const LayerIdx& L = layers[l];
  LayerCache& C = lc[l];
  const size_t nd = static_cast<size_t>(n * D);
  C.xIn = x;
  C.a.resize(nd);
  if (c.normalisation) {
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
  if (term->rotates()) {
    term->rotate(C.q.data(), true, false);
    term->rotate(C.k.data(), false, false);
  }
  attendHeads(l, n);
  C.x1.resize(nd);
  matmul(C.o.data(), n, D, &w[L.wo], D, C.x1.data());
  for (size_t t = 0; t < nd; ++t) C.x1[t] += C.xIn[t];
}

// x = x1 + relu(LN2(x1) W1 + b1) W2 + b2.
void Model::Impl::feedForwardForward(const Config& c, const std::vector<double>& w, int64_t l, int64_t n) {
  const LayerIdx& L = layers[l];
  LayerCache& C = lc[l];
  const size_t nd = static_cast<size_t>(n * D);
  C.b.resize(nd);
  if (c.normalisation) {
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

// Final layer norm, output projection, softmax in place (logits become probabilities) and the loss.
double Model::Impl::outputForward(const Config& c, const std::vector<double>& w, const Example& e, int64_t* correct,
                                  int64_t* total) {
  const int64_t n = static_cast<int64_t>(e.tokens.size());
  const size_t nd = static_cast<size_t>(n * D);
  if (c.normalisation) {
    f.resize(nd);
    fHat.resize(nd);
    fRstd.resize(static_cast<size_t>(n));
    layerNorm(x.data(), n, D, &w[lnfg], &w[lnfb], f.data(), fHat.data(), fRstd.data());
  } else {
    f = x;
  }
  logits.resize(static_cast<size_t>(n * V));
  matmul(f.data(), n, D, &w[wout], V, logits.data(), &w[bout]);
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

double Model::Impl::forward(const Config& c, const std::vector<double>& w, const Example& e, int64_t* correct,
                            int64_t* total) {
  const int64_t n = static_cast<int64_t>(e.tokens.size());
  lc.resize(static_cast<size_t>(c.layers));
  embedForward(w, e);
  for (int64_t l = 0; l < c.layers; ++l) {
    attentionForward(c, w, l, n);
    feedForwardForward(c, w, l, n);
  }
  return outputForward(c, w, e, correct, total);
}

// ---------------------------------------------------------------------------------------------
// Backward

// Feed-forward: x = x1 + relu(b W1 + b1) W2 + b2; turns dx (d loss / d x) into d loss / d x1.
void Model::Impl::feedForwardBackward(const Config& c, const std::vector<double>& w, int64_t l, int64_t n,
                                      std::vector<double>& dx, std::vector<double>& g) {
  const LayerIdx& L = layers[l];
  LayerCache& C = lc[l];
  const size_t nd = static_cast<size_t>(n * D);
  std::vector<double> dx1 = dx, dh(static_cast<size_t>(n * F), 0.0), db(nd, 0.0);
  matmulBack(C.h.data(), n, F, &w[L.w2], D, dx.data(), dh.data(), &g[L.w2], &g[L.b2]);
  for (size_t t = 0; t < dh.size(); ++t)
    if (C.hPre[t] <= 0) dh[t] = 0;
  matmulBack(C.b.data(), n, D, &w[L.w1], F, dh.data(), db.data(), &g[L.w1], &g[L.b1]);
  if (c.normalisation)
    layerNormBack(db.data(), n, D, &w[L.ln2g], C.bHat.data(), C.bRstd.data(), dx1.data(), &g[L.ln2g], &g[L.ln2b]);
  else
    for (size_t t = 0; t < nd; ++t) dx1[t] += db[t];
  dx.swap(dx1);
}

// The softmax attention of every head backwards: dq, dk, dv from dO, and the bias gradient.
void Model::Impl::attendHeadsBackward(int64_t l, int64_t n, const std::vector<double>& dO, std::vector<double>& dq,
                                      std::vector<double>& dk, std::vector<double>& dv) {
  LayerCache& C = lc[l];
  const double scale = 1.0 / std::sqrt(static_cast<double>(dh));
  const bool hasBias = biasWeight != 0 && !dBias[l].empty();
  const bool hasKeyVec = hasKeyVectors();
  std::vector<double> dp(static_cast<size_t>(n));
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
          for (int64_t t = 0; t < dh; ++t) dqi[t] += dss * keyWeight * vectors[j * dh + t];
        }
      }
    }
  }
}

// Attention: x1 = xIn + o Wo; turns dx (d loss / d x1) into d loss / d xIn.
void Model::Impl::attentionBackward(const Config& c, const std::vector<double>& w, int64_t l, int64_t n,
                                    std::vector<double>& dx, std::vector<double>& g) {
  const LayerIdx& L = layers[l];
  LayerCache& C = lc[l];
  const size_t nd = static_cast<size_t>(n * D);
  std::vector<double> dO(nd, 0.0), dq(nd, 0.0), dk(nd, 0.0), dv(nd, 0.0), da(nd, 0.0);
  matmulBack(C.o.data(), n, D, &w[L.wo], D, dx.data(), dO.data(), &g[L.wo]);
  attendHeadsBackward(l, n, dO, dq, dk, dv);
  if (term->rotates()) {
    term->rotate(dq.data(), true, true);
    term->rotate(dk.data(), false, true);
  }
  matmulBack(C.a.data(), n, D, &w[L.wq], D, dq.data(), da.data(), &g[L.wq]);
  matmulBack(C.a.data(), n, D, &w[L.wk], D, dk.data(), da.data(), &g[L.wk]);
  matmulBack(C.a.data(), n, D, &w[L.wv], D, dv.data(), da.data(), &g[L.wv]);
  if (c.normalisation)
    layerNormBack(da.data(), n, D, &w[L.ln1g], C.aHat.data(), C.aRstd.data(), dx.data(), &g[L.ln1g], &g[L.ln1b]);
  else
    for (size_t t = 0; t < nd; ++t) dx[t] += da[t];
}

void Model::Impl::backward(const Config& c, const std::vector<double>& w, const Example& e, double lossScale,
                           std::vector<double>& g) {
  const int64_t n = static_cast<int64_t>(e.tokens.size());
  const size_t nd = static_cast<size_t>(n * D);
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
  if (c.normalisation)
    layerNormBack(df.data(), n, D, &w[lnfg], fHat.data(), fRstd.data(), dx.data(), &g[lnfg], &g[lnfb]);
  else
    dx = df;
  for (int64_t l = c.layers - 1; l >= 0; --l) {
    feedForwardBackward(c, w, l, n, dx, g);
    attentionBackward(c, w, l, n, dx, g);
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
  m.V = c.vocab + (c.bos ? 2 : 1);
  const Scheme& scheme = findLabScheme(c.scheme);
  m.term = scheme.lab.make(scheme, TermSetup{m.H, m.dh, modelLength(c, c.length), &c.options});
  const std::string mode = resolvedMode(c);
  m.input = mode == "input";
  if (!m.input) m.keyWeight = mode == "mixed" ? c.beta : 1.0;
  if (m.term->addsBias()) m.biasWeight = mode == "mixed" ? c.alpha / std::sqrt(static_cast<double>(m.dh)) : 1.0;
  w_.assign(m.layOut(c, slices_), 0.0);
  m.initialise(c, w_);
}

// Where every weight sits: the embedding, each layer's blocks (and the scheme's positional
// weights), the final norm and the output projection. Returns the total count.
size_t Model::Impl::layOut(const Config& c, std::vector<Slice>& slices) {
  size_t total = 0;
  auto add = [&](const std::string& name, size_t size) {
    slices.push_back(Slice{name, total, size});
    total += size;
    return total - size;
  };
  const size_t d = static_cast<size_t>(D), f = static_cast<size_t>(F), v = static_cast<size_t>(V);
  embed = add("embed", v * d);
  const std::vector<WeightSlice> positional = term->weights();
  for (int64_t l = 0; l < c.layers; ++l) {
    LayerIdx L;
    const std::string p = "layer" + std::to_string(l) + ".";
    if (c.normalisation) {
      L.ln1g = add(p + "ln1.gain", d);
      L.ln1b = add(p + "ln1.bias", d);
    }
    L.wq = add(p + "Wq", d * d);
    L.wk = add(p + "Wk", d * d);
    L.wv = add(p + "Wv", d * d);
    L.wo = add(p + "Wo", d * d);
    if (c.normalisation) {
      L.ln2g = add(p + "ln2.gain", d);
      L.ln2b = add(p + "ln2.bias", d);
    }
    L.w1 = add(p + "W1", d * f);
    L.b1 = add(p + "b1", f);
    L.w2 = add(p + "W2", f * d);
    L.b2 = add(p + "b2", d);
    for (size_t s = 0; s < positional.size(); ++s) {
      const size_t at = add(p + positional[s].name, positional[s].size);
      if (s == 0) L.pos = at;
    }
    layers.push_back(L);
  }
  if (c.normalisation) {
    lnfg = add("lnf.gain", d);
    lnfb = add("lnf.bias", d);
  }
  wout = add("Wout", d * v);
  bout = add("bout", v);
  return total;
}

// Initial weights from the seed's own stream: normal with widths scaled to the fan-in (and the
// depth for the residual projections), gains 1, biases 0, the scheme's own initialisation.
void Model::Impl::initialise(const Config& c, std::vector<double>& w) {
  Rng rng(mixSeed(c.seed, 1));
  auto fill = [&](size_t at, size_t size, double sd) {
    for (size_t t = 0; t < size; ++t) w[at + t] = sd * rng.normal();
  };
  const size_t d = static_cast<size_t>(D), f = static_cast<size_t>(F), v = static_cast<size_t>(V);
  const double sdD = 1.0 / std::sqrt(static_cast<double>(d));
  fill(embed, v * d, c.normalisation ? 1.0 : 0.5);
  for (const LayerIdx& L : layers) {
    if (c.normalisation) {
      std::fill_n(w.begin() + L.ln1g, d, 1.0);
      std::fill_n(w.begin() + L.ln2g, d, 1.0);
    }
    fill(L.wq, d * d, sdD);
    fill(L.wk, d * d, sdD);
    fill(L.wv, d * d, sdD);
    fill(L.wo, d * d, sdD / std::sqrt(2.0 * c.layers));
    fill(L.w1, d * f, std::sqrt(2.0) * sdD);
    fill(L.w2, f * d, 1.0 / std::sqrt(static_cast<double>(f) * 2.0 * c.layers));
    if (L.pos != kNone) term->initialise(&w[L.pos], rng);
  }
  if (c.normalisation) std::fill_n(w.begin() + lnfg, d, 1.0);
  fill(wout, d * v, sdD);
}

Model::~Model() = default;

double Model::loss(const std::vector<Example>& batch, std::vector<double>* grad, bool eval) {
  Impl& m = *impl_;
  const Config& c = config_;
  if (batch.empty()) return 0;
  m.prepare(static_cast<int64_t>(batch[0].tokens.size()), eval);
  m.computeBiases(c, w_, grad != nullptr);
  int64_t targets = 0;
  for (const Example& e : batch) {
    for (int32_t t : e.targets) targets += t >= 0 ? 1 : 0;
  }
  const double inv = 1.0 / std::max<int64_t>(targets, 1);
  if (grad) grad->assign(w_.size(), 0.0);
  double total = 0;
  for (const Example& e : batch) {
    total += m.forward(c, w_, e, nullptr, nullptr);
    if (grad) m.backward(c, w_, e, inv, *grad);
  }
  if (grad && m.term->addsBias()) {
    for (int64_t l = 0; l < c.layers; ++l) {
      const size_t pos = m.layers[l].pos;
      m.term->biasBackward(pos == kNone ? nullptr : &w_[pos], m.dBias[l].data(),
                           pos == kNone ? nullptr : grad->data() + pos);
    }
  }
  return total * inv;
}

Eval Model::evaluate(const Example& e, std::vector<double>* attention) {
  Impl& m = *impl_;
  m.prepare(static_cast<int64_t>(e.tokens.size()), true);
  m.computeBiases(config_, w_, false);
  Eval r;
  r.loss = m.forward(config_, w_, e, &r.correct, &r.total);
  r.sequences = r.total > 0 ? 1 : 0;
  r.exact = r.total > 0 && r.correct == r.total ? 1 : 0;
  if (attention) {
    attention->clear();
    for (const LayerCache& C : m.lc) attention->insert(attention->end(), C.P.begin(), C.P.end());
  }
  return r;
}

std::vector<double> Model::positionalBias(int64_t layer, int64_t n, bool eval) {
  Impl& m = *impl_;
  m.prepare(n, eval);
  std::vector<double> out(static_cast<size_t>(m.H * n * n), 0.0);
  if (!m.term->addsBias()) return out;
  const size_t pos = m.layers[layer].pos;
  m.term->bias(pos == kNone ? nullptr : &w_[pos], out.data());
  return out;
}

}  // namespace relpos::lab
