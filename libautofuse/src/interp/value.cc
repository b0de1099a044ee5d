// Node values and rounding into dtypes.
#include "value.h"

#include <cmath>
#include <limits>

#include "autofuse/data/half.h"
#include "autofuse/data/host_array.h"

namespace af::interp::detail {
namespace {

using ir::DType;

// Range of an integer dtype as int64 (uint64 is clamped to the int64 range).
std::pair<std::int64_t, std::int64_t> IntRange(DType t) {
  switch (t) {
    case DType::kInt8:
      return {INT8_MIN, INT8_MAX};
    case DType::kInt16:
      return {INT16_MIN, INT16_MAX};
    case DType::kInt32:
      return {INT32_MIN, INT32_MAX};
    case DType::kUInt8:
      return {0, UINT8_MAX};
    case DType::kUInt16:
      return {0, UINT16_MAX};
    case DType::kUInt32:
      return {0, UINT32_MAX};
    case DType::kUInt64:
      return {0, INT64_MAX};
    case DType::kBool:
      return {0, 1};
    default:
      return {INT64_MIN, INT64_MAX};
  }
}

std::int64_t TruncSaturate(double v, std::int64_t lo, std::int64_t hi) {
  if (std::isnan(v)) return 0;
  const double t = std::trunc(v);
  // Compare in double; 2^63 is the first double above INT64_MAX.
  if (t <= static_cast<double>(lo)) return lo;
  if (hi == INT64_MAX ? t >= 0x1.0p63 : t >= static_cast<double>(hi)) return hi;
  return static_cast<std::int64_t>(t);
}

std::int64_t Wrap(std::int64_t v, DType t) {
  switch (t) {
    case DType::kInt8:
      return static_cast<std::int8_t>(v);
    case DType::kInt16:
      return static_cast<std::int16_t>(v);
    case DType::kInt32:
      return static_cast<std::int32_t>(v);
    case DType::kUInt8:
      return static_cast<std::uint8_t>(v);
    case DType::kUInt16:
      return static_cast<std::uint16_t>(v);
    case DType::kUInt32:
      return static_cast<std::uint32_t>(v);
    case DType::kBool:
      return v != 0 ? 1 : 0;
    default:
      return v;  // int64, uint64 (as its two's-complement pattern)
  }
}

}  // namespace

std::int64_t Value::I(std::int64_t k) const {
  if (!is_float) return i[static_cast<std::size_t>(k)];
  return TruncSaturate(f[static_cast<std::size_t>(k)], INT64_MIN, INT64_MAX);
}

void Value::PutDouble(std::int64_t k, double v) {
  const auto idx = static_cast<std::size_t>(k);
  if (is_float) {
    f[idx] = data::RoundToFloatDType(v, dtype);
  } else if (dtype == DType::kBool) {
    i[idx] = v != 0.0 ? 1 : 0;
  } else {
    const auto [lo, hi] = IntRange(dtype);
    i[idx] = TruncSaturate(v, lo, hi);
  }
}

void Value::PutInt(std::int64_t k, std::int64_t v) {
  const auto idx = static_cast<std::size_t>(k);
  if (is_float) {
    f[idx] = data::RoundToFloatDType(static_cast<double>(v), dtype);
  } else {
    i[idx] = Wrap(v, dtype);
  }
}

Value MakeValue(ir::DType dtype, const std::vector<std::int64_t>& shape) {
  if (dtype == DType::kUndefined) throw EvalError("output dtype is undefined");
  std::int64_t n = 1;
  for (std::int64_t d : shape) {
    if (d < 0) throw EvalError("negative extent in shape " + ShapeString(shape));
    if (__builtin_mul_overflow(n, d, &n) || n > kMaxElements) {
      throw EvalError("shape " + ShapeString(shape) + " has more than 2^30 elements");
    }
  }
  Value v;
  v.dtype = dtype;
  v.shape = shape;
  v.is_float = ir::IsFloat(dtype);
  if (v.is_float) {
    v.f.assign(static_cast<std::size_t>(n), 0.0);
  } else {
    v.i.assign(static_cast<std::size_t>(n), 0);
  }
  return v;
}

std::vector<std::int64_t> DenseStrides(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> s(shape.size(), 0);
  std::int64_t acc = 1;
  for (std::size_t k = shape.size(); k-- > 0;) {
    s[k] = acc;
    acc *= shape[k];
  }
  return s;
}

std::vector<std::int64_t> BroadcastStrides(const std::vector<std::int64_t>& in,
                                           const std::vector<std::int64_t>& out,
                                           const std::string& what) {
  if (in.empty()) return std::vector<std::int64_t>(out.size(), 0);
  if (in.size() != out.size()) {
    throw EvalError(what + " has shape " + ShapeString(in) + ", rank " + std::to_string(in.size()) +
                    ", but the output " + ShapeString(out) + " has rank " +
                    std::to_string(out.size()));
  }
  std::vector<std::int64_t> s = DenseStrides(in);
  for (std::size_t k = 0; k < in.size(); ++k) {
    if (in[k] == out[k]) continue;
    if (in[k] == 1) {
      s[k] = 0;
      continue;
    }
    throw EvalError(what + " has shape " + ShapeString(in) + ", which does not broadcast to " +
                    ShapeString(out) + " (dim " + std::to_string(k) + ")");
  }
  return s;
}

std::string ShapeString(const std::vector<std::int64_t>& shape) {
  return data::ShapeToString(shape);
}

}  // namespace af::interp::detail
