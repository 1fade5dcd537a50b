#include "relpos/lab/options.hpp"

#include <algorithm>
#include <set>

#include "relpos/base/describe.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/lab/tasks.hpp"
#include "relpos/schemes/registry.hpp"

namespace relpos::lab {

std::vector<const Scheme*> labSchemes() {
  std::vector<const Scheme*> out;
  for (const auto& s : catalogue()) {
    if (s.lab.make) out.push_back(&s);
  }
  return out;
}

const Scheme& findLabScheme(const std::string& name) {
  for (const Scheme* s : labSchemes()) {
    if (s->id == name || (!s->lab.alias.empty() && s->lab.alias == name)) return *s;
  }
  std::vector<std::string> known;
  for (const Scheme* s : labSchemes()) known.push_back(s->id);
  throwUnknownName("relpos.train", "lab scheme", name, known, "lab schemes", false);
}

std::string resolvedMode(const Config& config) {
  return config.mode == "auto" ? findLabScheme(config.scheme).lab.modes.front() : config.mode;
}

namespace {

std::string lengthList(const std::vector<int64_t>& lengths) {
  std::string out;
  for (int64_t n : lengths) out += (out.empty() ? "" : ", ") + std::to_string(n);
  return out;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : "|") + item;
  return out;
}

// The names `scheme` takes: the default (rope) first, the other lab schemes, then their aliases.
std::vector<std::string> labSchemeNames() {
  std::vector<std::string> names = {"rope"};
  for (const Scheme* s : labSchemes()) {
    if (s->id != names.front()) names.push_back(s->id);
  }
  for (const Scheme* s : labSchemes()) {
    if (!s->lab.alias.empty()) names.push_back(s->lab.alias);
  }
  return names;
}

std::vector<std::string> taskIds() {
  std::vector<std::string> ids;
  for (const Task& t : tasks()) ids.push_back(t.id);
  return ids;
}

// Every option in the order rp.lab.schema lists them: the general ones, then each lab scheme's own.
const std::vector<ParamInfo>& allOptions() {
  static const std::vector<ParamInfo> list = [] {
    std::vector<ParamInfo> out = {
        choiceParam("scheme", joined(labSchemeNames()), "positional scheme of every attention layer"),
        choiceParam("mode", "auto|explicit|implicit|mixed|input",
                    "attention mode; auto: the scheme's first; input: position vectors added to the token embeddings"),
        choiceParam("task", joined(taskIds()), "synthetic task"),
        choiceParam("schedule", "cosine|linear|constant", "learning-rate decay after warm-up"),
        choiceParam("trainLengths", "fixed|upTo",
                    "fixed: every training sequence has length L; upTo: each step's batch has a length drawn "
                    "uniformly from the task's lengths up to L"),
        numberParam("alpha", 1, -1e6, 1e6, "mixed mode: weight of the bias"),
        numberParam("beta", 1, -1e6, 1e6, "mixed mode: weight of q.p"),
        integerParam("length", 32, 4, 128, "training length L (evaluated at L, 2L, 4L, 8L)"),
        integerParam("offset", 2, 1, 64, "copy: predict the token this many positions back"),
        integerParam("vocab", 16, 2, 64, "content tokens (plus one special token)"),
        booleanParam("bos", false,
                     "a beginning-of-sequence token before every sequence (not counted in the length, no target)"),
        integerParam("layers", 1, 1, 4, "attention blocks"),
        integerParam("heads", 2, 1, 4, "heads per layer"),
        integerParam("dModel", 32, 4, 128, "model width (divisible by heads)"),
        integerParam("dFF", 64, 1, 512, "feed-forward width"),
        booleanParam("normalisation", true, "pre-layer-norm in every block and before the output"),
        integerParam("steps", 500, 1, 100000, "optimisation steps"),
        integerParam("batch", 16, 1, 256, "sequences per step"),
        integerParam("warmup", 50, 0, 100000, "linear warm-up steps"),
        numberParam("lr", 1e-2, 0, 10, "peak learning rate", true),
        numberParam("clip", 1, 0, 1e6, "clip the global gradient norm to this (0: off)"),
        numberParam("minLrRatio", 0.1, 0, 1, "final learning rate / peak"),
        numberParam("weightDecay", 0, 0, 1, "decoupled weight decay (AdamW)"),
        integerParam("seed", 1, 0, 9007199254740991.0, "seed of initialisation, data and evaluation"),
        integerParam("evalSequences", 16, 1, 256, "evaluation sequences per length"),
        integerParam("evalUpTo", 0, 0, 512,
                     "0: evaluate at L, 2L, 4L, 8L (each the longest length <= it the task allows); otherwise at "
                     "every length the task allows up to this"),
    };
    for (const Scheme* s : labSchemes()) {
      for (const ParamInfo& p : s->lab.options) out.push_back(p);
    }
    return out;
  }();
  return list;
}

const ParamInfo& option(const std::string& name) {
  for (const ParamInfo& p : allOptions()) {
    if (p.name == name) return p;
  }
  throwRange("relpos.train: internal: no option " + name);
}

}  // namespace

Config readConfig(const Params& params) {
  const std::string where = params.where();
  std::set<std::string> names;
  for (const ParamInfo& p : allOptions()) names.insert(p.name);
  checkKnownNames(params, names);
  for (const ParamInfo& p : allOptions()) validateParam(params, p);
  Config c;
  c.options = params;
  c.scheme = findLabScheme(params.choice(option("scheme"))).id;
  c.mode = params.choice(option("mode"));
  c.task = params.choice(option("task"));
  c.schedule = params.choice(option("schedule"));
  c.alpha = params.number(option("alpha"));
  c.beta = params.number(option("beta"));
  c.length = params.integer(option("length"));
  c.offset = params.integer(option("offset"));
  c.vocab = params.integer(option("vocab"));
  c.bos = params.boolean(option("bos"));
  c.layers = params.integer(option("layers"));
  c.heads = params.integer(option("heads"));
  c.dModel = params.integer(option("dModel"));
  c.dFF = params.integer(option("dFF"));
  c.normalisation = params.boolean(option("normalisation"));
  c.steps = params.integer(option("steps"));
  c.batch = params.integer(option("batch"));
  c.warmup = params.integer(option("warmup"));
  c.lr = params.number(option("lr"));
  c.clip = params.number(option("clip"));
  c.minLrRatio = params.number(option("minLrRatio"));
  c.weightDecay = params.number(option("weightDecay"));
  c.seed = static_cast<uint64_t>(params.integer(option("seed")));
  c.evalSequences = params.integer(option("evalSequences"));
  c.trainUpTo = params.choice(option("trainLengths")) == "upTo";
  const int64_t evalUpTo = params.integer(option("evalUpTo"));

  if (c.dModel % c.heads != 0) {
    throwRange(where + ": dModel (" + std::to_string(c.dModel) + ") must be divisible by heads (" +
               std::to_string(c.heads) + ")");
  }
  const Task& task = findTask(c.task);
  if (!task.fits(c, c.length)) {
    throwRange(where + ": task '" + c.task + "' cannot lay out length " + std::to_string(c.length) +
               " (its lengths up to 16: " + lengthList(taskLengths(c, 16)) + ")");
  }
  if (evalUpTo > 0) {
    c.evalLengths = taskLengths(c, evalUpTo);
    if (c.evalLengths.empty()) throwRange(where + ": task '" + c.task + "' has no length up to evalUpTo");
  } else {
    c.evalLengths.clear();
    for (int64_t f : {1, 2, 4, 8}) c.evalLengths.push_back(fitLength(c, f * c.length));
  }
  const Scheme& scheme = findLabScheme(c.scheme);
  if (c.mode != "auto") {
    const auto& modes = scheme.lab.modes;
    if (std::find(modes.begin(), modes.end(), c.mode) == modes.end()) {
      throwRange(where + ": mode '" + c.mode + "' does not apply to scheme '" + c.scheme +
                 "'; its modes: " + quotedList(modes));
    }
  }
  return c;
}

}  // namespace relpos::lab

namespace relpos {

std::string labSchemaJson() {
  JsonValue options = JsonValue::makeObject();
  for (const ParamInfo& p : lab::allOptions()) options.set(p.name, describeParam(p));
  JsonValue schemes = JsonValue::makeArray();
  for (const Scheme* s : lab::labSchemes()) {
    std::vector<std::string> own;
    for (const auto& p : s->lab.options) own.push_back(p.name);
    schemes.push(jsonObject({{"id", JsonValue::makeString(s->id)},
                             {"name", JsonValue::makeString(s->lab.name)},
                             {"modes", jsonStrings(s->lab.modes)},
                             {"options", jsonStrings(own)}}));
  }
  JsonValue tasks = JsonValue::makeArray();
  for (const lab::Task& t : lab::tasks()) {
    tasks.push(jsonObject({{"id", JsonValue::makeString(t.id)},
                           {"name", JsonValue::makeString(t.name)},
                           {"description", JsonValue::makeString(t.description)}}));
  }
  return toJson(
      jsonObject({{"options", std::move(options)}, {"schemes", std::move(schemes)}, {"tasks", std::move(tasks)}}));
}

}  // namespace relpos
