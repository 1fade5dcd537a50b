#include "relpos/ops/attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "relpos/base/errors.hpp"
#include "relpos/kernels/kernels.hpp"
#include "relpos/schemes/bias.hpp"
#include "relpos/schemes/rotary.hpp"

namespace relpos {

void softmaxRow(float* row, int64_t count) {
  float top = -std::numeric_limits<float>::infinity();
  for (int64_t j = 0; j < count; ++j) top = std::max(top, row[j]);
  if (top == -std::numeric_limits<float>::infinity()) {
    std::fill(row, row + count, 0.0f);
    return;
  }
  double sum = 0;
  for (int64_t j = 0; j < count; ++j) {
    const float e = std::exp(row[j] - top);  // exp(-inf) == 0: masked keys get exactly 0
    row[j] = e;
    sum += e;
  }
  const float inv = static_cast<float>(1.0 / sum);
  for (int64_t j = 0; j < count; ++j) row[j] *= inv;
}

namespace {

const ParamInfo& modeParam() {
  static const ParamInfo p =
      choiceParam("mode", "explicit|implicit|mixed", "how the positional term enters the logits");
  return p;
}
const ParamInfo& alphaParam() {
  static const ParamInfo p = numberParam("alpha", 1, -1e12, 1e12, "mixed mode: weight of B");
  return p;
}
const ParamInfo& betaParam() {
  static const ParamInfo p = numberParam("beta", 1, -1e12, 1e12, "mixed mode: weight of Q P^T");
  return p;
}

struct Shapes {
  int64_t n = 0, m = 0, heads = 1, dh = 0, dv = 0;
  int64_t queryOffset = 0;
};

const Value& matrix(const Params& params, const std::string& name, const std::string& rows) {
  const Value* v = params.array(name);
  if (!v || v->shape.size() != 2) {
    throwType(params.where() + ": " + name + " must be a tensor of shape [" + rows + ", heads*d]");
  }
  return *v;
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
};

PositionalTerm resolveTerm(const Params& params, const Scheme* scheme, const Shapes& s) {
  PositionalTerm term;
  const std::string shapeB = "[n, m] or [heads, n, m]";
  if (const Value* b = params.array("B")) {
    const int64_t nm = s.n * s.m;
    if (static_cast<int64_t>(b->array.size()) == nm) {
      term.sharedBias = true;
    } else if (static_cast<int64_t>(b->array.size()) != s.heads * nm) {
      throwRange(params.where() + ": B must have shape " + shapeB + " = [" + std::to_string(s.n) + ", " +
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
        Params encodingParams = params;
        for (const char* name : {"q", "k", "v", "B", "P", "heads", "mode", "alpha", "beta", "causal", "queryOffset"}) {
          encodingParams.erase(name);
        }
        encodingParams.setNumber("n", static_cast<double>(s.m));
        encodingParams.setNumber("d", static_cast<double>(s.dh));
        term.keyVectors = scheme->encoding(encodingParams).at("data").f32;
      }
      break;
    case AttentionTerm::PairTable:
      term.table = scheme->pairTable(params, s.n, s.m, s.queryOffset, s.dh);
      term.hasTable = true;
      break;
    case AttentionTerm::Logits:
    case AttentionTerm::None:
      break;
  }
  return term;
}

double dot(const float* a, const float* b, int64_t d) {
  double sum = 0;
  for (int64_t c = 0; c < d; ++c) sum += static_cast<double>(a[c]) * b[c];
  return sum;
}

}  // namespace

Result attention(const Params& params, const Scheme* scheme) {
  const Value& q = matrix(params, "q", "n");
  const Value& k = matrix(params, "k", "m");
  const Value* v = params.array("v");
  Shapes s;
  s.heads = params.integer(integerParam("heads", 1, 1, 1024, ""));
  s.n = q.shape[0];
  s.m = k.shape[0];
  const int64_t width = q.shape[1];
  if (k.shape[1] != width) {
    throwRange(params.where() + ": k must have the width of q (" + std::to_string(width) + "), got " +
               std::to_string(k.shape[1]));
  }
  if (width % s.heads != 0) {
    throwRange(params.where() + ": heads (" + std::to_string(s.heads) + ") must divide the width of q, got " +
               std::to_string(width));
  }
  s.dh = width / s.heads;
  if (v) {
    if (v->shape.size() != 2 || v->shape[0] != s.m) {
      throwType(params.where() + ": v must be a tensor of shape [m, heads*dv] with m = " + std::to_string(s.m));
    }
    if (v->shape[1] % s.heads != 0) {
      throwRange(params.where() + ": heads (" + std::to_string(s.heads) + ") must divide the width of v, got " +
                 std::to_string(v->shape[1]));
    }
    s.dv = v->shape[1] / s.heads;
  }
  s.queryOffset = params.has("queryOffset") ? params.integer(integerParam("queryOffset", 0, -1e9, 1e9, "")) : s.m - s.n;
  std::string mode = params.choice(modeParam());
  if (!params.has("mode") && scheme &&
      (scheme->term == AttentionTerm::KeyVector || scheme->term == AttentionTerm::PairTable)) {
    mode = "implicit";  // a vector scheme's natural mode
  }
  const double alpha = params.number(alphaParam());
  const double beta = params.number(betaParam());
  const bool causal = params.boolean(booleanParam("causal", false, ""));
  checkResultSize(params.where(), static_cast<double>(s.heads) * s.n * s.m);
  {
    // Everything allocated below, sized before the first allocation (floats): weights, output,
    // per-head q / k / packed keys, rotary tables, a copied P, a scheme's index map or key vectors.
    const double n = static_cast<double>(s.n), m = static_cast<double>(s.m), dh = static_cast<double>(s.dh);
    double floats = s.heads * n * m + (v ? n * s.heads * s.dv : 0.0) + (n + 3.0 * (m + 16)) * dh;
    const AttentionTerm kind = scheme ? scheme->term : AttentionTerm::None;
    if (kind == AttentionTerm::Rotary) floats += 4.0 * (n + m) * dh;
    if (kind == AttentionTerm::PairTable) floats += n * m;
    if (kind == AttentionTerm::KeyVector) floats += 2.0 * m * dh;
    if (const Value* p = params.find("P")) floats += static_cast<double>(p->array.size());
    checkWorkingSet(params.where(), 4.0 * floats, "weights, output and per-head scratch");
  }

  const PositionalTerm term = resolveTerm(params, scheme, s);
  const bool hasVectors = !term.keyVectors.empty() || !term.pairVectors.empty() || term.hasTable;
  if (mode == "explicit" && hasVectors && !term.hasBias()) {
    throwRange(params.where() +
               ": mode 'explicit' needs a bias B or a bias scheme; position vectors P need mode 'implicit' or 'mixed'");
  }
  if (mode == "implicit" && term.hasBias() && !hasVectors) {
    throwRange(
        params.where() +
        ": mode 'implicit' needs position vectors P or a vector scheme; a bias B needs mode 'explicit' or 'mixed'");
  }
  const double invSqrt = 1.0 / std::sqrt(static_cast<double>(s.dh));
  // Logit = scale * (q.k + vectorWeight * q.p) + biasWeight * B   (schemes.md §7)
  const double vectorWeight = mode == "mixed" ? beta : 1.0;
  const double biasWeight = mode == "mixed" ? alpha * invSqrt : 1.0;

  Tensor weights = Tensor::floats({s.heads, s.n, s.m});
  Tensor output;
  if (v) output = Tensor::floats({s.n, s.heads * s.dv});
  const kernels::Mask mask{causal, s.queryOffset};
  const bool logitsScheme = scheme && scheme->term == AttentionTerm::Logits;
  // Terms that are not a plain bias are gathered per pair into the weights buffer first and then
  // enter the fused store as its bias (the buffer aliases itself).
  const bool pairTerm = !term.pairVectors.empty() || term.hasTable;
  std::unique_ptr<kernels::RotaryTable> queryTable, keyTable;
  if (term.hasRotary) {
    // Queries sit at queryOffset .. queryOffset+n-1 and keys at 0 .. m-1: one table each, so that a
    // large queryOffset (up to 1e9) does not size a table over the gap between them.
    queryTable = std::make_unique<kernels::RotaryTable>(term.rotary, s.queryOffset, s.n, true);
    keyTable = std::make_unique<kernels::RotaryTable>(term.rotary, 0, s.m, term.rotary.xposZeta.empty());
  }
  std::vector<float> qh(static_cast<size_t>(s.n * s.dh));
  std::vector<float> kh(static_cast<size_t>(s.m * s.dh));
  // One pass for every head: [heads, n, m] is the layout of both the bias window and the weights.
  if (term.biasFromScheme)
    scheme->fillBias(params, BiasWindow{s.heads, s.n, s.m, s.queryOffset, 0}, weights.f32.data());

  for (int64_t h = 0; h < s.heads; ++h) {
    for (int64_t i = 0; i < s.n; ++i) std::copy_n(q.array.data() + i * width + h * s.dh, s.dh, qh.data() + i * s.dh);
    for (int64_t j = 0; j < s.m; ++j) std::copy_n(k.array.data() + j * width + h * s.dh, s.dh, kh.data() + j * s.dh);
    if (term.hasRotary) {
      for (int64_t i = 0; i < s.n; ++i) queryTable->apply(i + s.queryOffset, qh.data() + i * s.dh);
      for (int64_t j = 0; j < s.m; ++j) keyTable->apply(j, kh.data() + j * s.dh);
    }
    // q.(k + w p_j) = q.k + w q.p_j: key vectors fold into the keys before packing.
    if (!term.keyVectors.empty()) {
      for (size_t t = 0; t < kh.size(); ++t) kh[t] += static_cast<float>(vectorWeight) * term.keyVectors[t];
    }
    float* w = weights.f32.data() + h * s.n * s.m;
    if (logitsScheme) {
      scheme->logits(params, qh.data(), kh.data(), s.n, s.m, s.dh, s.queryOffset, w);
      if (causal) applyCausalMask(w, 1, s.n, s.m, s.queryOffset);
    } else {
      const float* bias = nullptr;
      float weight = static_cast<float>(biasWeight);
      if (term.bias) bias = term.bias + (term.sharedBias ? 0 : h * s.n * s.m);
      if (term.biasFromScheme) bias = w;  // filled before the loop; the fused store reads it in place
      if (pairTerm) {
        for (int64_t i = 0; i < s.n; ++i) {
          const float* qi = qh.data() + i * s.dh;
          for (int64_t j = 0; j < s.m; ++j) {
            const float* p = term.hasTable ? term.table.keyTable.data() + term.table.index[i * s.m + j] * s.dh
                                           : term.pairVectors.data() + (i * s.m + j) * s.dh;
            const double gathered = vectorWeight * invSqrt * dot(qi, p, s.dh);
            w[i * s.m + j] = static_cast<float>(gathered + (bias ? biasWeight * bias[i * s.m + j] : 0.0));
          }
        }
        bias = w;
        weight = 1.0f;
      }
      const std::vector<float> panels = kernels::packKeys(kh.data(), s.m, s.dh, s.dh);
      kernels::logits(qh.data(), s.n, s.dh, panels.data(), s.m, s.dh, static_cast<float>(invSqrt), bias, s.m, weight,
                      mask, w, s.m);
    }
    kernels::softmaxRows(w, s.n, s.m, s.m, logitsScheme ? kernels::Mask{causal, s.queryOffset} : mask);
    if (!v) continue;
    float* out = output.f32.data() + h * s.dv;
    kernels::weightedSum(w, s.n, s.m, s.m, v->array.data() + h * s.dv, s.dv, s.heads * s.dv, mask, out, s.heads * s.dv);
    if (term.hasTable && !term.table.valueTable.empty()) {
      for (int64_t i = 0; i < s.n; ++i) {
        float* o = out + i * s.heads * s.dv;
        for (int64_t j = 0; j < mask.visible(i, s.m); ++j) {
          const float a = w[i * s.m + j];
          const float* av = term.table.valueTable.data() + term.table.index[i * s.m + j] * s.dv;
          for (int64_t c = 0; c < s.dv; ++c) o[c] += a * av[c];
        }
      }
    }
  }
  Result result;
  result.emplace("weights", std::move(weights));
  if (v) result["output"] = std::move(output);
  return result;
}

}  // namespace relpos
