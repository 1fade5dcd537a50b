// queryRows (a pool's parts, docs/workers.md): rows [first, end) of an attention call equal those
// rows of the whole call bit for bit, and attentionCuts splits the rows by the keys they attend to.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "relpos/ops/attention.hpp"
#include "relpos/ops/operations.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::failure;
using relpos::testing::wave;
using relpos::testing::waveAttention;

namespace {

// Rows [a, b) along axis `axis` of a [outer..., rows, inner...] tensor.
std::vector<float> rowsOf(const Tensor& t, size_t axis, int64_t a, int64_t b) {
  int64_t outer = 1, inner = 1;
  for (size_t x = 0; x < axis; ++x) outer *= t.shape[x];
  for (size_t x = axis + 1; x < t.shape.size(); ++x) inner *= t.shape[x];
  const int64_t rows = t.shape[axis];
  std::vector<float> out;
  for (int64_t o = 0; o < outer; ++o) {
    out.insert(out.end(), t.f32.begin() + (o * rows + a) * inner, t.f32.begin() + (o * rows + b) * inner);
  }
  return out;
}

bool sameBits(const std::vector<float>& x, const std::vector<float>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0;
}

void expectRowsExact(const std::string& scheme, const Params& whole) {
  const Result all = compute("attention", scheme, whole);
  const int64_t n = whole.find("q")->shape[0];
  for (int64_t parts : {2, 3, 5}) {
    for (const RowCut& cut : attentionCuts(whole, parts)) {
      Params part = whole;
      part.setArray("queryRows", {static_cast<float>(cut.first), static_cast<float>(cut.end)}, {2});
      const Result rows = compute("attention", scheme, part);
      EXPECT_TRUE(sameBits(rows.at("weights").f32, rowsOf(all.at("weights"), 1, cut.first, cut.end)))
          << scheme << " rows " << cut.first << ".." << cut.end << " of " << n;
      EXPECT_TRUE(sameBits(rows.at("output").f32, rowsOf(all.at("output"), 0, cut.first, cut.end)));
    }
  }
}

}  // namespace

TEST(AttentionRows, RangesEqualTheWholeCallBitForBit) {
  // m = 300: blocks of 216 rows, so cuts fall inside blocks and on their edges.
  for (const std::string scheme : {"", "alibi", "rope", "t5", "shaw", "cope", "fire"}) {
    Params p = waveAttention(301, 300, 2, 8);
    p.setBoolean("causal", true);
    p.setNumber("slidingWindow", 37);
    expectRowsExact(scheme, p);
  }
  Params chunked = waveAttention(130, 130, 2, 8);
  chunked.setBoolean("causal", true);
  chunked.setNumber("attentionChunkSize", 24);
  chunked.setNumber("softcap", 5);
  chunked.setArray("sinks", {0.5f, -1.0f}, {2});
  expectRowsExact("rope", chunked);
  Params masked = waveAttention(64, 70, 2, 8);
  std::vector<float> mask(64 * 70);
  for (size_t t = 0; t < mask.size(); ++t) mask[t] = t % 7 == 0 ? 0.0f : 1.0f;
  masked.setArray("mask", mask, {64, 70});
  masked.setArray("positions", wave(64, 0, 3), {64});  // all at position 3
  masked.setArray("keyPositions", wave(70, 0, 1), {70});
  expectRowsExact("rope", masked);
}

TEST(AttentionRows, RangesOffTheTilesAreRangeErrors) {
  const Params p = waveAttention(10, 10, 1, 4);
  for (const std::vector<float>& bad : std::vector<std::vector<float>>{{1, 4}, {0, 3}, {4, 4}, {0, 11}, {-4, 4}, {0}}) {
    Params q = p;
    q.setArray("queryRows", bad, {static_cast<int64_t>(bad.size())});
    const auto f = failure("attention", "", q);
    EXPECT_TRUE(f.thrown && f.names("relpos.attention: queryRows must be [first, end)")) << f.message;
  }
  Params last = p;
  last.setArray("queryRows", {8, 10}, {2});  // the last, partial tile
  EXPECT_EQ(compute("attention", "", last).at("weights").shape, (Shape{1, 2, 10}));
}

TEST(AttentionRows, CutsSplitTheKeysSeenEvenly) {
  // A causal window of 256 at n = 8192: 2,064,512 keys seen, 1,032,256 a part.
  Params p = waveAttention(8192, 8192, 1, 4);
  p.setBoolean("causal", true);
  p.setNumber("slidingWindow", 256);
  const std::vector<RowCut> two = attentionCuts(p, 2);
  ASSERT_EQ(two.size(), 2u);
  const double a = attentionKeysSeen(p, two[0].first, two[0].end);
  const double b = attentionKeysSeen(p, two[1].first, two[1].end);
  EXPECT_EQ(a + b, 2064512.0);
  EXPECT_LE(std::abs(a - b), 4 * 256.0);  // one register tile of rows
  // A chunked layer: rows attend to their chunk only.
  Params chunked = waveAttention(64, 64, 1, 4);
  chunked.setBoolean("causal", true);
  chunked.setNumber("attentionChunkSize", 16);
  EXPECT_EQ(attentionKeysSeen(chunked, 0, 64), 4 * (16 * 17 / 2.0));
  EXPECT_EQ(attentionKeysSeen(chunked, 16, 17), 1.0);
  // Cuts tile the rows on register tiles, never empty, at most one per tile.
  for (int64_t parts = 1; parts < 12; ++parts) {
    const std::vector<RowCut> cuts = attentionCuts(waveAttention(30, 5, 1, 4), parts);
    ASSERT_EQ(static_cast<int64_t>(cuts.size()), std::min<int64_t>(parts, 8));
    int64_t at = 0;
    for (const RowCut& c : cuts) {
      EXPECT_EQ(c.first, at);
      EXPECT_GT(c.end, c.first);
      EXPECT_TRUE(c.end % 4 == 0 || c.end == 30);
      at = c.end;
    }
    EXPECT_EQ(at, 30);
  }
  EXPECT_TRUE(attentionCuts(Params("relpos.attention"), 2).empty());  // no q: the call reports it
}
