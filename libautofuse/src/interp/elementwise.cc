// Elementwise math. Floats are computed in double and rounded into the output dtype by
// Value::PutDouble; integers are computed in int64 with wrap-around and wrapped by Value::PutInt.
#include "elementwise.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include "strided_counter.h"

namespace af::interp::detail {
namespace {

using ir::DType;
using ir::OpCode;

template <std::size_t N, typename F>
void ForEach(const std::vector<std::int64_t>& shape,
             const std::array<const std::vector<std::int64_t>*, N>& strides, F&& f) {
  std::int64_t n = 1;
  for (std::int64_t d : shape)
    n *= d;  // bounded by MakeValue
  StridedCounter<N> c(shape, strides, {});
  for (std::int64_t k = 0; k < n; ++k) {
    f(k, c.offsets());
    c.Next();
  }
}

// Copies element `o` of `v` into element `k` of `out`, converting between domains.
void CopyElem(Value& out, std::int64_t k, const Value& v, std::int64_t o) {
  if (v.is_float) {
    out.PutDouble(k, v.f[static_cast<std::size_t>(o)]);
  } else {
    out.PutInt(k, v.i[static_cast<std::size_t>(o)]);
  }
}

// `v` clamped to the range of the integer dtype `t` (int64 and uint64 pass through).
std::int64_t SaturateInt(std::int64_t v, DType t) {
  const auto clamp = [v](auto lo, auto hi) {
    return std::clamp<std::int64_t>(v, static_cast<std::int64_t>(lo),
                                    static_cast<std::int64_t>(hi));
  };
  switch (t) {
    case DType::kInt8:
      return clamp(INT8_MIN, INT8_MAX);
    case DType::kInt16:
      return clamp(INT16_MIN, INT16_MAX);
    case DType::kInt32:
      return clamp(INT32_MIN, INT32_MAX);
    case DType::kUInt8:
      return clamp(0, UINT8_MAX);
    case DType::kUInt16:
      return clamp(0, UINT16_MAX);
    case DType::kUInt32:
      return clamp(0, UINT32_MAX);
    default:
      return v;
  }
}

std::int64_t WrapAdd(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
std::int64_t WrapSub(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}
std::int64_t WrapMul(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}

bool IsFloatOnlyUnary(OpCode c) {
  switch (c) {
    case OpCode::kExp:
    case OpCode::kLn:
    case OpCode::kSqrt:
    case OpCode::kRsqrt:
    case OpCode::kReciprocal:
    case OpCode::kSigmoid:
    case OpCode::kTanh:
    case OpCode::kErf:
      return true;
    default:
      return false;
  }
}

double UnaryF(OpCode c, double x) {
  switch (c) {
    case OpCode::kAbs:
      return std::fabs(x);
    case OpCode::kNeg:
      return -x;
    case OpCode::kExp:
      return std::exp(x);
    case OpCode::kLn:
      return std::log(x);
    case OpCode::kSqrt:
      return std::sqrt(x);
    case OpCode::kRsqrt:
      return 1.0 / std::sqrt(x);
    case OpCode::kReciprocal:
      return 1.0 / x;
    case OpCode::kRelu:
      return std::isnan(x) || x > 0 ? x : 0.0;
    case OpCode::kSigmoid:
      return 1.0 / (1.0 + std::exp(-x));
    case OpCode::kTanh:
      return std::tanh(x);
    case OpCode::kErf:
      return std::erf(x);
    case OpCode::kSign:
      if (std::isnan(x)) return x;
      return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
    default:
      throw EvalError("not a unary op");
  }
}

std::int64_t UnaryI(OpCode c, std::int64_t x) {
  switch (c) {
    case OpCode::kAbs:
      return x < 0 ? WrapSub(0, x) : x;
    case OpCode::kNeg:
      return WrapSub(0, x);
    case OpCode::kRelu:
      return x > 0 ? x : 0;
    case OpCode::kSign:
      return x > 0 ? 1 : (x < 0 ? -1 : 0);
    default:
      throw EvalError("not an integer unary op");
  }
}

bool IsArithmetic(OpCode c) {
  switch (c) {
    case OpCode::kAdd:
    case OpCode::kSub:
    case OpCode::kMul:
    case OpCode::kDiv:
    case OpCode::kMaximum:
    case OpCode::kMinimum:
    case OpCode::kPow:
      return true;
    default:
      return false;
  }
}

bool IsComparison(OpCode c) {
  switch (c) {
    case OpCode::kEq:
    case OpCode::kNe:
    case OpCode::kGt:
    case OpCode::kGe:
    case OpCode::kLt:
    case OpCode::kLe:
      return true;
    default:
      return false;
  }
}

double ArithF(OpCode c, double a, double b) {
  switch (c) {
    case OpCode::kAdd:
      return a + b;
    case OpCode::kSub:
      return a - b;
    case OpCode::kMul:
      return a * b;
    case OpCode::kDiv:
    case OpCode::kTrueDiv:
      return a / b;
    case OpCode::kMaximum:
      if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
      return a > b ? a : b;
    case OpCode::kMinimum:
      if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
      return a < b ? a : b;
    case OpCode::kPow:
      return std::pow(a, b);
    default:
      throw EvalError("not an arithmetic op");
  }
}

std::int64_t IntPow(std::int64_t base, std::int64_t e) {
  if (e < 0) {
    // The exact result 1 / base^|e| truncated toward zero.
    if (base == 0) throw EvalError("integer 0 raised to a negative power");
    if (base == 1) return 1;
    if (base == -1) return (e % 2 == 0) ? 1 : -1;
    return 0;
  }
  std::int64_t r = 1;
  while (e > 0) {
    if ((e & 1) != 0) r = WrapMul(r, base);
    base = WrapMul(base, base);
    e >>= 1;
  }
  return r;
}

std::int64_t ArithI(OpCode c, std::int64_t a, std::int64_t b) {
  switch (c) {
    case OpCode::kAdd:
      return WrapAdd(a, b);
    case OpCode::kSub:
      return WrapSub(a, b);
    case OpCode::kMul:
      return WrapMul(a, b);
    case OpCode::kDiv:
      if (b == 0) throw EvalError("integer division by zero");
      if (a == std::numeric_limits<std::int64_t>::min() && b == -1) return a;  // wraps
      return a / b;  // truncation toward zero, as in C
    case OpCode::kMaximum:
      return a > b ? a : b;
    case OpCode::kMinimum:
      return a < b ? a : b;
    case OpCode::kPow:
      return IntPow(a, b);
    default:
      throw EvalError("not an arithmetic op");
  }
}

template <typename T>
bool Compare(OpCode c, T a, T b) {
  switch (c) {
    case OpCode::kEq:
      return a == b;
    case OpCode::kNe:
      return a != b;
    case OpCode::kGt:
      return a > b;
    case OpCode::kGe:
      return a >= b;
    case OpCode::kLt:
      return a < b;
    case OpCode::kLe:
      return a <= b;
    default:
      throw EvalError("not a comparison");
  }
}

}  // namespace

Value EvalElementwise(ir::OpCode code, const std::vector<const Value*>& ins, ir::DType out_dtype,
                      const std::vector<std::int64_t>& out_shape) {
  Value out = MakeValue(out_dtype, out_shape);
  std::vector<std::vector<std::int64_t>> st;
  for (std::size_t j = 0; j < ins.size(); ++j) {
    st.push_back(BroadcastStrides(ins[j]->shape, out_shape, "input " + std::to_string(j)));
  }
  const auto need = [&](std::size_t n) {
    if (ins.size() != n) {
      throw EvalError("expects " + std::to_string(n) + " inputs, has " +
                      std::to_string(ins.size()));
    }
  };

  if (code == OpCode::kCast && !ins.empty() && !ins[0]->is_float && !out.is_float &&
      out.dtype != DType::kBool) {
    // Integer to integer Cast saturates, as AscendC's does: its documented integer pairs
    // (int32 -> int16, int64 -> int32) and the chains through fp16/fp32 the compiler uses for the
    // other pairs (split_casts) all clamp. Arithmetic still wraps. (Found by the soak.)
    need(1);
    const Value& x = *ins[0];
    ForEach<1>(out_shape, {st.data()}, [&](std::int64_t k, const auto& o) {
      out.PutInt(k, SaturateInt(x.i[static_cast<std::size_t>(o[0])], out.dtype));
    });
    return out;
  }
  if (code == OpCode::kCast || code == OpCode::kBroadcast) {
    need(1);
    const Value& x = *ins[0];
    ForEach<1>(out_shape, {st.data()},
               [&](std::int64_t k, const auto& o) { CopyElem(out, k, x, o[0]); });
    return out;
  }
  if (code == OpCode::kLogicalNot) {
    need(1);
    const Value& x = *ins[0];
    ForEach<1>(out_shape, {st.data()},
               [&](std::int64_t k, const auto& o) { out.PutInt(k, x.Nonzero(o[0]) ? 0 : 1); });
    return out;
  }
  if (IsFloatOnlyUnary(code) || code == OpCode::kAbs || code == OpCode::kNeg ||
      code == OpCode::kRelu || code == OpCode::kSign) {
    need(1);
    const Value& x = *ins[0];
    if (x.is_float || IsFloatOnlyUnary(code)) {
      ForEach<1>(out_shape, {st.data()},
                 [&](std::int64_t k, const auto& o) { out.PutDouble(k, UnaryF(code, x.F(o[0]))); });
    } else {
      ForEach<1>(out_shape, {st.data()}, [&](std::int64_t k, const auto& o) {
        out.PutInt(k, UnaryI(code, x.i[static_cast<std::size_t>(o[0])]));
      });
    }
    return out;
  }
  if (IsArithmetic(code) || code == OpCode::kTrueDiv) {
    need(2);
    const Value& a = *ins[0];
    const Value& b = *ins[1];
    if (!a.is_float && !b.is_float && code != OpCode::kTrueDiv) {
      ForEach<2>(out_shape, {st.data(), &st[1]}, [&](std::int64_t k, const auto& o) {
        out.PutInt(k, ArithI(code, a.i[static_cast<std::size_t>(o[0])],
                             b.i[static_cast<std::size_t>(o[1])]));
      });
    } else {
      ForEach<2>(out_shape, {st.data(), &st[1]}, [&](std::int64_t k, const auto& o) {
        out.PutDouble(k, ArithF(code, a.F(o[0]), b.F(o[1])));
      });
    }
    return out;
  }
  if (IsComparison(code)) {
    need(2);
    const Value& a = *ins[0];
    const Value& b = *ins[1];
    if (!a.is_float && !b.is_float) {
      ForEach<2>(out_shape, {st.data(), &st[1]}, [&](std::int64_t k, const auto& o) {
        out.PutInt(k, Compare(code, a.i[static_cast<std::size_t>(o[0])],
                              b.i[static_cast<std::size_t>(o[1])])
                          ? 1
                          : 0);
      });
    } else {
      ForEach<2>(out_shape, {st.data(), &st[1]}, [&](std::int64_t k, const auto& o) {
        out.PutInt(k, Compare(code, a.F(o[0]), b.F(o[1])) ? 1 : 0);
      });
    }
    return out;
  }
  if (code == OpCode::kLogicalAnd || code == OpCode::kLogicalOr) {
    need(2);
    const Value& a = *ins[0];
    const Value& b = *ins[1];
    const bool is_and = code == OpCode::kLogicalAnd;
    ForEach<2>(out_shape, {st.data(), &st[1]}, [&](std::int64_t k, const auto& o) {
      const bool x = a.Nonzero(o[0]);
      const bool y = b.Nonzero(o[1]);
      out.PutInt(k, (is_and ? (x && y) : (x || y)) ? 1 : 0);
    });
    return out;
  }
  if (code == OpCode::kWhere || code == OpCode::kSelect) {
    need(3);
    const Value& c = *ins[0];
    const Value& x = *ins[1];
    const Value& y = *ins[2];
    ForEach<3>(out_shape, {st.data(), &st[1], &st[2]}, [&](std::int64_t k, const auto& o) {
      if (c.Nonzero(o[0])) {
        CopyElem(out, k, x, o[1]);
      } else {
        CopyElem(out, k, y, o[2]);
      }
    });
    return out;
  }
  throw EvalError("op is not elementwise");
}

}  // namespace af::interp::detail
