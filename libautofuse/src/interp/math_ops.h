// Internal to the interpreter: the math op set of issue 22 (AutoFuse's V1 additions such as
// Gelu, FloorDiv, IsInf and MaskedFill, and the 950 math set: trigonometry, rounding, special
// functions, bitwise ops), one table entry per op, evaluated in double (floats) or int64.
#pragma once

#include <optional>
#include <vector>

#include "autofuse/ir/op_registry.h"
#include "value.h"

namespace af::interp::detail {

// Whether `code` is an op of this set.
bool IsMathOp(ir::OpCode code);

// Evaluates a math op (`attr`: Axpy's alpha or LeakyRelu's negative_slope, else unused) with
// implicit broadcasting like EvalElementwise. Throws EvalError on arity or dtype misuse.
Value EvalMath(ir::OpCode code, const std::vector<const Value*>& ins, ir::DType out_dtype,
               const std::vector<std::int64_t>& out_shape, double attr);

// ArgMax over the `reduced` dims: the C-order position (within the reduced dims) of the first
// maximum; NaN counts as the maximum (PyTorch's rule), the first NaN wins.
Value EvalArgMax(const Value& in, const std::vector<bool>& reduced, ir::DType out_dtype,
                 const std::vector<std::int64_t>& out_shape);

}  // namespace af::interp::detail
