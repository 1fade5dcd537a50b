// "Did you mean": the names a caller most likely meant when a name is unknown (a parameter, a scheme
// id, an analysis). People bring names from Hugging Face configs and PyTorch code (`rope_theta`,
// `num_key_value_heads`, `yarn`, `ALiBi`), so a name is matched, in this order, through a table of
// those names, then spelled without case, `_` and `-` (`rotary_dim` is `rotaryDim`), then as a rotary
// scaling named without its `rope-` prefix (`llama3` is `rope-llama3`), then by edit distance
// (`sheme` is `scheme`). docs/api.md ("Errors") lists what the table knows.
#pragma once
#include <string>
#include <vector>

namespace relpos {

// The names of `known` that `name` most likely meant, best first (at most three; empty when none is
// close). Only names in `known` are ever suggested.
std::vector<std::string> suggestNames(const std::string& name, const std::vector<std::string>& known);

// Optimal-string-alignment edit distance (insertions, deletions, substitutions, swaps of neighbours).
size_t editDistance(const std::string& a, const std::string& b);

}  // namespace relpos
