// GE ONNX text dumps: our fixture (tests/fixtures/ge: edges from "name:index" strings with ':' and
// '/' in names, control edges, unconnected inputs, descriptors, a subgraph, unknown fields), its
// model graph (aten-mapped ops checked by inference against GE's descriptors), errors, and the
// real dumps (node and graph counts equal counts taken from the text).
#include "autofuse/importers/ge_onnx.h"

#include <gtest/gtest.h>

#include <iostream>
#include <regex>
#include <sstream>

#include "autofuse/ir/proto_io.h"
#include "autofuse/support/error.h"
#include "fixtures.h"

namespace af::importers::ge {
namespace {

TEST(GeOnnx, OurFixtureEdgesDescsSubgraph) {
  const GeOnnxModel m = LoadGeOnnxFile(test::OurFixtures() / "ge" / "abs_add_relu.ge_onnx.pbtxt");
  EXPECT_EQ(m.producer, "GE");
  EXPECT_EQ(m.ir_version, 6);
  ASSERT_EQ(m.graphs.size(), 2u);
  const GeOnnxGraph& g = m.graphs[0];
  EXPECT_EQ(g.name, "tf_abs_add_relu");
  ASSERT_EQ(g.nodes.size(), 9u);
  const GeOnnxNode* abs = g.Find("abs/Abs");
  ASSERT_NE(abs, nullptr);
  EXPECT_EQ(abs->type, "Abs");
  ASSERT_EQ(abs->inputs.size(), 1u);
  EXPECT_EQ(abs->inputs[0].src, "x/Placeholder:0");  // split at the last ':'
  EXPECT_EQ(abs->inputs[0].index, 0);
  const GeOnnxNode* relu = g.Find("relu");
  EXPECT_EQ(relu->DataInputs(), 1);
  EXPECT_EQ(relu->ControlInputs(), 1);
  const GeOnnxNode* mm = g.Find("mm");
  ASSERT_EQ(mm->inputs.size(), 3u);
  EXPECT_TRUE(mm->inputs[2].src.empty());  // an unconnected input keeps its slot
  const GeOnnxNode* cast = g.Find("cast");
  ASSERT_EQ(cast->output_desc.size(), 1u);
  EXPECT_EQ(cast->output_desc[0].dtype, "DT_FLOAT16");
  EXPECT_EQ(cast->output_desc[0].shape, (std::vector<std::int64_t>{192, 128}));
  EXPECT_EQ(cast->attrs.at("dst_type"), "1");
  EXPECT_EQ(m.DataEdges(), 12);
  EXPECT_EQ(m.ControlEdges(), 1);
  EXPECT_EQ(m.DanglingEdges(), 0);
  EXPECT_EQ(m.graphs[1].name, "partition_sub");
  EXPECT_EQ(m.graphs[1].nodes.size(), 3u);
}

TEST(GeOnnx, ModelGraphMapsVectorOpsAndChecksTypes) {
  const GeOnnxModel m = LoadGeOnnxFile(test::OurFixtures() / "ge" / "abs_add_relu.ge_onnx.pbtxt");
  const model::Graph mg = GeOnnxToModelGraph(m.graphs[0], m.file);
  EXPECT_EQ(mg.inputs.size(), 2u);
  EXPECT_EQ(mg.outputs.size(), 2u);
  ASSERT_EQ(mg.nodes.size(), 7u);  // MatMulV2 with transpose_x2: transpose + mm
  const model::Node* add = mg.FindNode("add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->op.ToString(), "aten.add.Tensor");
  EXPECT_EQ(add->infer, model::InferState::kInferred);
  EXPECT_EQ(mg.value(add->outputs[0]).source, model::TypeSource::kChecked);
  EXPECT_EQ(mg.FindNode("mm")->op.ToString(), "aten.mm.default");
  EXPECT_EQ(mg.FindNode("mm/transpose_x2")->op.ToString(), "aten.transpose.int");
  EXPECT_EQ(mg.FindNode("sum")->op.ToString(), "aten.sum.dim_IntList");
  EXPECT_EQ(mg.FindNode("cast")->op.ToString(), "prims.convert_element_type.default");
  for (const auto& n : mg.nodes)
    EXPECT_EQ(n.infer, model::InferState::kInferred) << n.name;
  EXPECT_EQ(mg.CountDiagnostics(model::Diagnostic::Kind::kMismatch), 0);
  EXPECT_EQ(mg.CountDiagnostics(model::Diagnostic::Kind::kInferFailed), 0);
  EXPECT_EQ(ClassifyGeOp("ReduceSumD"), GeOpClass::kVector);
  EXPECT_EQ(ClassifyGeOp("MatMulV2"), GeOpClass::kCube);
  EXPECT_EQ(ClassifyGeOp("Unique"), GeOpClass::kOther);
}

TEST(GeOnnx, ErrorsNameFileLineColumn) {
  try {
    ParseGeOnnx("ir_version: 6\ngraph {\n  node {\n    name: 3 3\n", "g.pbtxt");
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, "g.pbtxt");
    EXPECT_EQ(e.loc().line, 4);
  }
  EXPECT_THROW(ParseGeOnnx("ir_version: 6\n", "g.pbtxt"), InputError);  // no graph
  EXPECT_THROW(LoadGeOnnxFile("/nonexistent.pbtxt"), InputError);
}

int Count(const std::string& text, const std::regex& re) {
  std::istringstream in(text);
  std::string line;
  int c = 0;
  while (std::getline(in, line))
    c += std::regex_search(line, re) ? 1 : 0;
  return c;
}

TEST(GeOnnxReal, EveryDumpLoadsWithAllNodes) {
  AF_REQUIRE_REAL_FIXTURES();
  const auto files = test::FilesUnder(test::RealFixtures() / "ge_dump", {".pbtxt"});
  ASSERT_EQ(files.size(), 2u);
  static const std::regex kOp(R"(^\s*op_type: ")");
  static const std::regex kSub(R"(^\s*op_type: "subgraph")");
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    const std::string text = test::ReadFile(f);
    EXPECT_TRUE(LooksLikeGeOnnx(text));
    const GeOnnxModel m = LoadGeOnnxFile(f);
    std::size_t nodes = 0;
    for (const auto& g : m.graphs) {
      nodes += g.nodes.size();
      const model::Graph mg = GeOnnxToModelGraph(g, m.file);
      EXPECT_EQ(mg.CountDiagnostics(model::Diagnostic::Kind::kMismatch), 0);
    }
    const int subs = Count(text, kSub);
    EXPECT_EQ(m.graphs.size(), static_cast<std::size_t>(1 + subs));
    EXPECT_EQ(nodes, static_cast<std::size_t>(Count(text, kOp) - subs));
    EXPECT_EQ(m.DanglingEdges(), 0);
    std::cout << f.filename().string() << ": " << m.graphs.size() << " graphs, " << nodes
              << " nodes, " << m.DataEdges() << " data edges, " << m.ControlEdges()
              << " control edges\n";
  }
}

// The ModelDef and ONNX dumps GE wrote of the same graphs give the same model graphs.
TEST(GeOnnxReal, ProtoAndOnnxDumpsOfOneGraphAgree) {
  AF_REQUIRE_REAL_FIXTURES();
  const auto dir = test::RealFixtures() / "ge_dump";
  int compared = 0;
  for (const auto& [proto, onnx] : std::vector<std::pair<std::string, std::string>>{
           {"ge_proto_00000000_Build.txt", "ge_onnx_00000000_graph_1_Build.pbtxt"},
           {"ge_proto_00000001_Build.txt", "ge_onnx_00000001_graph_11_Build.pbtxt"}}) {
    const ir::GeFile pf = ir::ParseGeText(test::ReadFile(dir / proto), proto);
    const GeOnnxModel om = LoadGeOnnxFile(dir / onnx);
    for (const auto& pg : pf.graphs) {
      SCOPED_TRACE(pg.name);
      const GeOnnxGraph* og = nullptr;
      for (const auto& g : om.graphs) {
        if (g.name == pg.name) og = &g;
      }
      ASSERT_NE(og, nullptr);
      std::vector<GeOpList> ops;
      for (const auto& op : pg.ops)
        ops.push_back({op.name, op.type, op.inputs});
      const model::Graph a = GeOnnxToModelGraph(GeGraphFromOps(pg.name, ops), proto);
      const model::Graph b = GeOnnxToModelGraph(*og, onnx);
      EXPECT_EQ(pg.ops.size(), og->nodes.size());
      EXPECT_EQ(a.inputs.size(), b.inputs.size());
      EXPECT_EQ(a.attrs.size(), b.attrs.size());
      EXPECT_EQ(a.nodes.size(), b.nodes.size());
      EXPECT_EQ(a.outputs.size(), b.outputs.size());
      ++compared;
    }
  }
  EXPECT_EQ(compared, 6);
}

TEST(GeOnnx, EdgesFromOpLists) {
  EXPECT_EQ(ParseGeEdge("a/b:c:2").src, "a/b:c");
  EXPECT_EQ(ParseGeEdge("a/b:c:2").index, 2);
  EXPECT_EQ(ParseGeEdge("x:-1").index, -1);
  EXPECT_TRUE(ParseGeEdge("").src.empty());
  const GeOnnxGraph g = GeGraphFromOps(
      "g", {{"x", "Data", {}}, {"s", "Split", {"x:0"}}, {"o", "Add", {"s:1", "s:0"}}});
  EXPECT_EQ(g.Find("s")->outputs.size(), 2u);
  const model::Graph m = GeOnnxToModelGraph(g, "g");
  EXPECT_EQ(m.FindNode("s")->outputs.size(), 2u);
  EXPECT_EQ(m.FindNode("o")->op.ToString(), "aten.add.Tensor");
}

}  // namespace
}  // namespace af::importers::ge
