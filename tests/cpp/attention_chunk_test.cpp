// A chunked layer's block of query rows (attentionChunkSize: Llama-4's chunked layers) prepares its
// terms — a scheme's bias, a boolean mask turned additive, pair terms — for the keys its rows see,
// not for every key from 0 (ops/attention.cpp, blockKeys): counted here on a scheme's bias fill.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "relpos/ops/attention.hpp"
#include "relpos/schemes/registry.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::waveAttention;

namespace {

BiasFillFn alibiFill = nullptr;
double filledCells = 0;  // bias entries the run asked the scheme for

void countingFill(const Params& params, const BiasWindow& window, float* out) {
  filledCells += static_cast<double>(window.heads * window.rows * window.cols);
  alibiFill(params, window, out);
}

// ALiBi filled block by block (as a scheme that is not shift-invariant is), its fills counted.
Scheme countedAlibi() {
  Scheme s = findScheme("test", "alibi");
  alibiFill = s.fillBias;
  s.fillBias = countingFill;
  s.shiftInvariant = nullptr;
  return s;
}

Params chunkedCall(int64_t n, int64_t heads, int64_t d, int64_t chunk) {
  Params p = waveAttention(n, n, heads, d);
  p.setBoolean("causal", true);
  p.setNumber("attentionChunkSize", static_cast<double>(chunk));
  return p;
}

}  // namespace

TEST(AttentionChunks, ABlockPreparesTheBiasOfItsOwnChunksKeysOnly) {
  const Scheme scheme = countedAlibi();
  // n = m = 512: blocks of 128 rows (ops/attention.cpp, rowsPerBlock), each holding two chunks of
  // 64, whose rows see keys of their own chunk only: 128 keys a block, not 512.
  const int64_t n = 512, heads = 2, chunk = 64, block = 128;
  for (const bool weights : {true, false}) {
    Params p = chunkedCall(n, heads, 8, chunk);
    p.setBoolean("weights", weights);
    filledCells = 0;
    const Result r = attention(p, &scheme);
    EXPECT_EQ(filledCells, static_cast<double>(heads * n * block)) << "weights " << weights;
    for (float x : r.at("output").f32) ASSERT_TRUE(std::isfinite(x));
  }
  // Keys 0 .. m-1 for every block would have been heads * n * n = 524,288 cells.
}

TEST(AttentionChunks, TheBlockFillGivesTheBitsOfTheWholeFill) {
  // The same call unchunked but masked to the chunks (a boolean mask [n, m]): every block then
  // fills all the keys of its causal range, and the weights agree bit for bit.
  const Scheme scheme = countedAlibi();
  const int64_t n = 200, heads = 2, chunk = 48;
  Params chunked = chunkedCall(n, heads, 8, chunk);
  Params masked = chunkedCall(n, heads, 8, chunk);
  masked.erase("attentionChunkSize");
  std::vector<float> mask(static_cast<size_t>(n * n));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) mask[static_cast<size_t>(i * n + j)] = j / chunk == i / chunk ? 1.0f : 0.0f;
  }
  masked.setArray("mask", mask, {n, n});
  const Result a = attention(chunked, &scheme), b = attention(masked, &scheme);
  EXPECT_EQ(a.at("weights").f32, b.at("weights").f32);
  EXPECT_EQ(a.at("output").f32, b.at("output").f32);
}
