// afc as a user runs it: exit codes, messages, JSON, and damaged inputs (never a crash).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "afc_process.h"
#include "fixtures.h"

namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

using Result = af::test::AfcResult;
using af::test::Afc;
using af::test::Shell;

std::string Ours(const std::string& name) {
  return (af::test::OurFixtures() / "ascgraph" / name).string();
}

TEST(Afc, Version) {
  const Result r = Afc("--version");
  EXPECT_EQ(r.code, 0);
  EXPECT_THAT(r.out, HasSubstr("afc 0."));
}

TEST(Afc, UsageErrorsExitTwo) {
  EXPECT_EQ(Afc("").code, 2);
  EXPECT_EQ(Afc("frobnicate").code, 2);
  EXPECT_EQ(Afc("inspect").code, 2);
}

TEST(Afc, InspectOurFixtures) {
  for (const char* f : {"add_bcast.AscGraphDef.txt", "legacy_align.AscGraphDef.txt",
                        "embedded.GraphDef.txt", "exp_sub.graph.txt"}) {
    const Result r = Afc("inspect " + Shell(Ours(f)));
    EXPECT_EQ(r.code, 0) << f << r.err;
    EXPECT_THAT(r.out, HasSubstr("graph ")) << f;
  }
  const Result r = Afc("inspect --json " + Shell(Ours("add_bcast.AscGraphDef.txt")));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["graphs"].size(), 1u);
  const auto& g = j["graphs"][0];
  EXPECT_EQ(g["name"], "add_bcast_relu");
  EXPECT_EQ(g["symbols"].size(), 2u);
  EXPECT_EQ(g["compute_types"]["elewise"], 2);
  EXPECT_EQ(g["compute_types"]["broadcast"], 1);
  EXPECT_EQ(g["compute_types"]["load"], 2);
  EXPECT_EQ(g["compute_types"]["buffer"], 3);
}

TEST(Afc, InspectFxGraphs) {
  const auto dir = af::test::OurFixtures() / "fx";
  int n = 0;
  for (const auto& p : af::test::FilesUnder(dir, {".py"})) {
    const Result r = Afc("inspect --json " + Shell(p.string()));
    EXPECT_EQ(r.code, 0) << p << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["format"], "aten FX graph") << p;
    EXPECT_GT(j["ops"].get<int>(), 0) << p;
    ++n;
  }
  EXPECT_GE(n, 5);
  const auto bad = af::test::TempDir("fxbad") / "fx_graph_readable.py";
  std::ofstream(bad) << "class <lambda>(torch.nn.Module):\n    def forward(self, arg0_1: \"f32[4\n";
  const Result r = Afc("inspect " + Shell(bad.string()));
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr(bad.string() + ":"));
}

TEST(Afc, MissingFileAndDirectory) {
  Result r = Afc("inspect /nonexistent/graph.txt");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("/nonexistent/graph.txt: cannot open"));
  // A folder is read as a torch_compile_debug dump (issue 8); one without dump files is refused.
  r = Afc("inspect " + Shell(af::test::TempDir("no_dumps").string()));
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("is a directory"));
}

TEST(Afc, InvalidGraphNamesFileLineAndNode) {
  const auto dir = af::test::TempDir("invalid");
  std::string text = af::test::ReadFile(Ours("add_bcast.AscGraphDef.txt"));
  const auto at = text.find("type: \"Relu\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 12, "type: \"Blur\"");
  const auto path = (dir / "bad.txt").string();
  std::ofstream(path) << text;
  const Result r = Afc("inspect " + Shell(path));
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr(path + ":47: invalid graph 'add_bcast_relu': node 'relu' (Blur): "
                                      "unknown op type 'Blur'"));
}

TEST(Afc, ConvertNeverOverwritesWithoutForce) {
  const auto dir = af::test::TempDir("convert");
  const auto target = (dir / "keep.txt").string();
  std::ofstream(target) << "precious";
  Result r =
      Afc("convert " + Shell(Ours("add_bcast.AscGraphDef.txt")) + " --to text -o " + Shell(target));
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("not overwriting"));
  EXPECT_EQ(af::test::ReadFile(target), "precious");
  r = Afc("convert " + Shell(Ours("add_bcast.AscGraphDef.txt")) + " --to text -o " + Shell(target) +
          " --force");
  EXPECT_EQ(r.code, 0) << r.err;
  const auto pb = (dir / "back.txt").string();
  r = Afc("convert " + Shell(target) + " --to ascgraph -o " + Shell(pb));
  EXPECT_EQ(r.code, 0) << r.err;
  r = Afc("convert " + Shell(pb) + " --to text");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, af::test::ReadFile(target));
}

TEST(RealFixtures, AfcInspectsEveryAutoFuseFixture) {
  AF_REQUIRE_REAL_FIXTURES();
  int n = 0;
  for (const auto& p : af::test::FilesUnder(af::test::RealFixtures() / "autofuse", {".txt"})) {
    if (p.filename() == "SOURCE.txt") continue;
    const Result r = Afc("inspect --json " + Shell(p.string()));
    EXPECT_EQ(r.code, 0) << p << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["graphs"].size(), 1u) << p;
    ++n;
  }
  EXPECT_EQ(n, 2);
  const Result r =
      Afc("inspect --json " +
          Shell((af::test::RealFixtures() / "autofuse" / "test_seri_compute_graph.GraphDef.txt")
                    .string()));
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["graphs"][0]["name"], "Abs_5_out0_graph");
  EXPECT_EQ(j["graphs"][0]["schema"], "legacy-int-align");
  EXPECT_EQ(j["graphs"][0]["compute_types"]["elewise"], 6);
  EXPECT_EQ(j["ge_graphs"][0]["ops"], 3);
}

// Truncated and byte-flipped copies of every AscGraph fixture: afc exits 0 (the damage left a
// valid file) or 2 with "afc: <file>..." on stderr — never a signal, never another code.
TEST(Damaged, AfcNeverCrashes) {
  std::vector<std::filesystem::path> files =
      af::test::FilesUnder(af::test::OurFixtures() / "ascgraph", {".txt"});
  if (af::test::HaveRealFixtures()) {
    for (const auto& p : af::test::FilesUnder(af::test::RealFixtures() / "autofuse", {".txt"})) {
      if (p.filename() != "SOURCE.txt") files.push_back(p);
    }
  }
  const auto dir = af::test::TempDir("damaged");
  std::mt19937 rng(99);
  int twos = 0;
  for (const auto& p : files) {
    const std::string text = af::test::ReadFile(p);
    for (int k = 0; k < 24; ++k) {
      std::string v = k < 12 ? text.substr(0, text.size() * (k + 1) / 13) : text;
      if (k >= 12) {
        for (int f = 0; f < 1 + k % 3; ++f)
          v[rng() % v.size()] = static_cast<char>(rng() % 256);
      }
      const auto path = (dir / (p.stem().string() + "_" + std::to_string(k) + ".txt")).string();
      std::ofstream(path, std::ios::binary) << v;
      const Result r = Afc("inspect " + Shell(path));
      EXPECT_EQ(r.signal, 0) << path;
      EXPECT_TRUE(r.code == 0 || r.code == 2) << path << " exit " << r.code;
      if (r.code == 2) {
        ++twos;
        EXPECT_THAT(r.err, HasSubstr("afc: " + path)) << r.err;
      }
    }
  }
  EXPECT_GT(twos, 20);
}

// ---- afc diff: two CompileReports kernel by kernel, and the front end's decisions.

std::string Sample() {
  return (af::test::SourceDir() / "samples" / "hint_graphs" / "add_bcast_relu.AscGraphDef.txt")
      .string();
}

// A small hand-written CompileReport with one kernel and one fusion decision.
std::string TinyReport(const std::string& chosen, bool fused) {
  nlohmann::json k = {
      {"name", "autofused_add_1"},
      {"hint_graph", {{"graph_name", "g"}}},
      {"cases",
       {{{"name", "g_B0Y0"}, {"template_name", "elementwise"}, {"mte2_cycles", 10.0}},
        {{"name", "g_B0Y1"}, {"template_name", "elementwise"}, {"mte2_cycles", 20.0}}}},
      {"tiling",
       {{"chosen_case", chosen == "B0Y0" ? 0 : 1},
        {"block_dim", 8},
        {"ub_bytes", 1024},
        {"modeled_cycles", 100.0}}}};
  nlohmann::json d = {{"round", 1},        {"kind", "vertical"},
                      {"first", {"add"}},  {"second", {"relu"}},
                      {"accepted", fused}, {"code", fused ? "FUSED" : "SIZE_LIMIT"},
                      {"stage", "decider"}};
  const nlohmann::json r = {
      {"tool_version", "0.1"}, {"input", "x.py"}, {"kernels", {k}}, {"fusion_decisions", {d}}};
  return r.dump(2);
}

// A cube + vector kernel (multi-group): its groups' choices joined, kFixpip forced to kCommon
// shows as a changed case and makes the epilogue run.
TEST(AfcDiff, CubeVectorKernelGroups) {
  const auto dir = af::test::TempDir("diff_cv");
  const std::string a = (dir / "a").string();
  const std::string b = (dir / "b").string();
  const std::string g =
      Shell((af::test::SourceDir() / "tests" / "e2e" / "graphs" / "cv_cast_mm.graph.txt").string());
  ASSERT_EQ(Afc("compile " + g + " --bind s0=37,s1=45,s2=70 --no-build --out " + Shell(a)).code, 0);
  ASSERT_EQ(
      Afc("compile " + g +
          " --bind s0=37,s1=45,s2=70 --no-build --flags --force_tiling_case=g1_0 --out " + Shell(b))
          .code,
      0);
  const Result r = Afc("diff " + Shell(a) + " " + Shell(b));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("kFixpip | -"));
  EXPECT_THAT(r.out, HasSubstr("-> B0Y0 | kCommon | B0Y0"));
}

std::string WriteTemp(const std::string& tag, const std::string& name, const std::string& text) {
  const auto p = af::test::TempDir(tag) / name;
  std::ofstream(p) << text;
  return p.string();
}

TEST(AfcDiff, CompiledReportsOfTwoShapes) {
  const auto dir = af::test::TempDir("diff_compile");
  const std::string a = (dir / "a").string();
  const std::string b = (dir / "b").string();
  ASSERT_EQ(Afc("compile " + Shell(Sample()) + " --bind s0=37,s1=1031 --out " + Shell(a)).code, 0);
  ASSERT_EQ(Afc("compile " + Shell(Sample()) + " --bind s0=3,s1=200003 --out " + Shell(b)).code, 0);
  // The same report (as a file or as its folder): identical, exit 0.
  Result r = Afc("diff " + Shell(a + "/report.json") + " " + Shell(a));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("0 changed"));
  EXPECT_THAT(r.out, HasSubstr("identical"));
  // Other shapes: another case, block_dim, UB and cycles; exit 1.
  r = Afc("diff " + Shell(a) + " " + Shell(b));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("kernel add_bcast_relu: B0Y0"));
  EXPECT_THAT(r.out, HasSubstr("-> B0Y1"));
  EXPECT_THAT(r.out, HasSubstr("1 changed"));
  r = Afc("diff --json " + Shell(a) + " " + Shell(b));
  ASSERT_EQ(r.code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j["identical"].get<bool>());
  ASSERT_EQ(j["kernels"].size(), 1u);
  const auto& k = j["kernels"][0];
  EXPECT_EQ(k["graph"], "add_bcast_relu");
  EXPECT_NE(k["a"]["case"], k["b"]["case"]);
  EXPECT_NE(k["a"]["cycles"], k["b"]["cycles"]);
  EXPECT_TRUE(k["a"]["pipes"].contains("MTE2"));
  const auto changes = k["changes"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(changes.begin(), changes.end(), "case"), changes.end());
  EXPECT_TRUE(j["decisions"].empty());
}

TEST(AfcDiff, DecisionsAndKernelsOnlyInOne) {
  const std::string a = WriteTemp("diff_a", "report.json", TinyReport("B0Y0", true));
  const std::string same = WriteTemp("diff_same", "report.json", TinyReport("B0Y0", true));
  const std::string b = WriteTemp("diff_b", "report.json", TinyReport("B0Y1", false));
  EXPECT_EQ(Afc("diff " + Shell(a) + " " + Shell(same)).code, 0);
  Result r = Afc("diff " + Shell(a) + " " + Shell(b));
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("decision vertical [add] + [relu]: FUSED -> refused SIZE_LIMIT"));
  EXPECT_THAT(r.out, HasSubstr("MTE2 10 -> 20"));
  r = Afc("diff --json " + Shell(a) + " " + Shell(b));
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["decisions"].size(), 1u);
  EXPECT_EQ(j["decisions"][0]["a"], "FUSED");
  EXPECT_EQ(j["decisions"][0]["b"], "refused SIZE_LIMIT (decider)");
  // A report without kernels: the kernel is only in A.
  const std::string empty =
      WriteTemp("diff_empty", "report.json", R"({"tool_version": "0.1", "kernels": []})");
  r = Afc("diff " + Shell(a) + " " + Shell(empty));
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("kernel g: only in A (autofused_add_1"));
}

TEST(AfcDiff, BadInputExitsTwoWithFileAndLine) {
  const std::string good = WriteTemp("diff_good", "report.json", TinyReport("B0Y0", true));
  Result r = Afc("diff " + Shell(good) + " /nonexistent/report.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("afc: /nonexistent/report.json: no such file"));
  const std::string broken = WriteTemp("diff_broken", "report.json", "{\n  \"kernels\": [\n  x\n");
  r = Afc("diff " + Shell(good) + " " + Shell(broken));
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr(broken + ":3:"));
  EXPECT_THAT(r.err, HasSubstr("is not JSON"));
  const std::string other = WriteTemp("diff_other", "fusion.json", R"({"graph": "x"})");
  r = Afc("diff " + Shell(other) + " " + Shell(good));
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr(other + ":1: is not a CompileReport"));
  const std::string typed = WriteTemp("diff_typed", "report.json", R"({"kernels": 5})");
  r = Afc("diff " + Shell(typed) + " " + Shell(good));
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr(typed + ":1: is not a CompileReport"));
  r = Afc("diff " + Shell(af::test::TempDir("diff_nodir").string()) + " " + Shell(good));
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("is a folder without a report.json"));
  EXPECT_EQ(Afc("diff " + Shell(good)).code, 2);  // one report is not enough
  for (const char* text : {"", "[]", "null", "{\"kernels\": [{\"cases\": [1]}]}", "\x01\x02"}) {
    const std::string p = WriteTemp("diff_damaged", "report.json", text);
    r = Afc("diff " + Shell(p) + " " + Shell(good));
    EXPECT_EQ(r.code, 2) << text;
    EXPECT_EQ(r.signal, 0) << text;
  }
}

}  // namespace

namespace {

std::string Golden(const std::string& rel) {
  return (af::test::SourceDir() / "tests" / "golden" / rel).string();
}

// afc opt re-runs a golden test by hand: its RUN lines by default, or the stages given.
TEST(Afc, OptRunsAGoldenFilesStages) {
  Result r = Afc("opt " + Shell(Golden("tiling/sum_templates.test")));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("chosen: case 2 sum_ar_B0R0 (r_core)"));
  EXPECT_THAT(r.out, HasSubstr("no tiling: "));
  r = Afc("opt " + Shell(Golden("frontend/softmax.fxtest")));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Graph: "));
  // Any AscGraph input, with the stages named on the command line, in order.
  r = Afc("opt " + Shell(Sample()) + " --stage normalize --stage \"tile --bind s0=37,s1=1031\"");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("decision "));
  EXPECT_THAT(r.out, HasSubstr("chosen: case 0 add_bcast_relu_B0Y0 (elementwise)"));
  r = Afc("opt " + Shell(Sample()) + " --stage passes");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("// ---- normalize.merge_axes"));
  r = Afc("opt " + Shell(Sample()) + " --stage codegen");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("extern \"C\" AF_TILING_EXPORT int af_compute_tiling_t("));
}

TEST(Afc, OptRefusesUnknownStagesAndMissingRunLines) {
  Result r = Afc("opt " + Shell(Sample()) + " --stage frobnicate");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown stage 'frobnicate'"));
  r = Afc("opt " + Shell(Sample()) + " --stage lower");  // a model-graph stage on a hint graph
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("is not a model graph"));
  r = Afc("opt " + Shell(Sample()));  // an AscGraphDef file has no RUN lines
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("no '# RUN:' line"));
  r = Afc("opt " + Shell(Sample()) + " --stage \"tile --bind s0=x\"");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--bind s0 needs a non-negative integer"));
}

}  // namespace

// `afc compile --no-build` on the synthetic transformer of tests/bench/gen_transformer.py (two
// layers): sources and report written, no kernel built (the compile stage takes no time), and the
// two layers' identical groups decided alike.
TEST(Afc, CompileNoBuildSyntheticTransformer) {
  const auto dir = af::test::TempDir("afc_no_build");
  const auto graph = dir / "transformer_2.py";
  const auto gen = af::test::SourceDir() / "tests" / "bench" / "gen_transformer.py";
  ASSERT_EQ(std::system(("/usr/bin/python3 " + Shell(gen.string()) + " --layers 2 -o " +
                         Shell(graph.string()) + " 2>/dev/null")
                            .c_str()),
            0);
  const Result r = Afc("compile --no-build --bind s0=2 --json --out " +
                       Shell((dir / "out").string()) + " " + Shell(graph.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream f(dir / "out" / "report.json");
  const auto j = nlohmann::json::parse(f);
  bool compile_timed = false;
  for (const auto& t : j["timings"]) {
    if (t["stage"] != "compile") continue;
    compile_timed = true;
    EXPECT_EQ(t.value("ms", 0.0), 0.0) << t.dump();  // proto JSON omits a zero
  }
  EXPECT_TRUE(compile_timed);
  const auto& kernels = j["kernels"];
  EXPECT_GE(kernels.size(), 8u);
  EXPECT_EQ(kernels.size() % 2, 1u) << "two identical layers and the first layer norm's kernel";
  // Identical kernels once: the second layer's groups point at the first layer's kernels, share
  // their names, and only the distinct kernels have a folder.
  std::map<std::string, std::string> name_of_group;
  std::set<std::string> distinct;
  std::size_t reused = 0;
  for (const auto& k : kernels) {
    const std::string group = k.value("group", "");
    ASSERT_FALSE(group.empty());
    EXPECT_TRUE(name_of_group.emplace(group, k["name"]).second) << "groups are unique";
    const std::string first = k.value("same_kernel_as", "");
    if (first.empty()) {
      EXPECT_TRUE(distinct.insert(k["name"]).second) << k["name"];
      EXPECT_TRUE(std::filesystem::is_directory(dir / "out" / k["name"].get<std::string>()));
      continue;
    }
    ++reused;
    ASSERT_TRUE(name_of_group.contains(first)) << "points at an earlier group";
    EXPECT_EQ(name_of_group[first], k["name"]);
  }
  EXPECT_EQ(reused, kernels.size() / 2);
  std::size_t folders = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir / "out"))
    folders += e.is_directory() ? 1 : 0;
  EXPECT_EQ(folders, distinct.size());
  // Every model node of a kernel names its group.
  for (const auto& n : j["model_nodes"]) {
    if (n.contains("kernel")) {
      EXPECT_TRUE(name_of_group.contains(n.value("group", ""))) << n;
    }
  }
}
