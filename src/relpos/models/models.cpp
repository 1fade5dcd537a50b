#include "relpos/models/models.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/json.hpp"
#include "relpos/schemes/registry.hpp"

namespace relpos {
namespace {

const std::string kWhere = "relpos.fromConfig: ";
// The most layers a config may declare: the reading lists every layer of each of its groups.
constexpr int64_t kMaxLayers = 4096;

JsonValue num(double v) {
  return JsonValue::makeNumber(v);
}
JsonValue str(std::string v) {
  return JsonValue::makeString(std::move(v));
}

// ---------------------------------------------------------------------------------------------
// What a JSON null means, as Hugging Face reads config.json: the value reaches the config class as
// None, which switches the feature off, is replaced by a default, or makes the model fail; a boolean's
// None is false (the model tests it with `if config.x`). docs/models.md, "Null, absent and empty";
// tests/fixtures/config-fields.json lists every field with Hugging Face's meaning.

enum class NullMeans {
  Absent,   // the feature is off, or the reading falls through to the next spelling of the key
  Default,  // Hugging Face puts a default in (or relpos does where the model would fail): said in the warnings
  Refused,  // Hugging Face's model cannot run with None: refused, naming the field
};

// Plain arrays, not std::set: a function-local set would allocate on the heap at the first null
// read and stay there, which the heap checks of tests/node/properties.test.js count as a leak.
template <std::size_t N>
bool listed(const std::string& key, const std::string_view (&names)[N]) {
  return std::find(std::begin(names), std::end(names), std::string_view(key)) != std::end(names);
}

NullMeans nullMeaning(const std::string& key) {
  static constexpr std::string_view absent[] = {
      // None switches the feature off (`if config.x is not None` / `if x:` in the model code)
      "rope_scaling", "rope_parameters", "sliding_window", "attn_logit_softcapping", "attention_chunk_size",
      "attn_temperature_tuning", "attn_config", "partial_rotary_factor", "rotary_pct", "rotary_dim", "mscale",
      "mscale_all_dim", "attention_factor", "pos_att_type", "original_max_position_embeddings",
      // one spelling of a value others spell differently: the reading tries the next spelling
      "num_attention_heads", "n_head", "num_heads", "n_heads", "hidden_size", "n_embd", "d_model",
      "max_position_embeddings", "n_positions", "max_seq_len", "num_layers", "n_layer", "model_type", "rope_type",
      "type", "text_config"};
  static constexpr std::string_view refused[] = {
      "query_pre_attn_scalar",  // Gemma2/3Attention: query_pre_attn_scalar ** -0.5
      "floor_scale",            // Llama4TextAttention: floor((p + 1) / floor_scale)
      "attn_scale",             // Llama4TextAttention: log(...) * attn_scale + 1
      "rope_local_base_freq",   // Gemma3's local rotary embedding: its base
      "qk_rope_head_dim",       // DeepSeek's rotated width
      "v_head_dim",             // DeepSeek's value width
      "qk_nope_head_dim",       // DeepSeek: qk_head_dim = qk_nope_head_dim + qk_rope_head_dim
      "short_factor",           // longrope: torch.tensor(short_factor)
      "long_factor",            // longrope: torch.tensor(long_factor)
      "num_hidden_layers",      // range(num_hidden_layers)
  };
  if (listed(key, absent)) return NullMeans::Absent;
  if (listed(key, refused)) return NullMeans::Refused;
  return NullMeans::Default;
}

// ---------------------------------------------------------------------------------------------
// Reading a config: typed access to one object, remembering which keys were read so that the
// rest of a rope block can be reported as warnings.

class Section {
 public:
  Section(const JsonValue& obj, std::string path, std::vector<std::string>* warnings = nullptr)
      : obj_(obj), path_(std::move(path)), warnings_(warnings) {}

  std::string name(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

  // The member, or nullptr when absent or JSON null; a null is read as Hugging Face reads it
  // (nullMeaning): as absent, as absent and said in the warnings, or refused.
  const JsonValue* raw(const std::string& key) {
    used_.insert(key);
    const JsonValue* v = obj_.find(key);
    if (v && v->isNull()) {
      const NullMeans meaning = nullMeaning(key);
      if (meaning == NullMeans::Refused) {
        throwRange(kWhere + name(key) +
                   " is null; Hugging Face's model cannot run without it: give a value or leave it out");
      }
      if (meaning == NullMeans::Default) warn(name(key) + " is null; relpos read it as not given (its default)");
    }
    return v && !v->isNull() ? v : nullptr;
  }
  bool isNull(const std::string& key) const {
    const JsonValue* v = obj_.find(key);
    return v && v->isNull();
  }
  void warn(const std::string& text) const {
    if (warnings_ && std::find(warnings_->begin(), warnings_->end(), text) == warnings_->end()) {
      warnings_->push_back(text);
    }
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
  // A number of layers: the reading lists every layer of each group, so a count no model comes near
  // (kMaxLayers) is refused rather than written out.
  std::optional<int64_t> layerCount(const std::string& key) {
    const auto v = positiveInteger(key);
    if (v && *v > kMaxLayers) {
      throwRange(kWhere + name(key) + " must be <= " + std::to_string(kMaxLayers) + ", got " + std::to_string(*v));
    }
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
  // A boolean; null is false, as Python's None in `if config.x`.
  std::optional<bool> flag(const std::string& key) {
    if (isNull(key)) {
      used_.insert(key);
      return false;
    }
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
    return Section(*v, name(key), warnings_);
  }

  const std::vector<JsonValue::Member>& members() const { return obj_.object; }
  const std::string& path() const { return path_; }

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
  std::vector<std::string>* warnings_;
};

// One kind of layer: which layers (nullopt: every layer), their positional scheme and the attention
// window they use (docs/models.md).
struct Group {
  std::string layerType = "full_attention";
  std::optional<std::vector<int64_t>> layers;
  std::string scheme;
  JsonValue params = JsonValue::makeObject();
  std::optional<int64_t> slidingWindow;
  std::optional<int64_t> attentionChunkSize;
  std::optional<double> softcap;                           // Gemma-2's attn_logit_softcapping
  std::optional<std::pair<double, double>> temperature;    // Llama-4 NoPE layers: floor_scale, attn_scale
  std::vector<std::pair<std::string, std::string>> needs;  // inputs the layer needs and the config lacks
  std::vector<std::string> notes;
  bool mainRope = true;  // reads the config's main rope parameters (ordered first)

  JsonValue toJsonValue() const {
    JsonValue out = JsonValue::makeObject();
    out.set("layerType", str(layerType));
    if (layers) {
      std::vector<double> list(layers->begin(), layers->end());
      out.set("layers", JsonValue::makeNumbers(list));
    } else {
      out.set("layers", JsonValue());
    }
    out.set("scheme", str(scheme));
    out.set("params", params);
    if (slidingWindow) out.set("slidingWindow", num(static_cast<double>(*slidingWindow)));
    if (attentionChunkSize) out.set("attentionChunkSize", num(static_cast<double>(*attentionChunkSize)));
    if (softcap) out.set("softcap", num(*softcap));
    if (temperature) {
      out.set("temperatureTuning",
              jsonObject({{"floorScale", num(temperature->first)}, {"attnScale", num(temperature->second)}}));
    }
    if (!needs.empty()) {
      JsonValue list = JsonValue::makeArray();
      for (const auto& [option, why] : needs) list.push(jsonObject({{"option", str(option)}, {"why", str(why)}}));
      out.set("needs", std::move(list));
    }
    if (!notes.empty()) out.set("notes", jsonStrings(notes));
    return out;
  }
};

// A group as rp.attention({ layer }) runs it: the model's heads, head width, kvHeads, value head width
// (when it differs from the query/key head: DeepSeek), softmax scale and causality beside the group's own
// scheme, window, chunk, soft-cap and temperature (docs/models.md).
JsonValue withLayerSettings(JsonValue group, int64_t heads, bool causal, const JsonValue& model) {
  if (heads > 0) group.set("heads", num(static_cast<double>(heads)));
  if (const JsonValue* d = model.find("headDim"); d && d->type == JsonValue::Type::Number) group.set("headDim", *d);
  if (const JsonValue* kv = model.find("kvHeads"); kv && kv->type == JsonValue::Type::Number) group.set("kvHeads", *kv);
  if (const JsonValue* dv = model.find("valueHeadDim"); dv && dv->type == JsonValue::Type::Number) {
    group.set("valueHeadDim", *dv);
  }
  if (const JsonValue* scale = model.find("attentionScale"); scale && scale->type == JsonValue::Type::Number) {
    group.set("scale", *scale);
  }
  group.set("causal", JsonValue::makeBoolean(causal));
  return group;
}

struct Reading {
  int64_t heads = 0;
  bool causal = true;  // decoder layers (T5's encoder and DeBERTa are not)
  std::vector<Group> groups;
  std::vector<std::string> warnings;
  JsonValue model = JsonValue::makeObject();

  // The first group's scheme and parameters stand for the model (the groups say which layers).
  JsonValue toJsonValue() const {
    JsonValue g = JsonValue::makeArray();
    for (const auto& group : groups) g.push(withLayerSettings(group.toJsonValue(), heads, causal, model));
    return jsonObject({{"scheme", str(groups.front().scheme)},
                       {"params", groups.front().params},
                       {"heads", num(static_cast<double>(heads))},
                       {"groups", std::move(g)},
                       {"warnings", jsonStrings(warnings)},
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
  if (auto v = config.positiveInteger("num_key_value_heads")) out.model.set("kvHeads", num(static_cast<double>(*v)));
  if (modelType == "falcon") {
    // FalconAttention: num_kv_heads when new_decoder_architecture or not multi_query, else 1.
    const bool newArch = config.flag("new_decoder_architecture").value_or(false);
    const bool multiQuery = config.flag("multi_query").value_or(true);
    const auto given = config.positiveInteger("num_kv_heads");
    if (newArch || !multiQuery) {
      if (given) out.model.set("kvHeads", num(static_cast<double>(*given)));
    } else {
      out.model.set("kvHeads", num(1));
    }
  }
  if (auto v = config.layerCount("num_hidden_layers")) out.model.set("layerCount", num(static_cast<double>(*v)));
  for (const char* key : {"max_position_embeddings", "n_positions", "max_seq_len"}) {
    if (auto v = config.positiveInteger(key)) {
      out.model.set("maxPositionEmbeddings", num(static_cast<double>(*v)));
      break;
    }
  }
}

// One group of every layer with this scheme (the models whose layers do not differ).
Group singleGroup(std::string scheme, JsonValue params) {
  Group g;
  g.scheme = std::move(scheme);
  g.params = std::move(params);
  return g;
}

// ----- rotary ---------------------------------------------------------------------------------

bool isOneOf(const std::string& s, std::initializer_list<const char*> list) {
  for (const char* item : list) {
    if (s == item) return true;
  }
  return false;
}

// Families whose rotation pairs x_k with x_{k+r/2} (rotate_half) and those that pair adjacent
// elements (GPT-J's rotate_every_two, the complex view of Llama 4 and DeepSeek).
const std::initializer_list<const char*> kHalfLayoutModels = {
    "llama",      "mistral",  "mixtral", "qwen2",   "qwen2_moe",   "qwen3",   "qwen3_moe", "phi",
    "phi3",       "gpt_neox", "gemma",   "gemma2",  "gemma3_text", "olmo",    "olmo2",     "stablelm",
    "starcoder2", "falcon",   "granite", "gpt_oss", "smollm3",     "qwen2_vl"};
// Cohere's and GLM's rotate_half pairs (x_2k, x_2k+1) too (their apply_rotary_pos_emb repeat_interleave the
// frequencies); GLM rotates the first half of each head (partial_rotary_factor 0.5).
const std::initializer_list<const char*> kInterleavedModels = {"gptj",   "codegen", "llama4_text", "deepseek_v2",
                                                               "cohere", "cohere2", "glm",         "glm4"};

// The language model of a composite (vision-language) config: its text_config, with the model type
// that config class gives it when the nested config does not name one.
std::string textModelType(const std::string& outer, Section& text, std::vector<std::string>& warnings) {
  if (auto own = text.text("model_type")) return *own;
  if (outer == "llama4") return "llama4_text";
  if (outer == "gemma3") return "gemma3_text";
  warnings.push_back("text_config names no model_type; relpos read it as a " + outer + " language model");
  return outer;
}

// The defaults of the config classes whose shipped config.json files rely on them (Gemma3TextConfig,
// Llama4TextConfig, DeepseekV2/V3Config, GptOssConfig, MistralConfig), merged under the given keys.
JsonValue withClassDefaults(const JsonValue& config, const std::string& modelType) {
  std::vector<std::pair<const char*, JsonValue>> defaults;
  if (modelType == "gemma3_text") {
    defaults = {
        {"num_attention_heads", num(8)},      {"num_key_value_heads", num(4)},          {"head_dim", num(256)},
        {"num_hidden_layers", num(26)},       {"max_position_embeddings", num(131072)}, {"rope_theta", num(1000000)},
        {"rope_local_base_freq", num(10000)}, {"query_pre_attn_scalar", num(256)},      {"sliding_window", num(4096)},
        {"sliding_window_pattern", num(6)}};
  } else if (modelType == "gemma2") {
    defaults = {{"head_dim", num(256)},
                {"query_pre_attn_scalar", num(256)},
                {"sliding_window", num(4096)},
                {"attn_logit_softcapping", num(50.0)}};
  } else if (modelType == "gpt_oss") {
    defaults = {{"sliding_window", num(128)}};
  } else if (modelType == "mistral") {
    defaults = {{"sliding_window", num(4096)}};
  } else if (modelType == "falcon") {
    defaults = {{"multi_query", JsonValue::makeBoolean(true)},
                {"new_decoder_architecture", JsonValue::makeBoolean(false)}};
  } else if (modelType == "llama4_text") {
    defaults = {{"num_attention_heads", num(40)},
                {"num_key_value_heads", num(8)},
                {"head_dim", num(128)},
                {"num_hidden_layers", num(48)},
                {"max_position_embeddings", num(131072)},
                {"rope_theta", num(500000)},
                {"no_rope_layer_interval", num(4)},
                {"attention_chunk_size", num(8192)},
                {"attn_temperature_tuning", JsonValue::makeBoolean(true)},
                {"floor_scale", num(8192)},
                {"attn_scale", num(0.1)}};
  } else if (modelType == "deepseek_v3") {
    defaults = {{"qk_rope_head_dim", num(64)},
                {"qk_nope_head_dim", num(128)},
                {"v_head_dim", num(128)},
                {"rope_interleave", JsonValue::makeBoolean(true)}};
  } else if (modelType == "deepseek_v2") {
    defaults = {{"qk_rope_head_dim", num(64)}, {"qk_nope_head_dim", num(128)}, {"v_head_dim", num(128)}};
  }
  // Only an absent key takes the class default: a null reaches the class as None (nullMeaning).
  JsonValue out = config;
  for (auto& [key, value] : defaults) {
    if (!out.find(key)) out.set(key, value);
  }
  return out;
}

std::string rotaryLayout(Section& config, const std::string& modelType, std::vector<std::string>& warnings) {
  if (modelType == "deepseek_v3") return config.flag("rope_interleave").value_or(true) ? "interleaved" : "half";
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

// The layer types v5 keys rope_parameters by when layers differ (Gemma-3, gpt-oss).
bool isLayerType(const std::string& key) {
  return isOneOf(key, {"full_attention", "sliding_attention", "chunked_attention"});
}

// The rope blocks: v5's rope_parameters (one, or one per layer type), else v4's rope_scaling.
struct RopeBlocks {
  std::optional<Section> main;                          // every layer's, or full_attention's
  std::vector<std::pair<std::string, Section>> byType;  // v5 per layer type
};

RopeBlocks ropeBlocks(Section& config, std::vector<std::string>& warnings) {
  RopeBlocks out;
  std::optional<Section> block = config.child("rope_parameters");
  if (!block) {
    if (auto scaling = config.child("rope_scaling")) out.main.emplace(*scaling);
    return out;
  }
  if (config.has("rope_scaling")) warnings.push_back("rope_scaling was ignored: rope_parameters is present");
  bool perType = false;
  for (const auto& member : block->members()) perType = perType || isLayerType(member.first);
  if (!perType) {
    out.main.emplace(*block);
    return out;
  }
  for (const auto& member : block->members()) {
    if (!isLayerType(member.first)) continue;
    out.byType.emplace_back(member.first, *block->child(member.first));
  }
  for (auto& [type, section] : out.byType) {
    if (type == "full_attention") out.main.emplace(section);
  }
  if (!out.main) out.main.emplace(out.byType.front().second);
  block->warnUnread(warnings);
  return out;
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

// What one layer group reads: scheme and parameters, and the warnings of its block.
struct RopeRead {
  std::string scheme = "rope";
  JsonValue params = JsonValue::makeObject();
};

void readYarn(Section& config, Section& block, RopeRead& out, std::vector<std::string>& warnings) {
  std::optional<double> factor = block.positive("factor");
  const auto maxPos = config.positiveInteger("max_position_embeddings");
  const int64_t original = originalLength(config, block, warnings, "yarn");
  const bool explicitOriginal = block.has("original_max_position_embeddings");
  if (!factor) {
    if (!maxPos || !explicitOriginal)
      throwRange(kWhere + "cannot find " + block.name("factor") + ", required for rope_type 'yarn'");
    factor = static_cast<double>(*maxPos) / static_cast<double>(original);
    warnings.push_back(block.name("factor") +
                       " is missing; relpos used max_position_embeddings / "
                       "original_max_position_embeddings = " +
                       formatNumber(*factor));
  } else if (explicitOriginal && maxPos && static_cast<double>(*maxPos) / original != *factor) {
    warnings.push_back("Hugging Face v4 would use max_position_embeddings / original_max_position_embeddings = " +
                       formatNumber(static_cast<double>(*maxPos) / original) + " instead of the given factor " +
                       formatNumber(*factor) + "; relpos used the given factor (v5)");
  }
  out.params.set("factor", num(*factor));
  out.params.set("originalMaxPositionEmbeddings", num(static_cast<double>(original)));
  for (const auto& [key, param] :
       {std::pair<const char*, const char*>{"beta_fast", "betaFast"}, {"beta_slow", "betaSlow"}}) {
    if (auto v = block.number(key)) out.params.set(param, num(*v));
  }
  // The attention factor: a given one replaces the mscale pair, which acts only as a pair.
  const auto attention = block.number("attention_factor");
  const auto m = block.number("mscale");
  const auto all = block.number("mscale_all_dim");
  if (attention) {
    out.params.set("attentionFactor", num(*attention));
    if (m || all) {
      warnings.push_back(block.name("attention_factor") +
                         " replaces the factor of mscale / mscale_all_dim, so relpos did not use them (as Hugging "
                         "Face)");
    }
  } else if (m && all) {
    out.params.set("mscale", num(*m));
    out.params.set("mscaleAllDim", num(*all));
  } else if (m || all) {
    warnings.push_back(block.name(m ? "mscale" : "mscale_all_dim") + " without " + (m ? "mscale_all_dim" : "mscale") +
                       " changes nothing (Hugging Face uses them only as a pair); it was dropped");
  }
  if (auto v = block.flag("truncate")) out.params.set("truncate", JsonValue::makeBoolean(*v));
}

void readLongrope(Section& config, Section& block, int64_t rotaryDim, RopeRead& out,
                  std::vector<std::string>& warnings) {
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
  const int64_t original = originalLength(config, block, warnings, "longrope");
  std::optional<double> factor = block.positive("factor");
  if (!factor) factor = maxPos ? static_cast<double>(*maxPos) / static_cast<double>(original) : 1.0;
  out.params.set("factor", num(*factor));
  out.params.set("originalMaxPositionEmbeddings", num(static_cast<double>(original)));
  if (auto v = block.positive("attention_factor")) out.params.set("attentionFactor", num(*v));
}

void readRopeScaling(Section& config, Section& block, const std::string& type, int64_t rotaryDim, RopeRead& out,
                     std::vector<std::string>& warnings) {
  if (type == "linear" || type == "ntk") {
    out.scheme = type == "linear" ? "rope-linear" : "rope-ntk";
    out.params.set("factor", num(required(block.positive("factor"), block, "factor", type)));
  } else if (type == "dynamic") {
    out.scheme = "rope-dynamic";
    out.params.set("factor", num(required(block.positive("factor"), block, "factor", type)));
    // Hugging Face's dynamic NTK grows from max_position_embeddings (docs/rotary.md).
    const auto maxPos = config.positiveInteger("max_position_embeddings");
    const int64_t original = maxPos ? *maxPos : originalLength(config, block, warnings, type);
    if (maxPos && block.has("original_max_position_embeddings")) {
      block.raw("original_max_position_embeddings");
      warnings.push_back(block.name("original_max_position_embeddings") +
                         " was ignored: Hugging Face's dynamic "
                         "scaling starts from max_position_embeddings (" +
                         std::to_string(*maxPos) + ")");
    }
    out.params.set("originalMaxPositionEmbeddings", num(static_cast<double>(original)));
  } else if (type == "yarn") {
    out.scheme = "rope-yarn";
    readYarn(config, block, out, warnings);
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
    readLongrope(config, block, rotaryDim, out, warnings);
  } else {
    throwRange(kWhere + "unknown " + block.name("rope_type") + " '" + type +
               "'; known: default, linear, dynamic, ntk, yarn, llama3, longrope, su, mrope");
  }
}

// What every rotary group shares: head width, rotated width and where it starts, layout.
struct RotaryShape {
  int64_t width = 0;       // the query/key head width
  int64_t rotaryDim = 0;   // the rotated dims of it
  int64_t startIndex = 0;  // the first rotated dim: DeepSeek's heads are [nope | rope]
  std::string layout;
};

// The scheme and parameters of one rope block (nullopt: the model's plain RoPE) at base `base`.
RopeRead readRopeBlock(Section& config, std::optional<Section> block, std::optional<double> base,
                       const RotaryShape& shape, std::vector<std::string>& warnings) {
  RopeRead out;
  const std::string type = ropeType(block, warnings);
  if (block) {
    if (auto own = block->positive("rope_theta")) base = own;
    block->number("partial_rotary_factor");  // read with the rotary width
  }
  out.params.set("d", num(static_cast<double>(shape.width)));
  if (shape.rotaryDim < shape.width) out.params.set("rotaryDim", num(static_cast<double>(shape.rotaryDim)));
  if (shape.startIndex > 0) out.params.set("startIndex", num(static_cast<double>(shape.startIndex)));
  out.params.set("base", num(base.value_or(10000.0)));
  out.params.set("layout", str(shape.layout));
  // mrope (Qwen2-VL): text tokens sit at one position in all three sections, plain RoPE for text.
  if (block && type != "default" && type != "mrope")
    readRopeScaling(config, *block, type, shape.rotaryDim, out, warnings);
  if (block) block->warnUnread(warnings);
  return out;
}

// The layer type of every layer (nullopt: the config does not say how many layers there are), by
// the config's own layer_types or the rule of its config class.
std::optional<std::vector<std::string>> layerTypes(Section& config, const std::string& modelType,
                                                   std::optional<int64_t> slidingWindow) {
  const auto count = config.layerCount("num_hidden_layers");
  if (const JsonValue* given = config.raw("layer_types")) {
    if (given->type != JsonValue::Type::Array) throwType(kWhere + "layer_types must be an array of strings");
    if (given->array.empty()) throwRange(kWhere + "layer_types must list at least one layer, got []");
    if (given->array.size() > static_cast<size_t>(kMaxLayers)) {
      throwRange(kWhere + "layer_types must list at most " + std::to_string(kMaxLayers) + " layers, got " +
                 std::to_string(given->array.size()));
    }
    std::vector<std::string> types;
    for (const JsonValue& t : given->array) {
      if (t.type != JsonValue::Type::String) throwType(kWhere + "layer_types must hold strings");
      types.push_back(t.string);
    }
    return types;
  }
  if (!count) return std::nullopt;
  std::vector<std::string> types(static_cast<size_t>(*count), "full_attention");
  for (int64_t i = 0; i < *count; ++i) {
    std::string& t = types[static_cast<size_t>(i)];
    if (modelType == "gemma3_text") {
      const int64_t pattern = config.positiveInteger("sliding_window_pattern").value_or(6);
      if ((i + 1) % pattern != 0) t = "sliding_attention";
    } else if (modelType == "gemma2" || modelType == "gpt_oss") {
      if ((i + 1) % 2 != 0) t = "sliding_attention";
    } else if (isOneOf(modelType, {"qwen2", "qwen2_moe", "qwen3", "qwen3_moe"})) {
      const bool windowed = config.flag("use_sliding_window").value_or(false);
      if (windowed && slidingWindow && i >= config.positiveInteger("max_window_layers").value_or(28))
        t = "sliding_attention";
    } else if (slidingWindow) {
      t = "sliding_attention";  // Mistral, Phi-3, Starcoder2: the window applies to every layer
    }
  }
  return types;
}

// "0, 1, 3" (or "every layer" when the config does not say how many there are).
std::string layerList(const std::optional<std::vector<int64_t>>& layers) {
  if (!layers) return "(every layer)";
  std::string out;
  for (int64_t i : *layers) out += (out.empty() ? "" : ", ") + std::to_string(i);
  return out;
}

// NoPE layers: no_rope_layers[i] == 0 (1 = RoPE; Llama 4, SmolLM3), or Llama 4's default interval.
std::vector<bool> noRopeLayers(Section& config, const std::string& modelType, size_t count) {
  std::vector<bool> nope(count, false);
  auto given = config.numbers("no_rope_layers");
  // Llama4TextConfig: `no_rope_layers if no_rope_layers else the default`, so [] is not given.
  if (given && given->empty() && modelType == "llama4_text") {
    config.warn(config.name("no_rope_layers") + " is []; relpos used the default layout, as Hugging Face does");
    given.reset();
  }
  if (given) {
    if (given->size() != count) {
      throwRange(kWhere + "no_rope_layers must hold one entry per layer (" + std::to_string(count) + "), got " +
                 std::to_string(given->size()));
    }
    for (size_t i = 0; i < count; ++i) nope[i] = (*given)[i] == 0;
  } else if (modelType == "llama4_text") {
    const int64_t interval = config.positiveInteger("no_rope_layer_interval").value_or(4);
    for (size_t i = 0; i < count; ++i) nope[i] = (static_cast<int64_t>(i) + 1) % interval == 0;
  }
  return nope;
}

// Llama 4's attn_temperature_tuning, as its attention tests it (`if self.attn_temperature_tuning`):
// a boolean, or a number (Llama4TextConfig's default was 4 before it was True); null is off.
bool temperatureTuning(Section& config) {
  const JsonValue* v = config.raw("attn_temperature_tuning");
  if (!v) return false;
  if (v->type == JsonValue::Type::Boolean) return v->boolean;
  if (v->type == JsonValue::Type::Number) return v->number != 0;
  throwType(kWhere + config.name("attn_temperature_tuning") + " must be a boolean or a number, got " +
            jsonTypeName(v->type));
}

// The softmax scale when the model does not use 1/sqrt(head dim): Gemma's query_pre_attn_scalar,
// DeepSeek's qk_head_dim with (V3) mscale(s, mscale_all_dim)^2 (docs/models.md).
void readAttentionScale(Section& config, const std::string& modelType, Reading& out) {
  if (auto scalar = config.positive("query_pre_attn_scalar")) {
    out.model.set("attentionScale", num(1.0 / std::sqrt(*scalar)));
    return;
  }
  if (!isOneOf(modelType, {"deepseek_v2", "deepseek_v3"})) return;
  const double headDim = out.model.find("headDim")->number;
  const JsonValue& params = out.groups.front().params;
  const JsonValue* factor = params.find("factor");
  const JsonValue* all = params.find("mscaleAllDim");
  double wholeHead = 1;
  if (factor && all && all->number != 0 && factor->number > 1) {
    const double m = 0.1 * all->number * std::log(factor->number) + 1;
    wholeHead = m * m;
  }
  if (modelType == "deepseek_v3") {
    out.model.set("attentionScale", num(wholeHead / std::sqrt(headDim)));
    return;
  }
  out.model.set("attentionScale", num(1.0 / std::sqrt(headDim)));
  if (wholeHead != 1) {
    out.model.set("note", str("Hugging Face's DeepseekV2Attention scales by qk_head_dim^-0.5 alone; DeepSeek's own "
                              "code also multiplies by mscale(factor, mscale_all_dim)^2 = " +
                              formatNumber(wholeHead)));
  }
}

void readRope(Section& config, const std::string& modelType, Reading& out) {
  RopeBlocks blocks = ropeBlocks(config, out.warnings);
  std::optional<double> base = config.positive("rope_theta");
  if (!base) base = config.positive("rotary_emb_base");
  out.heads = readHeads(config);
  RotaryShape shape;
  if (isOneOf(modelType, {"deepseek_v2", "deepseek_v3"})) {
    // The head is [nope | rope]: the rotation acts on its last qk_rope_head_dim dims (q_pe, and k_pe
    // which every head shares); the value head is v_head_dim wide.
    const int64_t rope = *config.positiveInteger("qk_rope_head_dim");
    const int64_t nope = config.positiveInteger("qk_nope_head_dim").value_or(0);
    shape.width = nope + rope;
    shape.rotaryDim = rope;
    shape.startIndex = nope;
    noteModel(config, out, modelType, shape.width);
    out.model.set("ropeHeadDim", num(static_cast<double>(rope)));
    out.model.set("valueHeadDim", num(static_cast<double>(*config.positiveInteger("v_head_dim"))));
  } else {
    shape.width = readHeadDim(config, out.heads);
    noteModel(config, out, modelType, shape.width);
    shape.rotaryDim = readRotaryDim(config, blocks.main, shape.width);
  }
  shape.layout = rotaryLayout(config, modelType, out.warnings);
  const RopeRead main = readRopeBlock(config, blocks.main, base, shape, out.warnings);

  std::optional<int64_t> window;
  if (auto w = config.positiveInteger("sliding_window")) window = w;
  auto types = layerTypes(config, modelType, window);
  const std::vector<bool> nope = types ? noRopeLayers(config, modelType, types->size()) : std::vector<bool>{};
  // Llama 4: RoPE layers attend within chunks, NoPE layers to everything (Llama4TextConfig's layer_types).
  if (types && modelType == "llama4_text" && !config.has("layer_types")) {
    for (size_t i = 0; i < types->size(); ++i) (*types)[i] = nope[i] ? "full_attention" : "chunked_attention";
  }
  // One group per (layer type, NoPE) in order of first layer; without a layer count, one group.
  std::vector<Group> groups;
  const size_t count = types ? types->size() : 1;
  for (size_t i = 0; i < count; ++i) {
    const std::string type = types ? (*types)[i] : (window ? "sliding_attention" : "full_attention");
    const bool noPe = types && nope[i];
    auto found = std::find_if(groups.begin(), groups.end(),
                              [&](const Group& g) { return g.layerType == type && (g.scheme == "nope") == noPe; });
    if (found == groups.end()) {
      Group g;
      g.layerType = type;
      if (types) g.layers = std::vector<int64_t>{};
      groups.push_back(std::move(g));
      found = groups.end() - 1;
    }
    if (types) found->layers->push_back(static_cast<int64_t>(i));
    if (found->scheme.empty()) found->scheme = noPe ? "nope" : "?";
  }
  const std::optional<double> softcap = config.positive("attn_logit_softcapping");
  for (Group& g : groups) {
    if (softcap) g.softcap = softcap;
    if (modelType == "gpt_oss") {
      g.needs.emplace_back("sinks",
                           "gpt-oss's learned per-head sink logits, [heads], from the checkpoint's self_attn.sinks");
    }
    // A null window or chunk on layers that use one: Hugging Face builds their mask from it and
    // refuses None ("Could not find a `sliding_window` argument in the config, or it is not set").
    for (const auto& [type, key] : {std::pair<const char*, const char*>{"sliding_attention", "sliding_window"},
                                    {"chunked_attention", "attention_chunk_size"}}) {
      if (g.layerType == type && config.isNull(key)) {
        throwRange(kWhere + config.name(key) + " is null, but layers " + layerList(g.layers) + " are " + type +
                   "; Hugging Face cannot build their mask without it: give a value or leave it out");
      }
    }
    if (g.layerType == "sliding_attention") g.slidingWindow = window.value_or(4096);
    if (g.layerType == "chunked_attention") {
      if (auto chunk = config.positiveInteger("attention_chunk_size")) g.attentionChunkSize = chunk;
    }
    if (g.scheme == "nope") {
      g.mainRope = false;
      if (temperatureTuning(config)) {
        const double floorScale = config.positive("floor_scale").value_or(8192);
        const double attnScale = config.positive("attn_scale").value_or(0.1);
        g.temperature = std::make_pair(floorScale, attnScale);
        g.notes.push_back("no positional encoding (NoPE); the queries are scaled by log(floor((p + 1) / " +
                          formatNumber(floorScale) + ") + 1) * " + formatNumber(attnScale) +
                          " + 1 at position p (attention temperature tuning: temperatureTuning)");
      } else {
        g.notes.push_back("no positional encoding (NoPE)");
      }
      continue;
    }
    // The group's rope: its own v5 block, Gemma-3's local base for sliding layers, else the main one.
    const auto own = std::find_if(blocks.byType.begin(), blocks.byType.end(),
                                  [&](const auto& entry) { return entry.first == g.layerType; });
    RopeRead read = main;
    if (own != blocks.byType.end() && own->second.path() != blocks.main->path()) {
      read = readRopeBlock(config, own->second, base, shape, out.warnings);
      g.mainRope = false;
    } else if (blocks.byType.empty() && modelType == "gemma3_text" && g.layerType == "sliding_attention") {
      read = readRopeBlock(config, std::nullopt, config.positive("rope_local_base_freq"), shape, out.warnings);
      g.mainRope = false;
    }
    g.scheme = read.scheme;
    g.params = read.params;
  }
  // The group on the main rope first, then full attention, then by first layer.
  std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
    if (a.mainRope != b.mainRope) return a.mainRope;
    return a.layerType == "full_attention" && b.layerType != "full_attention";
  });
  out.groups = std::move(groups);
  readAttentionScale(config, modelType, out);
}

// ----- bias and relative-vector schemes ---------------------------------------------------------

// One group of every layer with `scheme`; returns its parameters to fill.
JsonValue& onlyGroup(Section& config, Reading& out, const char* scheme) {
  Group g = singleGroup(scheme, JsonValue::makeObject());
  for (const char* key : {"num_hidden_layers", "num_layers", "n_layer"}) {
    if (auto count = config.layerCount(key)) {
      g.layers = std::vector<int64_t>{};
      for (int64_t i = 0; i < *count; ++i) g.layers->push_back(i);
      break;
    }
  }
  out.groups = {std::move(g)};
  return out.groups.front().params;
}

void readAlibi(Section& config, const std::string& modelType, double biasMax, const char* form, Reading& out) {
  JsonValue& params = onlyGroup(config, out, "alibi");
  out.heads = readHeads(config);
  noteModel(config, out, modelType, readHeadDim(config, out.heads));
  params.set("alibiBiasMax", num(biasMax));
  params.set("form", str(form));
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
  JsonValue& params = onlyGroup(config, out, "t5");
  out.heads = readHeads(config);
  const auto dkv = config.positiveInteger("d_kv");
  noteModel(config, out, modelType, dkv ? *dkv : readHeadDim(config, out.heads));
  params.set("numBuckets",
             num(static_cast<double>(config.positiveInteger("relative_attention_num_buckets").value_or(32))));
  params.set("maxDistance",
             num(static_cast<double>(config.positiveInteger("relative_attention_max_distance").value_or(128))));
  // The encoder's table; a decoder-only config (is_decoder) looks one way.
  const bool decoder = config.flag("is_decoder").value_or(false);
  params.set("bidirectional", JsonValue::makeBoolean(!decoder));
  out.causal = decoder;
  out.groups.front().needs.emplace_back(
      "table", "T5's learned relative_attention_bias weights, [heads, numBuckets], from the checkpoint");
  out.model.set("attentionScale", num(1.0));  // T5Attention: no 1/sqrt(d_kv) (the init folds it into q)
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
  JsonValue& params = onlyGroup(config, out, "deberta");
  out.causal = false;  // an encoder
  out.heads = readHeads(config);
  noteModel(config, out, modelType, readHeadDim(config, out.heads));
  params.set("positionBuckets", num(static_cast<double>(config.integer("position_buckets").value_or(-1))));
  int64_t maxRelative = config.integer("max_relative_positions").value_or(-1);
  if (maxRelative < 1) {  // HF: "use max_position_embeddings" (docs/buckets.md)
    const auto maxPos = config.positiveInteger("max_position_embeddings");
    if (!maxPos) out.warnings.push_back("max_position_embeddings is missing; relpos used the DeBERTa default 512");
    maxRelative = maxPos.value_or(512);
  }
  params.set("maxRelativePositions", num(static_cast<double>(maxRelative)));
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

// A composite config (vision-language models) is read through its text_config, with the model type
// of that config class; every config gets the defaults its config class fills in.
Reading readConfig(const JsonValue& root) {
  Reading out;
  Section top(root, "", &out.warnings);
  std::string modelType = top.text("model_type").value_or("");
  const JsonValue* source = &root;
  std::string path;
  static const JsonValue kNoTextConfig = JsonValue::makeObject();
  if (auto text = top.child("text_config")) {
    modelType = textModelType(modelType, *text, out.warnings);
    source = root.find("text_config");
    path = "text_config";
  } else if (isOneOf(modelType, {"gemma3", "llama4"})) {
    // Gemma3Config / Llama4Config: a text_config of None (absent or null) is the text config
    // class's defaults.
    out.warnings.push_back("text_config is " + std::string(top.isNull("text_config") ? "null" : "absent") +
                           "; relpos used the defaults of the " + modelType +
                           " language model's config class, as Hugging Face does");
    Section none(kNoTextConfig, "text_config");
    modelType = textModelType(modelType, none, out.warnings);
    source = &kNoTextConfig;
    path = "text_config";
  }
  const JsonValue merged = withClassDefaults(*source, modelType);
  Section config(merged, path, &out.warnings);
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
  } else if (isOneOf(modelType, kHalfLayoutModels) || isOneOf(modelType, kInterleavedModels) ||
             isOneOf(modelType, {"deepseek_v3"}) || hasRopeFields(config)) {
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

// A preset whose layers do not differ lists no groups in the data: it gets the one group of every
// layer, as a reading of its config would (docs/models.md).
std::string presetsJson() {
  static const std::string text = [] {
    JsonValue list = parseJson(kPresetsJson);
    for (JsonValue& preset : list.array) {
      if (preset.find("groups")) continue;
      const JsonValue* window = preset.find("model")->find("slidingWindow");
      JsonValue group = jsonObject({{"layerType", str(window ? "sliding_attention" : "full_attention")},
                                    {"layers", JsonValue()},
                                    {"scheme", *preset.find("scheme")},
                                    {"params", *preset.find("params")}});
      if (window) group.set("slidingWindow", *window);
      if (const JsonValue* needs = preset.find("needs")) group.set("needs", *needs);
      preset.set("groups", JsonValue::makeArray({std::move(group)}));
    }
    // Each group runs as rp.attention({ layer }) does for a reading (withLayerSettings).
    for (JsonValue& preset : list.array) {
      const JsonValue* heads = preset.find("heads");
      const bool causal = !preset.find("encoder");
      JsonValue& groups = *const_cast<JsonValue*>(preset.find("groups"));
      for (JsonValue& g : groups.array) {
        g = withLayerSettings(std::move(g), heads ? static_cast<int64_t>(heads->number) : 0, causal,
                              *preset.find("model"));
      }
    }
    return toJson(list);
  }();
  return text;
}

namespace {

// What the importer read must be a call the catalogue accepts: every parameter within the range
// rp.schemes documents (a config with rope_theta = 1e300 is refused here, not at the first call).
void checkAgainstCatalogue(const Reading& reading) {
  for (const Group& group : reading.groups) {
    const Scheme& scheme = findScheme("relpos.fromConfig", group.scheme);
    Params params("relpos.fromConfig");
    for (const auto& member : group.params.object) {
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
  }
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
  // Every reading has a group (its layers may be unknown); a config that leaves none says nothing to read.
  if (reading.groups.empty()) throwRange(kWhere + "the config describes no attention layers to read");
  checkAgainstCatalogue(reading);
  return toJson(reading.toJsonValue());
}

}  // namespace relpos
