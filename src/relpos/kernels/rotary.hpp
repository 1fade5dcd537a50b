// Rotary position embeddings as plain data: what rotates by how much (RotaryPlan), applied to one
// row in float64 (rotateRow) or to many rows from a cached float32 cos/sin table (RotaryTable).
// Knows no schemes: each rotary scheme computes its plan (src/relpos/schemes), see docs/rotary.md.
#pragma once
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace relpos {

// Where a token sits for the rotation: x is its position (or, on a grid, its column), y its row.
struct RotaryPoint {
  double x = 0;
  double y = 0;
};

// Pair k of the rotaryDim dims from `offset` on turns by angle(point, k) and both its coordinates are scaled
// by magnitude(point, k, role): the attention factor, times xPos's zeta_k^(±(x − center)/scaleBase)
// (+ for queries, − for keys) when xposZeta is set.
struct RotaryPlan {
  std::vector<double> invFreq;  // rotaryDim / 2 entries, float64
  double attentionFactor = 1.0;
  int64_t rotaryDim = 0;
  // The first rotated dim of a row: 0, or e.g. DeepSeek's qk_nope_head_dim (its heads are [nope | rope]).
  int64_t offset = 0;
  bool interleaved = false;  // pair k is (x_2k, x_2k+1); otherwise (x_k, x_{k + rotaryDim/2}), both after offset
  // Axial (2-D) plans: tokens on a grid of gridWidth columns, and pair k turns with the column
  // (axis[k] == 0) or the row (axis[k] == 1). gridWidth 0: a 1-D position.
  int64_t gridWidth = 0;
  std::vector<uint8_t> axis;
  // xPos: per-pair decay base zeta_k (empty: none), its length scale and centre.
  std::vector<double> xposZeta;
  double xposScaleBase = 512.0;
  double xposCenter = 0.0;
  // rp.rotate rotates as a query unless the scheme says the rows are keys (xPos role 'key').
  bool keyRole = false;

  int64_t pairs() const { return rotaryDim / 2; }
  // The two coordinates of a row that pair k rotates.
  std::pair<int64_t, int64_t> pairIndex(int64_t k) const {
    return interleaved ? std::make_pair(offset + 2 * k, offset + 2 * k + 1)
                       : std::make_pair(offset + k, offset + k + rotaryDim / 2);
  }
  // The point of a 1-D position: itself, or (column, row) on the grid.
  RotaryPoint at(double position) const;
  double angle(const RotaryPoint& point, int64_t k) const {
    return (axis.empty() || axis[k] == 0 ? point.x : point.y) * invFreq[k];
  }
  double magnitude(const RotaryPoint& point, int64_t k, bool queryRole) const;
  // xPos's decay of pair k between a query and a key `delta` positions later: zeta_k^(−delta/B); 1 without xPos.
  double decay(int64_t k, double delta) const;
};

// Rotates dims offset .. offset + rotaryDim - 1 of one row in place. The angles are formed in float64 (a
// float32 product p*theta loses ~p*2^-24 rad at large p); `queryRole` picks the sign of the xPos
// exponent.
void rotateRow(const RotaryPlan& plan, const RotaryPoint& point, bool queryRole, float* row);
inline void rotateRow(const RotaryPlan& plan, double position, bool queryRole, float* row) {
  rotateRow(plan, plan.at(position), queryRole, row);
}

// cos/sin (times the magnitude) for every position of a range, built once per call in float64 and
// applied in float32 to any number of rows and heads. The one rotation path of attention: positions
// the caller gives (Hugging Face's position_ids) get a table of their own, whose entry for a
// position is the same floats as the range's entry for it, so positions equal to the defaults
// rotate bit for bit as leaving them out does.
class RotaryTable {
 public:
  RotaryTable(const RotaryPlan& plan, int64_t firstPosition, int64_t count, bool queryRole);
  // One entry per given position: apply(t, row) rotates row to data[t] (a type of its own, so that a
  // literal 0 as firstPosition is not read as a null pointer).
  struct Positions {
    const double* data;
    int64_t count;
  };
  RotaryTable(const RotaryPlan& plan, Positions positions, bool queryRole);
  // The table for these arguments, built once and kept for later calls with the same plan and
  // range (the last few are kept; building costs ~1000x applying at n = 2048).
  static std::shared_ptr<const RotaryTable> shared(const RotaryPlan& plan, int64_t firstPosition, int64_t count,
                                                   bool queryRole);
  // Rotates one row of width >= offset + rotaryDim in place at `position` (within the table's range).
  void apply(int64_t position, float* row) const;

 private:
  // Entry t: cos/sin at `position`.
  void fill(const RotaryPlan& plan, int64_t t, double position, bool queryRole);
  int64_t first_;
  int64_t pairs_;
  int64_t offset_;
  bool interleaved_;
  std::vector<float> cos_;
  std::vector<float> sin_;
};

}  // namespace relpos
