// rp.analysis on stationary profiles k(r): kernel checks (2.1.5), Gaussian-process samples and
// analytic derivatives f'(r) (2.1.8).
#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <cmath>

#include "relpos/analysis/internal.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/rng.hpp"
#include "relpos/schemes/registry.hpp"

namespace relpos::analysis {

namespace {

double sign(double r) {
  return r > 0 ? 1.0 : (r < 0 ? -1.0 : 0.0);
}

// A built-in stationary kernel: its one parameter (name, default, range) and its closed form for
// a parameter value (slope empty: no analytic derivative).
struct Builtin {
  ParamInfo param;
  ClosedForm (*form)(double v);
};

const std::vector<std::pair<std::string, Builtin>>& builtins() {
  static const std::vector<std::pair<std::string, Builtin>> table = {
      {"exp-decay",
       {numberParam("lambda", 0.1, 0, 1e6, "decay rate: k(r) = exp(-lambda|r|)"),
        [](double lambda) -> ClosedForm {
          return {[=](double r) { return std::exp(-lambda * std::fabs(r)); },
                  [=](double r) { return -lambda * sign(r) * std::exp(-lambda * std::fabs(r)); }};
        }}},
      {"gaussian",
       {numberParam("sigma", 4, 0, 1e9, "length scale: k(r) = exp(-r²/(2 sigma²))", true),
        [](double sigma) -> ClosedForm {
          return {[=](double r) { return std::exp(-r * r / (2 * sigma * sigma)); },
                  [=](double r) { return -r / (sigma * sigma) * std::exp(-r * r / (2 * sigma * sigma)); }};
        }}},
      {"cosine",
       {numberParam("omega", 0.5, 0, 1e6, "angular frequency: k(r) = cos(omega r)", true),
        [](double omega) -> ClosedForm {
          return {[=](double r) { return std::cos(omega * r); },
                  [=](double r) { return -omega * std::sin(omega * r); }};
        }}},
      {"sinc",
       {numberParam("omega", 0.5, 0, 1e6, "angular frequency: k(r) = sin(omega r)/(omega r)", true),
        [](double omega) -> ClosedForm {
          return {[=](double r) { return r == 0 ? 1.0 : std::sin(omega * r) / (omega * r); },
                  [=](double r) {
                    const double x = omega * r;
                    // d/dr sin(x)/x = omega (x cos x - sin x)/x²; its series near 0 avoids the cancellation.
                    if (std::fabs(x) < 1e-3) return omega * (-x / 3 + x * x * x / 30);
                    return omega * (x * std::cos(x) - std::sin(x)) / (x * x);
                  }};
        }}},
      {"box",
       {numberParam("width", 4, 0, 1e9, "half width: k(r) = 1 for |r| <= width, else 0"),
        [](double width) -> ClosedForm {
          return {[=](double r) { return std::fabs(r) <= width ? 1.0 : 0.0; }, {}};
        }}},
      {"sin",
       {numberParam("alpha", 8, 0, 1e12, "period scale: sin(r/alpha), sin(|r|/alpha)", true),
        [](double alpha) -> ClosedForm {
          return {[=](double r) { return std::sin(r / alpha); }, [=](double r) { return std::cos(r / alpha) / alpha; }};
        }}},
      {"sin-even",
       {numberParam("alpha", 8, 0, 1e12, "period scale: sin(r/alpha), sin(|r|/alpha)", true),
        [](double alpha) -> ClosedForm {
          return {[=](double r) { return std::sin(std::fabs(r) / alpha); },
                  [=](double r) { return sign(r) * std::cos(std::fabs(r) / alpha) / alpha; }};
        }}},
  };
  return table;
}

const Builtin* findBuiltin(const std::string& name) {
  for (const auto& entry : builtins()) {
    if (entry.first == name) return &entry.second;
  }
  return nullptr;
}

// The names a profile may have: the built-ins, then every scheme with a bias.
std::vector<std::string> profileNames() {
  std::vector<std::string> names;
  for (const auto& entry : builtins()) names.push_back(entry.first);
  for (const auto& s : catalogue()) {
    if (s.fillBias) names.push_back(s.id);
  }
  return names;
}

}  // namespace

const std::set<std::string>& profileOptionNames() {
  static const std::set<std::string> names = {"profile", "values", "lambda", "sigma", "omega", "width", "alpha"};
  return names;
}

Profile readProfile(const Params& params, int64_t n, const std::set<std::string>& own, bool needTable) {
  Profile out;
  out.n = n;
  std::set<std::string> allowed = own;
  if (params.has("values")) {
    allowed.insert("values");
    checkNames(params, allowed);
    if (params.has("profile")) throwType(params.where() + ": give either profile or values, not both");
    const TensorArg v = tensorArg(params, "values", 1, 1, "[2n - 1] (k(r) for r = -(n-1) .. n-1)");
    if (v.dim(0) != 2 * n - 1) {
      throwRange(params.where() + ": values must hold 2n - 1 = " + std::to_string(2 * n - 1) +
                 " numbers (k(r) for r = -(n-1) .. n-1), got " + std::to_string(v.dim(0)));
    }
    out.name = "values";
    out.table.assign(v.data->begin(), v.data->end());
    return out;
  }
  const Value* p = params.find("profile");
  if (!p) throwType(params.where() + ": profile is required: a name ('gaussian', …, or a bias scheme id) or values");
  if (p->type != Value::Type::String)
    throwType(params.where() + ": profile must be a profile name or a bias scheme id");
  out.name = p->text;
  allowed.insert("profile");
  if (const Builtin* builtin = findBuiltin(out.name)) {
    allowed.insert(builtin->param.name);
    checkNames(params, allowed);
    const ClosedForm form = builtin->form(params.number(builtin->param));
    out.value = form.value;
    out.slope = form.slope;
    out.bound = form.bound;
  } else {
    const Scheme* scheme = nullptr;
    for (const auto& s : catalogue()) {
      if (s.id == out.name && s.fillBias) scheme = &s;
    }
    if (!scheme) {
      throwRange(params.where() + ": profile must be one of " + quotedList(profileNames()) + " or values, got '" +
                 out.name + "'");
    }
    // The scheme's own parameters, except the sizes and the mask this analysis sets.
    std::vector<ParamInfo> schemeParams;
    for (const auto& info : scheme->params) {
      if (info.name != "n" && info.name != "heads" && info.name != "causal") schemeParams.push_back(info);
    }
    checkNames(params, allowed, &schemeParams);
    for (const auto& info : schemeParams) validateParam(params, info);
    std::set<std::string> drop = allowed;
    drop.insert("n");
    const Params sp = without(params, drop);
    if (scheme->closedForm) {
      const ClosedForm form = scheme->closedForm(sp);
      out.value = form.value;
      out.slope = form.slope;
      out.bound = form.bound;
    }
    if (needTable) {
      // One head, the query at position n-1 against keys 0 .. 2n-2: r = j - (n-1) covers -(n-1) .. n-1.
      // Exact k(r) for schemes that depend on j - i only (FIRE's threshold also sees that query position).
      std::vector<float> row(static_cast<size_t>(2 * n - 1));
      BiasWindow window;
      window.rows = 1;
      window.cols = 2 * n - 1;
      window.queryStart = n - 1;
      scheme->fillBias(sp, window, row.data());
      out.table.assign(row.begin(), row.end());
    }
    return out;
  }
  if (needTable) {
    for (int64_t r = -(n - 1); r <= n - 1; ++r) out.table.push_back(profileValue(out, static_cast<double>(r)));
  }
  return out;
}

double profileValue(const Profile& p, double r) {
  if (p.value) return p.value(r);
  const int64_t at = static_cast<int64_t>(r) + p.n - 1;
  return p.table.at(static_cast<size_t>(at));
}

bool hasDerivative(const Profile& p) {
  return static_cast<bool>(p.slope);
}

double profileDerivative(const Profile& p, double r, const std::string& where) {
  if (p.slope) return p.slope(r);
  std::vector<std::string> analytic;
  for (const auto& entry : builtins()) {
    if (entry.second.form(1).slope) analytic.push_back(entry.first);
  }
  for (const auto& s : catalogue()) {
    if (s.closedForm) analytic.push_back(s.id);
  }
  throwRange(where + ": profile '" + p.name + "' has no analytic derivative; analytic forms: " + quotedList(analytic) +
             " (alibi in its symmetric form)");
}

namespace {

// Size of a profile analysis: n, or derived from the length of values (2n - 1).
int64_t profileSize(const Params& params, int64_t maxN, const std::string& limitWhy) {
  if (params.has("n")) {
    const Value* v = params.find("n");
    if (v->type == Value::Type::Number && v->number > static_cast<double>(maxN) && std::isfinite(v->number)) {
      throwRange(params.where() + ": n must be <= " + std::to_string(maxN) + " (" + limitWhy + "), got " +
                 formatNumber(v->number));
    }
    return params.requiredInteger("n", 1, static_cast<double>(maxN));
  }
  if (const Value* v = params.find("values")) {
    if (v->type == Value::Type::Array && v->array.size() % 2 == 1) {
      const int64_t n = static_cast<int64_t>(v->array.size() + 1) / 2;
      if (n > maxN)
        throwRange(params.where() + ": values describe n = " + std::to_string(n) + ", over the limit of " +
                   std::to_string(maxN));
      return n;
    }
    throwRange(params.where() + ": values must hold an odd count 2n - 1 (k(r) for r = -(n-1) .. n-1)");
  }
  throwType(params.where() + ": n is required");
}

const ParamInfo& toleranceParam() {
  static const ParamInfo p = psdToleranceParam("max|k(r) - k(-r)| <= tolerance * max|k|", "");
  return p;
}

// K[i, j] = k(j - i) from the table k(-(n-1)) .. k(n-1).
Eigen::MatrixXd toeplitz(const std::vector<double>& table, int64_t n) {
  Eigen::MatrixXd k(n, n);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) k(i, j) = table[static_cast<size_t>(j - i + n - 1)];
  }
  return k;
}

// Relative asymmetry max|k(r) - k(-r)| / max|k| (0 for the zero profile).
double asymmetry(const std::vector<double>& table) {
  double scale = 0, diff = 0;
  const size_t last = table.size() - 1;
  for (size_t t = 0; t < table.size(); ++t) {
    scale = std::max(scale, std::fabs(table[t]));
    diff = std::max(diff, std::fabs(table[t] - table[last - t]));
  }
  return scale > 0 ? diff / scale : 0.0;
}

// xoshiro256** (Blackman and Vigna 2018) seeded by SplitMix64; uniforms in (0, 1] so log(u) is
// finite. Local state only.
class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t seed) {
    SplitMix64 seeder(seed);
    for (auto& word : s_) word = seeder.next();
  }
  std::pair<double, double> operator()() {
    const double u1 = uniform(), u2 = uniform();
    return {u1, u2};
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t nextBits() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  double uniform() { return (static_cast<double>(nextBits() >> 11) + 1.0) * 0x1.0p-53; }

  uint64_t s_[4];
};

}  // namespace

Result kernelCheck(const Params& params) {
  const std::set<std::string> own = {"n", "tolerance"};
  const int64_t n =
      profileSize(params, kMaxDecompositionSize, "the eigenvalues of a larger matrix take more than a few seconds");
  const Profile profile = readProfile(params, n, own, true);
  const double tol = params.number(toleranceParam());
  const double asym = asymmetry(profile.table);
  const bool symmetric = asym <= tol;
  const Eigen::MatrixXd k = toeplitz(profile.table, n);
  const Eigen::MatrixXd sym = 0.5 * (k + k.transpose());
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> dec(sym, Eigen::EigenvaluesOnly);
  const Eigen::VectorXd values = dec.eigenvalues();
  const double scale = values.cwiseAbs().maxCoeff();
  // A covariance must be symmetric first: an odd profile's symmetric part is 0, trivially "PSD".
  const bool psd = symmetric && scale > 0 && values[0] >= -tol * scale;
  // Conditionally positive definite: xᵀKx >= 0 for every x whose entries sum to 0, i.e. the
  // eigenvalues of P K P with P = I - 11ᵀ/n (K double-centred). Biases such as -|r| are CPD without
  // being PSD, and exp(b) is PSD for every CPD b (Schoenberg), which is how softmax uses a bias.
  const Eigen::MatrixXd centre =
      Eigen::MatrixXd::Identity(n, n) - Eigen::MatrixXd::Constant(n, n, 1.0 / static_cast<double>(n));
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> centred(centre * sym * centre, Eigen::EigenvaluesOnly);
  const Eigen::VectorXd cValues = centred.eigenvalues();
  const double cScale = cValues.cwiseAbs().maxCoeff();
  const bool cpd = symmetric && cValues[0] >= -tol * std::max(cScale, scale);
  return {{"symmetric", flag(symmetric)},
          {"isPSD", flag(psd)},
          {"isCPD", flag(cpd)},
          {"minEigenvalue", Tensor::scalar(values[0])},
          {"minEigenvalueCPD", Tensor::scalar(cValues[0])},
          {"eigenvalues", vectorTensor(std::vector<double>(values.data(), values.data() + values.size()))},
          {"asymmetry", Tensor::scalar(asym)}};
}

Result gpSample(const Params& params) {
  const std::set<std::string> own = {"n", "count", "seed"};
  const int64_t n =
      profileSize(params, kMaxGpSize, "the Cholesky factor of a larger covariance takes more than a few seconds");
  const Profile profile = readProfile(params, n, own, true);
  static const ParamInfo countParam = integerParam("count", 1, 1, 1 << 20, "number of samples");
  static const ParamInfo seedParam =
      integerParam("seed", 0, 0, 9007199254740991.0, "RNG seed (same seed, same samples)");
  const int64_t count = params.integer(countParam);
  const uint64_t seed = static_cast<uint64_t>(params.integer(seedParam));
  checkResultSize(params.where(), static_cast<double>(count) * n);
  checkWork(params, 0.5 * static_cast<double>(count) * n * n,
            "drawing " + std::to_string(count) + " samples of length " + std::to_string(n));
  if (asymmetry(profile.table) > 1e-6) {
    throwRange(params.where() + ": profile '" + profile.name +
               "' is not symmetric (k(r) != k(-r)), so K is no covariance; see kernelCheck");
  }
  const Eigen::MatrixXd k = toeplitz(profile.table, n);
  const double variance = k.diagonal().maxCoeff();
  if (!(variance > 0))
    throwRange(params.where() + ": profile '" + profile.name + "' has k(0) <= 0, so it is no covariance");
  // Jitter ladder: exact first, then 1e-10 .. 1e-4 of k(0) on the diagonal for round-off in nearly
  // singular kernels (Gaussian, cosine); failing beyond that means K has clearly negative eigenvalues.
  double jitter = 0;
  Eigen::LLT<Eigen::MatrixXd> llt(k);
  while (llt.info() != Eigen::Success) {
    jitter = jitter == 0 ? 1e-10 * variance : jitter * 10;
    if (jitter > 1e-4 * variance * 1.0000001) {
      throwRange(params.where() + ": profile '" + profile.name +
                 "' is not positive semi-definite (Cholesky fails even with jitter 1e-4·k(0)); see kernelCheck");
    }
    llt.compute(k + jitter * Eigen::MatrixXd::Identity(n, n));
  }
  NormalPairs<Xoshiro256> rng{Xoshiro256(seed)};
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> z(count, n);
  for (int64_t c = 0; c < count; ++c) {
    for (int64_t i = 0; i < n; ++i) z(c, i) = rng.next();
  }
  // Row c is (L z_c)ᵀ = z_cᵀ Lᵀ.
  const Eigen::MatrixXd samples = z * llt.matrixU();
  Tensor out = Tensor::floats({count, n});
  for (int64_t c = 0; c < count; ++c) {
    for (int64_t i = 0; i < n; ++i) out.f32[c * n + i] = static_cast<float>(samples(c, i));
  }
  return {{"data", std::move(out)}, {"jitter", Tensor::scalar(jitter)}};
}

Result gpPosterior(const Params& params) {
  const std::set<std::string> own = {"n", "at", "y", "noise", "mean"};
  const int64_t n =
      profileSize(params, kMaxDecompositionSize, "the posterior of a larger grid takes more than a few seconds");
  const Profile profile = readProfile(params, n, own, true);
  const TensorArg at = tensorArg(params, "at", 1, 1, "[count] (grid indices 0 … n−1 of the observations)");
  const TensorArg y = tensorArg(params, "y", 1, 1, "[count] (observed values)");
  const int64_t count = at.dim(0);
  if (y.dim(0) != count) {
    throwRange(params.where() + ": y must hold one value per entry of at (" + std::to_string(count) + "), got " +
               std::to_string(y.dim(0)));
  }
  std::vector<int64_t> index;
  for (float v : *at.data) {
    if (v != std::floor(v) || v < 0 || v > static_cast<float>(n - 1)) {
      throwRange(params.where() + ": at must hold integer grid indices in [0, " + std::to_string(n - 1) + "], got " +
                 formatNumber(v));
    }
    index.push_back(static_cast<int64_t>(v));
  }
  static const ParamInfo noiseParam =
      numberParam("noise", 0.1, 0, 1e6, "standard deviation of the observation noise (y = f(at) + noise·ε)");
  const double noise = params.number(noiseParam);
  Eigen::VectorXd prior = Eigen::VectorXd::Zero(n);
  if (params.has("mean")) {
    const TensorArg m = tensorArg(params, "mean", 1, 1, "[n] (the mean function m on the grid)");
    if (m.dim(0) != n) throwRange(params.where() + ": mean must hold n = " + std::to_string(n) + " values");
    for (int64_t i = 0; i < n; ++i) prior[i] = (*m.data)[static_cast<size_t>(i)];
  }
  if (asymmetry(profile.table) > 1e-6) {
    throwRange(params.where() + ": profile '" + profile.name +
               "' is not symmetric (k(r) != k(-r)), so it is no covariance function; see kernelCheck");
  }
  const Eigen::MatrixXd k = toeplitz(profile.table, n);
  // Gaussian conditioning: with C = K_oo + noise²·I, the posterior mean is m + K_xo C⁻¹ (y − m_o) and
  // the posterior variance diag(K) − diag(K_xo C⁻¹ K_ox), through one Cholesky factor of C.
  Eigen::MatrixXd c(count, count);
  Eigen::MatrixXd kxo(n, count);
  Eigen::VectorXd residual(count);
  for (int64_t a = 0; a < count; ++a) {
    for (int64_t b = 0; b < count; ++b) c(a, b) = k(index[a], index[b]);
    c(a, a) += noise * noise;
    for (int64_t i = 0; i < n; ++i) kxo(i, a) = k(i, index[a]);
    residual[a] = (*y.data)[static_cast<size_t>(a)] - prior[index[a]];
  }
  const double variance = k.diagonal().maxCoeff();
  double jitter = 0;
  Eigen::LLT<Eigen::MatrixXd> llt(c);
  while (llt.info() != Eigen::Success) {
    jitter = jitter == 0 ? 1e-10 * variance : jitter * 10;
    if (!(variance > 0) || jitter > 1e-4 * variance * 1.0000001) {
      throwRange(params.where() + ": profile '" + profile.name +
                 "' is not positive semi-definite on the observed points; see kernelCheck");
    }
    llt.compute(c + jitter * Eigen::MatrixXd::Identity(count, count));
  }
  const Eigen::VectorXd mean = prior + kxo * llt.solve(residual);
  const Eigen::MatrixXd v = llt.matrixL().solve(kxo.transpose());  // [count, n]
  std::vector<double> meanOut(n), stdOut(n);
  for (int64_t i = 0; i < n; ++i) {
    meanOut[i] = mean[i];
    stdOut[i] = std::sqrt(std::max(0.0, k(i, i) - v.col(i).squaredNorm()));
  }
  return {{"mean", vectorTensor(meanOut)}, {"std", vectorTensor(stdOut)}, {"jitter", Tensor::scalar(jitter)}};
}

Result derivative(const Params& params) {
  const std::set<std::string> own = {"n", "at"};
  const std::vector<double> at = valuesOr(params, "at", "[count] (relative distances r)", [&] {
    const int64_t n = params.requiredInteger("n", 1, 1 << 20);
    return integerRange(-(n - 1), n - 1);
  });
  if (params.has("values"))
    throwRange(params.where() + ": a values profile has no analytic derivative; give a profile name");
  const Profile profile = readProfile(params, 1, own, false);
  if (!hasDerivative(profile)) profileDerivative(profile, 0, params.where());  // throws, naming the analytic forms
  std::vector<double> value, slope;
  for (double r : at) {
    value.push_back(profileValue(profile, r));
    slope.push_back(profileDerivative(profile, r, params.where()));
  }
  return {{"r", vectorTensor(at)},
          {"value", vectorTensor(value)},
          {"derivative", vectorTensor(slope)},
          {"bound", Tensor::scalar(profile.bound)}};
}

}  // namespace relpos::analysis
