// The pipeline as a whole: generated tiling functions agree with the in-process solver on
// thousands of random shapes, forced tiling cases run correctly, hostile names never reach the
// generated code, and the schedule refuses what it cannot do with a reason code.
#include "autofuse/pipeline/pipeline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "autofuse/att/tiling.h"
#include "autofuse/ir/text.h"
#include "autofuse/support/error.h"
#include "fixtures.h"

namespace af::pipeline {
namespace {

using ::testing::HasSubstr;

Options TestOptions() {
  Options o;
  o.compile.cache_dir = af::test::BinaryDir() / "kernel-cache";
  return o;
}

std::vector<std::filesystem::path> E2eGraphs() {
  return af::test::FilesUnder(af::test::SourceDir() / "tests" / "e2e" / "graphs", {".graph.txt"});
}

using TilingFn = int (*)(const std::int64_t*, std::uint32_t, std::uint32_t, std::uint64_t,
                         std::int32_t, void*, std::uint64_t);

struct TilingHead {
  std::uint32_t block_dim;
  std::uint32_t tiling_key;
};

// A random size: mostly small, some primes, some large; the product of all stays below ~2^40.
std::int64_t RandomSize(std::mt19937_64& rng, int rank) {
  static const std::int64_t kPrimes[] = {2, 3, 5, 7, 13, 31, 101, 127, 257, 1021, 4099, 65537};
  const int kind = static_cast<int>(rng() % 4);
  const std::int64_t cap = rank >= 4 ? 300 : rank == 3 ? 3000 : rank == 2 ? 200000 : 100000000;
  std::int64_t v = 1;
  switch (kind) {
    case 0:
      v = 1 + static_cast<std::int64_t>(rng() % 16);
      break;
    case 1:
      v = kPrimes[rng() % (sizeof(kPrimes) / sizeof(kPrimes[0]))];
      break;
    case 2:
      v = 1 + static_cast<std::int64_t>(rng() % 4096);
      break;
    default:
      v = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(cap));
      break;
  }
  return std::min(v, cap);
}

TEST(Pipeline, GeneratedTilingAgreesWithTheCompilerOnRandomShapes) {
  const auto graphs = E2eGraphs();
  ASSERT_GE(graphs.size(), 8u);
  const hw::Profile& profile = hw::GetProfile("ascend910b");
  std::mt19937_64 rng(2024);
  int checked = 0;
  for (const auto& path : graphs) {
    SCOPED_TRACE(path.filename().string());
    const CompileResult r = Compile(path.string(), TestOptions());
    ASSERT_EQ(r.kernels.size(), 1u);
    const Kernel& k = r.kernels[0];
    ASSERT_TRUE(k.error.empty()) << k.error;
    auto* fn = reinterpret_cast<TilingFn>(k.library->Symbol("af_compute_tiling"));
    ASSERT_NE(fn, nullptr);
    const auto& syms = k.code.symbols;
    for (int trial = 0; trial < 1500; ++trial) {
      sym::Bindings b;
      std::vector<std::int64_t> values;
      for (const auto& s : syms) {
        values.push_back(RandomSize(rng, static_cast<int>(syms.size())));
        b[s] = values.back();
      }
      const std::uint32_t cores = 1 + static_cast<std::uint32_t>(rng() % 64);
      const std::int64_t ub = 32 * (1024 + static_cast<std::int64_t>(rng() % 8192));
      hw::Profile p = profile;
      p.vector_cores = cores;
      p.ub_bytes = ub;
      std::vector<std::uint8_t> data(4096, 0);
      const int rc = fn(values.data(), static_cast<std::uint32_t>(values.size()), cores,
                        static_cast<std::uint64_t>(ub), -1, data.data(), data.size());
      att::TilingDecision d;
      bool solved = true;
      try {
        d = att::Solve(k.schedule, b, p);
      } catch (const af::InputError&) {
        solved = false;
      }
      ASSERT_EQ(rc == 0, solved) << "trial " << trial;
      if (!solved) continue;
      TilingHead head{};
      std::memcpy(&head, data.data(), sizeof head);
      ASSERT_EQ(static_cast<int>(head.tiling_key), d.chosen) << "trial " << trial;
      ASSERT_EQ(head.block_dim, d.solution.block_dim) << "trial " << trial;
      ASSERT_LE(d.solution.ub_bytes, ub);
      ASSERT_LE(d.solution.block_dim, cores);
      ++checked;
    }
  }
  EXPECT_GT(checked, 8 * 1000);
  RecordProperty("checked", checked);
}

TEST(Pipeline, EveryForcedCaseRunsCorrectly) {
  const auto path = af::test::SourceDir() / "tests" / "e2e" / "graphs" / "bcast_middle.graph.txt";
  int ran = 0;
  for (const char* shape : {"s0=7,s1=11,s2=13", "s0=64,s1=1,s2=33", "s0=2,s1=3,s2=70001"}) {
    Options o = TestOptions();
    ParseBindings(shape, &o.bindings);
    const CompileResult base = Compile(path.string(), o);
    // Three elementwise cases, their three brc_inline variants and two unaligned ones.
    ASSERT_EQ(base.kernels[0].schedule.cases.size(), 8u);
    const auto& sched = base.kernels[0].schedule;
    const auto dims = att::DimValues(sched, o.bindings);
    const hw::Profile& profile = hw::GetProfile(o.soc);
    for (int c = 0; c < 8; ++c) {
      Options oc = o;
      oc.flags["force_tiling_case"] = std::to_string(c);
      const bool fits = af_tiling::SolveCase(att::CaseParamsFor(sched, c, dims),
                                             profile.vector_cores, profile.ub_bytes)
                            .ok;
      if (!fits) {
        EXPECT_THROW(Compile(path.string(), oc), af::InputError) << shape << " case " << c;
        continue;
      }
      ++ran;
      const CompileResult r = Compile(path.string(), oc);
      RunOptions ro;
      ro.seed = 5;
      const RunResult res = pipeline::Run(r.kernels[0], oc, ro);
      EXPECT_EQ(res.tiling_key, c) << shape;
      EXPECT_TRUE(res.ok) << shape << " case " << c << ": " << res.outputs[0].message;
    }
  }
  EXPECT_GE(ran, 18);
}

TEST(Pipeline, ForcedTemplateRestrictsTheChoice) {
  const auto path = af::test::SourceDir() / "tests" / "e2e" / "graphs" / "sum_ar.graph.txt";
  Options o = TestOptions();
  ParseBindings("s0=1,s1=1000003", &o.bindings);  // huge R, one row: r_core by the model
  const CompileResult base = Compile(path.string(), o);
  ASSERT_TRUE(base.kernels[0].tiling);
  const auto& sched = base.kernels[0].schedule;
  ASSERT_EQ(sched.templates.size(), 3u);  // all_load, common, r_core
  EXPECT_EQ(sched.cases[base.kernels[0].tiling->chosen].kind, schedule::CaseKind::kRCore);
  for (int t : {1, 2}) {
    Options ot = o;
    ot.flags["force_schedule_result"] = std::to_string(t);
    const CompileResult r = Compile(path.string(), ot);
    const int chosen = r.kernels[0].tiling->chosen;
    EXPECT_EQ(sched.cases[chosen].templ, t);
    RunOptions ro;
    ro.seed = 3;
    const RunResult res = pipeline::Run(r.kernels[0], ot, ro);
    EXPECT_EQ(res.tiling_key, chosen);
    EXPECT_TRUE(res.ok) << "template " << t << ": " << res.outputs[0].message;
  }
  // all_load cannot hold a row of a million floats.
  Options oa = o;
  oa.flags["force_schedule_result"] = "0";
  EXPECT_THROW(Compile(path.string(), oa), af::InputError);
  oa.flags["force_schedule_result"] = "7";
  EXPECT_THROW(Compile(path.string(), oa), af::InputError);
}

TEST(Pipeline, HostileNamesNeverReachGeneratedCode) {
  std::string text = af::test::ReadFile(af::test::OurFixtures() / "ascgraph" / "exp_sub.graph.txt");
  auto replace = [&](const std::string& from, const std::string& to) {
    std::size_t p = 0;
    while ((p = text.find(from, p)) != std::string::npos) {
      text.replace(p, from.size(), to);
      p += to.size();
    }
  };
  replace("Graph: exp_sub", "Graph: \"g\\\"; int main(){} /*\"");
  replace("[7] e : Exp", "[7] \"e*/ #include <evil>\\n\\\\\" : Exp");
  replace("(e.y0", "(\"e*/ #include <evil>\\n\\\\\".y0");
  replace("[3] lx :", "[3] \"lx\\\"\\n#define x 1\" :");
  replace("(lx.y0", "(\"lx\\\"\\n#define x 1\".y0");
  const auto dir = af::test::TempDir("hostile");
  const auto path = (dir / "hostile.graph.txt").string();
  std::ofstream(path) << text;
  Options o = TestOptions();
  ParseBindings("s0=19,s1=23", &o.bindings);
  const CompileResult r = Compile(path, o);
  ASSERT_EQ(r.kernels.size(), 1u);
  const Kernel& k = r.kernels[0];
  ASSERT_TRUE(k.error.empty()) << k.error;
  for (const auto& f : k.code.files) {
    EXPECT_EQ(f.text.find("#include <evil>"), std::string::npos) << f.name;
    EXPECT_EQ(f.text.find("#define x"), std::string::npos) << f.name;
    EXPECT_EQ(f.text.find("main(){}"), std::string::npos) << f.name;
  }
  RunOptions ro;
  const RunResult res = pipeline::Run(k, o, ro);
  EXPECT_TRUE(res.ok);
}

TEST(Pipeline, RefusalsCarryAReasonCode) {
  // A transposed load (innermost stride not 1) is the data-movement issue's template.
  std::string text = af::test::ReadFile(af::test::SourceDir() / "tests" / "e2e" / "graphs" /
                                        "abs_add_relu.graph.txt");
  const std::string from =
      "[2] lx : Load(x.y0)\n    .axis = {z0, z1}\n    .loop_axis = z1\n"
      "    .y0 : fp32 axis={z0, z1} repeats=(s0, s1) strides=(s1, 1)";
  const auto p = text.find(from);
  ASSERT_NE(p, std::string::npos);
  text.replace(p, from.size(),
               "[2] lx : Load(x.y0)\n    .axis = {z0, z1}\n    .loop_axis = z1\n"
               "    .y0 : fp32 axis={z0, z1} repeats=(s0, s1) strides=(1, s0)");
  const auto dir = af::test::TempDir("refusal");
  const auto path = (dir / "t.graph.txt").string();
  std::ofstream(path) << text;
  const CompileResult r = Compile(path, TestOptions());
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].error_code, "STRIDED_INNER_LOAD");
  EXPECT_THAT(r.kernels[0].error, HasSubstr("load 'lx'"));
  EXPECT_THAT(ReportJson(r, TestOptions()), HasSubstr("STRIDED_INNER_LOAD"));
}

TEST(Pipeline, ReportCarriesGraphsCasesTilingAndTimings) {
  Options o = TestOptions();
  ParseBindings("s0=37,s1=101", &o.bindings);
  const auto path =
      af::test::SourceDir() / "samples" / "hint_graphs" / "add_bcast_relu.AscGraphDef.txt";
  const CompileResult r = Compile(path.string(), o);
  const std::string json = ReportJson(r, o);
  for (const char* key : {"\"hint_graph\"", "\"impl_graph\"", "\"ub_bytes_expr\"", "\"tiling\"",
                          "\"chosen_name\"", "\"timings\"", "\"source_files\"", "\"decisions\"",
                          "add_bcast_relu_B0Y1", "VECIN", "\"mte2_cycles\"", "\"origin\""}) {
    EXPECT_THAT(json, HasSubstr(key));
  }
  std::vector<std::string> stages;
  for (const auto& t : r.timings)
    stages.push_back(t.stage);
  EXPECT_EQ(stages, (std::vector<std::string>{"import", "frontend", "schedule", "tiling", "codegen",
                                              "compile"}));
}

TEST(Pipeline, FlagsAndBindingsParse) {
  std::map<std::string, std::string> f;
  ParseFlags("--force_tiling_case=1; autofuse_enable_pass = concat ;", &f);
  EXPECT_EQ(f.at("force_tiling_case"), "1");
  EXPECT_EQ(f.at("autofuse_enable_pass"), "concat");
  EXPECT_THROW(ParseFlags("--novalue", &f), af::InputError);
  sym::Bindings b;
  ParseBindings("s0=128, s1=64", &b);
  EXPECT_EQ(b.at("s1"), 64);
  EXPECT_THROW(ParseBindings("s0=-1", &b), af::InputError);
  EXPECT_THROW(ParseBindings("s0=abc", &b), af::InputError);
}

}  // namespace
}  // namespace af::pipeline
