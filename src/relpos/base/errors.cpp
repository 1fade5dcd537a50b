#include "relpos/base/errors.hpp"

#include <cmath>

namespace relpos {

void checkWorkingSet(const std::string& where, double bytes, const std::string& what) {
  if (!(bytes <= kMaxWorkingSetBytes)) {
    const double mib = std::ceil(bytes / (1024.0 * 1024.0));
    throwRange(
        where + ": this call would need " + formatNumber(mib) + " MiB of working memory" +
        (what.empty() ? "" : " (" + what + ")") + ", over the limit of " +
        formatNumber(kMaxWorkingSetBytes / (1024.0 * 1024.0)) +
        " MiB (the wasm heap holds at most 2 GiB); use smaller sizes, or rp.attentionMap for pooled long-context maps");
  }
}

}  // namespace relpos
