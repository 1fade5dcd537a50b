// The native reference of `npm run bench`: attention weights W = softmax(scale QK^T + B) the way a
// C++ programmer who cares about speed would write them — blocked and single-pass: for each block
// of rows small enough to stay in cache (kBlockBytes), one Eigen GEMM writes the block's logits
// into its rows of W, and while they are still in cache each row gets the bias, the max, a
// vectorised exp (Eigen's AVX-512 path under -O3 -march=native), the sum and the normalisation.
// W is written once and never read back from memory. Single-threaded (no OpenMP).
//
// It runs as a server beside the Node benchmark so that its reps interleave with the wasm
// contenders under the same machine load. One command per stdin line, one JSON reply per line:
//   load <n> <d> <path>  read float32 q [n, d], k [n, d], b [n, n] from <path>   -> {"ok":true}
//   run bias|alibi <slope>  one timed call: bias adds the given b; alibi adds -slope |j - i|
//                           computed per row                                   -> {"ms":…}
//   rows <i>,<i>,…        the last result's rows                               -> {"rows":[[…],…]}
//   peak mul|fma <iterations>  bench/peak.cpp's probe natively, on 128-bit vectors (the width
//                           of wasm SIMD): the ceiling the wasm probes are checked against
//                                                                       -> {"ms":…,"flops":…}
#include <immintrin.h>

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

#ifndef RELPOS_NATIVE_BLOCK_BYTES
#define RELPOS_NATIVE_BLOCK_BYTES (1024 * 1024)
#endif
constexpr size_t kBlockBytes = RELPOS_NATIVE_BLOCK_BYTES;

struct Workload {
  int n = 0, d = 0;
  Matrix q, k, b, w;
  Eigen::ArrayXf keyIndex;  // 0, 1, …, n-1
};

bool load(Workload& x, int n, int d, const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  x.n = n;
  x.d = d;
  x.q.resize(n, d);
  x.k.resize(n, d);
  x.b.resize(n, n);
  x.w.resize(n, n);
  const size_t nd = static_cast<size_t>(n) * d, nn = static_cast<size_t>(n) * n;
  const bool ok = std::fread(x.q.data(), sizeof(float), nd, f) == nd &&
                  std::fread(x.k.data(), sizeof(float), nd, f) == nd &&
                  std::fread(x.b.data(), sizeof(float), nn, f) == nn;
  std::fclose(f);
  x.keyIndex = Eigen::ArrayXf::LinSpaced(n, 0.0f, static_cast<float>(n - 1));
  return ok;
}

// Rows per block: as many as fit in kBlockBytes of logits (at least 8, so Eigen's GEMM still works
// on a panel and not on single rows); 1 MiB, the L2 cache of one core here, measured fastest
// (docs/build.md, "Measurements behind the kernels").
int blockRows(int n) {
  return std::max(8, static_cast<int>(kBlockBytes / (sizeof(float) * static_cast<size_t>(n))));
}

double run(Workload& x, bool givenBias, float slope) {
  const auto start = std::chrono::steady_clock::now();
  const float scale = 1.0f / std::sqrt(static_cast<float>(x.d));
  const int rows = blockRows(x.n);
  for (int i0 = 0; i0 < x.n; i0 += rows) {
    const int count = std::min(rows, x.n - i0);
    auto block = x.w.middleRows(i0, count);
    block.noalias() = scale * (x.q.middleRows(i0, count) * x.k.transpose());
    for (int r = 0; r < count; ++r) {
      const int i = i0 + r;
      auto row = block.row(r).array();
      if (givenBias) {
        row += x.b.row(i).array();
      } else {
        row -= slope * (x.keyIndex - static_cast<float>(i)).abs().transpose();
      }
      row = (row - row.maxCoeff()).exp();
      row /= row.sum();
    }
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

constexpr int kPeakChains = 12;

// bench/peak.cpp's twelve chains acc = acc * m + c on four lanes, as mul then add or as one FMA;
// every chain feeds the result, so none is dead code. Not inlined and not vectorised further, so
// the loop stays on 128-bit registers (g++ would otherwise fuse chains into 512-bit ones), and
// mul then add stay two instructions (g++ contracts them into an FMA by default).
template <bool kFused>
__attribute__((noinline, optimize("no-tree-vectorize", "no-tree-slp-vectorize", "fp-contract=off"))) float peakChains(
    int iterations, float mScalar, float cScalar) {
  const __m128 m = _mm_set1_ps(mScalar), c = _mm_set1_ps(cScalar);
  __m128 acc[kPeakChains];
  for (int i = 0; i < kPeakChains; ++i) acc[i] = _mm_set1_ps(static_cast<float>(i + 1));
  for (int it = 0; it < iterations; ++it) {
    for (int i = 0; i < kPeakChains; ++i) {
      acc[i] = kFused ? _mm_fmadd_ps(acc[i], m, c) : _mm_add_ps(_mm_mul_ps(acc[i], m), c);
    }
  }
  __m128 sum = acc[0];
  for (int i = 1; i < kPeakChains; ++i) sum = _mm_add_ps(sum, acc[i]);
  alignas(16) float lanes[4];
  _mm_store_ps(lanes, sum);
  return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
}

// One timed probe call: {ms, flops} (a multiply and an add on four lanes per chain and round);
// the sum is printed so the work cannot be dropped.
void peak(bool fused, int iterations) {
  const auto start = std::chrono::steady_clock::now();
  const float sum =
      fused ? peakChains<true>(iterations, 0.999f, 0.001f) : peakChains<false>(iterations, 0.999f, 0.001f);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("{\"ms\":%.6f,\"flops\":%.0f,\"sum\":%.6g}\n", ms, 8.0 * kPeakChains * iterations,
              static_cast<double>(sum));
}

}  // namespace

int main() {
  Workload x;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string command;
    in >> command;
    if (command == "load") {
      int n = 0, d = 0;
      std::string path;
      in >> n >> d >> path;
      std::printf(load(x, n, d, path) ? "{\"ok\":true}\n" : "{\"error\":\"cannot read %s\"}\n", path.c_str());
    } else if (command == "run") {
      std::string kind;
      float slope = 0;
      in >> kind >> slope;
      std::printf("{\"ms\":%.6f}\n", run(x, kind == "bias", slope));
    } else if (command == "rows") {
      std::string list;
      in >> list;
      std::stringstream rows(list);
      std::string item;
      std::printf("{\"rows\":[");
      for (bool first = true; std::getline(rows, item, ','); first = false) {
        const int i = std::stoi(item);
        std::printf("%s[", first ? "" : ",");
        for (int j = 0; j < x.n; ++j) std::printf("%s%.9g", j ? "," : "", static_cast<double>(x.w(i, j)));
        std::printf("]");
      }
      std::printf("]}\n");
    } else if (command == "peak") {
      std::string kind;
      int iterations = 0;
      in >> kind >> iterations;
      peak(kind == "fma", iterations);
    } else {
      std::printf("{\"error\":\"unknown command\"}\n");
    }
    std::fflush(stdout);
  }
  return 0;
}
