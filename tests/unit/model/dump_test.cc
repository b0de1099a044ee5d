// The readable dump of model graphs.
#include "autofuse/model/dump.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "autofuse/model/infer.h"

namespace af::model {
namespace {

TEST(Dump, PrintsInputsNodesOutputsAndDiagnostics) {
  Graph g;
  g.name = "G";
  const int s = g.AddInput("n", ValueType::SymInt(sym::Expr::Sym("s0")));
  const int x = g.AddInput("x", ValueType::Tensor(ir::DType::kFloat16, {sym::Expr::Sym("s0"), 4}));
  const int v = g.AddNode("vm", *ParseOpName("aten.var_mean.correction"),
                          {Arg::Value(x), Arg::List({Arg::Int(1)})},
                          {{"correction", Arg::Int(0)}, {"keepdim", Arg::Bool(true)}}, 0);
  g.AddOutput(v, "mean");
  const int c = g.AddNode("c", *ParseOpName("mylib.op.default"),
                          {Arg::Value(g.node(v).outputs[0]), Arg::Float(1e-6, "1e-06"),
                           Arg::String("it's"), Arg::DType(ir::DType::kFloat32, "torch.float32"),
                           Arg::Device("cuda:0"), Arg::None(), Arg::List({Arg::Int(-1)}, true)});
  g.outputs = {Arg::Value(g.node(c).outputs[0]), Arg::Value(s), Arg::None()};
  InferTypes(g);
  EXPECT_EQ(DumpText(g),
            "graph G\n"
            "  symbols s0\n"
            "  input n: Sym(s0)\n"
            "  input x: f16[s0, 4]\n"
            "  %0 vm = aten.var_mean.correction(x, [1], correction=0, keepdim=True)\n"
            "      [0] mean: f16[s0, 1]  # inferred\n"
            "      [1] vm[1]: f16[s0, 1]  # inferred\n"
            "  %1 c: ? = mylib.op.default(mean, 1e-06, 'it\\'s', torch.float32, "
            "device('cuda:0'), None, (-1,))  # unknown, opaque\n"
            "  return (c, n, None)\n");
}

TEST(Dump, FloatsWithoutTextArePrintedShortest) {
  Graph g;
  EXPECT_EQ(FormatArg(g, Arg::Float(0.5)), "0.5");
  EXPECT_EQ(FormatArg(g, Arg::Float(2.0)), "2.0");
  EXPECT_EQ(FormatArg(g, Arg::Int(-3)), "-3");
  EXPECT_EQ(FormatArg(g, Arg::Bool(false)), "False");
}

}  // namespace
}  // namespace af::model
