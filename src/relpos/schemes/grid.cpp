#include "relpos/schemes/grid.hpp"

#include <algorithm>
#include <cmath>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"

namespace relpos {

namespace {

// A positions option: [count] or [rows, count]; fills `rows`, `count` and the values.
struct GivenPositions {
  const Value* value = nullptr;
  int64_t rows = 1;
  int64_t count = 0;
  bool perSequence = false;
};

GivenPositions givenPositions(const Params& params, const ParamInfo& info) {
  GivenPositions out;
  out.value = params.array(info.name);  // finite values
  if (!out.value) return out;
  const Shape& shape = out.value->shape;
  if (shape.size() == 2) {
    out.rows = shape[0];
    out.count = shape[1];
    out.perSequence = true;
  } else if (shape.size() == 1) {
    out.count = shape[0];
  } else {
    throwRange(params.where() + ": " + info.name + " must have shape [" + (info.name == "keyPositions" ? "m" : "n") +
               "] or [batch, " + (info.name == "keyPositions" ? "m" : "n") + "]");
  }
  if (out.rows < 1 || out.count < 1) throwRange(params.where() + ": " + info.name + " must not be empty");
  return out;
}

void checkSize(const Params& params, const ParamInfo& size, const ParamInfo& positions, int64_t count) {
  if (!params.has(size.name)) return;
  const int64_t given = params.integer(size);
  if (given != count) {
    throwRange(params.where() + ": " + size.name + " (" + std::to_string(given) + ") differs from the length of " +
               positions.name + " (" + std::to_string(count) + ")");
  }
}

}  // namespace

double PositionGrid::queryAt(int64_t b, int64_t i) const {
  if (!query.empty()) return query[(queryRows == 1 ? 0 : b) * nq + i];
  return keyAt(b, i + queryOffset);
}

double PositionGrid::keyAt(int64_t b, int64_t j) const {
  if (key.empty()) return static_cast<double>(j);
  return key[(keyRows == 1 ? 0 : b) * nk + j];
}

BiasWindow PositionGrid::window(int64_t heads, int64_t b) const {
  BiasWindow w{heads, nq, nk, queryOffset, 0};
  if (!query.empty()) w.queryPositions = query.data() + (queryRows == 1 ? 0 : b) * nq;
  if (!key.empty()) w.keyPositions = key.data() + (keyRows == 1 ? 0 : b) * nk;
  if (query.empty() && !key.empty()) w.queryPositions = w.keyPositions + queryOffset;  // queries are keys
  return w;
}

Shape PositionGrid::shape(const Shape& inner) const {
  if (!batchAxis) return inner;
  Shape out = {batch};
  out.insert(out.end(), inner.begin(), inner.end());
  return out;
}

double PositionGrid::span() const {
  double far = 0;
  for (int64_t b = 0; b < batch; ++b) {
    double qLo = kInf, qHi = -kInf, kLo = kInf, kHi = -kInf;
    for (int64_t i = 0; i < nq; ++i) {
      qLo = std::min(qLo, queryAt(b, i));
      qHi = std::max(qHi, queryAt(b, i));
    }
    for (int64_t j = 0; j < nk; ++j) {
      kLo = std::min(kLo, keyAt(b, j));
      kHi = std::max(kHi, keyAt(b, j));
    }
    far = std::max({far, std::fabs(kHi - qLo), std::fabs(qHi - kLo)});
  }
  return far;
}

Params withTokenPositions(const Params& params) {
  const Value* tokens = params.array("positions");
  if (!tokens) return params;
  for (const ParamInfo* p :
       {&common::m(), &common::queryOffset(), &common::queryPositions(), &common::keyPositions()}) {
    if (params.has(p->name)) {
      throwRange(params.where() + ": positions places queries and keys alike; give it or " + p->name + ", not both");
    }
  }
  if (tokens->shape.size() != 1) {
    throwRange(params.where() +
               ": positions must have shape [n] here (per-sequence positions go in queryPositions / keyPositions)");
  }
  const int64_t count = static_cast<int64_t>(tokens->array.size());
  checkSize(params, common::n(), arrayParam("positions", ""), count);
  Params out = params;
  out.erase("positions");
  out.erase(common::n().name);
  out.set(common::queryPositions().name, *tokens);
  out.set(common::keyPositions().name, *tokens);
  return out;
}

bool givesGrid(const Params& params) {
  for (const ParamInfo* p :
       {&common::m(), &common::queryOffset(), &common::queryPositions(), &common::keyPositions()}) {
    if (params.has(p->name)) return true;
  }
  return false;
}

PositionGrid readGrid(const Params& params) {
  PositionGrid g;
  const GivenPositions queries = givenPositions(params, common::queryPositions());
  const GivenPositions keys = givenPositions(params, common::keyPositions());
  if (queries.value && params.has(common::queryOffset().name)) {
    throwRange(params.where() + ": queryOffset and queryPositions both place the queries; give one");
  }
  if (queries.value) checkSize(params, common::n(), common::queryPositions(), queries.count);
  if (keys.value) checkSize(params, common::m(), common::keyPositions(), keys.count);
  // n: queryPositions, n, m, keyPositions; m: keyPositions, m, n.
  if (queries.value) {
    g.nq = queries.count;
  } else if (params.has(common::n().name)) {
    g.nq = params.integer(common::n());
  } else if (params.has(common::m().name)) {
    g.nq = params.integer(common::m());
  } else if (keys.value) {
    g.nq = keys.count;
  } else {
    g.nq = params.integer(common::n());  // "n is required"
  }
  g.nk = keys.value ? keys.count : params.has(common::m().name) ? params.integer(common::m()) : g.nq;
  if (queries.value && keys.value && queries.rows > 1 && keys.rows > 1 && queries.rows != keys.rows) {
    throwRange(params.where() + ": queryPositions has " + std::to_string(queries.rows) + " sequences, keyPositions " +
               std::to_string(keys.rows) + "; give the same number (or one row to share)");
  }
  g.queryRows = queries.rows;
  g.keyRows = keys.rows;
  g.batch = std::max(queries.rows, keys.rows);
  g.batchAxis = queries.perSequence || keys.perSequence;
  if (queries.value) g.query.assign(queries.value->array.begin(), queries.value->array.end());
  if (keys.value) g.key.assign(keys.value->array.begin(), keys.value->array.end());
  if (!queries.value) {
    g.queryOffset = params.has(common::queryOffset().name) ? params.integer(common::queryOffset()) : g.nk - g.nq;
    // With given key positions a query is one of the keys: key i + queryOffset must exist.
    if (keys.value && (g.queryOffset < 0 || g.queryOffset + g.nq > g.nk)) {
      throwRange(params.where() + ": with keyPositions the queries are keys queryOffset .. queryOffset + n - 1, " +
                 "which must lie in 0 .. m - 1 = " + std::to_string(g.nk - 1) + "; got queryOffset " +
                 std::to_string(g.queryOffset) + ", n " + std::to_string(g.nq) + " (give queryPositions instead)");
    }
  }
  return g;
}

// Integer positions stay within +-2^53 - 1, where doubles hold every integer and differences fit int64.
constexpr double kMaxIntegerPosition = 9007199254740991.0;

void requireIntegerPositions(const PositionGrid& grid, const Params& params, const std::string& schemeId) {
  auto check = [&](const std::vector<double>& values, const char* name, int64_t count) {
    for (size_t t = 0; t < values.size(); ++t) {
      if (values[t] != std::floor(values[t]) || std::fabs(values[t]) > kMaxIntegerPosition) {
        const int64_t row = static_cast<int64_t>(t) / count, col = static_cast<int64_t>(t) % count;
        const std::string at = values.size() > static_cast<size_t>(count)
                                   ? "[" + std::to_string(row) + "][" + std::to_string(col) + "]"
                                   : "[" + std::to_string(col) + "]";
        throwRange(params.where() + ": " + schemeId + " needs integer positions (|p| < 2^53), got " + name + at +
                   " = " + formatNumber(values[t]));
      }
    }
  };
  check(grid.query, "queryPositions", grid.nq);
  check(grid.key, "keyPositions", grid.nk);
}

void maskCausal(const PositionGrid& grid, int64_t b, int64_t heads, float masked, float* out) {
  for (int64_t h = 0; h < heads; ++h) {
    for (int64_t i = 0; i < grid.nq; ++i) {
      const double q = grid.queryAt(b, i);
      float* row = out + (h * grid.nq + i) * grid.nk;
      for (int64_t j = 0; j < grid.nk; ++j) {
        if (grid.keyAt(b, j) > q) row[j] = masked;
      }
    }
  }
}

}  // namespace relpos
