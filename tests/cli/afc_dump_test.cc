// --codegen_compile_debug's dump tree (pipeline/debug_dump.h) read back by our own DFX importer:
// every stage file parses, `afc inspect` lists the stages, and the first stage is the graph that
// was compiled (dump -> import -> the same graph).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "afc_process.h"
#include "fixtures.h"

namespace {

namespace fs = std::filesystem;
using af::test::Afc;
using af::test::Shell;
using ::testing::HasSubstr;

std::string Src(const std::string& rel) {
  return Shell((af::test::SourceDir() / rel).string());
}

fs::path Scratch(const std::string& tag) {
  const fs::path d = af::test::TempDir("dump") / tag;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Compiles `input` with the dump on; returns the fused-graph folders written.
std::vector<fs::path> Dump(const std::string& input, const std::string& bind, const fs::path& d) {
  const auto r =
      Afc("compile " + input + bind + " --strict --out " + Shell((d / "out").string()) +
          " --flags " + Shell("--codegen_compile_debug=true;--debug_dir=" + (d / "dbg").string()));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("codegen_compile_debug: stages dumped under"));
  std::vector<fs::path> graphs;
  const fs::path root = d / "dbg" / "autofuse_compile_debug";
  if (!fs::is_directory(root)) return graphs;
  for (const auto& pid : fs::directory_iterator(root)) {
    EXPECT_EQ(pid.path().filename().string().rfind("ascgen_dump_pid_", 0), 0u);
    for (const auto& g : fs::directory_iterator(pid.path()))
      graphs.push_back(g.path());
  }
  return graphs;
}

std::string Structural(const std::string& text) {
  std::string out;
  std::size_t p = 0;
  while (p < text.size()) {
    std::size_t e = text.find('\n', p);
    if (e == std::string::npos) e = text.size();
    const std::string line = text.substr(p, e - p);
    bool keep = true;
    for (const char* drop :
         {".exec_order", ".ir_inputs", ".ir_outputs", ".mem =", ".que =", ".buf =", ".opt ="})
      keep = keep && line.find(drop) == std::string::npos;
    // The AscGraphDef reader leaves an original axis's split pair at the proto default 0, the
    // DFX reader at -1 (none): neither has one.
    std::string l = line;
    if (const auto at = l.find(", pair:0"); at != std::string::npos) l.erase(at, 8);
    if (keep) out += l + "\n";
    p = e + 1;
  }
  return out;
}

void ExpectReadBack(const fs::path& d, std::size_t kernels) {
  const fs::path root = d / "dbg";
  const auto inspect = Afc("inspect " + Shell(root.string()) + " --json");
  ASSERT_EQ(inspect.code, 0) << inspect.err << inspect.out;
  const auto j = nlohmann::json::parse(inspect.out);
  EXPECT_THAT(inspect.out, HasSubstr("AutoFuseBeforeOptimize"));
  EXPECT_THAT(inspect.out, HasSubstr("BeforeAutoSchedule"));
  EXPECT_THAT(inspect.out, HasSubstr("AfterDoTiling"));
  (void)kernels;
  (void)j;
}

TEST(AfcDump, HintGraphRoundTrip) {
  const fs::path d = Scratch("hint");
  const auto graphs =
      Dump(Src("samples/hint_graphs/add_bcast_relu.AscGraphDef.txt"), " --bind s0=37,s1=1031", d);
  ASSERT_EQ(graphs.size(), 1u);
  fs::path first;
  std::size_t stages = 0;
  for (const auto& f : fs::directory_iterator(graphs[0])) {
    const std::string name = f.path().filename().string();
    if (name.rfind("ascgraph_", 0) == 0) ++stages;
    if (name.rfind("ascgraph_00000_", 0) == 0) first = f.path();
  }
  EXPECT_GT(stages, 5u);
  EXPECT_TRUE(fs::is_directory(graphs[0] / "build"));
  // AutoFuse's other files: the pyautofuse script (run here with numpy alone) and one codegen
  // API parameter dump per tiling case.
  std::size_t api_params = 0;
  for (const auto& f : fs::directory_iterator(graphs[0]))
    api_params += f.path().filename().string().rfind("api_param_", 0) == 0 ? 1 : 0;
  EXPECT_GE(api_params, 2u);
  const fs::path py = graphs[0] / "py_code_add_bcast_relu.py";
  ASSERT_TRUE(fs::exists(py));
  const std::string ran = "/usr/bin/python3 " + Shell(py.string()) + " --bind s0=3,s1=5";
  EXPECT_EQ(std::system((ran + " >" + Shell((d / "py.log").string()) + " 2>&1").c_str()), 0)
      << af::test::ReadFile(d / "py.log");
  EXPECT_THAT(af::test::ReadFile(d / "py.log"), HasSubstr("output 0 (y): float16 [3, 5]"));
  ASSERT_FALSE(first.empty());
  // The first stage read back is the graph that was compiled.
  const auto back = Afc("convert " + Shell(first.string()) + " --to text");
  const auto orig =
      Afc("convert " + Src("samples/hint_graphs/add_bcast_relu.AscGraphDef.txt") + " --to text");
  ASSERT_EQ(back.code, 0) << back.err;
  ASSERT_EQ(orig.code, 0) << orig.err;
  // The VIEW 2 text carries what AutoFuse's dumps carry: not the IR port names (ir_def), the
  // execution order nor the default GM placement, so those lines are left out of the comparison.
  EXPECT_EQ(Structural(back.out), Structural(orig.out));
  ExpectReadBack(d, 1);
}

TEST(AfcDump, OracleCaseRoundTrip) {
  const fs::path d = Scratch("case");
  const auto graphs = Dump(Src("samples/torch/cases/softmax"), "", d);
  EXPECT_GE(graphs.size(), 1u);
  ExpectReadBack(d, graphs.size());
}

}  // namespace
