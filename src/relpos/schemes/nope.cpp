// nope — no positional term: attention on content alone, the baseline every comparison needs
// (Kazemnejad et al. 2023, "The Impact of Positional Encoding on Length Generalization in
// Transformers", arXiv:2305.19466: a causal model can still infer positions from its mask).
#include <algorithm>

#include "relpos/schemes/bias_family.hpp"

namespace relpos {

namespace {

// Its bias is zero everywhere (rp.bias, rp.scores, pooled maps, rp.analysis profiles).
void fillZero(const Params&, const BiasWindow& w, float* out) {
  std::fill_n(out, w.heads * w.rows * w.cols, 0.0f);
}

ClosedForm zero(const Params&) {
  return {[](double) { return 0.0; }, [](double) { return 0.0; }};
}

}  // namespace

Scheme nopeScheme() {
  Scheme s = biasScheme("nope", "NoPE", "Kazemnejad et al. 2023, arXiv:2305.19466",
                        "No positional term: attention on content alone; causal models may still infer position "
                        "from the mask.",
                        {}, fillZero);
  s.family = "none";
  s.perHead = false;
  s.term = AttentionTerm::None;  // attention adds nothing: QK^T/sqrt(d) alone
  s.closedForm = zero;
  s.lab = {
      "NoPE", {"explicit"}, {}, [](const Scheme&, const lab::TermSetup&) { return std::make_unique<lab::Term>(); }};
  s.lab.alias = "none";  // the lab's name for it before the catalogue had nope
  return s;
}

}  // namespace relpos
