// The parameters many calls share, defined once: each has one name, range and doc everywhere (a call
// that needs another default takes withDefault(common::d(), …)).
#pragma once
#include <cmath>

#include "relpos/base/params.hpp"

namespace relpos::common {

inline const ParamInfo& n() {
  static const ParamInfo p =
      integerParam("n", std::nan(""), 1, 1 << 20, "sequence length (query and key positions 0..n-1)");
  return p;
}
inline const ParamInfo& d() {
  static const ParamInfo p = integerParam("d", std::nan(""), 1, 1 << 16, "per-head dimension");
  return p;
}
inline const ParamInfo& heads() {
  static const ParamInfo p = integerParam("heads", 1, 1, 1024, "number of attention heads");
  return p;
}
inline const ParamInfo& causal() {
  static const ParamInfo p = booleanParam("causal", false, "mask keys after the query (-Infinity above the diagonal)");
  return p;
}
inline const ParamInfo& base() {
  static const ParamInfo p = numberParam("base", 10000, 1, 1e12, "frequency base (theta)", true);
  return p;
}
inline const ParamInfo& queryOffset() {
  static const ParamInfo p = integerParam("queryOffset", std::nan(""), -1e9, 1e9,
                                          "position of query row 0 (default m - n: the queries are the last n keys)");
  return p;
}

// rp.attention's forms (docs/attention.md), read by ops/attention.cpp and listed by the operation table.
inline const ParamInfo& attentionMode() {
  static const ParamInfo p =
      choiceParam("mode", "explicit|implicit|mixed", "how the positional term enters the logits");
  return p;
}
inline const ParamInfo& mixedAlpha() {
  static const ParamInfo p = numberParam("alpha", 1, -1e12, 1e12, "mixed mode: weight of B");
  return p;
}
inline const ParamInfo& mixedBeta() {
  static const ParamInfo p = numberParam("beta", 1, -1e12, 1e12, "mixed mode: weight of Q P^T");
  return p;
}
inline const ParamInfo& kvHeads() {
  static const ParamInfo p = integerParam("kvHeads", std::nan(""), 1, 1024,
                                          "key/value heads; query head h reads kv head floor(h / (heads / kvHeads))");
  return p;
}
inline const ParamInfo& slidingWindow() {
  static const ParamInfo p = integerParam("slidingWindow", std::nan(""), 1, 1 << 30,
                                          "keys with 0 <= i + queryOffset - j < w (|.| < w without causal)");
  return p;
}
inline const ParamInfo& attentionScale() {
  static const ParamInfo p = numberParam("scale", std::nan(""), -1e12, 1e12, "the logit scale, in place of 1/sqrt(d)");
  return p;
}
inline const ParamInfo& attentionWeights() {
  static const ParamInfo p = booleanParam("weights", true, "return the weights (false: only the output)");
  return p;
}
inline const ParamInfo& maskKind() {
  static const ParamInfo p = choiceParam("maskKind", "boolean|additive", "boolean: nonzero keeps; additive: added");
  return p;
}
// Query-key grids (docs/conventions.md): n queries over m keys at any positions.
inline const ParamInfo& m() {
  static const ParamInfo p =
      integerParam("m", std::nan(""), 1, 1 << 20, "number of keys (default n); the n queries are the last n of them");
  return p;
}
inline const ParamInfo& queryPositions() {
  static const ParamInfo p = arrayParam(
      "queryPositions", "positions of the queries [n], or per sequence [batch, n] (default i + queryOffset)");
  return p;
}
inline const ParamInfo& keyPositions() {
  static const ParamInfo p =
      arrayParam("keyPositions", "positions of the keys [m], or per sequence [batch, m] (default 0 .. m-1)");
  return p;
}

}  // namespace relpos::common
