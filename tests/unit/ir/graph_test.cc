// Axis algebra and validation on graphs built in code.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "autofuse/ir/axis_algebra.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/ir/text.h"
#include "autofuse/ir/validate.h"
#include "test_graphs.h"

namespace af::ir {
namespace {

using testing::AbsGraph;
using ::testing::HasSubstr;

TEST(Graph, TopoOrderAndConsumers) {
  Graph g = AbsGraph();
  EXPECT_EQ(g.TopoOrder(), (std::vector<int>{0, 1, 2, 3, 4}));
  const auto c = g.Consumers();
  ASSERT_EQ(c[1].size(), 1u);
  EXPECT_EQ(c[1][0], (std::pair<int, int>{2, 0}));
  g.nodes[1].inputs[0].node = 3;  // load <- store: a cycle load -> abs -> store -> load
  EXPECT_TRUE(g.TopoOrder().empty());
}

TEST(Validate, AcceptsAWellFormedGraph) {
  const auto d = Validate(AbsGraph());
  EXPECT_FALSE(HasErrors(d)) << FormatDiagnostics(d);
}

TEST(Validate, ReportsEachKindOfProblem) {
  struct Case {
    const char* what;
    void (*mutate)(Graph&);
    const char* expect;
  };
  const Case cases[] = {
      {"dangling", [](Graph& g) { g.nodes[2].inputs[0].node = 42; }, "dangling"},
      {"cycle", [](Graph& g) { g.nodes[1].inputs[0].node = 3; }, "cycle"},
      {"rank", [](Graph& g) { g.nodes[2].outputs[0].strides.pop_back(); },
       "2 axes, 2 repeats and 1"},
      {"unknown axis", [](Graph& g) { g.nodes[2].sched.axis.push_back(9); }, "unknown axis id 9"},
      {"loop axis", [](Graph& g) { g.nodes[2].sched.loop_axis = 7; }, "loop axis 7"},
      {"dtype", [](Graph& g) { g.nodes[2].outputs[0].dtype = DType::kInt32; },
       "output dtype is int32, expected fp32"},
      {"op dtype",
       [](Graph& g) {
         for (auto& n : g.nodes)
           n.outputs[0].dtype = DType::kInt32;
         g.nodes[2].type = "Exp";
       },
       "dtype int32, which Exp does not support"},
      {"unknown op", [](Graph& g) { g.nodes[2].type = "Frobnicate"; }, "unknown op type"},
      {"symbol", [](Graph& g) { g.nodes[2].outputs[0].repeats[0] = Expr::Sym("s9"); },
       "unknown size symbol 's9'"},
      {"arity",
       [](Graph& g) {
         g.nodes[2].inputs.push_back({1, 0});
       },
       "expects 1 inputs, has 2"},
      {"missing attr", [](Graph& g) { g.nodes[0].type = "Scalar"; }, "missing attribute 'value'"},
      {"bad output index", [](Graph& g) { g.nodes[2].inputs[0].output = 3; }, "reads output 3"},
      {"duplicate name", [](Graph& g) { g.nodes[2].name = "load"; }, "duplicate node name"},
  };
  for (const auto& c : cases) {
    Graph g = AbsGraph();
    c.mutate(g);
    const auto d = Validate(g);
    EXPECT_TRUE(HasErrors(d)) << c.what;
    EXPECT_THAT(FormatDiagnostics(d), HasSubstr(c.expect)) << c.what;
  }
}

TEST(Validate, DataWithoutIndexIsAWarning) {
  Graph g = AbsGraph();
  g.nodes[0].attrs.clear();
  const auto d = Validate(g);
  EXPECT_FALSE(HasErrors(d));
  EXPECT_THAT(FormatDiagnostics(d), HasSubstr("warning: node 'x' (Data): no 'index' attribute"));
}

TEST(Validate, BoolRuleForComparisons) {
  Graph g = AbsGraph();
  g.nodes[2].type = "Gt";
  g.nodes[2].inputs.push_back({1, 0});
  EXPECT_THAT(FormatDiagnostics(Validate(g)), HasSubstr("expected bool"));
  g.nodes[2].outputs[0].dtype = DType::kBool;
  g.nodes[3].outputs[0].dtype = DType::kBool;
  g.nodes[4].outputs[0].dtype = DType::kBool;
  const auto d = Validate(g);
  EXPECT_FALSE(HasErrors(d)) << FormatDiagnostics(d);
}

TEST(OpRegistry, DeclaresTheIssueOpSet) {
  for (const char* t :
       {"Data",       "Scalar",     "Output",  "Workspace", "Load",      "Store",   "Broadcast",
        "Cast",       "Abs",        "Neg",     "Exp",       "Ln",        "Sqrt",    "Rsqrt",
        "Reciprocal", "Relu",       "Sigmoid", "Tanh",      "Erf",       "Sign",    "Add",
        "Sub",        "Mul",        "Div",     "TrueDiv",   "Maximum",   "Minimum", "Pow",
        "Eq",         "Ne",         "Gt",      "Ge",        "Lt",        "Le",      "LogicalAnd",
        "LogicalOr",  "LogicalNot", "Where",   "Select",    "Sum",       "Mean",    "Max",
        "Min",        "Prod",       "Any",     "All",       "Transpose", "Concat",  "Split",
        "Gather"}) {
    ASSERT_NE(FindOp(t), nullptr) << t;
    EXPECT_EQ(&GetOp(FindOp(t)->code), FindOp(t)) << t;
  }
  EXPECT_EQ(FindOp("Load")->compute, ComputeType::kLoad);
  EXPECT_EQ(FindOp("Sum")->compute, ComputeType::kReduce);
  EXPECT_EQ(FindOp("Data")->compute, ComputeType::kBuffer);
  EXPECT_EQ(FindOp("Nope"), nullptr);
}

TEST(AxisAlgebra, TileSplitRewritesSchedulesAndViews) {
  Graph g = AbsGraph();
  const auto r = TileSplit(g, 1);
  const Axis* outer = g.FindAxis(r.outer);
  const Axis* inner = g.FindAxis(r.inner);
  ASSERT_NE(outer, nullptr);
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(outer->name, "z1T");
  EXPECT_EQ(inner->name, "z1t");
  EXPECT_EQ(outer->type, AxisType::kTileOuter);
  EXPECT_EQ(inner->type, AxisType::kTileInner);
  EXPECT_EQ(inner->size, Expr::Sym("z1t_size"));
  EXPECT_EQ(outer->size, sym::CeilDiv(Expr::Sym("s1"), Expr::Sym("z1t_size")));
  EXPECT_EQ(outer->split_pair_other_id, inner->id);
  const Node& abs = g.nodes[2];
  EXPECT_EQ(abs.sched.axis, (std::vector<std::int64_t>{0, r.outer, r.inner}));
  EXPECT_EQ(abs.sched.loop_axis, r.inner);
  const Tensor& t = abs.outputs[0];
  EXPECT_EQ(t.axis, (std::vector<std::int64_t>{0, r.outer, r.inner}));
  EXPECT_EQ(t.strides[1], Expr::Sym("z1t_size"));
  EXPECT_EQ(t.strides[2], Expr(1));
  const auto d = Validate(g);
  EXPECT_FALSE(HasErrors(d)) << FormatDiagnostics(d);
}

TEST(AxisAlgebra, SplitKeepsBroadcastDimsBroadcast) {
  Graph g = AbsGraph();
  g.nodes[1].outputs[0].repeats[0] = Expr(1);
  g.nodes[1].outputs[0].strides[0] = Expr(0);
  const auto r = TileSplit(g, 0);
  const Tensor& t = g.nodes[1].outputs[0];
  EXPECT_EQ(t.repeats[0], Expr(1));
  EXPECT_EQ(t.strides[0], Expr(0));
  EXPECT_EQ(t.repeats[1], Expr(1));
  EXPECT_EQ(t.strides[1], Expr(0));
  const auto b = BlockSplit(g, r.outer);
  EXPECT_EQ(g.FindAxis(b.outer)->name, "z0TB");
  EXPECT_EQ(g.FindAxis(b.inner)->name, "z0Tb");
  EXPECT_TRUE(g.FindAxis(b.outer)->bind_block);
}

TEST(AxisAlgebra, MergeContiguousAxes) {
  Graph g = AbsGraph();
  std::string why;
  const auto m = MergeAxes(g, {0, 1}, &why);
  ASSERT_TRUE(m) << why;
  const Axis* a = g.FindAxis(*m);
  EXPECT_EQ(a->name, "z0z1");
  EXPECT_EQ(a->type, AxisType::kMerged);
  EXPECT_EQ(a->size, Expr::Sym("s0") * Expr::Sym("s1"));
  const Tensor& t = g.nodes[2].outputs[0];
  EXPECT_EQ(t.axis, (std::vector<std::int64_t>{*m}));
  EXPECT_EQ(t.repeats[0], Expr::Sym("s0") * Expr::Sym("s1"));
  EXPECT_EQ(t.strides[0], Expr(1));
  EXPECT_EQ(g.nodes[2].sched.loop_axis, *m);
}

TEST(AxisAlgebra, MergeRefusesNonContiguousViewsAndChangesNothing) {
  Graph g = AbsGraph();
  g.nodes[1].outputs[0].strides = {Expr(1), Expr::Sym("s0")};  // a transposed read
  const Graph before = g;
  std::string why;
  EXPECT_FALSE(MergeAxes(g, {0, 1}, &why));
  EXPECT_THAT(why, HasSubstr("not contiguous"));
  EXPECT_EQ(g, before);
}

TEST(AxisAlgebra, ReorderPermutesNestsAndViews) {
  Graph g = AbsGraph();
  ReorderAxes(g, {1, 0});
  EXPECT_EQ(g.nodes[2].sched.axis, (std::vector<std::int64_t>{1, 0}));
  const Tensor& t = g.nodes[2].outputs[0];
  EXPECT_EQ(t.axis, (std::vector<std::int64_t>{1, 0}));
  EXPECT_EQ(t.strides[0], Expr(1));
  EXPECT_EQ(t.strides[1], Expr::Sym("s1"));
  EXPECT_EQ(t.repeats[0], Expr::Sym("s1"));
}

}  // namespace
}  // namespace af::ir
