// The readable text form: dump, parse back, error messages, hostile names.
#include "autofuse/ir/text.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "autofuse/ir/axis_algebra.h"
#include "autofuse/ir/validate.h"
#include "autofuse/support/error.h"
#include "filecheck.h"
#include "fixtures.h"
#include "test_graphs.h"

namespace af::ir {
namespace {

using ::testing::HasSubstr;

TEST(Text, DumpLooksLikeAutoFuse) {
  Graph g = testing::AbsGraph();
  TileSplit(g, 1);
  EXPECT_FILECHECK(DumpText(g), R"(
    CHECK: Graph: abs
    CHECK: Sizes:
    CHECK-NEXT: s0: VAR
    CHECK-NEXT: s1: VAR
    CHECK-NEXT: z1t_size: VAR
    CHECK: Axis:
    CHECK-NEXT: z0(0) : ORIGINAL, size:s0
    CHECK-NEXT: z1(1) : ORIGINAL, size:s1
    CHECK-NEXT: z1T(2) : TILE_OUT, size:CeilDiv(s1, z1t_size), from: {z1}, pair:3
    CHECK-NEXT: z1t(3) : TILE_IN, size:z1t_size, from: {z1}, pair:2
    CHECK: [2] abs : Abs(load.y0)
    CHECK-NEXT: .axis = {z0, z1T, z1t}
    CHECK-NEXT: .loop_axis = z1t
    CHECK-NEXT: .y0 : fp32 axis={z0, z1T, z1t} repeats=(s0, CeilDiv(s1, z1t_size), z1t_size)
  )");
}

TEST(Text, RoundTripsGraphsWithEveryField) {
  Graph g = testing::AbsGraph();
  TileSplit(g, 1);
  Node& n = g.nodes[2];
  n.attrs["f"] = 0.1;
  n.attrs["b"] = true;
  n.attrs["s"] = std::string("a \"quoted\"\nvalue\\");
  n.attrs["e"] = Expr::Sym("s0") * Expr(4) + Expr(1);
  n.attrs["l"] = std::vector<std::int64_t>{1, -2, 3};
  n.api = {1, 3, 5};
  n.sched.exec_order = 4;
  n.input_names = {"x"};
  n.output_names = {"y"};
  Tensor& t = n.outputs[0];
  t.vectorized_axis = {3};
  t.vectorized_strides = {Expr(1)};
  t.mem = {5, AllocType::kQueue, Position::kVecOut, Hardware::kUB, {1, 2}, "q", 3};
  t.que = {1, 2, 2, "que1"};
  t.buf = {4, "b"};
  t.opt = {1, 2, 3};
  n.tmp_buffers.push_back({Expr(8192), -1, {}, 0});
  g.tiling_key = 12;
  g.type = GraphType::kImpl;
  g.size_vars.push_back({"c", 100});
  const std::string text = DumpText(g);
  const Graph back = ParseText(text);
  EXPECT_EQ(back, g) << text << "\n---\n" << DumpText(back);
  EXPECT_EQ(DumpText(back), text);
}

TEST(Text, HostileNamesAreQuotedAndRoundTrip) {
  Graph g = testing::AbsGraph();
  g.name = "g\"; system(\"rm -rf /\"); //";
  g.nodes[2].name = "a*/ #include <x>\n\\";
  g.nodes[2].attrs["weird key"] = std::string("*/");
  const std::string text = DumpText(g);
  EXPECT_THAT(text, HasSubstr("[2] \"a*/ #include <x>\\n\\\\\" : Abs"));
  EXPECT_EQ(ParseText(text), g);
}

TEST(Text, OurFixtureParsesAndValidates) {
  const auto path = af::test::OurFixtures() / "ascgraph" / "exp_sub.graph.txt";
  const Graph g = ParseText(af::test::ReadFile(path), path.string());
  EXPECT_EQ(g.name, "exp_sub");
  EXPECT_EQ(g.nodes.size(), 11u);
  EXPECT_EQ(g.nodes[8].inputs[1].node, 2);
  const auto d = Validate(g);
  EXPECT_FALSE(HasErrors(d)) << FormatDiagnostics(d);
}

TEST(Text, DataMovementFixturesParseValidateAndRoundTrip) {
  const auto files = af::test::FilesUnder(af::test::OurFixtures() / "ir", {".graph.txt"});
  EXPECT_EQ(files.size(), 7u);  // concat, conv2d, gather, matmul, pad, split, transpose
  for (const auto& p : files) {
    SCOPED_TRACE(p.string());
    const Graph g = ParseText(af::test::ReadFile(p), p.string());
    const auto d = Validate(g);
    EXPECT_TRUE(d.empty()) << FormatDiagnostics(d);
    const std::string text = DumpText(g);
    EXPECT_EQ(ParseText(text), g) << text;
  }
}

TEST(Text, ErrorsNameTheLineAndCause) {
  struct Case {
    std::string text;
    int line;
    std::string cause;
  };
  const std::string head = "Graph: g\nSizes:\n  s0: VAR\nAxis:\n  z0(0) : ORIGINAL, size:s0\n";
  const Case cases[] = {
      {"", 1, "empty text"},
      {"Nodes:\n", 1, "must start with 'Graph:"},
      {"Graph: g\n  type: weird\n", 2, "graph type must be"},
      {"Graph: g\nSizes:\n  s0: MAYBE\n", 3, "expected VAR or CONST"},
      {head + "  z1(1) : SIDEWAYS, size:s0\n", 6, "unknown axis type"},
      {head + "  z1(1) : ORIGINAL, size:(s0\n", 6, "unbalanced"},
      {head + "  z1(1) : ORIGINAL, size:s0 +\n", 6, "bad expression"},
      {head + "Nodes:\n  [0] x : Data\n    .axis = {z9}\n", 8, "unknown axis 'z9'"},
      {head + "Nodes:\n  [1] x : Data\n", 7, "out of sequence"},
      {head + "Nodes:\n  [0] x : Abs(nope.y0)\n", 7, "reads unknown node 'nope'"},
      {head + "Nodes:\n  [0] x : Data\n    .y0 : fp99 axis={} repeats=() strides=()\n", 8,
       "unknown dtype"},
      {head + "Nodes:\n  [0] x : Data\n    .color = red\n", 8, "unknown node property"},
      {head + "Nodes:\n  [0] \"x : Data\n", 7, "unterminated string"},
      {head + "Nodes:\n  [0] x : Data\n    .attr.k = 99999999999999999999\n", 8, "out of range"},
      {head + "Bogus:\n", 6, "expected 'Graph:'"},
  };
  for (const auto& c : cases) {
    try {
      ParseText(c.text, "t.graph");
      ADD_FAILURE() << "no error for: " << c.text;
    } catch (const InputError& e) {
      EXPECT_EQ(e.loc().file, "t.graph");
      EXPECT_EQ(e.loc().line, c.line) << e.what();
      EXPECT_THAT(e.what(), HasSubstr(c.cause)) << c.text;
    }
  }
}

}  // namespace
}  // namespace af::ir
