#include "relpos/schemes/rotary.hpp"

#include <algorithm>
#include <cmath>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/kernels/kernels.hpp"

namespace relpos {

std::vector<double> ropeInvFreq(int64_t rotaryDim, double base) {
  std::vector<double> inv(static_cast<size_t>(rotaryDim / 2));
  for (int64_t k = 0; k < rotaryDim / 2; ++k) inv[k] = std::pow(base, -2.0 * static_cast<double>(k) / rotaryDim);
  return inv;
}

void rotateRow(const RotaryPlan& plan, double position, bool queryRole, float* row) {
  const int64_t pairs = plan.rotaryDim / 2;
  const double xposExponent =
      plan.xposZeta.empty() ? 0.0 : (queryRole ? 1.0 : -1.0) * (position - plan.xposCenter) / plan.xposScaleBase;
  for (int64_t k = 0; k < pairs; ++k) {
    // The angle is formed in float64: a float32 product p*theta loses ~p*2^-24 rad at large p.
    const double angle = position * plan.invFreq[k];
    double magnitude = plan.attentionFactor;
    if (!plan.xposZeta.empty()) magnitude *= std::pow(plan.xposZeta[k], xposExponent);
    const double c = std::cos(angle) * magnitude;
    const double s = std::sin(angle) * magnitude;
    const int64_t ia = plan.interleaved ? 2 * k : k;
    const int64_t ib = plan.interleaved ? 2 * k + 1 : k + pairs;
    const double a = row[ia];
    const double b = row[ib];
    row[ia] = static_cast<float>(a * c - b * s);
    row[ib] = static_cast<float>(b * c + a * s);
  }
}

namespace {

// ---------------------------------------------------------------------------------------------
// Parameters

const ParamInfo& dimParam() {
  static const ParamInfo p =
      integerParam("d", std::nan(""), 2, 1 << 16, "rotary dimension for frequencies; head dimension for scores");
  return p;
}
const ParamInfo& halfLayout() {
  static const ParamInfo p =
      choiceParam("layout", "half|interleaved",
                  "half: pair k = (x_k, x_{k+r/2}) (GPT-NeoX/Llama); interleaved: (x_2k, x_2k+1) (GPT-J)");
  return p;
}
const ParamInfo& interleavedLayout() {
  static const ParamInfo p = choiceParam("layout", "interleaved|half", "pair layout; xPos is interleaved");
  return p;
}
const ParamInfo& rotaryDimParam() {
  static const ParamInfo p = integerParam("rotaryDim", std::nan(""), 2, 1 << 16,
                                          "rotated dims (even, <= d; default d); the rest pass through");
  return p;
}
const ParamInfo& positionsParam() {
  static const ParamInfo p = arrayParam("positions", "positions of the rows (default 0..n-1)");
  return p;
}
const ParamInfo& seqLenParam() {
  static const ParamInfo p =
      integerParam("seqLen", std::nan(""), 1, 1e9, "current sequence length (default: the length the call covers)");
  return p;
}
const ParamInfo& factorParam(double def) {
  static const ParamInfo one = numberParam("factor", 1, 0, 1e6, "context extension factor s", true);
  static const ParamInfo eight = numberParam("factor", 8, 0, 1e6, "context extension factor s", true);
  return def == 8 ? eight : one;
}
const ParamInfo& originalParam(double def) {
  static const ParamInfo p2048 =
      integerParam("originalMaxPositionEmbeddings", 2048, 1, 1e9, "pre-extension context length L0");
  static const ParamInfo p4096 =
      integerParam("originalMaxPositionEmbeddings", 4096, 1, 1e9, "pre-extension context length L0");
  static const ParamInfo p8192 =
      integerParam("originalMaxPositionEmbeddings", 8192, 1, 1e9, "pre-extension context length L0");
  return def == 8192 ? p8192 : def == 4096 ? p4096 : p2048;
}
const ParamInfo& betaFast() {
  static const ParamInfo p = numberParam("betaFast", 32, 0, 1e6, "YaRN: rotations above which pairs keep theta", true);
  return p;
}
const ParamInfo& betaSlow() {
  static const ParamInfo p = numberParam("betaSlow", 1, 0, 1e6, "YaRN: rotations below which pairs get theta/s", true);
  return p;
}
const ParamInfo& truncateParam() {
  static const ParamInfo p = booleanParam("truncate", true, "YaRN: floor/ceil the correction range (gpt-oss: false)");
  return p;
}
const ParamInfo& attentionFactorParam() {
  static const ParamInfo p = numberParam("attentionFactor", std::nan(""), 0, 1e6,
                                         "magnitude factor on cos and sin; replaces the default", true);
  return p;
}
const ParamInfo& mscaleParam() {
  static const ParamInfo p = numberParam("mscale", std::nan(""), 0, 1e6, "YaRN/DeepSeek mscale", true);
  return p;
}
const ParamInfo& mscaleAllDimParam() {
  static const ParamInfo p = numberParam("mscaleAllDim", std::nan(""), 0, 1e6, "YaRN/DeepSeek mscale_all_dim", true);
  return p;
}
const ParamInfo& lowFreqFactor() {
  static const ParamInfo p =
      numberParam("lowFreqFactor", 1, 0, 1e6, "Llama 3: wavelengths above L0/low get theta/s", true);
  return p;
}
const ParamInfo& highFreqFactor() {
  static const ParamInfo p =
      numberParam("highFreqFactor", 4, 0, 1e6, "Llama 3: wavelengths below L0/high keep theta", true);
  return p;
}
const ParamInfo& shortFactor() {
  static const ParamInfo p =
      arrayParam("shortFactor", "LongRoPE per-pair rescale for seqLen <= L0 (r/2 values; default ones)");
  return p;
}
const ParamInfo& longFactor() {
  static const ParamInfo p =
      arrayParam("longFactor", "LongRoPE per-pair rescale for seqLen > L0 (r/2 values; default ones)");
  return p;
}
const ParamInfo& scaleBaseParam() {
  static const ParamInfo p = numberParam("scaleBase", 512, 0, 1e9, "xPos decay length B", true);
  return p;
}
const ParamInfo& gammaParam() {
  static const ParamInfo p = numberParam("gamma", 0.4, 0, 1e6, "xPos zeta_k = (2k/d + gamma)/(1 + gamma)", true);
  return p;
}
const ParamInfo& roleParam() {
  static const ParamInfo p = choiceParam("role", "query|key", "xPos: queries scale by zeta^(p/B), keys by zeta^(-p/B)");
  return p;
}
const ParamInfo& centerParam() {
  static const ParamInfo p = numberParam("center", 0, -1e12, 1e12, "xPos centre c of the scale exponent");
  return p;
}
const ParamInfo& encodingOutput() {
  static const ParamInfo p = choiceParam("output", "cos|sin", "Hugging Face cos/sin cache for the layout");
  return p;
}
const ParamInfo& scoresOutput() {
  static const ParamInfo p = choiceParam("output", "matrix|offsets", "matrix [heads, n, n] or s(delta) per offset");
  return p;
}

std::vector<ParamInfo> ropeCommonParams(bool xpos) {
  return {dimParam(), common::base(), xpos ? interleavedLayout() : halfLayout(), rotaryDimParam(), positionsParam()};
}

// ---------------------------------------------------------------------------------------------
// Frequencies of each scheme (float64)

struct FreqContext {
  const Params& params;
  int64_t rotaryDim;
  double base;
  int64_t seqLenDefault;  // <= 0: none given
};

double ntkExponent(const FreqContext& c) {
  if (c.rotaryDim < 4)
    throwRange(c.params.where() + ": NTK scaling needs a rotary dimension >= 4, got " + std::to_string(c.rotaryDim));
  return static_cast<double>(c.rotaryDim) / (c.rotaryDim - 2);
}

int64_t currentSeqLen(const FreqContext& c, int64_t original) {
  if (c.params.has("seqLen")) return c.params.integer(seqLenParam());
  return c.seqLenDefault > 0 ? c.seqLenDefault : original;
}

double yarnMscale(double s, double m) {
  return s <= 1 ? 1.0 : 0.1 * m * std::log(s) + 1.0;
}

RotaryPlan planFor(const std::string& id, const FreqContext& c) {
  RotaryPlan plan;
  plan.rotaryDim = c.rotaryDim;
  const Params& p = c.params;
  if (id == "rope" || id == "xpos") {
    plan.invFreq = ropeInvFreq(c.rotaryDim, c.base);
  } else if (id == "rope-linear") {
    const double s = p.number(factorParam(1));
    plan.invFreq = ropeInvFreq(c.rotaryDim, c.base);
    for (double& t : plan.invFreq) t /= s;
  } else if (id == "rope-ntk") {
    const double s = p.number(factorParam(1));
    plan.invFreq = ropeInvFreq(c.rotaryDim, c.base * std::pow(s, ntkExponent(c)));
  } else if (id == "rope-dynamic") {
    const double s = p.number(factorParam(1));
    const int64_t original = p.integer(originalParam(2048));
    const double len = static_cast<double>(std::max(currentSeqLen(c, original), original));
    const double scaled = c.base * std::pow(s * len / original - (s - 1), ntkExponent(c));
    plan.invFreq = ropeInvFreq(c.rotaryDim, scaled);
  } else if (id == "rope-yarn") {
    const double s = p.number(factorParam(1));
    const double original = static_cast<double>(p.integer(originalParam(2048)));
    const double fast = p.number(betaFast());
    const double slow = p.number(betaSlow());
    if (!(slow < fast))
      throwRange(p.where() + ": betaSlow must be < betaFast, got " + formatNumber(slow) + " >= " + formatNumber(fast));
    const double r = static_cast<double>(c.rotaryDim);
    auto corr = [&](double rotations) {
      return r * std::log(original / (2 * M_PI * rotations)) / (2 * std::log(c.base));
    };
    double low = corr(fast);
    double high = corr(slow);
    if (p.boolean(truncateParam())) {
      low = std::floor(low);
      high = std::ceil(high);
    }
    low = std::max(low, 0.0);
    high = std::min(high, r - 1);
    if (low == high) high += 0.001;
    plan.invFreq = ropeInvFreq(c.rotaryDim, c.base);
    for (size_t k = 0; k < plan.invFreq.size(); ++k) {
      const double ramp = std::clamp((static_cast<double>(k) - low) / (high - low), 0.0, 1.0);
      plan.invFreq[k] = plan.invFreq[k] / s * ramp + plan.invFreq[k] * (1 - ramp);
    }
    if (p.has("attentionFactor")) {
      plan.attentionFactor = p.number(attentionFactorParam());
    } else if (p.has("mscale") && p.has("mscaleAllDim")) {
      plan.attentionFactor = yarnMscale(s, p.number(mscaleParam())) / yarnMscale(s, p.number(mscaleAllDimParam()));
    } else {
      plan.attentionFactor = yarnMscale(s, 1.0);
    }
  } else if (id == "rope-llama3") {
    const double s = p.number(factorParam(8));
    const double low = p.number(lowFreqFactor());
    const double high = p.number(highFreqFactor());
    if (!(high > low))
      throwRange(p.where() + ": highFreqFactor must be > lowFreqFactor, got " + formatNumber(high) +
                 " <= " + formatNumber(low));
    const double original = static_cast<double>(p.integer(originalParam(8192)));
    const double lowWavelen = original / low;
    const double highWavelen = original / high;
    plan.invFreq = ropeInvFreq(c.rotaryDim, c.base);
    for (double& theta : plan.invFreq) {
      const double wavelen = 2 * M_PI / theta;
      if (wavelen < highWavelen) continue;
      if (wavelen > lowWavelen) {
        theta /= s;
      } else {
        const double smooth = (original / wavelen - low) / (high - low);
        theta = (1 - smooth) * theta / s + smooth * theta;
      }
    }
  } else if (id == "rope-longrope") {
    const double s = p.number(factorParam(1));
    const int64_t original = p.integer(originalParam(4096));
    const int64_t pairs = c.rotaryDim / 2;
    const bool useLong = currentSeqLen(c, original) > original;
    const std::string which = useLong ? "longFactor" : "shortFactor";
    const Value* factors = p.array(which, pairs, "[d/2]");
    p.array(useLong ? "shortFactor" : "longFactor", pairs, "[d/2]");  // validate the other list too
    plan.invFreq = ropeInvFreq(c.rotaryDim, c.base);
    for (int64_t k = 0; k < pairs; ++k) {
      const double e = factors ? factors->array[k] : 1.0;
      if (!(e > 0)) throwRange(p.where() + ": " + which + " must be > 0, got " + formatNumber(e));
      plan.invFreq[k] /= e;
    }
    plan.attentionFactor = s > 1 ? std::sqrt(1 + std::log(s) / std::log(static_cast<double>(original))) : 1.0;
  } else {
    throwRange(p.where() + ": '" + id + "' is not a rotary scheme");
  }
  if (id == "xpos") {
    const double gamma = p.number(gammaParam());
    const int64_t pairs = c.rotaryDim / 2;
    for (int64_t k = 0; k < pairs; ++k) {
      plan.xposZeta.push_back((2.0 * k / c.rotaryDim + gamma) / (1 + gamma));
    }
    plan.xposScaleBase = p.number(scaleBaseParam());
    plan.xposCenter = p.number(centerParam());
  }
  return plan;
}

int64_t rotaryDimFor(const Params& params, int64_t d) {
  int64_t r = d;
  if (params.has("rotaryDim")) {
    r = params.integer(rotaryDimParam());
  }
  if (r % 2 != 0) throwRange(params.where() + ": rotaryDim must be even, got " + std::to_string(r));
  if (r > d)
    throwRange(params.where() + ": rotaryDim must be <= d (" + std::to_string(d) + "), got " + std::to_string(r));
  return r;
}

RotaryPlan planForScheme(const std::string& id, const Params& params, int64_t d, int64_t seqLenDefault) {
  const int64_t r = rotaryDimFor(params, d);
  FreqContext c{params, r, params.number(common::base()), seqLenDefault};
  RotaryPlan plan = planFor(id, c);
  const std::string layout = params.choice(id == "xpos" ? interleavedLayout() : halfLayout());
  plan.interleaved = layout == "interleaved";
  return plan;
}

std::vector<double> positionsOrRange(const Params& params, int64_t n) {
  std::vector<double> out;
  if (const Value* v = params.array("positions", n, "[n]")) {
    for (float x : v->array) out.push_back(x);
  } else {
    for (int64_t i = 0; i < n; ++i) out.push_back(static_cast<double>(i));
  }
  return out;
}

// Positions are any finite float32, so the span is clamped before it becomes an integer (a cast of
// 1e30 to int64 is undefined behaviour).
constexpr double kMaxSeqLen = 1e15;

int64_t seqLenOf(const std::vector<double>& positions) {
  double top = 0;
  for (double x : positions) top = std::max(top, x);
  return static_cast<int64_t>(std::min(top, kMaxSeqLen)) + 1;
}

// ---------------------------------------------------------------------------------------------
// Calls. OpFn is a plain function pointer, so each scheme id gets its own instantiation.

template <const char* Id>
struct RotaryCalls {
  static Result frequencies(const Params& params) {
    const int64_t width = params.integer(dimParam());
    if (width % 2 != 0) throwRange(params.where() + ": d must be even, got " + std::to_string(width));
    // d is the rotary dimension here; a rotaryDim, if given, must fit it and then is the one used.
    const int64_t d = rotaryDimFor(params, width);
    int64_t seqLen = 0;
    if (const Value* v = params.array("positions")) {
      std::vector<double> positions(v->array.begin(), v->array.end());
      seqLen = seqLenOf(positions);
    }
    FreqContext c{params, d, params.number(common::base()), seqLen};
    const RotaryPlan plan = planFor(Id, c);
    Tensor inv = Tensor::floats({d / 2});
    for (int64_t k = 0; k < d / 2; ++k) inv.f32[k] = static_cast<float>(plan.invFreq[k]);
    return {{"invFreq", std::move(inv)}, {"attentionFactor", Tensor::scalar(plan.attentionFactor)}};
  }

  static Result rotate(const Params& params) {
    const Value* x = params.array("x");
    if (!x || x->shape.size() != 2) throwType(params.where() + ": x must be a tensor of shape [n, d]");
    const int64_t n = x->shape[0];
    const int64_t width = x->shape[1];
    checkResultSize(params.where(), static_cast<double>(n) * width);
    const int64_t d = params.has("d") ? params.integer(dimParam()) : width;
    if (d % 2 != 0 && !params.has("rotaryDim"))
      throwRange(params.where() + ": d must be even, got " + std::to_string(d));
    if (d > width)
      throwRange(params.where() + ": d must be <= the width of x (" + std::to_string(width) + "), got " +
                 std::to_string(d));
    const std::vector<double> positions = positionsOrRange(params, n);
    Params withRotary = params;
    if (!params.has("rotaryDim")) withRotary.setNumber("rotaryDim", static_cast<double>(d));
    const RotaryPlan plan = planForScheme(Id, withRotary, width, seqLenOf(positions));
    const bool query = std::string(Id) != "xpos" || params.choice(roleParam()) == "query";
    Tensor out = Tensor::floats({n, width});
    std::copy(x->array.begin(), x->array.end(), out.f32.begin());
    // Integer positions in a compact range share one cos/sin table (built once, applied with the
    // SIMD kernel); anything else is rotated row by row with its own float64 angles.
    double lo = 0, hi = 0;
    bool integral = true;
    for (int64_t i = 0; i < n; ++i) {
      integral = integral && positions[i] == std::floor(positions[i]);
      lo = i == 0 ? positions[i] : std::min(lo, positions[i]);
      hi = i == 0 ? positions[i] : std::max(hi, positions[i]);
    }
    if (integral && n > 0 && hi - lo < 4.0 * n + 64) {
      const kernels::RotaryTable table(plan, static_cast<int64_t>(lo), static_cast<int64_t>(hi - lo) + 1, query);
      for (int64_t i = 0; i < n; ++i) table.apply(static_cast<int64_t>(positions[i]), out.f32.data() + i * width);
    } else {
      for (int64_t i = 0; i < n; ++i) rotateRow(plan, positions[i], query, out.f32.data() + i * width);
    }
    return single(std::move(out));
  }

  static Result encoding(const Params& params) {
    const int64_t n = params.integer(common::n());
    const int64_t d = params.integer(dimParam());
    const RotaryPlan plan = planForScheme(Id, params, d, n);
    const bool wantCos = params.choice(encodingOutput()) == "cos";
    const std::vector<double> positions = positionsOrRange(params, n);
    checkResultSize(params.where(), static_cast<double>(n) * d);
    Tensor out = Tensor::floats({n, d});
    const int64_t pairs = plan.rotaryDim / 2;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t k = 0; k < pairs; ++k) {
        const double angle = positions[i] * plan.invFreq[k];
        const float v = static_cast<float>((wantCos ? std::cos(angle) : std::sin(angle)) * plan.attentionFactor);
        out.f32[i * d + (plan.interleaved ? 2 * k : k)] = v;
        out.f32[i * d + (plan.interleaved ? 2 * k + 1 : k + pairs)] = v;
      }
    }
    return single(std::move(out));
  }

  static Result scores(const Params& params) {
    const int64_t d = params.integer(dimParam());
    const bool offsets = params.choice(scoresOutput()) == "offsets";
    const int64_t r = rotaryDimFor(params, d);
    std::vector<float> q(static_cast<size_t>(d), 0.0f);
    std::vector<float> k(static_cast<size_t>(d), 0.0f);
    std::fill(q.begin(), q.begin() + r, 1.0f);
    std::fill(k.begin(), k.begin() + r, 1.0f);
    if (const Value* v = params.array("q", d, "[d]")) q = v->array;
    if (const Value* v = params.array("k", d, "[d]")) k = v->array;
    auto dot = [d](const float* a, const float* b) {
      double s = 0;
      for (int64_t c = 0; c < d; ++c) s += static_cast<double>(a[c]) * b[c];
      return s;
    };
    if (offsets) {
      const Value* list = params.array("offsets");
      if (!list) throwType(params.where() + ": offsets must be a list of relative offsets for output 'offsets'");
      double far = 0;
      for (float delta : list->array) far = std::max(far, std::fabs(static_cast<double>(delta)));
      const RotaryPlan plan = planForScheme(Id, params, d, static_cast<int64_t>(std::min(far, kMaxSeqLen)) + 1);
      std::vector<float> rq = q;
      rotateRow(plan, 0.0, true, rq.data());
      const int64_t count = static_cast<int64_t>(list->array.size());
      Tensor out = Tensor::floats({count});
      std::vector<float> rk(k.size());
      for (int64_t t = 0; t < count; ++t) {
        rk = k;
        rotateRow(plan, list->array[t], false, rk.data());
        out.f32[t] = static_cast<float>(dot(rq.data(), rk.data()));
      }
      return single(std::move(out));
    }
    const int64_t n = params.integer(common::n());
    const int64_t heads = params.integer(common::heads());
    checkResultSize(params.where(), static_cast<double>(heads) * n * n);
    checkWorkingSet(params.where(), 4.0 * (static_cast<double>(heads) * n * n + 2.0 * n * d),
                    "the [heads, n, n] result and rotated queries and keys [n, d]");
    const RotaryPlan plan = planForScheme(Id, params, d, n);
    std::vector<float> rq(static_cast<size_t>(n * d));
    std::vector<float> rk(static_cast<size_t>(n * d));
    for (int64_t i = 0; i < n; ++i) {
      std::copy(q.begin(), q.end(), rq.begin() + i * d);
      std::copy(k.begin(), k.end(), rk.begin() + i * d);
      rotateRow(plan, static_cast<double>(i), true, rq.data() + i * d);
      rotateRow(plan, static_cast<double>(i), false, rk.data() + i * d);
    }
    Tensor out = Tensor::floats({heads, n, n});
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const float v = static_cast<float>(dot(rq.data() + i * d, rk.data() + j * d));
        for (int64_t h = 0; h < heads; ++h) out.f32[(h * n + i) * n + j] = v;
      }
    }
    return single(std::move(out));
  }

  static RotaryPlan plan(const Params& params, int64_t d, int64_t seqLenDefault) {
    return planForScheme(Id, params, d, seqLenDefault);
  }
};

constexpr char kRope[] = "rope";
constexpr char kXpos[] = "xpos";
constexpr char kLinear[] = "rope-linear";
constexpr char kNtk[] = "rope-ntk";
constexpr char kDynamic[] = "rope-dynamic";
constexpr char kYarn[] = "rope-yarn";
constexpr char kLlama3[] = "rope-llama3";
constexpr char kLongrope[] = "rope-longrope";

template <const char* Id>
Scheme rotaryScheme(std::string family, std::string name, std::string cite, std::string description,
                    std::vector<ParamInfo> extra) {
  Scheme s;
  s.id = Id;
  s.family = std::move(family);
  s.name = std::move(name);
  s.cite = std::move(cite);
  s.description = std::move(description);
  s.params = ropeCommonParams(std::string(Id) == "xpos");
  for (auto& p : extra) s.params.push_back(std::move(p));
  s.frequencies = RotaryCalls<Id>::frequencies;
  s.rotate = RotaryCalls<Id>::rotate;
  s.scores = RotaryCalls<Id>::scores;
  s.encoding = RotaryCalls<Id>::encoding;
  s.term = AttentionTerm::Rotary;
  s.rotary = RotaryCalls<Id>::plan;
  return s;
}

}  // namespace

RotaryPlan rotaryPlan(const Scheme& scheme, const Params& params, int64_t d, int64_t seqLenDefault) {
  if (!scheme.rotary) throwRange(params.where() + ": '" + scheme.id + "' is not a rotary scheme");
  return scheme.rotary(params, d, seqLenDefault);
}

std::vector<Scheme> rotarySchemes() {
  const std::string scaling = "rotary scaling";
  return {
      rotaryScheme<kRope>("rotary", "RoPE", "Su et al. 2021 (RoFormer), arXiv:2104.09864 §3.4",
                          "Rotates query/key pairs by position; q.k depends only on j-i.", {}),
      rotaryScheme<kXpos>("rotary", "xPos", "Sun et al. 2022, arXiv:2212.10554",
                          "RoPE times a per-pair exponential decay zeta_k^((i-j)/B).",
                          {scaleBaseParam(), gammaParam(), roleParam(), centerParam()}),
      rotaryScheme<kLinear>(scaling, "Position Interpolation", "Chen et al. 2023, arXiv:2306.15595",
                            "theta/s: positions squeezed into the trained range.", {factorParam(1)}),
      rotaryScheme<kNtk>(scaling, "NTK-aware", "bloc97 2023 (r/LocalLLaMA); YaRN §3.1",
                         "base * s^(r/(r-2)): high frequencies kept, lowest divided by s.", {factorParam(1)}),
      rotaryScheme<kDynamic>(scaling, "Dynamic NTK", "emozilla / bloc97 2023; HF _compute_dynamic_ntk_parameters",
                             "NTK base grown with the current sequence length past L0.",
                             {factorParam(1), originalParam(2048), seqLenParam()}),
      rotaryScheme<kYarn>(scaling, "YaRN", "Peng et al. 2023, arXiv:2309.00071",
                          "NTK-by-parts ramp between theta and theta/s plus an attention temperature.",
                          {factorParam(1), originalParam(2048), betaFast(), betaSlow(), truncateParam(),
                           attentionFactorParam(), mscaleParam(), mscaleAllDimParam()}),
      rotaryScheme<kLlama3>(scaling, "Llama 3.1 scaling", "Meta Llama 3.1; HF _compute_llama3_parameters",
                            "Wavelength bands: short kept, long divided by s, smooth in between.",
                            {factorParam(8), lowFreqFactor(), highFreqFactor(), originalParam(8192)}),
      rotaryScheme<kLongrope>(scaling, "LongRoPE", "Ding et al. 2024, arXiv:2402.13753",
                              "Searched per-pair rescale factors (short/long) plus sqrt(1 + ln s / ln L0).",
                              {factorParam(1), originalParam(4096), seqLenParam(), shortFactor(), longFactor()}),
  };
}

}  // namespace relpos
