// Internal to the interpreter: keep-dim reductions (Sum Mean Max Min Prod Any All) and V2's
// Softmax.
#pragma once

#include <vector>

#include "autofuse/ir/op_registry.h"
#include "value.h"

namespace af::interp::detail {

// Reduces `in` over the dims flagged in `reduced` (out_shape has 1 there and equals the input
// elsewhere). Floats (and Mean) accumulate in double and round once into `out_dtype`; integers
// accumulate in int64 with wrap-around. Max/Min propagate NaN. An empty reduction gives the
// identity (0, 1, -inf / +inf or the int64 extremes wrapped, false, true; Mean: NaN).
Value EvalReduce(ir::OpCode code, const Value& in, const std::vector<bool>& reduced,
                 ir::DType out_dtype, const std::vector<std::int64_t>& out_shape);

// softmax(in) along the last dim, in double (the row's maximum subtracted first), rounded once
// into `out_dtype`; a row holding NaN gives NaN, a row of -inf gives NaN (as PyTorch).
Value EvalSoftmax(const Value& in, ir::DType out_dtype);

}  // namespace af::interp::detail
