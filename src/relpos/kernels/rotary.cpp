#include "relpos/kernels/rotary.hpp"

#include <cmath>
#include <list>
#include <tuple>

#include "relpos/kernels/simd.hpp"

namespace relpos {

RotaryPoint RotaryPlan::at(double position) const {
  if (gridWidth <= 0) return {position, 0.0};
  const double row = std::floor(position / static_cast<double>(gridWidth));
  return {position - row * static_cast<double>(gridWidth), row};
}

double RotaryPlan::magnitude(const RotaryPoint& point, int64_t k, bool queryRole) const {
  if (xposZeta.empty()) return attentionFactor;
  const double exponent = (queryRole ? 1.0 : -1.0) * (point.x - xposCenter) / xposScaleBase;
  return attentionFactor * std::pow(xposZeta[k], exponent);
}

double RotaryPlan::decay(int64_t k, double delta) const {
  return xposZeta.empty() ? 1.0 : std::pow(xposZeta[k], -delta / xposScaleBase);
}

void rotateRow(const RotaryPlan& plan, const RotaryPoint& point, bool queryRole, float* row) {
  for (int64_t k = 0; k < plan.pairs(); ++k) {
    const double angle = plan.angle(point, k);
    const double magnitude = plan.magnitude(point, k, queryRole);
    const double c = std::cos(angle) * magnitude;
    const double s = std::sin(angle) * magnitude;
    const auto [ia, ib] = plan.pairIndex(k);
    const double a = row[ia];
    const double b = row[ib];
    row[ia] = static_cast<float>(a * c - b * s);
    row[ib] = static_cast<float>(b * c + a * s);
  }
}

RotaryTable::RotaryTable(const RotaryPlan& plan, int64_t firstPosition, int64_t count, bool queryRole)
    : first_(firstPosition), pairs_(plan.pairs()), offset_(plan.offset), interleaved_(plan.interleaved) {
  cos_.resize(static_cast<size_t>(count * pairs_));
  sin_.resize(static_cast<size_t>(count * pairs_));
  for (int64_t t = 0; t < count; ++t) fill(plan, t, static_cast<double>(firstPosition + t), queryRole);
}

RotaryTable::RotaryTable(const RotaryPlan& plan, Positions positions, bool queryRole)
    : first_(0), pairs_(plan.pairs()), offset_(plan.offset), interleaved_(plan.interleaved) {
  cos_.resize(static_cast<size_t>(positions.count * pairs_));
  sin_.resize(static_cast<size_t>(positions.count * pairs_));
  for (int64_t t = 0; t < positions.count; ++t) fill(plan, t, positions.data[t], queryRole);
}

void RotaryTable::fill(const RotaryPlan& plan, int64_t t, double position, bool queryRole) {
  const RotaryPoint point = plan.at(position);
  for (int64_t k = 0; k < pairs_; ++k) {
    const double angle = plan.angle(point, k);
    const double magnitude = plan.magnitude(point, k, queryRole);
    cos_[t * pairs_ + k] = static_cast<float>(std::cos(angle) * magnitude);
    sin_[t * pairs_ + k] = static_cast<float>(std::sin(angle) * magnitude);
  }
}

namespace {

// What a table depends on: the plan's numbers (keyRole only picks queryRole, passed separately),
// the range and the role.
struct TableKey {
  RotaryPlan plan;
  int64_t first;
  int64_t count;
  bool queryRole;
  bool operator==(const TableKey& o) const {
    const RotaryPlan& a = plan;
    const RotaryPlan& b = o.plan;
    return std::tie(first, count, queryRole) == std::tie(o.first, o.count, o.queryRole) &&
           std::tie(a.invFreq, a.attentionFactor, a.rotaryDim, a.offset, a.interleaved, a.gridWidth, a.axis, a.xposZeta,
                    a.xposScaleBase, a.xposCenter) == std::tie(b.invFreq, b.attentionFactor, b.rotaryDim, b.offset,
                                                               b.interleaved, b.gridWidth, b.axis, b.xposZeta,
                                                               b.xposScaleBase, b.xposCenter);
  }
};

// Small tables are rebuilt (cheaper than a lookup's bookkeeping, and a call then leaves the heap as
// it found it); tables of 16k to 4M entries (positions x pairs) are kept, the last eight of them.
constexpr size_t kCachedTables = 8;
constexpr int64_t kSmallestCachedEntries = 1 << 14;
constexpr int64_t kLargestCachedEntries = 4 << 20;

}  // namespace

std::shared_ptr<const RotaryTable> RotaryTable::shared(const RotaryPlan& plan, int64_t firstPosition, int64_t count,
                                                       bool queryRole) {
  const int64_t entries = count * plan.pairs();
  if (entries < kSmallestCachedEntries || entries > kLargestCachedEntries) {
    return std::make_shared<const RotaryTable>(plan, firstPosition, count, queryRole);
  }
  // Most recently used first.
  static std::list<std::pair<TableKey, std::shared_ptr<const RotaryTable>>> cache;
  TableKey key{plan, firstPosition, count, queryRole};
  for (auto it = cache.begin(); it != cache.end(); ++it) {
    if (it->first == key) {
      cache.splice(cache.begin(), cache, it);
      return cache.front().second;
    }
  }
  auto table = std::make_shared<const RotaryTable>(plan, firstPosition, count, queryRole);
  cache.emplace_front(std::move(key), table);
  if (cache.size() > kCachedTables) cache.pop_back();
  return table;
}

void RotaryTable::apply(int64_t position, float* whole) const {
  float* row = whole + offset_;
  const float* c = cos_.data() + (position - first_) * pairs_;
  const float* s = sin_.data() + (position - first_) * pairs_;
  if (interleaved_) {
    for (int64_t k = 0; k < pairs_; ++k) {
      const float a = row[2 * k];
      const float b = row[2 * k + 1];
      row[2 * k] = a * c[k] - b * s[k];
      row[2 * k + 1] = b * c[k] + a * s[k];
    }
    return;
  }
  float* x = row;
  float* y = row + pairs_;
  int64_t k = 0;
  for (; k + 4 <= pairs_; k += 4) {
    const simd::F4 a = simd::load(x + k);
    const simd::F4 b = simd::load(y + k);
    const simd::F4 cv = simd::load(c + k);
    const simd::F4 sv = simd::load(s + k);
    simd::store(x + k, simd::sub(simd::mul(a, cv), simd::mul(b, sv)));
    simd::store(y + k, simd::add(simd::mul(b, cv), simd::mul(a, sv)));
  }
  for (; k < pairs_; ++k) {
    const float a = x[k];
    const float b = y[k];
    x[k] = a * c[k] - b * s[k];
    y[k] = b * c[k] + a * s[k];
  }
}

}  // namespace relpos
