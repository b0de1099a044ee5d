// Internal to the interpreter: the dense logical value of one node output, and the rounding that
// turns an exact double / int64 result into an element of a dtype.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "autofuse/ir/dtype.h"

namespace af::interp::detail {

// A failure while evaluating one node; the driver adds the graph and node to the message.
class EvalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Largest element count of one value (8 bytes each).
inline constexpr std::int64_t kMaxElements = std::int64_t{1} << 30;

// Dense C-order elements over `shape`. Float dtypes keep doubles (each exactly a value of the
// dtype), integer dtypes and bool keep int64 (already wrapped to the dtype, bool 0/1).
struct Value {
  ir::DType dtype = ir::DType::kFloat32;
  std::vector<std::int64_t> shape;
  bool is_float = true;
  std::vector<double> f;
  std::vector<std::int64_t> i;

  std::int64_t numel() const { return static_cast<std::int64_t>(is_float ? f.size() : i.size()); }
  double F(std::int64_t k) const {
    return is_float ? f[static_cast<std::size_t>(k)]
                    : static_cast<double>(i[static_cast<std::size_t>(k)]);
  }
  std::int64_t I(std::int64_t k) const;  // floats: truncation toward zero, saturating, NaN -> 0
  bool Nonzero(std::int64_t k) const {
    return is_float ? f[static_cast<std::size_t>(k)] != 0.0 : i[static_cast<std::size_t>(k)] != 0;
  }

  // Stores an exact result, rounded into the dtype: floats RNE; double -> integer truncates toward
  // zero and saturates (NaN -> 0); int64 -> integer wraps; anything -> bool is "nonzero".
  void PutDouble(std::int64_t k, double v);
  void PutInt(std::int64_t k, std::int64_t v);
};

// A zero-filled value; throws EvalError when the shape is negative or too large.
Value MakeValue(ir::DType dtype, const std::vector<std::int64_t>& shape);

// C-order strides of a dense array of `shape`.
std::vector<std::int64_t> DenseStrides(const std::vector<std::int64_t>& shape);

// Strides to read an operand of shape `in` at the multi-index of an output of shape `out`: a rank-0
// operand broadcasts everywhere; otherwise ranks must match and each dim must be equal or 1
// (broadcast, stride 0). Throws EvalError naming `what` otherwise.
std::vector<std::int64_t> BroadcastStrides(const std::vector<std::int64_t>& in,
                                           const std::vector<std::int64_t>& out,
                                           const std::string& what);

std::string ShapeString(const std::vector<std::int64_t>& shape);

}  // namespace af::interp::detail
