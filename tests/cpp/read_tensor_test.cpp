// Tensors the caller keeps (Value::reader, the core's side of a given B or mask read from the
// caller's JS array): attention reads them a block of rows at a time, never whole, with the bits of
// the same tensor copied in; a bad value is the copied path's error; a copy of the Value (a job's)
// owns the floats, read once.
#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "relpos/relpos.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::wave;

namespace {

// Reads from a vector the test keeps, counting the floats and the largest single read.
class VectorReader : public TensorReader {
 public:
  explicit VectorReader(const std::vector<float>& values) : values_(values) {}
  void read(size_t offset, float* dst, size_t count) const override {
    std::copy_n(values_.data() + offset, count, dst);
    total += count;
    largest = std::max(largest, count);
  }
  mutable size_t total = 0, largest = 0;

 private:
  const std::vector<float>& values_;
};

struct Call {
  int64_t batch = 2, n = 300, m = 700, heads = 2, d = 8;
  std::vector<float> q = wave(static_cast<int>(batch * n * heads * d), 0.7, 0.1);
  std::vector<float> k = wave(static_cast<int>(batch * m * heads * d), 1.3, 0.4);
  std::vector<float> v = wave(static_cast<int>(batch * m * heads * d), 0.5, 1.1);

  Params params() const {
    Params p("relpos.attention");
    p.setNumber("heads", static_cast<double>(heads));
    p.setArray("q", q, {batch, n, heads * d});
    p.setArray("k", k, {batch, m, heads * d});
    p.setArray("v", v, {batch, m, heads * d});
    return p;
  }
};

}  // namespace

TEST(ReadTensor, BAndMaskOfEveryFormGiveTheCopiedBitsReadABlockAtATime) {
  const Call c;
  const int64_t nm = c.n * c.m;
  struct Form {
    const char* name;
    Shape shape;
    bool additive;
  };
  const std::vector<Form> forms = {{"B", {c.n, c.m}, false},
                                   {"B", {c.heads, c.n, c.m}, false},
                                   {"B", {c.batch, 1, c.n, c.m}, false},
                                   {"B", {c.batch, c.heads, c.n, c.m}, false},
                                   {"mask", {c.batch, c.heads, c.n, c.m}, true},
                                   {"mask", {c.batch, 1, 1, c.m}, true},
                                   {"mask", {c.batch, c.heads, 1, c.m}, false}};
  for (const Form& form : forms) {
    const int64_t count = elementCount(form.shape);
    std::vector<float> values = wave(static_cast<int>(count), 0.05, 0.3);
    for (size_t t = 0; t < values.size(); t += 7) values[t] = form.additive ? -kInf : 0.0f;
    if (std::string(form.name) == "mask" && !form.additive) {
      for (float& x : values) x = x == 0.0f ? 0.0f : 1.0f;
    }
    Params copied = c.params(), read = c.params();
    copied.setArray(form.name, values, form.shape);
    auto reader = std::make_shared<VectorReader>(values);
    read.setReadArray(form.name, reader, values.size(), form.shape);
    if (form.additive) {
      copied.setString("maskKind", "additive");
      read.setString("maskKind", "additive");
    }
    const Result want = compute("attention", "", copied), got = compute("attention", "", read);
    EXPECT_EQ(got.at("weights").f32, want.at("weights").f32) << shapeText(form.shape);
    EXPECT_EQ(got.at("output").f32, want.at("output").f32) << shapeText(form.shape);
    // Never the whole tensor at once (a block is at most 256 rows), each entry at most once per
    // sequence and head that reads it.
    EXPECT_LE(reader->largest, static_cast<size_t>(256 * c.m)) << shapeText(form.shape);
    EXPECT_LT(reader->largest, static_cast<size_t>(nm)) << shapeText(form.shape);
    EXPECT_LE(reader->total, static_cast<size_t>(c.batch * c.heads * nm)) << shapeText(form.shape);
  }
}

TEST(ReadTensor, ANaNOrPlusInfinityIsTheCopiedPathsError) {
  const Call c;
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    for (const char* name : {"B", "mask"}) {
      std::vector<float> values = wave(static_cast<int>(c.heads * c.n * c.m), 0.05, 0.3);
      values[static_cast<size_t>((c.n - 1) * c.m + 5)] = bad;  // the last block of the first head
      Params copied = c.params(), read = c.params();
      copied.setArray(name, values, {c.heads, c.n, c.m});
      read.setReadArray(name, std::make_shared<VectorReader>(values), values.size(), {c.heads, c.n, c.m});
      if (std::string(name) == "mask") {
        copied.setString("maskKind", "additive");
        read.setString("maskKind", "additive");
      }
      const std::string want = relpos::testing::failure("attention", "", copied).message;
      EXPECT_NE(want, "");
      EXPECT_EQ(relpos::testing::failure("attention", "", read).message, want);
    }
  }
}

TEST(ReadTensor, ACopyOwnsTheFloatsReadOnce) {
  const std::vector<float> values = wave(64, 0.3, 0.1);
  auto reader = std::make_shared<VectorReader>(values);
  Params p("relpos.attention");
  p.setReadArray("B", reader, values.size(), {8, 8});
  const Value copy = *p.find("B");  // a job's copy of its parameters
  EXPECT_EQ(copy.reader, nullptr);
  EXPECT_EQ(std::vector<float>(copy.data(), copy.data() + copy.size()), values);
  EXPECT_EQ(reader->total, values.size());
  EXPECT_EQ(std::vector<float>(p.find("B")->data(), p.find("B")->data() + 64), values);  // read once
  EXPECT_EQ(reader->total, values.size());
}

TEST(ReadTensor, AKeyPaddingMaskAboveOneBlockIsReadARowAtATime) {
  // [batch, heads, 1, m] with 2 x 2 x 20000 floats: above one block's scratch, so it is read one row
  // of m at a time, for each sequence, block of rows (4 rows at m = 20000: 3 blocks) and head.
  Call c;
  c.n = 12;
  c.m = 20000;
  c.q = wave(static_cast<int>(c.batch * c.n * c.heads * c.d), 0.7, 0.1);
  c.k = wave(static_cast<int>(c.batch * c.m * c.heads * c.d), 1.3, 0.4);
  c.v = wave(static_cast<int>(c.batch * c.m * c.heads * c.d), 0.5, 1.1);
  std::vector<float> values(static_cast<size_t>(c.batch * c.heads * c.m), 1.0f);
  for (size_t t = 0; t < values.size(); t += 3) values[t] = 0.0f;
  Params copied = c.params(), read = c.params();
  const Shape shape = {c.batch, c.heads, 1, c.m};
  copied.setArray("mask", values, shape);
  auto reader = std::make_shared<VectorReader>(values);
  read.setReadArray("mask", reader, values.size(), shape);
  const Result want = compute("attention", "", copied), got = compute("attention", "", read);
  EXPECT_EQ(got.at("weights").f32, want.at("weights").f32);
  EXPECT_EQ(got.at("output").f32, want.at("output").f32);
  EXPECT_EQ(reader->largest, static_cast<size_t>(c.m));
  EXPECT_EQ(reader->total, 3 * values.size());
}
