// Type promotion: the promote_types lattice and result_type over operand classes.
#include "autofuse/model/promotion.h"

namespace af::model {
namespace {

using ir::DType;

int IntBits(DType t) {
  return ir::DTypeBytes(t) * 8;
}

// A signed integer type of at least `bits` bits.
std::optional<DType> SignedOfBits(int bits) {
  if (bits <= 8) return DType::kInt8;
  if (bits <= 16) return DType::kInt16;
  if (bits <= 32) return DType::kInt32;
  if (bits <= 64) return DType::kInt64;
  return std::nullopt;
}

std::optional<DType> PromoteInts(DType a, DType b) {
  const bool sa = ir::IsSignedInt(a);
  const bool sb = ir::IsSignedInt(b);
  if (sa == sb) return IntBits(a) >= IntBits(b) ? a : b;
  const DType u = sa ? b : a;
  const DType s = sa ? a : b;
  if (u == DType::kUInt64) return std::nullopt;
  // The signed type must hold every value of the unsigned one.
  if (IntBits(s) > IntBits(u)) return s;
  return SignedOfBits(IntBits(u) * 2);
}

std::optional<DType> PromoteFloats(DType a, DType b) {
  if ((a == DType::kFloat16 && b == DType::kBFloat16) ||
      (a == DType::kBFloat16 && b == DType::kFloat16)) {
    return DType::kFloat32;
  }
  return ir::DTypeBytes(a) >= ir::DTypeBytes(b) ? a : b;
}

// Combines the result of a higher-priority operand class with a lower one: the lower class only
// counts when its category is higher.
std::optional<DType> Combine(std::optional<DType> higher, std::optional<DType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (CategoryOf(*lower) > CategoryOf(*higher)) return PromoteTypes(*higher, *lower);
  return higher;
}

}  // namespace

DTypeCategory CategoryOf(DType t) {
  if (t == DType::kBool) return DTypeCategory::kBool;
  if (ir::IsFloat(t)) return DTypeCategory::kFloating;
  return DTypeCategory::kInteger;
}

std::optional<DType> PromoteTypes(DType a, DType b) {
  if (a == DType::kUndefined || b == DType::kUndefined) return std::nullopt;
  if (a == b) return a;
  if (a == DType::kBool) return b;
  if (b == DType::kBool) return a;
  const bool fa = ir::IsFloat(a);
  const bool fb = ir::IsFloat(b);
  if (fa && fb) return PromoteFloats(a, b);
  if (fa) return a;
  if (fb) return b;
  return PromoteInts(a, b);
}

std::optional<DType> ResultType(const std::vector<PromotionOperand>& operands) {
  std::optional<DType> by_class[3];
  for (const auto& op : operands) {
    if (op.dtype == DType::kUndefined) return std::nullopt;
    auto& slot = by_class[static_cast<int>(op.cls)];
    if (!slot) {
      slot = op.dtype;
    } else {
      slot = PromoteTypes(*slot, op.dtype);
      if (!slot) return std::nullopt;
    }
  }
  return Combine(by_class[0], Combine(by_class[1], by_class[2]));
}

}  // namespace af::model
