#include "relpos/schemes/vector_family.hpp"

#include <algorithm>
#include <cmath>

#include "relpos/base/errors.hpp"

namespace relpos {

void sinusoid(double position, int64_t d, double base, bool concat, float* out) {
  if (concat) {
    const int64_t half = d / 2;
    for (int64_t i = 0; i < half; ++i) {
      const double angle = position * std::pow(base, -2.0 * static_cast<double>(i) / d);
      out[i] = static_cast<float>(std::sin(angle));
      out[half + i] = static_cast<float>(std::cos(angle));
    }
    return;
  }
  for (int64_t slot = 0; slot < d; ++slot) {
    const int64_t i = slot / 2;
    const double angle = position * std::pow(base, -2.0 * static_cast<double>(i) / d);
    out[slot] = static_cast<float>(slot % 2 == 0 ? std::sin(angle) : std::cos(angle));
  }
}

std::vector<float> sinusoidTable(int64_t rows, int64_t shift, int64_t d) {
  std::vector<float> table(static_cast<size_t>(rows * d));
  for (int64_t t = 0; t < rows; ++t)
    sinusoid(static_cast<double>(t - shift), d, kDefaultTableBase, false, table.data() + t * d);
  return table;
}

Scheme logitScheme(Scheme s, OpFn scores, SyntheticFn synthetic, LogitsFn logits) {
  s.scores = scores;
  s.syntheticDefaults = synthetic;
  s.term = AttentionTerm::Logits;
  s.logits = logits;
  return s;
}

std::string shapeText(const std::string& names, int64_t rows, int64_t cols) {
  return "[" + names + "] = [" + std::to_string(rows) + ", " + std::to_string(cols) + "]";
}

const float* matrixParam(const Params& params, const std::string& name, const std::string& names, int64_t rows,
                         int64_t cols) {
  const Value* v = params.array(name, rows * cols, shapeText(names, rows, cols));
  return v ? v->data() : nullptr;
}

const float* vectorParam(const Params& params, const std::string& name, int64_t d) {
  const Value* v = params.array(name, d, "[d] = [" + std::to_string(d) + "]");
  return v ? v->data() : nullptr;
}

std::vector<float> probeVector(const Params& params, const std::string& name, int64_t d, float fallback) {
  if (const float* v = vectorParam(params, name, d)) return {v, v + d};
  return std::vector<float>(static_cast<size_t>(d), fallback);
}

int64_t sizeFromParamOrMatrix(const Params& params, const ParamInfo& info, const std::string& matrix, int axis) {
  if (!params.has(info.name)) {
    const Value* m = params.find(matrix);
    if (m && m->type == Value::Type::Array && m->shape.size() == 2) return m->shape[axis];
  }
  return params.integer(info);
}

void requireSquareContent(const Params& params) {
  for (const char* name : {"m", "queryOffset", "positions", "queryPositions", "keyPositions"}) {
    if (params.has(name)) {
      throwRange(params.where() + ": content logits (q and k matrices) cover the n x n grid; " + name +
                 " applies to the position-only scores");
    }
  }
}

const ParamInfo& queryParam() {
  static const ParamInfo p = actsIn(
      arrayParam("q", "scores: probe query [d], or queries [n, d] with k [n, d] for the full logits"), {"scores"});
  return p;
}
const ParamInfo& keyParam() {
  static const ParamInfo p =
      actsIn(arrayParam("k", "scores: keys [n, d]; with q [n, d] gives the full logit matrix [n, n]"), {"scores"});
  return p;
}

}  // namespace relpos
