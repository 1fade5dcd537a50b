// Dense float64 layers of the lab's model (row-major) with their hand-written backward passes.
#pragma once
#include <cstdint>

namespace relpos::lab {

// C[n, m] = A[n, k] W[k, m] (+ bias[m])
void matmul(const double* A, int64_t n, int64_t k, const double* W, int64_t m, double* C, const double* bias = nullptr);

// Given C = A W (+ b): dA += dC Wᵀ (when dA), dW += Aᵀ dC, db += Σ_rows dC (when db).
void matmulBack(const double* A, int64_t n, int64_t k, const double* W, int64_t m, const double* dC, double* dA,
                double* dW, double* db = nullptr);

// y = g * (x - mean) / sqrt(var + eps) + b per row of D; keeps xhat and 1/sqrt(var + eps) for the backward.
void layerNorm(const double* x, int64_t n, int64_t D, const double* g, const double* b, double* y, double* xhat,
               double* rstd);

// dx += LN backward of dy; dg, db accumulate.
void layerNormBack(const double* dy, int64_t n, int64_t D, const double* g, const double* xhat, const double* rstd,
                   double* dx, double* dg, double* db);

}  // namespace relpos::lab
