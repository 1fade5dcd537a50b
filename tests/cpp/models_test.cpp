#include "relpos/models/models.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "relpos/base/errors.hpp"
#include "relpos/base/json.hpp"
#include "relpos/ops/operations.hpp"
#include "relpos/schemes/registry.hpp"
#include "test_helpers.hpp"

using namespace relpos;

namespace {

// tests/fixtures/configs sits beside the golden directory.
std::string configText(const std::string& file) {
  const std::string path = std::string(RELPOS_GOLDEN_DIR) + "/../configs/" + file;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

JsonValue fromConfig(const std::string& text) {
  return parseJson(fromConfigJson(text));
}

JsonValue presets() {
  return parseJson(presetsJson());
}

const JsonValue& presetById(const JsonValue& list, const std::string& id) {
  for (const JsonValue& p : list.array) {
    if (p.find("id")->string == id) return p;
  }
  throw std::runtime_error("no preset " + id);
}

// Same members with the same values, in any order.
void expectSameObject(const JsonValue& got, const JsonValue& want, const std::string& label) {
  ASSERT_TRUE(got.isObject()) << label;
  EXPECT_EQ(got.object.size(), want.object.size()) << label << ": " << toJson(got);
  for (const auto& [key, value] : want.object) {
    const JsonValue* g = got.find(key);
    ASSERT_NE(g, nullptr) << label << ": missing " << key;
    EXPECT_EQ(toJson(*g), toJson(value)) << label << ": " << key;
  }
}

std::vector<std::string> warnings(const JsonValue& result) {
  std::vector<std::string> out;
  for (const JsonValue& w : result.find("warnings")->array) out.push_back(w.string);
  return out;
}

bool anyContains(const std::vector<std::string>& texts, const std::string& part) {
  for (const auto& t : texts) {
    if (t.find(part) != std::string::npos) return true;
  }
  return false;
}

// The ArgumentError fromConfigJson throws: kind and message.
struct Failure {
  ArgumentError::Kind kind = ArgumentError::Kind::Type;
  std::string message;
};
Failure failure(const std::string& text) {
  try {
    fromConfigJson(text);
  } catch (const ArgumentError& e) {
    return {e.kind(), e.what()};
  }
  ADD_FAILURE() << "no error for " << text.substr(0, 200);
  return {};
}

// Parameter names each scheme accepts, as rp.schemes lists them (docs/schemes/).
const std::map<std::string, std::set<std::string>>& acceptedParams() {
  static const std::set<std::string> rope = {"d", "base", "layout", "rotaryDim", "startIndex"};
  auto with = [](std::set<std::string> names) {
    names.insert(rope.begin(), rope.end());
    return names;
  };
  static const std::map<std::string, std::set<std::string>> table = {
      {"rope", rope},
      {"rope-linear", with({"factor"})},
      {"rope-ntk", with({"factor"})},
      {"rope-dynamic", with({"factor", "originalMaxPositionEmbeddings", "seqLen"})},
      {"rope-yarn", with({"factor", "originalMaxPositionEmbeddings", "betaFast", "betaSlow", "truncate",
                          "attentionFactor", "mscale", "mscaleAllDim"})},
      {"rope-llama3", with({"factor", "lowFreqFactor", "highFreqFactor", "originalMaxPositionEmbeddings"})},
      {"rope-longrope", with({"shortFactor", "longFactor", "factor", "originalMaxPositionEmbeddings", "seqLen"})},
      {"alibi", {"alibiBiasMax", "form"}},
      {"t5", {"numBuckets", "maxDistance", "bidirectional"}},
      {"deberta", {"positionBuckets", "maxRelativePositions"}},
  };
  return table;
}

const Scheme* schemeInCatalogue(const std::string& id) {
  for (const Scheme& s : catalogue()) {
    if (s.id == id) return &s;
  }
  return nullptr;  // not implemented yet in this build
}

void expectOnlyAcceptedParams(const JsonValue& entry, const std::string& label) {
  const std::string scheme = entry.find("scheme")->string;
  ASSERT_EQ(acceptedParams().count(scheme), 1u) << label << ": scheme " << scheme;
  const auto& accepted = acceptedParams().at(scheme);
  const Scheme* s = schemeInCatalogue(scheme);
  for (const auto& member : entry.find("params")->object) {
    EXPECT_EQ(accepted.count(member.first), 1u) << label << ": " << scheme << " does not take " << member.first;
    if (!s) continue;
    bool known = false;
    for (const ParamInfo& info : s->params) known = known || info.name == member.first;
    EXPECT_TRUE(known) << label << ": catalogue's " << scheme << " does not take " << member.first;
  }
}

// A JSON params object as the binding would pass it to the core.
Params toParams(const JsonValue& params, const std::string& op) {
  Params p = relpos::testing::params(op);
  for (const auto& [key, v] : params.object) {
    switch (v.type) {
      case JsonValue::Type::Number:
        p.setNumber(key, v.number);
        break;
      case JsonValue::Type::Boolean:
        p.setBoolean(key, v.boolean);
        break;
      case JsonValue::Type::String:
        p.setString(key, v.string);
        break;
      case JsonValue::Type::Array: {
        std::vector<float> data;
        for (const JsonValue& x : v.array) data.push_back(static_cast<float>(x.number));
        const auto size = static_cast<int64_t>(data.size());
        p.setArray(key, std::move(data), {size});
        break;
      }
      default:
        ADD_FAILURE() << "unexpected param " << key;
    }
  }
  return p;
}

// Fixture file of each preset: fromConfig must reproduce the preset exactly.
const std::vector<std::pair<std::string, std::string>> kPresetConfigs = {
    {"llama-2-7b", "llama-2-7b.json"},
    {"llama-3.1-8b", "llama-3.1-8b.json"},
    {"qwen2-7b", "qwen2-7b.json"},
    {"mistral-7b", "mistral-7b.json"},
    {"gpt-neox-20b", "gpt-neox-20b.json"},
    {"gpt-j-6b", "gpt-j-6b.json"},
    {"phi-3-mini-128k", "phi-3-mini-128k.json"},
    {"bloom-7b1", "bloom-7b1.json"},
    {"mpt-7b", "mpt-7b.json"},
    {"t5-base", "t5-base.json"},
    {"deberta-v3-base", "deberta-v3-base.json"},
    {"llama-4-scout", "llama-4-scout-17b-16e-instruct.json"},
    {"deepseek-v3", "deepseek-v3.json"},
    {"gemma-3-4b", "gemma-3-4b-it.json"},
    {"qwen3-8b", "qwen3-8b.json"},
    {"gpt-oss-20b", "gpt-oss-20b.json"},
    {"phi-4-mini", "phi-4-mini-instruct.json"}};

}  // namespace

// ----- presets -------------------------------------------------------------------------------------

TEST(Presets, ListsTheModelsOfDocsPresets) {
  const JsonValue list = presets();
  ASSERT_EQ(list.array.size(), 17u);
  std::set<std::string> ids;
  for (const JsonValue& p : list.array) {
    for (const char* key : {"id", "name", "scheme", "source"}) {
      ASSERT_NE(p.find(key), nullptr) << key;
      EXPECT_EQ(p.find(key)->type, JsonValue::Type::String) << key;
      EXPECT_FALSE(p.find(key)->string.empty()) << key;
    }
    EXPECT_TRUE(p.find("params")->isObject());
    EXPECT_TRUE(p.find("model")->isObject());
    ASSERT_NE(p.find("groups"), nullptr);
    EXPECT_EQ(toJson(*p.find("groups")->array.at(0).find("params")), toJson(*p.find("params")));
    EXPECT_GE(p.find("heads")->number, 1);
    ids.insert(p.find("id")->string);
    expectOnlyAcceptedParams(p, p.find("id")->string);
  }
  for (const auto& [id, file] : kPresetConfigs) EXPECT_EQ(ids.count(id), 1u) << id;
}

TEST(Presets, CarryTheValuesOfSchemesSection9) {
  const JsonValue list = presets();
  const JsonValue& neox = presetById(list, "gpt-neox-20b");
  // d is the head width; rotaryDim the rotated part of it.
  EXPECT_EQ(toJson(*neox.find("params")), R"({"d":96,"base":10000,"layout":"half","rotaryDim":24})");
  EXPECT_EQ(neox.find("model")->find("headDim")->number, 96);
  EXPECT_EQ(toJson(*presetById(list, "gpt-j-6b").find("params")),
            R"({"d":256,"base":10000,"layout":"interleaved","rotaryDim":64})");
  EXPECT_EQ(toJson(*presetById(list, "llama-3.1-8b").find("params")),
            R"({"d":128,"base":500000,"layout":"half","factor":8,"lowFreqFactor":1,"highFreqFactor":4,)"
            R"("originalMaxPositionEmbeddings":8192})");
  EXPECT_EQ(toJson(*presetById(list, "bloom-7b1").find("params")), R"({"alibiBiasMax":8,"form":"keyPosition"})");
  EXPECT_EQ(toJson(*presetById(list, "deberta-v3-base").find("params")),
            R"({"positionBuckets":256,"maxRelativePositions":512})");
  EXPECT_EQ(presetById(list, "qwen2-7b").find("params")->find("base")->number, 1e6);
  EXPECT_EQ(presetById(list, "qwen2-7b").find("heads")->number, 28);

  // The Phi-3 factor arrays are golden case 040's, bit for bit.
  const JsonValue golden = parseJson(configText("../golden/040_rope-longrope_attention_factor_phi3_128k.json"));
  const JsonValue& phi3 = *presetById(list, "phi-3-mini-128k").find("params");
  for (const char* key : {"shortFactor", "longFactor", "factor", "originalMaxPositionEmbeddings", "base", "d"}) {
    EXPECT_EQ(toJson(*phi3.find(key)), toJson(*golden.find("params")->find(key))) << key;
  }
}

TEST(Presets, RotaryPresetsComputeFrequenciesThroughTheCatalogue) {
  const JsonValue list = presets();
  for (const JsonValue& p : list.array) {
    const std::string scheme = p.find("scheme")->string;
    if (scheme.rfind("rope", 0) != 0 || !schemeInCatalogue(scheme)) continue;
    const Result r = compute("frequencies", scheme, toParams(*p.find("params"), "frequencies"));
    const JsonValue& params = *p.find("params");
    const JsonValue* rotary = params.find("rotaryDim");
    EXPECT_EQ(static_cast<double>(r.at("invFreq").f32.size()), (rotary ? rotary : params.find("d"))->number / 2);
  }
  const Result phi3 = compute("frequencies", "rope-longrope",
                              toParams(*presetById(list, "phi-3-mini-128k").find("params"), "frequencies"));
  EXPECT_NEAR(phi3.at("attentionFactor").f32[0], 1.1902380714238083, 2e-6);
}

TEST(Presets, AlibiPresetsGiveBloomSlopes) {
  const JsonValue list = presets();
  const JsonValue& bloom = presetById(list, "bloom-7b1");
  Params p = toParams(*bloom.find("params"), "bias");
  p.setNumber("heads", bloom.find("heads")->number);
  p.setString("output", "slopes");  // the slopes take no n: they are per head
  const auto slopes = relpos::testing::data(compute("bias", "alibi", p));
  ASSERT_EQ(slopes.size(), 32u);
  for (int t = 0; t < 32; ++t) EXPECT_FLOAT_EQ(slopes[t], std::pow(2.0, -0.25 * (t + 1)));
}

// ----- fromConfig on real configs ------------------------------------------------------------------

TEST(FromConfig, ReproducesEveryPresetFromItsConfigWithoutWarnings) {
  const JsonValue list = presets();
  for (const auto& [id, file] : kPresetConfigs) {
    const JsonValue got = fromConfig(configText(file));
    const JsonValue& want = presetById(list, id);
    EXPECT_EQ(got.find("scheme")->string, want.find("scheme")->string) << file;
    expectSameObject(*got.find("params"), *want.find("params"), file);
    EXPECT_EQ(got.find("heads")->number, want.find("heads")->number) << file;
    EXPECT_TRUE(warnings(got).empty()) << file << ": " << toJson(*got.find("warnings"));
    EXPECT_EQ(got.find("model")->find("headDim")->number, want.find("model")->find("headDim")->number) << file;
    expectOnlyAcceptedParams(got, file);
  }
}

TEST(FromConfig, ReadsTheV5RopeParametersSpelling) {
  const JsonValue v5 = fromConfig(configText("llama-3.1-8b-v5.json"));
  const JsonValue v4 = fromConfig(configText("llama-3.1-8b.json"));
  EXPECT_EQ(toJson(*v5.find("params")), toJson(*v4.find("params")));
  EXPECT_EQ(v5.find("scheme")->string, "rope-llama3");
  EXPECT_TRUE(warnings(v5).empty()) << toJson(*v5.find("warnings"));
}

TEST(FromConfig, QwenInstructYarnUsesTheGivenFactorAndSaysHowV4Differs) {
  const JsonValue r = fromConfig(configText("qwen2-7b-instruct-yarn.json"));
  EXPECT_EQ(r.find("scheme")->string, "rope-yarn");
  EXPECT_EQ(toJson(*r.find("params")),
            R"({"d":128,"base":1000000,"layout":"half","factor":4,"originalMaxPositionEmbeddings":32768})");
  EXPECT_TRUE(anyContains(warnings(r), "Hugging Face v4 would use")) << toJson(*r.find("warnings"));
}

TEST(FromConfig, YarnWithoutOriginalLengthFallsBackToMaxPositionsAndWarns) {
  const JsonValue r = fromConfig(R"({"model_type":"llama","hidden_size":512,"num_attention_heads":8,
      "max_position_embeddings":4096,"rope_theta":10000,
      "rope_scaling":{"rope_type":"yarn","factor":4,"beta_fast":32,"beta_slow":1,"mscale":0.707,
                      "mscale_all_dim":0.707,"truncate":false,"attention_factor":1.1}})");
  // A given attention_factor replaces the mscale pair (as Hugging Face): the pair is not used, and said so.
  EXPECT_EQ(toJson(*r.find("params")),
            R"({"d":64,"base":10000,"layout":"half","factor":4,"originalMaxPositionEmbeddings":4096,"betaFast":32,)"
            R"("betaSlow":1,"attentionFactor":1.1,"truncate":false})");
  EXPECT_TRUE(anyContains(warnings(r), "original_max_position_embeddings is missing")) << toJson(*r.find("warnings"));
  EXPECT_TRUE(anyContains(warnings(r), "attention_factor replaces the factor of mscale"))
      << toJson(*r.find("warnings"));
  // Without factor the ratio is used, and said so.
  const JsonValue ratio = fromConfig(R"({"model_type":"llama","head_dim":64,"num_attention_heads":8,
      "max_position_embeddings":16384,"rope_scaling":{"type":"yarn","original_max_position_embeddings":4096}})");
  EXPECT_EQ(ratio.find("params")->find("factor")->number, 4);
  EXPECT_TRUE(anyContains(warnings(ratio), "factor is missing"));
}

TEST(FromConfig, ReadsLinearDynamicAndNtkScaling) {
  const std::string head =
      R"({"model_type":"llama","hidden_size":256,"num_attention_heads":4,"max_position_embeddings":2048,)";
  const JsonValue linear = fromConfig(head + R"("rope_scaling":{"type":"linear","factor":2.0}})");
  EXPECT_EQ(linear.find("scheme")->string, "rope-linear");
  EXPECT_EQ(toJson(*linear.find("params")), R"({"d":64,"base":10000,"layout":"half","factor":2})");
  const JsonValue dynamic = fromConfig(head + R"("rope_scaling":{"rope_type":"dynamic","factor":3}})");
  EXPECT_EQ(dynamic.find("scheme")->string, "rope-dynamic");
  EXPECT_EQ(dynamic.find("params")->find("originalMaxPositionEmbeddings")->number, 2048);
  const JsonValue ntk = fromConfig(head + R"("rope_scaling":{"rope_type":"ntk","factor":4}})");
  EXPECT_EQ(ntk.find("scheme")->string, "rope-ntk");
  const JsonValue plain = fromConfig(head + R"("rope_scaling":{"rope_type":"default"}})");
  EXPECT_EQ(plain.find("scheme")->string, "rope");
  for (const JsonValue* r : {&linear, &dynamic, &ntk, &plain}) expectOnlyAcceptedParams(*r, toJson(*r));
}

TEST(FromConfig, PartialRotaryFactorAndRotaryPct) {
  const JsonValue phi = fromConfig(R"({"model_type":"phi","hidden_size":2560,"num_attention_heads":32,
      "partial_rotary_factor":0.4,"rope_theta":10000})");
  // d is the head width (2560 / 32 = 80); rotaryDim the rotated part of it.
  EXPECT_EQ(toJson(*phi.find("params")), R"({"d":80,"rotaryDim":32,"base":10000,"layout":"half"})");
  const JsonValue v5 = fromConfig(R"({"model_type":"gpt_neox","hidden_size":6144,"num_attention_heads":64,
      "rope_parameters":{"rope_type":"default","rope_theta":10000,"partial_rotary_factor":0.25}})");
  EXPECT_EQ(toJson(*v5.find("params")), R"({"d":96,"rotaryDim":24,"base":10000,"layout":"half"})");
  EXPECT_TRUE(warnings(v5).empty());
}

TEST(FromConfig, WarnsAboutWhatItDoesNotRead) {
  const JsonValue r = fromConfig(R"({"model_type":"qwen2","hidden_size":1024,"num_attention_heads":8,
      "max_position_embeddings":4096,"rope_scaling":{"type":"linear","rope_type":"linear","factor":2,"mrope_section":[16,24,24]}})");
  EXPECT_TRUE(anyContains(warnings(r), "rope_scaling.mrope_section is not read by relpos"))
      << toJson(*r.find("warnings"));
  const JsonValue mismatch = fromConfig(R"({"model_type":"llama","hidden_size":1024,"num_attention_heads":8,
      "max_position_embeddings":4096,"rope_scaling":{"type":"linear","rope_type":"dynamic","factor":2}})");
  EXPECT_EQ(mismatch.find("scheme")->string, "rope-dynamic");
  EXPECT_TRUE(anyContains(warnings(mismatch), "differs from rope_type"));
  const JsonValue unknownModel = fromConfig(R"({"model_type":"newmodel","hidden_size":1024,"num_attention_heads":8,
      "rope_theta":10000})");
  EXPECT_TRUE(anyContains(warnings(unknownModel), "model_type 'newmodel' is not one relpos knows"));
  const JsonValue both = fromConfig(R"({"model_type":"llama","hidden_size":1024,"num_attention_heads":8,
      "rope_scaling":{"type":"linear","factor":2},"rope_parameters":{"rope_type":"default","rope_theta":10000}})");
  EXPECT_EQ(both.find("scheme")->string, "rope");
  EXPECT_TRUE(anyContains(warnings(both), "rope_scaling was ignored"));
}

TEST(FromConfig, DebertaResolvesMaxRelativePositionsAndT5DecoderIsUnidirectional) {
  const JsonValue d = fromConfig(R"({"model_type":"deberta-v2","hidden_size":768,"num_attention_heads":12,
      "relative_attention":true,"position_buckets":128,"max_relative_positions":256,"pos_att_type":["p2c","c2p","p2p"]})");
  EXPECT_EQ(toJson(*d.find("params")), R"({"positionBuckets":128,"maxRelativePositions":256})");
  EXPECT_TRUE(anyContains(warnings(d), "'p2p'"));
  const JsonValue t5 = fromConfig(R"({"model_type":"t5","d_model":512,"num_heads":8,"d_kv":64,"is_decoder":true,
      "relative_attention_num_buckets":16,"relative_attention_max_distance":32})");
  EXPECT_EQ(toJson(*t5.find("params")), R"({"numBuckets":16,"maxDistance":32,"bidirectional":false})");
}

// ----- fromConfig on hostile or unreadable input ----------------------------------------------------

TEST(FromConfig, NonObjectConfigIsATypeError) {
  for (const char* text : {"[]", "42", "\"config\"", "null"}) {
    const Failure f = failure(text);
    EXPECT_EQ(f.kind, ArgumentError::Kind::Type) << text;
    EXPECT_EQ(f.message.rfind("relpos.fromConfig: the config must be a JSON object, got ", 0), 0u) << f.message;
  }
}

TEST(FromConfig, WrongValueTypesAreTypeErrorsNamingTheField) {
  Failure f = failure(R"({"model_type":"llama","hidden_size":4096,"num_attention_heads":32,"rope_theta":"10000"})");
  EXPECT_EQ(f.kind, ArgumentError::Kind::Type);
  EXPECT_EQ(f.message, "relpos.fromConfig: rope_theta must be a number, got string");
  f = failure(R"({"model_type":"llama","hidden_size":4096,"num_attention_heads":32,
      "rope_scaling":{"rope_type":"llama3","factor":"8","low_freq_factor":1,"high_freq_factor":4,
                      "original_max_position_embeddings":8192}})");
  EXPECT_EQ(f.message, "relpos.fromConfig: rope_scaling.factor must be a number, got string");
  f = failure(R"({"model_type":"llama","hidden_size":4096,"num_attention_heads":32,"rope_scaling":"yarn"})");
  EXPECT_EQ(f.message, "relpos.fromConfig: rope_scaling must be an object, got string");
  f = failure(R"({"model_type":7})");
  EXPECT_EQ(f.message, "relpos.fromConfig: model_type must be a string, got number");
  f = failure(
      R"({"model_type":"phi3","hidden_size":3072,"num_attention_heads":32,"original_max_position_embeddings":4096,
      "rope_scaling":{"type":"su","short_factor":[1,"2"],"long_factor":[]}})");
  EXPECT_EQ(f.message, "relpos.fromConfig: rope_scaling.short_factor must be an array of numbers, got string");
}

TEST(FromConfig, PrototypeKeysAnywhereAreRangeErrors) {
  for (const char* text : {R"({"__proto__":{"polluted":true}})",
                           R"({"model_type":"llama","rope_scaling":{"constructor":{"prototype":1}}})",
                           R"({"model_type":"llama","list":[{"ok":1},{"prototype":2}]})"}) {
    const Failure f = failure(text);
    EXPECT_EQ(f.kind, ArgumentError::Kind::Range) << text;
    EXPECT_NE(f.message.find("is not allowed in a config"), std::string::npos) << f.message;
  }
  EXPECT_NE(failure(R"({"a":{"b":{"__proto__":1}}})").message.find("(at a.b.__proto__)"), std::string::npos);
}

TEST(FromConfig, UnreadableConfigsAreRangeErrorsNamingWhatIsMissing) {
  Failure f = failure(R"({"model_type":"llama","num_attention_heads":32})");
  EXPECT_EQ(f.kind, ArgumentError::Kind::Range);
  EXPECT_EQ(f.message,
            "relpos.fromConfig: cannot find the head dimension: need head_dim or hidden_size and num_attention_heads");
  f = failure(R"({"model_type":"llama","hidden_size":4096})");
  EXPECT_EQ(f.message.rfind("relpos.fromConfig: cannot find the number of heads", 0), 0u) << f.message;
  f = failure(
      R"({"model_type":"llama","hidden_size":4096,"num_attention_heads":32,"rope_scaling":{"rope_type":"wobble","factor":2}})");
  EXPECT_EQ(f.kind, ArgumentError::Kind::Range);
  EXPECT_EQ(f.message.rfind("relpos.fromConfig: unknown rope_scaling.rope_type 'wobble'; known: ", 0), 0u) << f.message;
  f = failure(
      R"({"model_type":"llama","hidden_size":4096,"num_attention_heads":32,"rope_scaling":{"rope_type":"llama3","factor":8}})");
  EXPECT_NE(f.message.find("rope_scaling.low_freq_factor, required for rope_type 'llama3'"), std::string::npos)
      << f.message;
  f = failure(
      R"({"model_type":"phi3","hidden_size":3072,"num_attention_heads":32,"original_max_position_embeddings":4096,
      "rope_scaling":{"type":"su","short_factor":[1,2],"long_factor":[1,2]}})");
  EXPECT_NE(f.message.find("rope_scaling.short_factor must hold rotary dimension / 2 = 48 values, got 2"),
            std::string::npos)
      << f.message;
  f = failure(R"({"model_type":"gptj","n_embd":4096,"n_head":16,"rotary_dim":63})");
  EXPECT_NE(f.message.find("must be even"), std::string::npos) << f.message;
  f = failure(R"({"model_type":"llama","hidden_size":4095,"num_attention_heads":32})");
  EXPECT_NE(f.message.find("not divisible"), std::string::npos) << f.message;
  f = failure(R"({"model_type":"llama","hidden_size":4096.5,"num_attention_heads":32})");
  EXPECT_EQ(f.message, "relpos.fromConfig: hidden_size must be an integer, got 4096.5");
  f = failure(R"({"model_type":"gpt2","n_embd":768,"n_head":12})");
  EXPECT_NE(f.message.find("learned absolute position embeddings"), std::string::npos);
  f = failure(R"({"model_type":"mpt","d_model":4096,"n_heads":32,"attn_config":{"alibi":false}})");
  EXPECT_NE(f.message.find("no attn_config.alibi"), std::string::npos);
  f = failure(R"({"model_type":"mamba","hidden_size":768})");
  EXPECT_NE(f.message.find("cannot tell the positional scheme"), std::string::npos);
}

TEST(FromConfig, MalformedOrHugeJsonIsARangeErrorAndNeverCrashes) {
  Failure f = failure("{\"model_type\": \"llama\",}");
  EXPECT_EQ(f.kind, ArgumentError::Kind::Range);
  EXPECT_EQ(f.message.rfind("relpos.fromConfig: the config is not valid JSON: JSON: ", 0), 0u) << f.message;
  std::string deep = "{\"a\":";
  for (int i = 0; i < 10000; ++i) deep += "[";
  EXPECT_NE(failure(deep).message.find("nesting deeper than 64"), std::string::npos);
  EXPECT_NE(failure("{\"x\":\"" + std::string(kJsonMaxBytes, 'a') + "\"}").message.find("over the limit"),
            std::string::npos);
  EXPECT_NE(failure(R"({"rope_theta": NaN})").message.find("NaN and Infinity"), std::string::npos);
}
