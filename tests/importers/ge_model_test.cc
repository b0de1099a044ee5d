// GE graphs as model graphs (importers/ge_model.h): the generated networks of tests/fixtures/ge/
// cases lower to the same aten graph from both dump forms, with GE's attributes and Const values
// used; ops that cannot lower stay ge.<Type> with a reason code.
#include "autofuse/importers/ge_model.h"

#include <gtest/gtest.h>

#include "autofuse/importers/ge_onnx.h"
#include "autofuse/importers/ge_proto.h"
#include "fixtures.h"

namespace af::importers::ge {
namespace {

namespace fs = std::filesystem;

fs::path CaseDir(const std::string& name) {
  return test::OurFixtures() / "ge" / "cases" / name;
}

GeModelImport FromOnnx(const std::string& name) {
  return LowerGeModel(LoadGeOnnxFile(CaseDir(name) / ("ge_onnx_" + name + ".pbtxt")));
}
GeModelImport FromProto(const std::string& name) {
  return LowerGeModel(LoadGeProtoModel(CaseDir(name) / ("ge_proto_" + name + ".txt")));
}

std::string Ops(const model::Graph& g) {
  std::string s;
  for (const auto& n : g.nodes)
    s += n.name + "=" + n.op.ToString() + ";";
  return s;
}

TEST(GeModel, BothDumpFormsGiveTheSameGraph) {
  for (const char* name : {"cast_abs_cast_add_relu_cast", "rec_mlp", "norm_softmax"}) {
    SCOPED_TRACE(name);
    const GeModelImport a = FromOnnx(name);
    const GeModelImport b = FromProto(name);
    EXPECT_TRUE(a.refusals.empty()) << a.refusals[0].node << ": " << a.refusals[0].message;
    EXPECT_TRUE(b.refusals.empty()) << b.refusals[0].node << ": " << b.refusals[0].message;
    EXPECT_EQ(Ops(a.graph), Ops(b.graph));
    EXPECT_EQ(a.graph.inputs.size(), b.graph.inputs.size());
    EXPECT_EQ(a.graph.outputs.size(), b.graph.outputs.size());
    ASSERT_EQ(a.constants.size(), b.constants.size());
    for (std::size_t i = 0; i < a.constants.size(); ++i)
      EXPECT_EQ(a.constants[i].bytes, b.constants[i].bytes);
    for (const auto& n : a.graph.nodes)
      EXPECT_EQ(n.infer, model::InferState::kInferred) << n.name << " " << n.op.ToString();
    EXPECT_EQ(a.graph.CountDiagnostics(model::Diagnostic::Kind::kMismatch), 0);
  }
}

TEST(GeModel, AttributesAndConstsAreHonoured) {
  const GeModelImport r = FromOnnx("rec_mlp");
  const model::Graph& g = r.graph;
  EXPECT_EQ(r.constants.size(), 7u);  // tables, axes, weight, bias, scale
  EXPECT_EQ(g.FindNode("emb_a/GatherV2")->op.ToString(), "aten.embedding.default");
  const model::Node* pool = g.FindNode("emb_a/pool");
  EXPECT_EQ(pool->op.ToString(), "aten.sum.dim_IntList");
  EXPECT_EQ(pool->args[1].items.at(0).i, 1);  // axes [1]
  EXPECT_FALSE(pool->args[2].b);              // keep_dims false
  const model::Node* cat = g.FindNode("features/concat");
  EXPECT_EQ(cat->op.ToString(), "aten.cat.default");
  EXPECT_EQ(cat->args[0].items.size(), 3u);  // the axis Const is read, not an operand
  EXPECT_EQ(cat->args[1].i, 1);
  EXPECT_EQ(g.FindNode("fc1/MatMulV2/mm")->op.ToString(), "aten.mm.default");
  EXPECT_EQ(g.FindNode("fc1/MatMulV2")->op.ToString(), "aten.add.Tensor");  // the bias
  const model::Node* mul = g.FindNode("head/Mul");
  ASSERT_EQ(mul->args[1].kind, model::Arg::Kind::kFloat);  // a one-element Const as a scalar
  EXPECT_DOUBLE_EQ(mul->args[1].f, 0.5);
  const model::Node* mean = g.FindNode("head/mean");
  EXPECT_EQ(mean->op.ToString(), "aten.mean.dim");
  EXPECT_TRUE(mean->args[2].b);
  const GeModelImport c = FromProto("cast_abs_cast_add_relu_cast");
  const model::Node* cast = c.graph.FindNode("Cast_2");
  EXPECT_EQ(cast->op.ToString(), "prims.convert_element_type.default");
  EXPECT_EQ(c.graph.value(cast->outputs[0]).type.dtype, ir::DType::kFloat16);
  const GeModelImport s = FromOnnx("norm_softmax");
  EXPECT_EQ(s.graph.FindNode("attn/Split")->outputs.size(), 2u);
  EXPECT_EQ(s.graph.FindNode("attn/Softmax")->op.ToString(), "aten.div.Tensor");
  EXPECT_EQ(s.graph.FindNode("ln/LayerNorm")->op.ToString(), "aten.add.Tensor");
}

GeTensorDesc Desc(const std::string& dt, std::vector<std::int64_t> shape,
                  const std::string& layout = "ND") {
  GeTensorDesc d;
  d.dtype = dt;
  d.shape = std::move(shape);
  d.has_shape = true;
  d.layout = layout;
  return d;
}

GeOnnxNode Node(const std::string& name, const std::string& type, std::vector<std::string> ins,
                std::vector<GeTensorDesc> outs) {
  GeOnnxNode n;
  n.name = name;
  n.type = type;
  for (const auto& i : ins)
    n.inputs.push_back(ParseGeEdge(i));
  n.output_desc = std::move(outs);
  for (std::size_t k = 0; k < n.output_desc.size(); ++k)
    n.outputs.push_back(name + ":" + std::to_string(k));
  return n;
}

TEST(GeModel, RefusalsCarryCodes) {
  GeOnnxGraph g;
  g.name = "g";
  g.nodes.push_back(Node("x", "Data", {}, {Desc("DT_FLOAT", {4, 8})}));
  g.nodes.push_back(Node("nz", "Abs", {"x:0"}, {Desc("DT_FLOAT", {4, 8}, "FRACTAL_NZ")}));
  g.nodes.push_back(Node("u", "Unique", {"x:0"}, {Desc("DT_FLOAT", {4, 8})}));
  g.nodes.push_back(Node("axis", "Const", {}, {Desc("DT_INT32", {})}));  // no value dumped
  g.nodes.push_back(Node("cat", "ConcatV2", {"x:0", "x:0", "axis:0"}, {Desc("DT_FLOAT", {8, 8})}));
  g.nodes.push_back(Node("dyn", "Relu", {"x:0"}, {Desc("DT_FLOAT", {-1, 8})}));
  g.nodes.push_back(Node("ok", "Relu", {"x:0"}, {Desc("DT_FLOAT", {4, 8})}));
  g.nodes.push_back(Node("out", "NetOutput", {"nz:0", "u:0", "cat:0", "dyn:0", "ok:0"}, {}));
  const GeModelImport r = LowerGeGraph(g, "g.pbtxt");
  std::map<std::string, std::string> code;
  for (const auto& x : r.refusals)
    code[x.node] = x.code;
  EXPECT_EQ(code["nz"], "GE_FORMAT");
  EXPECT_EQ(code["u"], "GE_UNSUPPORTED_OP");
  EXPECT_EQ(code["cat"], "GE_CONST_MISSING");
  EXPECT_EQ(code["dyn"], "GE_DYNAMIC_SHAPE");
  EXPECT_EQ(code.count("ok"), 0u);
  EXPECT_EQ(r.graph.FindNode("nz")->op.ToString(), "ge.Abs");
  EXPECT_EQ(r.graph.FindNode("ok")->op.ToString(), "aten.relu.default");
  EXPECT_EQ(r.graph.outputs.size(), 5u);
  EXPECT_TRUE(IsPlainGeFormat("NHWC"));
  EXPECT_FALSE(IsPlainGeFormat("NC1HWC0"));
}

}  // namespace
}  // namespace af::importers::ge
