// The four fuzz targets as plain functions over one input text, shared by the libFuzzer entry
// points (fuzz_*.cpp) and the GoogleTest that replays tests/fuzz/regressions
// (tests/cpp/fuzz_regressions_test.cpp). Each returns -1 for inputs that describe no call the JS
// layer could make (libFuzzer then keeps them out of the corpus), 0 otherwise, and throws
// fuzz::Finding when the core breaks its contract.
#pragma once
#include <string>

#include "fuzz_common.hpp"
#include "relpos/analysis/analysis.hpp"
#include "relpos/models/models.hpp"
#include "relpos/ops/operations.hpp"
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
// scheme's own inputs.
inline int runAttention(const std::string& text) {
  relpos::JsonValue input;
  if (!parseInput(text, input)) return -1;
  const relpos::JsonValue* id = input.find("id");
  if (id && id->type != relpos::JsonValue::Type::String) return -1;
  relpos::Params params("relpos.attention");
  if (!toParams(input.find("params"), params, Caps{})) return -1;
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
