// relpos::KvCache (src/relpos/ops/decode.hpp) natively: each decode step over the cache, whose keys
// are packed and rotated when appended, equals attention() over the same rows handed over whole,
// bit for bit — for plain keys, RoPE, and dynamic NTK (whose plan changes as the cache grows).
#include "relpos/ops/decode.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "relpos/ops/operations.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::wave;

namespace {

constexpr int64_t kHeads = 4, kKvHeads = 2, kD = 8;

Params stepParams(const std::string& id, const std::vector<float>& q) {
  Params p("relpos.attention");
  p.setNumber("heads", kHeads);
  p.setNumber("kvHeads", kKvHeads);
  p.setBoolean("causal", true);
  p.setBoolean("weights", false);
  if (id == "rope-dynamic") {
    p.setNumber("factor", 2);
    p.setNumber("originalMaxPositionEmbeddings", 6);
  }
  p.setArray("q", q, {1, kHeads * kD});
  return p;
}

void expectStepsMatch(const std::string& id) {
  KvCache cache(kKvHeads, kD, kD);
  std::vector<float> k, v;
  for (int step = 0; step < 10; ++step) {
    const int64_t rows = step == 0 ? 3 : 1;
    const std::vector<float> newK = wave(static_cast<int>(rows * kKvHeads * kD), 1.3, 0.4 + step);
    const std::vector<float> newV = wave(static_cast<int>(rows * kKvHeads * kD), 0.5, 1.1 + step);
    cache.append(newK.data(), newV.data(), rows);
    k.insert(k.end(), newK.begin(), newK.end());
    v.insert(v.end(), newV.begin(), newV.end());
    const std::vector<float> q = wave(static_cast<int>(kHeads * kD), 0.7, 0.1 + step);
    Params cached = stepParams(id, q);
    const Result got = cache.attention(id, cached, nullptr);
    Params whole = stepParams(id, q);
    const int64_t m = static_cast<int64_t>(k.size()) / (kKvHeads * kD);
    whole.setArray("k", k, {m, kKvHeads * kD});
    whole.setArray("v", v, {m, kKvHeads * kD});
    const Result want = compute("attention", id, whole);
    ASSERT_EQ(cache.length(), m);
    EXPECT_EQ(got.at("output").f32, want.at("output").f32) << id << " step " << step;
  }
}

}  // namespace

TEST(KvCache, PlainStepsEqualAttentionOverTheWholeRows) {
  expectStepsMatch("");
}

TEST(KvCache, RopeStepsEqualAttentionWithKeysRotatedOnceWhenAppended) {
  expectStepsMatch("rope");
}

TEST(KvCache, DynamicNtkStepsEqualAttentionAsTheScalingChanges) {
  expectStepsMatch("rope-dynamic");
}

// attentionBatch: sequences of different lengths in one call, each sequence's rows those of its
// cache's own step, bit for bit; a q whose rows are not the batch's is refused, and q is kept.
TEST(KvCache, BatchStepEqualsEachSequenceAlone) {
  KvCache a(kKvHeads, kD, kD), b(kKvHeads, kD, kD), c(kKvHeads, kD, kD);
  const std::vector<KvCache*> caches = {&a, &b, &c};
  for (int s = 0; s < 3; ++s) {
    const int64_t rows = 2 + 3 * s;
    const std::vector<float> k = wave(static_cast<int>(rows * kKvHeads * kD), 1.3, 0.4 + s);
    const std::vector<float> v = wave(static_cast<int>(rows * kKvHeads * kD), 0.5, 1.1 + s);
    caches[static_cast<size_t>(s)]->append(k.data(), v.data(), rows);
  }
  const std::vector<int64_t> rows = {1, 0, 2};  // sequence 1 has no query rows this step
  const std::vector<float> q = wave(static_cast<int>(3 * kHeads * kD), 0.7, 0.1);
  Params batch = stepParams("rope", q);
  batch.setArray("q", q, {3, kHeads * kD});
  const Result got = attentionBatch(caches, rows, "rope", batch);
  ASSERT_EQ(got.at("output").shape, (Shape{3, kHeads * kD}));
  EXPECT_EQ(batch.find("q")->shape, (Shape{3, kHeads * kD}));
  int64_t first = 0;
  for (size_t s = 0; s < 3; ++s) {
    if (rows[s] == 0) continue;
    const std::vector<float> own(q.begin() + first * kHeads * kD, q.begin() + (first + rows[s]) * kHeads * kD);
    Params alone = stepParams("rope", own);
    alone.setArray("q", own, {rows[s], kHeads * kD});
    const std::vector<float> want = caches[s]->attention("rope", alone, nullptr).at("output").f32;
    const std::vector<float> mine(got.at("output").f32.begin() + first * kHeads * kD,
                                  got.at("output").f32.begin() + (first + rows[s]) * kHeads * kD);
    EXPECT_EQ(mine, want) << "sequence " << s;
    first += rows[s];
  }
  Params wrong = stepParams("rope", q);
  wrong.setArray("q", q, {3, kHeads * kD});
  EXPECT_THROW(attentionBatch({&a, &b}, {1, 1}, "rope", wrong), std::exception);
}
