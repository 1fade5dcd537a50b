// The relaxed build's fused kernels are reached through an entry the binding registers
// (relpos::setFusedRowsEntry, bindings/core_bindings.cpp), not through an Emscripten import in
// src/: natively the same path runs with an entry of our own.
#include <gtest/gtest.h>

#include <vector>

#include "relpos/kernels/fused_call.h"
#include "relpos/kernels/kernels.hpp"
#include "relpos/relpos.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::randomQueriesAndKeys;

namespace {

std::vector<RelposFusedCall> seen;

// Takes every whole tile it is given and writes 7 into its rows' columns.
int writeSevens(const RelposFusedCall* call) {
  seen.push_back(*call);
  for (int32_t r = 0; r < call->rows; ++r) {
    for (int32_t j = 0; j < call->m; ++j) call->out[static_cast<int64_t>(r) * call->ldo + j] = 7.0f;
  }
  return call->rows;
}

// Declines every call: the core's own kernels do the rows.
int declines(const RelposFusedCall* call) {
  seen.push_back(*call);
  return 0;
}

struct Unregister {
  ~Unregister() { relpos::setFusedRowsEntry(nullptr); }
};

}  // namespace

TEST(FusedEntry, TheRegisteredEntryGetsTheWholeTilesAndTheCoreDoesTheRest) {
  const int64_t n = 10, m = 13, d = 8;
  const auto [q, k, panels] = randomQueriesAndKeys(n, m, d, 1);
  kernels::LogitSpec spec;
  spec.scale = 0.5f;
  spec.keys = {true, m - n, 0};
  std::vector<float> plain(static_cast<size_t>(n * m)), fused(plain.size());
  kernels::softmaxWeights(q.data(), d, 0, n, panels.data(), m, d, spec, plain.data(), m);

  const Unregister unregister;
  seen.clear();
  relpos::setFusedRowsEntry(&writeSevens);
  kernels::softmaxWeights(q.data(), d, 0, n, panels.data(), m, d, spec, fused.data(), m);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].rows, 8);  // two whole tiles of 4; the last 2 rows stay with the core
  EXPECT_EQ(seen[0].first, 0);
  EXPECT_EQ(seen[0].m, m);
  EXPECT_EQ(seen[0].d, d);
  EXPECT_EQ(seen[0].causal, 1);
  EXPECT_EQ(seen[0].queryOffset, m - n);
  EXPECT_EQ(seen[0].mode, RELPOS_FUSED_WEIGHTS);
  EXPECT_FLOAT_EQ(seen[0].scale, 0.5f);
  for (int64_t t = 0; t < 8 * m; ++t) EXPECT_EQ(fused[t], 7.0f) << t;
  for (int64_t t = 8 * m; t < n * m; ++t) EXPECT_EQ(fused[t], plain[t]) << t;

  // An entry that declines leaves every row to the core, bit for bit.
  seen.clear();
  relpos::setFusedRowsEntry(&declines);
  kernels::softmaxWeights(q.data(), d, 0, n, panels.data(), m, d, spec, fused.data(), m);
  EXPECT_EQ(seen.size(), 1u);
  for (int64_t t = 0; t < n * m; ++t) EXPECT_EQ(fused[t], plain[t]) << t;

  // Unregistered: never called.
  seen.clear();
  relpos::setFusedRowsEntry(nullptr);
  kernels::softmaxWeights(q.data(), d, 0, n, panels.data(), m, d, spec, fused.data(), m);
  EXPECT_TRUE(seen.empty());
}
