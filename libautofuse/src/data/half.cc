// fp16 / bf16 conversions by integer arithmetic on the IEEE-754 double bit pattern.
#include "autofuse/data/half.h"

#include <bit>
#include <cfloat>
#include <cmath>

namespace af::data {
namespace {

// Narrows a double to a binary format with `kExpBits` exponent bits and `kMantBits` stored
// mantissa bits (fp16: 5/10, bf16: 8/7), rounding to nearest, ties to even.
template <int kExpBits, int kMantBits>
std::uint32_t NarrowDouble(double v) {
  constexpr int kBias = (1 << (kExpBits - 1)) - 1;
  constexpr int kEmin = 1 - kBias;  // exponent of the smallest normal
  constexpr std::uint32_t kInf = ((1u << kExpBits) - 1u) << kMantBits;
  constexpr std::uint32_t kQuiet = 1u << (kMantBits - 1);

  const auto d = std::bit_cast<std::uint64_t>(v);
  const std::uint32_t sign = static_cast<std::uint32_t>(d >> 63) << (kExpBits + kMantBits);
  const int exp_field = static_cast<int>((d >> 52) & 0x7FF);
  const std::uint64_t frac = d & ((std::uint64_t{1} << 52) - 1);

  if (exp_field == 0x7FF) {  // inf or NaN
    if (frac == 0) return sign | kInf;
    auto payload = static_cast<std::uint32_t>(frac >> (52 - kMantBits));
    if (payload == 0) payload = kQuiet;
    return sign | kInf | payload;
  }
  if (exp_field == 0) {
    // Zero or a double subnormal (< 2^-1022): far below the smallest target subnormal.
    return sign;
  }
  const int e = exp_field - 1023;  // unbiased exponent
  if (e > kBias) return sign | kInf;
  const std::uint64_t m = frac | (std::uint64_t{1} << 52);  // 53-bit significand
  // Bits to drop: the mantissa difference, plus the denormalisation shift below kEmin.
  const int shift = 52 - kMantBits + (e < kEmin ? kEmin - e : 0);
  if (shift > 53) return sign;  // below half the smallest subnormal
  std::uint64_t q = m >> shift;
  const std::uint64_t rem = m & ((std::uint64_t{1} << shift) - 1);
  const std::uint64_t half = std::uint64_t{1} << (shift - 1);
  if (rem > half || (rem == half && (q & 1u) != 0)) ++q;
  // For normals q carries the implicit bit, so adding it to (biased exponent - 1) lets a rounding
  // carry move into the exponent field (and up to infinity) by itself. For subnormals q is the
  // field itself (a carry yields the smallest normal).
  std::uint64_t bits = q;
  if (e >= kEmin) bits += static_cast<std::uint64_t>(e + kBias - 1) << kMantBits;
  if (bits >= kInf) bits = kInf;
  return sign | static_cast<std::uint32_t>(bits);
}

}  // namespace

std::uint16_t DoubleToHalfBits(double v) {
  return static_cast<std::uint16_t>(NarrowDouble<5, 10>(v));
}

double HalfBitsToDouble(std::uint16_t bits) {
  const bool neg = (bits & 0x8000u) != 0;
  const int exp_field = (bits >> 10) & 0x1F;
  const int frac = bits & 0x3FF;
  double mag = 0;
  if (exp_field == 0x1F) {
    // Infinity, or a NaN whose payload moves to the top of the double's fraction.
    mag = std::bit_cast<double>((std::uint64_t{0x7FF} << 52) |
                                (static_cast<std::uint64_t>(frac) << 42));
  } else if (exp_field == 0) {
    mag = std::ldexp(static_cast<double>(frac), -24);
  } else {
    mag = std::ldexp(static_cast<double>(frac | 0x400), exp_field - 25);
  }
  return neg ? -mag : mag;
}

std::uint16_t DoubleToBf16Bits(double v) {
  return static_cast<std::uint16_t>(NarrowDouble<8, 7>(v));
}

double Bf16BitsToDouble(std::uint16_t bits) {
  return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16));
}

double RoundToFloatDType(double v, ir::DType t) {
  switch (t) {
    case ir::DType::kFloat32:
      // The hardware conversion is RNE and exact for NaN/inf; only finite values beyond the
      // float range (undefined for a C++ cast) take the slow path.
      if (!(std::fabs(v) > static_cast<double>(FLT_MAX)) || std::isinf(v)) {
        return static_cast<double>(static_cast<float>(v));
      }
      return static_cast<double>(std::bit_cast<float>(NarrowDouble<8, 23>(v)));
    case ir::DType::kFloat16:
      return HalfBitsToDouble(DoubleToHalfBits(v));
    case ir::DType::kBFloat16:
      return Bf16BitsToDouble(DoubleToBf16Bits(v));
    default:
      return v;
  }
}

}  // namespace af::data
