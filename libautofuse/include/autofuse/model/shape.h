// Shape arithmetic on symbolic sizes: broadcasting, dimension normalisation, element counts.
// Sizes are canonical sym::Expr, so equal sizes compare equal; where a decision depends on the
// value of a symbol (is s0 equal to 1?) the functions say so instead of guessing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "autofuse/sym/expr.h"

namespace af::model {

using Shape = std::vector<sym::Expr>;

// NumPy/PyTorch broadcasting of two shapes (aligned at the right). Returns nullopt and sets *why
// when two sizes differ and neither is 1, or when a symbolic size is compared with another size
// that differs from it (deciding would need a guard).
std::optional<Shape> BroadcastShapes(const Shape& a, const Shape& b, std::string* why);

// A dimension index in [-rank, rank) made non-negative; nullopt when out of range. A rank-0
// tensor accepts -1 and 0 (PyTorch wraps scalars as rank 1 for this purpose).
std::optional<int> NormalizeDim(std::int64_t dim, std::size_t rank);

// Product of the sizes (1 for a rank-0 shape).
sym::Expr Numel(const Shape& s);

// Contiguous (row-major) strides of a shape.
Shape ContiguousStrides(const Shape& s);

// "[s0, 3]".
std::string ShapeToString(const Shape& s);

}  // namespace af::model
