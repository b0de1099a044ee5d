// HostArray: a dense, C-ordered n-dimensional array in host memory with an AscGraph dtype. It is
// the currency between test inputs, .npy files, the reference interpreter and (later) the
// compiled kernels, so it stores elements exactly as the device does: fp16 and bf16 as their
// 16-bit patterns, bool as one byte 0/1, everything little endian and naturally sized.
//
// Element access goes through typed Get/Set (raw storage type, size-checked) or through the
// value-level GetAsDouble/SetFromDouble and GetAsInt/SetFromInt, whose conversion rules are:
//   - to a float dtype: round to nearest even (fp16/bf16 by our own conversions, see half.h);
//   - double to an integer dtype: truncate toward zero like C, NaN -> 0, saturate at the range;
//   - int64 to an integer dtype: wrap modulo 2^bits (two's complement), like a C cast / numpy;
//   - to bool: nonzero (NaN included) -> 1, zero -> 0.
// uint64 elements above 2^63 read through GetAsInt as their two's-complement int64 pattern.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "autofuse/ir/dtype.h"

namespace af::data {

struct HostArray {
  ir::DType dtype = ir::DType::kFloat32;
  std::vector<std::int64_t> shape;  // C order; empty = a scalar (one element)
  std::vector<std::uint8_t> bytes;  // numel() * DTypeBytes(dtype) bytes

  // Product of the dims (1 for rank 0). Throws std::invalid_argument on a negative dim or an
  // overflowing product.
  std::int64_t numel() const;
  int itemsize() const { return ir::DTypeBytes(dtype); }

  // Raw element access in the storage type T (float, std::uint16_t for fp16/bf16 bits,
  // std::int32_t, std::uint8_t for bool, ...). Throws std::out_of_range on a bad index and
  // std::invalid_argument when sizeof(T) is not the element size.
  template <typename T>
  T Get(std::int64_t i) const {
    T v;
    std::memcpy(&v, bytes.data() + Offset(i, sizeof(T)), sizeof(T));
    return v;
  }
  template <typename T>
  void Set(std::int64_t i, T v) {
    std::memcpy(bytes.data() + Offset(i, sizeof(T)), &v, sizeof(T));
  }

  // Value-level access (conversion rules above). Throw std::out_of_range on a bad index.
  double GetAsDouble(std::int64_t i) const;
  void SetFromDouble(std::int64_t i, double v);
  std::int64_t GetAsInt(std::int64_t i) const;  // floats: truncation toward zero, NaN -> 0
  void SetFromInt(std::int64_t i, std::int64_t v);

  friend bool operator==(const HostArray&, const HostArray&) = default;

 private:
  std::size_t Offset(std::int64_t i, std::size_t size) const;
};

// "(2, 3)", "()" for rank 0, "(5,)" for rank 1 -- NumPy's spelling.
std::string ShapeToString(const std::vector<std::int64_t>& shape);
// Number of elements of a shape; throws std::invalid_argument on negative dims or overflow.
std::int64_t ShapeNumel(const std::vector<std::int64_t>& shape);

// An array of zeros.
HostArray Zeros(ir::DType dtype, std::vector<std::int64_t> shape);
// An array filled from values in C order (each stored with SetFromDouble); the count must match.
HostArray FromDoubles(ir::DType dtype, std::vector<std::int64_t> shape,
                      const std::vector<double>& values);
// All elements as doubles, in C order.
std::vector<double> ToDoubles(const HostArray& a);
// Element-wise conversion to another dtype with the rules above (integers go through int64, so
// integer-to-integer conversion is exact or wraps; floats go through double).
HostArray Convert(const HostArray& a, ir::DType dtype);
// Reproducible pseudo-random data from a 64-bit seed (same bytes on every platform):
//   float dtypes: uniform in [lo, hi), rounded to the dtype;
//   integer dtypes: uniform integers in [ceil(lo), floor(hi)], clamped to the dtype's range;
//   bool: 0 or 1 with equal probability (lo/hi ignored).
HostArray RandomArray(ir::DType dtype, std::vector<std::int64_t> shape, std::uint64_t seed,
                      double lo = -1.0, double hi = 1.0);

}  // namespace af::data
