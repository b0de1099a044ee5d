// Shared plumbing of the vector APIs: element load/store through memcpy (so tensors of different
// types may alias one UB buffer), operand checks (binding, 32-byte alignment, buffer bounds,
// the documented overlap rule) and the repeat counter.
#pragma once

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/tensor.h"
#include "af_cpu/types.h"

AF_CPU_HIDDEN_BEGIN

namespace af_cpu {

// Keeps an argument out of template deduction (scalars adopt the tensor's element type).
template <typename T>
struct NoDeduce {
  using type = T;
};
template <typename T>
using NoDeduceT = typename NoDeduce<T>::type;

template <typename T>
inline T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T>
inline void Store(uint8_t* p, const T& v) {
  std::memcpy(p, &v, sizeof(T));
}

inline void CheckCount(const char* api, int64_t count) {
  if (count < 0) Fail(api, "count " + std::to_string(count) + " is negative");
}

// A vector operand: bound, 32-byte aligned, `bytes` bytes inside its buffer.
template <typename T>
inline void CheckVecOperand(const char* api, const char* name, const AscendC::LocalTensor<T>& t,
                            uint64_t bytes) {
  t.AfCheckRange(api, name, 0, 0);
  t.AfCheckAligned(api, name);
  t.AfCheckRange(api, name, 0, bytes);
}

// The general overlap rule: a source either coincides exactly with the destination (same start
// and length) or does not overlap it. `allow_exact` is false where the API forbids any overlap.
template <typename D, typename S>
inline void CheckOverlap(const char* api, const char* dname, const AscendC::LocalTensor<D>& d,
                         uint64_t dbytes, const char* sname, const AscendC::LocalTensor<S>& s,
                         uint64_t sbytes, bool allow_exact = true) {
  if (dbytes == 0 || sbytes == 0 || d.AfUb() != s.AfUb()) return;
  const uint64_t d0 = d.AfAddr();
  const uint64_t s0 = s.AfAddr();
  const bool disjoint = d0 + dbytes <= s0 || s0 + sbytes <= d0;
  if (disjoint) return;
  if (allow_exact && d0 == s0 && dbytes == sbytes) return;
  std::ostringstream os;
  os << dname << " UB bytes [" << d0 << ", " << d0 + dbytes << ") and " << sname << " UB bytes ["
     << s0 << ", " << s0 + sbytes << ") overlap "
     << (allow_exact ? "partially (only identical or disjoint operands are allowed)"
                     : "(this API forbids any overlap)");
  Fail(api, os.str());
}

// Compute helpers: floating types go through float, integers stay integers.
template <typename T>
inline float F(T v) {
  return static_cast<float>(v);
}
template <typename T>
inline T FromF(float v) {
  return static_cast<T>(v);
}

template <typename T>
inline void RequireFloat(const char* api) {
  static_assert(kIsFloatLike<T>, "this AscendC API is only defined for floating-point types");
  (void)api;
}

}  // namespace af_cpu

AF_CPU_HIDDEN_END
