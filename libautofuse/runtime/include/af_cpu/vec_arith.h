// Element-wise vector arithmetic in the "first count elements" form: binary (Add Sub Mul Div Max
// Min), tensor-scalar (Adds Subs Muls Divs Maxs Mins LeakyRelu Axpy), unary (Abs Exp Ln Sqrt
// Rsqrt Reciprocal Relu), Duplicate, and the bitwise Not/And/Or and the tensor-count
// ShiftLeft/ShiftRight on integer types.
// 16-bit floats compute in float and round to nearest even once per element and op.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/tensor.h"
#include "af_cpu/types.h"
#include "af_cpu/vec_common.h"

AF_CPU_HIDDEN_BEGIN

namespace af_cpu {

template <typename T>
inline void RequireVectorType() {
  static_assert(kIsFloatLike<T> || kIsIntLike<T>, "vector APIs take arithmetic element types");
  static_assert(!std::is_same_v<T, double> && !std::is_same_v<T, long double>,
                "the vector units have no double arithmetic");
}

template <typename T, typename Fn>
inline void UnaryLoop(const char* api, const AscendC::LocalTensor<T>& dst,
                      const AscendC::LocalTensor<T>& src, int64_t count, Fn fn) {
  RequireVectorType<T>();
  BlockCtx& c = Enter(api);
  CheckCount(api, count);
  const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
  CheckVecOperand(api, "dst", dst, bytes);
  CheckVecOperand(api, "src", src, bytes);
  CheckOverlap(api, "dst", dst, bytes, "src", src, bytes);
  AddRepeats(c, api, bytes);
  uint8_t* d = dst.AfBytes();
  const uint8_t* s = src.AfBytes();
  for (int64_t i = 0; i < count; ++i) {
    const auto off = static_cast<uint64_t>(i) * sizeof(T);
    Store<T>(d + off, fn(Load<T>(s + off)));
  }
}

// The checks every two-source vector call makes (BinaryLoop, ShiftLoop): the count, each operand
// inside its buffer, dst meeting a source only as the same tensor (src1's elements are T's
// size); adds the call's repeats.
template <typename T, typename U>
inline void CheckBinaryOperands(const char* api, BlockCtx& c, const AscendC::LocalTensor<T>& dst,
                                const AscendC::LocalTensor<T>& src0,
                                const AscendC::LocalTensor<U>& src1, int64_t count) {
  CheckCount(api, count);
  const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
  CheckVecOperand(api, "dst", dst, bytes);
  CheckVecOperand(api, "src0", src0, bytes);
  CheckVecOperand(api, "src1", src1, bytes);
  CheckOverlap(api, "dst", dst, bytes, "src0", src0, bytes);
  CheckOverlap(api, "dst", dst, bytes, "src1", src1, bytes);
  AddRepeats(c, api, bytes);
}

template <typename T, typename Fn>
inline void BinaryLoop(const char* api, const AscendC::LocalTensor<T>& dst,
                       const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1,
                       int64_t count, Fn fn) {
  RequireVectorType<T>();
  BlockCtx& c = Enter(api);
  CheckBinaryOperands(api, c, dst, src0, src1, count);
  uint8_t* d = dst.AfBytes();
  const uint8_t* a = src0.AfBytes();
  const uint8_t* b = src1.AfBytes();
  for (int64_t i = 0; i < count; ++i) {
    const auto off = static_cast<uint64_t>(i) * sizeof(T);
    Store<T>(d + off, fn(Load<T>(a + off), Load<T>(b + off)));
  }
}

// Integer arithmetic wraps modulo 2^bits (computed in uint64_t to avoid signed overflow).
template <typename T>
inline T WrapInt(uint64_t v) {
  return static_cast<T>(v);
}

template <typename T>
inline T AddV(T a, T b) {
  if constexpr (kIsFloatLike<T>) {
    return FromF<T>(F(a) + F(b));
  } else {
    return WrapInt<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  }
}
template <typename T>
inline T SubV(T a, T b) {
  if constexpr (kIsFloatLike<T>) {
    return FromF<T>(F(a) - F(b));
  } else {
    return WrapInt<T>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
  }
}
template <typename T>
inline T MulV(T a, T b) {
  if constexpr (kIsFloatLike<T>) {
    return FromF<T>(F(a) * F(b));
  } else {
    return WrapInt<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  }
}
template <typename T>
inline T DivV(const char* api, T a, T b) {
  if constexpr (kIsFloatLike<T>) {
    return FromF<T>(F(a) / F(b));
  } else {
    if (b == 0) Fail(api, "integer division by zero");
    if constexpr (std::is_signed_v<T>) {
      if (a == std::numeric_limits<T>::min() && b == T(-1)) return a;
    }
    return static_cast<T>(a / b);
  }
}
// Max/Min propagate NaN.
template <typename T>
inline T MaxV(T a, T b) {
  if constexpr (kIsFloatLike<T>) {
    if (std::isnan(F(a))) return a;
    if (std::isnan(F(b))) return b;
    return F(a) >= F(b) ? a : b;
  } else {
    return a >= b ? a : b;
  }
}
template <typename T>
inline T MinV(T a, T b) {
  if constexpr (kIsFloatLike<T>) {
    if (std::isnan(F(a))) return a;
    if (std::isnan(F(b))) return b;
    return F(a) <= F(b) ? a : b;
  } else {
    return a <= b ? a : b;
  }
}

template <typename T, typename Fn>
inline T FloatUnary(T x, Fn fn) {
  return FromF<T>(fn(F(x)));
}

}  // namespace af_cpu

namespace AscendC {

#if __NPU_ARCH__ == 3510
// The 950's count forms of these unary APIs take a config template argument (CANN's
// kernel_operator_vec_unary_intf.h); its algorithm choices are not modelled: every config
// computes the exact function, so only the defaults are given.
struct ExpConfig {};
inline constexpr ExpConfig DEFAULT_EXP_CONFIG{};
struct LnConfig {};
inline constexpr LnConfig DEFAULT_LN_CONFIG{};
struct ReciprocalConfig {};
inline constexpr ReciprocalConfig DEFAULT_RECIPROCAL_CONFIG{};
struct RsqrtConfig {};
inline constexpr RsqrtConfig DEFAULT_RSQRT_CONFIG{};
struct SqrtConfig {};
inline constexpr SqrtConfig DEFAULT_SQRT_CONFIG{};
#endif

}  // namespace AscendC

namespace AscendC {

// ---- binary ----

template <typename T>
__aicore__ inline void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                           const LocalTensor<T>& src1, const int32_t& count) {
  af_cpu::BinaryLoop("Add", dst, src0, src1, count, [](T a, T b) { return af_cpu::AddV(a, b); });
}
template <typename T>
__aicore__ inline void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                           const LocalTensor<T>& src1, const int32_t& count) {
  af_cpu::BinaryLoop("Sub", dst, src0, src1, count, [](T a, T b) { return af_cpu::SubV(a, b); });
}
template <typename T>
__aicore__ inline void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                           const LocalTensor<T>& src1, const int32_t& count) {
  af_cpu::BinaryLoop("Mul", dst, src0, src1, count, [](T a, T b) { return af_cpu::MulV(a, b); });
}
template <typename T>
__aicore__ inline void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                           const LocalTensor<T>& src1, const int32_t& count) {
  af_cpu::BinaryLoop("Div", dst, src0, src1, count,
                     [](T a, T b) { return af_cpu::DivV("Div", a, b); });
}
template <typename T>
__aicore__ inline void Max(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                           const LocalTensor<T>& src1, const int32_t& count) {
  af_cpu::BinaryLoop("Max", dst, src0, src1, count, [](T a, T b) { return af_cpu::MaxV(a, b); });
}
template <typename T>
__aicore__ inline void Min(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                           const LocalTensor<T>& src1, const int32_t& count) {
  af_cpu::BinaryLoop("Min", dst, src0, src1, count, [](T a, T b) { return af_cpu::MinV(a, b); });
}

// ---- tensor op scalar ----

template <typename T, bool isSetMask = true>
__aicore__ inline void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                            const T& scalarValue, const int32_t& count) {
  const T s = scalarValue;
  af_cpu::UnaryLoop("Adds", dst, src, count, [s](T a) { return af_cpu::AddV(a, s); });
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Subs(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                            const T& scalarValue, const int32_t& count) {
  const T s = scalarValue;
  af_cpu::UnaryLoop("Subs", dst, src, count, [s](T a) { return af_cpu::SubV(a, s); });
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                            const T& scalarValue, const int32_t& count) {
  const T s = scalarValue;
  af_cpu::UnaryLoop("Muls", dst, src, count, [s](T a) { return af_cpu::MulV(a, s); });
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Divs(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                            const T& scalarValue, const int32_t& count) {
  const T s = scalarValue;
  af_cpu::UnaryLoop("Divs", dst, src, count, [s](T a) { return af_cpu::DivV("Divs", a, s); });
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Maxs(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                            const T& scalarValue, const int32_t& count) {
  const T s = scalarValue;
  af_cpu::UnaryLoop("Maxs", dst, src, count, [s](T a) { return af_cpu::MaxV(a, s); });
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Mins(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                            const T& scalarValue, const int32_t& count) {
  const T s = scalarValue;
  af_cpu::UnaryLoop("Mins", dst, src, count, [s](T a) { return af_cpu::MinV(a, s); });
}
// dst = src >= 0 ? src : src * scalarValue
template <typename T, bool isSetMask = true>
__aicore__ inline void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const T& scalarValue, const int32_t& count) {
  af_cpu::RequireFloat<T>("LeakyRelu");
  const float s = af_cpu::F(static_cast<T>(scalarValue));
  af_cpu::UnaryLoop("LeakyRelu", dst, src, count, [s](T a) {
    return af_cpu::F(a) >= 0.0f ? a : af_cpu::FromF<T>(af_cpu::F(a) * s);
  });
}
// dst = src * scalarValue + dst, computed in float with one rounding (dst may be float while src
// is half).
template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                            const U& scalarValue, const int32_t& count) {
  af_cpu::RequireFloat<T>("Axpy");
  af_cpu::RequireFloat<U>("Axpy");
  const char* api = "Axpy";
  af_cpu::BlockCtx& c = af_cpu::Enter(api);
  af_cpu::CheckCount(api, count);
  const uint64_t n = static_cast<uint64_t>(count);
  af_cpu::CheckVecOperand(api, "dst", dst, n * sizeof(T));
  af_cpu::CheckVecOperand(api, "src", src, n * sizeof(U));
  af_cpu::CheckOverlap(api, "dst", dst, n * sizeof(T), "src", src, n * sizeof(U),
                       sizeof(T) == sizeof(U));
  af_cpu::AddRepeats(c, api, n * (sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U)));
  const float s = af_cpu::F(scalarValue);
  for (uint64_t i = 0; i < n; ++i) {
    const float x = af_cpu::F(af_cpu::Load<U>(src.AfBytes() + i * sizeof(U)));
    const float y = af_cpu::F(af_cpu::Load<T>(dst.AfBytes() + i * sizeof(T)));
    af_cpu::Store<T>(dst.AfBytes() + i * sizeof(T), af_cpu::FromF<T>(x * s + y));
  }
}

// ---- unary ----

template <typename T>
__aicore__ inline void Abs(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const int32_t& count) {
  af_cpu::UnaryLoop("Abs", dst, src, count, [](T a) {
    if constexpr (af_cpu::kIsFloatLike<T>) {
      return af_cpu::FromF<T>(std::fabs(af_cpu::F(a)));
    } else if constexpr (std::is_signed_v<T>) {
      return a < 0 ? af_cpu::WrapInt<T>(uint64_t{0} - static_cast<uint64_t>(a)) : a;
    } else {
      return a;
    }
  });
}
template <typename T>
__aicore__ inline void Relu(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                            const int32_t& count) {
  af_cpu::UnaryLoop("Relu", dst, src, count, [](T a) {
    if constexpr (af_cpu::kIsFloatLike<T>) {
      return af_cpu::F(a) < 0.0f ? T(0) : a;
    } else if constexpr (std::is_signed_v<T>) {
      return a < 0 ? T(0) : a;
    } else {
      return a;
    }
  });
}
#if __NPU_ARCH__ == 3510
template <typename T, const ExpConfig& config = DEFAULT_EXP_CONFIG>
#else
template <typename T>
#endif
__aicore__ inline void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const int32_t& count) {
  af_cpu::RequireFloat<T>("Exp");
  af_cpu::UnaryLoop("Exp", dst, src, count,
                    [](T a) { return af_cpu::FloatUnary(a, [](float x) { return std::exp(x); }); });
}
#if __NPU_ARCH__ == 3510
template <typename T, const LnConfig& config = DEFAULT_LN_CONFIG>
#else
template <typename T>
#endif
__aicore__ inline void Ln(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                          const int32_t& count) {
  af_cpu::RequireFloat<T>("Ln");
  af_cpu::UnaryLoop("Ln", dst, src, count,
                    [](T a) { return af_cpu::FloatUnary(a, [](float x) { return std::log(x); }); });
}
#if __NPU_ARCH__ == 3510
template <typename T, const SqrtConfig& config = DEFAULT_SQRT_CONFIG>
#else
template <typename T>
#endif
__aicore__ inline void Sqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                            const int32_t& count) {
  af_cpu::RequireFloat<T>("Sqrt");
  af_cpu::UnaryLoop("Sqrt", dst, src, count, [](T a) {
    return af_cpu::FloatUnary(a, [](float x) { return std::sqrt(x); });
  });
}
#if __NPU_ARCH__ == 3510
template <typename T, const RsqrtConfig& config = DEFAULT_RSQRT_CONFIG>
#else
template <typename T>
#endif
__aicore__ inline void Rsqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                             const int32_t& count) {
  af_cpu::RequireFloat<T>("Rsqrt");
  af_cpu::UnaryLoop("Rsqrt", dst, src, count, [](T a) {
    return af_cpu::FloatUnary(a, [](float x) { return 1.0f / std::sqrt(x); });
  });
}
#if __NPU_ARCH__ == 3510
template <typename T, const ReciprocalConfig& config = DEFAULT_RECIPROCAL_CONFIG>
#else
template <typename T>
#endif
__aicore__ inline void Reciprocal(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                  const int32_t& count) {
  af_cpu::RequireFloat<T>("Reciprocal");
  af_cpu::UnaryLoop("Reciprocal", dst, src, count,
                    [](T a) { return af_cpu::FloatUnary(a, [](float x) { return 1.0f / x; }); });
}

// ---- fill ----

template <typename T>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue,
                                 const int32_t& count) {
  const char* api = "Duplicate";
  af_cpu::BlockCtx& c = af_cpu::Enter(api);
  af_cpu::CheckCount(api, count);
  const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
  af_cpu::CheckVecOperand(api, "dst", dst, bytes);
  af_cpu::AddRepeats(c, api, bytes);
  const T v = scalarValue;
  for (uint64_t off = 0; off < bytes; off += sizeof(T))
    af_cpu::Store<T>(dst.AfBytes() + off, v);
}

// ---- bitwise (integer types) ----

template <typename T>
__aicore__ inline void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const int32_t& count) {
  static_assert(af_cpu::kIsIntLike<T>, "Not is defined for integer types");
  af_cpu::UnaryLoop("Not", dst, src, count, [](T a) { return static_cast<T>(~a); });
}
template <typename T>
__aicore__ inline void And(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                           const LocalTensor<T>& src1, const int32_t& count) {
  static_assert(af_cpu::kIsIntLike<T>, "And is defined for integer types");
  af_cpu::BinaryLoop("And", dst, src0, src1, count, [](T a, T b) { return static_cast<T>(a & b); });
}
template <typename T>
__aicore__ inline void Or(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                          const LocalTensor<T>& src1, const int32_t& count) {
  static_assert(af_cpu::kIsIntLike<T>, "Or is defined for integer types");
  af_cpu::BinaryLoop("Or", dst, src0, src1, count, [](T a, T b) { return static_cast<T>(a | b); });
}

}  // namespace AscendC

namespace af_cpu {

// The shift-count-tensor ShiftLeft/ShiftRight (the 950's "ShiftLeft/ShiftRight (shift count is a
// Tensor)" basic APIs): T is an 8- to 64-bit integer, U a signed integer of T's size holding the
// counts. The documented behaviour: unsigned T shifts logically; signed T shifts arithmetically,
// where a LEFT shift keeps the sign bit and drops the next one (int16 0xAAAA << 1 = 0xD554);
// counts above the width give 0 (unsigned), or 0 / -1 by the sign (signed). Negative counts are
// not supported there, and a count equal to the width is not specified: both fail here.
template <typename T, typename U, typename Fn>
inline void ShiftLoop(const char* api, const AscendC::LocalTensor<T>& dst,
                      const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<U>& src1,
                      int64_t count, Fn fn) {
  static_assert(kIsIntLike<T>, "the shifts take integer sources");
  static_assert(std::is_signed_v<U> && kIsIntLike<U> && sizeof(U) == sizeof(T),
                "the shift counts are a signed integer of the source's size");
  BlockCtx& c = Enter(api);
  CheckBinaryOperands(api, c, dst, src0, src1, count);
  constexpr int64_t kBits = 8 * static_cast<int64_t>(sizeof(T));
  uint8_t* d = dst.AfBytes();
  const uint8_t* a = src0.AfBytes();
  const uint8_t* b = src1.AfBytes();
  for (int64_t i = 0; i < count; ++i) {
    const auto off = static_cast<uint64_t>(i) * sizeof(T);
    const auto n = static_cast<int64_t>(Load<U>(b + off));
    if (n < 0 || n == kBits) {
      Fail(api, "shift count " + std::to_string(n) + " at element " + std::to_string(i) +
                    (n < 0 ? " is negative (not supported)" : " equals the width (unspecified)"));
    }
    const T v = Load<T>(a + off);
    T r{};
    if (n > kBits) {
      r = std::is_signed_v<T> && v < 0 ? static_cast<T>(-1) : T{0};
    } else {
      r = fn(v, static_cast<int>(n));
    }
    Store<T>(d + off, r);
  }
}

}  // namespace af_cpu

namespace AscendC {

template <typename T, typename U>
__aicore__ inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                 const LocalTensor<U>& src1, const int32_t& count) {
  af_cpu::ShiftLoop("ShiftLeft", dst, src0, src1, count, [](T v, int n) {
    using UT = std::make_unsigned_t<T>;
    const auto shifted = static_cast<UT>(static_cast<UT>(v) << n);
    if constexpr (std::is_signed_v<T>) {  // the sign bit stays
      constexpr UT sign = static_cast<UT>(UT{1} << (8 * sizeof(T) - 1));
      return static_cast<T>((shifted & static_cast<UT>(~sign)) | (static_cast<UT>(v) & sign));
    } else {
      return static_cast<T>(shifted);
    }
  });
}
template <typename T, typename U>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const LocalTensor<U>& src1, const int32_t& count) {
  af_cpu::ShiftLoop("ShiftRight", dst, src0, src1, count,
                    [](T v, int n) { return static_cast<T>(v >> n); });
}

}  // namespace AscendC

AF_CPU_HIDDEN_END
