// The op registry's queries (kind, reduction, cube) and the shared argument reader.
#include "autofuse/frontend/op_registry.h"

#include <gtest/gtest.h>

#include "autofuse/model/arg_reader.h"

namespace af {
namespace {

using frontend::OpKind;

model::OpName Op(const std::string& ns, const std::string& name) {
  return model::OpName{ns, name, "default"};
}

TEST(OpRegistry, KindsByFamily) {
  EXPECT_EQ(frontend::KindOfOp(Op("aten", "add")), OpKind::kPointwise);
  EXPECT_EQ(frontend::KindOfOp(Op("prims", "convert_element_type")), OpKind::kPointwise);
  EXPECT_EQ(frontend::KindOfOp(Op("aten", "var_mean")), OpKind::kReduce);
  EXPECT_EQ(frontend::KindOfOp(Op("aten", "permute")), OpKind::kView);
  EXPECT_EQ(frontend::KindOfOp(Op("aten", "split")), OpKind::kView);
  EXPECT_EQ(frontend::KindOfOp(Op("aten", "index_select")), OpKind::kData);
  // mm, bmm, addmm: cube ops the matmul pass lowers (CUBE_OP without it); matmul stays other
  EXPECT_EQ(frontend::KindOfOp(Op("aten", "mm")), OpKind::kCube);
  EXPECT_EQ(frontend::KindOfOp(Op("aten", "addmm")), OpKind::kCube);
  EXPECT_EQ(frontend::KindOfOp(Op("prims", "mm")), OpKind::kOther);
  EXPECT_EQ(frontend::KindOfOp(Op("aten", "matmul")), OpKind::kOther);
  EXPECT_EQ(frontend::KindOfOp(Op("aten", "no_such_op")), OpKind::kOther);
}

TEST(OpRegistry, PrimsHasOnlySomeSpellings) {
  EXPECT_EQ(frontend::KindOfOp(Op("prims", "cat")), OpKind::kData);
  EXPECT_EQ(frontend::KindOfOp(Op("prims", "split")), OpKind::kOther);
  EXPECT_EQ(frontend::KindOfOp(Op("prims", "gather")), OpKind::kOther);
  EXPECT_EQ(frontend::KindOfOp(Op("operator", "add")), OpKind::kOther);
}

TEST(OpRegistry, Queries) {
  EXPECT_TRUE(frontend::IsReduction(Op("aten", "amax")));
  EXPECT_TRUE(frontend::IsReduction(Op("prims", "sum")));
  EXPECT_FALSE(frontend::IsReduction(Op("aten", "_softmax")));
  EXPECT_FALSE(frontend::IsReduction(Op("aten", "mul")));
  EXPECT_TRUE(frontend::IsCubeOp(Op("aten", "matmul")));
  EXPECT_TRUE(frontend::IsCubeOp(Op("aten", "convolution")));
  EXPECT_FALSE(frontend::IsCubeOp(Op("aten", "sum")));
  EXPECT_TRUE(frontend::Accumulates(Op("aten", "var_mean")));
  EXPECT_TRUE(frontend::Accumulates(Op("aten", "linear")));
  EXPECT_TRUE(frontend::Accumulates(Op("aten", "_softmax")));
  EXPECT_FALSE(frontend::Accumulates(Op("aten", "add")));
  EXPECT_EQ(frontend::KindOfOp(Op("aten", "_softmax")), OpKind::kOther);
}

TEST(ArgReader, PositionThenKeyword) {
  model::Node n;
  n.args = {model::Arg::Int(3)};
  n.kwargs = {{"dim", model::Arg::Int(1)}, {"alpha", model::Arg::Float(0.5, "0.5")}};
  ASSERT_NE(model::ArgAt(n, 0, "self"), nullptr);
  EXPECT_EQ(model::ArgAt(n, 0, "self")->i, 3);
  ASSERT_NE(model::ArgAt(n, 1, "dim"), nullptr);
  EXPECT_EQ(model::ArgAt(n, 1, "dim")->i, 1);
  EXPECT_EQ(model::ArgAt(n, 2, "keepdim"), nullptr);
  EXPECT_EQ(model::NumberOf(*model::ArgAt(n, 5, "alpha")), 0.5);
  EXPECT_EQ(model::NumberOf(model::Arg::Bool(true)), 1.0);
  EXPECT_FALSE(model::NumberOf(model::Arg::String("x")).has_value());
}

TEST(ArgReader, IntExpr) {
  model::Graph g;
  model::ValueType s;
  s.kind = model::ValueKind::kSymInt;
  s.expr = sym::Expr::Sym("s0");
  const int v = g.AddInput("s0", s);
  ASSERT_TRUE(model::IntExprOf(g, model::Arg::Value(v)).has_value());
  EXPECT_EQ(*model::IntExprOf(g, model::Arg::Value(v)), sym::Expr::Sym("s0"));
  EXPECT_EQ(*model::IntExprOf(g, model::Arg::Int(4)), sym::Expr(4));
  EXPECT_FALSE(model::IntExprOf(g, model::Arg::Float(1.5, "1.5")).has_value());
}

}  // namespace
}  // namespace af
