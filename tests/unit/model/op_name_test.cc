// OpName parsing and printing; PyTorch dtype spellings.
#include "autofuse/model/op_name.h"

#include <gtest/gtest.h>

#include "autofuse/model/dtype_code.h"

namespace af::model {
namespace {

TEST(OpName, ParsesTorchOpsTargets) {
  auto op = ParseOpName("torch.ops.aten.mul.Tensor");
  ASSERT_TRUE(op);
  EXPECT_EQ(op->ns, "aten");
  EXPECT_EQ(op->name, "mul");
  EXPECT_EQ(op->overload, "Tensor");
  EXPECT_EQ(op->ToString(), "aten.mul.Tensor");
  EXPECT_TRUE(op->Is("aten", "mul"));
}

TEST(OpName, ParsesShortFormsAndTorch20WithoutOverload) {
  EXPECT_EQ(ParseOpName("aten.mul.Tensor")->ToString(), "aten.mul.Tensor");
  EXPECT_EQ(ParseOpName("prims.convert_element_type.default")->name, "convert_element_type");
  auto sym = ParseOpName("torch.ops.aten.sym_size");
  ASSERT_TRUE(sym);
  EXPECT_EQ(sym->ns, "aten");
  EXPECT_EQ(sym->name, "sym_size");
  EXPECT_EQ(sym->overload, "");
  EXPECT_EQ(sym->ToString(), "aten.sym_size");
  auto getitem = ParseOpName("operator.getitem");
  ASSERT_TRUE(getitem);
  EXPECT_EQ(getitem->ns, "operator");
  EXPECT_EQ(getitem->name, "getitem");
  auto path = ParseOpName("torch._C._nn.pad");
  ASSERT_TRUE(path);
  EXPECT_EQ(path->ns, "torch._C._nn");
  EXPECT_EQ(path->name, "pad");
}

TEST(OpName, RejectsNonNames) {
  EXPECT_FALSE(ParseOpName(""));
  EXPECT_FALSE(ParseOpName("aten..mul"));
  EXPECT_FALSE(ParseOpName("aten.mul(x)"));
  EXPECT_FALSE(ParseOpName("torch.ops.aten"));
  EXPECT_FALSE(ParseOpName("torch.ops.a.b.c.d"));
  EXPECT_FALSE(ParseOpName("1x.y"));
}

TEST(DTypeCode, FxCodesAndTorchNames) {
  EXPECT_EQ(DTypeFromFxCode("f32"), ir::DType::kFloat32);
  EXPECT_EQ(DTypeFromFxCode("bf16"), ir::DType::kBFloat16);
  EXPECT_EQ(DTypeFromFxCode("b8"), ir::DType::kBool);
  EXPECT_EQ(DTypeFromFxCode("i64"), ir::DType::kInt64);
  EXPECT_EQ(DTypeFromFxCode("c64"), ir::DType::kUndefined);  // known shape, no IR type
  EXPECT_FALSE(DTypeFromFxCode("9x"));
  EXPECT_FALSE(DTypeFromFxCode("f-32"));
  EXPECT_EQ(FxCode(ir::DType::kFloat16), "f16");
  EXPECT_EQ(DTypeFromTorchName("torch.float32"), ir::DType::kFloat32);
  EXPECT_EQ(DTypeFromTorchName("torch.half"), ir::DType::kFloat16);
  EXPECT_EQ(DTypeFromTorchName("long"), ir::DType::kInt64);
  EXPECT_EQ(DTypeFromTorchName("torch.complex64"), ir::DType::kUndefined);
  EXPECT_FALSE(DTypeFromTorchName("torch.strided"));
  EXPECT_EQ(TorchName(ir::DType::kBool), "torch.bool");
}

}  // namespace
}  // namespace af::model
