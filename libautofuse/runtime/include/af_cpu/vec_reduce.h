// Reductions: ReduceSum/ReduceMax/ReduceMin over the first count elements (result in dst[0], the
// index of the extremum in dst[1] as raw integer bits when asked), and the per-repeat
// WholeReduceSum/WholeReduceMax/WholeReduceMin (and their newer name ReduceRepeat<ReduceType>) with
// a contiguous or bit-wise mask. Sums use a pairwise tree inside each 256-byte repeat and add the
// repeat results in order.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/tensor.h"
#include "af_cpu/types.h"
#include "af_cpu/vec_common.h"

AF_CPU_HIDDEN_BEGIN

namespace AscendC {

enum class ReduceType : uint8_t { SUM = 0, MAX, MIN };

enum class ReduceOrder : uint8_t {
  ORDER_VALUE_INDEX = 0,
  ORDER_INDEX_VALUE,
  ORDER_ONLY_VALUE,
  ORDER_ONLY_INDEX,
};

}  // namespace AscendC

namespace af_cpu {

template <typename T>
inline constexpr uint64_t kPerRepeat = kRepeatBytes / sizeof(T);

// Pairwise (binary tree) sum of up to one repeat of values, in float.
inline float TreeSum(float* v, uint64_t n, uint64_t width) {
  for (uint64_t i = n; i < width; ++i)
    v[i] = 0.0f;
  for (uint64_t w = width; w > 1; w /= 2) {
    for (uint64_t i = 0; i < w / 2; ++i)
      v[i] = v[2 * i] + v[2 * i + 1];
  }
  return v[0];
}

// Extremum search helper: is `x` a better candidate than `best` (NaN wins and propagates)?
inline bool Better(bool is_max, float x, float best) {
  if (std::isnan(best)) return false;
  if (std::isnan(x)) return true;
  return is_max ? x > best : x < best;
}

template <typename T>
inline void StoreIndex(uint8_t* p, uint64_t index, uint64_t width) {
  if (width == 2) {
    Store<uint16_t>(p, static_cast<uint16_t>(index));
  } else if (width == 4) {
    Store<uint32_t>(p, static_cast<uint32_t>(index));
  } else {
    Store<uint64_t>(p, index);
  }
}

template <typename T>
inline void CheckReduceOperands(const char* api, const AscendC::LocalTensor<T>& dst,
                                const AscendC::LocalTensor<T>& src,
                                const AscendC::LocalTensor<T>& tmp, uint64_t count,
                                uint64_t dst_elems) {
  CheckVecOperand(api, "src", src, count * sizeof(T));
  tmp.AfCheckRange(api, "sharedTmpBuffer", 0, 0);
  tmp.AfCheckAligned(api, "sharedTmpBuffer");
  dst.AfCheckRange(api, "dst", 0, dst_elems * sizeof(T));
  dst.AfCheckAligned(api, "dst", sizeof(T));
}

template <typename T>
inline void ReduceExtremum(const char* api, bool is_max, const AscendC::LocalTensor<T>& dst,
                           const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& tmp,
                           int32_t count, bool cal_index) {
  static_assert(kIsFloatLike<T>, "ReduceMax/ReduceMin are defined for half and float");
  BlockCtx& c = Enter(api);
  CheckCount(api, count);
  if (count == 0) return;
  const auto n = static_cast<uint64_t>(count);
  CheckReduceOperands(api, dst, src, tmp, n, cal_index ? 2 : 1);
  AddRepeats(c, api, n * sizeof(T));
  uint64_t best_i = 0;
  T best = Load<T>(src.AfBytes());
  for (uint64_t i = 1; i < n; ++i) {
    const T v = Load<T>(src.AfBytes() + i * sizeof(T));
    if (Better(is_max, F(v), F(best))) {
      best = v;
      best_i = i;
    }
  }
  Store<T>(dst.AfBytes(), best);
  if (cal_index) {
    if (sizeof(T) == 2 && best_i > 0xFFFF) {
      Fail(api, "index " + std::to_string(best_i) + " does not fit the 16-bit index of half");
    }
    StoreIndex<T>(dst.AfBytes() + sizeof(T), best_i, sizeof(T));
  }
}

// Active element test of one repeat: contiguous mask (count) or bit-wise mask[2].
struct RepeatMask {
  int64_t count = -1;              // >= 0: the first `count` elements
  const uint64_t* bits = nullptr;  // otherwise mask[i / 64] bit i % 64
  bool Active(uint64_t i) const {
    if (bits == nullptr) return static_cast<int64_t>(i) < count;
    return ((bits[i / 64] >> (i % 64)) & 1u) != 0;
  }
};

template <typename T>
inline uint64_t RepeatElemOffset(uint64_t r, uint64_t i, int32_t blk_stride, int32_t rep_stride) {
  const uint64_t per_block = kBlockBytes / sizeof(T);
  const uint64_t blocks =
      r * static_cast<uint64_t>(rep_stride) + (i / per_block) * static_cast<uint64_t>(blk_stride);
  return blocks * kBlockBytes + (i % per_block) * sizeof(T);
}

// kind: 0 sum, 1 max, 2 min.
template <typename T>
inline void WholeReduce(const char* api, int kind, const AscendC::LocalTensor<T>& dst,
                        const AscendC::LocalTensor<T>& src, RepeatMask mask, int32_t repeat,
                        int32_t dst_rep_stride, int32_t src_blk_stride, int32_t src_rep_stride,
                        AscendC::ReduceOrder order) {
  static_assert(kIsFloatLike<T>, "WholeReduce* are defined for half and float");
  BlockCtx& c = Enter(api);
  constexpr uint64_t per_repeat = kPerRepeat<T>;
  if (repeat < 0 || repeat > 255)
    Fail(api, "repeatTime " + std::to_string(repeat) + " is outside [0, 255]");
  if (dst_rep_stride < 0 || src_blk_stride < 0 || src_rep_stride < 0) Fail(api, "negative stride");
  if (mask.bits == nullptr && static_cast<uint64_t>(mask.count) > per_repeat) {
    Fail(api, "mask " + std::to_string(mask.count) + " exceeds " + std::to_string(per_repeat) +
                  " elements per repeat");
  }
  if (repeat == 0 || (mask.bits == nullptr && mask.count <= 0)) return;  // NOP
  src.AfCheckAligned(api, "src");
  // Destination layout per repeat: (value, index) pairs, single values or 32-bit indices.
  uint64_t unit = sizeof(T);
  uint64_t value_at = 0;
  int64_t index_at = -1;
  uint64_t index_width = sizeof(T);
  if (kind != 0) {
    switch (order) {
      case AscendC::ReduceOrder::ORDER_VALUE_INDEX:
        unit = 2 * sizeof(T);
        index_at = sizeof(T);
        break;
      case AscendC::ReduceOrder::ORDER_INDEX_VALUE:
        unit = 2 * sizeof(T);
        value_at = sizeof(T);
        index_at = 0;
        break;
      case AscendC::ReduceOrder::ORDER_ONLY_VALUE:
        break;
      case AscendC::ReduceOrder::ORDER_ONLY_INDEX:
        unit = 4;
        index_at = 0;
        index_width = 4;
        break;
    }
  }
  dst.AfCheckAligned(api, "dst", unit);
  const auto reps = static_cast<uint64_t>(repeat);
  dst.AfCheckRange(api, "dst", 0, (reps - 1) * static_cast<uint64_t>(dst_rep_stride) * unit + unit);
  AddRepeats(c, api, reps * kRepeatBytes);
  float vals[kRepeatBytes / 2];
  for (uint64_t r = 0; r < reps; ++r) {
    uint64_t n = 0;
    bool any = false;
    float best = 0.0f;
    uint64_t best_i = 0;
    for (uint64_t i = 0; i < per_repeat; ++i) {
      if (!mask.Active(i)) {
        vals[i] = 0.0f;
        continue;
      }
      const uint64_t off = RepeatElemOffset<T>(r, i, src_blk_stride, src_rep_stride);
      src.AfCheckRange(api, "src", off, sizeof(T));
      const float v = F(Load<T>(src.AfBytes() + off));
      vals[i] = v;
      n = i + 1;
      if (!any || Better(kind == 1, v, best)) {
        best = v;
        best_i = i;
        any = true;
      }
    }
    uint8_t* out = dst.AfBytes() + r * static_cast<uint64_t>(dst_rep_stride) * unit;
    if (kind == 0) {
      Store<T>(out, FromF<T>(n == 0 ? 0.0f : TreeSum(vals, n, per_repeat)));
      continue;
    }
    if (!any) continue;
    if (order != AscendC::ReduceOrder::ORDER_ONLY_INDEX) Store<T>(out + value_at, FromF<T>(best));
    if (index_at >= 0) StoreIndex<T>(out + index_at, best_i, index_width);
  }
}

}  // namespace af_cpu

namespace AscendC {

// dst[0] = sum of src[0, count).
template <typename T, bool isSetMask = true>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count) {
  static_assert(af_cpu::kIsFloatLike<T>, "ReduceSum is defined for half and float");
  const char* api = "ReduceSum";
  af_cpu::BlockCtx& c = af_cpu::Enter(api);
  af_cpu::CheckCount(api, count);
  if (count == 0) return;
  const auto n = static_cast<uint64_t>(count);
  af_cpu::CheckReduceOperands(api, dst, src, sharedTmpBuffer, n, 1);
  af_cpu::AddRepeats(c, api, n * sizeof(T));
  constexpr uint64_t per = af_cpu::kPerRepeat<T>;
  float vals[per];
  T acc = T(0);
  for (uint64_t base = 0; base < n; base += per) {
    const uint64_t m = n - base < per ? n - base : per;
    for (uint64_t i = 0; i < m; ++i) {
      vals[i] = af_cpu::F(af_cpu::Load<T>(src.AfBytes() + (base + i) * sizeof(T)));
    }
    const T part = af_cpu::FromF<T>(af_cpu::TreeSum(vals, m, per));
    acc = base == 0 ? part : af_cpu::FromF<T>(af_cpu::F(acc) + af_cpu::F(part));
  }
  af_cpu::Store<T>(dst.AfBytes(), acc);
}

// dst[0] = max of src[0, count); with calIndex, dst[1] holds the (first) index as integer bits.
template <typename T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count,
                                 bool calIndex = false) {
  af_cpu::ReduceExtremum("ReduceMax", true, dst, src, sharedTmpBuffer, count, calIndex);
}

template <typename T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count,
                                 bool calIndex = false) {
  af_cpu::ReduceExtremum("ReduceMin", false, dst, src, sharedTmpBuffer, count, calIndex);
}

template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                      const int32_t mask, const int32_t repeatTime,
                                      const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride) {
  af_cpu::RepeatMask m;
  m.count = mask;
  af_cpu::WholeReduce("WholeReduceSum", 0, dst, src, m, repeatTime, dstRepStride, srcBlkStride,
                      srcRepStride, ReduceOrder::ORDER_ONLY_VALUE);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                      const uint64_t mask[], const int32_t repeatTime,
                                      const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride) {
  af_cpu::RepeatMask m;
  m.bits = mask;
  af_cpu::WholeReduce("WholeReduceSum", 0, dst, src, m, repeatTime, dstRepStride, srcBlkStride,
                      srcRepStride, ReduceOrder::ORDER_ONLY_VALUE);
}

template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                      const int32_t mask, const int32_t repeatTime,
                                      const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride,
                                      ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  af_cpu::RepeatMask m;
  m.count = mask;
  af_cpu::WholeReduce("WholeReduceMax", 1, dst, src, m, repeatTime, dstRepStride, srcBlkStride,
                      srcRepStride, order);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                      const uint64_t mask[], const int32_t repeatTime,
                                      const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride,
                                      ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  af_cpu::RepeatMask m;
  m.bits = mask;
  af_cpu::WholeReduce("WholeReduceMax", 1, dst, src, m, repeatTime, dstRepStride, srcBlkStride,
                      srcRepStride, order);
}

template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                      const int32_t mask, const int32_t repeatTime,
                                      const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride,
                                      ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  af_cpu::RepeatMask m;
  m.count = mask;
  af_cpu::WholeReduce("WholeReduceMin", 2, dst, src, m, repeatTime, dstRepStride, srcBlkStride,
                      srcRepStride, order);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                      const uint64_t mask[], const int32_t repeatTime,
                                      const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride,
                                      ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  af_cpu::RepeatMask m;
  m.bits = mask;
  af_cpu::WholeReduce("WholeReduceMin", 2, dst, src, m, repeatTime, dstRepStride, srcBlkStride,
                      srcRepStride, order);
}

// The newer name of WholeReduceSum/Max/Min.
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                                    const int32_t mask, const int32_t repeatTime,
                                    const int32_t dstRepStride, const int32_t srcBlkStride,
                                    const int32_t srcRepStride,
                                    ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  static_assert(std::is_same_v<T, U>, "ReduceRepeat needs equal source and destination types");
  af_cpu::RepeatMask m;
  m.count = mask;
  af_cpu::WholeReduce("ReduceRepeat", static_cast<int>(reduceType), dst, src, m, repeatTime,
                      dstRepStride, srcBlkStride, srcRepStride, order);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                                    const uint64_t mask[], const int32_t repeatTime,
                                    const int32_t dstRepStride, const int32_t srcBlkStride,
                                    const int32_t srcRepStride,
                                    ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  static_assert(std::is_same_v<T, U>, "ReduceRepeat needs equal source and destination types");
  af_cpu::RepeatMask m;
  m.bits = mask;
  af_cpu::WholeReduce("ReduceRepeat", static_cast<int>(reduceType), dst, src, m, repeatTime,
                      dstRepStride, srcBlkStride, srcRepStride, order);
}

}  // namespace AscendC

AF_CPU_HIDDEN_END
