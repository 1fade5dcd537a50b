#include "relpos/models/models.hpp"

#include <cmath>
#include <cstdint>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/json.hpp"
#include "relpos/schemes/registry.hpp"

namespace relpos {
namespace {

const std::string kWhere = "relpos.fromConfig: ";

JsonValue num(double v) {
  return JsonValue::makeNumber(v);
}
JsonValue str(std::string v) {
  return JsonValue::makeString(std::move(v));
}

// ---------------------------------------------------------------------------------------------
// Reading a config: typed access to one object, remembering which keys were read so that the
// rest of a rope block can be reported as warnings.

class Section {
 public:
  Section(const JsonValue& obj, std::string path) : obj_(obj), path_(std::move(path)) {}

  std::string name(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

  // The member, or nullptr when absent or JSON null (configs spell "not set" both ways).
  const JsonValue* raw(const std::string& key) {
    used_.insert(key);
    const JsonValue* v = obj_.find(key);
    return v && !v->isNull() ? v : nullptr;
  }
  bool has(const std::string& key) const {
    const JsonValue* v = obj_.find(key);
    return v && !v->isNull();
  }

  std::optional<double> number(const std::string& key) {
    const JsonValue* v = raw(key);
    if (!v) return std::nullopt;
    if (v->type != JsonValue::Type::Number) wrongType(key, "a number", *v);
    return v->number;
  }
  std::optional<int64_t> integer(const std::string& key) {
    const auto v = number(key);
    if (!v) return std::nullopt;
    if (*v != std::floor(*v) || std::fabs(*v) > 9007199254740992.0) {
      throwRange(kWhere + name(key) + " must be an integer, got " + formatNumber(*v));
    }
    return static_cast<int64_t>(*v);
  }
  std::optional<int64_t> positiveInteger(const std::string& key) {
    const auto v = integer(key);
    if (v && *v < 1) throwRange(kWhere + name(key) + " must be >= 1, got " + std::to_string(*v));
    return v;
  }
  std::optional<double> positive(const std::string& key) {
    const auto v = number(key);
    if (v && !(*v > 0)) throwRange(kWhere + name(key) + " must be > 0, got " + formatNumber(*v));
    return v;
  }
  std::optional<std::string> text(const std::string& key) {
    const JsonValue* v = raw(key);
    if (!v) return std::nullopt;
    if (v->type != JsonValue::Type::String) wrongType(key, "a string", *v);
    return v->string;
  }
  std::optional<bool> flag(const std::string& key) {
    const JsonValue* v = raw(key);
    if (!v) return std::nullopt;
    if (v->type != JsonValue::Type::Boolean) wrongType(key, "a boolean", *v);
    return v->boolean;
  }
  std::optional<std::vector<double>> numbers(const std::string& key) {
    const JsonValue* v = raw(key);
    if (!v) return std::nullopt;
    if (v->type != JsonValue::Type::Array) wrongType(key, "an array of numbers", *v);
    std::vector<double> out;
    for (const JsonValue& item : v->array) {
      if (item.type != JsonValue::Type::Number) wrongType(key, "an array of numbers", item);
      out.push_back(item.number);
    }
    return out;
  }
  std::optional<Section> child(const std::string& key) {
    const JsonValue* v = raw(key);
    if (!v) return std::nullopt;
    if (!v->isObject()) wrongType(key, "an object", *v);
    return Section(*v, name(key));
  }

  // Keys present but never read: reported, since they may change the positions (e.g. mrope_section).
  void warnUnread(std::vector<std::string>& warnings) const {
    for (const auto& member : obj_.object) {
      if (!used_.count(member.first)) {
        warnings.push_back(name(member.first) + " is not read by relpos; it was ignored");
      }
    }
  }

 private:
  [[noreturn]] void wrongType(const std::string& key, const char* expected, const JsonValue& got) const {
    throwType(kWhere + name(key) + " must be " + expected + ", got " + jsonTypeName(got.type));
  }

  const JsonValue& obj_;
  std::string path_;
  std::set<std::string> used_;
};

struct Reading {
  std::string scheme;
  JsonValue params = JsonValue::makeObject();
  int64_t heads = 0;
  std::vector<std::string> warnings;
  JsonValue model = JsonValue::makeObject();

  JsonValue toJsonValue() const {
    JsonValue w = JsonValue::makeArray();
    for (const auto& text : warnings) w.push(str(text));
    return jsonObject({{"scheme", str(scheme)},
                       {"params", params},
                       {"heads", num(static_cast<double>(heads))},
                       {"warnings", std::move(w)},
                       {"model", model}});
  }
};

// Keys that never belong in a config and would pollute prototypes once the result reaches JS.
void rejectPrototypeKeys(const JsonValue& v, const std::string& path) {
  for (const auto& member : v.object) {
    const std::string where = path.empty() ? member.first : path + "." + member.first;
    if (member.first == "__proto__" || member.first == "constructor" || member.first == "prototype") {
      throwRange(kWhere + "key '" + member.first + "' is not allowed in a config (at " + where + ")");
    }
    rejectPrototypeKeys(member.second, where);
  }
  for (std::size_t i = 0; i < v.array.size(); ++i)
    rejectPrototypeKeys(v.array[i], path + "[" + std::to_string(i) + "]");
}

JsonValue parseConfig(const std::string& text) {
  JsonValue root;
  try {
    root = parseJson(text);
  } catch (const std::invalid_argument& e) {
    throwRange(kWhere + "the config is not valid JSON: " + e.what());
  }
  if (!root.isObject()) throwType(kWhere + "the config must be a JSON object, got " + jsonTypeName(root.type));
  rejectPrototypeKeys(root, "");
  return root;
}

int64_t readHeads(Section& config) {
  for (const char* key : {"num_attention_heads", "n_head", "num_heads", "n_heads"}) {
    if (auto v = config.positiveInteger(key)) return *v;
  }
  throwRange(kWhere + "cannot find the number of heads: need num_attention_heads (or n_head, num_heads, n_heads)");
}

int64_t readHeadDim(Section& config, int64_t heads) {
  if (auto v = config.positiveInteger("head_dim")) return *v;
  for (const char* key : {"hidden_size", "n_embd", "d_model"}) {
    if (auto hidden = config.positiveInteger(key)) {
      if (*hidden % heads != 0) {
        throwRange(kWhere + "cannot find the head dimension: " + key + " (" + std::to_string(*hidden) +
                   ") is not divisible by the number of heads (" + std::to_string(heads) + ")");
      }
      return *hidden / heads;
    }
  }
  throwRange(kWhere + "cannot find the head dimension: need head_dim or hidden_size and num_attention_heads");
}

void noteModel(Section& config, Reading& out, const std::string& modelType, int64_t headDim) {
  if (!modelType.empty()) out.model.set("type", str(modelType));
  out.model.set("headDim", num(static_cast<double>(headDim)));
  for (const char* key : {"max_position_embeddings", "n_positions", "max_seq_len"}) {
    if (auto v = config.positiveInteger(key)) {
      out.model.set("maxPositionEmbeddings", num(static_cast<double>(*v)));
      break;
    }
  }
}

// ----- rotary ---------------------------------------------------------------------------------

bool isOneOf(const std::string& s, std::initializer_list<const char*> list) {
  for (const char* item : list) {
    if (s == item) return true;
  }
  return false;
}

const std::initializer_list<const char*> kHalfLayoutModels = {
    "llama",    "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3",    "qwen3_moe",  "phi",    "phi3",
    "gpt_neox", "gemma",   "gemma2",  "olmo",  "olmo2",     "stablelm", "starcoder2", "falcon", "granite"};
const std::initializer_list<const char*> kInterleavedModels = {"gptj", "codegen"};

std::string rotaryLayout(const std::string& modelType, std::vector<std::string>& warnings) {
  if (isOneOf(modelType, kInterleavedModels)) return "interleaved";
  if (!isOneOf(modelType, kHalfLayoutModels)) {
    warnings.push_back("model_type '" + modelType +
                       "' is not one relpos knows; assuming the half rotary layout "
                       "(GPT-NeoX/Llama)");
  }
  return "half";
}

int64_t readRotaryDim(Section& config, std::optional<Section>& block, int64_t headDim) {
  int64_t r = headDim;
  std::string from = "the head dimension";
  std::optional<double> fraction;
  if (block) fraction = block->number("partial_rotary_factor");
  if (!fraction) fraction = config.number("partial_rotary_factor");
  if (!fraction) fraction = config.number("rotary_pct");
  if (auto dim = config.positiveInteger("rotary_dim")) {
    r = *dim;
    from = "rotary_dim";
  } else if (fraction) {
    if (!(*fraction > 0 && *fraction <= 1))
      throwRange(kWhere + "the partial rotary fraction must be in (0, 1], got " + formatNumber(*fraction));
    r = static_cast<int64_t>(std::floor(static_cast<double>(headDim) * *fraction));
    from = "head_dim x " + formatNumber(*fraction);
  }
  if (r < 2 || r % 2 != 0 || r > headDim) {
    throwRange(kWhere + "the rotary dimension (" + from + " = " + std::to_string(r) +
               ") must be even, >= 2 and <= the head dimension " + std::to_string(headDim));
  }
  return r;
}

// The rope block: v5's rope_parameters, else rope_scaling. Per-layer-type blocks (Gemma 3) are
// read for full attention.
std::optional<Section> ropeBlock(Section& config, std::vector<std::string>& warnings) {
  std::optional<Section> block = config.child("rope_parameters");
  if (block) {
    if (config.has("rope_scaling")) warnings.push_back("rope_scaling was ignored: rope_parameters is present");
    if (block->has("full_attention")) {
      warnings.push_back("rope_parameters has per-layer-type entries; relpos read full_attention only");
      return block->child("full_attention");
    }
    return block;
  }
  return config.child("rope_scaling");
}

std::string ropeType(std::optional<Section>& block, std::vector<std::string>& warnings) {
  if (!block) return "default";
  const auto ropeType = block->text("rope_type");
  const auto type = block->text("type");
  if (ropeType && type && *ropeType != *type) {
    warnings.push_back(block->name("type") + " '" + *type + "' differs from rope_type '" + *ropeType +
                       "'; relpos used rope_type");
  }
  if (ropeType) return *ropeType;
  if (type) return *type;
  if (block->has("factor"))
    throwRange(kWhere + "cannot find the rope scaling type: need " + block->name("rope_type") + " (or type)");
  return "default";
}

double required(std::optional<double> v, Section& block, const std::string& key, const std::string& type) {
  if (!v) throwRange(kWhere + "cannot find " + block.name(key) + ", required for rope_type '" + type + "'");
  return *v;
}

// The pre-extension context L0: in the rope block, else top level, else max_position_embeddings.
int64_t originalLength(Section& config, Section& block, std::vector<std::string>& warnings, const std::string& type) {
  if (auto v = block.positiveInteger("original_max_position_embeddings")) return *v;
  if (auto v = config.positiveInteger("original_max_position_embeddings")) return *v;
  if (auto v = config.positiveInteger("max_position_embeddings")) {
    warnings.push_back("original_max_position_embeddings is missing; relpos used max_position_embeddings (" +
                       std::to_string(*v) + ") as the pre-extension length for '" + type + "', as Hugging Face does");
    return *v;
  }
  throwRange(kWhere + "cannot find the original context length for rope_type '" + type +
             "': need original_max_position_embeddings or max_position_embeddings");
}

void readYarn(Section& config, Section& block, Reading& out) {
  std::optional<double> factor = block.positive("factor");
  const auto maxPos = config.positiveInteger("max_position_embeddings");
  const int64_t original = originalLength(config, block, out.warnings, "yarn");
  const bool explicitOriginal = block.has("original_max_position_embeddings");
  if (!factor) {
    if (!maxPos || !explicitOriginal)
      throwRange(kWhere + "cannot find " + block.name("factor") + ", required for rope_type 'yarn'");
    factor = static_cast<double>(*maxPos) / static_cast<double>(original);
    out.warnings.push_back(block.name("factor") +
                           " is missing; relpos used max_position_embeddings / "
                           "original_max_position_embeddings = " +
                           formatNumber(*factor));
  } else if (explicitOriginal && maxPos && static_cast<double>(*maxPos) / original != *factor) {
    out.warnings.push_back("Hugging Face v4 would use max_position_embeddings / original_max_position_embeddings = " +
                           formatNumber(static_cast<double>(*maxPos) / original) + " instead of the given factor " +
                           formatNumber(*factor) + "; relpos used the given factor (v5)");
  }
  out.params.set("factor", num(*factor));
  out.params.set("originalMaxPositionEmbeddings", num(static_cast<double>(original)));
  const std::pair<const char*, const char*> optional[] = {{"beta_fast", "betaFast"},
                                                          {"beta_slow", "betaSlow"},
                                                          {"attention_factor", "attentionFactor"},
                                                          {"mscale", "mscale"},
                                                          {"mscale_all_dim", "mscaleAllDim"}};
  for (const auto& [key, param] : optional) {
    if (auto v = block.number(key)) out.params.set(param, num(*v));
  }
  if (auto v = block.flag("truncate")) out.params.set("truncate", JsonValue::makeBoolean(*v));
}

void readLongrope(Section& config, Section& block, int64_t rotaryDim, Reading& out) {
  for (const char* key : {"short_factor", "long_factor"}) {
    const auto values = block.numbers(key);
    if (!values) throwRange(kWhere + "cannot find " + block.name(key) + ", required for rope_type 'longrope'");
    if (static_cast<int64_t>(values->size()) != rotaryDim / 2) {
      throwRange(kWhere + block.name(key) + " must hold rotary dimension / 2 = " + std::to_string(rotaryDim / 2) +
                 " values, got " + std::to_string(values->size()));
    }
    out.params.set(key == std::string("short_factor") ? "shortFactor" : "longFactor", JsonValue::makeNumbers(*values));
  }
  const auto maxPos = config.positiveInteger("max_position_embeddings");
  const int64_t original = originalLength(config, block, out.warnings, "longrope");
  std::optional<double> factor = block.positive("factor");
  if (!factor) factor = maxPos ? static_cast<double>(*maxPos) / static_cast<double>(original) : 1.0;
  out.params.set("factor", num(*factor));
  out.params.set("originalMaxPositionEmbeddings", num(static_cast<double>(original)));
  if (block.has("attention_factor")) {
    block.raw("attention_factor");
    out.warnings.push_back(block.name("attention_factor") +
                           " was ignored: rope-longrope derives it as "
                           "sqrt(1 + ln factor / ln original_max_position_embeddings)");
  }
}

void readRopeScaling(Section& config, Section& block, const std::string& type, int64_t rotaryDim, Reading& out) {
  if (type == "linear" || type == "ntk") {
    out.scheme = type == "linear" ? "rope-linear" : "rope-ntk";
    out.params.set("factor", num(required(block.positive("factor"), block, "factor", type)));
  } else if (type == "dynamic") {
    out.scheme = "rope-dynamic";
    out.params.set("factor", num(required(block.positive("factor"), block, "factor", type)));
    // Hugging Face's dynamic NTK grows from max_position_embeddings (docs/rotary.md).
    const auto maxPos = config.positiveInteger("max_position_embeddings");
    const int64_t original = maxPos ? *maxPos : originalLength(config, block, out.warnings, type);
    if (maxPos && block.has("original_max_position_embeddings")) {
      block.raw("original_max_position_embeddings");
      out.warnings.push_back(block.name("original_max_position_embeddings") +
                             " was ignored: Hugging Face's dynamic "
                             "scaling starts from max_position_embeddings (" +
                             std::to_string(*maxPos) + ")");
    }
    out.params.set("originalMaxPositionEmbeddings", num(static_cast<double>(original)));
  } else if (type == "yarn") {
    out.scheme = "rope-yarn";
    readYarn(config, block, out);
  } else if (type == "llama3") {
    out.scheme = "rope-llama3";
    out.params.set("factor", num(required(block.positive("factor"), block, "factor", type)));
    out.params.set("lowFreqFactor", num(required(block.positive("low_freq_factor"), block, "low_freq_factor", type)));
    out.params.set("highFreqFactor",
                   num(required(block.positive("high_freq_factor"), block, "high_freq_factor", type)));
    const auto original = block.positiveInteger("original_max_position_embeddings");
    if (!original) required(std::nullopt, block, "original_max_position_embeddings", type);
    out.params.set("originalMaxPositionEmbeddings", num(static_cast<double>(*original)));
  } else if (type == "longrope" || type == "su") {
    out.scheme = "rope-longrope";
    readLongrope(config, block, rotaryDim, out);
  } else {
    throwRange(kWhere + "unknown " + block.name("rope_type") + " '" + type +
               "'; known: default, linear, dynamic, ntk, yarn, llama3, longrope, su");
  }
}

void readRope(Section& config, const std::string& modelType, Reading& out) {
  std::optional<Section> block = ropeBlock(config, out.warnings);
  const std::string type = ropeType(block, out.warnings);
  std::optional<double> base;
  if (block) base = block->positive("rope_theta");
  if (!base) base = config.positive("rope_theta");
  if (!base) base = config.positive("rotary_emb_base");
  out.heads = readHeads(config);
  const int64_t headDim = readHeadDim(config, out.heads);
  const int64_t rotaryDim = readRotaryDim(config, block, headDim);
  noteModel(config, out, modelType, headDim);

  out.scheme = "rope";
  out.params.set("d", num(static_cast<double>(rotaryDim)));
  out.params.set("base", num(base.value_or(10000.0)));
  out.params.set("layout", str(rotaryLayout(modelType, out.warnings)));
  if (rotaryDim < headDim) out.params.set("rotaryDim", num(static_cast<double>(rotaryDim)));
  if (block && type != "default") readRopeScaling(config, *block, type, rotaryDim, out);
  if (block) block->warnUnread(out.warnings);
}

// ----- bias and relative-vector schemes ---------------------------------------------------------

void readAlibi(Section& config, const std::string& modelType, double biasMax, const char* form, Reading& out) {
  out.scheme = "alibi";
  out.heads = readHeads(config);
  noteModel(config, out, modelType, readHeadDim(config, out.heads));
  out.params.set("alibiBiasMax", num(biasMax));
  out.params.set("form", str(form));
}

void readMpt(Section& config, Reading& out) {
  std::optional<Section> attn = config.child("attn_config");
  if (attn && attn->flag("alibi").value_or(false)) {
    const double biasMax = attn->positive("alibi_bias_max").value_or(8.0);
    readAlibi(config, "mpt", biasMax, "symmetric", out);
    return;
  }
  if (attn && attn->flag("rope").value_or(false)) {
    throwRange(kWhere + "MPT with attn_config.rope is not supported; only attn_config.alibi is");
  }
  throwRange(kWhere +
             "this MPT config has no attn_config.alibi: it uses learned absolute position embeddings, "
             "which have no relpos scheme");
}

void readT5(Section& config, const std::string& modelType, Reading& out) {
  out.scheme = "t5";
  out.heads = readHeads(config);
  const auto dkv = config.positiveInteger("d_kv");
  noteModel(config, out, modelType, dkv ? *dkv : readHeadDim(config, out.heads));
  out.params.set("numBuckets",
                 num(static_cast<double>(config.positiveInteger("relative_attention_num_buckets").value_or(32))));
  out.params.set("maxDistance",
                 num(static_cast<double>(config.positiveInteger("relative_attention_max_distance").value_or(128))));
  // The encoder's table; a decoder-only config (is_decoder) looks one way.
  out.params.set("bidirectional", JsonValue::makeBoolean(!config.flag("is_decoder").value_or(false)));
}

// pos_att_type: a list (HF v2) or one "p2c|c2p" string (the released v3 configs).
std::vector<std::string> attentionTerms(Section& config) {
  std::vector<std::string> terms;
  const JsonValue* types = config.raw("pos_att_type");
  if (!types) return terms;
  if (types->type == JsonValue::Type::String) {
    std::size_t start = 0;
    for (std::size_t bar; (bar = types->string.find('|', start)) != std::string::npos; start = bar + 1) {
      terms.push_back(types->string.substr(start, bar - start));
    }
    terms.push_back(types->string.substr(start));
    return terms;
  }
  if (types->type != JsonValue::Type::Array) {
    throwType(kWhere + "pos_att_type must be an array of strings, got " + jsonTypeName(types->type));
  }
  for (const JsonValue& t : types->array) {
    if (t.type != JsonValue::Type::String)
      throwType(kWhere + "pos_att_type must hold strings, got " + jsonTypeName(t.type));
    terms.push_back(t.string);
  }
  return terms;
}

void readDeberta(Section& config, const std::string& modelType, Reading& out) {
  if (!config.flag("relative_attention").value_or(false)) {
    throwRange(kWhere + "this DeBERTa config has relative_attention false (or missing): no relative positions to read");
  }
  out.scheme = "deberta";
  out.heads = readHeads(config);
  noteModel(config, out, modelType, readHeadDim(config, out.heads));
  out.params.set("positionBuckets", num(static_cast<double>(config.integer("position_buckets").value_or(-1))));
  int64_t maxRelative = config.integer("max_relative_positions").value_or(-1);
  if (maxRelative < 1) {  // HF: "use max_position_embeddings" (docs/buckets.md)
    const auto maxPos = config.positiveInteger("max_position_embeddings");
    if (!maxPos) out.warnings.push_back("max_position_embeddings is missing; relpos used the DeBERTa default 512");
    maxRelative = maxPos.value_or(512);
  }
  out.params.set("maxRelativePositions", num(static_cast<double>(maxRelative)));
  if (config.flag("position_biased_input").value_or(false)) {
    out.warnings.push_back(
        "position_biased_input is true: the model also adds absolute position embeddings, "
        "which the deberta scheme does not include");
  }
  for (const std::string& term : attentionTerms(config)) {
    if (term != "p2c" && term != "c2p")
      out.warnings.push_back("pos_att_type '" + term + "' is not part of the deberta scheme");
  }
}

bool hasRopeFields(Section& config) {
  for (const char* key : {"rope_theta", "rope_scaling", "rope_parameters", "rotary_dim", "rotary_pct",
                          "partial_rotary_factor", "rotary_emb_base"}) {
    if (config.has(key)) return true;
  }
  return false;
}

Reading readConfig(const JsonValue& root) {
  Section config(root, "");
  Reading out;
  const std::string modelType = config.text("model_type").value_or("");
  if (modelType == "bloom" || (modelType == "falcon" && config.flag("alibi").value_or(false))) {
    readAlibi(config, modelType, 8.0, "keyPosition", out);  // HF build_alibi_tensor: m * j
  } else if (modelType == "mpt") {
    readMpt(config, out);
  } else if (isOneOf(modelType, {"t5", "mt5"})) {
    readT5(config, modelType, out);
  } else if (isOneOf(modelType, {"deberta-v2", "deberta"})) {
    readDeberta(config, modelType, out);
  } else if (isOneOf(modelType,
                     {"gpt2", "gpt_neo", "opt", "bert", "roberta", "xlm-roberta", "distilbert", "electra"})) {
    throwRange(kWhere + "model_type '" + modelType +
               "' uses learned absolute position embeddings, which have no relpos scheme");
  } else if (isOneOf(modelType, kHalfLayoutModels) || isOneOf(modelType, kInterleavedModels) || hasRopeFields(config)) {
    readRope(config, modelType, out);
  } else {
    throwRange(kWhere + "cannot tell the positional scheme: model_type '" + modelType +
               "' is not one relpos reads and the config has no rope_theta, rope_scaling or rope_parameters");
  }
  return out;
}

}  // namespace

// The presets (docs/presets.md) are data: src/relpos/models/presets.json, embedded at build time.
static const char* const kPresetsJson =
#include "relpos/models/presets_json.inc"
    ;

std::string presetsJson() {
  static const std::string text = toJson(parseJson(kPresetsJson));
  return text;
}

namespace {

// What the importer read must be a call the catalogue accepts: every parameter within the range
// rp.schemes documents (a config with rope_theta = 1e300 is refused here, not at the first call).
void checkAgainstCatalogue(const Reading& reading) {
  const Scheme& scheme = findScheme("relpos.fromConfig", reading.scheme);
  Params params("relpos.fromConfig");
  for (const auto& member : reading.params.object) {
    const JsonValue& v = member.second;
    if (v.type == JsonValue::Type::Number) {
      params.setNumber(member.first, v.number);
    } else if (v.type == JsonValue::Type::Boolean) {
      params.setBoolean(member.first, v.boolean);
    } else if (v.type == JsonValue::Type::String) {
      params.setString(member.first, v.string);
    } else if (v.type == JsonValue::Type::Array && !v.array.empty() && v.array[0].type == JsonValue::Type::String) {
      Value list;
      list.type = Value::Type::Strings;
      for (const auto& item : v.array) list.strings.push_back(item.string);
      params.set(member.first, std::move(list));
    } else if (v.type == JsonValue::Type::Array) {
      std::vector<float> data;
      for (const auto& item : v.array) data.push_back(static_cast<float>(item.number));
      const int64_t size = static_cast<int64_t>(data.size());
      params.setArray(member.first, std::move(data), {size});
    }
  }
  for (const auto& info : scheme.params) validateParam(params, info);
  if (reading.heads != 0) {
    Params h("relpos.fromConfig");
    h.setNumber(common::heads().name, static_cast<double>(reading.heads));
    h.integer(common::heads());
  }
}

}  // namespace

std::string fromConfigJson(const std::string& configJsonText) {
  const JsonValue root = parseConfig(configJsonText);
  const Reading reading = readConfig(root);
  checkAgainstCatalogue(reading);
  return toJson(reading.toJsonValue());
}

}  // namespace relpos
