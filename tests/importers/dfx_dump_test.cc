// AutoFuse DFX dumps: the ascgraph text reader (VIEW 2 of the three-view form, the legacy
// DebugStr form), folder discovery (graphs × stages by sequence number, ge_onnx pairing,
// subgraphs, py_code), and damaged texts refused with "file:line: expected …, found …".
#include "autofuse/importers/dfx_dump.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "autofuse/importers/asc_graph_py.h"
#include "autofuse/ir/text.h"
#include "autofuse/ir/validate.h"
#include "autofuse/support/error.h"
#include "fixtures.h"

namespace af::importers::dfx {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;

fs::path Root() {
  return af::test::OurFixtures() / "dfx";
}
fs::path Pid() {
  return Root() / "autofuse_compile_debug" / "ascgen_dump_pid_4242";
}
fs::path AbsFile(const std::string& stage) {
  return Pid() / "LoadAbsStore" / ("ascgraph_" + stage + ".txt");
}

const ir::Node& NodeNamed(const ir::Graph& g, const std::string& name) {
  const int i = g.FindNode(name);
  EXPECT_GE(i, 0) << name;
  return g.nodes.at(static_cast<std::size_t>(i));
}

// The message of the InputError that parsing `text` throws ("" when it parses).
std::string ErrorOf(const std::string& text) {
  try {
    (void)ParseAscGraphText(text, "bad.txt");
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

std::string Fixture() {
  return af::test::ReadFile(AbsFile("00002_LoadAbsStore_BeforeAutoSchedule_0"));
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

TEST(DfxAscGraphText, HintStageOfLoadAbsStore) {
  const auto t = LoadAscGraphTextFile(AbsFile("00002_LoadAbsStore_BeforeAutoSchedule_0"));
  EXPECT_TRUE(t.three_views);
  EXPECT_EQ(t.name, "LoadAbsStore");
  const ir::Graph& g = t.graph;
  EXPECT_EQ(g.type, ir::GraphType::kHint);
  ASSERT_EQ(g.size_vars.size(), 2u);
  EXPECT_EQ(g.size_vars[1].name, "s1");
  ASSERT_EQ(g.axes.size(), 2u);
  EXPECT_EQ(g.axes[1].name, "z1");
  EXPECT_EQ(g.axes[1].size.ToString(), "s1");
  ASSERT_EQ(g.nodes.size(), 5u);
  EXPECT_EQ(g.nodes[0].type, "Data");
  EXPECT_EQ(g.nodes[0].IntAttr("index"), 0);
  const ir::Node& load = NodeNamed(g, "load");
  ASSERT_EQ(load.inputs.size(), 1u);
  EXPECT_EQ(load.inputs[0].node, 0);
  EXPECT_EQ(load.sched.axis, (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(load.sched.loop_axis, 1);
  ASSERT_NE(load.FindAttr("offset"), nullptr);
  EXPECT_TRUE(std::holds_alternative<sym::Expr>(*load.FindAttr("offset")));
  ASSERT_EQ(load.outputs.size(), 1u);
  EXPECT_EQ(load.outputs[0].dtype, ir::DType::kFloat32);
  EXPECT_EQ(load.outputs[0].strides[0].ToString(), "s1");
  EXPECT_EQ(t.skipped_lines, 0);
  // The node header lines are where a reader of the file finds them.
  ASSERT_EQ(t.node_lines.size(), 5u);
  EXPECT_THAT(t.NodeLoc(1), HasSubstr(".txt:"));
  EXPECT_FALSE(ir::HasErrors(ir::Validate(g))) << ir::FormatDiagnostics(ir::Validate(g));
}

TEST(DfxAscGraphText, ImplStageWithMemoryAndTmpBuffers) {
  const auto t =
      LoadAscGraphTextFile(AbsFile("00003_LoadAbsStore_0_general_0_nil_0_nil_0_AfterDoTiling_0"));
  const ir::Graph& g = t.graph;
  EXPECT_EQ(g.type, ir::GraphType::kImpl);
  ASSERT_EQ(g.axes.size(), 6u);
  EXPECT_EQ(g.axes[2].type, ir::AxisType::kTileOuter);
  EXPECT_EQ(g.axes[2].from, (std::vector<std::int64_t>{1}));
  const ir::Node& load = NodeNamed(g, "load");
  const ir::Tensor& y = load.outputs.at(0);
  EXPECT_EQ(y.axis.size(), 4u);
  EXPECT_EQ(y.vectorized_axis, (std::vector<std::int64_t>{3}));
  EXPECT_EQ(y.mem.alloc_type, ir::AllocType::kQueue);
  EXPECT_EQ(y.mem.position, ir::Position::kVecIn);
  EXPECT_EQ(y.mem.hardware, ir::Hardware::kUB);
  EXPECT_EQ(y.que.id, 0);
  EXPECT_EQ(y.que.buf_num, 2);
  const ir::Node& abs = NodeNamed(g, "abs");
  ASSERT_EQ(abs.tmp_buffers.size(), 1u);
  EXPECT_EQ(abs.tmp_buffers[0].size.ToString(), "8192");
  EXPECT_EQ(NodeNamed(g, "store").outputs.at(0).mem.tensor_id, 2);
  EXPECT_EQ(t.skipped_lines, 0);  // VIEW 3 is not read as part of VIEW 2
}

TEST(DfxAscGraphText, ReduceWithCastsAndTwoInputs) {
  const auto t =
      LoadAscGraphTextFile(Pid() / "AddReduce" / "ascgraph_00003_AddReduce_AfterMergeAxis_1.txt");
  const ir::Graph& g = t.graph;
  const ir::Node& add = NodeNamed(g, "add");
  ASSERT_EQ(add.inputs.size(), 2u);
  EXPECT_EQ(g.nodes[static_cast<std::size_t>(add.inputs[1].node)].name, "cast_b");
  EXPECT_EQ(NodeNamed(g, "sum").outputs.at(0).strides[1].ToString(), "0");
  EXPECT_EQ(NodeNamed(g, "a").outputs.at(0).dtype, ir::DType::kFloat16);
  EXPECT_EQ(NodeNamed(g, "b").IntAttr("index"), 1);
  EXPECT_FALSE(ir::HasErrors(ir::Validate(g))) << ir::FormatDiagnostics(ir::Validate(g));
}

TEST(DfxAscGraphText, LegacyDebugStrForm) {
  const std::string text =
      "Graph: legacy\n"
      "Sizes:\n"
      "  s0: VAR\n"
      "  c0: CONST(16)\n"
      "Axis:\n"
      "  z0(0) : ORIGINAL, size:s0, \n"
      "  z1(1) : ORIGINAL, size:16, \n"
      "  z1T(2) : TILE_OUT, size:Ceiling((16 / (z1t_size))), , from: {z1, }\n"
      "Nodes:\n"
      "  x: Data (0)\n"
      "    .ir_attr =  {.index = i: 0}\n"
      "    .y: DT_FLOAT\n"
      "        .axis = {z0, z1}\n"
      "        .repeats = (s0, 16)\n"
      "        .strides = (16, 1)\n"
      "  load: Load (1)\n"
      "    .ir_attr =  {.offset = expression: \"0\".scale = f: 0.5}\n"
      "    .axis = {z0, z1, }\n"
      "    .loop_axis = 1\n"
      "    .api.unit = MTE2\n"
      "    .x = x.y\n"
      "    .y: DT_FLOAT\n"
      "        .axis = {z0, z1}\n"
      "        .repeats = (s0, 16)\n"
      "        .strides = (16, 1)\n"
      "        .vectorized_strides = {z1:1}\n"
      "        .mem = UB[tensor_id=0, que_id=1, depth=2, pos=VECIN]\n";
  // Recognised by its file name only: by content it is too close to our readable text.
  EXPECT_FALSE(LooksLikeAscGraphText(text));
  const auto t = ParseAscGraphText(text, "legacy.txt");
  EXPECT_FALSE(t.three_views);
  const ir::Graph& g = t.graph;
  ASSERT_EQ(g.size_vars.size(), 2u);
  EXPECT_EQ(g.size_vars[1].const_value, 16);
  EXPECT_EQ(g.axes[2].from, (std::vector<std::int64_t>{1}));
  const ir::Node& load = NodeNamed(g, "load");
  EXPECT_EQ(load.sched.axis.size(), 2u);
  EXPECT_EQ(load.sched.loop_axis, 1);
  EXPECT_TRUE(std::holds_alternative<double>(*load.FindAttr("scale")));
  EXPECT_EQ(load.outputs.at(0).que.id, 1);
  EXPECT_EQ(t.skipped_lines, 1);  // .api.unit
  EXPECT_EQ(NodeNamed(g, "x").IntAttr("index"), 0);
}

// Every non-subgraph stage converts to our readable text and parses back to the same graph.
TEST(DfxAscGraphText, EveryStageRoundTripsThroughOurTextForm) {
  int n = 0;
  for (const auto& g : DiscoverDfxDump(Root()).graphs) {
    for (const auto& st : g.stages) {
      if (st.subgraph) continue;
      const ir::Graph graph = LoadAscGraphTextFile(st.ascgraph).graph;
      EXPECT_EQ(ir::ParseText(ir::DumpText(graph)), graph) << st.ascgraph;
      ++n;
    }
  }
  EXPECT_EQ(n, 7);
}

// Output slots are bounded: 400 nodes declaring `.y[1023]` would be 409 600 tensors.
TEST(DfxAscGraphText, OutputCountIsBounded) {
  std::string text = "Graph: big\nSizes:\nAxis:\nNodes:\n";
  for (int i = 0; i < 400; ++i)
    text += "  [" + std::to_string(i) + "] n" + std::to_string(i) +
            " : ascir.ops.Data\n    .y[1023]: f32\n";
  EXPECT_THAT(ErrorOf(text), HasSubstr("expected at most 400000 outputs in a graph, found more"));
}

TEST(DfxAscGraphText, OurReadableTextIsNotAnAutoFuseDump) {
  EXPECT_FALSE(LooksLikeAscGraphText(
      af::test::ReadFile(af::test::OurFixtures() / "ascgraph" / "exp_sub.graph.txt")));
}

TEST(DfxDiscovery, GraphsTimesStagesBySequence) {
  const DfxDump d = DiscoverDfxDump(Root());
  EXPECT_EQ(d.folders, 2u);
  ASSERT_EQ(d.graphs.size(), 4u);
  const DfxGraph& ar = d.graphs[0];
  EXPECT_EQ(ar.name, "AddReduce");
  EXPECT_EQ(ar.folder, "autofuse_compile_debug/ascgen_dump_pid_4242/AddReduce");
  ASSERT_EQ(ar.stages.size(), 3u);
  EXPECT_EQ(ar.stages[0].stage, "AfterDeserialize");
  EXPECT_EQ(ar.stages[1].stage, "AfterPreProcess");
  EXPECT_EQ(ar.stages[2].seq, 3u);
  EXPECT_EQ(ar.stages[2].graph_id, "1");
  EXPECT_FALSE(ar.stages[1].ge_onnx.empty());
  const DfxGraph& sub = d.graphs[1];
  EXPECT_EQ(sub.name, "AddReduce_sub_0");
  ASSERT_EQ(sub.stages.size(), 1u);
  EXPECT_TRUE(sub.stages[0].subgraph);
  EXPECT_TRUE(sub.stages[0].ge_onnx.empty());
  const DfxGraph& las = d.graphs[2];
  EXPECT_EQ(las.name, "LoadAbsStore");
  ASSERT_EQ(las.stages.size(), 3u);
  EXPECT_EQ(las.stages[2].stage, "BeforeAutoSchedule");
  const DfxGraph& impl = d.graphs[3];
  EXPECT_EQ(impl.name, "LoadAbsStore_0_general_0_nil_0_nil");
  EXPECT_EQ(impl.stages.at(0).stage, "0_AfterDoTiling");
  ASSERT_EQ(d.py_code.size(), 1u);
  EXPECT_TRUE(d.ge_onnx_unpaired.empty());
  // Every level of the tree finds the same files.
  for (const fs::path& p : {Root() / "autofuse_compile_debug", Pid(), Pid() / "LoadAbsStore"}) {
    EXPECT_TRUE(IsDfxDumpInput(p.string())) << p;
    std::size_t stages = 0;
    for (const auto& g : DiscoverDfxDump(p).graphs)
      stages += g.stages.size();
    EXPECT_EQ(stages, p == Pid() / "LoadAbsStore" ? 4u : 8u) << p;
  }
  EXPECT_FALSE(IsDfxDumpInput((af::test::OurFixtures() / "ascgraph").string()));
  EXPECT_FALSE(
      IsDfxDumpInput((af::test::OurFixtures() / "ascgraph" / "exp_sub.graph.txt").string()));
}

TEST(DfxDiscovery, HintStageIsTheLastHintGraph) {
  const DfxDump d = DiscoverDfxDump(Root());
  const HintPick ar = PickHintStage(d.graphs[0]);
  ASSERT_TRUE(ar.text);
  EXPECT_EQ(ar.stage->stage, "AfterMergeAxis");
  const HintPick sub = PickHintStage(d.graphs[1]);
  EXPECT_FALSE(sub.text);
  EXPECT_THAT(sub.reason, HasSubstr("subgraph"));
  const HintPick impl = PickHintStage(d.graphs[3]);
  EXPECT_FALSE(impl.text);
  EXPECT_THAT(impl.reason, HasSubstr("impl graph"));
}

TEST(DfxDiscovery, FileNames) {
  const auto n = ParseDumpFileName("ascgraph_00012_g_x_AfterDoTiling_3.txt", "ascgraph_", ".txt");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->seq, 12u);
  EXPECT_EQ(n->rest, "g_x_AfterDoTiling_3");
  EXPECT_FALSE(ParseDumpFileName("ascgraph_x_g.txt", "ascgraph_", ".txt"));
  EXPECT_FALSE(ParseDumpFileName("ascgraph_0001.txt", "ascgraph_", ".txt"));
  EXPECT_TRUE(ParseDumpFileName("ge_onnx_00001_g_AfterPreProcess.pbtxt", "ge_onnx_", ".pbtxt"));
}

// The pyautofuse script of the dump reads with the asc_graph.py reader (nodes with inputs are
// created without the graph argument) and gives the same graph as the hint stage.
TEST(DfxDiscovery, PyCodeReadsAsTheSameHintGraph) {
  const auto py = inductor::LoadAscGraphPyFile(Pid() / "LoadAbsStore" / "py_code_LoadAbsStore.py");
  ASSERT_EQ(py.graphs.size(), 1u);
  const auto hint = inductor::ToHintGraph(py.graphs[0]);
  ASSERT_TRUE(hint.graph) << hint.reason;
  const auto text = LoadAscGraphTextFile(AbsFile("00000_LoadAbsStore_AfterDeserialize_0"));
  ASSERT_EQ(hint.graph->nodes.size(), text.graph.nodes.size());
  for (std::size_t i = 0; i < text.graph.nodes.size(); ++i) {
    EXPECT_EQ(hint.graph->nodes[i].type, text.graph.nodes[i].type);
    EXPECT_EQ(hint.graph->nodes[i].inputs, text.graph.nodes[i].inputs);
    EXPECT_EQ(hint.graph->nodes[i].outputs.at(0).strides,
              text.graph.nodes[i].outputs.at(0).strides);
  }
}

struct Damaged {
  const char* what;
  std::function<std::string(const std::string&)> edit;
  const char* message;  // regex the error must match
};

TEST(DfxDamage, EachDamageNamesFileLineAndWhatWasExpected) {
  const std::string ok = Fixture();
  ASSERT_EQ(ErrorOf(ok), "");
  const std::vector<Damaged> cases = {
      {"truncated before Nodes", [](const std::string& s) { return s.substr(0, s.find("Nodes:")); },
       "bad\\.txt:[0-9]+: expected `Nodes:`, found .*"},
      {"truncated inside a view list",
       [](const std::string& s) { return s.substr(0, s.find("(s1, 1)", s.find("[2] abs")) + 3); },
       "bad\\.txt:[0-9]+: expected \\.strides as \\(e1, e2, …\\), found `\\(s1`"},
      {"bad axis reference",
       [](const std::string& s) {
         return Replace(s, "    .axis = {z0, z1}\n    .loop_axis = z1\n    .x = {load.y}",
                        "    .axis = {z0, zq}\n    .loop_axis = z1\n    .x = {load.y}");
       },
       "bad\\.txt:[0-9]+: expected an axis declared under Axis: in \\.axis of node abs, found "
       "`zq`"},
      {"bad from reference",
       [](const std::string& s) {
         return Replace(s, "z1(1) : ORIGINAL, size:s1", "z1(1) : TILE_IN, size:s1, from: {q}");
       },
       "bad\\.txt:[0-9]+: expected an axis declared under Axis: in from: of axis z1, found `q`"},
      {"unknown node reference",
       [](const std::string& s) { return Replace(s, ".x = {load.y}", ".x = {lod.y}"); },
       "bad\\.txt:[0-9]+: expected a node of the graph in \\.x, found `lod\\.y`"},
      {"input that is not an output",
       [](const std::string& s) { return Replace(s, ".x = {load.y}", ".x = {load}"); },
       "bad\\.txt:[0-9]+: expected an input `<node>\\.y` or `<node>\\.y\\[<i>\\]`, found `load`"},
      {"bad expression", [](const std::string& s) { return Replace(s, "size:s1", "size:s1 +* 2"); },
       "bad\\.txt:[0-9]+: expected the size of axis z1 \\(an expression\\), found `s1 \\+\\* 2`.*"},
      {"bad dtype", [](const std::string& s) { return Replace(s, ".y: f32", ".y: f33"); },
       "bad\\.txt:[0-9]+: expected a dtype \\(f32, f16, bf16, i32 …\\), found `f33`"},
      {"repeats and axes differ",
       [](const std::string& s) { return Replace(s, ".repeats = (s0, s1)", ".repeats = (s0)"); },
       "bad\\.txt:[0-9]+: expected as many repeats and strides as axes for output 0 of node x, "
       "found 2 axes, 1 repeats, 2 strides"},
      {"duplicate node", [](const std::string& s) { return Replace(s, "[2] abs :", "[2] load :"); },
       "bad\\.txt:[0-9]+: expected each node name once, found `load` again"},
      {"bad node header",
       [](const std::string& s) {
         return Replace(s, "[2] abs : ascir.ops.Abs", "[2 abs : ascir.ops.Abs");
       },
       "bad\\.txt:[0-9]+: expected a node header .*"},
      {"no VIEW 2",
       [](const std::string& s) {
         return Replace(s, "VIEW 2: Graph Structure", "VIEW 9: Graph Structure");
       },
       "bad\\.txt:[0-9]+: expected `VIEW 2: Graph Structure`, found end of file"},
      {"garbage", [](const std::string&) { return std::string("\x01\x02garbage\xff\n{{{\n"); },
       "bad\\.txt:[0-9]+: expected `Graph: <name>`, found .*"},
      {"empty", [](const std::string&) { return std::string(); },
       "bad\\.txt:[0-9]+: expected `Graph: <name>`, found an empty file"},
  };
  for (const auto& c : cases) {
    const std::string msg = ErrorOf(c.edit(ok));
    EXPECT_THAT(msg, MatchesRegex(c.message)) << c.what;
  }
}

// Random truncations and byte flips of every fixture text: parsed or refused with InputError,
// never another exception, crash or hang.
TEST(DfxDamage, RandomDamageOfEveryFixture) {
  int copies = 0;
  int refused = 0;
  std::mt19937 rng(8);
  for (const auto& f : af::test::FilesUnder(Root(), {".txt"})) {
    const std::string text = af::test::ReadFile(f);
    for (int k = 0; k < 150; ++k) {
      std::string d = text;
      if (k < 50) {
        d.resize(std::uniform_int_distribution<std::size_t>(0, text.size())(rng));
      } else {
        const int n = std::uniform_int_distribution<int>(1, 6)(rng);
        for (int i = 0; i < n; ++i)
          d[std::uniform_int_distribution<std::size_t>(0, d.size() - 1)(rng)] =
              static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
      }
      ++copies;
      try {
        const auto t = ParseAscGraphText(d, f.string());
        (void)ir::Validate(t.graph);
      } catch (const InputError& e) {
        ++refused;
        EXPECT_THAT(std::string(e.what()), HasSubstr(f.string() + ":")) << e.what();
      }
    }
  }
  EXPECT_GT(copies, 1000);
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace af::importers::dfx
