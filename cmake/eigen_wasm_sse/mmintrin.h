/* Empty on purpose. Emscripten 3.1.6 translates the SSE headers (xmmintrin.h … nmmintrin.h) to wasm
 * SIMD but ships no mmintrin.h, so clang's x86-only one (MMX, __m64 builtins) would be picked up
 * when Eigen's SSE path includes the SSE headers. Nothing of MMX is used. See docs/build.md. */
