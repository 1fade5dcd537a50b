// The fuzz targets as plain functions over one input text, shared by the libFuzzer entry
// points (fuzz_*.cpp) and the GoogleTest that replays tests/fuzz/regressions
// (tests/cpp/fuzz_regressions_test.cpp). Each returns -1 for inputs that describe no call the JS
// layer could make (libFuzzer then keeps them out of the corpus), 0 otherwise, and throws
// fuzz::Finding when the core breaks its contract.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_common.hpp"
#include "relpos/analysis/analysis.hpp"
#include "relpos/models/models.hpp"
#include "relpos/ops/operations.hpp"
#include "relpos/relpos.hpp"
#include "relpos/schemes/registry.hpp"

namespace fuzz {

inline bool parseInput(const std::string& text, relpos::JsonValue& out) {
  try {
    out = relpos::parseJson(text);
    return out.isObject();
  } catch (const std::invalid_argument&) {
    return false;
  }
}

// relpos::compute(op, id, params) for every op but attention.
inline int runSchemes(const std::string& text) {
  relpos::JsonValue input;
  if (!parseInput(text, input)) return -1;
  const relpos::JsonValue* op = input.find("op");
  const relpos::JsonValue* id = input.find("id");
  if (!op || !id || op->type != relpos::JsonValue::Type::String || id->type != relpos::JsonValue::Type::String)
    return -1;
  if (op->string == "attention") return -1;
  relpos::Params params("relpos." + op->string);
  if (!toParams(input.find("params"), params, Caps{})) return -1;
  const std::string what = op->string + "('" + id->string + "')";
  expectCleanErrors(what, [&] { checkResult(relpos::compute(op->string, id->string, params), what); });
  return 0;
}

// relpos::compute("attention", scheme, params): q, k, v, B, P, heads, mode, queryOffset and every
// scheme's own inputs. "borrowed": [names] hands those of the options the table marks inPlace over
// as rp.alloc does (read in place, Value::borrowed): the core must read them as it reads copies.
inline int runAttention(const std::string& text) {
  relpos::JsonValue input;
  if (!parseInput(text, input)) return -1;
  const relpos::JsonValue* id = input.find("id");
  if (id && id->type != relpos::JsonValue::Type::String) return -1;
  relpos::Params params("relpos.attention");
  if (!toParams(input.find("params"), params, Caps{})) return -1;
  std::vector<std::unique_ptr<relpos::FloatArray>> lender;  // alive for the call, as the binding's heapTensors()
  if (const relpos::JsonValue* borrowed = input.find("borrowed")) {
    if (borrowed->type != relpos::JsonValue::Type::Array) return -1;
    for (const auto& name : borrowed->array) {
      if (name.type != relpos::JsonValue::Type::String) return -1;
      bool inPlace = false;
      for (const auto& op : relpos::operations()) {
        for (const auto& o : op.options) inPlace |= op.name == "attention" && o.inPlace && o.name() == name.string;
      }
      const relpos::Value* v = params.find(name.string);
      if (!inPlace) continue;
      if (!v || v->type != relpos::Value::Type::Array || !v->wide.empty()) continue;
      lender.push_back(std::make_unique<relpos::FloatArray>(v->array));
      params.setBorrowedArray(name.string, lender.back()->data(), lender.back()->size(), v->shape);
    }
  }
  const std::string scheme = id ? id->string : "";
  const std::string what = "attention('" + scheme + "')";
  expectCleanErrors(what, [&] { checkResult(relpos::compute("attention", scheme, params), what); });
  return 0;
}

// relpos::analyze(name, params) for every analysis of rp.analysis.
inline int runAnalysis(const std::string& text) {
  relpos::JsonValue input;
  if (!parseInput(text, input)) return -1;
  const relpos::JsonValue* name = input.find("name");
  if (!name || name->type != relpos::JsonValue::Type::String) return -1;
  relpos::Params params("relpos.analysis." + name->string);
  if (!toParams(input.find("params"), params, Caps{})) return -1;
  const std::string what = "analysis." + name->string;
  expectCleanErrors(what, [&] { checkResult(relpos::analyze(name->string, params), what); });
  return 0;
}

// The config importer on hostile bytes: parseJson may only throw std::invalid_argument (and what
// parses must print and parse back to the same text); fromConfigJson only ArgumentError, and what
// it returns must be JSON naming a scheme of the catalogue.
inline int runConfig(const std::string& text) {
  try {
    const relpos::JsonValue parsed = relpos::parseJson(text);
    std::string printed;
    try {
      printed = relpos::toJson(parsed);
    } catch (const std::invalid_argument&) {
      // Only a non-finite number (e.g. 1e999 overflowing) may refuse to print.
    }
    if (!printed.empty() && relpos::toJson(relpos::parseJson(printed)) != printed) {
      finding("parseJson/toJson round trip is not stable");
    }
  } catch (const relpos::ArgumentError&) {
    finding("parseJson threw an ArgumentError; it reports plain std::invalid_argument");
  } catch (const std::invalid_argument&) {
  } catch (const std::exception& e) {
    finding(std::string("parseJson threw ") + typeid(e).name() + ": " + e.what());
  }
  std::string imported;
  expectCleanErrors("fromConfig", [&] { imported = relpos::fromConfigJson(text); });
  if (imported.empty()) return 0;
  relpos::JsonValue result;
  try {
    result = relpos::parseJson(imported);
  } catch (const std::exception& e) {
    finding(std::string("fromConfig returned invalid JSON: ") + e.what());
  }
  const relpos::JsonValue* scheme = result.find("scheme");
  if (!scheme || scheme->type != relpos::JsonValue::Type::String) finding("fromConfig result has no scheme");
  try {
    relpos::findScheme("relpos.fromConfig", scheme->string);
  } catch (const relpos::ArgumentError&) {
    finding("fromConfig returned an unknown scheme '" + scheme->string + "'");
  }
  return 0;
}

// A job driven the way the JS side drives one (bindings/jobs.js): steps of the input's budgets
// (cycled), progress checked to stay in [0, 1] and never go back, the partial state read between
// steps when the job offers it, and either run to completion or dropped midway (cancel) after
// `cancelAfter` steps. Input: { "params": {…}, "budgets": [1, 7, …], "cancelAfter": 3 }.
struct JobPlan {
  std::vector<int64_t> budgets = {1};
  int64_t cancelAfter = -1;  // < 0: run to completion
  int64_t maxSteps = 4096;
};

inline bool readPlan(const relpos::JsonValue& input, JobPlan& plan) {
  if (const relpos::JsonValue* b = input.find("budgets")) {
    if (b->type != relpos::JsonValue::Type::Array || b->array.empty() || b->array.size() > 16) return false;
    plan.budgets.clear();
    for (const auto& x : b->array) {
      // Budgets as the JS side sends them: rounded, >= 1 (a step of 0 would make no progress).
      if (x.type != relpos::JsonValue::Type::Number || !(x.number >= 1) || x.number > 1e6) return false;
      plan.budgets.push_back(static_cast<int64_t>(x.number));
    }
  }
  if (const relpos::JsonValue* c = input.find("cancelAfter")) {
    if (c->type != relpos::JsonValue::Type::Number || !(c->number >= 0) || c->number > 1e6) return false;
    plan.cancelAfter = static_cast<int64_t>(c->number);
  }
  return true;
}

// A job's input text: its call's options into `params` (within `caps`) and its plan; false when it
// describes no call the JS layer could make.
inline bool readJob(const std::string& text, const Caps& caps, relpos::Params& params, JobPlan& plan) {
  relpos::JsonValue input;
  return parseInput(text, input) && readPlan(input, plan) && toParams(input.find("params"), params, caps);
}

// Runs the job; `check` inspects the finished result. Returns without result when cancelled.
template <class Check>
void driveJob(const std::string& what, std::unique_ptr<relpos::Job> job, const JobPlan& plan, Check&& check) {
  double last = 0;
  for (int64_t step = 0; !job->done(); ++step) {
    if (plan.cancelAfter >= 0 && step >= plan.cancelAfter) return;  // dropped midway: must free everything
    if (step >= plan.maxSteps) return;                              // budgets too small to finish here
    const double progress = job->step(plan.budgets[static_cast<size_t>(step) % plan.budgets.size()]);
    if (!(progress >= 0 && progress <= 1)) finding(what + ": progress outside [0, 1]: " + std::to_string(progress));
    if (progress + 1e-12 < last) finding(what + ": progress went back from " + std::to_string(last));
    last = progress;
    if (const auto* peekable = dynamic_cast<const relpos::PeekableJob*>(job.get())) {
      checkResult(peekable->peek(), what + " peek");
    }
  }
  const relpos::Result result = job->result();
  checkResult(result, what);
  check(result);
}

// Pooled long-context attention maps (rp.attentionMap) as jobs: stepped to completion or dropped
// midway. A finished map holds pooled attention weights: finite and in [0, 1].
inline int runMaps(const std::string& text) {
  relpos::Params params("relpos.attentionMap");
  Caps caps;
  caps.n = 4096;  // position-only maps are O(n) per row; content maps are capped below
  JobPlan plan;
  if (!readJob(text, caps, params, plan)) return -1;
  const bool content = params.has("seed") || params.has("q") || params.has("k");
  if (const relpos::Value* n = params.find("n");
      n && content && n->type == relpos::Value::Type::Number && n->number > 256 && n->number <= (1 << 30)) {
    return -1;
  }
  if (const relpos::Value* size = params.find("size");
      size && size->type == relpos::Value::Type::Number && size->number > 512 && size->number <= (1 << 30)) {
    return -1;
  }
  expectCleanErrors("attentionMap", [&] {
    driveJob("attentionMap", relpos::startJob("attentionMap", params), plan, [](const relpos::Result& result) {
      for (float w : result.at("data").f32) {
        if (!(w >= 0.0f && w <= 1.0f + 1e-5f))
          finding("attentionMap: a pooled weight outside [0, 1]: " + std::to_string(w));
      }
    });
  });
  return 0;
}

// The extrapolation lab's training job (rp.lab.train) with small budgets: any options within caps
// that keep one run short, a few steps, cancelled midway or run to the end.
inline int runLab(const std::string& text) {
  relpos::Params params("relpos.train");
  JobPlan plan;
  if (!readJob(text, Caps{}, params, plan)) return -1;
  // Sizes inside the documented ranges but too slow for fuzzing (outside them: the core refuses).
  const std::pair<const char*, double> caps[] = {{"length", 8},  {"dModel", 16}, {"dFF", 32},
                                                 {"batch", 4},   {"steps", 6},   {"evalSequences", 2},
                                                 {"warmup", 64}, {"vocab", 64},  {"layers", 2}};
  for (const auto& [name, cap] : caps) {
    const relpos::Value* v = params.find(name);
    if (v && v->type == relpos::Value::Type::Number && v->number > cap && v->number <= 1e6) return -1;
  }
  for (const char* name : {"length", "dModel", "dFF", "batch", "steps", "evalSequences"}) {
    if (!params.has(name)) return -1;  // the defaults (L = 32, 500 steps) are too slow for one run
  }
  expectCleanErrors("lab",
                    [&] { driveJob("lab", relpos::startJob("train", params), plan, [](const relpos::Result&) {}); });
  return 0;
}

// The libFuzzer entry: a Finding becomes a crash (abort) so the input is saved.
inline int entry(int (*run)(const std::string&), const uint8_t* data, size_t size) {
  try {
    return run(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const Finding& f) {
    std::fprintf(stderr, "FUZZ FINDING: %s\n", f.what.c_str());
    std::fflush(stderr);
    std::abort();
  }
}

}  // namespace fuzz
