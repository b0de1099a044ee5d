// Data movement between Global Memory and the Unified Buffer: DataCopy (32-byte granular, strides
// in DataBlocks on both sides), DataCopyPad (byte-granular rows: GM strides in bytes, UB strides in
// DataBlocks, every UB row padded to 32 bytes) and the atomic-accumulate modes of UB -> GM copies.
#pragma once

#include <cstdint>
#include <cstring>
#include <mutex>
#include <sstream>
#include <string>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/tensor.h"
#include "af_cpu/types.h"

AF_CPU_HIDDEN_BEGIN

namespace AscendC {

// DataCopy: blockLen, srcStride and dstStride in DataBlocks (32 bytes).
// DataCopyPad: blockLen in bytes; strides in bytes on the GM side, DataBlocks on the UB side.
struct DataCopyParams {
  DataCopyParams() = default;
  DataCopyParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn,
                 const uint16_t dstStrideIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  uint16_t srcStride = 0;
  uint16_t dstStride = 0;
};

// The strides are int64_t on the 950 and uint32_t before it (CANN's kernel_struct_data_copy.h).
#if __NPU_ARCH__ == 3510
using AfExtStride = int64_t;
#else
using AfExtStride = uint32_t;
#endif
struct DataCopyExtParams {
  DataCopyExtParams() = default;
  DataCopyExtParams(const uint16_t count, const uint32_t len, const AfExtStride srcStrideIn,
                    const AfExtStride dstStrideIn, const uint32_t rsvIn)
      : blockCount(count),
        blockLen(len),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        rsv(rsvIn) {}
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  AfExtStride srcStride = 0;
  AfExtStride dstStride = 0;
  uint32_t rsv = 0;
};

// leftPadding/rightPadding are element counts (at most 32 bytes each).
template <typename T>
struct DataCopyPadExtParams {
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(const bool isPadIn, const uint8_t leftPadIn, const uint8_t rightPadIn,
                       T padValue)
      : isPad(isPadIn), leftPadding(leftPadIn), rightPadding(rightPadIn), paddingValue(padValue) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = T(0);
};

struct DataCopyPadParams {
  DataCopyPadParams() = default;
  DataCopyPadParams(const bool isPadIn, const uint8_t leftPadIn, const uint8_t rightPadIn,
                    const uint64_t padValue)
      : isPad(isPadIn), leftPadding(leftPadIn), rightPadding(rightPadIn), paddingValue(padValue) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  uint64_t paddingValue = 0;
};

#if __NPU_ARCH__ == 3510
enum class PaddingMode : uint8_t { Normal = 0, Compact };
// DataCopyPad's template head: the 950 adds a PaddingMode (CANN's
// kernel_operator_data_copy_intf.h).
#define AF_CPU_PAD_TEMPLATE template <typename T, PaddingMode mode = PaddingMode::Normal>
#define AF_CPU_PAD_COMPACT_CHECK()                                       \
  if constexpr (mode != PaddingMode::Normal) {                           \
    af_cpu::Fail("DataCopyPad", "PaddingMode::Compact is not modelled"); \
  }
#else
#define AF_CPU_PAD_TEMPLATE template <typename T>
#define AF_CPU_PAD_COMPACT_CHECK()
#endif

}  // namespace AscendC

namespace af_cpu {

template <typename T>
inline void CheckGmAligned(const char* api, const char* operand, const T* p) {
  if (reinterpret_cast<uintptr_t>(p) % sizeof(T) != 0) {
    std::ostringstream os;
    os << operand << " GM address " << static_cast<const void*>(p) << " is not aligned to "
       << sizeof(T) << " bytes";
    Fail(api, os.str());
  }
}

inline void CheckBlockCount(const char* api, uint32_t n) {
  if (n < 1 || n > 4095) {
    Fail(api, "blockCount " + std::to_string(n) + " is outside [1, 4095]");
  }
}

// Writes `bytes` bytes of T elements from UB to GM, honouring SetAtomicAdd/Max/Min.
template <typename T>
inline void WriteGm(BlockCtx& c, uint8_t* gm, const uint8_t* ub, uint64_t bytes) {
  if (c.atomic == AtomicMode::kNone) {
    std::memcpy(gm, ub, bytes);
    return;
  }
  std::lock_guard<std::mutex> lk(c.launch->atomic_mu);
  for (uint64_t off = 0; off + sizeof(T) <= bytes; off += sizeof(T)) {
    T a;
    T b;
    std::memcpy(&a, gm + off, sizeof(T));
    std::memcpy(&b, ub + off, sizeof(T));
    T r = a;
    if constexpr (kIsFloatLike<T>) {
      const float fa = static_cast<float>(a);
      const float fb = static_cast<float>(b);
      if (c.atomic == AtomicMode::kAdd) r = static_cast<T>(fa + fb);
      if (c.atomic == AtomicMode::kMax) r = fb > fa ? b : a;
      if (c.atomic == AtomicMode::kMin) r = fb < fa ? b : a;
    } else {
      if (c.atomic == AtomicMode::kAdd) {
        r = static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
      }
      if (c.atomic == AtomicMode::kMax) r = b > a ? b : a;
      if (c.atomic == AtomicMode::kMin) r = b < a ? b : a;
    }
    std::memcpy(gm + off, &r, sizeof(T));
  }
}

// Rows of `row` bytes; `src_pitch`/`dst_pitch` are the distances between row starts.
template <typename T>
inline void CopyGmToUbRows(const char* api, const AscendC::LocalTensor<T>& dst, const T* src,
                           uint32_t rows, uint64_t row, uint64_t src_pitch, uint64_t dst_pitch) {
  BlockCtx& c = Ctx(api);
  dst.AfCheckRange(api, "dst", 0, (rows - 1) * dst_pitch + row);
  const auto* s = reinterpret_cast<const uint8_t*>(src);
  for (uint32_t r = 0; r < rows; ++r) {
    CheckGm(api, "src", s + r * src_pitch, row, false);
    std::memcpy(dst.AfBytes() + r * dst_pitch, s + r * src_pitch, row);
  }
  c.counters.mte2_bytes += uint64_t{rows} * row;
}

template <typename T>
inline void CopyUbToGmRows(const char* api, T* dst, const AscendC::LocalTensor<T>& src,
                           uint32_t rows, uint64_t row, uint64_t src_pitch, uint64_t dst_pitch) {
  BlockCtx& c = Ctx(api);
  src.AfCheckRange(api, "src", 0, (rows - 1) * src_pitch + row);
  auto* d = reinterpret_cast<uint8_t*>(dst);
  for (uint32_t r = 0; r < rows; ++r) {
    CheckGm(api, "dst", d + r * dst_pitch, row, true);
    WriteGm<T>(c, d + r * dst_pitch, src.AfBytes() + r * src_pitch, row);
  }
  c.counters.mte3_bytes += uint64_t{rows} * row;
}

template <typename T>
inline void CheckCopyCount(const char* api, uint32_t count) {
  const uint64_t bytes = uint64_t{count} * sizeof(T);
  if (bytes % kBlockBytes != 0) {
    std::ostringstream os;
    os << "count " << count << " x " << sizeof(T) << " bytes = " << bytes
       << " bytes is not a multiple of 32 (use DataCopyPad for unaligned lengths)";
    Fail(api, os.str());
  }
}

inline void CheckCopyParams(const char* api, const AscendC::DataCopyParams& p) {
  CheckBlockCount(api, p.blockCount);
  if (p.blockLen == 0) Fail(api, "blockLen must be at least 1 DataBlock");
}

template <typename T>
inline void CheckPadLen(const char* api, uint64_t block_len) {
  if (block_len == 0) Fail(api, "blockLen must be at least 1 byte");
  if (block_len % sizeof(T) != 0) {
    std::ostringstream os;
    os << "blockLen " << block_len << " bytes is not a multiple of sizeof(T) = " << sizeof(T);
    Fail(api, os.str());
  }
}

// GM -> UB DataCopyPad in Normal mode: each UB row is [left pad][data][right pad][dummy] padded to
// 32 bytes; rows are dstStride DataBlocks apart beyond that.
template <typename T>
inline void PadGmToUb(const char* api, const AscendC::LocalTensor<T>& dst, const T* src,
                      uint32_t count, uint64_t len, uint64_t src_stride, uint64_t dst_stride,
                      bool is_pad, uint32_t left, uint32_t right, T pad_value) {
  BlockCtx& c = Enter(api);
  CheckBlockCount(api, count);
  CheckPadLen<T>(api, len);
  dst.AfCheckAligned(api, "dst");
  const uint64_t lp = uint64_t{left} * sizeof(T);
  const uint64_t rp = uint64_t{right} * sizeof(T);
  if (lp > kBlockBytes || rp > kBlockBytes) {
    std::ostringstream os;
    os << "leftPadding " << left << " / rightPadding " << right << " elements exceed 32 bytes";
    Fail(api, os.str());
  }
  const uint64_t row = lp + len + rp;
  const uint64_t row_al = AlignUp(row, kBlockBytes);
  const uint64_t pitch = row_al + dst_stride * kBlockBytes;
  dst.AfCheckRange(api, "dst", 0, (count - 1) * pitch + row_al);
  const auto* s = reinterpret_cast<const uint8_t*>(src);
  auto fill = [&](uint8_t* p, uint64_t bytes, const T* value) {
    if (value == nullptr) {
      std::memset(p, kUbPoison, bytes);
      return;
    }
    for (uint64_t off = 0; off + sizeof(T) <= bytes; off += sizeof(T)) {
      std::memcpy(p + off, value, sizeof(T));
    }
  };
  for (uint32_t r = 0; r < count; ++r) {
    const uint8_t* g = s + r * (len + src_stride);
    CheckGm(api, "src", g, len, false);
    uint8_t* u = dst.AfBytes() + r * pitch;
    std::memcpy(u + lp, g, len);
    const T* pad = is_pad ? &pad_value : nullptr;
    fill(u, lp, pad);
    fill(u + lp + len, rp, pad);
    if (row_al > row) {
      T first;
      std::memcpy(&first, g, sizeof(T));
      // Without padding the dummy repeats the row's first element; otherwise it is padding.
      fill(u + row, row_al - row, (left == 0 && right == 0) ? &first : pad);
    }
  }
  c.counters.mte2_bytes += uint64_t{count} * len;
}

// UB -> GM DataCopyPad: each UB row starts on a 32-byte boundary (its tail up to the boundary is
// skipped), srcStride DataBlocks apart beyond that; GM rows are dstStride bytes apart.
template <typename T>
inline void PadUbToGm(const char* api, T* dst, const AscendC::LocalTensor<T>& src, uint32_t count,
                      uint64_t len, uint64_t src_stride, uint64_t dst_stride) {
  Enter(api);
  CheckBlockCount(api, count);
  CheckPadLen<T>(api, len);
  src.AfCheckAligned(api, "src");
  CopyUbToGmRows(api, dst, src, count, len, AlignUp(len, kBlockBytes) + src_stride * kBlockBytes,
                 len + dst_stride);
}

}  // namespace af_cpu

namespace AscendC {

// ---- DataCopy: lengths and strides in whole DataBlocks ----

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                const uint32_t count) {
  const char* api = "DataCopy";
  af_cpu::Enter(api);
  af_cpu::CheckCopyCount<T>(api, count);
  dst.AfCheckAligned(api, "dst");
  af_cpu::CheckGmAligned(api, "src", src.AfHostPtr());
  if (count == 0) return;
  af_cpu::CopyGmToUbRows(api, dst, src.AfHostPtr(), 1, uint64_t{count} * sizeof(T), 0, 0);
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                const uint32_t count) {
  const char* api = "DataCopy";
  af_cpu::Enter(api);
  af_cpu::CheckCopyCount<T>(api, count);
  src.AfCheckAligned(api, "src");
  af_cpu::CheckGmAligned(api, "dst", dst.AfHostPtr());
  if (count == 0) return;
  af_cpu::CopyUbToGmRows(api, dst.AfHostPtr(), src, 1, uint64_t{count} * sizeof(T), 0, 0);
}

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const uint32_t count) {
  const char* api = "DataCopy";
  af_cpu::Enter(api);
  af_cpu::CheckCopyCount<T>(api, count);
  dst.AfCheckAligned(api, "dst");
  src.AfCheckAligned(api, "src");
  const uint64_t bytes = uint64_t{count} * sizeof(T);
  dst.AfCheckRange(api, "dst", 0, bytes);
  src.AfCheckRange(api, "src", 0, bytes);
  if (bytes != 0) std::memmove(dst.AfBytes(), src.AfBytes(), bytes);
}

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                const DataCopyParams& p) {
  const char* api = "DataCopy";
  af_cpu::Enter(api);
  af_cpu::CheckCopyParams(api, p);
  dst.AfCheckAligned(api, "dst");
  af_cpu::CheckGmAligned(api, "src", src.AfHostPtr());
  const uint64_t row = uint64_t{p.blockLen} * af_cpu::kBlockBytes;
  af_cpu::CopyGmToUbRows(api, dst, src.AfHostPtr(), p.blockCount, row,
                         row + uint64_t{p.srcStride} * af_cpu::kBlockBytes,
                         row + uint64_t{p.dstStride} * af_cpu::kBlockBytes);
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                const DataCopyParams& p) {
  const char* api = "DataCopy";
  af_cpu::Enter(api);
  af_cpu::CheckCopyParams(api, p);
  src.AfCheckAligned(api, "src");
  af_cpu::CheckGmAligned(api, "dst", dst.AfHostPtr());
  const uint64_t row = uint64_t{p.blockLen} * af_cpu::kBlockBytes;
  af_cpu::CopyUbToGmRows(api, dst.AfHostPtr(), src, p.blockCount, row,
                         row + uint64_t{p.srcStride} * af_cpu::kBlockBytes,
                         row + uint64_t{p.dstStride} * af_cpu::kBlockBytes);
}

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const DataCopyParams& p) {
  const char* api = "DataCopy";
  af_cpu::Enter(api);
  af_cpu::CheckCopyParams(api, p);
  dst.AfCheckAligned(api, "dst");
  src.AfCheckAligned(api, "src");
  const uint64_t row = uint64_t{p.blockLen} * af_cpu::kBlockBytes;
  const uint64_t sp = row + uint64_t{p.srcStride} * af_cpu::kBlockBytes;
  const uint64_t dp = row + uint64_t{p.dstStride} * af_cpu::kBlockBytes;
  dst.AfCheckRange(api, "dst", 0, (p.blockCount - 1u) * dp + row);
  src.AfCheckRange(api, "src", 0, (p.blockCount - 1u) * sp + row);
  for (uint32_t r = 0; r < p.blockCount; ++r) {
    std::memmove(dst.AfBytes() + r * dp, src.AfBytes() + r * sp, row);
  }
}

// ---- DataCopyPad: byte-granular rows ----

AF_CPU_PAD_TEMPLATE
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                   const DataCopyExtParams& p, const DataCopyPadExtParams<T>& pad) {
  AF_CPU_PAD_COMPACT_CHECK()
  af_cpu::PadGmToUb("DataCopyPad", dst, src.AfHostPtr(), p.blockCount, p.blockLen, p.srcStride,
                    p.dstStride, pad.isPad, pad.leftPadding, pad.rightPadding, pad.paddingValue);
}

AF_CPU_PAD_TEMPLATE
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                   const DataCopyExtParams& p) {
  AF_CPU_PAD_COMPACT_CHECK()
  af_cpu::PadUbToGm("DataCopyPad", dst.AfHostPtr(), src, p.blockCount, p.blockLen, p.srcStride,
                    p.dstStride);
}

AF_CPU_PAD_TEMPLATE
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                   const DataCopyParams& p, const DataCopyPadParams& pad) {
  AF_CPU_PAD_COMPACT_CHECK()
  if (pad.paddingValue != 0) {
    af_cpu::Fail("DataCopyPad",
                 "DataCopyPadParams::paddingValue must be 0 (use DataCopyPadExtParams)");
  }
  af_cpu::PadGmToUb("DataCopyPad", dst, src.AfHostPtr(), p.blockCount, p.blockLen, p.srcStride,
                    p.dstStride, pad.isPad, pad.leftPadding, pad.rightPadding, T(0));
}

AF_CPU_PAD_TEMPLATE
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                   const DataCopyParams& p) {
  AF_CPU_PAD_COMPACT_CHECK()
  af_cpu::PadUbToGm("DataCopyPad", dst.AfHostPtr(), src, p.blockCount, p.blockLen, p.srcStride,
                    p.dstStride);
}

// ---- Atomic accumulation of UB -> GM copies ----

template <typename T>
__aicore__ inline void SetAtomicAdd() {
  af_cpu::Enter("SetAtomicAdd").atomic = af_cpu::AtomicMode::kAdd;
}
template <typename T>
__aicore__ inline void SetAtomicMax() {
  af_cpu::Enter("SetAtomicMax").atomic = af_cpu::AtomicMode::kMax;
}
template <typename T>
__aicore__ inline void SetAtomicMin() {
  af_cpu::Enter("SetAtomicMin").atomic = af_cpu::AtomicMode::kMin;
}
__aicore__ inline void SetAtomicNone() {
  af_cpu::Enter("SetAtomicNone").atomic = af_cpu::AtomicMode::kNone;
}

}  // namespace AscendC

AF_CPU_HIDDEN_END
