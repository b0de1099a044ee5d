// The cube side of the AI Core: L1 (A1/B1/C1), L0A (A2), L0B (B2) and L0C (CO1) buffers with their
// capacities, and the four steps of a matrix product in CANN's basic API (910B / dav-2201 forms,
// include/basic_api/kernel_struct_{mm,data_copy,fixpipe}.h of asc-devkit):
//   DataCopy(L1 tensor, GlobalTensor, Nd2NzParams)          GM -> L1, ND rows into Nz blocks (MTE2)
//   LoadData(L0A/L0B tensor, L1 tensor, LoadData2DParams)   L1 -> L0A/L0B, 512-byte fractals (MTE1)
//   Mmad(L0C tensor, L0A tensor, L0B tensor, MmadParams)    the cube (M pipe), fp32 accumulation
//   Fixpipe(GlobalTensor, L0C tensor, FixpipeParamsV220)    L0C -> GM, Nz to ND, cast, ReLU (FIX)
// Layouts (C0 = 32 bytes of the element type, 16 fp16/bf16 or 8 fp32; a fractal is 16 rows of C0):
//   L1 Nz      row r, column block c of an ND matrix at c * dstNzC0Stride * C0 + r * dstNzNStride
//              * C0 elements (the columns past dValue in the last block are left as they were);
//   L0A Zz     A[m][k] in fractal (m / 16, k / C0), fractals row-major over ceil(k / C0) columns,
//              each fractal row-major (16 m x C0 k);
//   L0B Zn     B[k][n] in fractal (k / C0, n / 16), fractals row-major over ceil(n / 16) columns,
//              each fractal row-major over n (16 n x C0 k): what LoadData's ifTranspose makes of
//              an Nz block of B, or what an Nz block of a transposed B already is;
//   L0C Nz     C[m][n] fp32 in 16 x 16 fractals, column blocks of n, each ceil(m / 16) * 16 rows:
//              ((n / 16) * Mb + m / 16) * 256 + (m % 16) * 16 + n % 16 with Mb = ceil(m / 16); a
//              Fixpipe reads column block j at j * srcStride * 16 elements.
// Mmad reads exactly m x k of L0A and k x n of L0B: the padding of a partial fractal never enters
// a result. Counted per block: MTE2 bytes (GM -> L1, into mte2_bytes as DataCopy does), MTE1 bytes
// (512 per fractal), cube fractal steps (ceil(m/16) * ceil(n/16) * ceil(k/C0) per Mmad) and FIX
// bytes written to GM; the per-API counts carry them out of the launch (LoadData, Mmad, Fixpipe
// repeats). Not modelled (a violation says so): the bias table (C2, cmatrixSource), L0C -> L1/UB,
// Nz output layout, quantisation other than the fp32 -> fp16/bf16 casts, int8 operands,
// LoadData's decrementing addrMode, the 950's LoadData2DParamsV2.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/tensor.h"
#include "af_cpu/types.h"

AF_CPU_HIDDEN_BEGIN

// CCE's quantisation modes of the fixpipe: a global enum, declared at global scope as CANN's own
// kernel headers declare it.
enum QuantMode_t : uint8_t {
  NoQuant,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8_PRE,
  VQF322B8_PRE,
  REQ8,
  VREQ8,
};

namespace af_cpu {

// Cube memories per AI Core. Atlas A2 (910B): L1 512 KB, L0A 64 KB, L0B 64 KB, L0C 128 KB
// (anchors.md D.1, catlass arch.hpp). Ascend 950: L0C 256 KB (anchors.md D.4, ops-nn#6033); its
// L1/L0A/L0B are taken as the A2's (assumption: no public figure in the reference notes).
enum class CubeMem : uint8_t { kL1 = 0, kL0A, kL0B, kL0C };
inline constexpr uint64_t kL1Bytes = uint64_t{512} * 1024;
inline constexpr uint64_t kL0ABytes = uint64_t{64} * 1024;
inline constexpr uint64_t kL0BBytes = uint64_t{64} * 1024;
#if __NPU_ARCH__ == 3510
inline constexpr uint64_t kL0CBytes = uint64_t{256} * 1024;
#else
inline constexpr uint64_t kL0CBytes = uint64_t{128} * 1024;
#endif
inline constexpr uint64_t kFractalBytes = 512;  // LoadData2DParams' unit (kernel_struct_mm.h)
inline constexpr uint32_t kCubeRows = 16;       // rows of a fractal; L0C fractals are 16 x 16

inline uint64_t CubeMemBytes(CubeMem m) {
  switch (m) {
    case CubeMem::kL1:
      return kL1Bytes;
    case CubeMem::kL0A:
      return kL0ABytes;
    case CubeMem::kL0B:
      return kL0BBytes;
    case CubeMem::kL0C:
      return kL0CBytes;
  }
  return 0;
}
inline const char* CubeMemName(CubeMem m) {
  switch (m) {
    case CubeMem::kL1:
      return "L1";
    case CubeMem::kL0A:
      return "L0A";
    case CubeMem::kL0B:
      return "L0B";
    case CubeMem::kL0C:
      return "L0C";
  }
  return "?";
}
// Buffer alignment: 32 bytes in L1 (one DataBlock), one fractal in L0A/L0B (512 bytes) and L0C
// (16 x 16 fp32 = 1024 bytes). The L0 figures follow the fractal units of LoadData/Mmad
// (modelled; the exact hardware rule is not in the reference notes).
inline uint64_t CubeMemAlign(CubeMem m) {
  return m == CubeMem::kL1 ? kBlockBytes : m == CubeMem::kL0C ? 1024 : kFractalBytes;
}

// The cube memory behind a position; false for the Unified Buffer and GM positions.
inline bool CubeMemOf(AscendC::TPosition p, CubeMem* m) {
  using P = AscendC::TPosition;
  switch (p) {
    case P::A1:
    case P::B1:
    case P::C1:
      *m = CubeMem::kL1;
      return true;
    case P::A2:
      *m = CubeMem::kL0A;
      return true;
    case P::B2:
      *m = CubeMem::kL0B;
      return true;
    case P::CO1:
      *m = CubeMem::kL0C;
      return true;
    default:
      return false;
  }
}

AF_CPU_RT CubeArena& Arena(BlockCtx& c, CubeMem m);

// Reserves `num` buffers of `len` bytes in the cube memory of `pos`; returns the slot offset and
// sets the memory's base pointer.
AF_CPU_RT uint64_t CarveCube(const char* api, AscendC::TPosition pos, uint32_t num, uint32_t len,
                             uint64_t* slot_len, uint8_t** base);

template <typename T>
void RequireMem(const char* api, const char* operand, const AscendC::LocalTensor<T>& t,
                std::initializer_list<CubeMem> allowed) {
  CubeMem m = CubeMem::kL1;
  const bool cube = CubeMemOf(t.GetPosition(), &m);
  for (CubeMem a : allowed) {
    if (cube && a == m) return;
  }
  std::string want;
  for (CubeMem a : allowed)
    want += std::string(want.empty() ? "" : " or ") + CubeMemName(a);
  Fail(api, std::string(operand) + " is in " + (cube ? CubeMemName(m) : "the Unified Buffer") +
                "; this API takes it in " + want);
}

template <typename T>
void RequireAligned(const char* api, const char* operand, const AscendC::LocalTensor<T>& t,
                    uint64_t align) {
  if (t.AfAddr() % align != 0) {
    std::ostringstream os;
    os << operand << " starts at byte " << t.AfAddr() << " of its memory, not " << align
       << "-byte aligned";
    Fail(api, os.str());
  }
}

template <typename T>
inline constexpr bool kCubeInput =
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float>;

}  // namespace af_cpu

namespace AscendC {

// GM -> L1 with the ND -> Nz conversion (dav-2201 field types).
struct Nd2NzParams {
  Nd2NzParams() = default;
  Nd2NzParams(const uint16_t ndNumIn, const uint16_t nValueIn, const uint16_t dValueIn,
              const uint16_t srcNdMatrixStrideIn, const uint16_t srcDValueIn,
              const uint16_t dstNzC0StrideIn, const uint16_t dstNzNStrideIn,
              const uint16_t dstNzMatrixStrideIn)
      : ndNum(ndNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcNdMatrixStride(srcNdMatrixStrideIn),
        srcDValue(srcDValueIn),
        dstNzC0Stride(dstNzC0StrideIn),
        dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}
  uint16_t ndNum = 0;
  uint16_t nValue = 0;
  uint16_t dValue = 0;
  uint16_t srcNdMatrixStride = 0;
  uint16_t srcDValue = 0;
  uint16_t dstNzC0Stride = 0;
  uint16_t dstNzNStride = 0;
  uint16_t dstNzMatrixStride = 0;
};

// L1 -> L0A/L0B in 512-byte fractals (the constructor's argument order is CANN's).
struct LoadData2DParams {
  LoadData2DParams() = default;
  LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn,
                   const uint16_t srcStrideIn, const uint8_t sidIn, const uint16_t dstGapIn,
                   const bool ifTransposeIn, const uint8_t addrModeIn)
      : startIndex(startIndexIn),
        dstGap(dstGapIn),
        srcStride(srcStrideIn),
        ifTranspose(ifTransposeIn),
        repeatTimes(repeatTimesIn),
        sid(sidIn),
        addrMode(addrModeIn) {}
  uint16_t startIndex = 0;
  uint16_t dstGap = 0;
  uint16_t srcStride = 0;
  bool ifTranspose = false;
  uint8_t repeatTimes = 0;
  uint8_t sid = 0;
  uint8_t addrMode = 0;
};
using LoadData2dParams = LoadData2DParams;

struct MmadParams {
  MmadParams() = default;
  MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const uint8_t unitFlagIn,
             const bool cmatrixSourceIn, const bool cmatrixInitValIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        unitFlag(unitFlagIn),
        cmatrixSource(cmatrixSourceIn),
        cmatrixInitVal(cmatrixInitValIn) {}
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;  // true: initial C from the bias table (not modelled)
  bool cmatrixInitVal = true;  // true: C starts at 0, false: accumulate onto L0C
};

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
  CO2Layout format;
  constexpr explicit FixpipeConfig(CO2Layout f) : format(f) {}
};
inline constexpr FixpipeConfig CFG_NZ{CO2Layout::NZ};
inline constexpr FixpipeConfig CFG_ROW_MAJOR{CO2Layout::ROW_MAJOR};
inline constexpr FixpipeConfig CFG_COLUMN_MAJOR{CO2Layout::COLUMN_MAJOR};

struct FixpipeParamsV220 {
  FixpipeParamsV220() = default;
  FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                    const uint32_t dstStrideIn, const bool reluEnIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        reluEn(reluEnIn) {}
  FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                    const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                    const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                    const uint16_t dstNdStrideIn, const uint8_t unitFlagIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        quantPre(quantPreIn),
        deqScalar(static_cast<uint64_t>(deqScalarIn)),
        ndNum(ndNumIn),
        srcNdStride(srcNdStrideIn),
        dstNdStride(dstNdStrideIn),
        reluEn(reluEnIn),
        unitFlag(unitFlagIn) {}
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;  // distance between column blocks of L0C, in 16-element fractal rows
  uint32_t dstStride = 0;  // GM row pitch in elements
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                const Nd2NzParams& p) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Nd2Nz copies 16- or 32-bit elements");
  const char* api = "DataCopy(Nd2Nz)";
  af_cpu::BlockCtx& c = af_cpu::Enter(api);
  af_cpu::RequireMem(api, "dst", dst, {af_cpu::CubeMem::kL1});
  af_cpu::RequireAligned(api, "dst", dst, af_cpu::kBlockBytes);
  if (p.dstNzNStride == 0 || p.dstNzC0Stride == 0) {
    af_cpu::Fail(api, "dstNzNStride and dstNzC0Stride must be at least 1");
  }
  const uint64_t c0 = af_cpu::kBlockBytes / sizeof(T);
  const uint64_t blocks = af_cpu::CeilDiv(p.dValue, c0);
  for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
    for (uint32_t r = 0; r < p.nValue; ++r) {
      const T* row =
          src.AfHostPtr() + uint64_t{nd} * p.srcNdMatrixStride + uint64_t{r} * p.srcDValue;
      af_cpu::CheckGm(api, "src", row, uint64_t{p.dValue} * sizeof(T), false);
      for (uint64_t b = 0; b < blocks; ++b) {
        const uint64_t elems = std::min<uint64_t>(c0, p.dValue - b * c0);
        const uint64_t at = uint64_t{nd} * p.dstNzMatrixStride + b * p.dstNzC0Stride * c0 +
                            uint64_t{r} * p.dstNzNStride * c0;
        dst.AfCheckRange(api, "dst", at * sizeof(T), elems * sizeof(T));
        std::memcpy(dst.AfBytes() + at * sizeof(T), row + b * c0, elems * sizeof(T));
      }
    }
  }
  c.counters.mte2_bytes += uint64_t{p.ndNum} * p.nValue * p.dValue * sizeof(T);
}

template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LoadData2DParams& p) {
  const char* api = "LoadData";
  af_cpu::BlockCtx& c = af_cpu::Enter(api);
  af_cpu::RequireMem(api, "src", src, {af_cpu::CubeMem::kL1});
  af_cpu::RequireMem(api, "dst", dst, {af_cpu::CubeMem::kL0A, af_cpu::CubeMem::kL0B});
  af_cpu::RequireAligned(api, "dst", dst, af_cpu::kFractalBytes);
  af_cpu::RequireAligned(api, "src", src, af_cpu::kBlockBytes);
  if (p.repeatTimes == 0) af_cpu::Fail(api, "repeatTimes must be at least 1");
  if (p.addrMode != 0) af_cpu::Fail(api, "addrMode 1 (decrementing addresses) is not modelled");
  if (p.ifTranspose && sizeof(T) != 2) {
    af_cpu::Fail(api, "ifTranspose transposes 16 x 16 fractals of 16-bit elements only");
  }
  constexpr uint64_t kF = af_cpu::kFractalBytes;
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const uint64_t s = (uint64_t{p.startIndex} + uint64_t{i} * p.srcStride) * kF;
    const uint64_t d = uint64_t{i} * (1 + uint64_t{p.dstGap}) * kF;
    src.AfCheckRange(api, "src", s, kF);
    dst.AfCheckRange(api, "dst", d, kF);
    uint8_t* out = dst.AfBytes() + d;
    const uint8_t* in = src.AfBytes() + s;
    if (!p.ifTranspose) {
      std::memmove(out, in, kF);
      continue;
    }
    uint8_t tmp[kF];
    for (uint64_t r = 0; r < 16; ++r) {
      for (uint64_t q = 0; q < 16; ++q)
        std::memcpy(tmp + (q * 16 + r) * 2, in + (r * 16 + q) * 2, 2);
    }
    std::memcpy(out, tmp, kF);
  }
  c.counters.mte1_bytes += uint64_t{p.repeatTimes} * kF;
  c.counters.Api(api).repeats += p.repeatTimes;
}

template <typename T, typename U, typename S>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm,
                            const LocalTensor<S>& filter, const MmadParams& p) {
  static_assert(std::is_same_v<T, float>, "Mmad accumulates into an fp32 L0C tensor here");
  static_assert(std::is_same_v<U, S> && af_cpu::kCubeInput<U>,
                "Mmad operands: both half, both bfloat16_t or both float");
  const char* api = "Mmad";
  af_cpu::BlockCtx& c = af_cpu::Enter(api);
  af_cpu::RequireMem(api, "dst", dst, {af_cpu::CubeMem::kL0C});
  af_cpu::RequireMem(api, "fm", fm, {af_cpu::CubeMem::kL0A});
  af_cpu::RequireMem(api, "filter", filter, {af_cpu::CubeMem::kL0B});
  af_cpu::RequireAligned(api, "dst", dst, 1024);
  af_cpu::RequireAligned(api, "fm", fm, af_cpu::kFractalBytes);
  af_cpu::RequireAligned(api, "filter", filter, af_cpu::kFractalBytes);
  if (p.cmatrixSource) af_cpu::Fail(api, "cmatrixSource (bias table) is not modelled");
  constexpr uint64_t c0 = af_cpu::kBlockBytes / sizeof(U);
  constexpr uint64_t kR = af_cpu::kCubeRows;
  const uint64_t mb = af_cpu::CeilDiv(p.m, kR);
  const uint64_t nb = af_cpu::CeilDiv(p.n, kR);
  const uint64_t kb = af_cpu::CeilDiv(p.k, c0);
  fm.AfCheckRange(api, "fm", 0, mb * kb * kR * c0 * sizeof(U));
  filter.AfCheckRange(api, "filter", 0, kb * nb * kR * c0 * sizeof(S));
  dst.AfCheckRange(api, "dst", 0, mb * nb * kR * kR * sizeof(float));
  const auto* a = reinterpret_cast<const U*>(fm.AfBytes());
  const auto* b = reinterpret_cast<const S*>(filter.AfBytes());
  auto* out = reinterpret_cast<float*>(dst.AfBytes());
  for (uint64_t i = 0; i < p.m; ++i) {
    for (uint64_t j = 0; j < p.n; ++j) {
      float& acc = out[((j / kR) * mb + i / kR) * kR * kR + (i % kR) * kR + j % kR];
      float sum = p.cmatrixInitVal ? 0.0F : acc;
      for (uint64_t k = 0; k < p.k; ++k) {
        const auto x =
            static_cast<float>(a[((i / kR) * kb + k / c0) * kR * c0 + (i % kR) * c0 + k % c0]);
        const auto y =
            static_cast<float>(b[((k / c0) * nb + j / kR) * kR * c0 + (j % kR) * c0 + k % c0]);
        sum += x * y;
      }
      acc = sum;
    }
  }
  c.counters.cube_fractals += mb * nb * kb;
  c.counters.Api(api).repeats += mb * nb * kb;
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsV220& p) {
  static_assert(std::is_same_v<U, float>, "Fixpipe reads an fp32 L0C tensor here");
  const char* api = "Fixpipe";
  af_cpu::BlockCtx& c = af_cpu::Enter(api);
  af_cpu::RequireMem(api, "src", src, {af_cpu::CubeMem::kL0C});
  if (config.format != CO2Layout::ROW_MAJOR) {
    af_cpu::Fail(api, "only the ND (CFG_ROW_MAJOR) output layout is modelled");
  }
  if (p.ndNum != 1) af_cpu::Fail(api, "ndNum other than 1 is not modelled");
  const QuantMode_t want = std::is_same_v<T, float>        ? QuantMode_t::NoQuant
                           : std::is_same_v<T, half>       ? QuantMode_t::F322F16
                           : std::is_same_v<T, bfloat16_t> ? QuantMode_t::F322BF16
                                                           : QuantMode_t::VREQ8;
  if (want == QuantMode_t::VREQ8 || p.quantPre != want) {
    af_cpu::Fail(api, "quantPre " + std::to_string(static_cast<int>(p.quantPre)) +
                          " does not match the destination type (NoQuant for float, F322F16 for "
                          "half, F322BF16 for bfloat16_t)");
  }
  if (p.nSize > 0 && p.mSize > 0 && uint64_t{p.nSize} > p.dstStride) {
    af_cpu::Fail(api, "dstStride " + std::to_string(p.dstStride) + " is smaller than nSize " +
                          std::to_string(p.nSize) + " (rows would overlap)");
  }
  constexpr uint64_t kR = af_cpu::kCubeRows;
  const uint64_t nb = af_cpu::CeilDiv(p.nSize, kR);
  if (nb > 0 && p.mSize > 0) {
    src.AfCheckRange(api, "src", 0,
                     ((nb - 1) * p.srcStride * kR + uint64_t{p.mSize} * kR) * sizeof(float));
  }
  const auto* in = reinterpret_cast<const float*>(src.AfBytes());
  for (uint64_t i = 0; i < p.mSize; ++i) {
    T* row = dst.AfHostPtr() + i * p.dstStride;
    af_cpu::CheckGm(api, "dst", row, uint64_t{p.nSize} * sizeof(T), true);
    for (uint64_t j = 0; j < p.nSize; ++j) {
      float v = in[(j / kR) * p.srcStride * kR + i * kR + j % kR];
      if (p.reluEn && v < 0.0F) v = 0.0F;
      const T out = static_cast<T>(v);
      std::memcpy(row + j, &out, sizeof(T));
    }
  }
  c.counters.fix_bytes += uint64_t{p.mSize} * p.nSize * sizeof(T);
  c.counters.Api(api).repeats += af_cpu::CeilDiv(p.mSize, kR) * nb;
}

}  // namespace AscendC

AF_CPU_HIDDEN_END
