// TPipe, TQue/TQueBind and TBuf: carving the block's Unified Buffer into 32-byte aligned buffers
// and checking the queue protocol (AllocTensor -> EnQue -> DeQue -> FreeTensor).
#pragma once

#include <cstdint>
#include <deque>
#include <sstream>
#include <string>
#include <vector>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/cube.h"
#include "af_cpu/tensor.h"

AF_CPU_HIDDEN_BEGIN

namespace AscendC {

enum class HardEvent : uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MTE1_FIX,
  FIX_MTE1,
  FIX_FIX,
  MAX,
};
using TEventID = int8_t;

inline const char* PositionName(TPosition p) {
  switch (p) {
    case TPosition::VECIN:
      return "VECIN";
    case TPosition::VECOUT:
      return "VECOUT";
    case TPosition::VECCALC:
      return "VECCALC";
    case TPosition::A1:
      return "A1";
    case TPosition::B1:
      return "B1";
    case TPosition::A2:
      return "A2";
    case TPosition::B2:
      return "B2";
    case TPosition::CO1:
      return "CO1";
    default:
      return "non-UB position";
  }
}

}  // namespace AscendC

namespace af_cpu {

inline bool IsUbPosition(AscendC::TPosition p) {
  return p == AscendC::TPosition::VECIN || p == AscendC::TPosition::VECOUT ||
         p == AscendC::TPosition::VECCALC;
}

// Reserves `num` buffers of `len` bytes (rounded up to 32) from the block's UB arena.
AF_CPU_RT uint64_t CarveUb(const char* api, AscendC::TPosition pos, uint32_t num, uint32_t len,
                           uint64_t* slot_len);

// Queue bookkeeping shared by every TQue/TQueBind instantiation.
class QueueCore {
 public:
  enum class State : uint8_t { kFree, kAllocated, kQueued, kDequeued };
  struct Slot {
    uint64_t addr;
    uint64_t len;
    State state;
  };

  void Init(uint8_t* ub, uint64_t base, uint32_t num, uint64_t slot_len, AscendC::TPosition pos);

  template <typename T>
  AscendC::LocalTensor<T> Alloc() {
    const char* api = "TQue::AllocTensor";
    Enter(api);
    RequireInit(api);
    for (size_t k = 0; k < slots_.size(); ++k) {
      const size_t i = (next_ + k) % slots_.size();
      if (slots_[i].state == State::kFree) {
        slots_[i].state = State::kAllocated;
        next_ = (i + 1) % slots_.size();
        return Tensor<T>(slots_[i]);
      }
    }
    std::ostringstream os;
    os << "no free buffer: all " << slots_.size()
       << " buffers of this queue are allocated and not yet freed (FreeTensor missing?)";
    Fail(api, os.str());
  }

  template <typename T>
  void EnQue(const AscendC::LocalTensor<T>& t) {
    const char* api = "TQue::EnQue";
    Enter(api);
    RequireInit(api);
    Slot& s = Find(api, t);
    if (s.state != State::kAllocated) {
      Fail(api, std::string("the tensor at UB address ") + std::to_string(s.addr) + " is " +
                    StateName(s.state) +
                    ", only an allocated (AllocTensor) tensor can be enqueued");
    }
    s.state = State::kQueued;
    fifo_.push_back(static_cast<size_t>(&s - slots_.data()));
  }

  template <typename T>
  AscendC::LocalTensor<T> DeQue() {
    const char* api = "TQue::DeQue";
    Enter(api);
    RequireInit(api);
    if (fifo_.empty()) Fail(api, "the queue is empty (DeQue without a matching EnQue would hang)");
    Slot& s = slots_[fifo_.front()];
    fifo_.pop_front();
    s.state = State::kDequeued;
    return Tensor<T>(s);
  }

  template <typename T>
  void Free(const AscendC::LocalTensor<T>& t) {
    const char* api = "TQue::FreeTensor";
    Enter(api);
    RequireInit(api);
    Slot& s = Find(api, t);
    if (s.state == State::kFree || s.state == State::kQueued) {
      Fail(api, std::string("the tensor at UB address ") + std::to_string(s.addr) + " is " +
                    StateName(s.state) + " and cannot be freed");
    }
    s.state = State::kFree;
  }

  bool HasIdle() const {
    for (const Slot& s : slots_) {
      if (s.state == State::kFree) return true;
    }
    return false;
  }
  int32_t Queued() const { return static_cast<int32_t>(fifo_.size()); }
  size_t Size() const { return slots_.size(); }

 private:
  static const char* StateName(State s) {
    switch (s) {
      case State::kFree:
        return "free";
      case State::kAllocated:
        return "allocated";
      case State::kQueued:
        return "enqueued";
      case State::kDequeued:
        return "dequeued";
    }
    return "?";
  }
  void RequireInit(const char* api) const {
    if (slots_.empty()) Fail(api, "the queue has no buffers (TPipe::InitBuffer not called)");
  }
  template <typename T>
  AscendC::LocalTensor<T> Tensor(const Slot& s) const {
    return AscendC::LocalTensor<T>::AfMake(ub_, s.addr, static_cast<uint32_t>(s.len / sizeof(T)),
                                           s.addr, s.addr + s.len, pos_);
  }
  template <typename T>
  Slot& Find(const char* api, const AscendC::LocalTensor<T>& t) {
    if (t.AfUb() == ub_) {
      for (Slot& s : slots_) {
        if (s.addr == t.AfAddr()) return s;
      }
    }
    std::ostringstream os;
    if (!t.AfValid()) {
      os << "the tensor is unbound";
    } else {
      os << "the tensor at UB address " << t.AfAddr()
         << " is not the start of a buffer of this queue";
    }
    Fail(api, os.str());
  }

  uint8_t* ub_ = nullptr;
  AscendC::TPosition pos_ = AscendC::TPosition::VECIN;
  std::vector<Slot> slots_;
  std::deque<size_t> fifo_;
  size_t next_ = 0;
};

}  // namespace af_cpu

namespace AscendC {

class TPipe;

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
 public:
  TQueBind() = default;

  template <typename T>
  LocalTensor<T> AllocTensor() {
    return core_.template Alloc<T>();
  }
  template <typename T>
  bool EnQue(const LocalTensor<T>& tensor) {
    core_.EnQue(tensor);
    return true;
  }
  template <typename T>
  LocalTensor<T> DeQue() {
    return core_.template DeQue<T>();
  }
  template <typename T>
  void FreeTensor(LocalTensor<T>& tensor) {
    core_.Free(tensor);
  }
  bool VacantInQue() const { return core_.Queued() < static_cast<int32_t>(core_.Size()); }
  bool HasTensorInQue() const { return core_.Queued() > 0; }
  int32_t GetTensorCountInQue() const { return core_.Queued(); }
  bool HasIdleBuffer() const { return core_.HasIdle(); }
  void FreeAllEvent() {}

  // af_cpu internal: called by TPipe::InitBuffer.
  void AfInit(uint8_t* ub, uint64_t base, uint32_t num, uint64_t slot_len) {
    core_.Init(ub, base, num, slot_len, src);
  }
  static constexpr TPosition kAfPosition = src;

 private:
  af_cpu::QueueCore core_;
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {};

// A plain buffer without queue semantics (temporaries, VECCALC).
template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
  TBuf() = default;

  template <typename T>
  LocalTensor<T> Get() {
    af_cpu::Enter("TBuf::Get");
    Require("TBuf::Get");
    return LocalTensor<T>::AfMake(ub_, addr_, static_cast<uint32_t>(len_ / sizeof(T)), addr_,
                                  addr_ + len_, pos);
  }
  template <typename T>
  LocalTensor<T> Get(uint32_t len) {
    af_cpu::Enter("TBuf::Get");
    Require("TBuf::Get");
    if (uint64_t{len} * sizeof(T) > len_) {
      std::ostringstream os;
      os << len << " elements of " << sizeof(T) << " bytes exceed the buffer's " << len_
         << " bytes";
      af_cpu::Fail("TBuf::Get", os.str());
    }
    return LocalTensor<T>::AfMake(ub_, addr_, len, addr_, addr_ + len_, pos);
  }
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset) {
    af_cpu::Enter("TBuf::GetWithOffset");
    Require("TBuf::GetWithOffset");
    if (bufOffset > len_ || uint64_t{size} * sizeof(T) > len_ - bufOffset) {
      std::ostringstream os;
      os << size << " elements at byte offset " << bufOffset << " exceed the buffer's " << len_
         << " bytes";
      af_cpu::Fail("TBuf::GetWithOffset", os.str());
    }
    return LocalTensor<T>::AfMake(ub_, addr_ + bufOffset, size, addr_, addr_ + len_, pos);
  }

  // af_cpu internal: called by TPipe::InitBuffer.
  void AfInit(uint8_t* ub, uint64_t addr, uint64_t len) {
    ub_ = ub;
    addr_ = addr;
    len_ = len;
  }

 private:
  void Require(const char* api) const {
    if (ub_ == nullptr) af_cpu::Fail(api, "the TBuf has no memory (TPipe::InitBuffer not called)");
  }
  uint8_t* ub_ = nullptr;
  uint64_t addr_ = 0;
  uint64_t len_ = 0;
};

class TPipe {
 public:
  TPipe();
  ~TPipe() { Release(); }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  template <class Q>
  bool InitBuffer(Q& que, uint8_t num, uint32_t len) {
    uint64_t slot_len = 0;
    af_cpu::CubeMem mem = af_cpu::CubeMem::kL1;
    if (af_cpu::CubeMemOf(Q::kAfPosition, &mem)) {
      uint8_t* base = nullptr;
      const uint64_t at =
          af_cpu::CarveCube("TPipe::InitBuffer", Q::kAfPosition, num, len, &slot_len, &base);
      que.AfInit(base, at, num, slot_len);
      return true;
    }
    const uint64_t at = af_cpu::CarveUb("TPipe::InitBuffer", Q::kAfPosition, num, len, &slot_len);
    que.AfInit(af_cpu::g_block->ub, at, num, slot_len);
    return true;
  }
  template <TPosition bufPos>
  bool InitBuffer(TBuf<bufPos>& buf, uint32_t len) {
    uint64_t slot_len = 0;
    af_cpu::CubeMem mem = af_cpu::CubeMem::kL1;
    if (af_cpu::CubeMemOf(bufPos, &mem)) {
      uint8_t* base = nullptr;
      const uint64_t at = af_cpu::CarveCube("TPipe::InitBuffer", bufPos, 1, len, &slot_len, &base);
      buf.AfInit(base, at, slot_len);
      return true;
    }
    const uint64_t at = af_cpu::CarveUb("TPipe::InitBuffer", bufPos, 1, len, &slot_len);
    buf.AfInit(af_cpu::g_block->ub, at, slot_len);
    return true;
  }

  void Init() {}
  // Releases every buffer of this pipe so that InitBuffer can carve the UB again.
  void Reset();
  void Destroy() { Release(); }

  template <HardEvent evt>
  TEventID AllocEventID() {
    return 0;
  }
  template <HardEvent evt>
  void ReleaseEventID(TEventID /*id*/) {}
  template <HardEvent evt>
  TEventID FetchEventID() {
    return 0;
  }
  TEventID FetchEventID(HardEvent /*evt*/) { return 0; }

 private:
  void Release();
  uint64_t start_ = 0;
  uint64_t cube_start_[4] = {0, 0, 0, 0};
  uint32_t buffers_start_ = 0;
  bool alive_ = true;
};

inline TPipe* GetTPipePtr() {
  return static_cast<TPipe*>(af_cpu::Ctx("GetTPipePtr").pipe);
}

}  // namespace AscendC

AF_CPU_HIDDEN_END
