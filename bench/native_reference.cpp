// The native reference for `npm run bench`: W = softmax(QK^T/sqrt(d) + B) with an ALiBi bias,
// Eigen GEMM + row softmax, built with -O3 -march=native (the hardware limit the wasm build is
// compared with). Prints one JSON line per n: {"n":…, "ms":[…]} (each rep's wall time).
#include <Eigen/Dense>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 7;
  const int d = 64;
  for (int a = 2; a < argc; ++a) {
    const int n = std::atoi(argv[a]);
    std::mt19937 rng(1);
    std::normal_distribution<float> normal;
    Matrix q(n, d), k(n, d), b(n, n), w(n, n);
    for (int i = 0; i < n * d; ++i) q.data()[i] = normal(rng);
    for (int i = 0; i < n * d; ++i) k.data()[i] = normal(rng);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) b(i, j) = -std::fabs(static_cast<float>(j - i)) / 16.0f;
    std::printf("{\"n\":%d,\"ms\":[", n);
    for (int r = 0; r < reps + 2; ++r) {
      const auto start = std::chrono::steady_clock::now();
      w.noalias() = (q * k.transpose()) * (1.0f / std::sqrt(static_cast<float>(d)));
      w += b;
      for (int i = 0; i < n; ++i) {
        auto row = w.row(i);
        row = (row.array() - row.maxCoeff()).exp();
        row /= row.sum();
      }
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      if (r >= 2) std::printf("%s%.4f", r > 2 ? "," : "", ms);  // two warm-up reps
    }
    std::printf("],\"check\":%.9g}\n", static_cast<double>(w(n / 2, n / 3)));
  }
  return 0;
}
