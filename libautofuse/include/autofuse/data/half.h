// 16-bit floating point formats (IEEE fp16 and bfloat16) as bit patterns, with exact widening and
// round-to-nearest-even narrowing. Host arrays, .npy files and the reference interpreter keep
// fp16/bf16 elements as their uint16 patterns and compute in double, so every narrowing in the
// project goes through these functions and rounds exactly as the hardware's RNE conversions do.
//
// Narrowing is done directly from double (no intermediate float), so there is no double rounding.
// NaN stays NaN (the sign and the top payload bits are kept; a payload that would vanish becomes
// the quiet bit), overflow rounds to infinity, tiny values round to (signed) zero or subnormals.
#pragma once

#include <cstdint>

#include "autofuse/ir/dtype.h"

namespace af::data {

std::uint16_t DoubleToHalfBits(double v);     // RNE
double HalfBitsToDouble(std::uint16_t bits);  // exact

std::uint16_t DoubleToBf16Bits(double v);     // RNE
double Bf16BitsToDouble(std::uint16_t bits);  // exact

// The value of `v` after storing it in a floating dtype (fp32, fp16, bf16: RNE; fp64: itself).
// For any other dtype `v` is returned unchanged.
double RoundToFloatDType(double v, ir::DType t);

}  // namespace af::data
