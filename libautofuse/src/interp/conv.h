// Internal to the interpreter: Conv2D[Bias] over dense values, with the rules of
// autofuse/ir/conv.h.
#pragma once

#include <cstdint>
#include <vector>

#include "autofuse/ir/conv.h"
#include "value.h"

namespace af::interp::detail {

// out[n, co, i, j] = relu?(sum over the group's channels and the kh x kw window of
// x[n, ci, i * sh - pt + a * dh, j * sw - pl + b * dw] * filter[co, ci % (C / groups), a, b]
// + bias[co]) (zero outside the input), rounded once into `out_dtype`; products and sums in
// double. Layouts follow `c.nhwc`. Throws EvalError when the shapes disagree with `out_shape`.
Value EvalConv2D(const ir::ConvInfo& c, const Value& x, const Value& filter, const Value* bias,
                 ir::DType out_dtype, const std::vector<std::int64_t>& out_shape);

}  // namespace af::interp::detail
