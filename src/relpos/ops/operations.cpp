#include "relpos/ops/operations.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <set>

#include "relpos/base/common_params.hpp"
#include "relpos/base/describe.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/json.hpp"
#include "relpos/ops/attention.hpp"
#include "relpos/schemes/registry.hpp"
#include "relpos/schemes/rotary_family.hpp"

namespace relpos {

namespace {

// ---------------------------------------------------------------------------------------------
// Work: multiply-adds per call, estimated from validated options before anything is computed.

// A size as the call will read it: the given number, else the scheme's default, else `fallback`.
double sizeOf(const Params& params, const Scheme* scheme, const std::string& name, double fallback) {
  if (const Value* v = params.find(name); v && v->type == Value::Type::Number) return v->number;
  if (scheme) {
    if (const ParamInfo* p = scheme->param(name); p && std::isfinite(p->def)) return p->def;
  }
  return fallback;
}

double elementsOf(const Params& params, const std::string& name) {
  const Value* v = params.find(name);
  return v && v->type == Value::Type::Array ? static_cast<double>(v->size()) : 0.0;
}

// Whether the call asks for an alternative result (`output`): its size is then the scheme's to know.
bool alternative(const Params& params) {
  return params.has("output");
}

// The rows of a [n] or [batch, n] positions option (0 when absent) and its sequences.
struct GivenRows {
  double count = 0;
  double sequences = 1;
};
GivenRows rowsOf(const Params& params, const std::string& name) {
  const Value* v = params.find(name);
  if (!v || v->type != Value::Type::Array || v->shape.empty()) return {};
  return {static_cast<double>(v->shape.back()), v->shape.size() == 2 ? static_cast<double>(v->shape[0]) : 1.0};
}

Cost encodingWork(const Params& params, const Scheme* scheme) {
  const double n = rowsOf(params, "positions").count;
  const double values = (n > 0 ? n : sizeOf(params, scheme, "n", 1)) * sizeOf(params, scheme, "d", 1);
  return {values, alternative(params) ? 0.0 : values};
}

// The query-key grid of bias, buckets and scores as schemes/grid.hpp reads it: n from
// queryPositions, n, m or keyPositions; m from keyPositions, m or n; a batch of per-sequence rows.
struct GridSize {
  double batch = 1;
  double n = 1;
  double m = 1;
};
GridSize gridOf(const Params& params, const Scheme* scheme) {
  GivenRows queries = rowsOf(params, "queryPositions"), keys = rowsOf(params, "keyPositions");
  if (const GivenRows tokens = rowsOf(params, "positions"); tokens.count > 0) queries = keys = tokens;  // scores
  GridSize g;
  if (queries.count > 0) {
    g.n = queries.count;
  } else if (params.has("n")) {
    g.n = sizeOf(params, scheme, "n", 1);
  } else if (params.has("m")) {
    g.n = sizeOf(params, scheme, "m", 1);
  } else {
    g.n = keys.count > 0 ? keys.count : sizeOf(params, scheme, "n", 1);
  }
  g.m = keys.count > 0 ? keys.count : params.has("m") ? sizeOf(params, scheme, "m", 1) : g.n;
  g.batch = std::max(queries.sequences, keys.sequences);
  return g;
}

Cost biasWork(const Params& params, const Scheme* scheme) {
  const GridSize g = gridOf(params, scheme);
  const double values = g.batch * sizeOf(params, scheme, "heads", 1) * g.n * g.m;
  return {values, alternative(params) ? 0.0 : values};
}

Cost bucketsWork(const Params& params, const Scheme* scheme) {
  const GridSize g = gridOf(params, scheme);
  const double values = g.batch * g.n * g.m;
  return {values, alternative(params) ? 0.0 : values};
}

Cost frequenciesWork(const Params& params, const Scheme* scheme) {
  return {sizeOf(params, scheme, "d", 1) * std::max(1.0, elementsOf(params, "positions")), 0.0};
}

Cost rotateWork(const Params& params, const Scheme*) {
  return {2.0 * elementsOf(params, "x"), elementsOf(params, "x")};  // a pair turns with four products
}

// Position-only scores: an n x m matrix of d-wide dot products, written to every head.
Cost scoresWork(const Params& params, const Scheme* scheme) {
  const double d = sizeOf(params, scheme, "d", 1);
  const Value* output = params.find("output");
  if (output && output->type == Value::Type::String && output->text == "offsets") {
    return {d * std::max(1.0, elementsOf(params, "offsets")), 0.0};
  }
  const GridSize g = gridOf(params, scheme);
  const double heads = sizeOf(params, scheme, "heads", 1);
  return {g.batch * g.n * g.m * (d + heads), alternative(params) ? 0.0 : g.batch * heads * g.n * g.m};
}

// QK^T and W·V over the keys each query row attends to (causal, sliding window, chunk: the core's
// one estimate, ops/attention.cpp), for every head and sequence; queryRows' rows only.
Cost attentionWork(const Params& params, const Scheme*) {
  const Value* q = params.find("q");
  const Value* k = params.find("k");
  if (!q || !k || q->shape.size() < 2 || k->shape.size() < 2) return {};
  const auto n = q->shape[q->shape.size() - 2];
  const double m = static_cast<double>(k->shape[k->shape.size() - 2]);
  const double batch = q->shape.size() == 3 ? static_cast<double>(q->shape[0]) : 1.0;
  const double heads = sizeOf(params, nullptr, "heads", 1);
  int64_t first = 0, end = n;
  if (const Value* rows = params.find(queryRowsParam().name);
      rows && rows->type == Value::Type::Array && rows->size() == 2 && rows->at(0) >= 0 && rows->at(0) < rows->at(1) &&
      rows->at(1) <= static_cast<double>(n)) {
    first = static_cast<int64_t>(rows->at(0));
    end = static_cast<int64_t>(rows->at(1));
  }
  // The result limit is the whole call's (ops/attention.cpp, checkSizes), so a part fails as the whole call.
  const Value* weights = params.find("weights");
  const bool keepsWeights = !(weights && weights->type == Value::Type::Boolean && !weights->boolean);
  return {attentionWork(params, first, end), keepsWeights ? batch * heads * static_cast<double>(n) * m : 0.0};
}

// ---------------------------------------------------------------------------------------------
// Checks across options.

// Implicit and mixed attention read a positional term (docs/attention.md): P, B or a scheme's term.
// Without any, the caller asked for a term and would silently get plain attention.
void attentionNeedsTerm(const Params& params, const Scheme* scheme) {
  const Value* mode = params.find(common::attentionMode().name);
  if (!mode || mode->type != Value::Type::String || (mode->text != "implicit" && mode->text != "mixed")) return;
  if (params.has("P") || params.has("B") || (scheme && scheme->term != AttentionTerm::None)) return;
  const std::string wanted = mode->text == "implicit"
                                 ? "position vectors P or a scheme with a positional term"
                                 : "position vectors P, a bias B or a scheme with a positional term";
  throwRange(params.where() + ": mode '" + mode->text + "' needs " + wanted + ", got " +
             (scheme ? "scheme '" + scheme->id + "', which has none" : "no P, no B and no scheme"));
}

// Options that act only with another input: given without it they would change nothing.
void attentionOptionsAct(const Params& params, const Scheme* scheme) {
  attentionNeedsTerm(params, scheme);
  if (params.has(modelAttentionParams().valueHeadDim.name) && !params.has("v")) {
    throwRange(params.where() + ": valueHeadDim is the width of v's heads, and no v was given — pass v, or leave " +
               "valueHeadDim out");
  }
}

// Whether `name` is one of `names` (the short lists below, as literals: no std::set built for them).
bool listed(std::initializer_list<const char*> names, const std::string& name) {
  for (const char* n : names) {
    if (name == n) return true;
  }
  return false;
}

// rp.attention's options beyond the call (Roles): what a layer sets, what is indexed by query row,
// how the KV cache's step, the worker and the pool take them.
void setAttentionRoles(std::vector<OpOption>& options) {
  using Cache = Roles::Cache;
  for (auto& o : options) {
    const std::string& name = o.name();
    o.roles.layer = listed({"scheme", "params", "heads", "kvHeads", "valueHeadDim", "causal", "scale", "slidingWindow",
                            "attentionChunkSize", "softcap", "temperatureTuning"},
                           name);
    o.roles.queryRows = listed({"q", "B", "P", "mask", "positions"}, name);
    o.roles.cache = listed({"k", "v", "axes"}, name)                     ? Cache::Held
                    : listed({"heads", "kvHeads", "valueHeadDim"}, name) ? Cache::Shape
                                                                         : Cache::Step;
    // The caller's own array, and views into a heap, cannot cross to a worker and back.
    o.roles.worker = !listed({"out", "view"}, name);
    // A pooled call returns copies (no views); the pool sets the query rows of each part itself.
    o.roles.pool = !listed({"view", "queryRows"}, name);
    o.roles.sameInSchemes = listed({"heads", "causal", "positions", "keyPositions", "q", "k"}, name);
  }
}

}  // namespace

const std::vector<Operation>& operations() {
  static const std::vector<Operation> table = [] {
    using Check = OpOption::Check;
    const RotaryParams& rotary = rotaryParams();
    // An option only the schemes listing it in Scheme::reads (or owning a parameter of that name) read.
    const auto perScheme = [](OpOption o) {
      o.perScheme = true;
      return o;
    };
    const OpOption n = common::n(), heads = common::heads(), causal = common::causal();
    // Every scheme's scores take the head width (bias schemes do not depend on it), so one call
    // serves every scheme.
    const OpOption headWidth = common::d();
    const OpOption output =
        perScheme(stringParam("output", "an alternative result the scheme offers (rp.schemes lists its choices)"));
    const OpOption view{booleanParam("view", false, "return views into the wasm heap, valid until the next call"),
                        Check::Binding};
    const OpOption scheme{stringParam("scheme", "the scheme id (rp.schemes)"), Check::Binding};
    const OpOption params{
        optionsParam("params",
                     "the scheme's parameters (rp.schemes); they win over the same names, but for a parameter named "
                     "like an rp.attention option of another meaning (sin-freq's alpha), which is the scheme's there"),
        Check::Binding};
    // How q, k, v (rotate: x) are laid out; the JS entry reads them into [batch?, n, heads*d].
    const OpOption axes{
        choiceParam("axes", "bnd|bhnd|nhd",
                    "bnd: [batch?, n, heads*d]; bhnd: [batch, heads, n, d] (PyTorch); nhd: [n, heads, d]"),
        Check::Binding};
    const auto tensor = [](const char* name, const char* doc, Check check = Check::Always, bool required = false) {
      return OpOption{arrayParam(name, doc), check, required};
    };
    const auto inPlace = [](OpOption o) {
      o.inPlace = true;
      return o;
    };
    // Read a block of query rows at a time (attention's Given::reader): an [n, m] term.
    const auto streamed = [](OpOption o) {
      o.streamed = true;
      return o;
    };
    // The query-key grid of bias, buckets and scores (schemes/grid.hpp).
    const OpOption m = common::m(), queryOffset = common::queryOffset(), queryPositions = common::queryPositions(),
                   keyPositions = common::keyPositions();
    const OpOption positions = perScheme(rotary.positions);
    const ModelAttentionParams& modelAttention = modelAttentionParams();
    std::vector<Operation> ops(7);
    ops[0] = {"encoding",
              "absolute position vectors [n, d]",
              &Scheme::encoding,
              {n, perScheme({common::d(), Check::Always, true}), positions, output, view},
              encodingWork};
    ops[1] = {"bias",
              "the additive logit bias B [heads, n, m]",
              &Scheme::bias,
              {n, m, queryOffset, queryPositions, keyPositions, heads, causal, output, view},
              biasWork};
    ops[2] = {"buckets",
              "bucket / clipped-distance index map [n, m] (Int32)",
              &Scheme::buckets,
              {n, m, queryOffset, queryPositions, keyPositions, causal, output, view},
              bucketsWork};
    ops[3] = {"frequencies",
              "rotary inverse frequencies [rotaryDim/2] and the attention factor",
              &Scheme::frequencies,
              {perScheme({rotary.width, Check::Always, true}), positions, view},
              frequenciesWork};
    ops[3].returns = {{"invFreq", "array"}, {"attentionFactor", "number"}};
    ops[4] = {"rotate",
              "rows of x [n, heads*d] rotated by position, every head",
              &Scheme::rotate,
              {tensor("x", "rows [n, heads*d]", Check::Always, true), positions, heads, perScheme(rotary.width),
               rotary.startIndex, rotary.halfLayout, rotary.rotaryDim, scheme, axes, view},
              rotateWork};
    ops[4].input = "x";
    ops[4].defaultScheme = "rope";
    ops[5] = {"scores",
              "the position-only logit matrix [heads, n, m]",
              &Scheme::scores,
              {n, m, queryOffset, positions, queryPositions, keyPositions, headWidth, heads,
               perScheme(tensor("q", "probe or content queries")), perScheme(tensor("k", "probe or content keys")),
               perScheme(tensor("offsets", "relative offsets (output 'offsets')")), output, causal, view},
              scoresWork};
    ops[6] = {
        "attention",
        "attention weights [batch?, heads, n, m] and output [batch?, n, heads*dv] with a positional term",
        nullptr,
        {inPlace(tensor("q", "queries [n, heads*d] or [batch, n, heads*d]", Check::ByCall, true)),
         inPlace(tensor("k", "keys [m, kvHeads*d] or [batch, m, kvHeads*d]", Check::ByCall, true)),
         inPlace(tensor("v", "values [m, kvHeads*dv] or [batch, m, kvHeads*dv]", Check::ByCall)),
         heads,
         common::kvHeads(),
         common::attentionMode(),
         common::mixedAlpha(),
         common::mixedBeta(),
         causal,
         common::queryOffset(),
         common::slidingWindow(),
         common::attentionScale(),
         common::attentionWeights(),
         streamed(
             inPlace(tensor("B", "a given bias [n, m], [heads, n, m] or [batch, heads or 1, n, m]", Check::ByCall))),
         inPlace(tensor("P", "given position vectors [m, d] or [n, m, d]", Check::ByCall)),
         streamed(tensor("mask", "a mask [n, m], [heads, n, m] or [batch, heads or 1, n, m]", Check::ByCall)),
         common::maskKind(),
         {modelAttention.sinks, Check::ByCall},  // may hold -Infinity (no sink): read by the call
         modelAttention.softcap,
         modelAttention.chunk,
         modelAttention.temperature,
         modelAttention.positions,
         modelAttention.keyPositions,
         modelAttention.valueHeadDim,
         modelAttention.rotated,
         modelAttention.fullyMaskedRows,
         modelAttention.causalAlign,
         queryRowsParam(),
         scheme,
         params,
         view,
         axes,
         {optionsParam(
              "layer",
              "a layer group of rp.fromConfig(...).groups or rp.presets[...].groups: its scheme, params, heads, "
              "kvHeads, valueHeadDim, causal, scale, window, chunk, soft-cap and temperature"),
          Check::Binding},
         {arrayParam("out", "a Float32Array that receives the weights (weights: false: the output) and is returned"),
          Check::Binding}},
        attentionWork};
    setAttentionRoles(ops[6].options);
    ops[6].precheck = attentionOptionsAct;
    ops[6].budget = kSyncWorkBudget;  // the SIMD kernels
    ops[6].job = "rp.attentionAsync";
    ops[6].returns = {{"weights", "tensor"}, {"output", "tensor"}};
    return ops;
  }();
  return table;
}

namespace {

const Operation& findOperation(const std::string& op) {
  return findNamed(operations(), &Operation::name, op, "relpos", "operation", "operations");
}

bool offers(const Scheme& scheme, const Operation& op) {
  return op.hook ? scheme.*op.hook != nullptr : scheme.term != AttentionTerm::Unsupported;
}

// The calls of the scheme that parameter `p` acts on, in table order.
std::vector<std::string> actingCalls(const Scheme& scheme, const ParamInfo& p) {
  std::vector<std::string> calls;
  if (p.restates) return calls;
  for (const auto& op : operations()) {
    if (!offers(scheme, op)) continue;
    if (p.affects.empty() || std::find(p.affects.begin(), p.affects.end(), op.name) != p.affects.end()) {
      calls.push_back(op.name);
    }
  }
  return calls;
}

// A scheme parameter that acts on some calls only and is refused elsewhere (ParamInfo::onlyThere),
// unless the call has an option of that name itself (attention's heads, q, k).
void refuseElsewhere(const Operation& op, const Scheme& scheme, const Params& params) {
  for (const auto& p : scheme.params) {
    if (!p.onlyThere || !params.has(p.name)) continue;
    if (std::find(p.affects.begin(), p.affects.end(), op.name) != p.affects.end()) continue;
    if (std::any_of(op.options.begin(), op.options.end(), [&](const OpOption& o) { return o.name() == p.name; })) {
      continue;
    }
    std::string calls;
    for (const auto& c : actingCalls(scheme, p)) calls += (calls.empty() ? "rp." : ", rp.") + c;
    throwRange(params.where() + ": " + p.name + " applies to " + calls + " of '" + scheme.id + "', not to rp." +
               op.name);
  }
}

// A call option only some schemes read (OpOption::perScheme), given to one that does not.
void refuseUnread(const Operation& op, const Scheme& scheme, const Params& params) {
  const auto listed = scheme.reads.find(op.name);
  for (const auto& o : op.options) {
    if (!o.perScheme || !params.has(o.name()) || scheme.hasParam(o.name())) continue;
    if (listed != scheme.reads.end() &&
        std::find(listed->second.begin(), listed->second.end(), o.name()) != listed->second.end()) {
      continue;
    }
    throwRange(params.where() + ": '" + scheme.id + "' takes no " + o.name() + " in rp." + op.name + " (" + o.info.doc +
               ")");
  }
}

const Scheme* schemeFor(const Operation& operation, const std::string& id) {
  const std::string where = "relpos." + operation.name;
  const Scheme* scheme = id.empty() && !operation.hook ? nullptr : &findScheme(where, id);
  if (scheme && !offers(*scheme, operation)) {
    std::vector<std::string> ids;
    for (const auto& s : catalogue()) {
      if (offers(s, operation)) ids.push_back(s.id);
    }
    throwRange(where + ": scheme '" + id + "' has no " + operation.name + "; schemes with one: " + quotedList(ids));
  }
  return scheme;
}

}  // namespace

CallNotes callNotes(const std::string& op, const std::string& id, const Params& params) {
  CallNotes notes;
  if (id.empty()) return notes;
  const Scheme& scheme = findScheme("relpos." + op, id);
  if (scheme.syntheticDefaults) {
    notes.synthetic = scheme.syntheticDefaults(scheme, params, op);
  } else {
    for (const auto& p : scheme.params) {
      if (!p.synthetic || params.has(p.name)) continue;
      const std::vector<std::string> calls = actingCalls(scheme, p);
      if (std::find(calls.begin(), calls.end(), op) != calls.end()) notes.synthetic.push_back(p.name);
    }
  }
  const bool view = op == "bias" || op == "scores";
  notes.sameForEveryHead =
      view && !scheme.perHead && params.has(common::heads().name) && params.integer(common::heads()) > 1;
  if (op == "attention" && scheme.unscaledLogits && !params.has(common::attentionScale().name)) {
    notes.notes.push_back("scale: the logits were scaled by 1/sqrt(d), but models using '" + scheme.id +
                          "' scale them by 1 (pass scale: 1, or layer: a group of rp.fromConfig / rp.presets)");
  }
  return notes;
}

const Scheme* checkedScheme(const std::string& op, const std::string& id, const Params& params,
                            const std::set<std::string>& extra) {
  const Operation& operation = findOperation(op);
  const Scheme* scheme = schemeFor(operation, id);
  // The names a call accepts: its own options and the scheme's parameters; the JS entry's own
  // options (scheme, params, view) are listed too, never accepted here. The lists are built only
  // for the message of a name that is not accepted (every call passes here).
  // rp.attention's own option whose name the scheme's parameters use too (callValueKey).
  const auto calledOwn = [&](const std::string& name) -> const OpOption* {
    if (name.rfind("call.", 0) != 0) return nullptr;
    for (const auto& o : operation.options) {
      if ("call." + o.name() == name && callValueKey(scheme, o.info) == name) return &o;
    }
    return nullptr;
  };
  const auto accepts = [&](const std::string& name) {
    if (extra.count(name) || (scheme && scheme->hasParam(name)) || calledOwn(name)) return true;
    return std::any_of(operation.options.begin(), operation.options.end(),
                       [&](const OpOption& o) { return o.check != OpOption::Check::Binding && o.name() == name; });
  };
  const std::vector<std::string> given = params.names();
  if (!std::all_of(given.begin(), given.end(), accepts)) {
    std::set<std::string> accepted = extra, binding;
    for (const auto& o : operation.options) (o.check == OpOption::Check::Binding ? binding : accepted).insert(o.name());
    if (scheme) {
      for (const auto& p : scheme->params) accepted.insert(p.name);
    }
    checkKnownNames(params, accepted, binding);
  }
  // Every parameter given is checked against rp.schemes and the table, also those this call does
  // not read.
  if (scheme) {
    for (const auto& p : scheme->params) validateParam(params, p);
  }
  for (const auto& o : operation.options) {
    if (o.check == OpOption::Check::Always && !o.untyped && !(scheme && scheme->hasParam(o.name()))) {
      validateParam(params, o.info);
    }
  }
  for (const auto& name : given) {
    if (const OpOption* o = calledOwn(name)) {
      Params one(params.where());  // checked under its public name, as the caller gave it
      one.set(o->name(), *params.find(name));
      validateParam(one, o->info);
    }
  }
  // Then the names this scheme does not read in this call (a bad value is reported as such first).
  if (scheme) {
    refuseElsewhere(operation, *scheme, params);
    if (operation.hook) refuseUnread(operation, *scheme, params);
  }
  if (operation.precheck) operation.precheck(params, scheme);
  return scheme;
}

Result compute(const std::string& op, const std::string& id, const Params& params, WeightsSink* sink,
               PackedKeySource* keys) {
  const Operation& operation = findOperation(op);
  const Scheme* scheme = checkedScheme(op, id, params);
  const Cost cost = operation.work ? operation.work(params, scheme) : Cost{};
  checkResultSize(params.where(), cost.results);
  const double budget = std::isnan(params.workBudget()) ? operation.budget : params.workBudget();
  checkWork(params.where(), cost.work, budget, operation.job);
  if (!operation.hook) return attention(params, scheme, sink, keys);
  return (scheme->*operation.hook)(*scheme, params);
}

std::string callValueKey(const Scheme* scheme, const ParamInfo& info) {
  const ParamInfo* p = scheme ? scheme->param(info.name) : nullptr;
  if (!p) return info.name;
  const Operation& attention = findOperation("attention");
  for (const auto& o : attention.options) {
    if (o.name() != info.name) continue;
    if (o.check == OpOption::Check::Binding || o.roles.sameInSchemes) return info.name;
    const std::vector<std::string> calls = actingCalls(*scheme, *p);
    return std::find(calls.begin(), calls.end(), attention.name) == calls.end() ? info.name : "call." + info.name;
  }
  return info.name;
}

double workOf(const std::string& op, const std::string& id, const Params& params) {
  for (const auto& operation : operations()) {
    if (operation.name != op || !operation.work) continue;
    const Scheme* scheme = nullptr;
    for (const auto& s : catalogue()) {
      if (s.id == id) scheme = &s;
    }
    return operation.work(params, scheme).work;
  }
  return 0;
}

namespace {

// What a page may ask of a scheme before calling it: the capabilities of docs/architecture.md, with
// shift-invariance judged at the scheme's defaults and an even head width of 64 (a parameter such as
// ALiBi's keyPosition form, or an odd sinusoidal width, can still break it).
JsonValue capabilitiesJson(const Scheme& s) {
  const bool shiftInvariant = s.shiftInvariant && s.shiftInvariant(Params("relpos.schemes"), 64);
  return jsonObject({{"shiftInvariant", JsonValue::makeBoolean(shiftInvariant)},
                     {"closedForm", JsonValue::makeBoolean(s.closedForm != nullptr)},
                     {"lab", JsonValue::makeBoolean(s.lab.make != nullptr)},
                     {"perHead", JsonValue::makeBoolean(s.perHead)}});
}

// The names rp.operations gives the values of Roles::Cache and OpOption::Check, in their order.
constexpr const char* kCacheNames[] = {"step", "held", "shape"};
constexpr const char* kCheckNames[] = {"always", "byCall", "binding"};

template <class Enum, size_t N>
const char* nameOf(Enum value, const char* const (&names)[N]) {
  return names[static_cast<size_t>(value)];
}

}  // namespace

std::string catalogueJson() {
  JsonValue all = JsonValue::makeArray();
  for (const auto& s : catalogue()) {
    std::vector<std::string> calls;
    for (const auto& op : operations()) {
      if (offers(s, op)) calls.push_back(op.name);
    }
    JsonValue params = JsonValue::makeObject();
    for (const auto& p : s.params) {
      JsonValue described = describeParam(p);
      described.set("affects", jsonStrings(actingCalls(s, p)));
      described.set("synthetic", JsonValue::makeBoolean(p.synthetic));
      params.set(p.name, std::move(described));
    }
    all.push(jsonObject({{"id", JsonValue::makeString(s.id)},
                         {"family", JsonValue::makeString(s.family)},
                         {"name", JsonValue::makeString(s.name)},
                         {"cite", JsonValue::makeString(s.cite)},
                         {"description", JsonValue::makeString(s.description)},
                         {"calls", jsonStrings(calls)},
                         {"capabilities", capabilitiesJson(s)},
                         {"params", std::move(params)}}));
  }
  return toJson(all);
}

std::string operationsJson() {
  JsonValue all = JsonValue::makeArray();
  for (const auto& op : operations()) {
    JsonValue options = JsonValue::makeArray();
    for (const auto& o : op.options) {
      JsonValue entry = jsonObject({{"name", JsonValue::makeString(o.name())}});
      for (auto& member : describeParam(o.info).object) entry.set(member.first, std::move(member.second));
      if (o.untyped) entry.set("type", JsonValue::makeString("unknown"));
      entry.set("check", JsonValue::makeString(nameOf(o.check, kCheckNames)));
      entry.set("required", JsonValue::makeBoolean(o.required));
      entry.set("inPlace", JsonValue::makeBoolean(o.inPlace));
      entry.set("streamed", JsonValue::makeBoolean(o.streamed));
      if (op.name == "attention") {
        entry.set("layer", JsonValue::makeBoolean(o.roles.layer));
        entry.set("queryRows", JsonValue::makeBoolean(o.roles.queryRows));
        entry.set("kvCache", JsonValue::makeString(nameOf(o.roles.cache, kCacheNames)));
        entry.set("worker", JsonValue::makeBoolean(o.roles.worker));
        entry.set("pool", JsonValue::makeBoolean(o.roles.pool));
        entry.set("sameInSchemes", JsonValue::makeBoolean(o.roles.sameInSchemes));
      }
      options.push(std::move(entry));
    }
    JsonValue returns = JsonValue::makeObject();
    for (const auto& [key, kind] : op.returns) returns.set(key, JsonValue::makeString(kind));
    JsonValue entry = jsonObject({{"name", JsonValue::makeString(op.name)},
                                  {"doc", JsonValue::makeString(op.doc)},
                                  {"options", std::move(options)},
                                  {"returns", std::move(returns)}});
    if (!op.input.empty()) entry.set("input", JsonValue::makeString(op.input));
    if (!op.defaultScheme.empty()) entry.set("defaultScheme", JsonValue::makeString(op.defaultScheme));
    if (!op.job.empty()) entry.set("job", JsonValue::makeString(op.job));
    entry.set("budget", JsonValue::makeNumber(op.budget));
    all.push(std::move(entry));
  }
  return toJson(all);
}

}  // namespace relpos
