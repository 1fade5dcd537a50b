#include "relpos/lab/dense.hpp"

#include <cmath>

namespace relpos::lab {

void matmul(const double* A, int64_t n, int64_t k, const double* W, int64_t m, double* C, const double* bias) {
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

void matmulBack(const double* A, int64_t n, int64_t k, const double* W, int64_t m, const double* dC, double* dA,
                double* dW, double* db) {
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

}  // namespace relpos::lab
