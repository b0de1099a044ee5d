// Type promotion: the promote_types lattice and result_type's operand classes.
#include "autofuse/model/promotion.h"

#include <gtest/gtest.h>

namespace af::model {
namespace {

using ir::DType;
using C = PromotionOperand::Class;

TEST(Promotion, Lattice) {
  EXPECT_EQ(PromoteTypes(DType::kFloat16, DType::kBFloat16), DType::kFloat32);
  EXPECT_EQ(PromoteTypes(DType::kFloat16, DType::kFloat32), DType::kFloat32);
  EXPECT_EQ(PromoteTypes(DType::kFloat64, DType::kFloat32), DType::kFloat64);
  EXPECT_EQ(PromoteTypes(DType::kInt64, DType::kFloat16), DType::kFloat16);
  EXPECT_EQ(PromoteTypes(DType::kBool, DType::kInt8), DType::kInt8);
  EXPECT_EQ(PromoteTypes(DType::kUInt8, DType::kInt8), DType::kInt16);
  EXPECT_EQ(PromoteTypes(DType::kUInt8, DType::kInt32), DType::kInt32);
  EXPECT_EQ(PromoteTypes(DType::kInt32, DType::kInt64), DType::kInt64);
  EXPECT_EQ(PromoteTypes(DType::kBool, DType::kBool), DType::kBool);
  EXPECT_FALSE(PromoteTypes(DType::kUInt64, DType::kInt8));
  EXPECT_FALSE(PromoteTypes(DType::kUndefined, DType::kInt8));
  // Symmetric.
  for (int a = 0; a < static_cast<int>(DType::kUndefined); ++a) {
    for (int b = 0; b < static_cast<int>(DType::kUndefined); ++b) {
      EXPECT_EQ(PromoteTypes(DType(a), DType(b)), PromoteTypes(DType(b), DType(a)));
    }
  }
}

TEST(Promotion, ScalarsOnlyMatterWhenTheirCategoryIsHigher) {
  // int tensor + float scalar -> default float.
  EXPECT_EQ(ResultType({{C::kDimTensor, DType::kInt64}, {C::kScalar, DType::kFloat32}}),
            DType::kFloat32);
  // f16 tensor + float scalar stays f16.
  EXPECT_EQ(ResultType({{C::kDimTensor, DType::kFloat16}, {C::kScalar, DType::kFloat32}}),
            DType::kFloat16);
  // u8 tensor + int scalar stays u8; bool tensor + int scalar -> int64.
  EXPECT_EQ(ResultType({{C::kDimTensor, DType::kUInt8}, {C::kScalar, DType::kInt64}}),
            DType::kUInt8);
  EXPECT_EQ(ResultType({{C::kDimTensor, DType::kBool}, {C::kScalar, DType::kInt64}}),
            DType::kInt64);
  // int32 tensor + int64 0-dim tensor stays int32; + f64 0-dim tensor -> f64.
  EXPECT_EQ(ResultType({{C::kDimTensor, DType::kInt32}, {C::kZeroDimTensor, DType::kInt64}}),
            DType::kInt32);
  EXPECT_EQ(ResultType({{C::kDimTensor, DType::kInt32}, {C::kZeroDimTensor, DType::kFloat64}}),
            DType::kFloat64);
  // f16 tensor * f32 0-dim tensor stays f16.
  EXPECT_EQ(ResultType({{C::kDimTensor, DType::kFloat16}, {C::kZeroDimTensor, DType::kFloat32}}),
            DType::kFloat16);
  // Two dimensioned tensors promote fully.
  EXPECT_EQ(ResultType({{C::kDimTensor, DType::kFloat16}, {C::kDimTensor, DType::kFloat32}}),
            DType::kFloat32);
  // Only 0-dim tensors and scalars.
  EXPECT_EQ(ResultType({{C::kZeroDimTensor, DType::kFloat32}, {C::kScalar, DType::kFloat32}}),
            DType::kFloat32);
  EXPECT_EQ(ResultType({{C::kScalar, DType::kInt64}, {C::kScalar, DType::kFloat32}}),
            DType::kFloat32);
  EXPECT_FALSE(ResultType({}));
}

}  // namespace
}  // namespace af::model
