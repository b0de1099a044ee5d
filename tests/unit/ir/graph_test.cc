// Axis algebra and validation on graphs built in code.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "autofuse/ir/axis_algebra.h"
#include "autofuse/ir/data_movement.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/ir/text.h"
#include "autofuse/ir/validate.h"
#include "fixtures.h"
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
       {"Data",       "Scalar",     "Output",   "Workspace", "Load",      "Store",   "Broadcast",
        "Cast",       "Abs",        "Neg",      "Exp",       "Ln",        "Sqrt",    "Rsqrt",
        "Reciprocal", "Relu",       "Sigmoid",  "Tanh",      "Erf",       "Sign",    "Add",
        "Sub",        "Mul",        "Div",      "TrueDiv",   "Maximum",   "Minimum", "Pow",
        "Eq",         "Ne",         "Gt",       "Ge",        "Lt",        "Le",      "LogicalAnd",
        "LogicalOr",  "LogicalNot", "Where",    "Select",    "Sum",       "Mean",    "Max",
        "Min",        "Prod",       "Any",      "All",       "Transpose", "Concat",  "Split",
        "Gather",     "Pad",        "RemovePad"}) {
    ASSERT_NE(FindOp(t), nullptr) << t;
    EXPECT_EQ(&GetOp(FindOp(t)->code), FindOp(t)) << t;
  }
  EXPECT_EQ(FindOp("Load")->compute, ComputeType::kLoad);
  EXPECT_EQ(FindOp("Sum")->compute, ComputeType::kReduce);
  EXPECT_EQ(FindOp("Data")->compute, ComputeType::kBuffer);
  EXPECT_EQ(FindOp("Nope"), nullptr);
  EXPECT_EQ(FindOp("Pad")->compute, ComputeType::kElewise);
  EXPECT_EQ(FindOp("RemovePad")->compute, ComputeType::kElewise);
  EXPECT_EQ(FindOp("Split")->attrs, (std::vector<std::string>{"index", "gid"}));
}

// ------------------------------------------------------------------ data-movement shape rules

Graph MoveFixture(const std::string& name) {
  const auto path = af::test::OurFixtures() / "ir" / name;
  return ParseText(af::test::ReadFile(path), path.string());
}

std::string Diags(const Graph& g) {
  return FormatDiagnostics(Validate(g));
}

TEST(ValidateDataMovement, TheFixturesAreClean) {
  for (const char* f : {"transpose.graph.txt", "concat.graph.txt", "split.graph.txt",
                        "gather.graph.txt", "pad.graph.txt"}) {
    EXPECT_EQ(Diags(MoveFixture(f)), "") << f;
  }
}

TEST(ValidateDataMovement, HelpersFindTheMovedDim) {
  const Graph cat = MoveFixture("concat.graph.txt");
  EXPECT_EQ(ConcatDim(cat, cat.nodes[6]), std::optional<std::size_t>(1));
  const Graph split = MoveFixture("split.graph.txt");
  EXPECT_EQ(SplitDim(split, 2), std::optional<std::size_t>(1));
  EXPECT_EQ(SplitPieces(split, 2), (std::vector<SplitPiece>{{2, 0}, {2, 1}}));
  const Graph tr = MoveFixture("transpose.graph.txt");
  EXPECT_EQ(TransposePerm(tr.nodes[1].outputs[0], tr.nodes[2].outputs[0]),
            (std::optional<std::vector<std::size_t>>({0, 2, 1})));
  const Graph gat = MoveFixture("gather.graph.txt");
  EXPECT_EQ(GatherAxis(gat.nodes[2], 2), std::optional<std::size_t>(0));
  EXPECT_TRUE(NegativeIndexSupport(gat.nodes[2]));
  EXPECT_EQ(GatherOutputRepeats(gat.nodes[0].outputs[0], gat.nodes[1].outputs[0], 0),
            gat.nodes[2].outputs[0].repeats);
}

// Indices read from a Data node index with every dim; a reduction's result (argmax, then a
// gather of rows) spans the params' trailing axis with extent 1, and that dim does not index.
TEST(ValidateDataMovement, GatherIndexDimsDropTheReductionsParamsAxes) {
  const Graph gat = MoveFixture("gather.graph.txt");
  const Tensor& params = gat.nodes[0].outputs[0];
  const Tensor& data_indices = gat.nodes[1].outputs[0];
  EXPECT_EQ(GatherIndexDims(params, data_indices).size(), data_indices.repeats.size());
  ASSERT_GE(params.axis.size(), 2u);
  Tensor reduced = data_indices;  // the indices' axes, then the params' last axis with extent 1
  reduced.axis.push_back(params.axis.back());
  reduced.repeats.emplace_back(1);
  reduced.strides.emplace_back(0);
  std::vector<std::size_t> want(data_indices.repeats.size());
  for (std::size_t j = 0; j < want.size(); ++j)
    want[j] = j;
  EXPECT_EQ(GatherIndexDims(params, reduced), want);
  EXPECT_EQ(GatherOutputRepeats(params, reduced, 0), gat.nodes[2].outputs[0].repeats);
  reduced.repeats.back() = sym::Expr(7);  // an extent there is an index dim: the rank shows it
  EXPECT_EQ(GatherIndexDims(params, reduced).size(), want.size() + 1);
}

TEST(ValidateDataMovement, DamagedGraphsGetClearDiagnostics) {
  struct Case {
    const char* file;
    void (*mutate)(Graph&);
    const char* expect;
  };
  const Case cases[] = {
      {"transpose.graph.txt",
       [](Graph& g) {
         g.nodes[2].outputs[0].axis = {0, 2, 2};
       },
       "node 't' (Transpose): output axes {z0, z2, z2} are not a permutation of the input axes "
       "{z0, z1, z2}"},
      {"transpose.graph.txt", [](Graph& g) { g.nodes[2].outputs[0].repeats[1] = Expr::Sym("s1"); },
       "output dim 1 (axis {z2}) has repeat s1, but input dim 2 of that axis has s2"},
      {"concat.graph.txt", [](Graph& g) { g.nodes[5].outputs[0].repeats[0] = Expr(1); },
       "input 0 (s0, s1) differs from the output (s0, s1 + s2 + 1) on dim 1 as well as on the "
       "concat dim 0"},
      {"concat.graph.txt", [](Graph& g) { g.nodes[5].outputs[0].repeats[1] = Expr(2); },
       "concat dim 1: the inputs' repeats add up to s1 + s2 + 2, the output has s1 + s2 + 1"},
      {"concat.graph.txt",
       [](Graph& g) {
         g.nodes[5].outputs[0].repeats.emplace_back(1);
         g.nodes[5].outputs[0].strides.emplace_back(1);
         g.nodes[5].outputs[0].axis.push_back(0);
       },
       "input 2 has rank 3, the output has rank 2"},
      {"split.graph.txt",
       [](Graph& g) { g.nodes[2].outputs[1].repeats[1] = Expr::Sym("s2") + Expr(1); },
       "split dim 1: the pieces' repeats add up to s1 + s2 + 1, the input has s1 + s2"},
      {"split.graph.txt", [](Graph& g) { g.nodes[2].outputs.clear(); },
       "has no outputs (a Split has one output per piece)"},
      {"split.graph.txt", [](Graph& g) { g.nodes[2].attrs["gid"] = std::string("zero"); },
       "attribute 'gid' is not an integer"},
      {"gather.graph.txt", [](Graph& g) { g.nodes[1].outputs[0].dtype = DType::kFloat32; },
       "indices (input 1) have dtype fp32; Gather takes int32 or int64 indices"},
      {"gather.graph.txt", [](Graph& g) { g.nodes[2].attrs["axis"] = std::int64_t{2}; },
       "attribute 'axis' = 2 is outside [-2, 2) for params of rank 2"},
      {"gather.graph.txt", [](Graph& g) { g.nodes[2].attrs.erase("axis"); },
       "missing attribute 'axis'"},
      {"gather.graph.txt", [](Graph& g) { g.nodes[2].attrs["axis"] = std::int64_t{1}; },
       "differ from params[:axis] + indices + params[axis+1:] = (s0, s2, s3) at dim 0"},
      {"gather.graph.txt", [](Graph& g) { g.nodes[2].attrs["negative_index_support"] = 0.5; },
       "attribute 'negative_index_support' is neither a bool nor an integer"},
      {"pad.graph.txt", [](Graph& g) { g.nodes[2].outputs[0].repeats[1] = Expr::Sym("s1") - 1; },
       "node 'p' (Pad): output dim 1 has repeat s1 - 1, smaller than the input's s1"},
      {"pad.graph.txt", [](Graph& g) { g.nodes[4].outputs[0].repeats[1] = Expr::Sym("s1") + 1; },
       "node 'rp' (RemovePad): output dim 1 has repeat s1 + 1, larger than the input's s1"},
      {"pad.graph.txt",
       [](Graph& g) {
         for (auto& n : g.nodes)
           n.outputs[0].dtype = DType::kInt64;
         g.nodes[3].type = "Neg";
       },
       "dtype int64, which Pad does not support"},
  };
  for (const auto& c : cases) {
    Graph g = MoveFixture(c.file);
    c.mutate(g);
    const auto d = Validate(g);
    EXPECT_TRUE(HasErrors(d)) << c.expect;
    EXPECT_THAT(FormatDiagnostics(d), HasSubstr(c.expect)) << c.file;
  }
}

TEST(ValidateDataMovement, SplitNodesOfOneGid) {
  // Two one-output Splits of gid 3 over x [s0, s1 + s2]: pieces ordered by index.
  Graph g = MoveFixture("split.graph.txt");
  Node second = g.nodes[2];
  second.name = "sp_b";
  second.attrs["index"] = std::int64_t{1};
  second.outputs = {g.nodes[2].outputs[1]};
  g.nodes[2].outputs.pop_back();
  g.nodes[2].attrs["gid"] = std::int64_t{3};
  second.attrs["gid"] = std::int64_t{3};
  g.nodes.push_back(second);
  g.nodes[4].inputs[0] = {static_cast<int>(g.nodes.size()) - 1, 0};
  EXPECT_EQ(Diags(g), "");
  EXPECT_EQ(SplitGroup(g, 8), (std::vector<int>{2, 8}));
  EXPECT_EQ(SplitPieces(g, 2), (std::vector<SplitPiece>{{2, 0}, {8, 0}}));
  g.nodes[8].attrs["index"] = std::int64_t{0};
  EXPECT_THAT(Diags(g), HasSubstr("two Split nodes of gid 3 have index 0"));
  g.nodes[8].attrs.erase("index");
  EXPECT_THAT(Diags(g), HasSubstr("Split 'sp_b' of gid 3 has no integer 'index'"));
}

TEST(ValidateDataMovement, UnprovableSumsAreWarnings) {
  Graph g = MoveFixture("concat.graph.txt");
  g.AddSizeVar("s9");
  g.nodes[6].outputs[0].repeats[1] = Expr::Sym("s9");
  g.nodes[7].outputs[0].repeats[1] = Expr::Sym("s9");
  g.nodes[8].outputs[0].repeats[1] = Expr::Sym("s9");
  const auto d = Validate(g);
  EXPECT_FALSE(HasErrors(d)) << FormatDiagnostics(d);
  EXPECT_THAT(FormatDiagnostics(d), HasSubstr("warning: node 'cat' (Concat): concat dim 1: the "
                                              "inputs' repeats add up to s1 + s2 + 1, the output "
                                              "has s9 (not provably equal)"));
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
