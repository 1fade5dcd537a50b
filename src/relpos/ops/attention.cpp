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
// The floats of one block of weights (rowsPerBlock), and of the scratch a read B or mask fills for
// one block (GivenRows): a given term no larger is read whole once instead (readGiven).
constexpr int64_t kBlockFloats = int64_t{1} << 16;

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
  // Kept by the caller (Value::reader): each block's rows are read into scratch, and scanned there,
  // just before the kernel reads them (GivenRows); `data` is then null.
  const TensorReader* reader = nullptr;
  bool present() const { return data || reader; }
  const float* at(int64_t b, int64_t h) const { return data + b * batchStride + h * headStride; }
  // Where entry (b, h, i, 0) is among the tensor's row-major floats.
  int64_t offset(int64_t b, int64_t h, int64_t i) const { return b * batchStride + h * headStride + i * rowStride; }
};

// A mask may also be [batch, heads or 1, 1, m]: one row for every query (Hugging Face's key-padding
// attention_mask [batch, m], which the JS entry hands over in that shape).
RELPOS_COLD Given readGiven(const Params& params, const std::string& name, const Shapes& s, bool rowBroadcast = false) {
  const Value* v = params.find(name);
  // Read a block at a time, and scanned as each block is read, when larger than one block's scratch;
  // a smaller one (a decoding step's, a key-padding mask) is read whole once, by maskedArray().
  const bool read = v && v->type == Value::Type::Array && v->reader && v->size() > static_cast<size_t>(kBlockFloats);
  const bool later = v && v->borrowed && v->nonFinite == NonFinite::Unknown;
  if (!later && !read) v = params.maskedArray(name);  // -Infinity masks a pair
  if (!v) return {};
  const int64_t nm = s.n * s.m;
  const Shape& shape = v->shape;
  const size_t rank = shape.size();
  const bool tail = rank >= 2 && shape[rank - 2] == s.n && shape[rank - 1] == s.m;
  const float* data = read ? nullptr : v->data();
  const TensorReader* reader = read ? v->reader : nullptr;
  if (tail && rank == 2) return {data, 0, 0, s.m, later, reader};
  if (tail && rank == 3 && shape[0] == s.heads) return {data, nm, 0, s.m, later, reader};
  if (tail && rank == 4 && shape[0] == s.batch && (shape[1] == s.heads || shape[1] == 1)) {
    return {data, shape[1] == 1 ? 0 : nm, shape[1] * nm, s.m, later, reader};
  }
  if (rowBroadcast && rank == 4 && shape[0] == s.batch && (shape[1] == s.heads || shape[1] == 1) && shape[2] == 1 &&
      shape[3] == s.m) {
    return {data, shape[1] == 1 ? 0 : s.m, shape[1] * s.m, 0, later, reader};
  }
  if (read) params.maskedArray(name);  // a bad value is reported before a bad shape, as for a copied one
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
  bool hasBias() const { return bias.present() || !profile.empty() || windowBias; }
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
  if (params.has(kMaskKind.name) && !t.mask.present()) throwRange(params.where() + ": maskKind needs a mask");
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
      if (t.bias.present()) break;
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
  const int64_t rows = std::clamp<int64_t>(kBlockFloats / std::max<int64_t>(m, 1), 4, 256);
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
  int64_t n = 0, m = 0;
  kernels::KeyRange keys;
};

double numberOr(const Params& params, const std::string& name, double fallback) {
  const Value* v = params.find(name);
  return v && v->type == Value::Type::Number && std::isfinite(v->number) ? v->number : fallback;
}

RELPOS_COLD Geometry geometryOf(const Params& params) {
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
    g.keys.chunk = static_cast<int64_t>(std::clamp(numberOr(params, "attentionChunkSize", 0), 0.0, limit));
  }
  g.valid = g.n > 0 && g.m >= 0;
  return g;
}

double keysSeen(const Geometry& g, int64_t first, int64_t end) {
  return relpos::keysSeen(g.keys, g.m, first, end);
}

// queryRows as given, or all n rows; {0, 0} when readQueryRows would refuse them (the call reports it).
RELPOS_COLD std::pair<int64_t, int64_t> givenRows(const Params& params, int64_t n) {
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

// ---------------------------------------------------------------------------------------------
// The options of attention as models run it (attention.hpp), read and checked once per call.

struct ModelOptions {
  double softcap = 0;         // 0: none
  std::vector<double> sinks;  // one logit per query head, or none
  bool tuned = false;         // temperature tuning
  double floorScale = 1, attnScale = 0;
  std::vector<double> qPos, kPos;  // batch x n, batch x m positions given by the caller, or none
  bool uniformEmpty = false;       // fullyMaskedRows 'uniform'
  bool rotated = false;            // q and k arrive rotated

  bool positioned() const { return !qPos.empty() || !kPos.empty(); }
  // The length a rotary plan covers for the given positions (each clamped so that it cannot overflow).
  int64_t positionedSeqLen() const {
    int64_t length = 1;
    for (double p : qPos) length = std::max(length, static_cast<int64_t>(std::min(p, 1e15)) + 1);
    for (double p : kPos) length = std::max(length, static_cast<int64_t>(std::min(p, 1e15)) + 1);
    return length;
  }
  // Temperature tuning's query factor at position p (Llama-4 NoPE layers).
  double temperature(int64_t p) const {
    return std::log(std::floor((static_cast<double>(p) + 1.0) / floorScale) + 1.0) * attnScale + 1.0;
  }
};

// positions [count] (every sequence) or [batch, count], as batch x count values.
RELPOS_COLD std::vector<double> readPositions(const Params& params, const Shapes& s, const std::string& name,
                                              int64_t count, const std::string& what) {
  const Value* v = params.array(name);
  if (!v) return {};
  const Shape& shape = v->shape;
  const bool flat = shape.size() == 1 && shape[0] == count;
  const bool perSequence = shape.size() == 2 && shape[0] == s.batch && shape[1] == count;
  if (!flat && !perSequence) {
    throwRange(params.where() + ": " + name + " must have shape [" + what + "] = [" + std::to_string(count) +
               "] or [batch, " + what + "] = [" + std::to_string(s.batch) + ", " + std::to_string(count) + "], got " +
               shapeText(shape));
  }
  std::vector<double> out(static_cast<size_t>(s.batch * count));
  for (int64_t b = 0; b < s.batch; ++b) {
    for (int64_t i = 0; i < count; ++i) out[b * count + i] = v->at(static_cast<size_t>((flat ? 0 : b * count) + i));
  }
  return out;
}

// Checked before any allocation; causalAlign and the chunk narrow the call's key range `keys`.
RELPOS_COLD ModelOptions readModelOptions(const Params& params, const Shapes& s, kernels::KeyRange& keys) {
  const ModelAttentionParams& mp = modelAttentionParams();
  const std::string& where = params.where();
  ModelOptions o;
  // -Infinity is no sink (kernels::LogitSpec::sink), so a head may have none.
  if (const Value* v = params.maskedArray(mp.sinks.name)) {
    if (v->shape.size() != 1 || static_cast<int64_t>(v->array.size()) != s.heads) {
      throwRange(where + ": sinks must have " + std::to_string(s.heads) + " entries (one per query head), got " +
                 (v->shape.size() == 1 ? std::to_string(v->array.size()) : "shape " + shapeText(v->shape)));
    }
    for (size_t h = 0; h < v->array.size(); ++h) o.sinks.push_back(v->at(h));
  }
  if (params.has(mp.softcap.name)) o.softcap = params.number(mp.softcap);
  o.rotated = params.boolean(mp.rotated);
  o.uniformEmpty = params.has(mp.fullyMaskedRows.name) && params.choice(mp.fullyMaskedRows) == "uniform";
  if (params.has(mp.causalAlign.name) && params.choice(mp.causalAlign) == "topLeft") {
    if (!keys.causal) throwRange(where + ": causalAlign needs causal: true (it says where the causal mask sits)");
    keys.queryOffset = 0;  // the mask only: queries keep their positions, i + queryOffset
  }
  if (params.has(mp.chunk.name)) {
    keys.chunk = params.integer(mp.chunk);
    if (!keys.causal) {
      throwRange(where +
                 ": attentionChunkSize needs causal: true (chunked layers are causal: the query's chunk up to it)");
    }
  }
  if (const Value* v = params.array(mp.temperature.name)) {
    if (v->array.size() != 2) {
      throwRange(where + ": temperatureTuning must be { floorScale, attnScale }, got " +
                 std::to_string(v->array.size()) + " values");
    }
    o.floorScale = v->at(0);
    o.attnScale = v->at(1);
    if (!(o.floorScale > 0)) {
      throwRange(where + ": temperatureTuning.floorScale must be > 0, got " + formatNumber(o.floorScale));
    }
    o.tuned = true;
  }
  o.qPos = readPositions(params, s, mp.positions.name, s.n, "n");
  o.kPos = readPositions(params, s, mp.keyPositions.name, s.m, "m");
  if (!o.qPos.empty() && o.kPos.empty()) {
    if (s.m != s.n) {
      throwRange(where + ": positions place the " + std::to_string(s.n) + " queries; with m = " + std::to_string(s.m) +
                 " keys give keyPositions ([m] or [batch, m]) too");
    }
    o.kPos = o.qPos;  // self-attention: the keys are the same tokens (Hugging Face's position_ids)
  }
  return o;
}

RELPOS_COLD void checkModelOptions(const Params& params, const Scheme* scheme, const Terms& terms,
                                   const ModelOptions& o) {
  const std::string& where = params.where();
  if (o.positioned()) {
    const bool placed = scheme && (terms.hasRotary || terms.windowBias || scheme->term == AttentionTerm::None);
    if (!placed || terms.bias.present() || terms.pairTerm() || !terms.keyVectors.empty()) {
      throwRange(where + ": positions and keyPositions place the queries and keys of rotary and bias schemes" +
                 (scheme ? "; '" + scheme->id + "' here" : "; this call has no scheme") +
                 (terms.bias.present() || terms.pairTerm() || !terms.keyVectors.empty()
                      ? " with a given B or P, which are indexed by row, not by position"
                      : " takes its positions from the row indices"));
    }
  }
  if (o.softcap > 0 && terms.pairTerm()) {
    throwRange(where + ": softcap caps scale * q.k; a pair term (Shaw's aK, a given P [n, m, d]) has no capped form");
  }
}

// rotated: true: q and k carry the scheme's rotation already, so none is applied; a call that
// would have nothing to skip, or positions that would place nothing, is refused.
RELPOS_COLD void takeRotated(const Params& params, const Scheme* scheme, Terms& terms, bool positioned) {
  const std::string& where = params.where();
  if (!terms.hasRotary) {
    throwRange(where + ": rotated: true says q and k arrive rotated by the rotary scheme; " +
               (scheme ? "'" + scheme->id + "' does not rotate" : "this call has no scheme"));
  }
  if (positioned) {
    throwRange(where + ": rotated: true: q and k arrive rotated, so positions and keyPositions would place nothing");
  }
  terms.hasRotary = false;
}

// ---------------------------------------------------------------------------------------------
// One call as read and checked: everything the run reads, fixed before any compute.

struct Call {
  RELPOS_COLD Call(const Params& params, const Scheme* scheme, bool sink);
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  // Whether each block's weights are formed whole (kept, read by a scheme's logits hook, or by
  // Shaw's value table) rather than streamed into the output.
  bool needWeights() const {
    return keepWeights || terms.logits || (terms.hasTable && !terms.table.valueTable.empty());
  }

  const Params& params;
  const Scheme* scheme;
  Inputs in;
  Shapes& s;
  bool keepWeights = true;
  kernels::KeyRange keys;
  ModelOptions model;
  Terms terms;
  Weights weights;
  int64_t firstBlock = 0, blocks = 1;  // the blocks of the whole call that hold the rows asked for
};

// The work budget of a synchronous call is compute()'s to check (ops/operations.cpp); these are
// the sizes every run, job or not, must fit.
RELPOS_COLD void checkSizes(const Call& c, bool sink) {
  const Shapes& s = c.s;
  const double n = static_cast<double>(s.n), m = static_cast<double>(s.m), dh = static_cast<double>(s.dh);
  const double heads = static_cast<double>(s.heads), batch = static_cast<double>(s.batch);
  const double rows = static_cast<double>(rowsPerBlock(s.m));
  // The whole call's result, also for a range of its rows: the pool's parts fail as the whole call.
  if (c.keepWeights) checkResultSize(c.params.where(), batch * heads * n * m);
  // Everything allocated below, sized before the first allocation (floats).
  const double kept = static_cast<double>(s.rows);
  double floats = (c.keepWeights && !sink ? batch * heads * kept * m : 0.0) + batch * kept * heads * s.dv;
  floats += static_cast<double>(s.kvHeads) * (m + kernels::kPanel) * dh + s.kvHeads * m * dh + rows * dh;
  floats += (heads + 3.0) * rows * m + heads * (n + m) + 2.0 * (n + m) * dh + m * dh;
  if (c.scheme && c.scheme->term == AttentionTerm::PairTable) floats += n * m + 2.0 * rows * (n + m);
  checkWorkingSet(c.params.where(), 4.0 * floats, "weights, output and per-block scratch");
}

Call::Call(const Params& params_, const Scheme* scheme_, bool sink)
    : params(params_), scheme(scheme_), in(readInputs(params_)), s(in.s) {
  keepWeights = params.boolean(kWeights);
  if (!keepWeights && !in.v) throwRange(params.where() + ": weights: false needs v (the output is all it returns)");
  keys = kernels::KeyRange{params.boolean(common::causal()), s.queryOffset,
                           params.has(kWindow.name) ? params.integer(kWindow) : 0};
  const auto [first, end] = readQueryRows(params, s.n);
  s.first = first;
  s.rows = end - first;
  checkSizes(*this, sink);
  model = readModelOptions(params, s, keys);
  terms = resolveTerms(params, scheme, s, model.positioned(), model.positionedSeqLen());
  checkModelOptions(params, scheme, terms, model);
  if (model.rotated) takeRotated(params, scheme, terms, model.positioned());
  weights = modeWeights(params, scheme, terms, s);
  s.rowsPerBlock = rowsPerBlock(s.m);
  firstBlock = s.first / s.rowsPerBlock;
  blocks = s.rows > 0 ? (s.first + s.rows - 1) / s.rowsPerBlock - firstBlock + 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// The key side of a call: the rotary tables, and each sequence's keys packed as the kernels read
// them (or a KV cache's, packed and rotated when they were appended).

class KeySide {
 public:
  KeySide(const Call& call, Workspace& ws, PackedKeySource* source) : c_(call), ws_(ws), source_(source) {
    if (!c_.terms.hasRotary) return;
    // Queries sit at queryOffset .. queryOffset+n-1 and keys at 0 .. m-1: one table each, so that a
    // large queryOffset (up to 1e9) does not size a table over the gap between them.
    // The key table is built by prepare(), and only when this call rotates the keys itself: a KV
    // cache's come rotated, so its steps build a table for their queries alone.
    if (c_.model.qPos.empty()) queryTable_ = RotaryTable::shared(c_.terms.rotary, c_.s.queryOffset, c_.s.n, true);
  }

  // Packs the keys of every kv head of sequence b: rotated, with key vectors folded in
  // (q.(k + w p_j) = q.k + w q.p_j). A logits scheme keeps them unpacked for its own hook.
  void prepare(int64_t b) {
    const Shapes& s = c_.s;
    const Terms& terms = c_.terms;
    const int64_t width = s.kvHeads * s.dh;
    const float* k = c_.in.k->data() + b * s.m * width;
    panelFloats_ = kernels::packedSize(s.m, s.dh);
    // Tables at sequence b's given positions: the same rotation path as the default ranges.
    const std::vector<double>& qPos = c_.model.qPos;
    const std::vector<double>& kPos = c_.model.kPos;
    if (terms.hasRotary && !qPos.empty()) {
      queryTable_ =
          std::make_shared<const RotaryTable>(terms.rotary, RotaryTable::Positions{qPos.data() + b * s.n, s.n}, true);
    }
    if (terms.hasRotary && !kPos.empty()) {
      keyTable_ =
          std::make_shared<const RotaryTable>(terms.rotary, RotaryTable::Positions{kPos.data() + b * s.m, s.m}, false);
    }
    if (heldKeys()) return;  // a KV cache's, packed (and rotated) when they were appended
    if (terms.hasRotary && !keyTable_) {
      // Keys 0 .. m-1 rounded up to 256 rows, so that calls over a growing sequence reuse one
      // cached table for 256 keys instead of rebuilding it each time.
      keyTable_ = RotaryTable::shared(terms.rotary, 0, (s.m + 255) / 256 * 256, false);
    }
    const bool plain = !terms.hasRotary && terms.keyVectors.empty() && !terms.logits;
    float* panels = terms.logits ? nullptr : sized(ws_.panels, s.kvHeads * panelFloats_);
    float* keys = plain ? nullptr : sized(ws_.keys, (terms.logits ? s.kvHeads : 1) * s.m * s.dh);
    for (int64_t g = 0; g < s.kvHeads; ++g) {
      if (plain) {  // packed straight from k
        kernels::packKeys(k + g * s.dh, s.m, s.dh, width, panels + g * panelFloats_);
        continue;
      }
      float* kh = keys + (terms.logits ? g * s.m * s.dh : 0);
      for (int64_t j = 0; j < s.m; ++j) std::copy_n(k + j * width + g * s.dh, s.dh, kh + j * s.dh);
      if (terms.hasRotary) {
        for (int64_t j = 0; j < s.m; ++j) keyTable_->apply(j, kh + j * s.dh);
      }
      if (!terms.keyVectors.empty()) {
        const auto w = static_cast<float>(c_.weights.vector);
        for (int64_t t = 0; t < s.m * s.dh; ++t) kh[t] += w * terms.keyVectors[t];
      }
      if (panels) kernels::packKeys(kh, s.m, s.dh, s.dh, panels + g * panelFloats_);
    }
  }

  // Kv head g's packed keys (kernels::packKeys), and its keys unpacked [m, dh] for a logits scheme.
  const float* panel(int64_t g) const {
    return heldPanels_ ? heldPanels_ + g * heldStride_ : ws_.panels.data() + g * panelFloats_;
  }
  const float* unpacked(int64_t g) const { return ws_.keys.data() + g * c_.s.m * c_.s.dh; }

  // The queries' table: indexed by position for the default range, by row for given positions.
  const RotaryTable& queryTable() const { return *queryTable_; }

 private:
  // The keys from the key source (a KV cache), packed in the form this call needs, when it can
  // give it: one sequence at positions 0 .. m-1, plain or rotated by the call's plan.
  bool heldKeys() {
    const Terms& terms = c_.terms;
    if (!source_ || c_.s.batch != 1 || terms.logits || !terms.keyVectors.empty() || !c_.model.kPos.empty()) {
      return false;
    }
    heldPanels_ = source_->panels(terms.hasRotary ? &terms.rotary : nullptr, c_.s.m, c_.s.dh, heldStride_);
    return heldPanels_ != nullptr;
  }

  const Call& c_;
  Workspace& ws_;
  PackedKeySource* source_;            // a KV cache's packed keys, or null
  const float* heldPanels_ = nullptr;  // the key source's panels for this call, when it gave them
  int64_t heldStride_ = 0;
  int64_t panelFloats_ = 0;
  std::shared_ptr<const RotaryTable> queryTable_, keyTable_;
};

// ---------------------------------------------------------------------------------------------
// What the kernels read for one block of rows of one head: its queries and its logit terms.

// The keys whose terms a block of rows reads: the union of its rows' key ranges, widened to whole
// panels (the kernels read a term a panel at a time from a tile's panel-aligned start and keep
// only the keys in range, kernels::Rows). A block in a later chunk, or under a window, prepares
// its mask, bias and pair terms for these keys alone, not for every key from 0.
struct KeySpan {
  int64_t lo = 0, hi = 0;
  int64_t width() const { return hi - lo; }
};

KeySpan blockKeys(const kernels::KeyRange& keys, int64_t i0, int64_t rows, int64_t m) {
  KeySpan span{m, 0};
  for (int64_t i = i0; i < i0 + rows; ++i) {
    const int64_t begin = keys.begin(i, m), end = keys.end(i, m);
    if (begin >= end) continue;
    span.lo = std::min(span.lo, begin);
    span.hi = std::max(span.hi, end);
  }
  if (span.hi <= span.lo) return {};
  const int64_t panel = kernels::kPanel;
  return {span.lo / panel * panel, std::min(m, (span.hi + panel - 1) / panel * panel)};
}

// Where row i0 of a given term (B or mask) starts for sequence b and head h, rows i0 .. i0 + rows - 1
// following at its row stride: in the tensor, or, for one the caller keeps (Given::reader), read
// into scratch and checked there as maskedArray() checks a copied one, while in cache for the
// kernel. Rows that several heads or blocks share (broadcast strides) are read once for them.
class GivenRows {
 public:
  GivenRows(const Params& params, const Given& given, const char* name, int64_t m)
      : params_(params), given_(given), name_(name), m_(m) {}

  RELPOS_COLD const float* rows(int64_t b, int64_t h, int64_t i0, int64_t rows) {
    if (!given_.reader) return given_.at(b, h) + i0 * given_.rowStride;
    const int64_t offset = given_.offset(b, h, i0);
    const int64_t count = (given_.rowStride != 0 ? rows : 1) * m_;
    if (heldOffset_ != offset || heldCount_ != count) {
      float* to = sized(scratch_, count);
      heldCount_ = 0;
      given_.reader->read(static_cast<size_t>(offset), to, static_cast<size_t>(count));
      params_.checkMasked(name_, to, static_cast<size_t>(count));
      heldOffset_ = offset;
      heldCount_ = count;
    }
    return scratch_.data();
  }

 private:
  const Params& params_;
  const Given& given_;
  const char* name_;
  int64_t m_;
  std::vector<float> scratch_;               // the rows of one block [rows, m] (one row when broadcast over them)
  int64_t heldOffset_ = -1, heldCount_ = 0;  // which rows scratch_ holds: their offset and count
};

class BlockTerms {
 public:
  BlockTerms(const Call& call, Workspace& ws, const KeySide& keys) : c_(call), ws_(ws), keys_(keys) {}

  // Rows i0 .. i0 + rows - 1 of sequence b begin (once per block, before its heads): the keys they
  // see, and a scheme's bias over those keys for every head.
  void startBlock(int64_t b, int64_t i0, int64_t rows) {
    span_ = blockKeys(c_.keys, i0, rows, c_.s.m);
    if (!c_.terms.windowBias) return;
    const Shapes& s = c_.s;
    const std::vector<double>& qPos = c_.model.qPos;
    const std::vector<double>& kPos = c_.model.kPos;
    const BiasWindow window{s.heads,
                            rows,
                            span_.width(),
                            s.queryOffset + i0,
                            span_.lo,
                            qPos.empty() ? nullptr : qPos.data() + b * s.n + i0,
                            kPos.empty() ? nullptr : kPos.data() + b * s.m + span_.lo};
    c_.scheme->fillBias(c_.params, window, sized(ws_.bias, s.heads * rows * span_.width()));
  }

  // Rows i0 .. i0 + rows - 1 of a borrowed B for sequence b and head h, checked as maskedArray()
  // checks a copied one, while they are in cache for the kernel; a slice that several heads or
  // sequences share is checked when its first reader comes (units run heads innermost).
  void scanBiasRows(int64_t b, int64_t h, int64_t i0, int64_t rows) const {
    const Given& bias = c_.terms.bias;
    if ((h > 0 && bias.headStride == 0) || (b > 0 && bias.batchStride == 0)) return;
    c_.params.checkMasked("B", bias.at(b, h) + i0 * bias.rowStride, static_cast<size_t>(rows * c_.s.m));
  }

  // The queries of rows i0 .. i0 + rows - 1 of head h of sequence b: in place (row stride ldq)
  // unless they are rotated, tuned or handed to a scheme's hook, then in `copy` [rows, dh].
  const float* queries(int64_t b, int64_t h, int64_t i0, int64_t rows, float* copy, int64_t& ldq) const {
    const Shapes& s = c_.s;
    const ModelOptions& o = c_.model;
    const int64_t qWidth = s.heads * s.dh;
    const float* q = c_.in.q->data() + (b * s.n + i0) * qWidth + h * s.dh;
    ldq = qWidth;
    if (!(c_.terms.hasRotary || c_.terms.logits || o.tuned)) return q;
    for (int64_t r = 0; r < rows; ++r) std::copy_n(q + r * qWidth, s.dh, copy + r * s.dh);
    if (c_.terms.hasRotary) {  // the range's table is indexed by position, a given positions' one by row
      const int64_t at = o.qPos.empty() ? s.queryOffset : 0;
      for (int64_t r = 0; r < rows; ++r) keys_.queryTable().apply(at + i0 + r, copy + r * s.dh);
    }
    if (o.tuned) {  // at the query's cache position i + queryOffset, as Hugging Face's cache_position
      for (int64_t r = 0; r < rows; ++r) {
        const auto f = static_cast<float>(o.temperature(i0 + r + s.queryOffset));
        for (int64_t c = 0; c < s.dh; ++c) copy[r * s.dh + c] *= f;
      }
    }
    ldq = s.dh;
    return copy;
  }

  // What the kernels add to and do with the logits of rows i0 .. i0 + rows - 1 of head h.
  kernels::LogitSpec spec(int64_t b, int64_t h, int64_t i0, int64_t rows, const float* q, int64_t ldq) {
    kernels::LogitSpec spec;
    spec.scale = static_cast<float>(c_.weights.scale);
    spec.keys = c_.keys;
    spec.bias = biasTerm(b, h, i0, rows);
    if (c_.terms.pairTerm()) spec.bias = pairTerms(q, ldq, spec.bias, i0, rows);
    spec.mask = maskTerm(b, h, i0, rows);
    // As models run it: the soft-cap is a step of the logit epilogue, the sink the state each row's
    // softmax starts from, in the same kernels as every other call (docs/attention.md).
    spec.softcap = static_cast<float>(c_.model.softcap);
    if (!c_.model.sinks.empty()) spec.sink = static_cast<float>(c_.model.sinks[static_cast<size_t>(h)]);
    spec.uniformEmpty = c_.model.uniformEmpty;
    return spec;
  }

 private:
  kernels::Term biasTerm(int64_t b, int64_t h, int64_t i0, int64_t rows) {
    const Shapes& s = c_.s;
    const Terms& terms = c_.terms;
    const auto weight = static_cast<float>(c_.weights.bias);
    if (terms.bias.present()) return {bias_.rows(b, h, i0, rows), s.m, weight, i0};
    if (!terms.profile.empty()) {
      // Row i of head h starts at profile[h][n - 1 - i]: entry (i, j) is f at j - i.
      const int64_t count = s.n + s.m - 1;
      return {terms.profile.data() + h * count + (s.n - 1), -1, weight, 0};
    }
    // Entry (i, j) of the block's keys [lo, hi) at column j - lo.
    if (terms.windowBias) return {ws_.bias.data() + h * rows * span_.width() - span_.lo, span_.width(), weight, i0};
    return {};
  }

  // Pair terms scale * vector * q_i.p_ij (Shaw's a^K gathered by index, or a given P [n, m, d]),
  // plus the bias, as one block term. With a table the dot products are taken once per table row.
  kernels::Term pairTerms(const float* q, int64_t ldq, const kernels::Term& bias, int64_t i0, int64_t rows) {
    const Shapes& s = c_.s;
    const Terms& terms = c_.terms;
    const double factor = c_.weights.vector * c_.weights.scale;
    const int64_t width = span_.width();
    float* t = sized(ws_.terms, rows * width);
    const int64_t tableRows = terms.hasTable ? static_cast<int64_t>(terms.table.keyTable.size()) / s.dh : 0;
    double* dots = terms.hasTable ? sized(ws_.dots, rows * tableRows) : nullptr;
    for (int64_t r = 0; r < rows; ++r) {
      const float* qi = q + r * ldq;
      const int64_t i = i0 + r;
      for (int64_t t2 = 0; t2 < tableRows; ++t2)
        dots[r * tableRows + t2] = dot(qi, terms.table.keyTable.data() + t2 * s.dh, s.dh);
      for (int64_t j = span_.lo; j < span_.hi; ++j) {
        const double pair = terms.hasTable ? dots[r * tableRows + terms.table.index[i * s.m + j]]
                                           : dot(qi, terms.pairVectors + (i * s.m + j) * s.dh, s.dh);
        const double extra = bias.data ? static_cast<double>(bias.weight) * bias.row(i)[j] : 0.0;
        t[r * width + j - span_.lo] = static_cast<float>(factor * pair + extra);
      }
    }
    return {t - span_.lo, width, 1.0f, i0};
  }

  // The mask of one block: the given one, additive as it is, boolean turned into 0 / -Infinity (a
  // chunked layer's chunk is a key range, keys.chunk, not a mask).
  kernels::Term maskTerm(int64_t b, int64_t h, int64_t i0, int64_t rows) {
    const Given& mask = c_.terms.mask;
    if (!mask.present()) return {};
    const float* given = mask_.rows(b, h, i0, rows);  // row i0
    const int64_t stride = mask.rowStride;
    if (!c_.terms.booleanMask) return {given, stride, 1.0f, i0};
    const int64_t width = span_.width();
    float* additive = sized(ws_.mask, rows * width);
    for (int64_t r = 0; r < rows; ++r) {
      const float* row = given + r * stride;
      float* out = additive + r * width - span_.lo;
      for (int64_t j = span_.lo; j < span_.hi; ++j) out[j] = row[j] != 0.0f ? 0.0f : kMinusInf;
    }
    return {additive - span_.lo, width, 1.0f, i0};
  }

  const Call& c_;
  Workspace& ws_;
  const KeySide& keys_;
  KeySpan span_;  // the current block's keys (startBlock)
  GivenRows bias_{c_.params, c_.terms.bias, "B", c_.s.m};
  GivenRows mask_{c_.params, c_.terms.mask, "mask", c_.s.m};
};

// ---------------------------------------------------------------------------------------------
// Where a call's results go: the weights (into the result, the sink's memory, or scratch handed to
// the sink) and the output, with the epilogue that adds Shaw's value table.

class Results {
 public:
  RELPOS_COLD Results(const Call& call, WeightsSink* sink) : c_(call), sink_(sink) {
    const Shapes& s = c_.s;
    if (c_.keepWeights) {
      Shape shape = {s.heads, s.rows, s.m};
      if (s.batched) shape.insert(shape.begin(), s.batch);
      if (sink_) {
        weightsShape_ = shape;
        sink_->begin(shape);
      } else {
        weights_ = Tensor::floats(shape);
      }
    }
    if (c_.in.v) {
      output_ = Tensor::floats(s.batched ? Shape{s.batch, s.rows, s.heads * s.dv} : Shape{s.rows, s.heads * s.dv});
    }
  }

  // Head h's output of row i (of the whole call) in sequence b; the result holds rows first ..
  // first + rows - 1 of the call.
  float* output(int64_t b, int64_t i, int64_t h) {
    const Shapes& s = c_.s;
    return output_.f32.data() + (b * s.rows + i - s.first) * s.heads * s.dv + h * s.dv;
  }

  // Where the weights of rows i0 .. i0 + rows - 1 of head h are formed: in the result or the sink's
  // memory when they are kept there, else in scratch (then handed to the sink by handOver).
  float* weights(int64_t b, int64_t h, int64_t i0, int64_t rows, Workspace& ws) {
    const Shapes& s = c_.s;
    offset_ = ((b * s.heads + h) * s.rows + i0 - s.first) * s.m;
    float* w = nullptr;
    if (c_.keepWeights) w = sink_ ? sink_->destination(offset_, rows * s.m) : weights_.f32.data() + offset_;
    inPlace_ = w != nullptr;
    return inPlace_ ? w : sized(ws.weights, rows * s.m);
  }
  void handOver(const float* w, int64_t rows) {
    if (c_.keepWeights && sink_ && !inPlace_) sink_->write(offset_, w, rows * c_.s.m);
  }

  // Shaw's a^V: out_i += sum_j w_ij aV[idx(i, j)], as per-bucket weight sums times the table rows.
  void addValueTable(const float* w, int64_t i0, int64_t rows, float* out, int64_t ldo, Workspace& ws) const {
    const Shapes& s = c_.s;
    const PairTable& pairs = c_.terms.table;
    const std::vector<float>& table = pairs.valueTable;
    const int64_t buckets = static_cast<int64_t>(table.size()) / s.dv;
    double* sum = sized(ws.dots, buckets);
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t i = i0 + r;
      std::fill(sum, sum + buckets, 0.0);
      for (int64_t j = c_.keys.begin(i, s.m); j < c_.keys.end(i, s.m); ++j)
        sum[pairs.index[i * s.m + j]] += w[r * s.m + j];
      float* o = out + r * ldo;
      for (int64_t t = 0; t < buckets; ++t) {
        if (sum[t] == 0.0) continue;
        for (int64_t col = 0; col < s.dv; ++col) o[col] += static_cast<float>(sum[t] * table[t * s.dv + col]);
      }
    }
  }

  Result finish() {
    Result out;
    if (c_.keepWeights) {
      if (sink_) weights_.shape = weightsShape_;  // the values went to the sink
      out.emplace("weights", std::move(weights_));
    }
    if (c_.in.v) out.emplace("output", std::move(output_));
    return out;
  }

 private:
  const Call& c_;
  WeightsSink* sink_;
  Tensor weights_, output_;
  Shape weightsShape_;
  int64_t offset_ = 0;  // the current block's weights: their offset, and whether formed in place
  bool inPlace_ = false;
};

// ---------------------------------------------------------------------------------------------
// One call, split into units (sequence, block of rows, head) that run in order: the synchronous
// call runs them all, the job a few per step.

class AttentionRun {
 public:
  RELPOS_COLD AttentionRun(const Params& params, const Scheme* scheme, WeightsSink* sink, Workspace& ws,
                           PackedKeySource* keySource = nullptr)
      : c_(params, scheme, sink != nullptr),
        s_(c_.s),
        ws_(ws),
        results_(c_, sink),
        keys_(c_, ws, keySource),
        terms_(c_, ws, keys_) {}

  int64_t units() const { return s_.batch * c_.blocks * s_.heads; }

  // Runs unit u; units must run in order 0, 1, 2, …
  void run(int64_t u) {
    const int64_t h = u % s_.heads;
    const int64_t nth = (u / s_.heads) % c_.blocks;
    const int64_t b = u / (s_.heads * c_.blocks);
    // Block firstBlock + nth of the whole call, clipped to the rows asked for.
    const int64_t blockStart = (c_.firstBlock + nth) * s_.rowsPerBlock;
    const int64_t i0 = std::max(blockStart, s_.first);
    const int64_t rows = std::min({blockStart + s_.rowsPerBlock, s_.n, s_.first + s_.rows}) - i0;
    if (nth == 0 && h == 0) keys_.prepare(b);
    if (h == 0) terms_.startBlock(b, i0, rows);
    if (c_.terms.bias.unscanned) terms_.scanBiasRows(b, h, i0, rows);
    headBlock(b, h, i0, rows);
  }

  Result finish() { return results_.finish(); }

 private:
  // Whether a block of `rows` query rows runs a whole KV group at once (groupBlock): output only, one
  // row (decoding), and per-head terms that do not share scratch (a pair term, a borrowed B scanned
  // head by head, a per-head boolean mask converted into one buffer, a B or mask read into scratch).
  bool grouped(int64_t rows) const {
    const Terms& t = c_.terms;
    const bool headMask = t.mask.data && t.booleanMask && t.mask.headStride != 0;
    const bool read = t.bias.reader || t.mask.reader;
    return rows == 1 && s_.group > 1 && !c_.needWeights() && !t.pairTerm() && !t.bias.unscanned && !headMask && !read;
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
      const float* qt = terms_.queries(b, h0 + t, i0, 1, copies + t * s_.dh, ldq);
      if (t == 0) q = qt;  // the group's heads: consecutive rows of dh, in place or copied
      specs[static_cast<size_t>(t)] = terms_.spec(b, h0 + t, i0, 1, qt, ldq);
    }
    const int64_t vWidth = s_.kvHeads * s_.dv;
    const float* v = c_.in.v->data() + b * s_.m * vWidth + g * s_.dv;
    kernels::groupOutput(q, s_.dh, i0, s_.group, keys_.panel(g), s_.m, s_.dh, v, vWidth, s_.dv, specs.data(),
                         ws_.online, results_.output(b, i0, h0), s_.dv);
  }

  // Rows i0 .. i0 + rows - 1 of head h of sequence b.
  void headBlock(int64_t b, int64_t h, int64_t i0, int64_t rows) {
    if (grouped(rows)) {
      if (h % s_.group == 0) groupBlock(b, h, i0);
      return;
    }
    const int64_t g = h / s_.group;
    int64_t ldq = 0;
    const float* q = terms_.queries(b, h, i0, rows, sized(ws_.queries, rows * s_.dh), ldq);
    const kernels::LogitSpec spec = terms_.spec(b, h, i0, rows, q, ldq);

    const int64_t vWidth = s_.kvHeads * s_.dv;
    const float* v = c_.in.v ? c_.in.v->data() + b * s_.m * vWidth + g * s_.dv : nullptr;
    float* out = c_.in.v ? results_.output(b, i0, h) : nullptr;
    const int64_t ldo = s_.heads * s_.dv;
    if (!c_.needWeights()) {
      kernels::attentionOutput(q, ldq, i0, rows, keys_.panel(g), s_.m, s_.dh, v, vWidth, s_.dv, spec, ws_.online, out,
                               ldo);
      return;
    }
    float* w = results_.weights(b, h, i0, rows, ws_);
    if (c_.terms.logits) {
      c_.scheme->logits(c_.params, q, keys_.unpacked(g), rows, s_.m, s_.dh, s_.queryOffset + i0, w);
      kernels::softmaxLogits(w, s_.m, i0, rows, s_.m, spec);
    } else {
      kernels::softmaxWeights(q, ldq, i0, rows, keys_.panel(g), s_.m, s_.dh, spec, w, s_.m);
    }
    if (v) {
      // A uniform row (fullyMaskedRows 'uniform') has weight on keys outside its range too.
      kernels::weightedSum(w, s_.m, i0, rows, s_.m, v, vWidth, s_.dv,
                           c_.model.uniformEmpty ? kernels::KeyRange{} : c_.keys, out, ldo);
      if (c_.terms.hasTable && !c_.terms.table.valueTable.empty()) results_.addValueTable(w, i0, rows, out, ldo, ws_);
    }
    results_.handOver(w, rows);
  }

  Call c_;
  Shapes& s_;
  Workspace& ws_;
  Results results_;
  KeySide keys_;
  BlockTerms terms_;
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

RELPOS_COLD double keysSeen(const kernels::KeyRange& keys, int64_t m, int64_t first, int64_t end) {
  // Without causal or a window every row sees all m keys (a chunk needs causal).
  if (!keys.causal && keys.window == 0) return static_cast<double>(end - first) * static_cast<double>(m);
  double sum = 0;
  for (int64_t i = first; i < end; ++i)
    sum += static_cast<double>(std::max<int64_t>(0, keys.end(i, m) - keys.begin(i, m)));
  return sum;
}

RELPOS_COLD std::vector<int64_t> balancedBounds(const std::vector<double>& prefix, int64_t parts) {
  const auto units = static_cast<int64_t>(prefix.size()) - 1;
  if (units < 1 || parts < 1) return {};
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
  return bounds;
}

RELPOS_COLD double attentionKeysSeen(const Params& params, int64_t first, int64_t end) {
  const Geometry g = geometryOf(params);
  if (!g.valid) return 0;
  return keysSeen(g, std::clamp<int64_t>(first, 0, g.n), std::clamp<int64_t>(end, 0, g.n));
}

RELPOS_COLD double attentionWork(const Params& params, int64_t first, int64_t end) {
  const Geometry g = geometryOf(params);
  if (!g.valid) return 0;
  const double seen = keysSeen(g, std::clamp<int64_t>(first, 0, g.n), std::clamp<int64_t>(end, 0, g.n));
  return g.batch * g.heads * seen * (g.dh + g.dv);
}

RELPOS_COLD std::vector<RowCut> attentionCuts(const Params& params, int64_t parts) {
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
  const std::vector<int64_t> bounds = balancedBounds(prefix, parts);
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
