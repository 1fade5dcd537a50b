/* One call of the relaxed-SIMD side module (src/relpos/kernels/relaxed/fused.cpp, docs/build.md):
 * everything kernels::softmaxWeights / kernels::logits need for whole 4-row tiles, in 32-bit
 * fields so that the core (C++17) and the side module (clang-19, freestanding) agree on the layout
 * without sharing a C++ library. The core writes one on its stack (the side module shares its
 * memory) and passes its address to the entry the binding registers (kernels::setFusedRowsEntry).
 * C, not C++: the side module has no standard library. */
#ifndef RELPOS_KERNELS_FUSED_CALL_H
#define RELPOS_KERNELS_FUSED_CALL_H
#include <stdint.h>

#define RELPOS_FUSED_LOGITS 0
#define RELPOS_FUSED_WEIGHTS 1

struct RelposFusedCall {
  const float* q;           /* row `first`, stride ldq */
  int32_t ldq, first, rows; /* rows: a multiple of 4 */
  const float* panels;      /* kernels::packKeys */
  int32_t m, d;
  float scale;
  const float* bias; /* null: none; row i at bias + (i - biasOrigin) * biasStride */
  int32_t biasStride;
  float biasWeight;
  int32_t biasOrigin;
  const float* mask; /* null: none; weight 1 */
  int32_t maskStride, maskOrigin;
  int32_t causal, queryOffset, window, chunk; /* kernels::KeyRange */
  float sink;                                 /* natural-log logit; -Infinity: none */
  int32_t uniformEmpty;                       /* kernels::LogitSpec::uniformEmpty */
  float* out;                                 /* row `first`, stride ldo, every column written */
  int32_t ldo;
  float* packed; /* scratch: 4 * d floats */
  int32_t mode;  /* RELPOS_FUSED_LOGITS or RELPOS_FUSED_WEIGHTS */
};

#endif
