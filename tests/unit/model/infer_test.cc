// Shape and dtype inference on graphs built in code: broadcasting, promotion, reductions with
// keepdim, views with -1, permutes, symbolic sizes, multi-output ops, and InferTypes' checking.
#include "autofuse/model/infer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "autofuse/model/shape.h"

namespace af::model {
namespace {

using ir::DType;
using sym::Expr;
using ::testing::HasSubstr;

Expr S(const char* name) {
  return Expr::Sym(name);
}

ValueType T(DType d, Shape s) {
  return ValueType::Tensor(d, std::move(s));
}

Arg I(std::int64_t v) {
  return Arg::Int(v);
}

Arg F(double v) {
  return Arg::Float(v);
}

Arg L(const std::vector<std::int64_t>& v) {
  std::vector<Arg> items;
  items.reserve(v.size());
  for (auto x : v)
    items.push_back(Arg::Int(x));
  return Arg::List(std::move(items));
}

Arg DT(DType d) {
  return Arg::DType(d);
}

// A graph to which inputs and one node at a time are added.
class Builder {
 public:
  Arg In(ValueType t) {
    return Arg::Value(g.AddInput("in" + std::to_string(g.inputs.size()), std::move(t)));
  }
  InferResult Run(const std::string& op, std::vector<Arg> args,
                  std::vector<std::pair<std::string, Arg>> kwargs = {},
                  NodeKind kind = NodeKind::kOp) {
    const int id = g.AddNode("n" + std::to_string(g.nodes.size()), *ParseOpName(op),
                             std::move(args), std::move(kwargs), 1, kind);
    return InferNode(g, g.node(id));
  }
  // The single output type; fails the test when inference did not succeed.
  ValueType Out(const std::string& op, std::vector<Arg> args,
                std::vector<std::pair<std::string, Arg>> kwargs = {},
                NodeKind kind = NodeKind::kOp) {
    InferResult r = Run(op, std::move(args), std::move(kwargs), kind);
    EXPECT_EQ(r.status, InferResult::Status::kInferred) << op << ": " << r.reason;
    if (r.outputs.empty()) return {};
    return r.outputs[0];
  }
  Graph g;
};

void ExpectType(const ValueType& t, const std::string& expected) {
  EXPECT_EQ(t.ToString(), expected);
}

// ------------------------------------------------------------------ shapes

TEST(Shape, Broadcasting) {
  std::string why;
  EXPECT_EQ(ShapeToString(*BroadcastShapes({4, 1, 8}, {3, 1}, &why)), "[4, 3, 8]");
  EXPECT_EQ(ShapeToString(*BroadcastShapes({S("s0"), 1}, {1, 8}, &why)), "[s0, 8]");
  EXPECT_EQ(ShapeToString(*BroadcastShapes({S("s0")}, {S("s0")}, &why)), "[s0]");
  EXPECT_EQ(ShapeToString(*BroadcastShapes({}, {2, 3}, &why)), "[2, 3]");
  EXPECT_FALSE(BroadcastShapes({3}, {4}, &why));
  EXPECT_THAT(why, HasSubstr("size 3 against 4"));
  EXPECT_FALSE(BroadcastShapes({S("s0")}, {4}, &why));
  EXPECT_FALSE(BroadcastShapes({S("s0")}, {S("s1")}, &why));
}

TEST(Shape, DimsAndCounts) {
  EXPECT_EQ(NormalizeDim(-1, 3), 2);
  EXPECT_EQ(NormalizeDim(0, 0), 0);
  EXPECT_EQ(NormalizeDim(-1, 0), 0);
  EXPECT_FALSE(NormalizeDim(3, 3));
  EXPECT_FALSE(NormalizeDim(-4, 3));
  EXPECT_EQ(Numel({S("s0"), 3, 4}), S("s0") * 12);
  EXPECT_EQ(Numel({}), Expr(1));
  EXPECT_EQ(ShapeToString(ContiguousStrides({2, S("s0"), 4})), "[4 * s0, 4, 1]");
}

// ------------------------------------------------------------------ pointwise

TEST(InferPointwise, BroadcastAndPromotion) {
  Builder b;
  const Arg x = b.In(T(DType::kFloat32, {4, 1}));
  const Arg h = b.In(T(DType::kFloat16, {8}));
  const Arg i = b.In(T(DType::kInt64, {2, S("s0")}));
  const Arg m = b.In(T(DType::kBool, {2, 1}));
  const Arg z = b.In(T(DType::kFloat32, {}));
  ExpectType(b.Out("aten.add.Tensor", {x, h}), "f32[4, 8]");
  ExpectType(b.Out("aten.mul.Tensor", {h, z}), "f16[8]");  // 0-dim f32 does not widen f16
  ExpectType(b.Out("aten.mul.Tensor", {i, F(0.5)}), "f32[2, s0]");
  ExpectType(b.Out("aten.add.Tensor", {m, I(1)}), "i64[2, 1]");
  ExpectType(b.Out("aten.add.Tensor", {i, m}), "i64[2, s0]");
  ExpectType(b.Out("aten.sub.Tensor", {I(455), i}), "i64[2, s0]");
  ExpectType(b.Out("aten.div.Tensor", {i, I(2)}), "f32[2, s0]");
  ExpectType(b.Out("aten.div.Tensor_mode", {i, I(2)}, {{"rounding_mode", Arg::String("floor")}}),
             "i64[2, s0]");
  ExpectType(b.Out("aten.lt.Scalar", {i, I(3)}), "b8[2, s0]");
  ExpectType(b.Out("aten.eq.Tensor", {x, h}), "b8[4, 8]");
  ExpectType(b.Out("aten.logical_and.default", {m, m}), "b8[2, 1]");
  ExpectType(b.Out("aten.pow.Tensor_Scalar", {i, I(2)}), "i64[2, s0]");
  ExpectType(b.Out("aten.pow.Tensor_Scalar", {i, F(0.5)}), "f32[2, s0]");
  ExpectType(b.Out("prims.mul.default", {x, x}), "f32[4, 1]");
}

TEST(InferPointwise, UnaryFamilies) {
  Builder b;
  const Arg i = b.In(T(DType::kInt32, {3}));
  const Arg h = b.In(T(DType::kBFloat16, {3}));
  ExpectType(b.Out("aten.exp.default", {i}), "f32[3]");
  ExpectType(b.Out("aten.rsqrt.default", {h}), "bf16[3]");
  ExpectType(b.Out("aten.sigmoid.default", {h}), "bf16[3]");
  ExpectType(b.Out("aten.gelu.default", {h}, {{"approximate", Arg::String("tanh")}}), "bf16[3]");
  ExpectType(b.Out("aten.silu.default", {i}), "f32[3]");
  ExpectType(b.Out("aten.neg.default", {i}), "i32[3]");
  ExpectType(b.Out("aten.relu.default", {i}), "i32[3]");
  ExpectType(b.Out("aten.isnan.default", {h}), "b8[3]");
  ExpectType(b.Out("aten.clone.default", {h}, {{"memory_format", Arg::None()}}), "bf16[3]");
}

TEST(InferPointwise, WhereClampAndCasts) {
  Builder b;
  const Arg c = b.In(T(DType::kBool, {4, 1}));
  const Arg h = b.In(T(DType::kFloat16, {1, 8}));
  const Arg i = b.In(T(DType::kInt64, {3}));
  ExpectType(b.Out("aten.where.self", {c, h, F(0.0)}), "f16[4, 8]");
  ExpectType(b.Out("aten.where.self", {c, i, I(0)}), "i64[4, 3]");
  ExpectType(b.Out("aten.clamp.default", {i, I(0), F(1.5)}), "f32[3]");
  ExpectType(b.Out("aten.clamp.default", {h, F(-1.0), Arg::None()}), "f16[1, 8]");
  ExpectType(b.Out("aten.clamp_min.default", {i, I(0)}), "i64[3]");
  ExpectType(b.Out("prims.convert_element_type.default", {i, DT(DType::kFloat16)}), "f16[3]");
  ExpectType(b.Out("aten._to_copy.default", {h}, {{"dtype", DT(DType::kFloat32)}}), "f32[1, 8]");
  ExpectType(b.Out("aten._to_copy.default", {h}), "f16[1, 8]");
}

TEST(InferPointwise, IncompatibleShapesFail) {
  Builder b;
  const Arg x = b.In(T(DType::kFloat32, {3}));
  const Arg y = b.In(T(DType::kFloat32, {4}));
  InferResult r = b.Run("aten.add.Tensor", {x, y});
  EXPECT_EQ(r.status, InferResult::Status::kFailed);
  EXPECT_THAT(r.reason, HasSubstr("cannot broadcast"));
}

// ------------------------------------------------------------------ reductions

TEST(InferReduce, DimsAndKeepdim) {
  Builder b;
  const Arg x = b.In(T(DType::kFloat32, {2, S("s0"), 4}));
  const Arg i = b.In(T(DType::kInt32, {2, 3}));
  ExpectType(b.Out("aten.sum.dim_IntList", {x, L({1}), Arg::Bool(true)}), "f32[2, 1, 4]");
  ExpectType(b.Out("aten.sum.dim_IntList", {x, L({1})}), "f32[2, 4]");
  ExpectType(b.Out("aten.sum.dim_IntList", {x, L({-1, 0})}), "f32[s0]");
  ExpectType(b.Out("aten.sum.dim_IntList", {x, L({})}), "f32[]");
  ExpectType(b.Out("aten.sum.default", {i}), "i64[]");
  ExpectType(b.Out("aten.sum.dim_IntList", {i, L({1})}, {{"dtype", DT(DType::kFloat32)}}),
             "f32[2]");
  ExpectType(b.Out("aten.mean.dim", {x, L({-1}), Arg::Bool(true)}), "f32[2, s0, 1]");
  ExpectType(b.Out("aten.mean.default", {x}), "f32[]");
  ExpectType(b.Out("aten.amax.default", {x, L({0, 2})}), "f32[s0]");
  ExpectType(b.Out("aten.amax.default", {x, L({1}), Arg::Bool(true)}), "f32[2, 1, 4]");
  ExpectType(b.Out("aten.amin.default", {x}), "f32[]");
  ExpectType(b.Out("aten.prod.dim_int", {i, I(0)}), "i64[3]");
  ExpectType(b.Out("aten.any.dim", {i, I(1), Arg::Bool(true)}), "b8[2, 1]");
  ExpectType(b.Out("aten.all.default", {i}), "b8[]");
  ExpectType(b.Out("aten.argmax.default", {x, I(1)}), "i64[2, 4]");
  ExpectType(b.Out("aten.var.correction", {x, L({2})},
                   {{"correction", I(1)}, {"keepdim", Arg::Bool(true)}}),
             "f32[2, s0, 1]");
  ExpectType(b.Out("aten.var.dim", {x, L({1}), Arg::Bool(true), Arg::Bool(false)}), "f32[2, 4]");
  ExpectType(b.Out("aten._softmax.default", {x, I(-1), Arg::Bool(false)}), "f32[2, s0, 4]");
}

TEST(InferReduce, MultiOutputReductions) {
  Builder b;
  const Arg x = b.In(T(DType::kFloat16, {8, 16}));
  InferResult vm = b.Run("aten.var_mean.correction", {x, L({1})},
                         {{"correction", I(0)}, {"keepdim", Arg::Bool(true)}});
  ASSERT_EQ(vm.status, InferResult::Status::kInferred);
  EXPECT_TRUE(vm.multi_output);
  ASSERT_EQ(vm.outputs.size(), 2u);
  ExpectType(vm.outputs[0], "f16[8, 1]");
  ExpectType(vm.outputs[1], "f16[8, 1]");
  InferResult mx = b.Run("aten.max.dim", {x, I(1)});
  ASSERT_EQ(mx.outputs.size(), 2u);
  ExpectType(mx.outputs[0], "f16[8]");
  ExpectType(mx.outputs[1], "i64[8]");
  EXPECT_TRUE(IsMultiOutputOp(*ParseOpName("aten.var_mean.correction")));
  EXPECT_TRUE(IsMultiOutputOp(*ParseOpName("aten.max.dim")));
  EXPECT_FALSE(IsMultiOutputOp(*ParseOpName("aten.max.default")));
  EXPECT_FALSE(IsMultiOutputOp(*ParseOpName("aten.add.Tensor")));
}

// ------------------------------------------------------------------ views

TEST(InferView, ViewWithMinusOne) {
  Builder b;
  const Arg x = b.In(T(DType::kFloat32, {2, 3, 4}));
  const Arg d = b.In(T(DType::kFloat32, {S("s0"), S("s1"), 8}));
  ExpectType(b.Out("aten.view.default", {x, L({-1, 4})}), "f32[6, 4]");
  ExpectType(b.Out("aten.reshape.default", {x, L({24})}), "f32[24]");
  ExpectType(b.Out("aten._unsafe_view.default", {x, L({2, -1})}), "f32[2, 12]");
  ExpectType(b.Out("aten.view.default", {d, L({-1, 8})}), "f32[s0 * s1, 8]");
  ExpectType(b.Out("aten.view.default", {d, L({-1})}), "f32[8 * s0 * s1]");
  EXPECT_EQ(b.Run("aten.view.default", {x, L({-1, -1})}).status, InferResult::Status::kFailed);
  // SymInt sizes come from values.
  const Arg s0 = b.In(ValueType::SymInt(S("s0")));
  const Arg v = b.In(T(DType::kFloat32, {S("s0"), 12}));
  ExpectType(b.Out("aten.view.default", {v, Arg::List({s0, I(3), I(-1)})}), "f32[s0, 3, 4]");
}

TEST(InferView, PermuteTransposeExpandSqueeze) {
  Builder b;
  const Arg x = b.In(T(DType::kFloat32, {2, S("s0"), 1, 4}));
  ExpectType(b.Out("aten.permute.default", {x, L({3, 0, 2, 1})}), "f32[4, 2, 1, s0]");
  ExpectType(b.Out("aten.permute.default", {x, L({-1, -2, -3, -4})}), "f32[4, 1, s0, 2]");
  EXPECT_EQ(b.Run("aten.permute.default", {x, L({0, 0, 1, 2})}).status,
            InferResult::Status::kFailed);
  ExpectType(b.Out("aten.transpose.int", {x, I(1), I(-1)}), "f32[2, 4, 1, s0]");
  ExpectType(b.Out("aten.unsqueeze.default", {x, I(-1)}), "f32[2, s0, 1, 4, 1]");
  ExpectType(b.Out("aten.unsqueeze.default", {x, I(0)}), "f32[1, 2, s0, 1, 4]");
  ExpectType(b.Out("aten.squeeze.dim", {x, I(2)}), "f32[2, s0, 4]");
  ExpectType(b.Out("aten.squeeze.dim", {x, I(1)}), "f32[2, s0, 1, 4]");  // s0 is not known 1
  ExpectType(b.Out("aten.squeeze.default", {x}), "f32[2, s0, 4]");
  ExpectType(b.Out("aten.expand.default", {x, Arg::List({I(3), I(-1), I(-1), I(5), I(4)})}),
             "f32[3, 2, s0, 5, 4]");
  EXPECT_EQ(b.Run("aten.expand.default", {x, L({2, 3, 1, 4})}).status,
            InferResult::Status::kFailed);
  const Arg m = b.In(T(DType::kFloat32, {3, 5}));
  ExpectType(b.Out("aten.t.default", {m}), "f32[5, 3]");
}

TEST(InferView, SliceSelectSplitCatPad) {
  Builder b;
  const Arg x = b.In(T(DType::kFloat32, {10, S("s0")}));
  ExpectType(b.Out("aten.slice.Tensor", {x, I(0), I(2), I(8)}), "f32[6, s0]");
  ExpectType(b.Out("aten.slice.Tensor", {x, I(0), I(-3), I(9223372036854775807LL)}), "f32[3, s0]");
  ExpectType(b.Out("aten.slice.Tensor", {x, I(0), I(1), I(100), I(3)}), "f32[3, s0]");
  ExpectType(b.Out("aten.slice.Tensor", {x, I(1), I(1), I(9223372036854775807LL)}),
             "f32[10, s0 - 1]");
  ExpectType(b.Out("aten.select.int", {x, I(0), I(3)}), "f32[s0]");
  InferResult un = b.Run("aten.unbind.int", {x});
  ASSERT_EQ(un.outputs.size(), 10u);
  ExpectType(un.outputs[9], "f32[s0]");
  InferResult sp = b.Run("aten.split.Tensor", {x, I(4)});
  ASSERT_EQ(sp.outputs.size(), 3u);
  ExpectType(sp.outputs[2], "f32[2, s0]");
  const Arg y = b.In(T(DType::kFloat16, {3, S("s0")}));
  ExpectType(b.Out("aten.cat.default", {Arg::List({x, y})}), "f32[13, s0]");
  ExpectType(b.Out("aten.stack.default", {Arg::List({x, x}), I(1)}), "f32[10, 2, s0]");
  ExpectType(b.Out("aten.constant_pad_nd.default", {x, L({1, 2, 0, 3}), F(0.0)}),
             "f32[13, s0 + 3]");
}

TEST(InferView, IndexingAndGather) {
  Builder b;
  const Arg x = b.In(T(DType::kFloat32, {1, S("s0"), S("s1"), S("s2")}));
  const Arg a = b.In(T(DType::kInt64, {S("s3"), 1}));
  const Arg c = b.In(T(DType::kInt64, {S("s4")}));
  ExpectType(b.Out("aten._unsafe_index.Tensor", {x, Arg::List({Arg::None(), Arg::None(), a, c})}),
             "f32[1, s0, s3, s4]");
  // Non-adjacent index tensors put the broadcast dims first.
  ExpectType(b.Out("aten.index.Tensor", {x, Arg::List({a, Arg::None(), c})}),
             "f32[s3, s4, s0, s2]");
  const Arg w = b.In(T(DType::kFloat32, {8, 5}));
  const Arg idx = b.In(T(DType::kInt64, {8, 1}));
  ExpectType(b.Out("aten.gather.default", {w, I(1), idx}), "f32[8, 1]");
  ExpectType(b.Out("aten.embedding.default", {w, idx}), "f32[8, 1, 5]");
  ExpectType(b.Out("aten.index_select.default", {w, I(0), c}), "f32[s4, 5]");
}

// ------------------------------------------------------------------ linalg

TEST(InferLinalg, MatmulsAndConvolution) {
  Builder b;
  const Arg a = b.In(T(DType::kBFloat16, {S("s0"), 64}));
  const Arg w = b.In(T(DType::kBFloat16, {64, 128}));
  const Arg bias = b.In(T(DType::kBFloat16, {128}));
  ExpectType(b.Out("aten.mm.default", {a, w}), "bf16[s0, 128]");
  ExpectType(b.Out("aten.addmm.default", {bias, a, w}), "bf16[s0, 128]");
  EXPECT_EQ(b.Run("aten.mm.default", {w, w}).status, InferResult::Status::kFailed);
  const Arg p = b.In(T(DType::kFloat32, {4, 32, 16}));
  const Arg q = b.In(T(DType::kFloat32, {4, 16, 8}));
  ExpectType(b.Out("aten.bmm.default", {p, q}), "f32[4, 32, 8]");
  const Arg r = b.In(T(DType::kFloat32, {16, 8}));
  ExpectType(b.Out("aten.matmul.default", {p, r}), "f32[4, 32, 8]");
  const Arg img = b.In(T(DType::kFloat32, {S("s0"), 3, 224, 224}));
  const Arg k = b.In(T(DType::kFloat32, {64, 3, 7, 7}));
  ExpectType(b.Out("aten.convolution.default", {img, k, Arg::None(), L({2, 2}), L({3, 3}),
                                                L({1, 1}), Arg::Bool(false), L({0, 0}), I(1)}),
             "f32[s0, 64, 112, 112]");
  const Arg dyn = b.In(T(DType::kFloat32, {1, 3, S("s1"), 28}));
  ExpectType(b.Out("aten.convolution.default", {dyn, k, Arg::None(), L({1, 1}), L({0, 0}),
                                                L({1, 1}), Arg::Bool(false), L({0, 0}), I(1)}),
             "f32[1, 64, s1 - 6, 22]");
  InferResult bw = b.Run("aten.convolution_backward.default",
                         {b.In(T(DType::kFloat32, {1, 64, 22, 22})), dyn, k, L({64}), L({1, 1}),
                          L({0, 0}), L({1, 1}), Arg::Bool(false), L({0, 0}), I(1),
                          Arg::List({Arg::Bool(false), Arg::Bool(true), Arg::Bool(true)})});
  ASSERT_EQ(bw.outputs.size(), 3u);
  EXPECT_FALSE(bw.outputs[0].IsKnown());
  ExpectType(bw.outputs[1], "f32[64, 3, 7, 7]");
  ExpectType(bw.outputs[2], "f32[64]");
  InferResult pool = b.Run("prims._low_memory_max_pool2d_with_offsets.default",
                           {img, L({2, 2}), L({2, 2}), L({0, 0}), L({1, 1}), Arg::Bool(false)});
  ASSERT_EQ(pool.outputs.size(), 2u);
  ExpectType(pool.outputs[0], "f32[s0, 3, 112, 112]");
  ExpectType(pool.outputs[1], "i8[s0, 3, 112, 112]");
}

// ------------------------------------------------------------------ creation and sizes

TEST(InferCreate, FactoriesAndSizes) {
  Builder b;
  ExpectType(b.Out("aten.full.default", {L({2, 3}), I(0)}), "i64[2, 3]");
  ExpectType(b.Out("aten.full.default", {L({}), F(0.0)}), "f32[]");
  ExpectType(b.Out("aten.full.default", {L({4}), Arg::Bool(true)}), "b8[4]");
  ExpectType(b.Out("aten.full.default", {L({4}), I(1)}, {{"dtype", DT(DType::kFloat16)}}),
             "f16[4]");
  ExpectType(b.Out("prims.iota.default", {I(456)}, {{"dtype", DT(DType::kInt64)}}), "i64[456]");
  ExpectType(b.Out("aten.arange.start_step", {I(2), I(11), I(3)}), "i64[3]");
  ExpectType(b.Out("aten.zeros.default", {L({5})}), "f32[5]");
  const Arg x = b.In(T(DType::kFloat16, {S("s0"), 7}));
  ExpectType(b.Out("aten.sym_size.int", {x, I(0)}), "Sym(s0)");
  ExpectType(b.Out("aten.sym_size", {x, I(-1)}), "Sym(7)");
  ExpectType(b.Out("aten.sym_numel.default", {x}), "Sym(7 * s0)");
  ExpectType(b.Out("aten.full_like.default", {x, F(1.0)}), "f16[s0, 7]");
  ExpectType(b.Out("prims.inductor_random.default", {L({4, 4}), I(0), Arg::String("rand")}),
             "f32[4, 4]");
}

// ------------------------------------------------------------------ Python arithmetic

TEST(InferPython, SymbolicArithmetic) {
  Builder b;
  const Arg s0 = b.In(ValueType::SymInt(S("s0")));
  const Arg s1 = b.In(ValueType::SymInt(S("s1")));
  const auto py = NodeKind::kPython;
  ExpectType(b.Out("operator.mul", {s0, s1}, {}, py), "Sym(s0 * s1)");
  ExpectType(b.Out("operator.add", {s0, I(1)}, {}, py), "Sym(s0 + 1)");
  ExpectType(b.Out("operator.sub", {s0, I(0)}, {}, py), "Sym(s0)");
  ExpectType(b.Out("operator.floordiv", {s0, I(1)}, {}, py), "Sym(s0)");
  ExpectType(b.Out("operator.floordiv", {s0, I(2)}, {}, py), "Sym(FloorDiv(s0, 2))");
  EXPECT_EQ(b.Out("operator.truediv", {s0, s1}, {}, py).kind, ValueKind::kSymFloat);
  EXPECT_EQ(b.Out("operator.sub", {s0, F(1.0)}, {}, py).kind, ValueKind::kSymFloat);
  EXPECT_EQ(b.Out("operator.lt", {s0, s1}, {}, py).kind, ValueKind::kSymBool);
  ExpectType(b.Out("operator.neg", {s0}, {}, py), "Sym(-s0)");
  EXPECT_EQ(b.Run("operator.floordiv", {s0, I(0)}, {}, py).status, InferResult::Status::kFailed);
}

// ------------------------------------------------------------------ InferTypes

TEST(InferTypes, ChecksAnnotationsAndFillsTheRest) {
  Graph g;
  const int x = g.AddInput("x", T(DType::kFloat32, {4, 8}));
  const int a = g.AddNode("a", *ParseOpName("aten.relu.default"), {Arg::Value(x)});
  const int b = g.AddNode("b", *ParseOpName("aten.sum.dim_IntList"),
                          {Arg::Value(g.node(a).outputs[0]), L({1})});
  const int c = g.AddNode("c", *ParseOpName("mylib.custom.default"), {Arg::Value(x)});
  const int d =
      g.AddNode("d", *ParseOpName("aten.neg.default"), {Arg::Value(g.node(c).outputs[0])});
  // Annotate a correctly and b wrongly; c (opaque) gets an annotation, d none.
  g.value(g.node(a).outputs[0]).type = T(DType::kFloat32, {4, 8});
  g.value(g.node(a).outputs[0]).source = TypeSource::kAnnotation;
  g.value(g.node(b).outputs[0]).type = T(DType::kFloat16, {4});
  g.value(g.node(b).outputs[0]).source = TypeSource::kAnnotation;
  g.value(g.node(c).outputs[0]).type = T(DType::kInt32, {2});
  g.value(g.node(c).outputs[0]).source = TypeSource::kAnnotation;
  InferTypes(g);
  EXPECT_EQ(g.value(g.node(a).outputs[0]).source, TypeSource::kChecked);
  EXPECT_EQ(g.value(g.node(b).outputs[0]).source, TypeSource::kConflict);
  ExpectType(g.value(g.node(b).outputs[0]).type, "f16[4]");  // the annotation is kept
  EXPECT_EQ(g.node(c).infer, InferState::kOpaque);
  EXPECT_EQ(g.value(g.node(c).outputs[0]).source, TypeSource::kAnnotation);
  EXPECT_EQ(g.value(g.node(d).outputs[0]).source, TypeSource::kInferred);
  ExpectType(g.value(g.node(d).outputs[0]).type, "i32[2]");
  ASSERT_EQ(g.CountDiagnostics(Diagnostic::Kind::kMismatch), 1);
  EXPECT_THAT(g.diagnostics[0].message, HasSubstr("inferred f32[4], annotated f16[4]"));
}

TEST(InferTypes, UnknownInputsAreQuietAndFailuresAreReported) {
  Graph g;
  const int u = g.AddAttr("const0");  // type unknown
  const int x = g.AddInput("x", T(DType::kFloat32, {3}));
  const int y = g.AddInput("y", T(DType::kFloat32, {4}));
  const int a = g.AddNode("a", *ParseOpName("aten.mul.Tensor"), {Arg::Value(u), Arg::Value(x)});
  const int b = g.AddNode("b", *ParseOpName("aten.add.Tensor"), {Arg::Value(x), Arg::Value(y)});
  InferTypes(g);
  EXPECT_EQ(g.node(a).infer, InferState::kUnknown);
  EXPECT_EQ(g.node(b).infer, InferState::kFailed);
  ASSERT_EQ(g.diagnostics.size(), 1u);
  EXPECT_EQ(g.diagnostics[0].kind, Diagnostic::Kind::kInferFailed);
}

TEST(InferTypes, MultiOutputNodesGetEveryOutput) {
  Graph g;
  const int x = g.AddInput("x", T(DType::kFloat32, {3, 5}));
  const int n = g.AddNode("u", *ParseOpName("aten.unbind.int"), {Arg::Value(x)}, {}, 0);
  g.AddOutput(n, "first");
  InferTypes(g);
  ASSERT_EQ(g.node(n).outputs.size(), 3u);
  EXPECT_EQ(g.value(g.node(n).outputs[0]).name, "first");
  EXPECT_EQ(g.value(g.node(n).outputs[2]).name, "u[2]");
  ExpectType(g.value(g.node(n).outputs[2]).type, "f32[5]");
}

TEST(InferTypes, RuleCatalogue) {
  const auto ops = InferableOps();
  EXPECT_TRUE(std::is_sorted(ops.begin(), ops.end()));
  for (const char* op : {"aten.add", "aten.var_mean", "aten.view", "aten.convolution",
                         "prims.convert_element_type", "operator.floordiv"}) {
    EXPECT_NE(std::find(ops.begin(), ops.end(), op), ops.end()) << op;
  }
  EXPECT_TRUE(HasInferenceRule(*ParseOpName("aten.add.Tensor")));
  EXPECT_FALSE(HasInferenceRule(*ParseOpName("mylib.custom.default")));
}

}  // namespace
}  // namespace af::model
