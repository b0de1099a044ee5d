// The FX importer on our own fixtures and on small inline graphs: counts, shapes, the forms of
// annotations, literals and returns across torch versions, and errors that name file and line.
#include "autofuse/importers/fx_graph.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "autofuse/model/dump.h"
#include "autofuse/support/error.h"
#include "fixtures.h"
#include "fx_test_util.h"

namespace af::importers {
namespace {

using model::Arg;
using model::Graph;
using model::NodeKind;
using model::TypeSource;
using ::testing::HasSubstr;

Graph Load(const std::string& name) {
  return LoadFxGraphFile(test::FxFixture(name));
}

const model::Value& Out(const Graph& g, const std::string& node, std::size_t k = 0) {
  const model::Node* n = g.FindNode(node);
  EXPECT_NE(n, nullptr) << node;
  return g.value(n->outputs.at(k));
}

std::string TypeOf(const Graph& g, const std::string& value) {
  const model::Value* v = g.FindValue(value);
  return v != nullptr ? v->type.ToString() : "<no value " + value + ">";
}

int CountSource(const Graph& g, TypeSource s) {
  int n = 0;
  for (const auto& v : g.values)
    n += v.source == s ? 1 : 0;
  return n;
}

// A graph module text with the given forward body (8-space indented lines).
std::string Module(const std::string& params, const std::string& body) {
  return "class GraphModule(torch.nn.Module):\n    def forward(self" + params + "):\n" + body;
}

// ------------------------------------------------------------------ our fixtures

TEST(FxOurFixtures, PointwiseChainWithBroadcast) {
  const std::string file = "pointwise_broadcast.fx_graph_readable.py";
  const Graph g = Load(file);
  const std::string text = test::ReadFile(test::FxFixture(file));
  EXPECT_EQ(g.name, "GraphModule");
  EXPECT_EQ(g.inputs.size(), 5u);
  EXPECT_EQ(g.nodes.size(), 11u);
  EXPECT_EQ(g.CountNodes(NodeKind::kOp), test::CountTorchOpsLines(text));
  EXPECT_EQ(g.outputs.size(), 3u);
  EXPECT_EQ(CountSource(g, TypeSource::kChecked), 11);
  EXPECT_TRUE(g.diagnostics.empty());
  EXPECT_EQ(TypeOf(g, "sub"), "f32[4, 8]");    // f32[4, 8] - f16[4, 1]
  EXPECT_EQ(TypeOf(g, "add_1"), "f32[4, 8]");  // i64 + 0.5
  EXPECT_EQ(TypeOf(g, "div"), "f32[4, 8]");    // i64 / 2
  EXPECT_EQ(TypeOf(g, "add_2"), "i64[4, 8]");  // bool + 1
  const model::Node& add = *g.FindNode("add");
  ASSERT_NE(add.Kwarg("alpha"), nullptr);
  EXPECT_EQ(add.Kwarg("alpha")->i, 2);
  EXPECT_EQ(add.line, 5);
  const model::Node& clamp = *g.FindNode("clamp");
  EXPECT_EQ(clamp.args[1].kind, Arg::Kind::kFloat);
  EXPECT_EQ(clamp.args[1].f, -1.0);
  EXPECT_EQ(clamp.args[2].text, "inf");
  EXPECT_GT(clamp.args[2].f, 1e308);
  ASSERT_EQ(g.FindNode("sub")->provenance.size(), 1u);
  EXPECT_EQ(g.FindNode("sub")->provenance[0],
            "File: /work/model.py:11 in forward, code: z = y - b");
  EXPECT_EQ(g.FindNode("mul")->provenance[0],
            "File: /work/model.py:10 in forward, code: y = x * w + 2 * 1");
}

TEST(FxOurFixtures, LayerNormVarMeanGetitemAndGoldenDump) {
  const std::string file = "layernorm_var_mean.fx_graph_readable.py";
  const Graph g = Load(file);
  EXPECT_EQ(g.name, "<lambda>");
  EXPECT_EQ(g.nodes.size(), 9u);
  const model::Node& vm = *g.FindNode("var_mean");
  EXPECT_TRUE(vm.multi_output);
  ASSERT_EQ(vm.outputs.size(), 2u);
  EXPECT_EQ(g.value(vm.outputs[0]).name, "getitem");
  EXPECT_EQ(g.value(vm.outputs[1]).name, "getitem_1");
  EXPECT_EQ(g.value(vm.outputs[1]).type.ToString(), "f32[2, 16, 1]");
  EXPECT_EQ(g.value(vm.outputs[1]).source, TypeSource::kChecked);
  ASSERT_EQ(g.outputs.size(), 3u);
  EXPECT_EQ(g.outputs[1].value, vm.outputs[1]);
  EXPECT_TRUE(g.diagnostics.empty());
  model::DumpOptions opts;
  opts.provenance = true;
  const std::string golden = test::ReadFile(test::FxFixture("layernorm_var_mean.dump.txt"));
  EXPECT_EQ(model::DumpText(g, opts), golden) << "actual:\n" << model::DumpText(g, opts);
}

TEST(FxOurFixtures, SoftmaxTorch20Unquoted) {
  const Graph g = Load("softmax.fx_graph_readable.py");
  EXPECT_EQ(g.nodes.size(), 7u);
  EXPECT_EQ(TypeOf(g, "primals_1"), "f32[8, 64]");
  EXPECT_EQ(TypeOf(g, "mm"), "f32[8, 128]");
  EXPECT_EQ(TypeOf(g, "amax"), "f32[8, 1]");
  EXPECT_EQ(TypeOf(g, "div"), "f32[8, 128]");
  EXPECT_EQ(CountSource(g, TypeSource::kChecked), 7);
  ASSERT_EQ(g.outputs.size(), 3u);
  EXPECT_EQ(g.value(g.outputs[2].value).name, "primals_2");
  EXPECT_EQ(g.FindNode("mm")->provenance[0], "File: attn.py:21, code: s = q @ k.t()");
}

TEST(FxOurFixtures, DynamicSymInputs) {
  const std::string file = "dynamic_sym.fx_graph_readable.py";
  const Graph g = Load(file);
  const std::string text = test::ReadFile(test::FxFixture(file));
  EXPECT_EQ(g.symbols, (std::vector<std::string>{"s0", "s1"}));
  ASSERT_EQ(g.inputs.size(), 4u);
  const model::Value& s0 = g.value(g.inputs[0]);
  EXPECT_EQ(s0.type.kind, model::ValueKind::kSymInt);
  EXPECT_EQ(*s0.type.expr, sym::Expr::Sym("s0"));
  EXPECT_EQ(g.CountNodes(NodeKind::kOp), test::CountTorchOpsLines(text));
  EXPECT_EQ(g.CountNodes(NodeKind::kPython), test::CountPythonArithmeticLines(text));
  EXPECT_EQ(g.CountNodes(NodeKind::kPython), 3);
  EXPECT_EQ(Out(g, "cat").type.shape[0], sym::Parse("s0 + s1"));
  EXPECT_EQ(*Out(g, "mul").type.expr, sym::Parse("2*s0"));
  EXPECT_EQ(g.FindNode("floordiv")->op.ToString(), "operator.floordiv");
  EXPECT_EQ(TypeOf(g, "full"), "f32[2 * s0]");
  EXPECT_EQ(TypeOf(g, "slice_1"), "f32[s0 - 1, 24]");
  EXPECT_EQ(CountSource(g, TypeSource::kChecked), 11);
  EXPECT_TRUE(g.FindNode("mul")->provenance.empty());  // "# No stacktrace found"
  EXPECT_TRUE(g.diagnostics.empty());
}

TEST(FxOurFixtures, QuotedAndUnquotedFormsAgree) {
  const Graph a = Load("forms_unquoted.fx_graph_readable.py");
  const Graph b = Load("forms_quoted_strides.inductor_post_grad_graph.txt");
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  ASSERT_EQ(a.values.size(), b.values.size());
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    EXPECT_EQ(a.nodes[i].name, b.nodes[i].name);
    EXPECT_EQ(a.nodes[i].op, b.nodes[i].op);
  }
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    const model::ValueType& ta = a.values[i].type;
    const model::ValueType& tb = b.values[i].type;
    EXPECT_EQ(ta.dtype_code, tb.dtype_code) << a.values[i].name;
    EXPECT_EQ(ta.shape, tb.shape) << a.values[i].name;
    EXPECT_FALSE(ta.strides);
    EXPECT_TRUE(ta.device.empty());
    if (tb.kind == model::ValueKind::kTensor) {
      EXPECT_TRUE(tb.strides) << b.values[i].name;
      EXPECT_EQ(tb.device, "cpu");
    }
  }
  EXPECT_EQ(TypeOf(b, "transpose"), "f32[4, 1, 8][8, 32, 1]cpu");
  EXPECT_EQ(TypeOf(b, "mm"), "f32[s0, 4][4, 1]cpu");
  ASSERT_EQ(a.outputs.size(), 1u);  // `return neg`
  ASSERT_EQ(b.outputs.size(), 1u);  // `return (neg,)`
  EXPECT_EQ(CountSource(a, TypeSource::kChecked), 7);
  EXPECT_EQ(CountSource(b, TypeSource::kChecked), 7);
}

TEST(FxOurFixtures, MatmulWithEpilogueAndAnOpaqueOp) {
  const Graph g = Load("matmul_epilogue.fx_graph_transformed.py");
  EXPECT_EQ(g.nodes.size(), 8u);
  EXPECT_EQ(TypeOf(g, "addmm"), "bf16[32, 128]");
  EXPECT_EQ(TypeOf(g, "bmm"), "f32[4, 32, 128]");
  EXPECT_EQ(TypeOf(g, "_to_copy"), "f16[4, 32, 128]");
  const model::Node& epi = *g.FindNode("custom_epilogue");
  EXPECT_EQ(epi.op.ToString(), "mylib.custom_epilogue.default");
  EXPECT_EQ(epi.infer, model::InferState::kOpaque);
  EXPECT_EQ(g.value(epi.outputs[0]).source, TypeSource::kAnnotation);
  EXPECT_EQ(g.value(epi.outputs[0]).type.ToString(), "f16[4, 32, 128]");
  EXPECT_EQ(epi.Kwarg("scale")->f, -0.5);
  ASSERT_EQ(epi.Kwarg("names")->items.size(), 2u);
  EXPECT_EQ(epi.Kwarg("names")->items[1].text, "b");
  const model::Node& copy = *g.FindNode("_to_copy");
  EXPECT_EQ(copy.Kwarg("memory_format")->kind, Arg::Kind::kMemoryFormat);
  EXPECT_EQ(copy.Kwarg("dtype")->dtype, ir::DType::kFloat16);
  EXPECT_EQ(g.FindNode("gelu")->Kwarg("approximate")->text, "tanh");
  EXPECT_TRUE(g.diagnostics.empty());
}

TEST(FxOurFixtures, RunnableReproWithLoadArgs) {
  const Graph g = Load("repro.fx_graph_runnable.py");
  EXPECT_EQ(g.name, "Repro");
  EXPECT_EQ(g.torch_version, "2.5.1+cpu");
  ASSERT_EQ(g.inputs.size(), 3u);
  EXPECT_EQ(TypeOf(g, "arg0_1"), "f32[4, 8][1, 4]cpu");
  EXPECT_EQ(TypeOf(g, "arg1_1"), "i64[4, 8]cpu");
  EXPECT_EQ(g.value(g.inputs[2]).type.kind, model::ValueKind::kSymInt);
  EXPECT_EQ(g.value(g.inputs[2]).hint, 7);
  ASSERT_EQ(g.attrs.size(), 1u);
  EXPECT_EQ(TypeOf(g, "_tensor_constant0"), "f32[]cpu");
  EXPECT_EQ(TypeOf(g, "sub"), "f32[4, 8]cpu");
  EXPECT_EQ(Out(g, "sub").source, TypeSource::kInferred);
  EXPECT_EQ(g.FindNode("unknown")->infer, model::InferState::kOpaque);
  EXPECT_FALSE(Out(g, "unknown").type.IsKnown());
  EXPECT_TRUE(g.diagnostics.empty());
}

TEST(FxOurFixtures, AllLookLikeFxGraphs) {
  const auto files = test::OurFxFiles();
  EXPECT_GE(files.size(), 8u);
  for (const auto& f : files)
    EXPECT_TRUE(LooksLikeFxGraph(test::ReadFile(f))) << f;
}

// ------------------------------------------------------------------ inline forms

TEST(FxForms, ReturnForms) {
  const std::string params = ", x: \"f32[2]\"";
  const std::string node = "        y: \"f32[2]\" = torch.ops.aten.neg.default(x)\n";
  EXPECT_EQ(ParseFxGraph(Module(params, node + "        return y\n"), "r.py").outputs.size(), 1u);
  EXPECT_EQ(ParseFxGraph(Module(params, node + "        return (y,)\n"), "r.py").outputs.size(),
            1u);
  EXPECT_EQ(ParseFxGraph(Module(params, node + "        return [y, x]\n"), "r.py").outputs.size(),
            2u);
  const Graph g = ParseFxGraph(Module(params, node + "        return (None, y)\n"), "r.py");
  ASSERT_EQ(g.outputs.size(), 2u);
  EXPECT_TRUE(g.outputs[0].IsNone());
  EXPECT_EQ(ParseFxGraph(Module(params, node + "        return ()\n"), "r.py").outputs.size(), 0u);
}

TEST(FxForms, Literals) {
  const Graph g = ParseFxGraph(
      Module(", x: \"f32[2, 3]\"",
             "        y = torch.ops.mylib.op.default(x, -3, -2.5e-3, inf, -inf, [1, [2, (3,)]], "
             "'a\\'b\\n', \"q\", torch.float16, torch.contiguous_format, torch.strided, "
             "device(type='cuda', index=0), device(type='cpu'), None, True, False, "
             "123456789012345678901234567890, k = 1)\n"
             "        return (y,)\n"),
      "lit.py");
  const model::Node& n = g.nodes.at(0);
  ASSERT_EQ(n.args.size(), 17u);
  EXPECT_EQ(n.args[1].i, -3);
  EXPECT_EQ(n.args[2].f, -2.5e-3);
  EXPECT_EQ(n.args[2].text, "-2.5e-3");
  EXPECT_GT(n.args[3].f, 1e308);
  EXPECT_LT(n.args[4].f, -1e308);
  EXPECT_EQ(model::FormatArg(g, n.args[5]), "[1, [2, (3,)]]");
  EXPECT_EQ(n.args[6].text, "a'b\n");
  EXPECT_EQ(n.args[7].text, "q");
  EXPECT_EQ(n.args[8].kind, Arg::Kind::kDType);
  EXPECT_EQ(n.args[8].dtype, ir::DType::kFloat16);
  EXPECT_EQ(n.args[9].kind, Arg::Kind::kMemoryFormat);
  EXPECT_EQ(n.args[10].kind, Arg::Kind::kLayout);
  EXPECT_EQ(n.args[11].text, "cuda:0");
  EXPECT_EQ(n.args[12].text, "cpu");
  EXPECT_TRUE(n.args[13].IsNone());
  EXPECT_TRUE(n.args[14].b);
  EXPECT_FALSE(n.args[15].b);
  EXPECT_EQ(n.args[16].kind, Arg::Kind::kOther);
  EXPECT_EQ(n.Kwarg("k")->i, 1);
}

TEST(FxForms, GetitemNamesTheOutputsOfOpaqueTupleOps) {
  const Graph g = ParseFxGraph(Module(", x: \"f32[4, 4]\"",
                                      "        tup = torch.ops.mylib.split3.default(x)\n"
                                      "        getitem: \"f32[4, 1]\" = tup[0]\n"
                                      "        getitem_2: \"i64[4, 2]\" = tup[2];  tup = None\n"
                                      "        return (getitem, getitem_2)\n"),
                               "t.py");
  const model::Node& n = g.nodes.at(0);
  EXPECT_TRUE(n.multi_output);
  ASSERT_EQ(n.outputs.size(), 3u);
  EXPECT_EQ(g.value(n.outputs[0]).name, "getitem");
  EXPECT_EQ(g.value(n.outputs[1]).name, "tup[1]");
  EXPECT_FALSE(g.value(n.outputs[1]).type.IsKnown());
  EXPECT_EQ(g.value(n.outputs[2]).type.ToString(), "i64[4, 2]");
  EXPECT_EQ(g.nodes.size(), 1u);  // getitem is a binding, not a node
}

TEST(FxForms, AttributesMultiLineSignatureAndNestedModules) {
  const std::string text =
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self,\n"
      "                x: \"f32[3]\",\n"
      "                y: \"f32[3]\"):\n"
      "        _tensor_constant0 = self._tensor_constant0\n"
      "        lift_fresh_copy: \"f32[]\" = "
      "torch.ops.aten.lift_fresh_copy.default(_tensor_constant0)\n"
      "        add: \"f32[3]\" = torch.ops.aten.add.Tensor(x, lift_fresh_copy)\n"
      "        return (add,)\n"
      "        \n"
      "    class submod_0(torch.nn.Module):\n"
      "        def forward(self, a: \"f32[9]\"):\n"
      "            b: \"f32[9]\" = torch.ops.aten.neg.default(a)\n"
      "            return (b,)\n";
  const Graph g = ParseFxGraph(text, "n.py");
  EXPECT_EQ(g.inputs.size(), 2u);
  EXPECT_EQ(g.attrs.size(), 1u);
  EXPECT_EQ(g.nodes.size(), 2u);
  EXPECT_EQ(TypeOf(g, "add"), "f32[3]");
  EXPECT_EQ(Out(g, "add").source, TypeSource::kChecked);
}

TEST(FxForms, PythonCallsAndMethodCalls) {
  const Graph g = ParseFxGraph(Module(", x: \"f32[4]\", n: \"Sym(s0)\"",
                                      "        f: \"Sym(s0)\" = torch.sym_float(n)\n"
                                      "        m = torch.sym_max(n, 2)\n"
                                      "        y = x.sin()\n"
                                      "        return (y, f, m)\n"),
                               "py.py");
  ASSERT_EQ(g.nodes.size(), 3u);
  EXPECT_EQ(g.nodes[0].kind, NodeKind::kPython);
  EXPECT_EQ(g.nodes[0].op.ToString(), "torch.sym_float");
  EXPECT_EQ(TypeOf(g, "m"), "Sym(Max(2, s0))");
  EXPECT_EQ(g.nodes[2].op.ToString(), "method.sin");
  ASSERT_EQ(g.nodes[2].args.size(), 1u);
  EXPECT_EQ(g.nodes[2].args[0].value, g.inputs[0]);
  // The SymFloat annotation disagrees in kind with "Sym(s0)" (an integer): reported, kept.
  EXPECT_EQ(test::CountConflicts(g), 1);
}

TEST(FxForms, CrLfAndTabsAndTrailingComments) {
  const std::string text =
      "class GraphModule(torch.nn.Module):\r\n"
      "    def forward(self, x: \"i32[2]\"):\r\n"
      "        y: \"i32[2]\" = torch.ops.aten.abs.default(x)  # a comment (with ' quote\r\n"
      "\t\treturn (y,)\r\n";
  const Graph g = ParseFxGraph(text, "crlf.py");
  EXPECT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(Out(g, "y").source, TypeSource::kChecked);
}

TEST(FxForms, WrongAnnotationIsADiagnosticNotAnError) {
  const Graph g = ParseFxGraph(Module(", x: \"f32[4, 8]\"",
                                      "        s: \"f32[4]\" = torch.ops.aten.sum.dim_IntList(x, "
                                      "[0])\n        return (s,)\n"),
                               "w.py");
  EXPECT_EQ(test::CountConflicts(g), 1);
  ASSERT_EQ(g.diagnostics.size(), 1u);
  EXPECT_EQ(g.diagnostics[0].line, 3);
  EXPECT_EQ(g.diagnostics[0].kind, model::Diagnostic::Kind::kMismatch);
  EXPECT_THAT(g.diagnostics[0].message, HasSubstr("inferred f32[8], annotated f32[4]"));
  EXPECT_EQ(TypeOf(g, "s"), "f32[4]");
}

TEST(FxForms, UnknownAnnotationFormIsADiagnostic) {
  const Graph g = ParseFxGraph(Module(", x: torch.Tensor", "        return (x,)\n"), "u.py");
  ASSERT_EQ(g.diagnostics.size(), 1u);
  EXPECT_EQ(g.diagnostics[0].kind, model::Diagnostic::Kind::kAnnotation);
  EXPECT_FALSE(g.value(g.inputs[0]).type.IsKnown());
}

TEST(FxForms, LooksLikeFxGraph) {
  EXPECT_TRUE(LooksLikeFxGraph(Module(", x", "        return (x,)\n")));
  EXPECT_FALSE(LooksLikeFxGraph("def forward(self, x):\n    return x\n"));
  EXPECT_FALSE(LooksLikeFxGraph("op0: SchedulerNode(ComputedBuffer)\nop0.writes = []\n"));
  EXPECT_FALSE(LooksLikeFxGraph(""));
}

// ------------------------------------------------------------------ errors

void ExpectError(const std::string& text, int line, const std::string& cause) {
  try {
    ParseFxGraph(text, "bad.py");
    ADD_FAILURE() << "no error for:\n" << text;
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, "bad.py");
    EXPECT_EQ(e.loc().line, line) << e.what();
    EXPECT_THAT(e.cause(), HasSubstr(cause));
    EXPECT_THAT(e.what(), HasSubstr("bad.py:" + std::to_string(line)));
  }
}

TEST(FxErrors, NameFileLineAndCause) {
  ExpectError("import torch\nx = 1\n", 1, "no `def forward");
  ExpectError(Module(", x", "        y = torch.ops.aten.neg.default(x)\n"), 3, "without a return");
  ExpectError(Module(", x", "        y = torch.ops.aten.neg.default(foo)\n        return y\n"), 3,
              "'foo' is not defined");
  ExpectError(Module(", x: \"f32[4, 8!]\"", "        return x\n"), 2, "annotation");
  ExpectError(Module(", x",
                     "        y: \"f32[4, ]\" = torch.ops.aten.neg.default(x)\n"
                     "        return y\n"),
              3, "annotation");
  ExpectError(Module(", x", "        y = torch.ops.aten.neg.default(x\n        return y\n"), 3,
              "unbalanced");
  ExpectError(Module(", x",
                     "        y = torch.ops.aten.neg.default(x)\n"
                     "        y = torch.ops.aten.neg.default(y)\n        return y\n"),
              4, "defined twice");
  ExpectError(Module(", x",
                     "        t = torch.ops.mylib.split.default(x)\n        y = t[99999]\n"
                     "        return y\n"),
              4, "too large");
  ExpectError("class M(torch.nn.Module):\n    def forward(self, x:\n", 2, "never closes");
  ExpectError(Module(", x", "        y = 'unterminated\n        return y\n"), 3, "unterminated");
  ExpectError(Module(", x", "        return x +\n"), 3, "expected an expression");
}

}  // namespace
}  // namespace af::importers
