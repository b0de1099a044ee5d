// The streamed GE readers (pb_text_stream): ge_onnx text walked node by node and ge_proto op by
// op give the same result as one whole-message parse, accept every text-format spelling, and
// report damaged text at the right file line.
#include <gtest/gtest.h>

#include <filesystem>

#include "autofuse/importers/ge_onnx.h"
#include "autofuse/importers/ge_proto.h"
#include "autofuse/ir/load.h"
#include "autofuse/support/error.h"
#include "fixtures.h"

namespace af::importers::ge {
namespace {

int ErrorLine(const std::string& text) {
  try {
    ParseGeOnnx(text, "s.pbtxt");
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, "s.pbtxt");
    return e.loc().line;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return -1;
}

TEST(GeStream, OnnxTextFormSpellings) {
  const std::string text =
      "# a comment with \"quotes\" and { braces\n"
      "ir_version: 6; producer_name: 'G' \"E\"\n"
      "graph: {\n"
      "  node < name: \"a\" op_type: \"ge:Data\" output: \"a:0\" >\n"
      "  node {\n"
      "    input: [\"a:0\", \"a:0\"]\n"
      "    name: \"b}\" # } in a comment\n"
      "    op_type: \"ge:Add\",\n"
      "    attribute { name: \"output_desc_dtype:0\" s: \"DT_FLOAT\" type: STRING }\n"
      "    attribute { name: \"output_desc_shape:0\" ints: [2, 3] type: INTS }\n"
      "    attribute { name: \"alpha\" f: 0.5 type: FLOAT }\n"
      "  }\n"
      "  node { name: \"sub\" op_type: \"subgraph\"\n"
      "    attribute { name: \"graph\" type: GRAPH g { node { name: \"c\" op_type: \"ge:Relu\" }"
      " name: \"inner\" } }\n"
      "  }\n"
      "  name: \"outer\"\n"
      "}\n";
  const GeOnnxModel m = ParseGeOnnx(text, "s.pbtxt");
  EXPECT_EQ(m.producer, "GE");
  EXPECT_EQ(m.ir_version, 6);
  ASSERT_EQ(m.graphs.size(), 2u);
  EXPECT_EQ(m.graphs[0].name, "outer");
  ASSERT_EQ(m.graphs[0].nodes.size(), 2u);
  const GeOnnxNode& b = m.graphs[0].nodes[1];
  EXPECT_EQ(b.name, "b}");
  EXPECT_EQ(b.type, "Add");
  EXPECT_EQ(b.DataInputs(), 2);
  ASSERT_EQ(b.output_desc.size(), 1u);
  EXPECT_EQ(b.output_desc[0].dtype, "DT_FLOAT");
  EXPECT_EQ(b.output_desc[0].shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(b.attrs.at("alpha"), "0.5");
  EXPECT_EQ(m.graphs[1].name, "inner");
  ASSERT_EQ(m.graphs[1].nodes.size(), 1u);
  EXPECT_EQ(m.graphs[1].nodes[0].type, "Relu");
}

TEST(GeStream, DamagedTextGivesTheFileLine) {
  const std::string head = "ir_version: 6\ngraph {\n";
  const std::string node = "  node {\n    name: \"n\"\n    op_type: \"ge:Add\"\n  }\n";
  // a bad enum value in the third node's attribute: line 2 + 4 + 4 + 4
  EXPECT_EQ(
      ErrorLine(head + node + node +
                "  node {\n    name: \"x\"\n    attribute {\n      type: NOPE\n    }\n  }\n}\n"),
      14);
  EXPECT_EQ(ErrorLine(head + node + "  node {\n    name: \"never closed\n  }\n}\n"), 8);
  EXPECT_EQ(ErrorLine(head + node), 7);  // the input ends (after line 6) inside `graph`
  EXPECT_EQ(ErrorLine(head + "  node { name: \"a\" ]\n}\n"), 3);       // a stray closer
  EXPECT_EQ(ErrorLine(head + "  node {\n    3: 4\n  }\n}\n"), 4);      // not a field name
  EXPECT_EQ(ErrorLine("ir_version: 6\ngraph {\n}\ngraph {\n}\n"), 4);  // a second graph
  EXPECT_EQ(ErrorLine("ir_version:\n"), 2);                            // a field without a value
}

TEST(GeStream, ProtoSniffing) {
  EXPECT_TRUE(LooksLikeGeProto("graph {\n  name: \"g\"\n"));
  EXPECT_TRUE(LooksLikeGeProto("# dump\nop {\n  name: \"a\"\n}\n"));
  EXPECT_TRUE(LooksLikeGeProto("name: \"Abs_graph\"\nop {\n"));
  EXPECT_FALSE(LooksLikeGeProto("buf0: SchedulerNode(ComputedBuffer)\ngraph {\n"));
  EXPECT_FALSE(LooksLikeGeProto("class Repro(torch.nn.Module):\n    graph = 1\n"));
  EXPECT_FALSE(LooksLikeGeProto("asc_graph_attr {\n}\n"));
}

// The streamed ge_proto reader and ir::LoadGraphFile (one whole-message parse) agree.
void ExpectSameAsWholeParse(const std::filesystem::path& p) {
  const ir::LoadedFile whole = ir::LoadGraphFile(p.string());
  const ir::LoadedFile streamed = LoadGeProtoFile(p);
  EXPECT_EQ(streamed.format, whole.format) << p;
  ASSERT_EQ(streamed.ge_graphs.size(), whole.ge_graphs.size()) << p;
  for (std::size_t i = 0; i < whole.ge_graphs.size(); ++i) {
    const auto& a = streamed.ge_graphs[i];
    const auto& b = whole.ge_graphs[i];
    EXPECT_EQ(a.name, b.name);
    ASSERT_EQ(a.ops.size(), b.ops.size()) << p << " " << b.name;
    for (std::size_t k = 0; k < b.ops.size(); ++k) {
      EXPECT_EQ(a.ops[k].name, b.ops[k].name);
      EXPECT_EQ(a.ops[k].type, b.ops[k].type);
      EXPECT_EQ(a.ops[k].inputs, b.ops[k].inputs);
    }
  }
  ASSERT_EQ(streamed.graphs.size(), whole.graphs.size()) << p;
  for (std::size_t i = 0; i < whole.graphs.size(); ++i) {
    EXPECT_EQ(streamed.graphs[i].graph.name, whole.graphs[i].graph.name);
    EXPECT_EQ(streamed.graphs[i].graph.nodes.size(), whole.graphs[i].graph.nodes.size());
    EXPECT_EQ(streamed.graphs[i].origin, whole.graphs[i].origin);
  }
}

TEST(GeStream, ProtoMatchesWholeParseOnOurFixtures) {
  ExpectSameAsWholeParse(test::OurFixtures() / "ascgraph" / "embedded.GraphDef.txt");
  try {
    ParseGeProto("graph {\n  name: \"g\"\n  op {\n    name: \"a\"\n    id: x\n  }\n}\n", "p.txt");
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 5);
  }
}

TEST(GeStreamReal, ProtoMatchesWholeParseOnRealDumps) {
  AF_REQUIRE_REAL_FIXTURES();
  int n = 0;
  for (const auto& p : test::FilesUnder(test::RealFixtures(), {".txt"})) {
    const std::string name = p.filename().string();
    if (name.rfind("ge_proto_", 0) != 0 && name.find(".GraphDef.txt") == std::string::npos)
      continue;
    ExpectSameAsWholeParse(p);
    ++n;
  }
  EXPECT_GE(n, 4);
}

}  // namespace
}  // namespace af::importers::ge
