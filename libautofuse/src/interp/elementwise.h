// Internal to the interpreter: elementwise ops (unary, binary, Where/Select, Cast, Broadcast)
// evaluated over dense values with implicit broadcasting of size-1 dims and rank-0 operands.
#pragma once

#include <vector>

#include "autofuse/ir/op_registry.h"
#include "value.h"

namespace af::interp::detail {

// Evaluates `code` on `ins` into a new value of `out_dtype` over `out_shape`. Throws EvalError on
// shapes that do not broadcast, integer division by zero and op codes that are not elementwise.
Value EvalElementwise(ir::OpCode code, const std::vector<const Value*>& ins, ir::DType out_dtype,
                      const std::vector<std::int64_t>& out_shape);

}  // namespace af::interp::detail
