// Compare/Compares (bit-packed uint8 mask: element i -> byte i/8, bit i%8, LSB first; count must
// cover whole 256-byte repeats) and Select by such a mask (bit 1 takes src0, bit 0 takes src1).
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

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };

enum class SELMODE : uint8_t {
  VSEL_CMPMASK_SPR = 0,     // the first 256/sizeof(T) mask bits are reused for every repeat
  VSEL_TENSOR_SCALAR_MODE,  // src1 is a scalar; mask bits are consumed continuously
  VSEL_TENSOR_TENSOR_MODE,  // src1 is a tensor; mask bits are consumed continuously
};

}  // namespace AscendC

namespace af_cpu {

template <typename T>
inline bool CompareOne(AscendC::CMPMODE m, T a, T b) {
  if constexpr (kIsFloatLike<T>) {
    const float x = F(a);
    const float y = F(b);
    switch (m) {
      case AscendC::CMPMODE::LT:
        return x < y;
      case AscendC::CMPMODE::GT:
        return x > y;
      case AscendC::CMPMODE::EQ:
        return x == y;
      case AscendC::CMPMODE::LE:
        return x <= y;
      case AscendC::CMPMODE::GE:
        return x >= y;
      case AscendC::CMPMODE::NE:
        return x != y;
    }
  } else {
    switch (m) {
      case AscendC::CMPMODE::LT:
        return a < b;
      case AscendC::CMPMODE::GT:
        return a > b;
      case AscendC::CMPMODE::EQ:
        return a == b;
      case AscendC::CMPMODE::LE:
        return a <= b;
      case AscendC::CMPMODE::GE:
        return a >= b;
      case AscendC::CMPMODE::NE:
        return a != b;
    }
  }
  return false;
}

// Compare/Compares only compute whole 256-byte repeats: count must fill them exactly.
template <typename T>
inline void CheckCompareCount(const char* api, uint32_t count) {
  const uint64_t bytes = uint64_t{count} * sizeof(T);
  if (bytes % kRepeatBytes != 0) {
    std::ostringstream os;
    os << "count " << count << " x " << sizeof(T) << " bytes = " << bytes
       << " bytes is not a multiple of 256 (the tail would not be compared)";
    Fail(api, os.str());
  }
}

template <typename U, typename T, typename GetB>
inline void CompareLoop(const char* api, const AscendC::LocalTensor<U>& dst,
                        const AscendC::LocalTensor<T>& src0, AscendC::CMPMODE mode, uint32_t count,
                        GetB get_b) {
  static_assert(sizeof(U) == 1, "the Compare destination holds bits in int8_t/uint8_t elements");
  uint8_t* d = dst.AfBytes();
  std::memset(d, 0, count / 8);
  for (uint32_t i = 0; i < count; ++i) {
    const T a = Load<T>(src0.AfBytes() + uint64_t{i} * sizeof(T));
    if (CompareOne(mode, a, get_b(i))) d[i / 8] = static_cast<uint8_t>(d[i / 8] | (1u << (i % 8)));
  }
  (void)api;
}

inline bool MaskBit(const uint8_t* mask, uint64_t i) {
  return ((mask[i / 8] >> (i % 8)) & 1u) != 0;
}

template <typename T, typename U, typename GetB>
inline void SelectLoop(const char* api, const AscendC::LocalTensor<T>& dst,
                       const AscendC::LocalTensor<U>& sel, const AscendC::LocalTensor<T>& src0,
                       AscendC::SELMODE mode, uint32_t count, GetB get_b) {
  static_assert(std::is_unsigned_v<U>, "selMask elements are uint8_t/uint16_t/uint32_t/uint64_t");
  BlockCtx& c = Ctx(api);
  const uint64_t bytes = uint64_t{count} * sizeof(T);
  const uint64_t per_repeat = kRepeatBytes / sizeof(T);
  const uint64_t bits = mode == AscendC::SELMODE::VSEL_CMPMASK_SPR
                            ? (count < per_repeat ? count : per_repeat)
                            : uint64_t{count};
  CheckVecOperand(api, "dst", dst, bytes);
  CheckVecOperand(api, "selMask", sel, CeilDiv(bits, 8));
  CheckVecOperand(api, "src0", src0, bytes);
  CheckOverlap(api, "dst", dst, bytes, "src0", src0, bytes);
  CheckOverlap(api, "dst", dst, bytes, "selMask", sel, CeilDiv(bits, 8), false);
  AddRepeats(c, api, bytes);
  const uint8_t* m = sel.AfBytes();
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t bit = mode == AscendC::SELMODE::VSEL_CMPMASK_SPR ? i % per_repeat : i;
    const T v = MaskBit(m, bit) ? Load<T>(src0.AfBytes() + uint64_t{i} * sizeof(T)) : get_b(i);
    Store<T>(dst.AfBytes() + uint64_t{i} * sizeof(T), v);
  }
}

}  // namespace af_cpu

namespace AscendC {

template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                               const LocalTensor<T>& src1, CMPMODE cmpMode, uint32_t count) {
  const char* api = "Compare";
  af_cpu::BlockCtx& c = af_cpu::Enter(api);
  af_cpu::CheckCompareCount<T>(api, count);
  const uint64_t bytes = uint64_t{count} * sizeof(T);
  af_cpu::CheckVecOperand(api, "dst", dst, count / 8);
  af_cpu::CheckVecOperand(api, "src0", src0, bytes);
  af_cpu::CheckVecOperand(api, "src1", src1, bytes);
  af_cpu::CheckOverlap(api, "dst", dst, count / 8, "src0", src0, bytes, false);
  af_cpu::CheckOverlap(api, "dst", dst, count / 8, "src1", src1, bytes, false);
  af_cpu::AddRepeats(c, api, bytes);
  af_cpu::CompareLoop(api, dst, src0, cmpMode, count, [&src1](uint32_t i) {
    return af_cpu::Load<T>(src1.AfBytes() + uint64_t{i} * sizeof(T));
  });
}

template <typename T, typename U>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                                const T src1Scalar, CMPMODE cmpMode, uint32_t count) {
  const char* api = "Compares";
  af_cpu::BlockCtx& c = af_cpu::Enter(api);
  af_cpu::CheckCompareCount<T>(api, count);
  const uint64_t bytes = uint64_t{count} * sizeof(T);
  af_cpu::CheckVecOperand(api, "dst", dst, count / 8);
  af_cpu::CheckVecOperand(api, "src0", src0, bytes);
  af_cpu::CheckOverlap(api, "dst", dst, count / 8, "src0", src0, bytes, false);
  af_cpu::AddRepeats(c, api, bytes);
  const T b = src1Scalar;
  af_cpu::CompareLoop(api, dst, src0, cmpMode, count, [b](uint32_t) { return b; });
}

// Modes VSEL_CMPMASK_SPR and VSEL_TENSOR_TENSOR_MODE.
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
                              const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                              SELMODE selMode, uint32_t count) {
  const char* api = "Select";
  af_cpu::Enter(api);
  if (selMode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    af_cpu::Fail(api, "VSEL_TENSOR_SCALAR_MODE needs a scalar src1");
  }
  const uint64_t bytes = uint64_t{count} * sizeof(T);
  af_cpu::CheckVecOperand(api, "src1", src1, bytes);
  af_cpu::CheckOverlap(api, "dst", dst, bytes, "src1", src1, bytes);
  af_cpu::SelectLoop(api, dst, selMask, src0, selMode, count, [&src1](uint32_t i) {
    return af_cpu::Load<T>(src1.AfBytes() + uint64_t{i} * sizeof(T));
  });
}

// Mode VSEL_TENSOR_SCALAR_MODE.
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
                              const LocalTensor<T>& src0, T src1, SELMODE selMode, uint32_t count) {
  const char* api = "Select";
  af_cpu::Enter(api);
  if (selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    af_cpu::Fail(api, "a scalar src1 needs VSEL_TENSOR_SCALAR_MODE");
  }
  const T b = src1;
  af_cpu::SelectLoop(api, dst, selMask, src0, selMode, count, [b](uint32_t) { return b; });
}

}  // namespace AscendC

AF_CPU_HIDDEN_END
