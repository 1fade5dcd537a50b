#include "relpos/base/names.hpp"

#include <algorithm>
#include <cctype>

namespace relpos {

namespace {

// A name without case, '_', '-', '.', ' ': the form in which `rope_theta`, `ropeTheta` and
// `RoPE-Theta` are the same name.
std::string folded(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == '_' || c == '-' || c == '.' || c == ' ') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// Names from Hugging Face configs, PyTorch attention code and papers (folded), and what they are
// called here, most likely first. A call suggests the first of them that it takes: the config's
// `max_position_embeddings` is a rotary scaling's `originalMaxPositionEmbeddings`, a frequency
// call's `seqLen`, and elsewhere the length `n`.
// No allocation: the table is constant data (a first error would otherwise leave a table on the heap).
struct Alias {
  const char* name;
  const char* meant[3];
};
constexpr Alias kAliases[] = {
    // The rotary base.
    {"theta", {"base"}},
    {"ropetheta", {"base"}},
    {"rotaryembbase", {"base"}},
    {"rotarybase", {"base"}},
    {"ropebase", {"base"}},
    {"basefrequency", {"base"}},
    {"freqbase", {"base"}},
    // Lengths.
    {"maxpositionembeddings", {"originalMaxPositionEmbeddings", "seqLen", "n"}},
    {"maxpositions", {"originalMaxPositionEmbeddings", "seqLen", "n"}},
    {"maxseqlen", {"originalMaxPositionEmbeddings", "seqLen", "n"}},
    {"maxsequencelength", {"originalMaxPositionEmbeddings", "seqLen", "n"}},
    {"npositions", {"originalMaxPositionEmbeddings", "seqLen", "n"}},
    {"nctx", {"originalMaxPositionEmbeddings", "seqLen", "n"}},
    {"contextlength", {"originalMaxPositionEmbeddings", "seqLen", "n"}},
    {"seqlength", {"n", "seqLen"}},
    {"sequencelength", {"n", "seqLen"}},
    {"length", {"n", "seqLen"}},
    {"len", {"n", "seqLen"}},
    {"numtokens", {"n"}},
    {"ntokens", {"n"}},
    {"numkeys", {"m"}},
    {"kvlength", {"m"}},
    {"kvlen", {"m"}},
    // Widths and heads.
    {"headdim", {"d"}},
    {"headsize", {"d"}},
    {"dhead", {"d"}},
    {"dimhead", {"d"}},
    {"dim", {"d"}},
    {"dmodel", {"d"}},
    {"embeddim", {"d"}},
    {"kvchannels", {"d"}},
    {"numattentionheads", {"heads"}},
    {"numheads", {"heads"}},
    {"nheads", {"heads"}},
    {"nhead", {"heads"}},
    {"numhead", {"heads"}},
    {"nattnheads", {"heads"}},
    {"attentionheads", {"heads"}},
    {"numkeyvalueheads", {"kvHeads"}},
    {"numkvheads", {"kvHeads"}},
    {"nkvheads", {"kvHeads"}},
    {"numquerygroups", {"kvHeads"}},
    {"partialrotaryfactor", {"rotaryDim"}},
    {"rotarypct", {"rotaryDim"}},
    {"rotarydims", {"rotaryDim"}},
    {"rotaryembdim", {"rotaryDim"}},
    // Rotary layout and scaling.
    {"isneoxstyle", {"layout"}},
    {"interleaved", {"layout"}},
    {"rotaryinterleaved", {"layout"}},
    {"ropescaling", {"factor"}},
    {"scalingfactor", {"factor"}},
    {"ropefactor", {"factor"}},
    {"ropetype", {"scheme"}},
    {"positionembeddingtype", {"scheme"}},
    {"positionalencoding", {"scheme"}},
    {"positionids", {"positions"}},
    {"positionid", {"positions"}},
    {"posids", {"positions"}},
    {"cacheposition", {"positions", "queryOffset"}},
    {"pastlength", {"queryOffset"}},
    {"pastkeyvalueslength", {"queryOffset"}},
    {"startpos", {"queryOffset", "positions"}},
    {"offset", {"queryOffset", "offsets"}},
    // Attention's inputs and options.
    {"query", {"q"}},
    {"queries", {"q"}},
    {"xq", {"q"}},
    {"key", {"k"}},
    {"keys", {"k"}},
    {"xk", {"k"}},
    {"value", {"v"}},
    {"values", {"v"}},
    {"xv", {"v"}},
    {"iscausal", {"causal"}},
    {"causalmask", {"causal"}},
    {"usecausalmask", {"causal"}},
    {"unidirectional", {"causal"}},
    {"attentionmask", {"mask"}},
    {"attnmask", {"mask"}},
    {"keypaddingmask", {"mask"}},
    {"windowsize", {"slidingWindow"}},
    {"window", {"slidingWindow"}},
    {"attentionwindow", {"slidingWindow"}},
    {"softmaxscale", {"scale"}},
    {"scaling", {"scale", "factor"}},
    {"smscale", {"scale"}},
    {"attnbias", {"B"}},
    {"attentionbias", {"B"}},
    {"positionbias", {"B"}},
    {"bias", {"B"}},
    {"positionembeddings", {"P"}},
    {"posemb", {"P"}},
    {"returnweights", {"weights"}},
    {"needweights", {"weights"}},
    {"outputattentions", {"weights"}},
    // Scheme parameters under their Hugging Face names.
    {"maxbias", {"alibiBiasMax"}},
    {"alibimaxbias", {"alibiBiasMax"}},
    {"relativeattentionnumbuckets", {"numBuckets"}},
    {"relativeattentionmaxdistance", {"maxDistance"}},
    {"maxrelativepositions", {"maxRelativePositions"}},
    {"positionbuckets", {"positionBuckets"}},
    // Scheme ids: Hugging Face's rope_type values and common names.
    {"default", {"rope"}},
    {"rotary", {"rope"}},
    {"roformer", {"rope"}},
    {"neox", {"rope"}},
    {"linear", {"rope-linear"}},
    {"pi", {"rope-linear"}},
    {"positioninterpolation", {"rope-linear"}},
    {"ntk", {"rope-ntk"}},
    {"ntkaware", {"rope-ntk"}},
    {"dynamic", {"rope-dynamic"}},
    {"dynamicntk", {"rope-dynamic"}},
    {"su", {"rope-longrope"}},
    {"absolute", {"sinusoidal"}},
    {"sincos", {"sinusoidal"}},
    {"sinusoid", {"sinusoidal"}},
    {"relativekey", {"shaw"}},
    {"relativeposition", {"shaw"}},
    {"transfoxl", {"transformer-xl"}},
    {"txl", {"transformer-xl"}},
    {"xl", {"transformer-xl"}},
    {"relativeattentionbias", {"t5"}},
    {"debertav2", {"deberta"}},
    {"debertav3", {"deberta"}},
    {"kerple", {"kerple-log", "kerple-power"}},
    {"none", {"nope"}},
    {"nopos", {"nope"}},
    {"noposition", {"nope"}},
    {"axial", {"rope-2d"}},
    {"ropevit", {"rope-2d"}},
    {"ropemixed", {"rope-2d"}},
    {"contextual", {"cope"}},
};

// How far a misspelling may be from the name: none in names of one or two letters (any other short
// name would be "close"), a letter in short names, more in longer ones.
size_t tolerance(size_t length) {
  return length <= 2 ? 0 : length <= 4 ? 1 : length <= 8 ? 2 : 3;
}

}  // namespace

size_t editDistance(const std::string& a, const std::string& b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> cost(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) cost[i][0] = i;
  for (size_t j = 0; j <= m; ++j) cost[0][j] = j;
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      const size_t substitute = cost[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cost[i][j] = std::min({cost[i - 1][j] + 1, cost[i][j - 1] + 1, substitute});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        cost[i][j] = std::min(cost[i][j], cost[i - 2][j - 2] + 1);
      }
    }
  }
  return cost[n][m];
}

std::vector<std::string> suggestNames(const std::string& name, const std::vector<std::string>& known) {
  // Names are compared in folded form; very long inputs are nobody's misspelling.
  if (name.size() > 64) return {};
  const std::string key = folded(name);
  auto knownAs = [&](const std::string& wanted) -> const std::string* {
    for (const auto& k : known) {
      if (folded(k) == folded(wanted)) return &k;
    }
    return nullptr;
  };
  // 1. A name from Hugging Face or PyTorch.
  for (const Alias& alias : kAliases) {
    if (key != alias.name) continue;
    for (const char* candidate : alias.meant) {
      if (candidate == nullptr) break;
      if (const std::string* k = knownAs(candidate)) return {*k};
    }
  }
  // 2. The same name in another case or spelling (snake_case, kebab-case, camelCase).
  if (const std::string* k = knownAs(key)) return {*k};
  // 3. A rotary scaling without its prefix: llama3, yarn, longrope.
  if (const std::string* k = knownAs("rope" + key)) return {*k};
  // 4. The closest names by edit distance, within the tolerance of the name's length; a misspelt
  // foreign name (`num_attention_head`) counts as that name.
  size_t best = tolerance(key.size()) + 1;
  std::vector<std::string> out;
  auto consider = [&](const std::string& spelled, const std::string& meant) {
    const size_t distance = editDistance(key, spelled);
    if (distance == 0 || distance > std::min(tolerance(key.size()), tolerance(spelled.size()))) return;
    if (distance < best) {
      best = distance;
      out.clear();
    }
    if (distance == best && out.size() < 3 && std::find(out.begin(), out.end(), meant) == out.end()) {
      out.push_back(meant);
    }
  };
  for (const auto& k : known) consider(folded(k), k);
  for (const Alias& alias : kAliases) {
    for (const char* candidate : alias.meant) {
      if (candidate == nullptr) break;
      if (const std::string* k = knownAs(candidate)) {
        consider(alias.name, *k);
        break;
      }
    }
  }
  return out;
}

}  // namespace relpos
