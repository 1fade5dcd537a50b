#include "relpos/ops/attention_map.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <set>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/rng.hpp"
#include "relpos/kernels/kernels.hpp"
#include "relpos/kernels/rotary.hpp"
#include "relpos/kernels/simd.hpp"
#include "relpos/schemes/registry.hpp"
#include "relpos/schemes/rotary_family.hpp"

namespace relpos {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

const ParamInfo kSize = integerParam("size", 512, 1, 4096, "side of the pooled map");
const ParamInfo kPool = choiceParam("pool", "max|mean", "how a tile of weights becomes one cell");
const ParamInfo kHead = integerParam("head", 0, 0, 1023, "which head to map");
const ParamInfo kD = withDefault(common::d(), 64, 4096);
const ParamInfo kSeed = integerParam("seed", 0, 0, 9007199254740991.0, "seed of random N(0,1) queries and keys");
const ParamInfo kMapRows = arrayParam("mapRows", "rows [first, end) of the pooled map to compute; the others stay 0");

// Tile t of `size` covers [bound(t), bound(t + 1)) of n positions.
std::vector<int64_t> tileBounds(int64_t n, int64_t size) {
  std::vector<int64_t> bounds(static_cast<size_t>(size + 1));
  for (int64_t t = 0; t <= size; ++t) bounds[t] = t * n / size;
  return bounds;
}

// Reproducible N(0,1) content for a seed: SplitMix64 uniforms (u1 shifted into (0, 1)) and Box–Muller.
auto normalStream(uint64_t seed) {
  return NormalPairs([bits = SplitMix64(seed)]() mutable {
    const double u1 = (static_cast<double>(bits.next() >> 11) + 0.5) * 0x1.0p-53;
    const double u2 = static_cast<double>(bits.next() >> 11) * 0x1.0p-53;
    return std::make_pair(u1, u2);
  });
}
using Normal = decltype(normalStream(0));

// Whether a scheme's position-only logits depend on j - i alone (so one profile describes them).
bool shiftInvariant(const Scheme& s, const Params& params, int64_t d) {
  return s.shiftInvariant && s.logitProfile && s.shiftInvariant(params, d);
}

// Logit profile f(r) for r = -(n-1) .. n-1 (index r + n - 1) of one head, position-only.
std::vector<double> logitProfile(const Scheme& s, const Params& params, int64_t n, int64_t d, int64_t heads,
                                 int64_t head) {
  return s.logitProfile(s, params, ProfileRequest{n, d, heads, head});
}

// Range maximum over a fixed array in O(1) for ranges up to 2^levels long.
class RangeMax {
 public:
  RangeMax(const std::vector<double>& values, int64_t longest) {
    int levels = 1;
    while ((int64_t{1} << levels) <= longest) ++levels;
    table_.emplace_back(values.begin(), values.end());
    for (int level = 1; level < levels; ++level) {
      const std::vector<float>& prev = table_.back();
      const int64_t half = int64_t{1} << (level - 1);
      std::vector<float> next(prev.size());
      for (size_t t = 0; t < prev.size(); ++t) {
        next[t] = t + half < prev.size() ? std::max(prev[t], prev[t + half]) : prev[t];
      }
      table_.push_back(std::move(next));
    }
  }
  // max over [lo, hi), hi > lo
  float query(int64_t lo, int64_t hi) const {
    int level = 0;
    while ((int64_t{2} << level) <= hi - lo) ++level;
    return std::max(table_[level][lo], table_[level][hi - (int64_t{1} << level)]);
  }

 private:
  std::vector<std::vector<float>> table_;
};

// Map rows [first, end) of the [size, size] result. Every map row is computed from its own
// sequence rows alone, so maps of disjoint row ranges sum to the whole map, value for value
// (docs/attention.md: splitting a map between workers).
struct MapRows {
  int64_t first;
  int64_t end;
};

// Shared by both paths: tiles, the pooled accumulator and the visible range of a row.
class PooledMap {
 public:
  PooledMap(int64_t n, int64_t size, bool max, bool causal, MapRows rows)
      : n_(n),
        size_(size),
        max_(max),
        causal_(causal),
        bounds_(tileBounds(n, size)),
        rows_(rows),
        cells_(static_cast<size_t>(size * size), 0.0) {}

  int64_t size() const { return size_; }
  // The sequence rows whose weights land in the map rows asked for.
  int64_t firstRow() const { return bounds_[rows_.first]; }
  int64_t endRow() const { return bounds_[rows_.end]; }
  double progress(int64_t row) const {
    return static_cast<double>(std::min(row, endRow()) - firstRow()) / static_cast<double>(endRow() - firstRow());
  }
  int64_t visible(int64_t i) const { return causal_ ? i + 1 : n_; }
  const std::vector<int64_t>& bounds() const { return bounds_; }
  bool pooledByMax() const { return max_; }
  double& cell(int64_t rowTile, int64_t colTile) { return cells_[rowTile * size_ + colTile]; }

  Tensor finish() const {
    Tensor out = Tensor::floats({size_, size_});
    for (int64_t a = 0; a < size_; ++a) {
      for (int64_t b = 0; b < size_; ++b) {
        double v = cells_[a * size_ + b];
        if (!max_) v /= static_cast<double>((bounds_[a + 1] - bounds_[a]) * (bounds_[b + 1] - bounds_[b]));
        out.f32[a * size_ + b] = static_cast<float>(v);
      }
    }
    return out;
  }

 private:
  int64_t n_, size_;
  bool max_, causal_;
  std::vector<int64_t> bounds_;
  MapRows rows_;
  std::vector<double> cells_;
};

int64_t rowTile(const std::vector<int64_t>& bounds, int64_t i) {
  return static_cast<int64_t>(std::upper_bound(bounds.begin(), bounds.end(), i) - bounds.begin()) - 1;
}

// How far below the profile's top a row's own maximum may lie: e = exp(f - top) then keeps each
// row's largest weight a normal float (the tile tables are float; exp underflows them near -87).
constexpr double kProfileSpan = 80;

// Whether one profile e = exp(f - max f) serves every row: each row's largest logit (over the keys
// it sees, profile indices [n-1-i, n-1-i + visible)) lies within kProfileSpan of the top. xPos
// without causal, for one, grows towards far keys, so late rows see only logits far below it.
bool profileFits(const std::vector<double>& f, int64_t n, bool causal) {
  const double top = *std::max_element(f.begin(), f.end());
  double lowest = top;
  if (causal) {
    double seen = -std::numeric_limits<double>::infinity();  // max f[n-1-i .. n-1], i growing
    for (int64_t i = 0; i < n; ++i) {
      seen = std::max(seen, f[static_cast<size_t>(n - 1 - i)]);
      lowest = std::min(lowest, seen);
    }
  } else {
    // Every row sees n consecutive entries: the windows' maxima by a monotone deque.
    std::deque<int64_t> window;
    for (int64_t t = 0; t < static_cast<int64_t>(f.size()); ++t) {
      while (!window.empty() && f[static_cast<size_t>(window.back())] <= f[static_cast<size_t>(t)]) window.pop_back();
      window.push_back(t);
      if (window.front() <= t - n) window.pop_front();
      if (t >= n - 1) lowest = std::min(lowest, f[static_cast<size_t>(window.front())]);
    }
  }
  return top - lowest <= kProfileSpan;
}

// Position-only logits that depend on j - i: every row's weights are e(j - i) / Z_i with one
// profile e = exp(f - max f), so Z_i and any window sum come from prefix sums and window maxima
// from a range-max table — O(n) memory for any n.
//
// With equal tiles (size divides n) a tile's sum or max for row i = I*W + u depends only on the
// tile offset D = J - I and on u, so one table T[D][u] serves every tile row and a cell is a
// contiguous dot (mean) or max-product (max) of length W: vector work, size^2 * W in all. Other
// sizes walk row by row, skipping tiles the profile's support cannot reach.
class ProfileMapJob : public Job {
 public:
  ProfileMapJob(const std::vector<double>& f, int64_t n, int64_t size, bool max, bool causal, MapRows rows)
      : n_(n), size_(size), max_(max), causal_(causal), map_(n, size, max, causal, rows), row_(map_.firstRow()) {
    const double top = *std::max_element(f.begin(), f.end());
    e_.resize(f.size());
    for (size_t t = 0; t < f.size(); ++t) e_[t] = std::exp(f[t] - top);  // exp(-inf) = 0: masked
    prefix_.assign(e_.size() + 1, 0.0);
    for (size_t t = 0; t < e_.size(); ++t) prefix_[t + 1] = prefix_[t] + e_[t];
    support_ = {0, static_cast<int64_t>(e_.size())};
    while (support_.first < support_.second && e_[support_.first] == 0) ++support_.first;
    while (support_.second > support_.first && e_[support_.second - 1] == 0) --support_.second;
    int64_t widest = 1;
    for (int64_t t = 0; t < size; ++t) widest = std::max(widest, map_.bounds()[t + 1] - map_.bounds()[t]);
    equalTiles_ = n % size == 0;
    if (equalTiles_) {
      buildTileTables();
    } else if (max) {
      rangeMax_ = std::make_unique<RangeMax>(e_, widest);
    }
  }

  double step(int64_t budget) override {
    const int64_t end = map_.endRow();
    if (equalTiles_) {
      const int64_t width = n_ / size_;
      for (int64_t done = 0; done < budget && row_ < end; done += width, row_ += width) tileRow(row_ / width);
    } else {
      for (int64_t done = 0; done < budget && row_ < end; ++done, ++row_) walkRow(row_);
    }
    return map_.progress(row_);
  }
  bool done() const override { return row_ >= map_.endRow(); }
  Result result() override { return single(map_.finish()); }

 private:
  int64_t base(int64_t i) const { return n_ - 1 - i; }  // profile index of key j is j + base(i)
  double rowSum(int64_t i) const { return prefix_[map_.visible(i) + base(i)] - prefix_[base(i)]; }
  double windowSum(int64_t lo, int64_t hi) const { return prefix_[hi] - prefix_[lo]; }
  double windowMax(int64_t lo, int64_t hi) const { return rangeMax_->query(lo, hi); }

  // T[D][u] for D = -(size-1) .. size-1 and u < W: the sum (or max) of e over the keys of tile
  // I + D as seen from row I*W + u, including the causal cut on the diagonal tile. Every full
  // window has width W, so one sliding-window maximum (a monotone deque, O(n)) gives all maxima.
  void buildTileTables() {
    const int64_t width = n_ / size_;
    table_.assign(static_cast<size_t>((2 * size_ - 1) * width), 0.0f);
    std::vector<float> slidingMax;
    std::vector<float> suffixMax;
    if (max_) {
      slidingMax.assign(e_.size(), 0.0f);  // slidingMax[s] = max e[s, s + W)
      std::vector<int64_t> window;
      size_t head = 0;
      const int64_t count = static_cast<int64_t>(e_.size());
      for (int64_t t = count - 1; t >= 0; --t) {
        while (window.size() > head && e_[window.back()] <= e_[t]) window.pop_back();
        window.push_back(t);
        if (window[head] >= t + width) ++head;
        slidingMax[t] = static_cast<float>(e_[window[head]]);
      }
      suffixMax.assign(static_cast<size_t>(n_ + 1), 0.0f);  // suffixMax[lo] = max e[lo, n)
      for (int64_t t = n_ - 1; t >= 0; --t) suffixMax[t] = std::max(suffixMax[t + 1], static_cast<float>(e_[t]));
    }
    for (int64_t offset = -(size_ - 1); offset <= size_ - 1; ++offset) {
      float* out = table_.data() + (offset + size_ - 1) * width;
      for (int64_t u = 0; u < width; ++u) {
        // Keys j - i in [offset*W - u, (offset+1)*W - u), shifted to profile indices.
        const int64_t lo = offset * width - u + n_ - 1;
        int64_t hi = lo + width;
        if (causal_) hi = std::min(hi, n_);  // j - i <= 0
        if (hi <= lo || hi <= support_.first || lo >= support_.second) continue;
        if (!max_) {
          out[u] = static_cast<float>(windowSum(lo, hi));
        } else {
          out[u] = hi - lo == width ? slidingMax[lo] : suffixMax[lo];  // a short window ends at n (causal)
        }
      }
    }
  }

  void tileRow(int64_t tile) {
    const int64_t width = n_ / size_;
    std::vector<float> invZ(static_cast<size_t>(width), 0.0f);
    for (int64_t u = 0; u < width; ++u) {
      const double z = rowSum(tile * width + u);
      invZ[u] = z > 0 ? static_cast<float>(1.0 / z) : 0.0f;  // an all-underflow row stays zero
    }
    for (int64_t other = 0; other < size_; ++other) {
      const float* t = table_.data() + (other - tile + size_ - 1) * width;
      simd::F4 acc = simd::splat(0.0f);
      int64_t u = 0;
      for (; u + 4 <= width; u += 4) {
        const simd::F4 product = simd::mul(simd::load(invZ.data() + u), simd::load(t + u));
        acc = max_ ? simd::max(acc, product) : simd::add(acc, product);
      }
      double value = max_ ? simd::horizontalMax(acc) : simd::horizontalSum(acc);
      for (; u < width; ++u) value = max_ ? std::max<double>(value, invZ[u] * t[u]) : value + invZ[u] * t[u];
      map_.cell(tile, other) = value;
    }
  }

  void walkRow(int64_t i) {
    const std::vector<int64_t>& b = map_.bounds();
    const double z = rowSum(i);
    if (!(z > 0)) return;
    const double invZ = 1.0 / z;
    const int64_t tile = rowTile(b, i);
    const int64_t visible = map_.visible(i);
    // Only keys whose profile index lies in the support contribute.
    const int64_t firstKey = std::max<int64_t>(0, support_.first - base(i));
    const int64_t lastKey = std::min(visible, support_.second - base(i));
    for (int64_t t = rowTile(b, std::min(firstKey, n_ - 1)); t < size_ && b[t] < lastKey; ++t) {
      const int64_t lo = std::max(b[t], firstKey) + base(i);
      const int64_t hi = std::min(b[t + 1], lastKey) + base(i);
      if (hi <= lo) continue;
      double& c = map_.cell(tile, t);
      c = max_ ? std::max(c, windowMax(lo, hi) * invZ) : c + windowSum(lo, hi) * invZ;
    }
  }

  int64_t n_, size_;
  bool max_, causal_;
  PooledMap map_;
  int64_t row_;
  std::vector<double> e_;
  std::vector<double> prefix_;
  std::pair<int64_t, int64_t> support_;
  std::unique_ptr<RangeMax> rangeMax_;
  bool equalTiles_ = false;
  std::vector<float> table_;
};

// Everything else streams: each block of query rows goes through the fused attention kernel over
// all n keys (its softmax weights, exactly normalised, land in a rows x n scratch that stays in
// cache), then every row is pooled into its tiles. O(n^2 d) time, O(n d + size^2) memory.
class StreamingMapJob : public Job {
 public:
  static constexpr int64_t kRows = kernels::kRowTile;
  static constexpr int64_t kKeys = 2048;  // keys per bias fill of a scheme that is not shift-invariant

  StreamingMapJob(const Params& params, const Scheme* scheme, std::vector<float> q, std::vector<float> k, int64_t n,
                  int64_t d, int64_t heads, int64_t head, int64_t size, bool max, bool causal, bool gemm, MapRows rows)
      : params_(params),
        scheme_(scheme),
        q_(std::move(q)),
        n_(n),
        d_(d),
        heads_(heads),
        head_(head),
        gemm_(gemm),
        causal_(causal),
        map_(n, size, max, causal, rows),
        row_(map_.firstRow()) {
    if (gemm_) panels_ = kernels::packKeys(k.data(), n, d, d);
    if (scheme_ && scheme_->term == AttentionTerm::Bias) {
      if (shiftInvariant(*scheme_, params_, d)) {
        const std::vector<double> f = logitProfile(*scheme_, params_, n, d, heads, head);
        profile_.assign(f.begin(), f.end());
      } else {
        rowBias_.resize(static_cast<size_t>(kRows * n));
        fill_.resize(static_cast<size_t>(heads * kRows * kKeys));
      }
    }
    weights_.resize(static_cast<size_t>(kRows * n + 4));  // + 4: tileExp2 reads past a tile's end
    tileSums_.resize(static_cast<size_t>(size));
    tileMaxima_.resize(static_cast<size_t>(size));
  }

  double step(int64_t budget) override {
    const int64_t end = map_.endRow();
    for (int64_t done = 0; done < budget && row_ < end; done += kRows) {
      processRows(row_, std::min(kRows, end - row_));
      row_ += kRows;
    }
    return map_.progress(row_);
  }
  bool done() const override { return row_ >= map_.endRow(); }
  Result result() override { return single(map_.finish()); }

 private:
  void processRows(int64_t i0, int64_t rows) {
    kernels::LogitSpec spec;
    spec.scale = static_cast<float>(1 / std::sqrt(static_cast<double>(d_)));
    spec.keys.causal = causal_;
    spec.bias = biasRows(i0, rows);
    float* w = weights_.data();
    float top[kRows];
    if (gemm_) {
      kernels::baseTwoLogits(q_.data() + i0 * d_, d_, i0, rows, panels_.data(), n_, d_, spec, w, n_, top);
    } else {
      // Position-only logits are the bias itself (zero without a scheme).
      for (int64_t r = 0; r < rows; ++r) {
        if (spec.bias.data) {
          std::copy_n(spec.bias.row(i0 + r), n_, w + r * n_);
        } else {
          std::fill(w + r * n_, w + (r + 1) * n_, 0.0f);
        }
      }
      spec.bias = {};
      kernels::baseTwoLogits(w, n_, i0, rows, n_, spec, top);
    }
    for (int64_t r = 0; r < rows; ++r) pool(i0 + r, w + r * n_, top[r]);
  }

  // The bias of rows i0 .. i0 + rows - 1 of the mapped head: the profile read along its diagonals,
  // or the scheme's window filled chunk by chunk of keys.
  kernels::Term biasRows(int64_t i0, int64_t rows) {
    if (!profile_.empty()) return {profile_.data() + n_ - 1, -1, 1.0f, 0};
    if (rowBias_.empty()) return {};
    for (int64_t j0 = 0; j0 < n_; j0 += kKeys) {
      const int64_t cols = std::min(kKeys, n_ - j0);
      scheme_->fillBias(params_, BiasWindow{heads_, rows, cols, i0, j0}, fill_.data());
      for (int64_t r = 0; r < rows; ++r)
        std::copy_n(fill_.data() + (head_ * rows + r) * cols, cols, rowBias_.data() + r * n_ + j0);
    }
    return {rowBias_.data(), n_, 1.0f, i0};
  }

  // Folds one row into the map from its base-2 logits x and their maximum: per tile the largest
  // weight 2^(max x - top) / S or the sum of weights, with S the row's sum of 2^(x - top). The
  // weights themselves are never stored: one pass over the row gives every tile's sum and largest
  // weight times S.
  void pool(int64_t i, const float* x, float top) {
    if (top == kNegInf) return;  // the row sees no key: weights 0
    const std::vector<int64_t>& b = map_.bounds();
    const int64_t tileRow = rowTile(b, i);
    const int64_t end = causal_ ? std::min(n_, i + 1) : n_;
    const int64_t tiles = kernels::tileExp2(x, b.data(), map_.size(), end, top, tileSums_.data(),
                                            map_.pooledByMax() ? tileMaxima_.data() : nullptr);
    double total = 0;
    for (int64_t t = 0; t < tiles; ++t) total += tileSums_[t];
    const double share = 1 / total;
    double* cells = &map_.cell(tileRow, 0);
    if (map_.pooledByMax()) {
      for (int64_t t = 0; t < tiles; ++t) cells[t] = std::max(cells[t], tileMaxima_[t] * share);
    } else {
      for (int64_t t = 0; t < tiles; ++t) cells[t] += tileSums_[t] * share;
    }
  }

  Params params_;
  const Scheme* scheme_;
  std::vector<float> q_;
  std::vector<float> panels_;
  int64_t n_, d_, heads_, head_;
  bool gemm_, causal_;
  PooledMap map_;
  std::vector<float> profile_;  // f(r) at r + n - 1 for a shift-invariant bias
  std::vector<float> rowBias_, fill_, weights_;
  std::vector<float> tileSums_, tileMaxima_;  // one row's per-tile sums and maxima (pool)
  int64_t row_;
};

std::vector<float> matrixOrRandom(const Params& params, const std::string& name, int64_t n, int64_t d, Normal* rng) {
  if (const Value* v = params.array(name)) {
    if (v->shape.size() != 2 || v->shape[0] != n || v->shape[1] != d) {
      throwRange(params.where() + ": " + name + " must have shape [n, d] = [" + std::to_string(n) + ", " +
                 std::to_string(d) + "]");
    }
    return std::vector<float>(v->data(), v->data() + v->size());
  }
  std::vector<float> out(static_cast<size_t>(n * d));
  for (float& x : out) x = static_cast<float>(rng->next());
  return out;
}

}  // namespace

namespace {

// The scheme named by `scheme`, if any; it must have a position-only term for long maps.
const Scheme* mapScheme(const Params& params) {
  const Value* id = params.find("scheme");
  if (!id) return nullptr;
  if (id->type != Value::Type::String) throwType(params.where() + ": scheme must be a scheme id string");
  const Scheme* scheme = &findScheme(params.where(), id->text);
  const AttentionTerm term = scheme->term;
  if (term != AttentionTerm::None && term != AttentionTerm::Bias && term != AttentionTerm::Rotary &&
      term != AttentionTerm::KeyVector) {
    throwRange(params.where() + ": scheme '" + scheme->id +
               "' has no position-only attention term for long maps; supported: bias, rotary and sinusoidal schemes");
  }
  return scheme;
}

// The map rows asked for: all of them, or mapRows = [first, end) with 0 <= first < end <= size.
MapRows mapRows(const Params& params, int64_t size) {
  const Value* given = params.array(kMapRows.name);
  if (!given) return {0, size};
  const FloatArray& v = given->array;
  const bool pair = v.size() == 2 && v[0] == std::floor(v[0]) && v[1] == std::floor(v[1]);
  if (!pair || v[0] < 0 || v[1] <= v[0] || v[1] > static_cast<float>(size)) {
    std::string got;
    for (size_t t = 0; t < v.size(); ++t) got += (t ? ", " : "") + formatNumber(v[t]);
    throwRange(params.where() + ": mapRows must be [first, end) of whole map rows with 0 <= first < end <= size (" +
               std::to_string(size) + "), got [" + got + "]");
  }
  return {static_cast<int64_t>(v[0]), static_cast<int64_t>(v[1])};
}

// Rotary schemes: queries and keys rotated by position; without content they are the probe of
// rp.scores, ones on the rotary dims. The cos/sin tables are rp.rotate's: built once per plan and
// length and kept, so a map drawn again with the same scheme and length skips them.
void rotateForMap(const Scheme& scheme, const Params& params, bool content, int64_t n, int64_t d, std::vector<float>& q,
                  std::vector<float>& k) {
  const RotaryPlan plan = rotaryPlan(scheme, params, d, n);
  const auto queries = RotaryTable::shared(plan, 0, n, true);
  const auto keys = RotaryTable::shared(plan, 0, n, false);
  for (int64_t i = 0; i < n; ++i) {
    if (!content) {
      std::fill_n(q.begin() + i * d + plan.offset, plan.rotaryDim, 1.0f);
      std::fill_n(k.begin() + i * d + plan.offset, plan.rotaryDim, 1.0f);
    }
    queries->apply(i, q.data() + i * d);
    keys->apply(i, k.data() + i * d);
  }
}

// Implicit mode: keys carry the absolute position vectors; without content the queries are the
// position vectors too, so the logits are PE(i).PE(j)/sqrt(d).
void addPositionVectors(const Scheme& scheme, const Params& params, bool content, int64_t n, int64_t d,
                        std::vector<float>& q, std::vector<float>& k) {
  constexpr int64_t kChunk = 1024;
  std::vector<float> pe(static_cast<size_t>(std::min(n, kChunk) * d));
  for (int64_t first = 0; first < n; first += kChunk) {
    const int64_t count = std::min(kChunk, n - first);
    scheme.positionVectors(params, first, count, d, pe.data());
    for (int64_t t = 0; t < count * d; ++t) k[first * d + t] += pe[t];
    if (!content) std::copy_n(pe.begin(), count * d, q.begin() + first * d);
  }
}

// Whether the map is drawn from one logit profile (ProfileMapJob) rather than streamed: position-
// only, shift-invariant, and one profile serves every row (profileFits). `f` receives the profile of
// a shift-invariant scheme, also when it does not fit.
bool fromProfile(const Params& params, const Scheme* scheme, bool content, int64_t n, int64_t d, int64_t heads,
                 int64_t head, bool causal, std::vector<double>& f) {
  if (content || !scheme || !shiftInvariant(*scheme, params, d)) return false;
  f = logitProfile(*scheme, params, n, d, heads, head);
  return profileFits(f, n, causal);
}

}  // namespace

std::vector<RowCut> attentionMapCuts(const Params& params, int64_t parts) {
  try {
    const Scheme* scheme = mapScheme(params);
    const int64_t n = params.integer(common::n());
    const int64_t d = params.integer(kD);
    const int64_t size = std::min(params.integer(kSize), n);
    const bool causal = params.boolean(common::causal());
    const bool content = params.has("seed") || params.has("q") || params.has("k");
    const MapRows rows = mapRows(params, size);
    std::vector<double> f;
    const bool profile =
        fromProfile(params, scheme, content, n, d, params.integer(common::heads()), params.integer(kHead), causal, f);
    // The keys each sequence row reads (attention's one estimate, keysSeen): its causal range when
    // the map streams, or walks a profile tile by tile; every key when a profile with equal tiles
    // fills each row of tiles from one table (ProfileMapJob::tileRow), whatever the row sees.
    kernels::KeyRange keys;
    keys.causal = causal && !(profile && n % size == 0);
    const std::vector<int64_t> tiles = tileBounds(n, size);
    std::vector<double> prefix = {0.0};
    for (int64_t t = rows.first; t < rows.end; ++t)
      prefix.push_back(prefix.back() + keysSeen(keys, n, tiles[t], tiles[t + 1]));
    const std::vector<int64_t> bounds = balancedBounds(prefix, parts);
    std::vector<RowCut> cuts;
    for (size_t t = 0; t + 1 < bounds.size(); ++t) {
      const double seen = prefix[bounds[t + 1]] - prefix[bounds[t]];
      cuts.push_back({rows.first + bounds[t], rows.first + bounds[t + 1], seen * static_cast<double>(d)});
    }
    return cuts;
  } catch (const ArgumentError&) {
    return {};  // the call itself reports what it cannot read
  }
}

std::unique_ptr<Job> startAttentionMap(const Params& params) {
  const std::string& where = params.where();
  const Scheme* scheme = mapScheme(params);
  std::set<std::string> allowed = {"n",    "d",    "scheme", "heads", "head",   "size",
                                   "pool", "seed", "q",      "k",     "causal", "mapRows"};
  if (scheme) {
    for (const auto& p : scheme->params) allowed.insert(p.name);
  }
  checkKnownNames(params, allowed, {"params", "onProgress", "signal"});  // the last three: taken by the JS entry
  if (scheme) {
    for (const auto& p : scheme->params) validateParam(params, p);  // against rp.schemes, read or not
  }
  const int64_t n = params.integer(common::n());
  const int64_t d = params.integer(kD);
  const int64_t heads = params.integer(common::heads());
  const int64_t head = params.integer(kHead);
  if (head >= heads)
    throwRange(where + ": head must be < heads (" + std::to_string(heads) + "), got " + std::to_string(head));
  const int64_t size = std::min(params.integer(kSize), n);
  const bool max = params.choice(kPool) == "max";
  const bool causal = params.boolean(common::causal());
  const bool content = params.has("seed") || params.has("q") || params.has("k");
  const MapRows rows = mapRows(params, size);

  if (std::vector<double> f; fromProfile(params, scheme, content, n, d, heads, head, causal, f)) {
    return std::make_unique<ProfileMapJob>(f, n, size, max, causal, rows);
  } else if (!f.empty()) {  // shift-invariant, but one profile cannot hold every row
    if (n > kMaxMapContent) {
      throwRange(where + ": the logits of scheme '" + scheme->id + "' span more than e^" +
                 std::to_string(static_cast<int>(kProfileSpan)) +
                 " between rows, which one shared profile cannot hold; n must be <= " + std::to_string(kMaxMapContent) +
                 " for such a map (row by row), got " + std::to_string(n));
    }
  }
  if (n > kMaxMapContent) {
    throwRange(where + ": n must be <= " + std::to_string(kMaxMapContent) + " for maps with content" +
               (scheme ? " or with scheme '" + scheme->id + "'" : std::string()) + " (O(n^2) work), got " +
               std::to_string(n) + "; position-only maps of shift-invariant schemes go to " +
               std::to_string(kMaxMapPositionOnly));
  }
  // Queries and keys [n, d] are held for the whole job: sized before allocating (n = 131072 with
  // d = 4096 would be 4 GiB).
  checkWorkingSet(where, 4.0 * (2.0 * static_cast<double>(n) * d + static_cast<double>(size) * size),
                  "queries and keys [n, d] held by the job");
  Normal rng = normalStream(static_cast<uint64_t>(params.has("seed") ? params.integer(kSeed) : 0));
  std::vector<float> q =
      content ? matrixOrRandom(params, "q", n, d, &rng) : std::vector<float>(static_cast<size_t>(n * d), 0.0f);
  std::vector<float> k =
      content ? matrixOrRandom(params, "k", n, d, &rng) : std::vector<float>(static_cast<size_t>(n * d), 0.0f);
  if (scheme && scheme->term == AttentionTerm::Rotary) rotateForMap(*scheme, params, content, n, d, q, k);
  if (scheme && scheme->term == AttentionTerm::KeyVector) addPositionVectors(*scheme, params, content, n, d, q, k);
  const bool gemm = content || (scheme && scheme->term != AttentionTerm::Bias);
  return std::make_unique<StreamingMapJob>(params, scheme, std::move(q), std::move(k), n, d, heads, head, size, max,
                                           causal, gemm, rows);
}

}  // namespace relpos
