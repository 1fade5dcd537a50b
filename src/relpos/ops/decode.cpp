#include "relpos/ops/decode.hpp"

#include <algorithm>
#include <memory>
#include <tuple>
#include <utility>

#include "relpos/base/errors.hpp"
#include "relpos/kernels/kernels.hpp"
#include "relpos/ops/operations.hpp"

namespace relpos {

namespace {

// Whether two plans rotate every key alike: every field of RotaryPlan (kernels/rotary.hpp).
bool samePlan(const RotaryPlan& a, const RotaryPlan& b) {
  return a.invFreq == b.invFreq && a.attentionFactor == b.attentionFactor && a.rotaryDim == b.rotaryDim &&
         a.offset == b.offset && a.interleaved == b.interleaved && a.gridWidth == b.gridWidth && a.axis == b.axis &&
         a.xposZeta == b.xposZeta && a.xposScaleBase == b.xposScaleBase && a.xposCenter == b.xposCenter &&
         a.keyRole == b.keyRole;
}

// The capacity for `needed` elements: `capacity` when it holds them, else a quarter more than it
// (or `needed`, if more). Geometric, so the elements held move amortised O(1) times each; a quarter,
// not double, because the cache holds its keys twice: doubling left two caches of the Llama-3.1-8B
// shape at 32,768 keys asking for 1.5 GB of the 2 GB heap a few steps later (bench/decode.mjs ran
// out of memory).
size_t grown(size_t capacity, size_t needed) {
  return needed <= capacity ? capacity : std::max(needed, capacity + capacity / 4);
}

Value emptyRows(int64_t width) {
  Value value;
  value.type = Value::Type::Array;
  value.nonFinite = NonFinite::None;
  value.shape = {0, width};
  return value;
}

}  // namespace

KvCache::KvCache(int64_t kvHeads, int64_t d, int64_t dv)
    : kvHeads_(kvHeads), d_(d), dv_(dv), k_(emptyRows(kvHeads * d)), v_(emptyRows(kvHeads * dv)) {}

int64_t KvCache::append(const float* k, const float* v, int64_t rows) {
  for (auto [from, into, width] : {std::make_tuple(k, &k_, kvHeads_ * d_), std::make_tuple(v, &v_, kvHeads_ * dv_)}) {
    const size_t old = into->array.size();
    into->array.reserve(grown(into->array.capacity(), old + static_cast<size_t>(rows * width)));
    into->array.resize(old + static_cast<size_t>(rows * width));
    std::copy_n(from, rows * width, into->array.begin() + static_cast<std::ptrdiff_t>(old));
    into->shape = {length_ + rows, width};
  }
  length_ += rows;
  keyRows_ = k_.array.data();
  // Keys already packed in some form take the new ones in it now: rotated once, when appended.
  if (capacity_ > 0 && packed_ > 0) {
    grow(length_);
    packRange(packed_, length_);
  }
  return length_;
}

void KvCache::grow(int64_t keys) {
  if (keys <= capacity_) return;
  const auto capacity = std::max<int64_t>(
      static_cast<int64_t>(grown(static_cast<size_t>(capacity_), static_cast<size_t>(keys))), kernels::kPanel * 32);
  const int64_t rounded = (capacity + kernels::kPanel - 1) / kernels::kPanel * kernels::kPanel;
  std::vector<float> panels(static_cast<size_t>(kvHeads_ * rounded * d_), 0.0f);
  const int64_t used = kernels::packedSize(packed_, d_);
  for (int64_t g = 0; g < kvHeads_; ++g) {
    std::copy_n(panels_.data() + g * capacity_ * d_, used, panels.data() + g * rounded * d_);
  }
  panels_ = std::move(panels);
  capacity_ = rounded;
}

// Packs keys [from, to) of every kv head into their panels, rotated by plan_ when rotated_ (the
// rotation of the call's own key table: the same floats for a position, whatever table holds it).
void KvCache::packRange(int64_t from, int64_t to) {
  if (to <= from) return;
  const int64_t width = kvHeads_ * d_;
  std::vector<float> row(static_cast<size_t>(d_));
  const RotaryTable* table = nullptr;
  std::unique_ptr<RotaryTable> own;
  if (rotated_) {
    own = std::make_unique<RotaryTable>(plan_, from, to - from, false);
    table = own.get();
  }
  for (int64_t g = 0; g < kvHeads_; ++g) {
    float* head = panels_.data() + g * capacity_ * d_;
    for (int64_t j = from; j < to; ++j) {
      std::copy_n(keyRows_ + j * width + g * d_, d_, row.data());
      if (table) table->apply(j, row.data());
      float* panel = head + (j / kernels::kPanel) * d_ * kernels::kPanel + j % kernels::kPanel;
      for (int64_t c = 0; c < d_; ++c) panel[c * kernels::kPanel] = row[static_cast<size_t>(c)];
    }
  }
  packed_ = to;
}

const float* KvCache::panels(const RotaryPlan* plan, int64_t m, int64_t d, int64_t& headStride) {
  if (m != length_ || d != d_) return nullptr;
  const bool rotated = plan != nullptr;
  if (rotated != rotated_ || (rotated && !samePlan(*plan, plan_))) {
    // Another form: every key again (zeros first, as packKeys pads a panel's unused keys).
    rotated_ = rotated;
    if (rotated) plan_ = *plan;
    std::fill(panels_.begin(), panels_.end(), 0.0f);
    packed_ = 0;
  }
  grow(length_);
  packRange(packed_, length_);
  headStride = capacity_ * d_;
  return panels_.data();
}

Result KvCache::attention(const std::string& id, Params& params, WeightsSink* sink) {
  params.set("k", std::move(k_));
  params.set("v", std::move(v_));
  // The rows go back to the cache however the call ends.
  struct Back {
    Params& params;
    Value& k;
    Value& v;
    ~Back() {
      k = std::move(const_cast<Value&>(*params.find("k")));
      v = std::move(const_cast<Value&>(*params.find("v")));
    }
  } back{params, k_, v_};
  return compute("attention", id, params, sink, this);
}

Result attentionBatch(const std::vector<KvCache*>& caches, const std::vector<int64_t>& rows, const std::string& id,
                      Params& params) {
  const Value* given = params.find("q");
  int64_t total = 0;
  for (int64_t r : rows) total += std::max<int64_t>(r, 0);
  if (caches.size() != rows.size() || !given || given->type != Value::Type::Array || given->shape.size() != 2 ||
      given->shape[0] != total || total == 0) {
    throwRange(params.where() + ": q must hold the " + std::to_string(total) +
               " query rows of the batch's sequences, one after another");
  }
  // The whole q stays here while each sequence borrows its rows, and goes back however the call ends.
  struct Back {
    Params& params;
    Value all;
    ~Back() { params.set("q", std::move(all)); }
  } back{params, std::move(const_cast<Value&>(*given))};
  const int64_t width = back.all.shape[1];
  Tensor output;
  int64_t at = 0;
  for (size_t s = 0; s < caches.size(); ++s) {
    if (rows[s] <= 0) continue;
    Value q;
    q.type = Value::Type::Array;
    q.shape = {rows[s], width};
    q.borrowed = back.all.data() + at * width;
    q.borrowedSize = static_cast<size_t>(rows[s] * width);
    // Finite when the whole is; else its rows are scanned as any q's.
    q.nonFinite = back.all.nonFinite == NonFinite::None ? NonFinite::None : NonFinite::Unknown;
    params.set("q", std::move(q));
    Result one = caches[s]->attention(id, params, nullptr);
    Tensor& part = one.at("output");
    if (output.shape.empty()) output = Tensor::floats({total, part.shape[1]});
    std::copy(part.f32.begin(), part.f32.end(), output.f32.begin() + at * part.shape[1]);
    at += rows[s];
  }
  Result result;
  result.emplace("output", std::move(output));
  return result;
}

}  // namespace relpos
