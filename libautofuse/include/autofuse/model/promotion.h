// PyTorch type promotion, for inferring the dtype of aten ops from their operands.
//
// The rule (PyTorch's documented "type promotion" semantics): operands fall into three classes,
// tensors with at least one dimension, zero-dimensional tensors, and Python scalars (including
// SymInt/SymFloat/SymBool). Each class is promoted within itself; then a lower-priority class
// only matters when its category (bool < integer < floating) is higher than that of the classes
// above it. A Python scalar stands for the default dtype of its category: bool, int64, float32.
#pragma once

#include <optional>
#include <vector>

#include "autofuse/ir/dtype.h"

namespace af::model {

enum class DTypeCategory : int { kBool = 0, kInteger = 1, kFloating = 2 };
DTypeCategory CategoryOf(ir::DType t);

// The smallest dtype both a and b convert to without loss of category (torch.promote_types):
// f16 + bf16 -> f32, u8 + i8 -> i16, i64 + f16 -> f16, bool + anything -> the other. nullopt for
// kUndefined or combinations PyTorch rejects (uint64 with a signed type).
std::optional<ir::DType> PromoteTypes(ir::DType a, ir::DType b);

// One operand of an op whose dtype follows promotion.
struct PromotionOperand {
  enum class Class : int { kDimTensor, kZeroDimTensor, kScalar };
  Class cls = Class::kDimTensor;
  ir::DType dtype = ir::DType::kUndefined;  // for kScalar: kBool, kInt64 or kFloat32
};

// torch.result_type over the operands; nullopt when there are none or a dtype is undefined.
std::optional<ir::DType> ResultType(const std::vector<PromotionOperand>& operands);

}  // namespace af::model
