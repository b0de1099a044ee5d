// Internal to the interpreter: the data-movement ops over dense values (Transpose, Concat, Split,
// Gather, Pad, RemovePad). The driver resolves the views (permutation, concat / split dim,
// Gather axis) from the IR; these functions check the evaluated shapes and move the elements.
// Values keep their elements exactly; each element is rounded into the output dtype (a no-op
// when it matches the input's, as validation requires).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "value.h"

namespace af::interp::detail {

// out[o] = x[i] with i[perm[j]] = o[j]; out_shape[j] must equal x.shape[perm[j]].
Value EvalTranspose(const Value& x, const std::vector<std::size_t>& perm, ir::DType out_dtype,
                    const std::vector<std::int64_t>& out_shape);

// Joins `ins` along `dim` (the IR's concat dim; when absent, the first dim where an input's shape
// differs from out_shape). Every other dim must equal out_shape and the inputs' extents along
// `dim` must add up to out_shape[dim].
Value EvalConcat(const std::vector<const Value*>& ins, std::optional<std::size_t> dim,
                 ir::DType out_dtype, const std::vector<std::int64_t>& out_shape);

// One piece of a split as the driver describes it.
struct PieceSpec {
  ir::DType dtype = ir::DType::kFloat32;
  std::vector<std::int64_t> shape;
  bool wanted = false;  // produce this piece's value (false: it only shifts later pieces)
};
// Cuts `x` along `dim` (the IR's split dim; when absent, the first dim where a piece's shape
// differs from x's) into consecutive pieces; returns one value per piece (empty for unwanted
// ones). Every other dim must equal x's and the extents must add up to x's.
std::vector<Value> EvalSplit(const Value& x, std::optional<std::size_t> dim,
                             const std::vector<PieceSpec>& pieces);

// out[pre, j, post] = x[pre, idx(indices[j]), post] over params dim `axis`. idx(v) = v, or
// v + n for v < 0 when negative_index_support; anything outside [0, n) is an EvalError naming
// the index and its position. Every index is checked, even when the output is empty.
Value EvalGather(const Value& x, const Value& indices, std::size_t axis,
                 bool negative_index_support, ir::DType out_dtype,
                 const std::vector<std::int64_t>& out_shape);

// Pad (out_shape >= x.shape per dim, the new elements 0) and RemovePad (out_shape <= x.shape,
// the leading box kept). Equal shapes copy.
Value EvalPad(const Value& x, bool pad, ir::DType out_dtype,
              const std::vector<std::int64_t>& out_shape);

}  // namespace af::interp::detail
