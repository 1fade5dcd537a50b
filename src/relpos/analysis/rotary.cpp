// rp.analysis on rotary and sinusoidal encodings: RoFormer's long-term decay bound (2.1.7), angle
// coverage of the training window and what ignoring a scaling costs (2.1.7), the bound C of |PE| and
// the low-precision error of the angles m·θ (2.1.8).
#include <algorithm>
#include <cmath>
#include <complex>

#include "relpos/analysis/internal.hpp"
#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/schemes/registry.hpp"
#include "relpos/schemes/rotary_family.hpp"

namespace relpos::analysis {

namespace {

constexpr double kTwoPi = 6.283185307179586476925;

// Round-to-nearest-even of x to a binary format with `bits` significant bits whose smallest normal
// is 2^minExp, saturating to ±Infinity above maxFinite. Exact: scaling by powers of two is exact and
// nearbyint rounds half to even in the default rounding mode (f64.nearest in wasm).
double roundTo(double x, int bits, int minExp, double maxFinite) {
  if (x == 0 || !std::isfinite(x)) return x;
  int e = 0;
  std::frexp(x, &e);                                         // |x| in [2^(e-1), 2^e)
  const int ulpExp = std::max(e - bits, minExp - bits + 1);  // below 2^minExp: the subnormal spacing
  const double q = std::ldexp(std::nearbyint(std::ldexp(x, -ulpExp)), ulpExp);
  return std::fabs(q) > maxFinite ? std::copysign(kInf, x) : q;
}

int64_t evenDim(const Params& params) {
  const int64_t d = params.requiredInteger("d", 2, 1 << 16);
  if (d % 2 != 0) throwRange(params.where() + ": d must be even, got " + std::to_string(d));
  return d;
}

// The rotary plan of `scheme` (default 'rope') from the options not in `own`; unknown names are a
// RangeError naming the allowed ones.
RotaryPlan rotaryPlanOf(const Params& params, const std::set<std::string>& own, int64_t d, int64_t seqLen,
                        std::string* schemeId = nullptr) {
  std::string id = "rope";
  if (const Value* v = params.find("scheme")) {
    if (v->type != Value::Type::String) throwType(params.where() + ": scheme must be a rotary scheme id");
    id = v->text;
  }
  const Scheme& scheme = findScheme(params.where(), id);
  if (!scheme.rotary)
    throwRange(params.where() + ": scheme must be a rotary scheme ('rope', 'rope-linear', …), got '" + id + "'");
  std::set<std::string> allowed = own;
  allowed.insert("scheme");
  std::vector<ParamInfo> schemeParams;
  for (const auto& p : scheme.params) {
    if (p.name != "positions") schemeParams.push_back(p);
  }
  checkNames(params, allowed, &schemeParams);
  for (const auto& p : schemeParams) validateParam(params, p);
  std::set<std::string> drop = allowed;
  drop.erase("d");
  drop.erase("base");
  if (schemeId) *schemeId = id;
  return rotaryPlan(scheme, without(params, drop), d, seqLen);
}

std::vector<double> positionsOf(const Params& params) {
  return valuesOr(params, "positions", "[count]",
                  [&] { return integerRange(0, params.requiredInteger("n", 1, 1 << 24) - 1); });
}

}  // namespace

double roundToFloat32(double x) {
  return static_cast<double>(static_cast<float>(x));
}
double roundToFloat16(double x) {
  return roundTo(x, 11, -14, 65504.0);
}
double roundToBfloat16(double x) {
  return roundTo(x, 8, -126, std::ldexp(255.0, 120));
}

// RoFormer §3.4.3: with S_j = Σ_{k<j} e^{i r θ_k}, Abel summation bounds the relative score by
// (max_k |h_{k+1} - h_k|) Σ_j |S_j|; the curve the paper plots is (1/(d/2)) Σ_{j=1}^{d/2} |S_j|.
Result decayBound(const Params& params) {
  const int64_t d = evenDim(params);
  static const ParamInfo maxDistance = integerParam("maxDistance", 1024, 0, 1 << 24, "largest relative distance r");
  const int64_t rMax = params.integer(maxDistance);
  const RotaryPlan plan = rotaryPlanOf(params, {"d", "base", "maxDistance"}, d, rMax + 1);
  const size_t pairs = plan.invFreq.size();
  checkWork(params, 8.0 * static_cast<double>(rMax + 1) * pairs, "the decay bound");
  Tensor out = Tensor::floats({rMax + 1});
  for (int64_t r = 0; r <= rMax; ++r) {
    std::complex<double> partial = 0;
    double sum = 0;
    for (size_t k = 0; k < pairs; ++k) {
      partial += std::polar(1.0, static_cast<double>(r) * plan.invFreq[k]);
      sum += std::abs(partial);
    }
    out.f32[r] = static_cast<float>(sum / static_cast<double>(pairs));
  }
  return {{"data", std::move(out)}};
}

// For each rotary pair k: θ_k, wavelength 2π/θ_k and the turns (L-1)·θ_k/2π it makes over the
// largest distance in a training window of length L. Pairs with fewer than one turn never see a
// full period in training, so angles past L are new to them (RoPE's poor extrapolation).
Result angleCoverage(const Params& params) {
  const int64_t d = evenDim(params);
  const int64_t train = params.requiredInteger("trainLength", 1, 1e12);
  const RotaryPlan plan = rotaryPlanOf(params, {"d", "base", "trainLength"}, d, train);
  const size_t pairs = plan.invFreq.size();
  std::vector<double> theta = plan.invFreq, wavelength, turns, complete;
  int64_t firstIncomplete = static_cast<int64_t>(pairs);
  for (size_t k = 0; k < pairs; ++k) {
    wavelength.push_back(kTwoPi / theta[k]);
    turns.push_back(static_cast<double>(train - 1) * theta[k] / kTwoPi);
    complete.push_back(turns.back() >= 1 ? 1.0 : 0.0);
    if (turns.back() < 1 && firstIncomplete == static_cast<int64_t>(pairs)) firstIncomplete = static_cast<int64_t>(k);
  }
  double incomplete = 0;
  for (double c : complete) incomplete += 1 - c;
  return {{"theta", vectorTensor(theta)},
          {"wavelength", vectorTensor(wavelength)},
          {"turns", vectorTensor(turns)},
          {"completesTurn", vectorTensor(complete)},
          {"firstIncomplete", Tensor::scalar(static_cast<double>(firstIncomplete))},
          {"incompleteCount", Tensor::scalar(incomplete)},
          {"attentionFactor", Tensor::scalar(plan.attentionFactor)}};
}

// cos(R_scaled(p)·x, R_rope(p)·x) for a probe x: pair k contributes w_k cos(p (θ'_k − θ_k)) with
// w_k = x_a² + x_b²; dimensions past rotaryDim are not rotated by either (the attention factor cancels).
Result scaledCosine(const Params& params) {
  const int64_t d = evenDim(params);
  const std::vector<double> positions = positionsOf(params);
  double top = 0;
  for (double p : positions) top = std::max(top, std::fabs(p));
  std::string id;
  const RotaryPlan scaled =
      rotaryPlanOf(params, {"d", "base", "positions", "n", "x"}, d, static_cast<int64_t>(std::min(top, 1e15)) + 1, &id);
  // Only a plain rotation compares with RoPE's: not a decay (xPos) nor a 2-D grid.
  if (!scaled.xposZeta.empty() || scaled.gridWidth > 0)
    throwRange(params.where() + ": scheme must be a RoPE scaling ('rope-linear', 'rope-ntk', …), got '" + id + "'");
  const std::vector<double> plain = ropeInvFreq(scaled.rotaryDim, params.number(common::base()));
  std::vector<double> x(static_cast<size_t>(d), 1.0);
  if (params.has("x")) {
    const TensorArg v = tensorArg(params, "x", 1, 1, "[d] (the probe vector)");
    if (v.dim(0) != d)
      throwRange(params.where() + ": x must hold d = " + std::to_string(d) + " values, got " +
                 std::to_string(v.dim(0)));
    x.assign(v.data->begin(), v.data->end());
  }
  const int64_t pairs = scaled.rotaryDim / 2;
  checkWork(params, static_cast<double>(positions.size()) * pairs, "the cosines");
  std::vector<double> weight(static_cast<size_t>(pairs));
  double total = 0;
  for (int64_t c = 0; c < d; ++c) total += x[c] * x[c];
  double rotated = 0;
  for (int64_t k = 0; k < pairs; ++k) {
    const auto [a, b] = scaled.pairIndex(k);
    weight[k] = x[a] * x[a] + x[b] * x[b];
    rotated += weight[k];
  }
  if (!(total > 0)) throwRange(params.where() + ": x must not be the zero vector");
  std::vector<double> cosine;
  for (double p : positions) {
    double dot = total - rotated;
    for (int64_t k = 0; k < pairs; ++k) dot += weight[k] * std::cos(p * (scaled.invFreq[k] - plain[k]));
    cosine.push_back(dot / total);
  }
  return {{"data", vectorTensor(cosine)}};
}

// Float32 / float16 / bfloat16 emulation of the angles m·θ_k as a model computes them (θ and m held
// in the dtype, one rounded product, cos/sin rounded to the dtype) against float64. `angles:
// 'float32'` is the usual low-precision pipeline instead: θ, m and the product in float32, only the
// cos/sin tables stored in the dtype.
Result precision(const Params& params) {
  const int64_t d = evenDim(params);
  static const ParamInfo dtypeParam = choiceParam("dtype", "float32|float16|bfloat16", "the emulated format");
  static const ParamInfo perPairParam =
      booleanParam("perPair", false, "also return the angle error per pair [count, d/2]");
  static const ParamInfo anglesParam =
      choiceParam("angles", "dtype|float32", "where θ, m and m·θ are held: in the dtype, or in float32");
  const std::string dtype = params.choice(dtypeParam);
  const bool anglesInFloat32 = params.choice(anglesParam) == "float32";
  const bool perPair = params.boolean(perPairParam);
  const std::vector<double> positions = positionsOf(params);
  double top = 0;
  for (double p : positions) top = std::max(top, std::fabs(p));
  const RotaryPlan plan =
      rotaryPlanOf(params, {"d", "base", "positions", "n", "dtype", "angles", "perPair"}, d,
                   static_cast<int64_t>(std::min(top, 1e15)) + 1);  // positions reach 3.4e38: no int64 overflow
  double (*round)(double) = dtype == "float16"    ? roundToFloat16
                            : dtype == "bfloat16" ? roundToBfloat16
                                                  : roundToFloat32;
  double (*roundAngle)(double) = anglesInFloat32 ? roundToFloat32 : round;
  const int64_t count = static_cast<int64_t>(positions.size());
  const int64_t pairs = static_cast<int64_t>(plan.invFreq.size());
  checkWork(params, 20.0 * count * pairs, "the precision analysis");
  if (perPair) checkResultSize(params.where(), static_cast<double>(count) * pairs);
  std::vector<double> thetaT;
  for (double t : plan.invFreq) thetaT.push_back(roundAngle(t));
  std::vector<double> angleError(static_cast<size_t>(count), 0.0), rotationError(static_cast<size_t>(count), 0.0);
  Tensor table = perPair ? Tensor::floats({count, pairs}) : Tensor::floats({0});
  double maxAngle = 0, maxRotation = 0;
  for (int64_t i = 0; i < count; ++i) {
    const double p = positions[i];
    const double pT = roundAngle(p);
    for (int64_t k = 0; k < pairs; ++k) {
      const double exact = p * plan.invFreq[k];
      const double angle = roundAngle(pT * thetaT[k]);
      double aErr = kInf, rErr = kInf;
      if (std::isfinite(angle)) {
        aErr = std::fabs(angle - exact);
        rErr = std::hypot(round(std::cos(angle)) - std::cos(exact), round(std::sin(angle)) - std::sin(exact));
      }
      angleError[i] = std::max(angleError[i], aErr);
      rotationError[i] = std::max(rotationError[i], rErr);
      if (perPair) table.f32[i * pairs + k] = static_cast<float>(aErr);
    }
    maxAngle = std::max(maxAngle, angleError[i]);
    maxRotation = std::max(maxRotation, rotationError[i]);
  }
  Result out = {{"angleError", vectorTensor(angleError)},
                {"rotationError", vectorTensor(rotationError)},
                {"maxAngleError", Tensor::scalar(maxAngle)},
                {"maxRotationError", Tensor::scalar(maxRotation)}};
  if (perPair) out["angleErrorPerPair"] = std::move(table);
  return out;
}

// ‖PE(p)‖² = Σ_i sin² + cos² = d/2 for the sinusoidal encoding with even d (odd d: at most ⌈d/2⌉),
// and every entry lies in [-1, 1]: the bound C of 2.1.8. `norms` and `elementBound` (the largest
// |entry|) are measured from rp.encoding.
Result peBound(const Params& params) {
  checkNames(params, {"d", "n", "base", "layout"});
  const int64_t d = params.requiredInteger("d", 1, 1 << 16);
  static const ParamInfo nParam = withDefault(common::n(), 1024);
  const int64_t n = params.integer(nParam);
  checkWork(params, static_cast<double>(n) * d, "the norms");
  Params sp = without(params, {});
  sp.setNumber("n", static_cast<double>(n));
  const Scheme& sinusoidal = findScheme(params.where(), "sinusoidal");
  const Tensor pe = sinusoidal.encoding(sinusoidal, sp).at("data");
  std::vector<double> norms(static_cast<size_t>(n));
  double measured = 0;
  double element = 0;
  for (int64_t p = 0; p < n; ++p) {
    double sq = 0;
    for (int64_t c = 0; c < d; ++c) {
      const double v = pe.f32[p * d + c];
      sq += v * v;
      element = std::max(element, std::abs(v));
    }
    norms[p] = std::sqrt(sq);
    measured = std::max(measured, norms[p]);
  }
  return {{"C", Tensor::scalar(std::sqrt(static_cast<double>((d + 1) / 2)))},
          {"elementBound", Tensor::scalar(element)},
          {"measured", Tensor::scalar(measured)},
          {"norms", vectorTensor(norms)}};
}

}  // namespace relpos::analysis
