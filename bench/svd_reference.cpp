// The native reference of `npm run bench:svd` (bench/svd.mjs): what rp.analysis.svd computes for a
// values-only SVD — Eigen's BDCSVD of the float32 matrix widened to double — built with
// -O3 -march=native. The matrix is the one bench/svd.mjs builds (the same 32-bit LCG, values in
// [-1, 1) rounded to float32). Prints one JSON line per size: {"n":…, "ms":[…], "sigma":[…]} (each
// rep's wall time, after two warm-up reps, and the singular values).
#include <Eigen/Dense>
#include <Eigen/SVD>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 7;
  for (int a = 2; a < argc; ++a) {
    const int n = std::atoi(argv[a]);
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> m(n, n);
    uint32_t s = static_cast<uint32_t>(n);
    for (int i = 0; i < n * n; ++i) {
      s = s * 1664525u + 1013904223u;
      m.data()[i] = static_cast<float>(static_cast<double>(s) / 4294967296.0 * 2.0 - 1.0);
    }
    Eigen::VectorXd sigma;
    std::printf("{\"n\":%d,\"ms\":[", n);
    for (int r = 0; r < reps + 2; ++r) {
      const auto start = std::chrono::steady_clock::now();
      Eigen::BDCSVD<Eigen::MatrixXd> svd(m.cast<double>(), 0);
      sigma = svd.singularValues();
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      if (r >= 2) std::printf("%s%.4f", r > 2 ? "," : "", ms);
    }
    std::printf("],\"sigma\":[");
    for (Eigen::Index i = 0; i < sigma.size(); ++i) std::printf("%s%.9g", i ? "," : "", sigma[i]);
    std::printf("]}\n");
  }
  return 0;
}
