#include "relpos/base/names.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

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

// Names from Hugging Face configs, PyTorch attention code and papers (folded), grouped by what they
// are called here, most likely first. A call suggests the first of them that it takes: the config's
// `max_position_embeddings` is a rotary scaling's `originalMaxPositionEmbeddings`, a frequency
// call's `seqLen`, and elsewhere the length `n`.
// No allocation: the table is constant data (a first error would otherwise leave a table on the heap).
struct Alias {
  const char* meant[3];
  const char* names;  // folded, separated by single spaces
};
constexpr Alias kAliases[] = {
    // The rotary base.
    {{"base"}, "theta ropetheta rotaryembbase rotarybase ropebase basefrequency freqbase"},
    // Lengths.
    {{"originalMaxPositionEmbeddings", "seqLen", "n"},
     "maxpositionembeddings maxpositions maxseqlen maxsequencelength npositions nctx contextlength"},
    {{"n", "seqLen"}, "seqlength sequencelength length len"},
    {{"n"}, "numtokens ntokens"},
    {{"m"}, "numkeys kvlength kvlen"},
    // Widths and heads.
    {{"d"}, "headdim headsize dhead dimhead dim dmodel embeddim kvchannels"},
    {{"heads"}, "numattentionheads numheads nheads nhead numhead nattnheads attentionheads"},
    {{"kvHeads"}, "numkeyvalueheads numkvheads nkvheads numquerygroups"},
    {{"rotaryDim"}, "partialrotaryfactor rotarypct rotarydims rotaryembdim"},
    // Rotary layout and scaling.
    {{"layout"}, "isneoxstyle interleaved rotaryinterleaved"},
    {{"factor"}, "ropescaling scalingfactor ropefactor"},
    {{"scheme"}, "ropetype positionembeddingtype positionalencoding"},
    {{"positions"}, "positionids positionid posids"},
    {{"positions", "queryOffset"}, "cacheposition"},
    {{"queryOffset"}, "pastlength pastkeyvalueslength"},
    {{"queryOffset", "positions"}, "startpos"},
    {{"queryOffset", "offsets"}, "offset"},
    // Attention's inputs and options.
    {{"q"}, "query queries xq"},
    {{"k"}, "key keys xk"},
    {{"v"}, "value values xv"},
    {{"causal"}, "iscausal causalmask usecausalmask unidirectional"},
    {{"mask"}, "attentionmask attnmask keypaddingmask"},
    {{"slidingWindow"}, "windowsize window attentionwindow"},
    {{"scale"}, "softmaxscale"},
    {{"scale", "factor"}, "scaling"},
    {{"scale"}, "smscale"},
    {{"B"}, "attnbias attentionbias positionbias bias"},
    {{"P"}, "positionembeddings posemb"},
    {{"weights"}, "returnweights needweights outputattentions"},
    // Scheme parameters under their Hugging Face names.
    {{"alibiBiasMax"}, "maxbias alibimaxbias"},
    {{"numBuckets"}, "relativeattentionnumbuckets"},
    {{"maxDistance"}, "relativeattentionmaxdistance"},
    {{"maxRelativePositions"}, "maxrelativepositions"},
    {{"positionBuckets"}, "positionbuckets"},
    // Scheme ids: Hugging Face's rope_type values and common names.
    {{"rope"}, "default rotary roformer neox"},
    {{"rope-linear"}, "linear pi positioninterpolation"},
    {{"rope-ntk"}, "ntk ntkaware"},
    {{"rope-dynamic"}, "dynamic dynamicntk"},
    {{"rope-longrope"}, "su"},
    {{"sinusoidal"}, "absolute sincos sinusoid"},
    {{"shaw"}, "relativekey relativeposition"},
    {{"transformer-xl"}, "transfoxl txl xl"},
    {{"t5"}, "relativeattentionbias"},
    {{"deberta"}, "debertav2 debertav3"},
    {{"kerple-log", "kerple-power"}, "kerple"},
    {{"nope"}, "none nopos noposition"},
    {{"rope-2d"}, "axial ropevit ropemixed"},
    {{"cope"}, "contextual"},
};

// Calls `f` with each name of a space-separated list.
template <class F>
void forEachName(const char* names, F&& f) {
  for (const char* at = names; *at != '\0';) {
    const char* end = std::strchr(at, ' ');
    if (end == nullptr) end = at + std::strlen(at);
    f(std::string(at, end));
    at = *end == '\0' ? end : end + 1;
  }
}

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
    bool listed = false;
    forEachName(alias.names, [&](const std::string& spelled) { listed = listed || spelled == key; });
    if (!listed) continue;
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
        forEachName(alias.names, [&](const std::string& spelled) { consider(spelled, *k); });
        break;
      }
    }
  }
  return out;
}

}  // namespace relpos
