// --codegen_compile_debug's dump tree (pipeline/debug_dump.h) read back by our own DFX importer:
// every stage file parses, `afc inspect` lists the stages, and the first stage is the graph that
// was compiled (dump -> import -> the same graph).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

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
  ASSERT_FALSE(first.empty());
  // The first stage read back is the graph that was compiled.
  const auto back = Afc("convert " + Shell(first.string()) + " --to text");
  const auto orig =
      Afc("convert " + Src("samples/hint_graphs/add_bcast_relu.AscGraphDef.txt") + " --to text");
  ASSERT_EQ(back.code, 0) << back.err;
  ASSERT_EQ(orig.code, 0) << orig.err;
  EXPECT_EQ(back.out, orig.out);
  ExpectReadBack(d, 1);
}

TEST(AfcDump, OracleCaseRoundTrip) {
  const fs::path d = Scratch("case");
  const auto graphs = Dump(Src("samples/torch/cases/softmax"), "", d);
  EXPECT_GE(graphs.size(), 1u);
  ExpectReadBack(d, graphs.size());
}

}  // namespace
