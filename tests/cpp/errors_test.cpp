// Errors that lead to the fix: unknown names with "did you mean" (Hugging Face and PyTorch names,
// case and snake_case, edit distance) and every allowed name listed; matrices read with leading
// extents of 1 dropped and shapes shown as received; attention modes that lack their term; and the
// work budget of synchronous calls, checked by compute() from the operation table.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "relpos/analysis/analysis.hpp"
#include "relpos/base/names.hpp"
#include "relpos/ops/operations.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::failure;
using relpos::testing::Failure;
using relpos::testing::params;
using relpos::testing::with;

namespace {

std::vector<std::string> ids() {
  std::vector<std::string> out;
  for (const auto& s : catalogue()) out.push_back(s.id);
  return out;
}

std::string suggestion(const std::string& name, const std::vector<std::string>& known) {
  const auto out = suggestNames(name, known);
  return out.empty() ? "" : out.front();
}

}  // namespace

TEST(DidYouMean, NamesFromHuggingFaceAndPyTorch) {
  const std::vector<std::string> rope = {"base", "causal", "d", "heads", "layout", "n", "positions", "rotaryDim"};
  EXPECT_EQ(suggestion("theta", rope), "base");
  EXPECT_EQ(suggestion("rope_theta", rope), "base");
  EXPECT_EQ(suggestion("head_dim", rope), "d");
  EXPECT_EQ(suggestion("num_attention_heads", rope), "heads");
  EXPECT_EQ(suggestion("partial_rotary_factor", rope), "rotaryDim");
  EXPECT_EQ(suggestion("position_ids", rope), "positions");
  EXPECT_EQ(suggestion("is_causal", rope), "causal");
  // max_position_embeddings is a scaling's original length where there is one, else the length.
  EXPECT_EQ(suggestion("max_position_embeddings", rope), "n");
  EXPECT_EQ(suggestion("max_position_embeddings", {"factor", "originalMaxPositionEmbeddings", "n"}),
            "originalMaxPositionEmbeddings");
  EXPECT_EQ(suggestion("max_position_embeddings", {"d", "positions", "seqLen"}), "seqLen");
}

TEST(DidYouMean, CaseSnakeCaseAndMisspellings) {
  EXPECT_EQ(suggestion("rotary_dim", {"d", "rotaryDim"}), "rotaryDim");
  EXPECT_EQ(suggestion("ROTARYDIM", {"d", "rotaryDim"}), "rotaryDim");
  EXPECT_EQ(suggestion("query-offset", {"queryOffset", "q"}), "queryOffset");
  EXPECT_EQ(suggestion("sheme", {"k", "params", "q", "scheme"}), "scheme");
  EXPECT_EQ(suggestion("haeds", {"heads", "n"}), "heads");
  EXPECT_EQ(suggestion("lenght", {"n", "seqLen"}), "n");  // through the table, after the swap
  // Nothing close: no suggestion rather than a wild one.
  EXPECT_EQ(suggestion("colour", {"n", "heads", "causal"}), "");
  EXPECT_EQ(suggestion("x", {"n", "d"}), "");
  EXPECT_EQ(editDistance("sheme", "scheme"), 1u);
  EXPECT_EQ(editDistance("haeds", "heads"), 1u);  // a swap of neighbours is one edit
}

TEST(DidYouMean, SchemeIds) {
  const std::vector<std::string> known = ids();
  EXPECT_EQ(suggestion("ALiBi", known), "alibi");
  EXPECT_EQ(suggestion("RoPE", known), "rope");
  EXPECT_EQ(suggestion("llama3", known), "rope-llama3");
  EXPECT_EQ(suggestion("yarn", known), "rope-yarn");
  EXPECT_EQ(suggestion("longrope", known), "rope-longrope");
  EXPECT_EQ(suggestion("rope_yarn", known), "rope-yarn");
  EXPECT_EQ(suggestion("default", known), "rope");
  EXPECT_EQ(suggestion("dynamic", known), "rope-dynamic");
  EXPECT_EQ(suggestion("transfo-xl", known), "transformer-xl");
  EXPECT_EQ(suggestion("sinusoid", known), "sinusoidal");
  EXPECT_EQ(suggestion("bogus", known), "");
}

TEST(DidYouMean, TheOneMessageListsEveryAllowedName) {
  Failure f = failure("bias", "alibi", with("bias", {{"n", 4}, {"theta", 2}}));
  ASSERT_TRUE(f.thrown);
  EXPECT_EQ(f.kind, ArgumentError::Kind::Range);
  EXPECT_EQ(f.message.rfind("relpos.bias: unknown parameter 'theta'; allowed: ", 0), 0u) << f.message;

  f = failure("scores", "rope", with("scores", {{"n", 4}, {"theta", 2}}));
  EXPECT_EQ(f.message.rfind("relpos.scores: unknown parameter 'theta'; did you mean 'base'? allowed: ", 0), 0u)
      << f.message;
  // The JS entry's own options are listed too: a misspelt scheme suggests it.
  Params attention = params("attention");
  attention.setArray("q", {1, 0}, {1, 2});
  attention.setArray("k", {1, 0}, {1, 2});
  attention.setString("sheme", "rope");
  f = failure("attention", "", attention);
  EXPECT_NE(f.message.find("unknown parameter 'sheme'; did you mean 'scheme'?"), std::string::npos) << f.message;
  for (const char* name : {"'scheme'", "'params'", "'view'", "'q'", "'mode'"}) {
    EXPECT_NE(f.message.find(name), std::string::npos) << name << " in " << f.message;
  }

  f = failure("bias", "ALiBi", with("bias", {{"n", 4}}));
  EXPECT_EQ(
      f.message.rfind("relpos.bias: unknown scheme id 'ALiBi'; did you mean 'alibi'? known ids: 'sinusoidal', ", 0), 0u)
      << f.message;
  f = failure("frequencies", "yarn", with("frequencies", {{"d", 8}}));
  EXPECT_NE(f.message.find("did you mean 'rope-yarn'?"), std::string::npos) << f.message;
}

TEST(Shapes, MatricesDropLeadingOnesAndErrorsShowTheShapeReceived) {
  // rp.scores returns [heads, n, n]; one head of it, [1, n, n], is the matrix svd takes.
  const Result scores = compute("scores", "rope", with("scores", {{"n", 6}, {"d", 8}}));
  Params svd("relpos.analysis.svd");
  svd.setArray("M", scores.at("data").f32, scores.at("data").shape);
  ASSERT_EQ(scores.at("data").shape, (Shape{1, 6, 6}));
  const Result r = analyze("svd", svd);
  EXPECT_EQ(r.at("singularValues").f32.size(), 6u);

  Params cube("relpos.analysis.svd");
  cube.setArray("M", std::vector<float>(2 * 3 * 3, 1.0f), {2, 3, 3});
  try {
    analyze("svd", cube);
    ADD_FAILURE() << "a [2, 3, 3] M was accepted";
  } catch (const ArgumentError& e) {
    EXPECT_EQ(std::string(e.what()),
              "relpos.analysis.svd: M must be a tensor of shape [rows, cols], got shape [2, 3, 3]");
  }
  EXPECT_EQ(squeezeLeading({1, 1, 4, 5}, 2), (Shape{4, 5}));
  EXPECT_EQ(squeezeLeading({2, 4, 5}, 2), (Shape{2, 4, 5}));
  EXPECT_EQ(squeezeLeading({1, 5}, 2), (Shape{1, 5}));
}

TEST(AttentionModes, ImplicitOrMixedWithoutAPositionalTermIsRefused) {
  Params p = params("attention");
  p.setArray("q", {1, 0, 0, 1}, {2, 2});
  p.setArray("k", {1, 0, 0, 1}, {2, 2});
  p.setString("mode", "implicit");
  Failure f = failure("attention", "", p);
  ASSERT_TRUE(f.thrown);
  EXPECT_EQ(f.kind, ArgumentError::Kind::Range);
  EXPECT_EQ(f.message,
            "relpos.attention: mode 'implicit' needs position vectors P or a scheme with a positional term, got no P, "
            "no B and no scheme");
  p.setString("mode", "mixed");
  f = failure("attention", "nope", p);
  EXPECT_EQ(f.message,
            "relpos.attention: mode 'mixed' needs position vectors P, a bias B or a scheme with a positional term, got "
            "scheme 'nope', which has none");
  // With a term, or in the default (explicit) form, plain content attention is fine.
  p.setArray("P", {0.5f, 0.5f, 0.25f, 0.25f}, {2, 2});
  EXPECT_NO_THROW(compute("attention", "", p));
  p.erase("P");
  p.erase("mode");
  EXPECT_NO_THROW(compute("attention", "", p));
}

TEST(WorkBudget, SynchronousCallsOverTheBudgetAreRefusedBeforeDispatch) {
  // rope scores, a scalar loop: n^2 (d + heads) multiply-adds against 2^30.
  const Params over = with("scores", {{"n", 1024}, {"d", 1024}});  // 1024^2 * 1025 > 2^30
  EXPECT_GT(workOf("scores", "rope", over), kSyncScalarWorkBudget);
  Failure f = failure("scores", "rope", over);
  ASSERT_TRUE(f.thrown);
  EXPECT_EQ(f.kind, ArgumentError::Kind::Range);
  EXPECT_EQ(f.message.rfind("relpos.scores: this call needs about 1.07e+09 multiply-adds, over the synchronous budget "
                            "of 2^30 = 1073741824; run it in the worker",
                            0),
            0u)
      << f.message;
  EXPECT_NE(f.message.find("rp.unbounded()"), std::string::npos);
  EXPECT_LT(workOf("scores", "rope", with("scores", {{"n", 1024}, {"d", 1022}})), kSyncScalarWorkBudget);
  // The boundary: a call of exactly its budget runs, one multiply-add less is refused.
  Params small = with("scores", {{"n", 8}, {"d", 8}});  // 8^2 * 9 = 576
  small.setWorkBudget(576);
  EXPECT_FALSE(failure("scores", "rope", small).thrown);
  small.setWorkBudget(575);
  EXPECT_TRUE(failure("scores", "rope", small).thrown);

  // Attention runs in the SIMD kernels: 2^34.
  Params big = params("attention");
  big.setArray("q", std::vector<float>(2048 * 4096, 0.0f), {2048, 4096});
  big.setArray("k", std::vector<float>(2048 * 4096, 0.0f), {2048, 4096});
  big.setArray("v", std::vector<float>(2048 * 4096, 0.0f), {2048, 4096});
  f = failure("attention", "", big);
  EXPECT_EQ(f.message.rfind("relpos.attention: this call needs about 3.44e+10 multiply-adds, over the synchronous "
                            "budget of 2^34 = 17179869184",
                            0),
            0u)
      << f.message;

  // Attention: batch * heads * visible keys * (dh + dv); causal halves the visible keys.
  Params attention = params("attention");
  attention.setArray("q", {}, {4096, 1024});
  attention.setArray("k", {}, {4096, 1024});
  attention.setArray("v", {}, {4096, 1024});
  EXPECT_DOUBLE_EQ(workOf("attention", "", attention), 4096.0 * 4096 * 2048);
  attention.setBoolean("causal", true);
  EXPECT_DOUBLE_EQ(workOf("attention", "", attention), 4096.0 * 4097 / 2 * 2048);
  attention.setNumber("slidingWindow", 16);
  EXPECT_DOUBLE_EQ(workOf("attention", "", attention), (4096.0 * 16 - 16 * 15 / 2) * 2048);

  // Every operation in the table estimates its work.
  for (const auto& op : operations()) EXPECT_NE(op.work, nullptr) << op.name;
}

TEST(WorkBudget, LiftedTheCallRunsAndMemoryLimitsStillHold) {
  Params p = with("scores", {{"n", 64}, {"d", 8}});
  p.setWorkBudget(1000);  // 64^2 * 9 = 36864 multiply-adds
  EXPECT_TRUE(failure("scores", "rope", p).thrown);
  p.setWorkBudget(std::numeric_limits<double>::infinity());
  EXPECT_NO_THROW(compute("scores", "rope", p));
}
