// libFuzzer target "maps" (see fuzz_targets.hpp and scripts/fuzz.sh).
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::entry(fuzz::runMaps, data, size);
}
