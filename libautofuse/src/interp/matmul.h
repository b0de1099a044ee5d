// Internal to the interpreter: the cube ops (MatMul, MatMulBias, BatchMatMul[Bias]) over dense
// values, with the shape rules of autofuse/ir/cube.h.
#pragma once

#include <cstdint>
#include <vector>

#include "autofuse/ir/cube.h"
#include "value.h"

namespace af::interp::detail {

// out[b.., i, j] = relu?(sum_k x1[b.., i, k] * x2[b.., k, j] + bias[.., j]) rounded once into
// `out_dtype`; products and sums in double. Throws EvalError when shapes disagree with `out_shape`.
Value EvalMatMul(const ir::MatMulInfo& m, const Value& x1, const Value& x2, const Value* bias,
                 ir::DType out_dtype, const std::vector<std::int64_t>& out_shape);

}  // namespace af::interp::detail
