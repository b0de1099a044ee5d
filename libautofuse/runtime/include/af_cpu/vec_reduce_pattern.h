// Pattern reductions of the AscendC advanced API: ReduceSum / ReduceMax / ReduceMin / ReduceProd /
// ReduceMean / ReduceAny / ReduceAll with `Pattern::Reduce::AR` (reduce the inner dimension of a
// [rows, cols] block) and `Pattern::Reduce::RA` (reduce the outer dimension). The source rows are
// padded to 32 bytes when `srcInnerPad` is true, as the AscendC API requires of UB tensors; the
// destination is dense (AR: `rows` values; RA: `cols` values, which for a padded block is its
// padded row). This is the overload where the framework provides the temporary space.
//
// Generated reduce kernels call these per UB block (autofuse codegen: one AR call per row, one RA
// call per outer index), so every reduction goes through one audited implementation: sums in a
// pairwise tree per 256-byte repeat in float, extrema propagating NaN, as the level-2 APIs do.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/tensor.h"
#include "af_cpu/types.h"
#include "af_cpu/vec_common.h"
#include "af_cpu/vec_reduce.h"

AF_CPU_HIDDEN_BEGIN

namespace AscendC {
namespace Pattern {
namespace Reduce {
struct AR {};
struct RA {};
}  // namespace Reduce
}  // namespace Pattern
}  // namespace AscendC

namespace af_cpu {

enum class PatternOp : uint8_t { kSum, kMean, kMax, kMin, kProd, kAny, kAll };

inline float PatternCombine(PatternOp op, float a, float b) {
  switch (op) {
    case PatternOp::kSum:
    case PatternOp::kMean:
      return a + b;
    case PatternOp::kMax:
    case PatternOp::kAny:
      return Better(true, b, a) ? b : a;
    case PatternOp::kMin:
    case PatternOp::kAll:
      return Better(false, b, a) ? b : a;
    case PatternOp::kProd:
      return a * b;
  }
  return a;
}

// Reduces `n` values read by `at(i)`: sums pairwise per 256-byte repeat, others in order.
template <typename T, typename At>
inline float PatternFold(PatternOp op, uint64_t n, At at) {
  if (op == PatternOp::kSum || op == PatternOp::kMean) {
    constexpr uint64_t per = kPerRepeat<T>;
    float vals[per];
    float acc = 0.0f;
    for (uint64_t base = 0; base < n; base += per) {
      const uint64_t m = n - base < per ? n - base : per;
      for (uint64_t i = 0; i < m; ++i)
        vals[i] = at(base + i);
      const float part = TreeSum(vals, m, per);
      acc = base == 0 ? part : acc + part;
    }
    return op == PatternOp::kMean && n > 0 ? acc / static_cast<float>(n) : acc;
  }
  float acc = at(0);
  for (uint64_t i = 1; i < n; ++i)
    acc = PatternCombine(op, acc, at(i));
  return acc;
}

template <typename T, typename Pat>
inline void PatternReduce(const char* api, PatternOp op, const AscendC::LocalTensor<T>& dst,
                          const AscendC::LocalTensor<T>& src, const uint32_t shape[],
                          bool inner_pad) {
  static_assert(std::is_same_v<Pat, AscendC::Pattern::Reduce::AR> ||
                    std::is_same_v<Pat, AscendC::Pattern::Reduce::RA>,
                "pattern must be Pattern::Reduce::AR or Pattern::Reduce::RA");
  BlockCtx& c = Enter(api);
  if (shape == nullptr) Fail(api, "srcShape is null");
  const uint64_t rows = shape[0];
  const uint64_t cols = shape[1];
  if (rows == 0 || cols == 0) {
    Fail(api, "srcShape {" + std::to_string(rows) + ", " + std::to_string(cols) +
                  "} has an empty dimension");
  }
  const uint64_t per_block = 32 / sizeof(T);
  const uint64_t pitch = inner_pad ? (cols + per_block - 1) / per_block * per_block : cols;
  if (!inner_pad && (cols * sizeof(T)) % 32 != 0) {
    Fail(api, "srcInnerPad is false but the inner dimension (" + std::to_string(cols) +
                  " elements) is not a whole number of 32-byte blocks");
  }
  CheckVecOperand(api, "src", src, rows * pitch * sizeof(T));
  constexpr bool kAr = std::is_same_v<Pat, AscendC::Pattern::Reduce::AR>;
  const uint64_t outs = kAr ? rows : cols;
  CheckVecOperand(api, "dst", dst, outs * sizeof(T));
  CheckOverlap(api, "dst", dst, outs * sizeof(T), "src", src, rows * pitch * sizeof(T), false);
  AddRepeats(c, api, rows * pitch * sizeof(T));
  const uint8_t* s = src.AfBytes();
  uint8_t* d = dst.AfBytes();
  auto value = [&](uint64_t r, uint64_t k) {
    const float v = F(Load<T>(s + (r * pitch + k) * sizeof(T)));
    if (op == PatternOp::kAny || op == PatternOp::kAll) return v != 0.0f ? 1.0f : 0.0f;
    return v;
  };
  if constexpr (kAr) {
    for (uint64_t r = 0; r < rows; ++r) {
      const float v = PatternFold<T>(op, cols, [&](uint64_t k) { return value(r, k); });
      Store<T>(d + r * sizeof(T), FromF<T>(v));
    }
  } else {
    for (uint64_t k = 0; k < cols; ++k) {
      const float v = PatternFold<T>(op, rows, [&](uint64_t r) { return value(r, k); });
      Store<T>(d + k * sizeof(T), FromF<T>(v));
    }
  }
}

}  // namespace af_cpu

namespace AscendC {

#define AF_CPU_PATTERN_REDUCE(NAME, OP)                                                         \
  template <class T, class pattern, bool isReuseSource = false>                                 \
  __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, \
                              const uint32_t srcShape[], bool srcInnerPad) {                    \
    af_cpu::PatternReduce<T, pattern>(#NAME, OP, dstTensor, srcTensor, srcShape, srcInnerPad);  \
  }                                                                                             \
  template <class T, class pattern, bool isReuseSource = false>                                 \
  __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, \
                              const LocalTensor<uint8_t>& sharedTmpBuffer,                      \
                              const uint32_t srcShape[], bool srcInnerPad) {                    \
    sharedTmpBuffer.AfCheckRange(#NAME, "sharedTmpBuffer", 0, 0);                               \
    af_cpu::PatternReduce<T, pattern>(#NAME, OP, dstTensor, srcTensor, srcShape, srcInnerPad);  \
  }

AF_CPU_PATTERN_REDUCE(ReduceSum, af_cpu::PatternOp::kSum)
AF_CPU_PATTERN_REDUCE(ReduceMean, af_cpu::PatternOp::kMean)
AF_CPU_PATTERN_REDUCE(ReduceMax, af_cpu::PatternOp::kMax)
AF_CPU_PATTERN_REDUCE(ReduceMin, af_cpu::PatternOp::kMin)
AF_CPU_PATTERN_REDUCE(ReduceProd, af_cpu::PatternOp::kProd)
AF_CPU_PATTERN_REDUCE(ReduceAny, af_cpu::PatternOp::kAny)
AF_CPU_PATTERN_REDUCE(ReduceAll, af_cpu::PatternOp::kAll)

#undef AF_CPU_PATTERN_REDUCE

}  // namespace AscendC

AF_CPU_HIDDEN_END
