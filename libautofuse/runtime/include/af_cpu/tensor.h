// LocalTensor (a typed view into the block's Unified Buffer that remembers the buffer it was carved
// from) and GlobalTensor (a typed view of Global Memory), with bounds-checked element access.
#pragma once

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/types.h"

AF_CPU_HIDDEN_BEGIN

namespace AscendC {

// Logical positions: the Unified Buffer (VECIN, VECOUT, VECCALC) and the cube memories (A1/B1/C1
// in L1, A2 in L0A, B2 in L0B, CO1 in L0C: af_cpu/cube.h) are modelled.
enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  C2PIPE2GM,
  C2PIPE2LOCAL,
  MAX,
};
using QuePosition = TPosition;

enum class CacheMode : uint8_t {
  CACHE_MODE_DISABLE = 0,
  CACHE_MODE_NORMAL,
  CACHE_MODE_LAST,
  CACHE_MODE_PERSISTENT,
};
enum class CacheRwMode : uint8_t { READ = 1, WRITE = 2, RW = 3 };

template <typename T>
class LocalTensor {
 public:
  using PrimType = T;

  LocalTensor() = default;

  // A sub-view starting `offset` elements further; it stays bound to the same buffer.
  LocalTensor operator[](uint32_t offset) const {
    LocalTensor t = *this;
    t.addr_ = addr_ + static_cast<uint64_t>(offset) * sizeof(T);
    t.size_ = offset <= size_ ? size_ - offset : 0;
    return t;
  }

  T GetValue(uint32_t index) const {
    af_cpu::Enter("LocalTensor::GetValue");
    const uint8_t* p = AfElem("LocalTensor::GetValue", index);
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  }
  // As CANN's: the value's type S is a template parameter, converted to the element type.
  template <typename S>
  void SetValue(const uint32_t index, const S value) const {
    af_cpu::Enter("LocalTensor::SetValue");
    uint8_t* p = AfElem("LocalTensor::SetValue", index);
    const T v = static_cast<T>(value);
    std::memcpy(p, &v, sizeof(T));
  }
  T& operator()(uint32_t index) const {
    af_cpu::Enter("LocalTensor::operator()");
    return *reinterpret_cast<T*>(AfElem("LocalTensor::operator()", index));
  }

  uint32_t GetSize() const { return size_; }
  void SetSize(uint32_t size) { size_ = size; }
  uint32_t GetLength() const { return static_cast<uint32_t>(size_ * sizeof(T)); }
  TPosition GetPosition() const { return pos_; }
  // The UB address (byte offset from the start of this block's Unified Buffer).
  uint64_t GetPhyAddr() const { return addr_; }
  uint64_t GetPhyAddr(uint32_t offset) const { return addr_ + uint64_t{offset} * sizeof(T); }

  template <typename U>
  LocalTensor<U> ReinterpretCast() const {
    LocalTensor<U> t;
    t.ub_ = ub_;
    t.addr_ = addr_;
    t.size_ = static_cast<uint32_t>(uint64_t{size_} * sizeof(T) / sizeof(U));
    t.buf_begin_ = buf_begin_;
    t.buf_end_ = buf_end_;
    t.pos_ = pos_;
    return t;
  }

  // ---- af_cpu internals (not AscendC API) ----
  static LocalTensor AfMake(uint8_t* ub, uint64_t addr, uint32_t size, uint64_t buf_begin,
                            uint64_t buf_end, TPosition pos) {
    LocalTensor t;
    t.ub_ = ub;
    t.addr_ = addr;
    t.size_ = size;
    t.buf_begin_ = buf_begin;
    t.buf_end_ = buf_end;
    t.pos_ = pos;
    return t;
  }
  bool AfValid() const { return ub_ != nullptr; }
  uint64_t AfAddr() const { return addr_; }
  uint64_t AfBufBegin() const { return buf_begin_; }
  uint64_t AfBufEnd() const { return buf_end_; }
  uint8_t* AfBytes() const { return ub_ + addr_; }
  uint8_t* AfUb() const { return ub_; }

  // Checks that bytes [addr + byte_off, addr + byte_off + bytes) lie in this tensor's buffer.
  void AfCheckRange(const char* api, const char* operand, uint64_t byte_off, uint64_t bytes) const {
    if (ub_ == nullptr) {
      af_cpu::Fail(api, std::string(operand) + " is an unbound LocalTensor (no buffer behind it)");
    }
    if (bytes == 0) return;
    const uint64_t lo = addr_ + byte_off;
    if (lo < buf_begin_ || lo > buf_end_ || bytes > buf_end_ - lo) {
      std::ostringstream os;
      os << operand << " accesses UB bytes [" << lo << ", " << lo + bytes
         << ") outside its buffer [" << buf_begin_ << ", " << buf_end_ << ")";
      af_cpu::Fail(api, os.str());
    }
  }
  // Checks the 32-byte alignment AscendC requires of Unified Buffer operand addresses.
  void AfCheckAligned(const char* api, const char* operand, uint64_t align = 32) const {
    if (addr_ % align != 0) {
      std::ostringstream os;
      os << operand << " starts at UB address " << addr_ << ", which is not " << align
         << "-byte aligned";
      af_cpu::Fail(api, os.str());
    }
  }

 private:
  template <typename>
  friend class LocalTensor;

  uint8_t* AfElem(const char* api, uint32_t index) const {
    AfCheckRange(api, "tensor", uint64_t{index} * sizeof(T), sizeof(T));
    return ub_ + addr_ + uint64_t{index} * sizeof(T);
  }

  uint8_t* ub_ = nullptr;
  uint64_t addr_ = 0;
  uint32_t size_ = 0;
  uint64_t buf_begin_ = 0;
  uint64_t buf_end_ = 0;
  TPosition pos_ = TPosition::VECCALC;
};

template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;

  GlobalTensor() = default;

  void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) {
    ptr_ = buffer;
    size_ = bufferSize;
  }
  void SetGlobalBuffer(__gm__ T* buffer) {
    ptr_ = buffer;
    size_ = 0;
  }

  GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor t;
    t.ptr_ = ptr_ + offset;
    t.size_ = offset <= size_ ? size_ - offset : 0;
    return t;
  }

  T GetValue(uint64_t offset) const {
    af_cpu::Enter("GlobalTensor::GetValue");
    af_cpu::CheckGm("GlobalTensor::GetValue", "tensor", AfHostPtr() + offset, sizeof(T), false);
    T v;
    std::memcpy(&v, AfHostPtr() + offset, sizeof(T));
    return v;
  }
  void SetValue(uint64_t offset, const T& value) const {
    af_cpu::Enter("GlobalTensor::SetValue");
    af_cpu::CheckGm("GlobalTensor::SetValue", "tensor", AfHostPtr() + offset, sizeof(T), true);
    std::memcpy(AfHostPtr() + offset, &value, sizeof(T));
  }

  __gm__ T* GetPhyAddr() const { return ptr_; }
  __gm__ T* GetPhyAddr(uint64_t offset) const { return ptr_ + offset; }
  uint64_t GetSize() const { return size_; }

  // Runtime-only: the buffer as a host pointer. In the clang device check (AF_DEVICE_CHECK) the
  // buffer is in the __gm__ address space, which only a C-style cast converts out of.
#if defined(AF_DEVICE_CHECK)
  T* AfHostPtr() const {
    return (T*)ptr_;
  }  // NOLINT(google-readability-casting)
#else
  T* AfHostPtr() const {
    return ptr_;
  }
#endif

  template <CacheRwMode rwMode = CacheRwMode::RW>
  void SetL2CacheHint(CacheMode /*mode*/) {}

 private:
  __gm__ T* ptr_ = nullptr;
  uint64_t size_ = 0;
};

}  // namespace AscendC

AF_CPU_HIDDEN_END
