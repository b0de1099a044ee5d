// Gather (level 2, "the first count elements" form): dst[i] = the element of src at byte offset
// srcBaseAddr + srcOffset[i]. Generated kernels use it to remove the 32-byte row padding of a UB
// block (the unaligned template's RemovePad), with offsets computed once per kernel.
//
// Checked: dst, src and srcOffset bound and 32-byte aligned, count within dst and srcOffset, every
// offset element-aligned and inside src, and the documented element types of Atlas A2/A3
// (int16/uint16/int32/uint32/half/bfloat16/float).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/tensor.h"
#include "af_cpu/types.h"
#include "af_cpu/vec_common.h"

AF_CPU_HIDDEN_BEGIN

namespace AscendC {

template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
                              const uint32_t count) {
  static_assert(
      sizeof(T) == 2 || sizeof(T) == 4,
      "Gather takes 2- or 4-byte elements (int16/uint16/int32/uint32/half/bfloat16/float)");
  const char* api = "Gather";
  af_cpu::BlockCtx& c = af_cpu::Enter(api);
  if (count == 0) return;
  af_cpu::CheckVecOperand(api, "dst", dst, uint64_t{count} * sizeof(T));
  af_cpu::CheckVecOperand(api, "srcOffset", srcOffset, uint64_t{count} * sizeof(uint32_t));
  src.AfCheckRange(api, "src", 0, 0);
  src.AfCheckAligned(api, "src");
  af_cpu::CheckOverlap(api, "dst", dst, uint64_t{count} * sizeof(T), "src", src,
                       uint64_t{src.GetSize()} * sizeof(T), false);
  af_cpu::AddRepeats(c, api, uint64_t{count} * sizeof(T));
  const uint8_t* offsets = srcOffset.AfBytes();
  const uint64_t src_bytes = uint64_t{src.GetSize()} * sizeof(T);
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t off = uint64_t{srcBaseAddr} + af_cpu::Load<uint32_t>(offsets + i * 4u);
    if (off % sizeof(T) != 0 || off + sizeof(T) > src_bytes) {
      af_cpu::Fail(api, "srcOffset[" + std::to_string(i) + "] = byte " + std::to_string(off) +
                            (off % sizeof(T) != 0
                                 ? " is not element-aligned"
                                 : " is outside src (" + std::to_string(src_bytes) + " bytes)"));
    }
    af_cpu::Store<T>(dst.AfBytes() + uint64_t{i} * sizeof(T), af_cpu::Load<T>(src.AfBytes() + off));
  }
}

}  // namespace AscendC

AF_CPU_HIDDEN_END
