#include "relpos/analysis/analysis.hpp"

#include <Eigen/Core>
#include <cmath>
#include <map>

#include "relpos/analysis/internal.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/json.hpp"

namespace relpos {

namespace analysis {

TensorArg tensorArg(const Params& params, const std::string& name, size_t minRank, size_t maxRank,
                    const std::string& shapeText, bool allowMinusInfinity) {
  const Value* v = params.find(name);
  const std::string message = params.where() + ": " + name + " must be a tensor of shape " + shapeText + ", got ";
  if (!v) throwType(message + "nothing");
  if (v->type != Value::Type::Array) throwType(message + describeValue(*v));
  // [1, n, n] (one head of a per-head result) is the matrix [n, n].
  const Shape shape = squeezeLeading(v->shape, maxRank);
  if (shape.size() < minRank || shape.size() > maxRank) throwType(message + "shape " + relpos::shapeText(v->shape));
  for (int64_t extent : shape) {
    if (extent < 1) throwRange(params.where() + ": " + name + " must not be empty, got an extent of 0");
  }
  for (float x : v->array) {
    if (std::isnan(x) || (std::isinf(x) && !(allowMinusInfinity && x < 0))) {
      throwRange(params.where() + ": " + name + " must hold finite numbers, got " + formatNumber(x));
    }
  }
  return TensorArg{shape, &v->array};
}

void checkWork(const Params& params, double work, const std::string& what) {
  if (work > kMaxWork) {
    throwRange(params.where() + ": " + what + " needs about " + formatNumber(work) +
               " multiply-adds, over the limit of " + formatNumber(kMaxWork) + " (a few seconds)");
  }
}

void checkNames(const Params& params, const std::set<std::string>& own, const std::vector<ParamInfo>* schemeParams) {
  std::set<std::string> allowed = own;
  if (schemeParams) {
    for (const auto& p : *schemeParams) allowed.insert(p.name);
  }
  checkKnownNames(params, allowed);
}

Params without(const Params& params, const std::set<std::string>& drop) {
  Params out(params.where());
  for (const auto& name : params.names()) {
    if (!drop.count(name)) out.set(name, *params.find(name));
  }
  return out;
}

std::vector<double> integerRange(int64_t first, int64_t last) {
  std::vector<double> out;
  for (int64_t x = first; x <= last; ++x) out.push_back(static_cast<double>(x));
  return out;
}

Tensor vectorTensor(const std::vector<double>& values) {
  return Tensor::vector(values);
}

}  // namespace analysis

Result analyze(const std::string& name, const Params& params) {
  using Fn = Result (*)(const Params&);
  static const std::map<std::string, Fn> analyses = {
      {"translationDefect", analysis::translationDefect},
      {"svd", analysis::svd},
      {"eig", analysis::eig},
      {"distances", analysis::distances},
      {"project2d", analysis::project2d},
      {"entropy", analysis::entropy},
      {"distanceEntropy", analysis::distanceEntropy},
      {"kernelCheck", analysis::kernelCheck},
      {"gpSample", analysis::gpSample},
      {"gpPosterior", analysis::gpPosterior},
      {"derivative", analysis::derivative},
      {"decayBound", analysis::decayBound},
      {"precision", analysis::precision},
      {"angleCoverage", analysis::angleCoverage},
      {"scaledCosine", analysis::scaledCosine},
      {"peBound", analysis::peBound},
  };
  auto it = analyses.find(name);
  if (it == analyses.end()) {
    std::vector<std::string> known;
    for (const auto& entry : analyses) known.push_back(entry.first);
    throwUnknownName("relpos.analysis", "analysis", name, known, "known");
  }
  return it->second(params);
}

std::string analysisBuildJson() {
#ifdef EIGEN_VECTORIZE
  const bool vectorized = true;
#else
  const bool vectorized = false;
#endif
  const std::string eigen = std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
                            std::to_string(EIGEN_MINOR_VERSION);
  return toJson(jsonObject({{"eigen", JsonValue::makeString(eigen)},
                            {"vectorized", JsonValue::makeBoolean(vectorized)},
                            {"instructionSets", JsonValue::makeString(Eigen::SimdInstructionSetsInUse())}}));
}

}  // namespace relpos
