// --autofuse_enable_pgo end to end: the compile searches and writes the kernel's PGO result file,
// the generated tiling function reads it at run time (the run checks it against the in-process
// decision, which reads the same entry), and the kernel runs correctly with the file's point --
// also a hand-written one that the solver would never choose ($AF_PGO_FILE).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "autofuse/att/pgo.h"
#include "autofuse/hw/profile.h"
#include "autofuse/inputs/registry.h"
#include "autofuse/pipeline/run.h"
#include "fixtures.h"

namespace af::pipeline {
namespace {

namespace fs = std::filesystem;

// Sets an environment variable for the scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() { ::unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

Options PgoOptions(const std::string& algo) {
  Options o;
  o.compile.cache_dir = af::test::BinaryDir() / "kernel-cache";
  o.flags["autofuse_enable_pgo"] = "true";
  o.flags["autofuse_pgo_algo"] = algo;
  o.bindings = {{"s0", 64}, {"s1", 2048}};
  return o;
}

const fs::path kGraph =
    af::test::SourceDir() / "tests" / "e2e" / "graphs" / "abs_add_relu.graph.txt";

void ExpectRunMatches(const RunResult& res) {
  ASSERT_FALSE(res.outputs.empty());
  for (const auto& c : res.outputs)
    EXPECT_TRUE(c.ok) << c.name << ": " << c.message;
  EXPECT_EQ(static_cast<std::int64_t>(res.mte2_bytes), res.model_mte2_bytes);
  EXPECT_EQ(static_cast<std::int64_t>(res.mte3_bytes), res.model_mte3_bytes);
  EXPECT_EQ(static_cast<std::int64_t>(res.vec_repeats), res.model_vec_repeats);
}

TEST(Pgo, SearchWritesTheFileAndTheTilingFunctionReadsIt) {
  // A fixed folder (its path is compiled into the tiling function, so a fixed one lets the kernel
  // cache serve later runs); each test has its own, as ctest runs them side by side.
  const fs::path dir = af::test::BinaryDir() / "pgo_run" / "search";
  fs::remove_all(dir);
  const ScopedEnv env("AF_PGO_DIR", dir.string());
  for (const char* algo : {"core_select", "pruning"}) {
    SCOPED_TRACE(algo);
    const Options o = PgoOptions(algo);
    const CompileResult r = inputs::CompileFile(kGraph.string(), o);
    ASSERT_EQ(r.kernels.size(), 1u);
    const Kernel& k = r.kernels[0];
    ASSERT_TRUE(k.error.empty()) << k.error;
    ASSERT_TRUE(k.pgo.has_value());
    ASSERT_FALSE(k.pgo->top.empty());
    EXPECT_EQ(k.pgo_file, dir / (k.code.kernel_name + ".pgo.txt"));
    EXPECT_TRUE(fs::is_regular_file(k.pgo_file));
    // The decision is the file's point (the searched best).
    EXPECT_EQ(k.tiling->chosen, k.pgo->top[0].case_index);
    EXPECT_EQ(k.tiling->solution.block_dim, k.pgo->top[0].block_dim);
    EXPECT_DOUBLE_EQ(k.tiling->solution.cost, k.pgo->top[0].cycles);
    const RunResult res = pipeline::Run(k, o, RunOptions{});
    EXPECT_EQ(res.block_dim, k.pgo->top[0].block_dim);
    ExpectRunMatches(res);
  }
}

TEST(Pgo, AHandWrittenEntryRunsAndAnotherShapeFallsBackToTheSolver) {
  const fs::path dir = af::test::BinaryDir() / "pgo_run" / "hand_kernel";
  fs::remove_all(dir);
  const ScopedEnv env("AF_PGO_DIR", dir.string());
  const Options o = PgoOptions("core_select");
  const CompileResult r = inputs::CompileFile(kGraph.string(), o);
  ASSERT_EQ(r.kernels.size(), 1u);
  const Kernel& k = r.kernels[0];
  ASSERT_TRUE(k.error.empty()) << k.error;
  ASSERT_GT(k.tiling->solution.block_dim, 1u);
  // One core, as if the device had measured it best.
  const hw::Profile& profile = hw::GetProfile(o.soc);
  af_tiling::PgoEntry e =
      att::PgoEntryFor(*k.pgo, 1, {64, 2048}, profile.vector_cores, profile.ub_bytes);
  e.use = 1;
  const fs::path hand = af::test::BinaryDir() / "pgo_run" / "hand" / "hand.pgo.txt";
  fs::remove_all(hand.parent_path());
  att::WritePgoEntry(hand, e);
  {
    const ScopedEnv file("AF_PGO_FILE", hand.string());
    const RunResult res = pipeline::Run(k, o, RunOptions{});
    EXPECT_EQ(res.block_dim, 1u);
    ExpectRunMatches(res);
    // A new search replaces the file: the same process's tiling function reads it again.
    e.use = 2;
    att::WritePgoEntry(hand, e);
    const RunResult again = pipeline::Run(k, o, RunOptions{});
    EXPECT_EQ(again.block_dim, 2u);
    ExpectRunMatches(again);
  }
  // Sizes the file has no entry for: the solver's choice.
  Options other = o;
  other.bindings = {{"s0", 999}, {"s1", 7}};
  const att::TilingDecision solver = att::Solve(k.schedule, other.bindings, profile);
  const RunResult res = pipeline::Run(k, other, RunOptions{});
  EXPECT_EQ(res.block_dim, solver.solution.block_dim);
  ExpectRunMatches(res);
}

}  // namespace
}  // namespace af::pipeline
