// AscGraphDef text and GE graphs: our fixtures, the real dumps, round trips, schema drift and
// damaged copies.
#include "autofuse/ir/proto_io.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "autofuse/ir/load.h"
#include "autofuse/ir/text.h"
#include "autofuse/ir/validate.h"
#include "autofuse/support/error.h"
#include "fixtures.h"

namespace af::ir {
namespace {

using ::testing::HasSubstr;

std::string Ours(const std::string& name) {
  return (af::test::OurFixtures() / "ascgraph" / name).string();
}

void ExpectRoundTrip(const Graph& g) {
  const std::string text = WriteAscGraphText(g);
  const LoadedGraph back = ParseAscGraphText(text, "roundtrip");
  EXPECT_EQ(back.schema, AscSchema::kCurrent);
  EXPECT_EQ(back.graph, g) << DumpText(g) << "\n---\n" << DumpText(back.graph);
}

TEST(ProtoIo, DataMovementFixturesRoundTrip) {
  // Multi-output Split, dynamic-input Concat, Gather's int and bool attributes, Pad/RemovePad.
  for (const auto& p : af::test::FilesUnder(af::test::OurFixtures() / "ir", {".graph.txt"})) {
    SCOPED_TRACE(p.string());
    ExpectRoundTrip(ParseText(af::test::ReadFile(p), p.string()));
  }
}

TEST(ProtoIo, LoadsOurAscGraphDef) {
  const LoadedFile f = LoadGraphFile(Ours("add_bcast.AscGraphDef.txt"));
  EXPECT_EQ(f.format, FileFormat::kAscGraphDef);
  ASSERT_EQ(f.graphs.size(), 1u);
  const Graph& g = f.graphs[0].graph;
  EXPECT_EQ(g.name, "add_bcast_relu");
  EXPECT_EQ(g.size_vars.size(), 2u);
  EXPECT_EQ(g.nodes.size(), 9u);
  EXPECT_EQ(g.nodes[0].outputs[0].dtype, DType::kFloat16);
  EXPECT_EQ(g.nodes[1].outputs[0].strides[0], Expr(0));
  EXPECT_EQ(g.nodes[5].inputs[1].node, 4);
  EXPECT_EQ(std::get<Expr>(*g.nodes[2].FindAttr("offset")), Expr(0));
  const auto d = Validate(g);
  EXPECT_FALSE(HasErrors(d)) << FormatDiagnostics(d);
  ExpectRoundTrip(g);
}

TEST(ProtoIo, LegacyIntegerAlignIsReadDeliberately) {
  const LoadedFile f = LoadGraphFile(Ours("legacy_align.AscGraphDef.txt"));
  ASSERT_EQ(f.graphs.size(), 1u);
  EXPECT_EQ(f.graphs[0].schema, AscSchema::kLegacyIntAlign);
  EXPECT_EQ(f.graphs[0].graph.axes[1].size, Expr(33));
  EXPECT_EQ(f.graphs[0].graph.axes[1].align, Expr(1));
  EXPECT_EQ(f.graphs[0].graph.tiling_key, 7);
  ExpectRoundTrip(f.graphs[0].graph);
}

TEST(ProtoIo, GeGraphWithEmbeddedAscGraph) {
  const LoadedFile f = LoadGraphFile(Ours("embedded.GraphDef.txt"));
  EXPECT_EQ(f.format, FileFormat::kGeGraphDef);
  ASSERT_EQ(f.ge_graphs.size(), 1u);
  EXPECT_EQ(f.ge_graphs[0].ops.size(), 3u);
  EXPECT_EQ(f.ge_graphs[0].ops[2].inputs[1], "arg0:-1");
  ASSERT_EQ(f.graphs.size(), 1u);
  EXPECT_EQ(f.graphs[0].graph.name, "legacy_exp");
  EXPECT_THAT(f.graphs[0].origin, HasSubstr("op 'autofused_exp_0'"));
}

TEST(ProtoIo, ReadableTextIsRecognised) {
  const LoadedFile f = LoadGraphFile(Ours("exp_sub.graph.txt"));
  EXPECT_EQ(f.format, FileFormat::kReadableText);
  ASSERT_EQ(f.graphs.size(), 1u);
  ExpectRoundTrip(f.graphs[0].graph);
}

TEST(ProtoIo, ErrorsCarryFileLineAndColumn) {
  const std::string text = "asc_graph_attr {\n  tiling_key: -1\n  axis { name: \"z0\" size: }\n}\n";
  try {
    ParseAscGraphText(text, "bad.txt");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, "bad.txt");
    EXPECT_EQ(e.loc().line, 3);
    EXPECT_GT(e.loc().col, 1);
  }
  try {
    ParseAscGraphText(
        "asc_node { input_src { src_node_name: \"ghost\" } attr { name: \"n\" "
        "type: \"Abs\" } }",
        "ghost.txt");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("reads unknown node 'ghost'"));
  }
  EXPECT_THROW(LoadGraphText("hello world", "junk.txt"), InputError);
  EXPECT_THROW(LoadGraphText(std::string("asc_node {\0}", 12), "nul.txt"), InputError);
}

// ---------------------------------------------------------------- the real dumps

TEST(RealFixtures, EveryAutoFuseFixtureLoadsAndRoundTrips) {
  AF_REQUIRE_REAL_FIXTURES();
  const auto files = af::test::FilesUnder(af::test::RealFixtures() / "autofuse", {".txt"});
  int graphs = 0;
  for (const auto& p : files) {
    if (p.filename() == "SOURCE.txt") continue;
    SCOPED_TRACE(p.string());
    const LoadedFile f = LoadGraphFile(p.string());
    ASSERT_FALSE(f.graphs.empty());
    for (const auto& lg : f.graphs) {
      const auto d = Validate(lg.graph);
      EXPECT_FALSE(HasErrors(d)) << FormatDiagnostics(d);
      ExpectRoundTrip(lg.graph);
      EXPECT_EQ(ParseText(DumpText(lg.graph)), lg.graph);
      ++graphs;
    }
  }
  EXPECT_EQ(graphs, 2);
}

TEST(RealFixtures, EmbeddedGraphUsesTheLegacyAlign) {
  AF_REQUIRE_REAL_FIXTURES();
  const LoadedFile f = LoadGraphFile(
      (af::test::RealFixtures() / "autofuse" / "test_seri_compute_graph.GraphDef.txt").string());
  ASSERT_EQ(f.graphs.size(), 1u);
  const Graph& g = f.graphs[0].graph;
  EXPECT_EQ(f.graphs[0].schema, AscSchema::kLegacyIntAlign);
  EXPECT_EQ(g.name, "Abs_5_out0_graph");
  EXPECT_EQ(g.axes.size(), 3u);
  EXPECT_EQ(g.nodes.size(), 10u);
  EXPECT_EQ(g.nodes[2].type, "Abs");
  EXPECT_EQ(g.nodes[0].outputs[0].strides[0], Expr(10250));
}

TEST(RealFixtures, GeDumpsParse) {
  AF_REQUIRE_REAL_FIXTURES();
  const auto files = af::test::FilesUnder(af::test::RealFixtures() / "ge_dump", {".txt"});
  int parsed = 0;
  for (const auto& p : files) {
    if (p.filename() == "SOURCE.txt") continue;
    SCOPED_TRACE(p.string());
    const LoadedFile f = LoadGraphFile(p.string());
    EXPECT_EQ(f.format, FileFormat::kGeModelDef);
    EXPECT_FALSE(f.ge_graphs.empty());
    ++parsed;
  }
  EXPECT_EQ(parsed, 3);
}

// ---------------------------------------------------------------- damaged copies

// Truncations and byte flips of every graph file never crash: each either loads or raises an
// InputError whose message names the file.
TEST(Damaged, TruncatedAndFlippedCopiesNeverCrash) {
  std::vector<std::filesystem::path> files =
      af::test::FilesUnder(af::test::OurFixtures() / "ascgraph", {".txt"});
  if (af::test::HaveRealFixtures()) {
    for (const auto& p : af::test::FilesUnder(af::test::RealFixtures() / "autofuse", {".txt"})) {
      if (p.filename() != "SOURCE.txt") files.push_back(p);
    }
  }
  ASSERT_GE(files.size(), 4u);
  std::mt19937 rng(1234);
  int errors = 0;
  int loaded = 0;
  for (const auto& p : files) {
    const std::string text = af::test::ReadFile(p);
    std::vector<std::string> variants;
    for (int k = 1; k <= 40; ++k)
      variants.push_back(text.substr(0, text.size() * k / 41));
    for (int k = 0; k < 200; ++k) {
      std::string v = text;
      const int flips = 1 + static_cast<int>(rng() % 3);
      for (int f = 0; f < flips; ++f)
        v[rng() % v.size()] = static_cast<char>(rng() % 256);
      variants.push_back(v);
    }
    for (const auto& v : variants) {
      try {
        const LoadedFile f = LoadGraphText(v, "damaged.txt");
        for (const auto& g : f.graphs)
          (void)Validate(g.graph);
        ++loaded;
      } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("damaged.txt"));
        ++errors;
      }
    }
  }
  EXPECT_GT(errors, 100);
  RecordProperty("loaded", loaded);
  RecordProperty("errors", errors);
}

}  // namespace
}  // namespace af::ir
