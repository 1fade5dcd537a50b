// Small helpers shared by the native tests: build Params, read results, catch the core's errors.
#pragma once
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "relpos/base/errors.hpp"
#include "relpos/kernels/kernels.hpp"
#include "relpos/lab/lab.hpp"
#include "relpos/ops/operations.hpp"
#include "relpos/schemes/registry.hpp"

namespace relpos::testing {

inline Params params(const std::string& op) {
  return Params("relpos." + op);
}

// Params of a call with the given numbers, e.g. with("scores", {{"n", 8}, {"d", 16}}).
inline Params with(const std::string& op, std::initializer_list<std::pair<const char*, double>> numbers) {
  Params p = params(op);
  for (const auto& [name, value] : numbers) p.setNumber(name, value);
  return p;
}

inline std::vector<float> data(const Result& r, const std::string& key = "data") {
  return r.at(key).f32;
}

// sin(rate * t + phase) for t < count: reproducible content for q, k and tables.
inline std::vector<float> wave(int count, double rate, double phase) {
  std::vector<float> out(count);
  for (int t = 0; t < count; ++t) out[t] = static_cast<float>(std::sin(rate * t + phase));
  return out;
}

// A [rows, cols] matrix of standard normal entries, reproducible from `seed`.
inline std::vector<float> randomMatrix(int64_t rows, int64_t cols, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> out(static_cast<size_t>(rows * cols));
  for (float& x : out) x = normal(rng);
  return out;
}

// Random queries q [n, d] and keys k [m, d] (seeds `seed`, `seed + 1`), and k packed for the kernels.
struct QueriesAndKeys {
  std::vector<float> q, k, panels;
};
inline QueriesAndKeys randomQueriesAndKeys(int64_t n, int64_t m, int64_t d, uint32_t seed) {
  QueriesAndKeys out{randomMatrix(n, d, seed), randomMatrix(m, d, seed + 1), {}};
  out.panels = kernels::packKeys(out.k.data(), m, d, d);
  return out;
}

// What a call threw: whether an ArgumentError, its kind and message.
struct Failure {
  bool thrown = false;
  ArgumentError::Kind kind = ArgumentError::Kind::Range;
  std::string message;
  bool names(const std::string& text) const { return message.find(text) != std::string::npos; }
};

inline Failure failure(const std::string& op, const std::string& id, const Params& p) {
  Failure f;
  try {
    compute(op, id, p);
  } catch (const ArgumentError& e) {
    f.thrown = true;
    f.kind = e.kind();
    f.message = e.what();
  }
  return f;
}

// `p` with `heads` and reproducible content for attention: q [n, heads·d], k and v [m, heads·d].
inline Params waveAttention(int64_t n, int64_t m, int64_t heads, int64_t d, Params p = Params("relpos.attention")) {
  p.setNumber("heads", static_cast<double>(heads));
  p.setArray("q", wave(static_cast<int>(n * heads * d), 0.7, 0.1), {n, heads * d});
  p.setArray("k", wave(static_cast<int>(m * heads * d), 1.3, 0.4), {m, heads * d});
  p.setArray("v", wave(static_cast<int>(m * heads * d), 0.5, 1.1), {m, heads * d});
  return p;
}

// Causal attention with a KV cache (5 queries after 9 keys) of reproducible content, 2 heads of
// `d`, with `scheme` ("" for none) and the scheme parameters in `p`.
inline Result attendContent(const std::string& scheme, Params p = Params("relpos.attention"), int64_t d = 8) {
  p = waveAttention(5, 9, 2, d, std::move(p));
  p.setBoolean("causal", true);
  return compute("attention", scheme, p);
}

// The training losses of a small lab run (copy task, L = 8) with `scheme`, step by step.
inline std::vector<double> labLosses(const std::string& scheme, int64_t steps = 60) {
  Params options = with("train", {{"length", 8}, {"steps", static_cast<double>(steps)}, {"batch", 8}, {"seed", 3}});
  options.setString("scheme", scheme);
  lab::Trainer trainer(lab::readConfig(options));
  std::vector<double> losses;
  for (int64_t s = 0; s < steps; ++s) losses.push_back(trainer.step());
  return losses;
}

// Whether a run learned: the mean of its last three losses below that of its first three.
inline bool learned(const std::vector<double>& losses) {
  const size_t n = losses.size();
  return n >= 6 && losses[n - 1] + losses[n - 2] + losses[n - 3] < losses[0] + losses[1] + losses[2];
}

}  // namespace relpos::testing
