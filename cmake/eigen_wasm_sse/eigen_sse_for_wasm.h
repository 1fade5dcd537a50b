/* Force-included (-include) into the analysis module's SIMD build, before any Eigen header.
 * Clang reports itself as GCC 4.2, and for GCC before 6.3 Eigen's SSE pmin/pmax use x86 inline
 * assembly, which wasm cannot take; from 6.3 on they use the intrinsics, which emscripten maps to
 * wasm SIMD. So Eigen is told it faces GCC 6.3. (-fgnuc-version=12 would instead trip Eigen's GEBP
 * inline assembly.) See docs/build.md. */
#pragma once
#include <Eigen/src/Core/util/Macros.h>
#undef EIGEN_COMP_GNUC
#define EIGEN_COMP_GNUC 63
