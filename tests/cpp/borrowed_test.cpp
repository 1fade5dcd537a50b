// Tensors read in place (Value::borrowed, the core's side of rp.alloc): attention reads a borrowed
// q, k, v, B or P exactly as a copied one, refuses NaN / +Infinity in a borrowed B block by block
// with the copied path's message, and a job (attention or a pooled map) runs on its own copy of
// what it was lent.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "relpos/relpos.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::wave;

namespace {

struct Inputs {
  int64_t n, m, heads, d;
  std::vector<float> q, k, v, bias;
};

// n queries and m keys, `heads` heads of d, a per-head bias [heads, n, m] that masks some pairs.
Inputs inputs(int64_t n, int64_t m, int64_t heads, int64_t d) {
  Inputs in{n,
            m,
            heads,
            d,
            wave(static_cast<int>(n * heads * d), 0.7, 0.1),
            wave(static_cast<int>(m * heads * d), 1.3, 0.4),
            wave(static_cast<int>(m * heads * d), 0.5, 1.1),
            wave(static_cast<int>(heads * n * m), 0.05, 0.3)};
  for (size_t t = 0; t < in.bias.size(); t += 7) in.bias[t] = -std::numeric_limits<float>::infinity();
  return in;
}

Params given(const Inputs& in, bool borrowed) {
  Params p("relpos.attention");
  p.setNumber("heads", static_cast<double>(in.heads));
  const auto put = [&](const char* name, const std::vector<float>& values, Shape shape) {
    if (borrowed) {
      p.setBorrowedArray(name, values.data(), values.size(), std::move(shape));
    } else {
      p.setArray(name, values, std::move(shape));
    }
  };
  put("q", in.q, {in.n, in.heads * in.d});
  put("k", in.k, {in.m, in.heads * in.d});
  put("v", in.v, {in.m, in.heads * in.d});
  put("B", in.bias, {in.heads, in.n, in.m});
  return p;
}

}  // namespace

TEST(Borrowed, AttentionReadsThemAsItReadsCopies) {
  // m = 700: blocks of 92 rows, so n = 300 spans four blocks and the scan goes block by block.
  const Inputs in = inputs(300, 700, 2, 8);
  const Result copied = compute("attention", "", given(in, false));
  const Result borrowed = compute("attention", "", given(in, true));
  EXPECT_EQ(copied.at("weights").f32, borrowed.at("weights").f32);
  EXPECT_EQ(copied.at("output").f32, borrowed.at("output").f32);
}

TEST(Borrowed, ANaNInAnyBlockOfBIsRefusedAsInACopiedB) {
  Inputs in = inputs(300, 700, 2, 8);
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    // The first row, a row of the last block, and the second head's last entry.
    for (const size_t at : {size_t{3}, static_cast<size_t>(290 * 700 + 5), in.bias.size() - 1}) {
      Inputs poisoned = in;
      poisoned.bias[at] = bad;
      const std::string copied = relpos::testing::failure("attention", "", given(poisoned, false)).message;
      EXPECT_NE(copied, "");
      EXPECT_EQ(relpos::testing::failure("attention", "", given(poisoned, true)).message, copied) << at;
    }
  }
}

TEST(Borrowed, ASharedBIsCheckedForEverySequenceAndHead) {
  // B [n, m] serves both heads of both sequences; its last row is in the last block.
  const int64_t n = 300, m = 700, heads = 2, d = 8, batch = 2;
  std::vector<float> q = wave(static_cast<int>(batch * n * heads * d), 0.7, 0.1);
  std::vector<float> k = wave(static_cast<int>(batch * m * heads * d), 1.3, 0.4);
  std::vector<float> bias = wave(static_cast<int>(n * m), 0.05, 0.3);
  const auto call = [&](bool borrowed) {
    Params p("relpos.attention");
    p.setNumber("heads", heads);
    p.setArray("q", q, {batch, n, heads * d});
    p.setArray("k", k, {batch, m, heads * d});
    if (borrowed) {
      p.setBorrowedArray("B", bias.data(), bias.size(), {n, m});
    } else {
      p.setArray("B", bias, {n, m});
    }
    return p;
  };
  EXPECT_EQ(compute("attention", "", call(false)).at("weights").f32,
            compute("attention", "", call(true)).at("weights").f32);
  bias[(n - 1) * m + 3] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(relpos::testing::failure("attention", "", call(true)).message,
            "relpos.attention: B must hold finite numbers or -Infinity, got NaN");
}

TEST(Borrowed, AMapJobRunsOnItsOwnCopy) {
  const int64_t n = 64, d = 8;
  std::vector<float> q = wave(static_cast<int>(n * d), 0.7, 0.1), k = wave(static_cast<int>(n * d), 1.3, 0.4);
  const auto map = [&](bool borrowed) {
    Params p = relpos::testing::with("attentionMap", {{"n", n}, {"d", d}, {"size", 16}});
    p.setString("scheme", "rope");
    if (borrowed) {
      p.setBorrowedArray("q", q.data(), q.size(), {n, d});
      p.setBorrowedArray("k", k.data(), k.size(), {n, d});
    } else {
      p.setArray("q", q, {n, d});
      p.setArray("k", k, {n, d});
    }
    return startJob("attentionMap", p);
  };
  std::unique_ptr<Job> want = map(false), got = map(true);
  std::fill(q.begin(), q.end(), 0.0f);  // the lender's floats change before the job runs
  while (!want->done()) want->step(1 << 20);
  while (!got->done()) got->step(1 << 20);
  EXPECT_EQ(got->result().at("data").f32, want->result().at("data").f32);
}

TEST(Borrowed, AJobOwnsACopyOfWhatItWasLent) {
  Inputs in = inputs(40, 40, 2, 8);
  const Result want = compute("attention", "", given(in, false));
  std::unique_ptr<Job> job;
  {
    Params p = given(in, true);
    job = startJob("attention", p);
  }
  // The lender refills (or frees) its tensors while the job runs.
  std::fill(in.q.begin(), in.q.end(), 0.0f);
  std::fill(in.bias.begin(), in.bias.end(), std::numeric_limits<float>::quiet_NaN());
  while (!job->done()) job->step(1);
  const Result got = job->result();
  EXPECT_EQ(got.at("weights").f32, want.at("weights").f32);
  EXPECT_EQ(got.at("output").f32, want.at("output").f32);
}
