# Writes the text of IN as one C++ raw string literal into OUT, so a source can hold a data file
# with `#include`: `const char* const kText =\n#include "…inc"\n;`. Used by CMakeLists.txt and
# scripts/fuzz.sh (cmake -DIN=… -DOUT=… -P src/relpos/models/embed_text.cmake).
file(READ "${IN}" text)
file(WRITE "${OUT}.tmp" "R\"relpos_text(${text})relpos_text\"\n")
file(RENAME "${OUT}.tmp" "${OUT}")
