// Real models: the presets (rp.presets, docs/presets.md) and the Hugging Face config.json reader
// (rp.fromConfig). Both return JSON text that the binding hands to JS as is.
#pragma once
#include <string>

namespace relpos {

// JSON array of { id, name, scheme, params, heads, source, model }. `params` holds only parameters
// the scheme accepts (camelCase names rp.schemes lists; for rotary schemes `d` is the rotary
// dimension and `base` the rope theta); `model` holds informative facts (head dim, context length).
std::string presetsJson();

// Reads a config.json text into JSON { scheme, params, heads, warnings: [string], model }.
// Throws ArgumentError whose message starts "relpos.fromConfig: ": TypeError for wrong kinds (a
// non-object config, a string where a number belongs), RangeError for what it cannot read or
// refuses (malformed JSON, unknown rope_type, missing head dimension, '__proto__' keys).
std::string fromConfigJson(const std::string& configJsonText);

}  // namespace relpos
