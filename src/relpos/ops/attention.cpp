#include "relpos/ops/attention.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/numeric.hpp"
#include "relpos/kernels/kernels.hpp"
#include "relpos/schemes/rotary_family.hpp"

namespace relpos {

namespace {

const ParamInfo kMode = choiceParam("mode", "explicit|implicit|mixed", "how the positional term enters the logits");
const ParamInfo kAlpha = numberParam("alpha", 1, -1e12, 1e12, "mixed mode: weight of B");
const ParamInfo kBeta = numberParam("beta", 1, -1e12, 1e12, "mixed mode: weight of Q P^T");

struct Shapes {
  int64_t n = 0, m = 0, heads = 1, dh = 0, dv = 0, width = 0;
  int64_t queryOffset = 0;
};

// q, k and v with the sizes they imply, checked against each other.
struct Inputs {
  const Value* q = nullptr;
  const Value* k = nullptr;
  const Value* v = nullptr;
  Shapes s;
};

const Value& matrix(const Params& params, const std::string& name, const std::string& rows) {
  const Value* v = params.array(name);
  if (!v || v->shape.size() != 2) {
    throwType(params.where() + ": " + name + " must be a tensor of shape [" + rows + ", heads*d]");
  }
  return *v;
}

Inputs readInputs(const Params& params) {
  Inputs in;
  in.q = &matrix(params, "q", "n");
  in.k = &matrix(params, "k", "m");
  in.v = params.array("v");
  Shapes& s = in.s;
  s.heads = params.integer(common::heads());
  s.n = in.q->shape[0];
  s.m = in.k->shape[0];
  s.width = in.q->shape[1];
  if (in.k->shape[1] != s.width) {
    throwRange(params.where() + ": k must have the width of q (" + std::to_string(s.width) + "), got " +
               std::to_string(in.k->shape[1]));
  }
  if (s.width % s.heads != 0) {
    throwRange(params.where() + ": heads (" + std::to_string(s.heads) + ") must divide the width of q, got " +
               std::to_string(s.width));
  }
  s.dh = s.width / s.heads;
  if (in.v) {
    if (in.v->shape.size() != 2 || in.v->shape[0] != s.m) {
      throwType(params.where() + ": v must be a tensor of shape [m, heads*dv] with m = " + std::to_string(s.m));
    }
    if (in.v->shape[1] % s.heads != 0) {
      throwRange(params.where() + ": heads (" + std::to_string(s.heads) + ") must divide the width of v, got " +
                 std::to_string(in.v->shape[1]));
    }
    s.dv = in.v->shape[1] / s.heads;
  }
  s.queryOffset = params.has(common::queryOffset().name) ? params.integer(common::queryOffset()) : s.m - s.n;
  return in;
}

// Everything allocated below, sized before the first allocation (floats): weights, output, per-head
// q / k / packed keys, rotary tables, a copied P, a scheme's index map or key vectors.
void checkMemory(const Params& params, const Scheme* scheme, const Inputs& in) {
  const Shapes& s = in.s;
  checkResultSize(params.where(), static_cast<double>(s.heads) * s.n * s.m);
  const double n = static_cast<double>(s.n), m = static_cast<double>(s.m), dh = static_cast<double>(s.dh);
  double floats = s.heads * n * m + (in.v ? n * s.heads * s.dv : 0.0) + (n + 3.0 * (m + 16)) * dh;
  const AttentionTerm kind = scheme ? scheme->term : AttentionTerm::None;
  if (kind == AttentionTerm::Rotary) floats += 4.0 * (n + m) * dh;
  if (kind == AttentionTerm::PairTable) floats += n * m;
  if (kind == AttentionTerm::KeyVector) floats += 2.0 * m * dh;
  if (const Value* p = params.find("P")) floats += static_cast<double>(p->array.size());
  checkWorkingSet(params.where(), 4.0 * floats, "weights, output and per-head scratch");
}

// The positional term of every head, resolved from the given B / P or the scheme.
struct PositionalTerm {
  const float* bias = nullptr;  // a given B: [heads, n, m] or [n, m] (sharedBias)
  bool sharedBias = false;
  bool biasFromScheme = false;  // the scheme's bias is filled straight into the weights buffer
  bool hasBias() const { return bias || biasFromScheme; }
  std::vector<float> keyVectors;   // P [m, dh], empty if none
  std::vector<float> pairVectors;  // P [n, m, dh], empty if none
  PairTable table;                 // Shaw-style table + index, empty if none
  bool hasTable = false;
  RotaryPlan rotary;
  bool hasRotary = false;
  bool logits = false;  // the scheme computes the logits itself
  bool hasVectors() const { return !keyVectors.empty() || !pairVectors.empty() || hasTable; }
};

void readGivenTerm(const Params& params, const Shapes& s, PositionalTerm& term) {
  if (const Value* b = params.array("B")) {
    const int64_t nm = s.n * s.m;
    if (static_cast<int64_t>(b->array.size()) == nm) {
      term.sharedBias = true;
    } else if (static_cast<int64_t>(b->array.size()) != s.heads * nm) {
      throwRange(params.where() + ": B must have shape [n, m] or [heads, n, m] = [" + std::to_string(s.n) + ", " +
                 std::to_string(s.m) + "], got " + std::to_string(b->array.size()) + " values");
    }
    term.bias = b->array.data();
  }
  if (const Value* p = params.array("P")) {
    const int64_t perKey = s.m * s.dh;
    if (static_cast<int64_t>(p->array.size()) == perKey) {
      term.keyVectors = p->array;
    } else if (static_cast<int64_t>(p->array.size()) == s.n * perKey) {
      term.pairVectors = p->array;
    } else {
      throwRange(params.where() + ": P must have shape [m, d] or [n, m, d] with d the head dim (" +
                 std::to_string(s.dh) + "), got " + std::to_string(p->array.size()) + " values");
    }
  }
}

PositionalTerm resolveTerm(const Params& params, const Scheme* scheme, const Shapes& s) {
  PositionalTerm term;
  readGivenTerm(params, s, term);
  if (!scheme) return term;
  switch (scheme->term) {
    case AttentionTerm::Bias:
      if (!term.bias) term.biasFromScheme = true;
      break;
    case AttentionTerm::Rotary: {
      const int64_t seqLen = std::max(s.n - 1 + s.queryOffset, s.m - 1) + 1;
      term.rotary = rotaryPlan(*scheme, params, s.dh, seqLen);
      term.hasRotary = true;
      break;
    }
    case AttentionTerm::KeyVector:
      if (term.keyVectors.empty() && term.pairVectors.empty()) {
        term.keyVectors.resize(static_cast<size_t>(s.m * s.dh));
        scheme->positionVectors(params, 0, s.m, s.dh, term.keyVectors.data());
      }
      break;
    case AttentionTerm::PairTable:
      term.table = scheme->pairTable(params, s.n, s.m, s.queryOffset, s.dh);
      term.hasTable = true;
      break;
    case AttentionTerm::Logits:
      term.logits = true;
      break;
    case AttentionTerm::None:
    case AttentionTerm::Unsupported:
      break;
  }
  return term;
}

// The mode and its weights, read before anything is sized.
struct Mode {
  std::string name;
  double alpha = 1;
  double beta = 1;
};

Mode readMode(const Params& params, const Scheme* scheme) {
  Mode mode{params.choice(kMode), params.number(kAlpha), params.number(kBeta)};
  if (!params.has(kMode.name) && scheme &&
      (scheme->term == AttentionTerm::KeyVector || scheme->term == AttentionTerm::PairTable)) {
    mode.name = "implicit";  // a vector scheme's natural mode
  }
  return mode;
}

// How the terms are weighted: logit = scale * (q.k + vector * q.p) + bias * B (docs/attention.md);
// refuses a mode whose term is missing.
struct Weights {
  double vector = 1;
  double bias = 1;
};

Weights modeWeights(const Params& params, const Mode& mode, const PositionalTerm& term, const Shapes& s) {
  if (mode.name == "explicit" && term.hasVectors() && !term.hasBias()) {
    throwRange(params.where() +
               ": mode 'explicit' needs a bias B or a bias scheme; position vectors P need mode 'implicit' or 'mixed'");
  }
  if (mode.name == "implicit" && term.hasBias() && !term.hasVectors()) {
    throwRange(
        params.where() +
        ": mode 'implicit' needs position vectors P or a vector scheme; a bias B needs mode 'explicit' or 'mixed'");
  }
  if (mode.name != "mixed") return {};
  return {mode.beta, mode.alpha * (1.0 / std::sqrt(static_cast<double>(s.dh)))};
}

// One head's queries and keys [n, dh], [m, dh]: copied out of q and k, rotated, key vectors folded
// in (q.(k + w p_j) = q.k + w q.p_j).
class HeadInputs {
 public:
  HeadInputs(const Inputs& in, const PositionalTerm& term, double vectorWeight)
      : in_(in), term_(term), vectorWeight_(vectorWeight), q_(in.s.n * in.s.dh), k_(in.s.m * in.s.dh) {
    if (term.hasRotary) {
      // Queries sit at queryOffset .. queryOffset+n-1 and keys at 0 .. m-1: one table each, so that a
      // large queryOffset (up to 1e9) does not size a table over the gap between them.
      queryTable_ = std::make_unique<RotaryTable>(term.rotary, in.s.queryOffset, in.s.n, true);
      keyTable_ = std::make_unique<RotaryTable>(term.rotary, 0, in.s.m, false);
    }
  }

  void gather(int64_t h) {
    const Shapes& s = in_.s;
    for (int64_t i = 0; i < s.n; ++i)
      std::copy_n(in_.q->array.data() + i * s.width + h * s.dh, s.dh, q_.data() + i * s.dh);
    for (int64_t j = 0; j < s.m; ++j)
      std::copy_n(in_.k->array.data() + j * s.width + h * s.dh, s.dh, k_.data() + j * s.dh);
    if (term_.hasRotary) {
      for (int64_t i = 0; i < s.n; ++i) queryTable_->apply(i + s.queryOffset, q_.data() + i * s.dh);
      for (int64_t j = 0; j < s.m; ++j) keyTable_->apply(j, k_.data() + j * s.dh);
    }
    if (!term_.keyVectors.empty()) {
      for (size_t t = 0; t < k_.size(); ++t) k_[t] += static_cast<float>(vectorWeight_) * term_.keyVectors[t];
    }
  }
  const float* q() const { return q_.data(); }
  const float* k() const { return k_.data(); }

 private:
  const Inputs& in_;
  const PositionalTerm& term_;
  double vectorWeight_;
  std::vector<float> q_, k_;
  std::unique_ptr<RotaryTable> queryTable_, keyTable_;
};

// Terms that are not a plain bias (pair vectors, a pair table) are gathered per pair into the
// weights buffer w; it then enters the fused store as the bias (the buffer aliases itself).
void gatherPairTerms(const PositionalTerm& term, const Weights& weights, const float* bias, const float* q,
                     const Shapes& s, float* w) {
  const double invSqrt = 1.0 / std::sqrt(static_cast<double>(s.dh));
  for (int64_t i = 0; i < s.n; ++i) {
    const float* qi = q + i * s.dh;
    for (int64_t j = 0; j < s.m; ++j) {
      const float* p = term.hasTable ? term.table.keyTable.data() + term.table.index[i * s.m + j] * s.dh
                                     : term.pairVectors.data() + (i * s.m + j) * s.dh;
      const double gathered = weights.vector * invSqrt * dot(qi, p, s.dh);
      w[i * s.m + j] = static_cast<float>(gathered + (bias ? weights.bias * bias[i * s.m + j] : 0.0));
    }
  }
}

// The logits of head h into w [n, m]: the scheme's own, or the fused kernel (scale, bias, mask).
void headLogits(const Params& params, const Scheme* scheme, const PositionalTerm& term, const Weights& weights,
                const HeadInputs& head, const Shapes& s, const kernels::Mask& mask, int64_t h, float* w) {
  if (term.logits) {
    scheme->logits(params, head.q(), head.k(), s.n, s.m, s.dh, s.queryOffset, w);
    if (mask.causal) kernels::applyCausalMask(w, 1, s.n, s.m, s.queryOffset);
    return;
  }
  const float* bias = nullptr;
  float biasWeight = static_cast<float>(weights.bias);
  if (term.bias) bias = term.bias + (term.sharedBias ? 0 : h * s.n * s.m);
  if (term.biasFromScheme) bias = w;  // filled before the head loop; the fused store reads it in place
  if (!term.pairVectors.empty() || term.hasTable) {
    gatherPairTerms(term, weights, bias, head.q(), s, w);
    bias = w;
    biasWeight = 1.0f;
  }
  const std::vector<float> panels = kernels::packKeys(head.k(), s.m, s.dh, s.dh);
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(s.dh)));
  kernels::logits(head.q(), s.n, s.dh, panels.data(), s.m, s.dh, scale, bias, s.m, biasWeight, mask, w, s.m);
}

// Shaw's a^V: out_i += sum_j w_ij aV[idx(i, j)] over the visible keys.
void addValueTable(const PairTable& table, const float* w, const Shapes& s, const kernels::Mask& mask, float* out) {
  for (int64_t i = 0; i < s.n; ++i) {
    float* o = out + i * s.heads * s.dv;
    for (int64_t j = 0; j < mask.visible(i, s.m); ++j) {
      const float a = w[i * s.m + j];
      const float* av = table.valueTable.data() + table.index[i * s.m + j] * s.dv;
      for (int64_t c = 0; c < s.dv; ++c) o[c] += a * av[c];
    }
  }
}

}  // namespace

Result attention(const Params& params, const Scheme* scheme) {
  const Inputs in = readInputs(params);
  const Shapes& s = in.s;
  const Mode mode = readMode(params, scheme);
  const bool causal = params.boolean(common::causal());
  checkMemory(params, scheme, in);
  const PositionalTerm term = resolveTerm(params, scheme, s);
  const Weights weights = modeWeights(params, mode, term, s);

  Tensor result = Tensor::floats({s.heads, s.n, s.m});
  Tensor output;
  if (in.v) output = Tensor::floats({s.n, s.heads * s.dv});
  const kernels::Mask mask{causal, s.queryOffset};
  HeadInputs head(in, term, weights.vector);
  // One pass for every head: [heads, n, m] is the layout of both the bias window and the weights.
  if (term.biasFromScheme) scheme->fillBias(params, BiasWindow{s.heads, s.n, s.m, s.queryOffset, 0}, result.f32.data());

  for (int64_t h = 0; h < s.heads; ++h) {
    head.gather(h);
    float* w = result.f32.data() + h * s.n * s.m;
    headLogits(params, scheme, term, weights, head, s, mask, h, w);
    kernels::softmaxRows(w, s.n, s.m, s.m, mask);
    if (!in.v) continue;
    float* out = output.f32.data() + h * s.dv;
    kernels::weightedSum(w, s.n, s.m, s.m, in.v->array.data() + h * s.dv, s.dv, s.heads * s.dv, mask, out,
                         s.heads * s.dv);
    if (term.hasTable && !term.table.valueTable.empty()) addValueTable(term.table, w, s, mask, out);
  }
  Result out;
  out.emplace("weights", std::move(result));
  if (in.v) out["output"] = std::move(output);
  return out;
}

}  // namespace relpos
