// rp.analysis on matrices: translation defect, SVD, eigenvalues, distances, PCA, attention entropies.
//
// Decompositions run in double: in float32 a 512×512 BDCSVD and JacobiSVD already disagree on Σσ at
// 8e-5 relative and the small singular values (those that set the condition number and the effective
// rank) are lost in rounding (docs/analysis.md). Inputs arrive as float32 and are widened exactly.
#include <Eigen/Dense>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>

#include "relpos/analysis/internal.hpp"
#include "relpos/base/errors.hpp"

namespace relpos::analysis {

namespace {

using RowMajorF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowMajorD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The matrix starting at element `offset` of a row-major float buffer, widened to double.
Eigen::MatrixXd toDouble(const TensorArg& t, int64_t rows, int64_t cols, int64_t offset = 0) {
  Eigen::Map<const RowMajorF> view(t.data->data() + offset, rows, cols);
  return view.cast<double>();
}

Tensor matrixTensor(const Eigen::MatrixXd& m) {
  Tensor t = Tensor::floats({m.rows(), m.cols()});
  Eigen::Map<RowMajorF>(t.f32.data(), m.rows(), m.cols()) = m.cast<float>();
  return t;
}

std::string shapeText(const Shape& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

void checkDecompositionSize(const Params& params, const std::string& name, int64_t rows, int64_t cols) {
  if (rows > kMaxDecompositionSize || cols > kMaxDecompositionSize) {
    throwRange(params.where() + ": " + name + " is " + std::to_string(rows) + "×" + std::to_string(cols) +
               "; at most " + std::to_string(kMaxDecompositionSize) +
               " rows and columns (larger takes more than a few seconds)");
  }
}

const ParamInfo& vectorsParam() {
  static const ParamInfo p = booleanParam("vectors", false, "also return the singular / eigen vectors");
  return p;
}
const ParamInfo& psdTolerance() {
  static const ParamInfo p = psdToleranceParam("max|M - Mᵀ| <= tolerance * max|M|", "symmetric and ");
  return p;
}

// Heads and the n×m matrix size of a [n, m] or [heads, n, m] argument.
struct Stack {
  int64_t heads, rows, cols;
  bool batched;
};
Stack stackOf(const TensorArg& t) {
  if (t.shape.size() == 2) return {1, t.shape[0], t.shape[1], false};
  return {t.shape[0], t.shape[1], t.shape[2], true};
}

// ------------------------------------------------------------------------------------------------
// Translation defect. All (i, j, k) with S[i+k, j+k] and S[i, j] both inside the matrix pair two
// entries of the same diagonal, so each diagonal is handled on its own: the largest difference is its
// range and the sum of all pairwise differences comes from the sorted values in O(L log L).

struct DefectSum {
  double max = 0;
  double sum = 0;
  double pairs = 0;
  void add(double diff) {
    max = std::max(max, diff);
    sum += diff;
    pairs += 1;
  }
};

// All pairs of one diagonal. Masked entries (-Infinity) equal each other; masked vs finite is an
// infinite defect.
void diagonalAllPairs(std::vector<double>& values, DefectSum& acc) {
  std::vector<double> finite;
  for (double v : values) {
    if (std::isfinite(v)) finite.push_back(v);
  }
  const double masked = static_cast<double>(values.size() - finite.size());
  if (masked > 0 && !finite.empty()) {
    acc.max = acc.sum = kInf;
    acc.pairs += masked * static_cast<double>(finite.size());
  }
  const double count = static_cast<double>(finite.size());
  if (finite.size() < 2) return;
  std::sort(finite.begin(), finite.end());
  double sum = 0;
  for (size_t m = 0; m < finite.size(); ++m) sum += finite[m] * (2.0 * static_cast<double>(m) - count + 1.0);
  acc.max = std::max(acc.max, finite.back() - finite.front());
  acc.sum += sum;
  acc.pairs += count * (count - 1) / 2;
}

void diagonalShift(const std::vector<double>& values, int64_t shift, DefectSum& acc) {
  for (size_t t = 0; t + static_cast<size_t>(shift) < values.size(); ++t) {
    const double a = values[t];
    const double b = values[t + static_cast<size_t>(shift)];
    if (std::isinf(a) && std::isinf(b)) continue;
    acc.add(std::isinf(a) || std::isinf(b) ? kInf : std::fabs(b - a));
  }
}

DefectSum headDefect(const float* s, int64_t n, int64_t shift) {
  DefectSum acc;
  std::vector<double> diagonal;
  for (int64_t offset = -(n - 1); offset <= n - 1; ++offset) {
    diagonal.clear();
    for (int64_t i = std::max<int64_t>(0, -offset); i < n && i + offset < n; ++i)
      diagonal.push_back(s[i * n + i + offset]);
    if (shift > 0) {
      diagonalShift(diagonal, shift, acc);
    } else {
      diagonalAllPairs(diagonal, acc);
    }
  }
  return acc;
}

}  // namespace

Result translationDefect(const Params& params) {
  checkNames(params, {"S", "tolerance", "shift"});
  const TensorArg s = tensorArg(params, "S", 2, 3, "[n, n] or [heads, n, n]", true);
  const Stack st = stackOf(s);
  if (st.rows != st.cols) throwRange(params.where() + ": S must be square, got shape " + shapeText(s.shape));
  const int64_t n = st.rows;
  static const ParamInfo tolerance =
      numberParam("tolerance", 1e-5, 0, 1, "Toeplitz when max defect <= tolerance * max|S| (float32 rounding)");
  const double tol = params.number(tolerance);
  const int64_t shift =
      params.has("shift") ? params.requiredInteger("shift", 1, static_cast<double>(std::max<int64_t>(n - 1, 1))) : 0;

  double scale = 0;
  for (float x : *s.data) {
    if (std::isfinite(x)) scale = std::max(scale, std::fabs(static_cast<double>(x)));
  }
  Tensor perMax = Tensor::floats({st.heads});
  Tensor perMean = Tensor::floats({st.heads});
  DefectSum total;
  for (int64_t h = 0; h < st.heads; ++h) {
    const DefectSum d = headDefect(s.data->data() + h * n * n, n, shift);
    perMax.f32[h] = static_cast<float>(d.max);
    perMean.f32[h] = static_cast<float>(d.pairs > 0 ? d.sum / d.pairs : 0.0);
    total.max = std::max(total.max, d.max);
    total.sum += d.sum;
    total.pairs += d.pairs;
  }
  const double mean = total.pairs > 0 ? total.sum / total.pairs : 0.0;
  const double relative = scale > 0 ? total.max / scale : total.max;
  return {{"max", Tensor::scalar(total.max)},     {"mean", Tensor::scalar(mean)},
          {"relative", Tensor::scalar(relative)}, {"isToeplitz", flag(relative <= tol)},
          {"perHeadMax", std::move(perMax)},      {"perHeadMean", std::move(perMean)}};
}

Result svd(const Params& params) {
  checkNames(params, {"M", "vectors", "tolerance"});
  const TensorArg m = tensorArg(params, "M", 2, 2, "[rows, cols]");
  const int64_t rows = m.dim(0), cols = m.dim(1);
  checkDecompositionSize(params, "M", rows, cols);
  // BDCSVD costs ~rows·cols·min(rows, cols): measured in wasm (double) 0.13 s at 512², 1.5 s at 1024², ~12 s at 2048².
  const double work = static_cast<double>(rows) * cols * std::min(rows, cols);
  if (work > kMaxSvdWork) {
    throwRange(
        params.where() + ": M is " + std::to_string(rows) + "×" + std::to_string(cols) +
        "; an SVD needs rows·cols·min(rows, cols) <= 2^31 (about 1290×1290; larger takes more than a few seconds)");
  }
  const bool vectors = params.boolean(vectorsParam());
  // The rank cut is the float32 rounding of the entries, bounded by Frobenius: an entry
  // within one float32 ulp of its exact value is off by at most ε_float32 · |m_ij|, so the
  // perturbation E has ‖E‖_2 <= ‖E‖_F <= ε_float32 · ‖M‖_F and, by Weyl's inequality, no singular value
  // moves by more than that. Singular values above ε_float32 · ‖M‖_F are the matrix's own; only those
  // below it could be rounding. (The older cut σ_max · max(rows, cols) · ε_float32 bounds every entry
  // by the largest one: at n = 256 it called an exact ALiBi matrix, full rank with σ_min/σ_max = 2.2e-5,
  // rank 166.) The decomposition runs in double, whose own error, about max(rows, cols) · ε_float64 ·
  // σ_max, is far below this cut.
  static const ParamInfo toleranceInfo =
      numberParam("tolerance", 0, 0, 1,
                  "rank counts σ_i > tolerance · σ_max (default ε_float32 · ‖M‖_F / σ_max, ε_float32 = 2^-23)");
  // BDCSVD: divide and conquer, far faster than JacobiSVD at these sizes (docs/analysis.md).
  Eigen::BDCSVD<Eigen::MatrixXd> dec(toDouble(m, rows, cols),
                                     vectors ? (Eigen::ComputeThinU | Eigen::ComputeThinV) : 0);
  const Eigen::VectorXd sigma = dec.singularValues();
  const double total = sigma.sum();
  double entropy = 0;
  for (Eigen::Index i = 0; i < sigma.size(); ++i) {
    const double p = total > 0 ? sigma[i] / total : 0;
    if (p > 0) entropy -= p * std::log(p);
  }
  const double top = sigma.size() ? sigma[0] : 0;
  const double bottom = sigma.size() ? sigma[sigma.size() - 1] : 0;
  const double eps32 = static_cast<double>(std::numeric_limits<float>::epsilon());
  const double tolerance = params.has("tolerance") ? params.number(toleranceInfo)
                           : top > 0               ? eps32 * sigma.norm() / top
                                                   : eps32;
  int64_t rank = 0;
  for (Eigen::Index i = 0; i < sigma.size(); ++i) rank += sigma[i] > tolerance * top ? 1 : 0;
  // A matrix that is singular within its float32 rounding has no finite condition number: σ_max/σ_min
  // would measure a σ_min that rounding alone could have made.
  const bool fullRank = rank == static_cast<int64_t>(sigma.size());

  Result out;
  out["singularValues"] = vectorTensor(std::vector<double>(sigma.data(), sigma.data() + sigma.size()));
  out["effectiveRank"] = Tensor::scalar(total > 0 ? std::exp(entropy) : 0.0);
  out["conditionNumber"] = Tensor::scalar(fullRank && bottom > 0 ? top / bottom : kInf);
  out["rank"] = Tensor::scalar(static_cast<double>(rank));
  out["tolerance"] = Tensor::scalar(tolerance);
  if (vectors) {
    out["U"] = matrixTensor(dec.matrixU());
    out["V"] = matrixTensor(dec.matrixV());
  }
  return out;
}

Result eig(const Params& params) {
  checkNames(params, {"M", "vectors", "tolerance"});
  const TensorArg m = tensorArg(params, "M", 2, 2, "[n, n]");
  if (m.dim(0) != m.dim(1)) throwRange(params.where() + ": M must be square, got shape " + shapeText(m.shape));
  const int64_t n = m.dim(0);
  checkDecompositionSize(params, "M", n, n);
  const bool vectors = params.boolean(vectorsParam());
  const double tol = params.number(psdTolerance());
  const Eigen::MatrixXd a = toDouble(m, n, n);
  const double size = a.cwiseAbs().maxCoeff();
  const double asym = size > 0 ? (a - a.transpose()).cwiseAbs().maxCoeff() / size : 0.0;
  const Eigen::MatrixXd sym = 0.5 * (a + a.transpose());
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> dec(sym,
                                                     vectors ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
  const Eigen::VectorXd values = dec.eigenvalues();  // ascending
  const double scale = values.cwiseAbs().maxCoeff();
  // PSD is a property of symmetric matrices: an antisymmetric M (an odd k(j - i)) has xᵀMx = 0 for
  // every x and a zero symmetric part, which must not pass as positive semi-definite.
  const bool symmetric = asym <= tol;
  Result out;
  out["values"] = vectorTensor(std::vector<double>(values.data(), values.data() + values.size()));
  out["symmetric"] = flag(symmetric);
  out["asymmetry"] = Tensor::scalar(asym);
  out["isPSD"] = flag(symmetric && values[0] >= -tol * scale);
  if (vectors) out["vectors"] = matrixTensor(dec.eigenvectors());
  return out;
}

Result distances(const Params& params) {
  checkNames(params, {"E", "metric"});
  const TensorArg e = tensorArg(params, "E", 2, 2, "[n, d]");
  static const ParamInfo metricParam = choiceParam("metric", "euclidean|cosine|manhattan", "distance between rows");
  const std::string metric = params.choice(metricParam);
  const int64_t n = e.dim(0), d = e.dim(1);
  checkResultSize(params.where(), static_cast<double>(n) * n);
  checkWork(params, 0.5 * n * n * d, "distances of " + std::to_string(n) + " rows of width " + std::to_string(d));
  // Direct differences in double rather than the Gram-matrix identity, which cancels badly for close rows.
  const RowMajorD x = Eigen::Map<const RowMajorF>(e.data->data(), n, d).cast<double>();
  Eigen::VectorXd norms = x.rowwise().norm();
  Tensor out = Tensor::floats({n, n});
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = i + 1; j < n; ++j) {
      double dist;
      if (metric == "euclidean") {
        dist = (x.row(i) - x.row(j)).norm();
      } else if (metric == "manhattan") {
        dist = (x.row(i) - x.row(j)).cwiseAbs().sum();
      } else {
        // A zero row has no direction: its cosine with anything is taken as 0 (distance 1).
        const double denom = norms[i] * norms[j];
        dist = 1.0 - (denom > 0 ? x.row(i).dot(x.row(j)) / denom : 0.0);
      }
      out.f32[i * n + j] = out.f32[j * n + i] = static_cast<float>(dist);
    }
  }
  return {{"data", std::move(out)}};
}

Result project2d(const Params& params) {
  checkNames(params, {"E"});
  const TensorArg e = tensorArg(params, "E", 2, 2, "[n, d]");
  const int64_t n = e.dim(0), d = e.dim(1);
  checkResultSize(params.where(), 2.0 * n);
  const int64_t k = std::min(n, d);
  if (k > kMaxDecompositionSize) checkDecompositionSize(params, "E", n, d);
  checkWork(params, 4.0 * n * d * k, "the PCA of " + std::to_string(n) + "×" + std::to_string(d));
  Eigen::MatrixXd x = toDouble(e, n, d);
  x.rowwise() -= x.colwise().mean();
  Eigen::BDCSVD<Eigen::MatrixXd> dec(x, Eigen::ComputeThinU);
  const Eigen::VectorXd sigma = dec.singularValues();
  const double variance = sigma.squaredNorm();
  Tensor points = Tensor::floats({n, 2});
  std::vector<double> explained(2, 0.0);
  for (int64_t c = 0; c < std::min<int64_t>(2, sigma.size()); ++c) {
    // Signs of singular vectors are arbitrary; fix them so the largest |coordinate| is positive.
    Eigen::Index at = 0;
    dec.matrixU().col(c).cwiseAbs().maxCoeff(&at);
    const double sign = dec.matrixU()(at, c) < 0 ? -1.0 : 1.0;
    for (int64_t i = 0; i < n; ++i) points.f32[i * 2 + c] = static_cast<float>(sign * dec.matrixU()(i, c) * sigma[c]);
    explained[c] = variance > 0 ? sigma[c] * sigma[c] / variance : 0.0;
  }
  return {{"points", std::move(points)}, {"explained", vectorTensor(explained)}};
}

namespace {

// Row-normalised copy of row `i` of an attention matrix; RangeError for negative entries or an empty row.
void normalisedRow(const Params& params, const float* row, int64_t cols, int64_t index, std::vector<double>& out) {
  double sum = 0;
  for (int64_t j = 0; j < cols; ++j) {
    if (row[j] < 0) {
      throwRange(params.where() + ": W must be non-negative (rows of attention weights), got " + formatNumber(row[j]));
    }
    sum += row[j];
  }
  if (!(sum > 0))
    throwRange(params.where() + ": W row " + std::to_string(index) + " sums to 0; it has no distribution");
  out.resize(static_cast<size_t>(cols));
  for (int64_t j = 0; j < cols; ++j) out[j] = row[j] / sum;
}

double shannon(const std::vector<double>& p) {
  double h = 0;
  for (double x : p) {
    if (x > 0) h -= x * std::log(x);
  }
  return h;
}

}  // namespace

Result entropy(const Params& params) {
  checkNames(params, {"W"});
  const TensorArg w = tensorArg(params, "W", 2, 3, "[n, m] or [heads, n, m]");
  const Stack st = stackOf(w);
  Tensor out = st.batched ? Tensor::floats({st.heads, st.rows}) : Tensor::floats({st.rows});
  std::vector<double> p;
  for (int64_t r = 0; r < st.heads * st.rows; ++r) {
    normalisedRow(params, w.data->data() + r * st.cols, st.cols, r % st.rows, p);
    out.f32[r] = static_cast<float>(shannon(p));
  }
  return {{"data", std::move(out)}};
}

// p(r) = (1/n) Σ_i W[i, j] / Σ_j W[i, j] at r = j − (i + m − n): the attention mass per relative distance.
Result distanceEntropy(const Params& params) {
  checkNames(params, {"W"});
  const TensorArg w = tensorArg(params, "W", 2, 3, "[n, m] or [heads, n, m]");
  const Stack st = stackOf(w);
  if (st.rows > st.cols) {
    throwRange(params.where() + ": W must have no more query rows than key columns, got shape " + shapeText(w.shape));
  }
  const int64_t m = st.cols, offset = st.cols - st.rows, width = 2 * m - 1;
  Tensor p = st.batched ? Tensor::floats({st.heads, width}) : Tensor::floats({width});
  Tensor h = st.batched ? Tensor::floats({st.heads}) : Tensor::floats({});
  Tensor meanDistance = st.batched ? Tensor::floats({st.heads}) : Tensor::floats({});
  std::vector<double> row, dist;
  for (int64_t head = 0; head < st.heads; ++head) {
    dist.assign(static_cast<size_t>(width), 0.0);
    for (int64_t i = 0; i < st.rows; ++i) {
      normalisedRow(params, w.data->data() + (head * st.rows + i) * m, m, i, row);
      for (int64_t j = 0; j < m; ++j) dist[j - (i + offset) + m - 1] += row[j] / static_cast<double>(st.rows);
    }
    double mean = 0;
    for (int64_t t = 0; t < width; ++t) {
      p.f32[head * width + t] = static_cast<float>(dist[t]);
      mean += dist[t] * std::fabs(static_cast<double>(t - (m - 1)));
    }
    h.f32[head] = static_cast<float>(shannon(dist));
    meanDistance.f32[head] = static_cast<float>(mean);
  }
  return {{"p", std::move(p)}, {"entropy", std::move(h)}, {"meanDistance", std::move(meanDistance)}};
}

}  // namespace relpos::analysis
