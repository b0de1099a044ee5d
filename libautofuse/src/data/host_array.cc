// HostArray element access, conversion and construction.
#include "autofuse/data/host_array.h"

#include <cmath>
#include <limits>
#include <random>

#include "autofuse/data/half.h"

namespace af::data {
namespace {

using ir::DType;

// Truncates toward zero and saturates at [lo, hi]; NaN gives 0. lo/hi are exact doubles or the
// first double outside the range, so the comparisons decide saturation exactly.
template <typename T>
T SaturatingFromDouble(double v) {
  if (std::isnan(v)) return T{0};
  const double t = std::trunc(v);
  // 2^bits boundaries are exact in double; the max of a 64-bit type is not, so compare with the
  // power of two just above it.
  constexpr auto kLo = static_cast<double>(std::numeric_limits<T>::min());
  constexpr double kHiExcl = static_cast<double>(std::numeric_limits<T>::max() / 2 + 1) * 2.0;
  if (t < kLo) return std::numeric_limits<T>::min();
  if (t >= kHiExcl) return std::numeric_limits<T>::max();
  return static_cast<T>(t);
}

}  // namespace

std::int64_t ShapeNumel(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) {
    if (d < 0) throw std::invalid_argument("negative dimension in shape " + ShapeToString(shape));
    if (__builtin_mul_overflow(n, d, &n)) {
      throw std::invalid_argument("element count of shape " + ShapeToString(shape) +
                                  " overflows int64");
    }
  }
  return n;
}

std::string ShapeToString(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

std::int64_t HostArray::numel() const {
  return ShapeNumel(shape);
}

std::size_t HostArray::Offset(std::int64_t i, std::size_t size) const {
  if (static_cast<int>(size) != itemsize()) {
    throw std::invalid_argument("element of " + std::string(ir::DTypeName(dtype)) + " is " +
                                std::to_string(itemsize()) + " bytes, accessed as " +
                                std::to_string(size));
  }
  if (i < 0 || static_cast<std::uint64_t>(i) >= bytes.size() / size) {
    throw std::out_of_range("element index " + std::to_string(i) + " outside an array of " +
                            std::to_string(bytes.size() / size) + " elements");
  }
  return static_cast<std::size_t>(i) * size;
}

double HostArray::GetAsDouble(std::int64_t i) const {
  switch (dtype) {
    case DType::kFloat32:
      return static_cast<double>(Get<float>(i));
    case DType::kFloat16:
      return HalfBitsToDouble(Get<std::uint16_t>(i));
    case DType::kBFloat16:
      return Bf16BitsToDouble(Get<std::uint16_t>(i));
    case DType::kFloat64:
      return Get<double>(i);
    case DType::kUInt64:
      return static_cast<double>(Get<std::uint64_t>(i));
    default:
      return static_cast<double>(GetAsInt(i));
  }
}

void HostArray::SetFromDouble(std::int64_t i, double v) {
  switch (dtype) {
    case DType::kFloat32:
      Set<float>(i, static_cast<float>(RoundToFloatDType(v, DType::kFloat32)));
      return;
    case DType::kFloat16:
      Set<std::uint16_t>(i, DoubleToHalfBits(v));
      return;
    case DType::kBFloat16:
      Set<std::uint16_t>(i, DoubleToBf16Bits(v));
      return;
    case DType::kFloat64:
      Set<double>(i, v);
      return;
    case DType::kInt8:
      Set<std::int8_t>(i, SaturatingFromDouble<std::int8_t>(v));
      return;
    case DType::kInt16:
      Set<std::int16_t>(i, SaturatingFromDouble<std::int16_t>(v));
      return;
    case DType::kInt32:
      Set<std::int32_t>(i, SaturatingFromDouble<std::int32_t>(v));
      return;
    case DType::kInt64:
      Set<std::int64_t>(i, SaturatingFromDouble<std::int64_t>(v));
      return;
    case DType::kUInt8:
      Set<std::uint8_t>(i, SaturatingFromDouble<std::uint8_t>(v));
      return;
    case DType::kUInt16:
      Set<std::uint16_t>(i, SaturatingFromDouble<std::uint16_t>(v));
      return;
    case DType::kUInt32:
      Set<std::uint32_t>(i, SaturatingFromDouble<std::uint32_t>(v));
      return;
    case DType::kUInt64:
      Set<std::uint64_t>(i, SaturatingFromDouble<std::uint64_t>(v));
      return;
    case DType::kBool:
      Set<std::uint8_t>(i, v != 0.0 ? 1 : 0);  // NaN != 0
      return;
    case DType::kUndefined:
      break;
  }
  throw std::invalid_argument("array of undefined dtype");
}

std::int64_t HostArray::GetAsInt(std::int64_t i) const {
  switch (dtype) {
    case DType::kFloat32:
    case DType::kFloat16:
    case DType::kBFloat16:
    case DType::kFloat64:
      return SaturatingFromDouble<std::int64_t>(GetAsDouble(i));
    case DType::kInt8:
      return Get<std::int8_t>(i);
    case DType::kInt16:
      return Get<std::int16_t>(i);
    case DType::kInt32:
      return Get<std::int32_t>(i);
    case DType::kInt64:
      return Get<std::int64_t>(i);
    case DType::kUInt8:
      return Get<std::uint8_t>(i);
    case DType::kUInt16:
      return Get<std::uint16_t>(i);
    case DType::kUInt32:
      return Get<std::uint32_t>(i);
    case DType::kUInt64:
      return static_cast<std::int64_t>(Get<std::uint64_t>(i));
    case DType::kBool:
      return Get<std::uint8_t>(i) != 0 ? 1 : 0;
    case DType::kUndefined:
      break;
  }
  throw std::invalid_argument("array of undefined dtype");
}

void HostArray::SetFromInt(std::int64_t i, std::int64_t v) {
  switch (dtype) {
    case DType::kInt8:
      Set<std::int8_t>(i, static_cast<std::int8_t>(v));
      return;
    case DType::kInt16:
      Set<std::int16_t>(i, static_cast<std::int16_t>(v));
      return;
    case DType::kInt32:
      Set<std::int32_t>(i, static_cast<std::int32_t>(v));
      return;
    case DType::kInt64:
      Set<std::int64_t>(i, v);
      return;
    case DType::kUInt8:
      Set<std::uint8_t>(i, static_cast<std::uint8_t>(v));
      return;
    case DType::kUInt16:
      Set<std::uint16_t>(i, static_cast<std::uint16_t>(v));
      return;
    case DType::kUInt32:
      Set<std::uint32_t>(i, static_cast<std::uint32_t>(v));
      return;
    case DType::kUInt64:
      Set<std::uint64_t>(i, static_cast<std::uint64_t>(v));
      return;
    case DType::kBool:
      Set<std::uint8_t>(i, v != 0 ? 1 : 0);
      return;
    default:
      SetFromDouble(i, static_cast<double>(v));
      return;
  }
}

HostArray Zeros(ir::DType dtype, std::vector<std::int64_t> shape) {
  if (dtype == DType::kUndefined) throw std::invalid_argument("array of undefined dtype");
  HostArray a;
  a.dtype = dtype;
  a.shape = std::move(shape);
  const std::int64_t n = a.numel();
  a.bytes.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(a.itemsize()), 0);
  return a;
}

HostArray FromDoubles(ir::DType dtype, std::vector<std::int64_t> shape,
                      const std::vector<double>& values) {
  HostArray a = Zeros(dtype, std::move(shape));
  if (static_cast<std::int64_t>(values.size()) != a.numel()) {
    throw std::invalid_argument(std::to_string(values.size()) + " values for shape " +
                                ShapeToString(a.shape));
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    a.SetFromDouble(static_cast<std::int64_t>(i), values[i]);
  }
  return a;
}

std::vector<double> ToDoubles(const HostArray& a) {
  const std::int64_t n = a.numel();
  std::vector<double> out(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    out[static_cast<std::size_t>(i)] = a.GetAsDouble(i);
  return out;
}

HostArray Convert(const HostArray& a, ir::DType dtype) {
  HostArray out = Zeros(dtype, a.shape);
  const std::int64_t n = a.numel();
  const bool from_float = ir::IsFloat(a.dtype);
  for (std::int64_t i = 0; i < n; ++i) {
    if (from_float) {
      out.SetFromDouble(i, a.GetAsDouble(i));
    } else if (a.dtype == DType::kUInt64 && ir::IsFloat(dtype)) {
      out.SetFromDouble(i, a.GetAsDouble(i));  // keep values above 2^63 positive
    } else {
      out.SetFromInt(i, a.GetAsInt(i));
    }
  }
  return out;
}

HostArray RandomArray(ir::DType dtype, std::vector<std::int64_t> shape, std::uint64_t seed,
                      double lo, double hi) {
  HostArray a = Zeros(dtype, std::move(shape));
  const std::int64_t n = a.numel();
  std::mt19937_64 gen(seed);  // the standard fixes its output sequence
  if (ir::IsFloat(dtype)) {
    if (!(lo <= hi)) throw std::invalid_argument("RandomArray: lo > hi");
    for (std::int64_t i = 0; i < n; ++i) {
      const double u = static_cast<double>(gen() >> 11) * 0x1.0p-53;  // [0, 1)
      a.SetFromDouble(i, lo + u * (hi - lo));
    }
    return a;
  }
  if (dtype == DType::kBool) {
    for (std::int64_t i = 0; i < n; ++i)
      a.SetFromInt(i, static_cast<std::int64_t>(gen() >> 63));
    return a;
  }
  // Integer range, clamped to the dtype (uint64 is drawn within the int64 range).
  HostArray probe = Zeros(dtype, {2});
  probe.SetFromDouble(0, -HUGE_VAL);
  probe.SetFromDouble(1, HUGE_VAL);
  const auto tmin = static_cast<double>(probe.GetAsInt(0));
  const double tmax = dtype == DType::kUInt64 ? 0x1.0p63 : static_cast<double>(probe.GetAsInt(1));
  const double flo = std::max(std::ceil(lo), tmin);
  const double fhi = std::min(std::floor(hi), tmax);
  if (!(flo <= fhi)) throw std::invalid_argument("RandomArray: no integer in [lo, hi]");
  const auto ilo = SaturatingFromDouble<std::int64_t>(flo);
  const auto ihi = SaturatingFromDouble<std::int64_t>(fhi);
  const std::uint64_t span = static_cast<std::uint64_t>(ihi) - static_cast<std::uint64_t>(ilo) + 1;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t r = span == 0 ? gen() : gen() % span;  // span 0: the full 2^64 range
    a.SetFromInt(i, static_cast<std::int64_t>(static_cast<std::uint64_t>(ilo) + r));
  }
  return a;
}

}  // namespace af::data
