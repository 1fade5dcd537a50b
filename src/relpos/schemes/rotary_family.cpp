#include "relpos/schemes/rotary_family.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/numeric.hpp"
#include "relpos/schemes/grid.hpp"

namespace relpos {

// ---------------------------------------------------------------------------------------------
// Parameters

const RotaryParams& rotaryParams() {
  static const RotaryParams p = [] {
    RotaryParams r;
    // Not read by rp.rotate, which takes the head width from x (a d there must match it).
    r.width = actsIn(integerParam("d", std::nan(""), 2, 1 << 16,
                                  "head width; the first rotaryDim dims of it rotate (rp.rotate: from x and heads)"),
                     {"encoding", "frequencies", "scores"});
    // The pair layout moves dims, which inverse frequencies do not see.
    const std::vector<std::string> moves = {"encoding", "rotate", "scores", "attention"};
    r.halfLayout = actsIn(
        choiceParam("layout", "half|interleaved",
                    "half: pair k = (x_k, x_{k+r/2}) (GPT-NeoX/Llama); interleaved: (x_2k, x_2k+1) (GPT-J, Llama 4)"),
        moves);
    r.interleavedLayout = actsIn(
        choiceParam("layout", "interleaved|half", "interleaved: pair k = (x_2k, x_2k+1); half: (x_k, x_{k+r/2})"),
        moves);
    r.rotaryDim =
        integerParam("rotaryDim", std::nan(""), 2, 1 << 16,
                     "rotated dims (even; default d - startIndex: all from startIndex on); the rest pass through "
                     "(partial rotary)");
    r.positions = arrayParam(
        "positions",
        "positions of the rows (default 0..n-1; any finite values); axial schemes also take (x, y) rows [n, 2]");
    // Every call: it moves the rotated dims and, without rotaryDim, sets how many rotate (d - startIndex).
    r.startIndex = integerParam("startIndex", 0, 0, 1 << 16,
                                "the rotated dims of each head start here (rotaryDim default: d - startIndex); the "
                                "dims before them pass through (DeepSeek's [nope | rope] heads: qk_nope_head_dim; "
                                "rotary-embedding-torch start_index)");
    r.invFreq = arrayParam(
        "invFreq", "caller-given inverse frequencies [rotaryDim/2] in place of base^(-2k/r) (custom schedules)");
    r.seqLen =
        integerParam("seqLen", std::nan(""), 1, 1e9, "current sequence length (default: the length the call covers)");
    r.factor = numberParam("factor", 1, 0, 1e6, "context extension factor s", true);
    r.factor8 = withDefault(r.factor, 8);
    r.original2048 = integerParam("originalMaxPositionEmbeddings", 2048, 1, 1e9, "pre-extension context length L0");
    r.original4096 = withDefault(r.original2048, 4096);
    r.original8192 = withDefault(r.original2048, 8192);
    return r;
  }();
  return p;
}

namespace {

const ParamInfo kEncodingOutput = choiceParam("output", "cos|sin", "Hugging Face cos/sin cache for the layout");
const ParamInfo kScoresOutput = choiceParam("output", "matrix|offsets", "matrix [heads, n, n] or s(delta) per offset");

}  // namespace

// ---------------------------------------------------------------------------------------------
// Plans

std::vector<double> ropeInvFreq(int64_t rotaryDim, double base) {
  std::vector<double> inv(static_cast<size_t>(rotaryDim / 2));
  for (int64_t k = 0; k < rotaryDim / 2; ++k) inv[k] = std::pow(base, -2.0 * static_cast<double>(k) / rotaryDim);
  return inv;
}

double ntkExponent(const RotaryContext& c) {
  if (c.rotaryDim < 4)
    throwRange(c.params.where() + ": NTK scaling needs a rotary dimension >= 4, got " + std::to_string(c.rotaryDim));
  return static_cast<double>(c.rotaryDim) / (c.rotaryDim - 2);
}

int64_t currentSeqLen(const RotaryContext& c, int64_t original) {
  if (c.params.has(rotaryParams().seqLen.name)) return c.params.integer(rotaryParams().seqLen);
  return c.seqLen > 0 ? c.seqLen : original;
}

namespace {

// The rotated dims of a head of width d: rotaryDim of them (default: all from startIndex on), from
// startIndex (default 0) on.
struct RotarySpan {
  int64_t start = 0;
  int64_t dims = 0;
};

RotarySpan rotarySpan(const Params& params, int64_t d) {
  RotarySpan span;
  span.start = params.integer(rotaryParams().startIndex);
  span.dims = d - span.start;
  if (params.has(rotaryParams().rotaryDim.name)) span.dims = params.integer(rotaryParams().rotaryDim);
  if (span.start >= d) {
    throwRange(params.where() + ": startIndex must be < d (" + std::to_string(d) + "), got " +
               std::to_string(span.start));
  }
  if (span.dims % 2 != 0 && span.start > 0 && !params.has(rotaryParams().rotaryDim.name)) {
    throwRange(params.where() + ": the rotated dims d - startIndex (" + std::to_string(span.dims) +
               ") must be even; give rotaryDim");
  }
  if (span.dims % 2 != 0) throwRange(params.where() + ": rotaryDim must be even, got " + std::to_string(span.dims));
  if (span.start == 0 && span.dims > d)
    throwRange(params.where() + ": rotaryDim must be <= d (" + std::to_string(d) + "), got " +
               std::to_string(span.dims));
  if (span.start + span.dims > d) {
    throwRange(params.where() + ": startIndex + rotaryDim (" + std::to_string(span.start + span.dims) +
               ") must be <= the head width d (" + std::to_string(d) + ")");
  }
  return span;
}

// The plan of a validated rotary span, with the scheme's layout.
RotaryPlan planFor(const Scheme& scheme, const Params& params, RotarySpan span, int64_t seqLen) {
  RotaryPlan plan =
      scheme.rotary(RotaryContext{params, span.dims, params.number(*scheme.param(common::base().name)), seqLen});
  plan.rotaryDim = span.dims;
  plan.offset = span.start;
  plan.interleaved = params.choice(*scheme.param(rotaryParams().halfLayout.name)) == "interleaved";
  return plan;
}

}  // namespace

RotaryPlan rotaryPlan(const Scheme& scheme, const Params& params, int64_t d, int64_t seqLen) {
  if (!scheme.rotary) throwRange(params.where() + ": '" + scheme.id + "' is not a rotary scheme");
  if (params.has(rotaryParams().width.name)) {
    const int64_t given = params.integer(rotaryParams().width);
    const bool rotaryWidth =
        params.has(rotaryParams().rotaryDim.name) && given == params.integer(rotaryParams().rotaryDim);
    if (given != d && !rotaryWidth) {
      throwRange(params.where() + ": d (" + std::to_string(given) + ") differs from the head width " +
                 std::to_string(d));
    }
  }
  return planFor(scheme, params, rotarySpan(params, d), seqLen);
}

// ---------------------------------------------------------------------------------------------
// Calls

namespace {

// Positions are any finite float32, so the span is clamped before it becomes an integer (a cast of
// 1e30 to int64 is undefined behaviour).
constexpr double kMaxSeqLen = 1e15;

int64_t seqLenOf(const std::vector<double>& positions) {
  double top = 0;
  for (double x : positions) top = std::max(top, x);
  return static_cast<int64_t>(std::min(top, kMaxSeqLen)) + 1;
}

// The positions of n rows: 0 .. n-1, the given [n] values, or (x, y) rows [n, 2] (`points`, for
// axial schemes only; `flat` then holds the x of each row).
struct RowPositions {
  std::vector<double> flat;
  std::vector<RotaryPoint> points;
};

RowPositions rowPositions(const Params& params, int64_t n) {
  RowPositions out;
  const Value* v = params.find(rotaryParams().positions.name);
  if (v && v->type == Value::Type::Array && v->shape.size() == 2 && v->shape[0] == n && v->shape[1] == 2) {
    params.array(rotaryParams().positions.name);  // finite values
    for (int64_t i = 0; i < n; ++i) {
      out.points.push_back({v->array[2 * i], v->array[2 * i + 1]});
      out.flat.push_back(v->array[2 * i]);
    }
  } else if (const Value* given = params.array(rotaryParams().positions.name, n, "[n]")) {
    for (size_t i = 0; i < given->array.size(); ++i) out.flat.push_back(given->at(i));
  } else {
    for (int64_t i = 0; i < n; ++i) out.flat.push_back(static_cast<double>(i));
  }
  return out;
}

// The point of row i: the given (x, y), or the plan's point of its position.
RotaryPoint pointOf(const RotaryPlan& plan, const RowPositions& positions, int64_t i, const Params& params) {
  if (positions.points.empty()) return plan.at(positions.flat[i]);
  if (plan.gridWidth <= 0) {
    throwRange(params.where() + ": positions must hold " + std::to_string(positions.flat.size()) +
               " values (shape [n]), got " + std::to_string(2 * positions.flat.size()));
  }
  return positions.points[i];
}

// The rotary width of rp.frequencies: d, or twice the number of caller-given inverse frequencies.
int64_t frequenciesWidth(const Scheme& scheme, const Params& params) {
  if (!params.has(rotaryParams().width.name) && scheme.hasParam(rotaryParams().invFreq.name)) {
    if (const Value* given = params.array(rotaryParams().invFreq.name)) {
      return 2 * static_cast<int64_t>(given->array.size());
    }
  }
  return params.integer(rotaryParams().width);
}

// The sequence length rp.frequencies covers: max(positions) + 1 when positions are given, which only
// schemes that scale with the sequence length read (and then not beside their own seqLen).
int64_t frequenciesSeqLen(const Scheme& scheme, const Params& params) {
  const Value* given = params.array(rotaryParams().positions.name);
  if (!given) return 0;
  if (!scheme.hasParam(rotaryParams().seqLen.name)) {
    throwRange(params.where() + ": positions set only the sequence length of schemes that scale with it " +
               "(those with a seqLen parameter); '" + scheme.id + "' frequencies do not depend on positions");
  }
  if (params.has(rotaryParams().seqLen.name)) {
    throwRange(params.where() + ": positions and seqLen both set the sequence length; give one");
  }
  return seqLenOf(std::vector<double>(given->array.begin(), given->array.end()));
}

Result frequencies(const Scheme& scheme, const Params& params) {
  const int64_t width = frequenciesWidth(scheme, params);
  if (width % 2 != 0) throwRange(params.where() + ": d must be even, got " + std::to_string(width));
  // d is the head width; rotaryDim dims rotate (default: all from startIndex on).
  const RotarySpan span = rotarySpan(params, width);
  const int64_t r = span.dims;
  const RotaryPlan plan = planFor(scheme, params, span, frequenciesSeqLen(scheme, params));
  Tensor inv = Tensor::floats({r / 2});
  for (int64_t k = 0; k < r / 2; ++k) inv.f32[k] = static_cast<float>(plan.invFreq[k]);
  return {{"invFreq", std::move(inv)}, {"attentionFactor", Tensor::scalar(plan.attentionFactor)}};
}

}  // namespace

int64_t callSeqLen(const Params& params, const std::string& call) {
  const Value* positions = params.find(rotaryParams().positions.name);
  auto largest = [](const FloatArray& values) { return seqLenOf(std::vector<double>(values.begin(), values.end())); };
  if (call == "frequencies") return positions ? largest(positions->array) : 0;
  if (call == "rotate" || call == "encoding") {
    if (positions && positions->shape.size() == 1) return largest(positions->array);
    const Value* x = params.find("x");
    if (call == "rotate" && x && !x->shape.empty()) return x->shape[0];
    return params.has(common::n().name) ? params.integer(common::n()) : 0;
  }
  if (call == "scores") {
    if (const Value* offsets = params.find("offsets")) {
      double far = 0;
      for (float delta : offsets->array) far = std::max(far, std::fabs(static_cast<double>(delta)));
      return static_cast<int64_t>(std::min(far, kMaxSeqLen)) + 1;
    }
    const PositionGrid grid = readGrid(withTokenPositions(params));
    double top = 0;
    for (int64_t b = 0; b < grid.batch; ++b) {
      for (int64_t i = 0; i < grid.nq; ++i) top = std::max(top, grid.queryAt(b, i));
      for (int64_t j = 0; j < grid.nk; ++j) top = std::max(top, grid.keyAt(b, j));
    }
    return static_cast<int64_t>(std::min(top, kMaxSeqLen)) + 1;
  }
  // attention: the largest query or key position + 1 (queries at i + queryOffset)
  const Value* q = params.find("q");
  const Value* k = params.find("k");
  if (!q || !k || q->shape.empty() || k->shape.empty()) return 0;
  const int64_t n = q->shape[0], m = k->shape[0];
  const int64_t offset = params.has(common::queryOffset().name) ? params.integer(common::queryOffset()) : m - n;
  return std::max(n - 1 + offset, m - 1) + 1;
}

namespace {

// (x, y) points with integral coordinates on the grid are the flat positions y * width + x, so they
// take the same path (and give the same bits) as those.
RowPositions onTheGrid(const RotaryPlan& plan, RowPositions positions) {
  const double w = static_cast<double>(plan.gridWidth);
  for (const RotaryPoint& p : positions.points) {
    if (plan.gridWidth <= 0 || p.x != std::floor(p.x) || p.y != std::floor(p.y) || p.x < 0 || p.x >= w) {
      return positions;
    }
  }
  for (size_t i = 0; i < positions.points.size(); ++i)
    positions.flat[i] = positions.points[i].y * w + positions.points[i].x;
  positions.points.clear();
  return positions;
}

// Rotates the rows of x in place: for each row i, the rotary slice of every head starts at one of
// `columns` (offsets into the row of width `width`). Integer positions in a compact range share one
// cos/sin table (built once, applied with the SIMD kernel to every head); anything else is rotated
// slice by slice with its own float64 angles.
void rotateRows(const RotaryPlan& plan, const RowPositions& given, const Params& params, int64_t width,
                const std::vector<int64_t>& columns, float* rows) {
  const RowPositions positions = onTheGrid(plan, given);
  const int64_t n = static_cast<int64_t>(positions.flat.size());
  const bool query = !plan.keyRole;
  double lo = 0, hi = 0;
  bool integral = positions.points.empty();
  for (int64_t i = 0; i < n; ++i) {
    const double p = positions.flat[i];
    integral = integral && p == std::floor(p);
    lo = i == 0 ? p : std::min(lo, p);
    hi = i == 0 ? p : std::max(hi, p);
  }
  if (integral && n > 0 && hi - lo < 4.0 * n + 64) {
    const auto table = RotaryTable::shared(plan, static_cast<int64_t>(lo), static_cast<int64_t>(hi - lo) + 1, query);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t column : columns) table->apply(static_cast<int64_t>(positions.flat[i]), rows + i * width + column);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    const RotaryPoint point = pointOf(plan, positions, i, params);
    for (int64_t column : columns) rotateRow(plan, point, query, rows + i * width + column);
  }
}

// rp.rotate's layout of x [n, heads * headWidth]: the head width, the rotated dims of each head and
// where they start. `d`, when given, must name the head width or the rotary width (rotaryDim).
struct RotateLayout {
  int64_t heads = 1;
  int64_t headWidth = 0;
  int64_t startIndex = 0;
};

RotateLayout rotateLayout(const Params& params, int64_t width) {
  RotateLayout l;
  l.heads = params.integer(common::heads());
  if (width % l.heads != 0) {
    throwRange(params.where() + ": heads (" + std::to_string(l.heads) + ") must divide the width of x (" +
               std::to_string(width) + ")");
  }
  l.headWidth = width / l.heads;
  l.startIndex = params.integer(rotaryParams().startIndex);
  if (params.has(rotaryParams().width.name)) {
    const int64_t d = params.integer(rotaryParams().width);
    const bool namesRotaryWidth =
        params.has(rotaryParams().rotaryDim.name) && d == params.integer(rotaryParams().rotaryDim);
    if (d != l.headWidth && !namesRotaryWidth) {
      std::string fix;
      if (!params.has(common::heads().name) && d < width && width % d == 0) {
        fix = "; to rotate each of " + std::to_string(width / d) + " heads of " + std::to_string(d) +
              " pass heads: " + std::to_string(width / d);
      }
      if (d < l.headWidth) {
        fix += (fix.empty() ? "; " : ", or ") + std::string("to rotate only the first ") + std::to_string(d) +
               " dims pass rotaryDim: " + std::to_string(d);
      }
      const std::string what = params.has(common::heads().name)
                                   ? "the head width " + std::to_string(l.headWidth) + " (x has width " +
                                         std::to_string(width) + " and " + std::to_string(l.heads) + " heads)"
                                   : "the width of x (" + std::to_string(width) + ")";
      throwRange(params.where() + ": d (" + std::to_string(d) + ") is not " + what + fix);
    }
  }
  return l;
}

Result rotate(const Scheme& scheme, const Params& params) {
  const Value* x = params.array("x");
  if (!x || x->shape.size() != 2) throwType(params.where() + ": x must be a tensor of shape [n, d]");
  const int64_t n = x->shape[0];
  const int64_t width = x->shape[1];
  checkResultSize(params.where(), static_cast<double>(n) * width);
  const RotateLayout layout = rotateLayout(params, width);
  const int64_t room = layout.headWidth - layout.startIndex;
  const bool givenRotaryDim = params.has(rotaryParams().rotaryDim.name);
  const int64_t r = givenRotaryDim ? params.integer(rotaryParams().rotaryDim) : room;
  if (layout.startIndex == 0) {
    // The plain case in the words of the head width d.
    if (!givenRotaryDim && r % 2 != 0) throwRange(params.where() + ": d must be even, got " + std::to_string(r));
    if (r > room) {
      throwRange(params.where() + ": rotaryDim must be <= d (" + std::to_string(room) + "), got " + std::to_string(r));
    }
  } else if (room < 0 || r > room) {
    throwRange(params.where() + ": startIndex + rotaryDim (" + std::to_string(layout.startIndex + r) +
               ") must be <= the head width " + std::to_string(layout.headWidth));
  }
  const RowPositions positions = rowPositions(params, n);
  // The plan reads the scheme's parameters: everything but x (not copied: it can be large) and d
  // (checked above against the width of x); it rotates from startIndex on.
  Params withRotary(params.where());
  for (const auto& name : params.names()) {
    if (name != "x" && name != rotaryParams().width.name) withRotary.set(name, *params.find(name));
  }
  withRotary.setNumber(rotaryParams().rotaryDim.name, static_cast<double>(r));
  const RotaryPlan plan = rotaryPlan(scheme, withRotary, layout.headWidth, seqLenOf(positions.flat));
  // x, rotated in place below: copied (one memcpy), not zero-filled first.
  Tensor out;
  out.shape = {n, width};
  out.f32.assign(x->array.data(), x->array.data() + x->array.size());
  std::vector<int64_t> columns;
  for (int64_t h = 0; h < layout.heads; ++h) columns.push_back(h * layout.headWidth);
  rotateRows(plan, positions, params, width, columns, out.f32.data());
  return single(std::move(out));
}

Result encoding(const Scheme& scheme, const Params& params) {
  const int64_t n = params.integer(common::n());
  const int64_t d = params.integer(rotaryParams().width);
  const RowPositions positions = rowPositions(params, n);
  const RotaryPlan plan = rotaryPlan(scheme, params, d, seqLenOf(positions.flat));
  const bool wantCos = params.choice(kEncodingOutput) == "cos";
  checkResultSize(params.where(), static_cast<double>(n) * d);
  Tensor out = Tensor::floats({n, d});
  for (int64_t i = 0; i < n; ++i) {
    const RotaryPoint point = pointOf(plan, positions, i, params);
    for (int64_t k = 0; k < plan.pairs(); ++k) {
      const double angle = plan.angle(point, k);
      const float v = static_cast<float>((wantCos ? std::cos(angle) : std::sin(angle)) * plan.attentionFactor);
      const auto [ia, ib] = plan.pairIndex(k);
      out.f32[i * d + ia] = v;
      out.f32[i * d + ib] = v;
    }
  }
  return single(std::move(out));
}

// The scores' plan: xPos's centre cancels in every q.k (zeta^((i - c)/B) zeta^(-(j - c)/B)), so
// the scores leave it out and do not even round differently with it.
RotaryPlan scoresPlan(const Scheme& scheme, const Params& params, int64_t d, int64_t seqLen) {
  RotaryPlan plan = rotaryPlan(scheme, params, d, seqLen);
  plan.xposCenter = 0;
  return plan;
}

// s(delta) = (R_0 q).(R_delta k) for each offset delta.
Result offsetScores(const Scheme& scheme, const Params& params, const std::vector<float>& q,
                    const std::vector<float>& k, int64_t d) {
  for (const ParamInfo* p : {&common::n(), &common::m(), &common::queryOffset(), &common::queryPositions(),
                             &common::keyPositions(), &rotaryParams().positions, &common::causal()}) {
    if (params.has(p->name)) {
      throwRange(params.where() + ": output 'offsets' gives s(delta) for the listed offsets; " + p->name +
                 " does not apply to it");
    }
  }
  const Value* list = params.array("offsets");
  if (!list) throwType(params.where() + ": offsets must be a list of relative offsets for output 'offsets'");
  double far = 0;
  for (float delta : list->array) far = std::max(far, std::fabs(static_cast<double>(delta)));
  const RotaryPlan plan = scoresPlan(scheme, params, d, static_cast<int64_t>(std::min(far, kMaxSeqLen)) + 1);
  std::vector<float> rq = q;
  rotateRow(plan, 0.0, true, rq.data());
  const int64_t count = static_cast<int64_t>(list->array.size());
  Tensor out = Tensor::floats({count});
  std::vector<float> rk(k.size());
  for (int64_t t = 0; t < count; ++t) {
    rk = k;
    rotateRow(plan, list->array[t], false, rk.data());
    out.f32[t] = static_cast<float>(dot(rq.data(), rk.data(), d));
  }
  return single(std::move(out));
}

// S_ij = (R_{p_i} q).(R_{p_j} k) at the call's query and key positions (schemes/grid.hpp; `positions`
// places queries and keys alike), with probe vectors (default: ones on the rotary dims), one head.
Result scores(const Scheme& scheme, const Params& params) {
  const int64_t d = params.integer(rotaryParams().width);
  const RotarySpan span = rotarySpan(params, d);
  std::vector<float> q(static_cast<size_t>(d), 0.0f);
  std::vector<float> k(static_cast<size_t>(d), 0.0f);
  std::fill_n(q.begin() + span.start, span.dims, 1.0f);
  std::fill_n(k.begin() + span.start, span.dims, 1.0f);
  if (const Value* v = params.array("q", d, "[d]")) q.assign(v->array.begin(), v->array.end());
  if (const Value* v = params.array("k", d, "[d]")) k.assign(v->array.begin(), v->array.end());
  if (params.choice(kScoresOutput) == "offsets") return offsetScores(scheme, params, q, k, d);
  if (params.has("offsets")) throwRange(params.where() + ": offsets need output: 'offsets'");
  const PositionGrid grid = readGrid(withTokenPositions(params));
  const int64_t block = grid.nq * grid.nk;
  checkResultSize(params.where(), static_cast<double>(grid.batch) * block);
  checkWorkingSet(params.where(), 4.0 * (static_cast<double>(grid.batch) * block + (grid.nq + grid.nk) * d),
                  "the [n, m] result and rotated queries [n, d] and keys [m, d]");
  double top = 0;
  for (int64_t b = 0; b < grid.batch; ++b) {
    for (int64_t i = 0; i < grid.nq; ++i) top = std::max(top, grid.queryAt(b, i));
    for (int64_t j = 0; j < grid.nk; ++j) top = std::max(top, grid.keyAt(b, j));
  }
  const RotaryPlan plan = scoresPlan(scheme, params, d, static_cast<int64_t>(std::min(top, kMaxSeqLen)) + 1);
  const bool causal = params.boolean(common::causal());
  Tensor out = Tensor::floats(grid.shape({1, grid.nq, grid.nk}));
  std::vector<float> rq(static_cast<size_t>(grid.nq * d));
  std::vector<float> rk(static_cast<size_t>(grid.nk * d));
  for (int64_t b = 0; b < grid.batch; ++b) {
    for (int64_t i = 0; i < grid.nq; ++i) {
      std::copy(q.begin(), q.end(), rq.begin() + i * d);
      rotateRow(plan, grid.queryAt(b, i), true, rq.data() + i * d);
    }
    for (int64_t j = 0; j < grid.nk; ++j) {
      std::copy(k.begin(), k.end(), rk.begin() + j * d);
      rotateRow(plan, grid.keyAt(b, j), false, rk.data() + j * d);
    }
    float* s = out.f32.data() + b * block;
    for (int64_t i = 0; i < grid.nq; ++i) {
      for (int64_t j = 0; j < grid.nk; ++j)
        s[i * grid.nk + j] = static_cast<float>(dot(rq.data() + i * d, rk.data() + j * d, d));
    }
    if (causal) maskCausal(grid, b, 1, -std::numeric_limits<float>::infinity(), s);
  }
  return single(std::move(out));
}

// s(delta)/sqrt(d) with the ones probe on the rotary dims: each pair adds 2 af^2 cos(delta theta_k)
// (times xPos's decay). The angles advance by a rotation recurrence in float64, re-anchored to exact
// cos/sin every 256 steps, so a million offsets cost no trig per offset.
std::vector<double> profile(const Scheme& scheme, const Params& params, const ProfileRequest& request) {
  const int64_t n = request.n, d = request.d;
  std::vector<double> f(static_cast<size_t>(2 * n - 1));
  const RotaryPlan plan = rotaryPlan(scheme, params, d, n);
  const double scale = 2.0 * plan.attentionFactor * plan.attentionFactor / std::sqrt(static_cast<double>(d));
  for (int64_t k = 0; k < plan.pairs(); ++k) {
    const double theta = plan.invFreq[k];
    const double stepCos = std::cos(theta), stepSin = std::sin(theta);
    double c = 1, sn = 0;
    for (int64_t delta = 0; delta < n; ++delta) {
      if (delta % 256 == 0) {
        c = std::cos(static_cast<double>(delta) * theta);
        sn = std::sin(static_cast<double>(delta) * theta);
      }
      const double forward = scale * c * plan.decay(k, static_cast<double>(delta));
      const double backward = scale * c * plan.decay(k, -static_cast<double>(delta));
      f[n - 1 + delta] += forward;
      if (delta > 0) f[n - 1 - delta] += backward;
      const double nextCos = c * stepCos - sn * stepSin;
      sn = sn * stepCos + c * stepSin;
      c = nextCos;
    }
  }
  return f;
}

}  // namespace

Scheme rotaryScheme(const char* id, const char* family, const char* name, const char* cite, const char* description,
                    std::vector<ParamInfo> extra, RotaryFn rotary) {
  const RotaryParams& p = rotaryParams();
  extra.insert(extra.begin(), {p.width, common::base(), p.halfLayout, p.rotaryDim, p.startIndex});
  Scheme s = describedScheme(id, family, name, cite, description, std::move(extra));
  s.reads = {{"encoding", {"positions", "output"}},
             {"frequencies", {"positions"}},
             {"rotate", {"positions"}},
             {"scores", {"q", "k", "offsets", "output", "positions"}}};
  s.frequencies = frequencies;
  s.rotate = rotate;
  s.encoding = encoding;  // Hugging Face's cos / sin cache
  s.scores = scores;
  // In attention q and k turn by the scheme's plan; a 1-D plan's scores depend on j - i alone.
  s.term = AttentionTerm::Rotary;
  s.rotary = rotary;
  s.shiftInvariant = alwaysShiftInvariant;
  s.logitProfile = profile;
  return s;
}

void replaceParam(Scheme& scheme, ParamInfo info) {
  for (auto& p : scheme.params) {
    if (p.name == info.name) p = info;
  }
}

// ---------------------------------------------------------------------------------------------
// The lab: queries and keys rotated per head by cos/sin tables [n, pairs] in float64.

namespace {

class RotaryTerm : public lab::Term {
 public:
  RotaryTerm(const Scheme& scheme, const lab::TermSetup& setup)
      : scheme_(scheme),
        heads_(setup.heads),
        headDim_(setup.headDim),
        trainLength_(setup.trainLength),
        where_(setup.options->where()) {
    if (headDim_ % 2 != 0) throwRange(where_ + ": rotary schemes need an even head width dModel/heads");
    prepare(trainLength_, false);  // the scheme's own checks (e.g. an axial plan's width), up front
  }

  void prepare(int64_t n, bool eval) override {
    Params params(where_);
    if (scheme_.lab.adjust) scheme_.lab.adjust(params, trainLength_, n, eval);
    const RotaryPlan plan = rotaryPlan(scheme_, params, headDim_, n);
    n_ = n;
    pairs_ = plan.pairs();
    pairA_.clear();
    pairB_.clear();
    for (int64_t k = 0; k < pairs_; ++k) {
      pairA_.push_back(plan.pairIndex(k).first);
      pairB_.push_back(plan.pairIndex(k).second);
    }
    const size_t size = static_cast<size_t>(n * pairs_);
    cos_.resize(size);
    sin_.resize(size);
    scaleQ_.resize(size);
    scaleK_.resize(size);
    for (int64_t i = 0; i < n; ++i) {
      const RotaryPoint point = plan.at(static_cast<double>(i));
      for (int64_t k = 0; k < pairs_; ++k) {
        const double angle = plan.angle(point, k);
        cos_[i * pairs_ + k] = std::cos(angle);
        sin_[i * pairs_ + k] = std::sin(angle);
        scaleQ_[i * pairs_ + k] = plan.magnitude(point, k, true);
        scaleK_[i * pairs_ + k] = plan.magnitude(point, k, false);
      }
    }
  }

  bool rotates() const override { return true; }

  void rotate(double* rows, bool query, bool backward) const override {
    const std::vector<double>& scale = query ? scaleQ_ : scaleK_;
    const int64_t width = heads_ * headDim_;
    for (int64_t i = 0; i < n_; ++i) {
      for (int64_t h = 0; h < heads_; ++h) {
        double* r = rows + i * width + h * headDim_;
        for (int64_t k = 0; k < pairs_; ++k) {
          const size_t t = static_cast<size_t>(i * pairs_ + k);
          const double cs = cos_[t], sn = backward ? -sin_[t] : sin_[t], s = scale[t];
          const double a = r[pairA_[k]], b = r[pairB_[k]];
          r[pairA_[k]] = s * (a * cs - b * sn);
          r[pairB_[k]] = s * (b * cs + a * sn);
        }
      }
    }
  }

 private:
  const Scheme& scheme_;
  int64_t heads_, headDim_, trainLength_;
  std::string where_;
  int64_t n_ = 0, pairs_ = 0;
  std::vector<int64_t> pairA_, pairB_;
  std::vector<double> cos_, sin_, scaleQ_, scaleK_;
};

}  // namespace

lab::Hooks rotaryLabHooks(const char* name) {
  lab::Hooks hooks;
  hooks.name = name;
  hooks.modes = {"explicit"};
  hooks.make = [](const Scheme& scheme, const lab::TermSetup& setup) -> std::unique_ptr<lab::Term> {
    return std::make_unique<RotaryTerm>(scheme, setup);
  };
  return hooks;
}

}  // namespace relpos
