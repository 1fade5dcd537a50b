#include "relpos/ops/attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/numeric.hpp"
#include "relpos/kernels/kernels.hpp"
#include "relpos/ops/operations.hpp"
#include "relpos/schemes/rotary_family.hpp"

// Set-up code that runs once per call (reading and checking options, error messages) compiled for
// size inside this -O3 file; the per-block work stays at -O3 (docs/build.md, "Size of the first module").
#if defined(__clang__)
#define RELPOS_COLD __attribute__((minsize, noinline))
#else
#define RELPOS_COLD
#endif

namespace relpos {

namespace {

constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

const ParamInfo& kMode = common::attentionMode();
const ParamInfo& kAlpha = common::mixedAlpha();
const ParamInfo& kBeta = common::mixedBeta();
const ParamInfo& kKvHeads = common::kvHeads();
const ParamInfo& kWindow = common::slidingWindow();
const ParamInfo& kScale = common::attentionScale();
const ParamInfo& kWeights = common::attentionWeights();
const ParamInfo& kMaskKind = common::maskKind();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Sizes of one call. With a batch, q, k, v (and B / mask of rank 4) have a leading batch dimension.
struct Shapes {
  int64_t batch = 1;
  bool batched = false;
  int64_t n = 0, m = 0;
  int64_t heads = 1, kvHeads = 1, group = 1;  // group: query heads per kv head
  int64_t dh = 0, dv = 0;
  int64_t queryOffset = 0;
  int64_t rowsPerBlock = 4;
  int64_t first = 0, rows = 0;  // the query rows computed: [first, first + rows) (queryRows; all n by default)
};

struct Inputs {
  const Value* q = nullptr;
  const Value* k = nullptr;
  const Value* v = nullptr;
  Shapes s;
};

RELPOS_COLD std::string shapeText(const Shape& shape) {
  std::string out = "[";
  for (size_t t = 0; t < shape.size(); ++t) out += (t ? ", " : "") + std::to_string(shape[t]);
  return out + "]";
}

RELPOS_COLD const Value& tensorInput(const Params& params, const std::string& name, const std::string& rows) {
  const Value* v = params.array(name);
  if (!v || (v->shape.size() != 2 && v->shape.size() != 3)) {
    throwType(params.where() + ": " + name + " must be a tensor of shape [" + rows + ", heads*d] or [batch, " + rows +
              ", heads*d]" + (v ? ", got " + shapeText(v->shape) : ""));
  }
  return *v;
}

// The width of `value` split into `heads` heads of equal size.
RELPOS_COLD int64_t headWidth(const Params& params, const std::string& name, int64_t width, int64_t heads,
                              const std::string& headsName) {
  if (width % heads != 0) {
    throwRange(params.where() + ": " + headsName + " (" + std::to_string(heads) + ") must divide the width of " + name +
               ", got " + std::to_string(width));
  }
  return width / heads;
}

RELPOS_COLD Inputs readInputs(const Params& params) {
  Inputs in;
  in.q = &tensorInput(params, "q", "n");
  in.k = &tensorInput(params, "k", "m");
  in.v = params.array("v");
  Shapes& s = in.s;
  const size_t rank = in.q->shape.size();
  s.batched = rank == 3;
  s.batch = s.batched ? in.q->shape[0] : 1;
  auto same = [&](const Value& t, const std::string& name) {
    if (t.shape.size() != rank || (s.batched && t.shape[0] != s.batch)) {
      throwRange(params.where() + ": " + name + " must have the rank and batch of q " + shapeText(in.q->shape) +
                 ", got " + shapeText(t.shape));
    }
  };
  same(*in.k, "k");
  s.n = in.q->shape[rank - 2];
  s.m = in.k->shape[rank - 2];
  s.heads = params.integer(common::heads());
  s.kvHeads = params.has(kKvHeads.name) ? params.integer(kKvHeads) : s.heads;
  if (s.heads % s.kvHeads != 0) {
    throwRange(params.where() + ": kvHeads (" + std::to_string(s.kvHeads) + ") must divide heads (" +
               std::to_string(s.heads) + ")");
  }
  s.group = s.heads / s.kvHeads;
  const bool grouped = params.has(kKvHeads.name);
  const std::string kvName = grouped ? "kvHeads" : "heads";
  s.dh = headWidth(params, "q", in.q->shape[rank - 1], s.heads, "heads");
  const int64_t kWidth = in.k->shape[rank - 1];
  if (!grouped && kWidth != in.q->shape[rank - 1]) {
    throwRange(params.where() + ": k must have the width of q (" + std::to_string(in.q->shape[rank - 1]) + "), got " +
               std::to_string(kWidth));
  }
  if (kWidth != s.kvHeads * s.dh) {
    throwRange(params.where() + ": k must have kvHeads * d = " + std::to_string(s.kvHeads * s.dh) +
               " columns (d = " + std::to_string(s.dh) + " from q), got " + std::to_string(kWidth));
  }
  if (in.v) {
    if (in.v->shape.size() != rank || in.v->shape[rank - 2] != s.m || (s.batched && in.v->shape[0] != s.batch)) {
      throwType(params.where() + ": v must be a tensor of shape [m, " + kvName + "*dv] with m = " +
                std::to_string(s.m) + (s.batched ? " (and the batch of q)" : "") + ", got " + shapeText(in.v->shape));
    }
    const ParamInfo& valueHeadDim = modelAttentionParams().valueHeadDim;
    if (params.has(valueHeadDim.name)) {
      const int64_t dv = params.integer(valueHeadDim);
      if (in.v->shape[rank - 1] != s.kvHeads * dv) {
        throwRange(params.where() + ": v must have " + kvName + " * valueHeadDim = " + std::to_string(s.kvHeads) +
                   " * " + std::to_string(dv) + " = " + std::to_string(s.kvHeads * dv) + " columns, got " +
                   shapeText(in.v->shape));
      }
    }
    s.dv = headWidth(params, "v", in.v->shape[rank - 1], s.kvHeads, kvName);
  }
  s.queryOffset = params.has(common::queryOffset().name) ? params.integer(common::queryOffset()) : s.m - s.n;
  return in;
}

// An [n, m] term given per call ([n, m]), per head ([heads, n, m]) or per sequence and head
// ([batch, heads or 1, n, m]): where entry (b, h, i, j) is.
struct Given {
  const float* data = nullptr;
  int64_t headStride = 0;
  int64_t batchStride = 0;
  int64_t rowStride = 0;  // m, or 0 for one row broadcast over the queries (a key-padding mask)
  // Borrowed (rp.alloc) and not scanned for NaN / +Infinity yet: AttentionRun::run() scans each
  // block of rows just before the kernel reads it, so the values cross from memory once.
  bool unscanned = false;
  const float* at(int64_t b, int64_t h) const { return data + b * batchStride + h * headStride; }
};

// A mask may also be [batch, heads or 1, 1, m]: one row for every query (Hugging Face's key-padding
// attention_mask [batch, m], which the JS entry hands over in that shape).
RELPOS_COLD Given readGiven(const Params& params, const std::string& name, const Shapes& s, bool rowBroadcast = false) {
  const Value* v = params.find(name);
  const bool later = v && v->borrowed && v->nonFinite == NonFinite::Unknown;
  if (!later) v = params.maskedArray(name);  // -Infinity masks a pair
  if (!v) return {};
  const int64_t nm = s.n * s.m;
  const Shape& shape = v->shape;
  const size_t rank = shape.size();
  const bool tail = rank >= 2 && shape[rank - 2] == s.n && shape[rank - 1] == s.m;
  Given g{v->data(), 0, 0, s.m, later};
  if (tail && rank == 2) return g;
  if (tail && rank == 3 && shape[0] == s.heads) return {g.data, nm, 0, s.m, later};
  if (tail && rank == 4 && shape[0] == s.batch && (shape[1] == s.heads || shape[1] == 1)) {
    return {g.data, shape[1] == 1 ? 0 : nm, shape[1] * nm, s.m, later};
  }
  if (rowBroadcast && rank == 4 && shape[0] == s.batch && (shape[1] == s.heads || shape[1] == 1) && shape[2] == 1 &&
      shape[3] == s.m) {
    return {g.data, shape[1] == 1 ? 0 : s.m, shape[1] * s.m, 0, later};
  }
  const std::string n = std::to_string(s.n), m = std::to_string(s.m);
  throwRange(params.where() + ": " + name + " must have shape [n, m] = [" + n + ", " + m + "], [heads, n, m] = [" +
             std::to_string(s.heads) + ", " + n + ", " + m + "] or [batch, heads or 1, n, m]" +
             (rowBroadcast ? " (or a key-padding [batch, m] = [" + std::to_string(s.batch) + ", " + m + "])" : "") +
             ", got " + shapeText(shape));
}

// The positional term, resolved from the given B / P or the scheme, plus the mask.
struct Terms {
  Given bias;                          // a given B
  std::vector<float> profile;          // a shift-invariant scheme bias: heads x (n + m - 1), f(j - i)
  bool windowBias = false;             // any other scheme bias: filled per block of rows
  std::vector<float> keyVectors;       // P [m, dh]
  const float* pairVectors = nullptr;  // P [n, m, dh]
  PairTable table;
  bool hasTable = false;
  RotaryPlan rotary;
  bool hasRotary = false;
  bool logits = false;  // the scheme computes its logits itself
  Given mask;
  bool booleanMask = true;
  bool hasBias() const { return bias.data || !profile.empty() || windowBias; }
  bool hasVectors() const { return !keyVectors.empty() || pairVectors || hasTable; }
  bool pairTerm() const { return pairVectors || hasTable; }
};

// positioned: the caller placed queries or keys (positions, keyPositions), so no profile of j - i.
RELPOS_COLD Terms resolveTerms(const Params& params, const Scheme* scheme, const Shapes& s, bool positioned,
                               int64_t positionedSeqLen) {
  Terms t;
  t.bias = readGiven(params, "B", s);
  t.mask = readGiven(params, "mask", s, true);
  t.booleanMask = params.choice(kMaskKind) == "boolean";
  if (params.has(kMaskKind.name) && !t.mask.data) throwRange(params.where() + ": maskKind needs a mask");
  if (const Value* p = params.array("P")) {
    const int64_t perKey = s.m * s.dh;
    if (static_cast<int64_t>(p->size()) == perKey) {
      t.keyVectors.assign(p->data(), p->data() + p->size());
    } else if (static_cast<int64_t>(p->size()) == s.n * perKey) {
      t.pairVectors = p->data();
    } else {
      throwRange(params.where() + ": P must have shape [m, d] or [n, m, d] with d the head dim (" +
                 std::to_string(s.dh) + "), got " + shapeText(p->shape));
    }
  }
  if (!scheme) return t;
  switch (scheme->term) {
    case AttentionTerm::Bias:
      if (t.bias.data) break;
      if (!positioned && scheme->shiftInvariant && scheme->shiftInvariant(params, s.dh)) {
        // One query at position queryOffset + n - 1 against keys 0 .. n + m - 2 covers every j - i.
        const int64_t count = s.n + s.m - 1;
        t.profile.resize(static_cast<size_t>(s.heads * count));
        scheme->fillBias(params, BiasWindow{s.heads, 1, count, s.queryOffset + s.n - 1, 0}, t.profile.data());
      } else {
        t.windowBias = true;
      }
      break;
    case AttentionTerm::Rotary: {
      // The scheme's d names the head width of q and k (or the rotary width, rotaryDim).
      const ParamInfo& width = rotaryParams().width;
      const ParamInfo& rotaryDim = rotaryParams().rotaryDim;
      if (params.has(width.name) && params.integer(width) != s.dh &&
          !(params.has(rotaryDim.name) && params.integer(width) == params.integer(rotaryDim))) {
        throwRange(params.where() + ": q must have heads of d = " + std::to_string(params.integer(width)) +
                   " dims (the scheme's d), got " + std::to_string(s.dh) + " (q has " + std::to_string(s.heads * s.dh) +
                   " columns over " + std::to_string(s.heads) + " heads)");
      }
      const int64_t seqLen = positioned ? positionedSeqLen : std::max(s.n - 1 + s.queryOffset, s.m - 1) + 1;
      t.rotary = rotaryPlan(*scheme, params, s.dh, seqLen);
      t.hasRotary = true;
      break;
    }
    case AttentionTerm::KeyVector:
      if (t.keyVectors.empty() && !t.pairVectors) {
        t.keyVectors.resize(static_cast<size_t>(s.m * s.dh));
        scheme->positionVectors(params, 0, s.m, s.dh, t.keyVectors.data());
      }
      break;
    case AttentionTerm::PairTable:
      t.table = scheme->pairTable(params, s.n, s.m, s.queryOffset, s.dh);
      t.hasTable = true;
      break;
    case AttentionTerm::Logits:
      t.logits = true;
      break;
    case AttentionTerm::None:
    case AttentionTerm::Unsupported:
      break;
  }
  return t;
}

// logit = scale (q.k + vector q.p) + bias B (docs/attention.md); scale 1/sqrt(d) unless given.
struct Weights {
  double scale = 1;
  double vector = 1;
  double bias = 1;
};

RELPOS_COLD Weights modeWeights(const Params& params, const Scheme* scheme, const Terms& terms, const Shapes& s) {
  std::string mode = params.choice(kMode);
  if (!params.has(kMode.name) && scheme &&
      (scheme->term == AttentionTerm::KeyVector || scheme->term == AttentionTerm::PairTable)) {
    mode = "implicit";  // a vector scheme's natural mode
  }
  if (mode == "explicit" && terms.hasVectors() && !terms.hasBias()) {
    throwRange(params.where() +
               ": mode 'explicit' needs a bias B or a bias scheme; position vectors P need mode 'implicit' or 'mixed'");
  }
  if (mode == "implicit" && terms.hasBias() && !terms.hasVectors()) {
    throwRange(
        params.where() +
        ": mode 'implicit' needs position vectors P or a vector scheme; a bias B needs mode 'explicit' or 'mixed'");
  }
  Weights w;
  // A scheme with a parameter named scale (CoPE's gate scale) reads it itself: not the logit scale.
  // An option whose name the scheme's parameters use too arrives as "call.<name>" (callValueKey).
  const auto own = [&](const ParamInfo& info) {
    ParamInfo keyed = info;
    keyed.name = callValueKey(scheme, info);
    return keyed;
  };
  const bool givenScale = params.has(own(kScale).name);
  w.scale = givenScale ? params.number(own(kScale)) : 1.0 / std::sqrt(static_cast<double>(s.dh));
  if (scheme && terms.logits && givenScale) {  // only a scheme computes its own logits
    throwRange(params.where() + ": scale does not apply to scheme '" + scheme->id +
               "', which computes its logits (and their scale) itself" +
               (scheme->hasParam(kScale.name) ? "; its own parameter scale goes under params: { scale }" : ""));
  }
  // alpha and beta weigh the terms of mode 'mixed' only: given to another mode they would do nothing.
  for (const ParamInfo* weight : {&kAlpha, &kBeta}) {
    if (mode != "mixed" && params.has(own(*weight).name)) {
      throwRange(params.where() + ": " + weight->name + " applies to mode 'mixed' (" + weight->doc +
                 "); this call runs mode '" + mode + "' — leave " + weight->name + " out, or pass mode: 'mixed'");
    }
  }
  if (mode == "mixed") {
    w.vector = params.number(own(kBeta));
    w.bias = params.number(own(kAlpha)) * w.scale;
  }
  return w;
}

// Rows per block: a block of weights (rows x m floats) stays within 256 KiB, so a block is written
// while in cache and, for copied results, handed out before it leaves it.
int64_t rowsPerBlock(int64_t m) {
  const int64_t rows = std::clamp<int64_t>((int64_t{1} << 16) / std::max<int64_t>(m, 1), 4, 256);
  return rows / kernels::kRowTile * kernels::kRowTile;
}

// Scratch of one run, O(rows·m + kvHeads·m·d): nothing here grows with n·m.
struct Workspace {
  std::vector<float> panels;   // packed keys of every kv head of one sequence
  std::vector<float> keys;     // one kv head's keys [m, dh] (every kv head for a logits scheme)
  std::vector<float> queries;  // one block of one head's queries [rows, dh]
  std::vector<float> weights;  // one block of weights [rows, m] when they are not kept in the result
  std::vector<float> bias;     // a scheme's bias for one block of rows, every head [heads, rows, m]
  std::vector<float> terms;    // pair terms (plus any bias) of one block [rows, m]
  std::vector<float> mask;     // a boolean mask as 0 / -Infinity for one block [rows, m]
  std::vector<double> dots;    // q . table row, [rows, T]; or per-bucket weights [T]
  kernels::OnlineScratch online;
};

template <class T>
T* sized(std::vector<T>& v, int64_t count) {
  if (static_cast<int64_t>(v.size()) < count) v.resize(static_cast<size_t>(count));
  return v.data();
}

// The sizes and key ranges of a call read leniently, for its work before the call checks them
// (ops/operations.cpp asks it before any validation): `valid` false when q and k cannot be read.
struct Geometry {
  bool valid = false;
  double batch = 1, heads = 1, dh = 0, dv = 0;
  int64_t n = 0, m = 0, chunk = 0;
  kernels::KeyRange keys;
};

double numberOr(const Params& params, const std::string& name, double fallback) {
  const Value* v = params.find(name);
  return v && v->type == Value::Type::Number && std::isfinite(v->number) ? v->number : fallback;
}

Geometry geometryOf(const Params& params) {
  Geometry g;
  const Value* q = params.find("q");
  const Value* k = params.find("k");
  if (!q || !k || q->type != Value::Type::Array || k->type != Value::Type::Array || q->shape.size() < 2 ||
      k->shape.size() < 2) {
    return g;
  }
  g.n = q->shape[q->shape.size() - 2];
  g.m = k->shape[k->shape.size() - 2];
  g.batch = q->shape.size() == 3 ? static_cast<double>(q->shape[0]) : 1.0;
  g.heads = std::max(1.0, numberOr(params, common::heads().name, 1));
  g.dh = static_cast<double>(q->shape.back()) / g.heads;
  if (const Value* v = params.find("v"); v && v->type == Value::Type::Array && !v->shape.empty()) {
    g.dv = static_cast<double>(v->shape.back()) / std::max(1.0, numberOr(params, kKvHeads.name, g.heads));
  }
  const Value* causal = params.find(common::causal().name);
  g.keys.causal = causal && causal->type == Value::Type::Boolean && causal->boolean;
  // Clamped so that a wild value cannot overflow the key range's arithmetic (the call refuses it).
  const double limit = 1e15;
  g.keys.queryOffset = static_cast<int64_t>(
      std::clamp(numberOr(params, common::queryOffset().name, static_cast<double>(g.m - g.n)), -limit, limit));
  g.keys.window = static_cast<int64_t>(std::clamp(numberOr(params, kWindow.name, 0), 0.0, limit));
  // causalAlign 'topLeft' (SDPA's is_causal): the key range of query i is that of position i.
  const Value* align = params.find(modelAttentionParams().causalAlign.name);
  if (g.keys.causal && align && align->type == Value::Type::String && align->text == "topLeft") g.keys.queryOffset = 0;
  if (g.keys.causal) {
    g.chunk = static_cast<int64_t>(std::clamp(numberOr(params, "attentionChunkSize", 0), 0.0, limit));
  }
  g.valid = g.n > 0 && g.m >= 0;
  return g;
}

// The keys row i attends to: its key range, narrowed to its chunk in a chunked layer.
int64_t keysOfRow(const Geometry& g, int64_t i) {
  int64_t begin = g.keys.begin(i, g.m);
  const int64_t end = g.keys.end(i, g.m);
  if (g.chunk > 0) {
    const int64_t p = i + g.keys.queryOffset;
    const int64_t start = (p >= 0 ? p / g.chunk : -((-p + g.chunk - 1) / g.chunk)) * g.chunk;
    begin = std::max(begin, start);
  }
  return std::max<int64_t>(0, end - begin);
}

double keysSeen(const Geometry& g, int64_t first, int64_t end) {
  if (!g.keys.causal && g.keys.window == 0) return static_cast<double>(end - first) * static_cast<double>(g.m);
  double sum = 0;
  for (int64_t i = first; i < end; ++i) sum += static_cast<double>(keysOfRow(g, i));
  return sum;
}

// queryRows as given, or all n rows; {0, 0} when readQueryRows would refuse them (the call reports it).
std::pair<int64_t, int64_t> givenRows(const Params& params, int64_t n) {
  const Value* v = params.find(queryRowsParam().name);
  if (!v) return {0, n};
  if (v->type != Value::Type::Array || v->size() != 2) return {0, 0};
  const double a = v->at(0), b = v->at(1), tile = static_cast<double>(kernels::kRowTile);
  if (!(0 <= a && a < b && b <= static_cast<double>(n)) || a != std::floor(a) || b != std::floor(b)) return {0, 0};
  if (std::fmod(a, tile) != 0 || (b != static_cast<double>(n) && std::fmod(b, tile) != 0)) return {0, 0};
  return {static_cast<int64_t>(a), static_cast<int64_t>(b)};
}

// The rows [first, end) of queryRows, checked: whole register tiles of the whole call, so that each
// row's tile (the key range its QK^T reads) is the one it has in the whole call.
RELPOS_COLD std::pair<int64_t, int64_t> readQueryRows(const Params& params, int64_t n) {
  const Value* v = params.find(queryRowsParam().name);
  if (!v) return {0, n};
  const int64_t tile = kernels::kRowTile;
  const auto whole = [](double x) { return std::isfinite(x) && x == std::floor(x); };
  const bool pair = v->type == Value::Type::Array && v->size() == 2 && whole(v->at(0)) && whole(v->at(1));
  const double a = pair ? v->at(0) : 0, b = pair ? v->at(1) : 0;
  const bool tiled = pair && std::fmod(a, static_cast<double>(tile)) == 0 &&
                     (b == static_cast<double>(n) || std::fmod(b, static_cast<double>(tile)) == 0);
  if (!pair || !(0 <= a && a < b && b <= static_cast<double>(n)) || !tiled) {
    std::string got;
    if (v->type == Value::Type::Array) {
      for (size_t t = 0; t < v->size(); ++t) got += (t ? ", " : "") + formatNumber(v->at(t));
    }
    throwRange(params.where() + ": queryRows must be [first, end) with 0 <= first < end <= n (" + std::to_string(n) +
               "), first a multiple of " + std::to_string(tile) + " (the core's row tile) and end one too or n; got [" +
               got + "]");
  }
  return {static_cast<int64_t>(a), static_cast<int64_t>(b)};
}

// One call, split into units (sequence, block of rows, head) that run in order: the synchronous
// call runs them all, the job a few per step.
class AttentionRun {
 public:
  RELPOS_COLD AttentionRun(const Params& params, const Scheme* scheme, WeightsSink* sink, Workspace& ws,
                           PackedKeySource* keySource = nullptr)
      : params_(params),
        scheme_(scheme),
        sink_(sink),
        keySource_(keySource),
        ws_(ws),
        in_(readInputs(params)),
        s_(in_.s) {
    keepWeights_ = params.boolean(kWeights);
    if (!keepWeights_ && !in_.v) throwRange(params.where() + ": weights: false needs v (the output is all it returns)");
    keys_ = kernels::KeyRange{params.boolean(common::causal()), s_.queryOffset,
                              params.has(kWindow.name) ? params.integer(kWindow) : 0};
    const auto [first, end] = readQueryRows(params, s_.n);
    s_.first = first;
    s_.rows = end - first;
    checkSizes();
    readModelOptions();
    const bool positioned = !qPos_.empty() || !kPos_.empty();
    int64_t positionedSeqLen = 1;
    for (double p : qPos_) positionedSeqLen = std::max(positionedSeqLen, static_cast<int64_t>(std::min(p, 1e15)) + 1);
    for (double p : kPos_) positionedSeqLen = std::max(positionedSeqLen, static_cast<int64_t>(std::min(p, 1e15)) + 1);
    terms_ = resolveTerms(params, scheme, s_, positioned, positionedSeqLen);
    checkModelOptions(positioned);
    if (rotated_) takeRotated(positioned);
    weights_ = modeWeights(params, scheme, terms_, s_);
    s_.rowsPerBlock = rowsPerBlock(s_.m);
    // The blocks of the whole call that hold the rows asked for (all of them by default).
    firstBlock_ = s_.first / s_.rowsPerBlock;
    blocks_ = s_.rows > 0 ? (s_.first + s_.rows - 1) / s_.rowsPerBlock - firstBlock_ + 1 : 0;
    if (keepWeights_) {
      Shape shape = {s_.heads, s_.rows, s_.m};
      if (s_.batched) shape.insert(shape.begin(), s_.batch);
      if (sink_) {
        weightsShape_ = shape;
        sink_->begin(shape);
      } else {
        result_ = Tensor::floats(shape);
      }
    }
    if (in_.v) {
      output_ =
          Tensor::floats(s_.batched ? Shape{s_.batch, s_.rows, s_.heads * s_.dv} : Shape{s_.rows, s_.heads * s_.dv});
    }
    if (terms_.hasRotary) {
      // Queries sit at queryOffset .. queryOffset+n-1 and keys at 0 .. m-1: one table each, so that a
      // large queryOffset (up to 1e9) does not size a table over the gap between them.
      if (qPos_.empty()) queryTable_ = RotaryTable::shared(terms_.rotary, s_.queryOffset, s_.n, true);
      // The key table covers 0 .. m-1 rounded up to 256 rows, so that the decode steps of a growing
      // KV cache (rp.kvCache) reuse one cached table for 256 keys instead of rebuilding it each step.
      const int64_t keyRows = (s_.m + 255) / 256 * 256;
      if (kPos_.empty()) keyTable_ = RotaryTable::shared(terms_.rotary, 0, keyRows, false);
    }
  }

  int64_t units() const { return s_.batch * blocks_ * s_.heads; }

  // Runs unit u; units must run in order 0, 1, 2, …
  void run(int64_t u) {
    const int64_t h = u % s_.heads;
    const int64_t nth = (u / s_.heads) % blocks_;
    const int64_t b = u / (s_.heads * blocks_);
    // Block firstBlock_ + nth of the whole call, clipped to the rows asked for.
    const int64_t blockStart = (firstBlock_ + nth) * s_.rowsPerBlock;
    const int64_t i0 = std::max(blockStart, s_.first);
    const int64_t rows = std::min({blockStart + s_.rowsPerBlock, s_.n, s_.first + s_.rows}) - i0;
    if (nth == 0 && h == 0) packSequence(b);
    if (h == 0 && terms_.windowBias) {
      const BiasWindow window{s_.heads,
                              rows,
                              s_.m,
                              s_.queryOffset + i0,
                              0,
                              qPos_.empty() ? nullptr : qPos_.data() + b * s_.n + i0,
                              kPos_.empty() ? nullptr : kPos_.data() + b * s_.m};
      scheme_->fillBias(params_, window, sized(ws_.bias, s_.heads * rows * s_.m));
    }
    if (terms_.bias.unscanned) scanBiasRows(b, h, i0, rows);
    headBlock(b, h, i0, rows);
  }

  Result finish() {
    Result out;
    if (keepWeights_) {
      if (sink_) result_.shape = weightsShape_;  // the values went to the sink
      out.emplace("weights", std::move(result_));
    }
    if (in_.v) out.emplace("output", std::move(output_));
    return out;
  }

 private:
  // The work budget of a synchronous call is compute()'s to check (ops/operations.cpp); these are
  // the sizes every run, job or not, must fit.
  RELPOS_COLD void checkSizes() {
    const double n = static_cast<double>(s_.n), m = static_cast<double>(s_.m), dh = static_cast<double>(s_.dh);
    const double heads = static_cast<double>(s_.heads), batch = static_cast<double>(s_.batch);
    const double rows = static_cast<double>(rowsPerBlock(s_.m));
    // The whole call's result, also for a range of its rows: the pool's parts fail as the whole call.
    if (keepWeights_) checkResultSize(params_.where(), batch * heads * n * m);
    // Everything allocated below, sized before the first allocation (floats).
    const double kept = static_cast<double>(s_.rows);
    double floats = (keepWeights_ && !sink_ ? batch * heads * kept * m : 0.0) + batch * kept * heads * s_.dv;
    floats += static_cast<double>(s_.kvHeads) * (m + kernels::kPanel) * dh + s_.kvHeads * m * dh + rows * dh;
    floats += (heads + 3.0) * rows * m + heads * (n + m) + 2.0 * (n + m) * dh + m * dh;
    if (scheme_ && scheme_->term == AttentionTerm::PairTable) floats += n * m + 2.0 * rows * (n + m);
    checkWorkingSet(params_.where(), 4.0 * floats, "weights, output and per-block scratch");
  }

  // The options of attention as models run it (attention.hpp); checked before any allocation.
  RELPOS_COLD void readModelOptions() {
    const ModelAttentionParams& mp = modelAttentionParams();
    const std::string& where = params_.where();
    // -Infinity is no sink (kernels::LogitSpec::sink), so a head may have none.
    if (const Value* v = params_.maskedArray(mp.sinks.name)) {
      if (v->shape.size() != 1 || static_cast<int64_t>(v->array.size()) != s_.heads) {
        throwRange(where + ": sinks must have " + std::to_string(s_.heads) + " entries (one per query head), got " +
                   (v->shape.size() == 1 ? std::to_string(v->array.size()) : "shape " + shapeText(v->shape)));
      }
      for (size_t h = 0; h < v->array.size(); ++h) sinks_.push_back(v->at(h));
    }
    if (params_.has(mp.softcap.name)) softcap_ = params_.number(mp.softcap);
    rotated_ = params_.boolean(mp.rotated);
    uniformEmpty_ = params_.has(mp.fullyMaskedRows.name) && params_.choice(mp.fullyMaskedRows) == "uniform";
    if (params_.has(mp.causalAlign.name) && params_.choice(mp.causalAlign) == "topLeft") {
      if (!keys_.causal) throwRange(where + ": causalAlign needs causal: true (it says where the causal mask sits)");
      keys_.queryOffset = 0;  // the mask only: queries keep their positions, i + queryOffset
    }
    if (params_.has(mp.chunk.name)) {
      keys_.chunk = params_.integer(mp.chunk);
      if (!keys_.causal) {
        throwRange(where +
                   ": attentionChunkSize needs causal: true (chunked layers are causal: the query's chunk up to it)");
      }
    }
    if (const Value* v = params_.array(mp.temperature.name)) {
      if (v->array.size() != 2) {
        throwRange(where + ": temperatureTuning must be { floorScale, attnScale }, got " +
                   std::to_string(v->array.size()) + " values");
      }
      floorScale_ = v->at(0);
      attnScale_ = v->at(1);
      if (!(floorScale_ > 0)) {
        throwRange(where + ": temperatureTuning.floorScale must be > 0, got " + formatNumber(floorScale_));
      }
      tuned_ = true;
    }
    qPos_ = readPositions(mp.positions.name, s_.n, "n");
    kPos_ = readPositions(mp.keyPositions.name, s_.m, "m");
    if (!qPos_.empty() && kPos_.empty()) {
      if (s_.m != s_.n) {
        throwRange(where + ": positions place the " + std::to_string(s_.n) +
                   " queries; with m = " + std::to_string(s_.m) + " keys give keyPositions ([m] or [batch, m]) too");
      }
      kPos_ = qPos_;  // self-attention: the keys are the same tokens (Hugging Face's position_ids)
    }
  }

  // positions [count] (every sequence) or [batch, count], as batch x count values.
  RELPOS_COLD std::vector<double> readPositions(const std::string& name, int64_t count, const std::string& what) const {
    const Value* v = params_.array(name);
    if (!v) return {};
    const Shape& shape = v->shape;
    const bool flat = shape.size() == 1 && shape[0] == count;
    const bool perSequence = shape.size() == 2 && shape[0] == s_.batch && shape[1] == count;
    if (!flat && !perSequence) {
      throwRange(params_.where() + ": " + name + " must have shape [" + what + "] = [" + std::to_string(count) +
                 "] or [batch, " + what + "] = [" + std::to_string(s_.batch) + ", " + std::to_string(count) +
                 "], got " + shapeText(shape));
    }
    std::vector<double> out(static_cast<size_t>(s_.batch * count));
    for (int64_t b = 0; b < s_.batch; ++b) {
      for (int64_t i = 0; i < count; ++i) out[b * count + i] = v->at(static_cast<size_t>((flat ? 0 : b * count) + i));
    }
    return out;
  }

  RELPOS_COLD void checkModelOptions(bool positioned) const {
    const std::string& where = params_.where();
    if (positioned) {
      const bool placed = scheme_ && (terms_.hasRotary || terms_.windowBias || scheme_->term == AttentionTerm::None);
      if (!placed || terms_.bias.data || terms_.pairTerm() || !terms_.keyVectors.empty()) {
        throwRange(where + ": positions and keyPositions place the queries and keys of rotary and bias schemes" +
                   (scheme_ ? "; '" + scheme_->id + "' here" : "; this call has no scheme") +
                   (terms_.bias.data || terms_.pairTerm() || !terms_.keyVectors.empty()
                        ? " with a given B or P, which are indexed by row, not by position"
                        : " takes its positions from the row indices"));
      }
    }
    if (softcap_ > 0 && terms_.pairTerm()) {
      throwRange(where + ": softcap caps scale * q.k; a pair term (Shaw's aK, a given P [n, m, d]) has no capped form");
    }
  }

  // rotated: true: q and k carry the scheme's rotation already, so none is applied; a call that
  // would have nothing to skip, or positions that would place nothing, is refused.
  RELPOS_COLD void takeRotated(bool positioned) {
    const std::string& where = params_.where();
    if (!terms_.hasRotary) {
      throwRange(where + ": rotated: true says q and k arrive rotated by the rotary scheme; " +
                 (scheme_ ? "'" + scheme_->id + "' does not rotate" : "this call has no scheme"));
    }
    if (positioned) {
      throwRange(where + ": rotated: true: q and k arrive rotated, so positions and keyPositions would place nothing");
    }
    terms_.hasRotary = false;
  }

  // Temperature tuning's query factor at position p (Llama-4 NoPE layers).
  double temperature(int64_t p) const {
    return std::log(std::floor((static_cast<double>(p) + 1.0) / floorScale_) + 1.0) * attnScale_ + 1.0;
  }

  // Packs the keys of every kv head of sequence b: rotated, with key vectors folded in
  // (q.(k + w p_j) = q.k + w q.p_j). A logits scheme keeps them unpacked for its own hook.
  void packSequence(int64_t b) {
    const int64_t width = s_.kvHeads * s_.dh;
    const float* k = in_.k->data() + b * s_.m * width;
    panelFloats_ = kernels::packedSize(s_.m, s_.dh);
    // Tables at sequence b's given positions: the same rotation path as the default ranges.
    if (terms_.hasRotary && !qPos_.empty()) {
      queryTable_ = std::make_shared<const RotaryTable>(terms_.rotary,
                                                        RotaryTable::Positions{qPos_.data() + b * s_.n, s_.n}, true);
    }
    if (terms_.hasRotary && !kPos_.empty()) {
      keyTable_ = std::make_shared<const RotaryTable>(terms_.rotary,
                                                      RotaryTable::Positions{kPos_.data() + b * s_.m, s_.m}, false);
    }
    if (heldKeys()) return;  // a KV cache's, packed (and rotated) when they were appended
    const bool plain = !terms_.hasRotary && terms_.keyVectors.empty() && !terms_.logits;
    float* panels = terms_.logits ? nullptr : sized(ws_.panels, s_.kvHeads * panelFloats_);
    float* keys = plain ? nullptr : sized(ws_.keys, (terms_.logits ? s_.kvHeads : 1) * s_.m * s_.dh);
    for (int64_t g = 0; g < s_.kvHeads; ++g) {
      if (plain) {  // packed straight from k
        kernels::packKeys(k + g * s_.dh, s_.m, s_.dh, width, panels + g * panelFloats_);
        continue;
      }
      float* kh = keys + (terms_.logits ? g * s_.m * s_.dh : 0);
      for (int64_t j = 0; j < s_.m; ++j) std::copy_n(k + j * width + g * s_.dh, s_.dh, kh + j * s_.dh);
      if (terms_.hasRotary) {
        for (int64_t j = 0; j < s_.m; ++j) keyTable_->apply(j, kh + j * s_.dh);
      }
      if (!terms_.keyVectors.empty()) {
        const auto w = static_cast<float>(weights_.vector);
        for (int64_t t = 0; t < s_.m * s_.dh; ++t) kh[t] += w * terms_.keyVectors[t];
      }
      if (panels) kernels::packKeys(kh, s_.m, s_.dh, s_.dh, panels + g * panelFloats_);
    }
  }

  // The queries of rows i0 .. i0 + rows - 1 of head h of sequence b: in place (row stride ldq)
  // unless they are rotated, tuned or handed to a scheme's hook, then in `copy` [rows, dh].
  const float* blockQueries(int64_t b, int64_t h, int64_t i0, int64_t rows, float* copy, int64_t& ldq) const {
    const int64_t qWidth = s_.heads * s_.dh;
    const float* q = in_.q->data() + (b * s_.n + i0) * qWidth + h * s_.dh;
    ldq = qWidth;
    if (!(terms_.hasRotary || terms_.logits || tuned_)) return q;
    for (int64_t r = 0; r < rows; ++r) std::copy_n(q + r * qWidth, s_.dh, copy + r * s_.dh);
    if (terms_.hasRotary) {  // the range's table is indexed by position, a given positions' one by row
      const int64_t at = qPos_.empty() ? s_.queryOffset : 0;
      for (int64_t r = 0; r < rows; ++r) queryTable_->apply(at + i0 + r, copy + r * s_.dh);
    }
    if (tuned_) {  // at the query's cache position i + queryOffset, as Hugging Face's cache_position
      for (int64_t r = 0; r < rows; ++r) {
        const auto f = static_cast<float>(temperature(i0 + r + s_.queryOffset));
        for (int64_t c = 0; c < s_.dh; ++c) copy[r * s_.dh + c] *= f;
      }
    }
    ldq = s_.dh;
    return copy;
  }

  // What the kernels add to and do with the logits of rows i0 .. i0 + rows - 1 of head h.
  kernels::LogitSpec blockSpec(int64_t b, int64_t h, int64_t i0, int64_t rows, const float* q, int64_t ldq) {
    kernels::LogitSpec spec;
    spec.scale = static_cast<float>(weights_.scale);
    spec.keys = keys_;
    spec.bias = biasTerm(b, h, i0, rows);
    if (terms_.pairTerm()) spec.bias = pairTerms(q, ldq, spec.bias, i0, rows);
    spec.mask = maskTerm(b, h, i0, rows);
    // As models run it: the soft-cap is a step of the logit epilogue, the sink the state each row's
    // softmax starts from, in the same kernels as every other call (docs/attention.md).
    spec.softcap = static_cast<float>(softcap_);
    if (!sinks_.empty()) spec.sink = static_cast<float>(sinks_[static_cast<size_t>(h)]);
    spec.uniformEmpty = uniformEmpty_;
    return spec;
  }

  bool needWeights() const {
    return keepWeights_ || terms_.logits || (terms_.hasTable && !terms_.table.valueTable.empty());
  }

  // Whether a block of `rows` query rows runs a whole KV group at once (groupBlock): output only, one
  // row (decoding), and per-head terms that do not share scratch (a pair term, a borrowed B scanned
  // head by head, a per-head boolean mask converted into one buffer).
  bool grouped(int64_t rows) const {
    const bool headMask = terms_.mask.data && terms_.booleanMask && terms_.mask.headStride != 0;
    return rows == 1 && s_.group > 1 && !needWeights() && !terms_.pairTerm() && !terms_.bias.unscanned && !headMask;
  }

  // Row i0 of sequence b for the query heads h0 .. h0 + group - 1, which share kv head h0 / group:
  // each block of its K and V is read once for every kRowTile heads (kernels::groupOutput), and each
  // head's output is the bits attentionOutput gives for that head alone.
  void groupBlock(int64_t b, int64_t h0, int64_t i0) {
    const int64_t g = h0 / s_.group;
    float* copies = sized(ws_.queries, s_.group * s_.dh);
    std::vector<kernels::LogitSpec> specs(static_cast<size_t>(s_.group));
    const float* q = nullptr;
    for (int64_t t = 0; t < s_.group; ++t) {
      int64_t ldq = 0;
      const float* qt = blockQueries(b, h0 + t, i0, 1, copies + t * s_.dh, ldq);
      if (t == 0) q = qt;  // the group's heads: consecutive rows of dh, in place or copied
      specs[static_cast<size_t>(t)] = blockSpec(b, h0 + t, i0, 1, qt, ldq);
    }
    const int64_t vWidth = s_.kvHeads * s_.dv;
    const float* v = in_.v->data() + b * s_.m * vWidth + g * s_.dv;
    float* out = output_.f32.data() + (b * s_.rows + i0 - s_.first) * s_.heads * s_.dv + h0 * s_.dv;
    kernels::groupOutput(q, s_.dh, i0, s_.group, panel(g), s_.m, s_.dh, v, vWidth, s_.dv, specs.data(), ws_.online, out,
                         s_.dv);
  }

  // Rows i0 .. i0 + rows - 1 of head h of sequence b.
  void headBlock(int64_t b, int64_t h, int64_t i0, int64_t rows) {
    if (grouped(rows)) {
      if (h % s_.group == 0) groupBlock(b, h, i0);
      return;
    }
    const int64_t g = h / s_.group;
    int64_t ldq = 0;
    const float* q = blockQueries(b, h, i0, rows, sized(ws_.queries, rows * s_.dh), ldq);
    const kernels::LogitSpec spec = blockSpec(b, h, i0, rows, q, ldq);

    const int64_t vWidth = s_.kvHeads * s_.dv;
    const float* v = in_.v ? in_.v->data() + b * s_.m * vWidth + g * s_.dv : nullptr;
    // The result holds rows first .. first + rows - 1 of the call.
    const int64_t local = i0 - s_.first;
    float* out = in_.v ? output_.f32.data() + (b * s_.rows + local) * s_.heads * s_.dv + h * s_.dv : nullptr;
    const int64_t ldo = s_.heads * s_.dv;
    if (!needWeights()) {
      kernels::attentionOutput(q, ldq, i0, rows, panel(g), s_.m, s_.dh, v, vWidth, s_.dv, spec, ws_.online, out, ldo);
      return;
    }
    const int64_t weightsOffset = ((b * s_.heads + h) * s_.rows + local) * s_.m;
    float* w = nullptr;
    if (keepWeights_) w = sink_ ? sink_->destination(weightsOffset, rows * s_.m) : result_.f32.data() + weightsOffset;
    const bool inPlace = w != nullptr;
    if (!w) w = sized(ws_.weights, rows * s_.m);
    if (terms_.logits) {
      const float* k = ws_.keys.data() + g * s_.m * s_.dh;
      scheme_->logits(params_, q, k, rows, s_.m, s_.dh, s_.queryOffset + i0, w);
      kernels::softmaxLogits(w, s_.m, i0, rows, s_.m, spec);
    } else {
      kernels::softmaxWeights(q, ldq, i0, rows, panel(g), s_.m, s_.dh, spec, w, s_.m);
    }
    if (v) {
      // A uniform row (fullyMaskedRows 'uniform') has weight on keys outside its range too.
      kernels::weightedSum(w, s_.m, i0, rows, s_.m, v, vWidth, s_.dv, uniformEmpty_ ? kernels::KeyRange{} : keys_, out,
                           ldo);
      if (terms_.hasTable && !terms_.table.valueTable.empty()) addValueTable(w, i0, rows, out, ldo);
    }
    if (keepWeights_ && sink_ && !inPlace) sink_->write(weightsOffset, w, rows * s_.m);
  }

  const float* panel(int64_t g) const {
    return heldPanels_ ? heldPanels_ + g * heldStride_ : ws_.panels.data() + g * panelFloats_;
  }

  // The keys from the key source (a KV cache), packed in the form this call needs, when it can
  // give it: one sequence at positions 0 .. m-1, plain or rotated by the call's plan.
  bool heldKeys() {
    if (!keySource_ || s_.batch != 1 || terms_.logits || !terms_.keyVectors.empty() || !kPos_.empty()) return false;
    heldPanels_ = keySource_->panels(terms_.hasRotary ? &terms_.rotary : nullptr, s_.m, s_.dh, heldStride_);
    return heldPanels_ != nullptr;
  }

  // Rows i0 .. i0 + rows - 1 of a borrowed B for sequence b and head h, checked as maskedArray()
  // checks a copied one, while they are in cache for the kernel; a slice that several heads or
  // sequences share is checked when its first reader comes (units run heads innermost).
  void scanBiasRows(int64_t b, int64_t h, int64_t i0, int64_t rows) const {
    const Given& bias = terms_.bias;
    if ((h > 0 && bias.headStride == 0) || (b > 0 && bias.batchStride == 0)) return;
    params_.checkMasked("B", bias.at(b, h) + i0 * bias.rowStride, static_cast<size_t>(rows * s_.m));
  }

  kernels::Term biasTerm(int64_t b, int64_t h, int64_t i0, int64_t rows) const {
    const auto weight = static_cast<float>(weights_.bias);
    if (terms_.bias.data) return {terms_.bias.at(b, h), s_.m, weight, 0};
    if (!terms_.profile.empty()) {
      // Row i of head h starts at profile[h][n - 1 - i]: entry (i, j) is f at j - i.
      const int64_t count = s_.n + s_.m - 1;
      return {terms_.profile.data() + h * count + (s_.n - 1), -1, weight, 0};
    }
    if (terms_.windowBias) return {ws_.bias.data() + h * rows * s_.m, s_.m, weight, i0};
    return {};
  }

  // Pair terms scale * vector * q_i.p_ij (Shaw's a^K gathered by index, or a given P [n, m, d]),
  // plus the bias, as one block term. With a table the dot products are taken once per table row.
  kernels::Term pairTerms(const float* q, int64_t ldq, const kernels::Term& bias, int64_t i0, int64_t rows) {
    const double factor = weights_.vector * weights_.scale;
    float* t = sized(ws_.terms, rows * s_.m);
    const int64_t tableRows = terms_.hasTable ? static_cast<int64_t>(terms_.table.keyTable.size()) / s_.dh : 0;
    double* dots = terms_.hasTable ? sized(ws_.dots, rows * tableRows) : nullptr;
    for (int64_t r = 0; r < rows; ++r) {
      const float* qi = q + r * ldq;
      const int64_t i = i0 + r;
      for (int64_t t2 = 0; t2 < tableRows; ++t2)
        dots[r * tableRows + t2] = dot(qi, terms_.table.keyTable.data() + t2 * s_.dh, s_.dh);
      for (int64_t j = 0; j < s_.m; ++j) {
        const double pair = terms_.hasTable ? dots[r * tableRows + terms_.table.index[i * s_.m + j]]
                                            : dot(qi, terms_.pairVectors + (i * s_.m + j) * s_.dh, s_.dh);
        const double extra = bias.data ? static_cast<double>(bias.weight) * bias.row(i)[j] : 0.0;
        t[r * s_.m + j] = static_cast<float>(factor * pair + extra);
      }
    }
    return {t, s_.m, 1.0f, i0};
  }

  // The mask of one block: the given one, additive as it is, boolean turned into 0 / -Infinity (a
  // chunked layer's chunk is a key range, keys_.chunk, not a mask).
  kernels::Term maskTerm(int64_t b, int64_t h, int64_t i0, int64_t rows) {
    if (!terms_.mask.data) return {};
    const float* given = terms_.mask.at(b, h);
    const int64_t stride = terms_.mask.rowStride;
    if (!terms_.booleanMask) return {given, stride, 1.0f, 0};
    float* additive = sized(ws_.mask, rows * s_.m);
    for (int64_t r = 0; r < rows; ++r) {
      const float* row = given + (i0 + r) * stride;
      float* out = additive + r * s_.m;
      for (int64_t j = 0; j < s_.m; ++j) out[j] = row[j] != 0.0f ? 0.0f : kMinusInf;
    }
    return {additive, s_.m, 1.0f, i0};
  }

  // Shaw's a^V: out_i += sum_j w_ij aV[idx(i, j)], as per-bucket weight sums times the table rows.
  void addValueTable(const float* w, int64_t i0, int64_t rows, float* out, int64_t ldo) {
    const std::vector<float>& table = terms_.table.valueTable;
    const int64_t buckets = static_cast<int64_t>(table.size()) / s_.dv;
    double* sum = sized(ws_.dots, buckets);
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t i = i0 + r;
      std::fill(sum, sum + buckets, 0.0);
      for (int64_t j = keys_.begin(i, s_.m); j < keys_.end(i, s_.m); ++j)
        sum[terms_.table.index[i * s_.m + j]] += w[r * s_.m + j];
      float* o = out + r * ldo;
      for (int64_t t = 0; t < buckets; ++t) {
        if (sum[t] == 0.0) continue;
        for (int64_t c = 0; c < s_.dv; ++c) o[c] += static_cast<float>(sum[t] * table[t * s_.dv + c]);
      }
    }
  }

  const Params& params_;
  const Scheme* scheme_;
  WeightsSink* sink_;
  PackedKeySource* keySource_;         // a KV cache's packed keys, or null
  const float* heldPanels_ = nullptr;  // the key source's panels for this call, when it gave them
  int64_t heldStride_ = 0;
  Workspace& ws_;
  Inputs in_;
  Shapes& s_;
  kernels::KeyRange keys_;
  Terms terms_;
  Weights weights_;
  bool keepWeights_ = true;
  double softcap_ = 0;         // 0: none
  std::vector<double> sinks_;  // one logit per query head, or none
  bool tuned_ = false;         // temperature tuning
  double floorScale_ = 1, attnScale_ = 0;
  std::vector<double> qPos_, kPos_;  // batch x n, batch x m positions given by the caller, or none
  bool uniformEmpty_ = false;        // fullyMaskedRows 'uniform'
  bool rotated_ = false;             // q and k arrive rotated
  int64_t firstBlock_ = 0, blocks_ = 1;
  int64_t panelFloats_ = 0;
  Tensor result_, output_;
  Shape weightsShape_;
  std::shared_ptr<const RotaryTable> queryTable_, keyTable_;
};

// The job form: owns its parameters (the caller's are gone after jobStart) and its scratch; one
// unit is one block of rows of one head.
class AttentionJob : public Job {
 public:
  AttentionJob(const Params& params, const Scheme* scheme)
      : params_(params), run_(params_, scheme, nullptr, ws_), units_(run_.units()) {}
  double step(int64_t budget) override {
    for (int64_t done = 0; done < std::max<int64_t>(budget, 1) && next_ < units_; ++done) run_.run(next_++);
    return units_ ? static_cast<double>(next_) / static_cast<double>(units_) : 1.0;
  }
  bool done() const override { return next_ >= units_; }
  Result result() override { return run_.finish(); }

 private:
  Params params_;
  Workspace ws_;
  AttentionRun run_;
  int64_t units_;
  int64_t next_ = 0;
};

}  // namespace

RELPOS_COLD const ModelAttentionParams& modelAttentionParams() {
  static const ModelAttentionParams p{
      arrayParam("sinks",
                 "one logit per query head [heads] in each row's softmax denominator, with no value (gpt-oss); "
                 "-Infinity: none for that head"),
      numberParam("softcap", kNaN, 0, 1e12, "logits become softcap * tanh(logit / softcap) after scaling (Gemma-2)",
                  true),
      integerParam("attentionChunkSize", kNaN, 1, 1 << 30,
                   "with causal, keys j with floor(j / c) = floor(p / c) for the query at p (Llama-4 chunked layers)"),
      arrayParam("temperatureTuning",
                 "{ floorScale, attnScale }: the query at p = i + queryOffset scaled by log(floor((p + 1) / "
                 "floorScale) + 1) * attnScale + 1 (Llama-4 NoPE layers)"),
      arrayParam("positions",
                 "query positions [n] or [batch, n] for rotary and bias schemes (Hugging Face's position_ids)"),
      common::keyPositions(),
      integerParam("valueHeadDim", kNaN, 1, 1 << 16,
                   "the head width of v when it differs from q's and k's: v is [m, kvHeads * valueHeadDim] "
                   "(DeepSeek's v_head_dim)"),
      booleanParam("rotated", false,
                   "q and k arrive rotated by the rotary scheme (Hugging Face's attention interface): the "
                   "rotation is not applied again"),
      choiceParam("fullyMaskedRows", "zeros|uniform",
                  "a query row that sees no key: zeros, or weights 1/m on every key (Hugging Face's eager "
                  "attention)"),
      choiceParam("causalAlign", "bottomRight|topLeft",
                  "with causal: query i sees keys up to i + queryOffset, or up to i (PyTorch SDPA's is_causal); "
                  "the window and chunk move with it")};
  return p;
}

const ParamInfo& queryRowsParam() {
  static const ParamInfo p = arrayParam(
      "queryRows",
      "query rows [first, end) to compute, each as in the whole call (first a multiple of 4, end too or n); the "
      "result holds those rows (a pool's parts: docs/workers.md)");
  return p;
}

double attentionKeysSeen(const Params& params, int64_t first, int64_t end) {
  const Geometry g = geometryOf(params);
  if (!g.valid) return 0;
  return keysSeen(g, std::clamp<int64_t>(first, 0, g.n), std::clamp<int64_t>(end, 0, g.n));
}

double attentionWork(const Params& params, int64_t first, int64_t end) {
  const Geometry g = geometryOf(params);
  if (!g.valid) return 0;
  const double seen = keysSeen(g, std::clamp<int64_t>(first, 0, g.n), std::clamp<int64_t>(end, 0, g.n));
  return g.batch * g.heads * seen * (g.dh + g.dv);
}

std::vector<RowCut> attentionCuts(const Params& params, int64_t parts) {
  const Geometry g = geometryOf(params);
  const std::pair<int64_t, int64_t> rows = g.valid ? givenRows(params, g.n) : std::pair<int64_t, int64_t>{0, 0};
  const int64_t first = rows.first, end = rows.second;
  if (end <= first || parts < 1) return {};
  // Units are register tiles of the whole call (a given range starts on one: readQueryRows).
  const int64_t tile = kernels::kRowTile;
  const int64_t units = (end - first + tile - 1) / tile;
  // Copies: clang 14 (emcc 3.1.6) refuses a lambda that names a structured binding.
  const auto edge = [&, first = first, end = end](int64_t u) { return std::min(end, first + u * tile); };
  std::vector<double> prefix(static_cast<size_t>(units) + 1, 0.0);
  for (int64_t u = 0; u < units; ++u) prefix[u + 1] = prefix[u] + keysSeen(g, edge(u), edge(u + 1));
  const double total = prefix[units];
  const int64_t wanted = std::min(parts, units);
  std::vector<int64_t> bounds = {0};
  for (int64_t t = 1; t < wanted; ++t) {
    // The unit edge nearest the t-th equal share of the work, leaving a unit for every later part.
    const double goal = total > 0 ? total * static_cast<double>(t) / static_cast<double>(wanted) : 0;
    int64_t u = bounds.back() + 1;
    if (total > 0) {
      while (u < units - (wanted - t) && prefix[u] < goal) ++u;
      if (u > bounds.back() + 1 && goal - prefix[u - 1] < prefix[u] - goal) --u;
    } else {
      u = std::max(u, units * t / wanted);
    }
    bounds.push_back(u);
  }
  bounds.push_back(units);
  const double perKey = g.batch * g.heads * (g.dh + g.dv);
  std::vector<RowCut> out;
  for (size_t t = 0; t + 1 < bounds.size(); ++t) {
    out.push_back({edge(bounds[t]), edge(bounds[t + 1]), perKey * (prefix[bounds[t + 1]] - prefix[bounds[t]])});
  }
  return out;
}

Result attention(const Params& params, const Scheme* scheme, WeightsSink* sink) {
  return attention(params, scheme, sink, nullptr);
}

Result attention(const Params& params, const Scheme* scheme, WeightsSink* sink, PackedKeySource* keys) {
  Workspace ws;
  AttentionRun run(params, scheme, sink, ws, keys);
  for (int64_t u = 0; u < run.units(); ++u) run.run(u);
  return run.finish();
}

RELPOS_COLD std::unique_ptr<Job> startAttention(const Params& params) {
  std::string id;
  if (const Value* v = params.find("scheme")) {
    if (v->type != Value::Type::String) throwType(params.where() + ": scheme must be a scheme id string");
    id = v->text;
  }
  const Scheme* scheme = checkedScheme("attention", id, params, {"scheme"});
  return std::make_unique<AttentionJob>(params, scheme);
}

}  // namespace relpos
