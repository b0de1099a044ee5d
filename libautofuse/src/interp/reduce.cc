// Keep-dim reductions: one pass over the input, accumulating into a dense output-sized buffer.
#include "reduce.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "strided_counter.h"

namespace af::interp::detail {
namespace {

using ir::OpCode;

std::int64_t WrapAdd(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
std::int64_t WrapMul(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}

}  // namespace

Value EvalReduce(ir::OpCode code, const Value& in, const std::vector<bool>& reduced,
                 ir::DType out_dtype, const std::vector<std::int64_t>& out_shape) {
  if (in.shape.size() != out_shape.size() || reduced.size() != out_shape.size()) {
    throw EvalError("input " + ShapeString(in.shape) + " and output " + ShapeString(out_shape) +
                    " of a reduction must have the same rank (keep-dim view)");
  }
  switch (code) {
    case OpCode::kSum:
    case OpCode::kMean:
    case OpCode::kMax:
    case OpCode::kMin:
    case OpCode::kProd:
    case OpCode::kAny:
    case OpCode::kAll:
      break;
    default:
      throw EvalError("op is not a reduction");
  }
  Value out = MakeValue(out_dtype, out_shape);
  std::vector<std::int64_t> out_st = DenseStrides(out_shape);
  std::int64_t count = 1;  // elements folded into each output element
  for (std::size_t k = 0; k < reduced.size(); ++k) {
    if (reduced[k]) {
      out_st[k] = 0;
      count *= in.shape[k];
    } else if (in.shape[k] != out_shape[k]) {
      throw EvalError("input " + ShapeString(in.shape) + " and output " + ShapeString(out_shape) +
                      " differ in non-reduced dim " + std::to_string(k));
    }
  }
  const std::vector<std::int64_t> in_st = DenseStrides(in.shape);
  const std::int64_t n_in = in.numel();
  const std::int64_t n_out = out.numel();
  const auto nout = static_cast<std::size_t>(n_out);
  const bool logical = code == OpCode::kAny || code == OpCode::kAll;
  const bool in_double = in.is_float || code == OpCode::kMean;

  if (logical) {
    const bool is_all = code == OpCode::kAll;
    std::vector<std::int64_t> acc(nout, is_all ? 1 : 0);
    StridedCounter<2> c(in.shape, {&in_st, &out_st}, {});
    for (std::int64_t k = 0; k < n_in; ++k) {
      const auto& o = c.offsets();
      const bool v = in.Nonzero(o[0]);
      auto& a = acc[static_cast<std::size_t>(o[1])];
      a = is_all ? (a != 0 && v ? 1 : 0) : (a != 0 || v ? 1 : 0);
      c.Next();
    }
    for (std::size_t k = 0; k < nout; ++k)
      out.PutInt(static_cast<std::int64_t>(k), acc[k]);
    return out;
  }

  if (in_double) {
    double init = 0;
    if (code == OpCode::kProd) init = 1;
    if (code == OpCode::kMax) init = -HUGE_VAL;
    if (code == OpCode::kMin) init = HUGE_VAL;
    std::vector<double> acc(nout, init);
    StridedCounter<2> c(in.shape, {&in_st, &out_st}, {});
    for (std::int64_t k = 0; k < n_in; ++k) {
      const auto& o = c.offsets();
      const double v = in.F(o[0]);
      double& a = acc[static_cast<std::size_t>(o[1])];
      switch (code) {
        case OpCode::kSum:
        case OpCode::kMean:
          a += v;
          break;
        case OpCode::kProd:
          a *= v;
          break;
        case OpCode::kMax:
          if (std::isnan(v) || v > a) a = v;
          break;
        case OpCode::kMin:
          if (std::isnan(v) || v < a) a = v;
          break;
        default:
          throw EvalError("op is not a reduction");
      }
      c.Next();
    }
    for (std::size_t k = 0; k < nout; ++k) {
      double r = acc[k];
      if (code == OpCode::kMean) r = count == 0 ? std::nan("") : r / static_cast<double>(count);
      out.PutDouble(static_cast<std::int64_t>(k), r);
    }
    return out;
  }

  std::int64_t init = 0;
  if (code == OpCode::kProd) init = 1;
  if (code == OpCode::kMax) init = std::numeric_limits<std::int64_t>::min();
  if (code == OpCode::kMin) init = std::numeric_limits<std::int64_t>::max();
  std::vector<std::int64_t> acc(nout, init);
  StridedCounter<2> c(in.shape, {&in_st, &out_st}, {});
  for (std::int64_t k = 0; k < n_in; ++k) {
    const auto& o = c.offsets();
    const std::int64_t v = in.i[static_cast<std::size_t>(o[0])];
    std::int64_t& a = acc[static_cast<std::size_t>(o[1])];
    switch (code) {
      case OpCode::kSum:
        a = WrapAdd(a, v);
        break;
      case OpCode::kProd:
        a = WrapMul(a, v);
        break;
      case OpCode::kMax:
        a = v > a ? v : a;
        break;
      case OpCode::kMin:
        a = v < a ? v : a;
        break;
      default:
        throw EvalError("op is not a reduction");
    }
    c.Next();
  }
  for (std::size_t k = 0; k < nout; ++k)
    out.PutInt(static_cast<std::int64_t>(k), acc[k]);
  return out;
}

Value EvalSoftmax(const Value& in, ir::DType out_dtype) {
  Value out = MakeValue(out_dtype, in.shape);
  const std::int64_t n = in.shape.empty() ? 1 : in.shape.back();
  if (n == 0) return out;
  const std::int64_t rows = in.numel() / n;
  std::vector<double> e(static_cast<std::size_t>(n));
  for (std::int64_t r = 0; r < rows; ++r) {
    double m = -std::numeric_limits<double>::infinity();
    for (std::int64_t j = 0; j < n; ++j) {
      const double v = in.F(r * n + j);
      m = std::isnan(v) || std::isnan(m) ? std::numeric_limits<double>::quiet_NaN()
                                         : std::max(m, v);
    }
    double sum = 0.0;
    for (std::int64_t j = 0; j < n; ++j) {
      e[static_cast<std::size_t>(j)] = std::exp(in.F(r * n + j) - m);
      sum += e[static_cast<std::size_t>(j)];
    }
    for (std::int64_t j = 0; j < n; ++j)
      out.PutDouble(r * n + j, e[static_cast<std::size_t>(j)] / sum);
  }
  return out;
}

}  // namespace af::interp::detail
