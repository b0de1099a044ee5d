// The pipeline as a whole: generated tiling functions agree with the in-process solver on
// thousands of random shapes, forced tiling cases run correctly, hostile names never reach the
// generated code, and the schedule refuses what it cannot do with a reason code.
#include "autofuse/pipeline/pipeline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <random>

#include "af_cpu/launch_abi.h"
#include "autofuse/att/cube.h"
#include "autofuse/att/tiling.h"
#include "autofuse/codegen/superkernel.h"
#include "autofuse/data/compare.h"
#include "autofuse/inputs/registry.h"
#include "autofuse/ir/text.h"
#include "autofuse/pipeline/run.h"
#include "autofuse/support/error.h"
#include "autofuse/toolchain/compile.h"
#include "e2e_units.h"
#include "fixtures.h"

namespace af::pipeline {
namespace {

using ::testing::HasSubstr;

Options TestOptions() {
  Options o;
  o.compile.cache_dir = af::test::BinaryDir() / "kernel-cache";
  return o;
}

// The one-group e2e graphs: these tests read a kernel's tiling data as one struct. Multi-group
// graphs (groups_*) have each group's tiling checked against the compiler by every `afc run`
// (pipeline::Run's CheckGroupTilings) and their counters checked exactly by e2e.groups_*. Graphs
// that name one profile (`# SOC:`, e.g. the 950's innermost-dim Gathers) are left to their e2e
// tests, which check the generated tiling the same way.
std::vector<std::filesystem::path> E2eGraphs() {
  std::vector<std::filesystem::path> out;
  for (const auto& p :
       af::test::FilesUnder(af::test::SourceDir() / "tests" / "e2e" / "graphs", {".graph.txt"})) {
    // Multi-group kernels (groups_*, and the cube + vector cv_*) are checked by their e2e tests:
    // every case forced, the generated and in-process tilings compared by afc run, counters
    // exact.
    const std::string f = p.filename().string();
    if (f.rfind("groups_", 0) != 0 && f.rfind("cv_", 0) != 0 && af::test::E2eGraphSoc(p).empty())
      out.push_back(p);
  }
  return out;
}

// The pre-template entry point of the generated tiling function (af_cpu/launch_abi.h).
using TilingFn = AfComputeTilingCaseFn;

// Every input goes through the input registry, as in afc.
CompileResult Compile(const std::string& path, const Options& o) {
  return inputs::CompileFile(path, o);
}

std::string ReportJson(const CompileResult& r, const Options& o) {
  return inputs::ReportJson(r, o);
}

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

// The generated tiling function alone: the kernel's tiling-data header and tiling source (which
// includes nothing else generated), built as the pipeline builds a kernel (same compiler, flags
// and cache). The agreement test of the other solvers and the tiling cache calls only this
// function: no other test builds their kernels, and building the AscendC kernel beside it would
// double the compile per graph for code it never uses.
std::shared_ptr<toolchain::KernelLibrary> BuildTilingFunction(const Kernel& k, const Options& o) {
  std::vector<toolchain::SourceFile> src;
  std::string main_file;
  for (const auto& f : k.code.files) {
    const auto ends = [&](const std::string& tail) {
      return f.name.size() > tail.size() && f.name.ends_with(tail);
    };
    if (ends("_tiling_data.h")) src.push_back({f.name, f.text});
    if (ends("_tiling.cc")) {
      src.push_back({f.name, f.text});
      main_file = f.name;
    }
  }
  if (main_file.empty() || src.size() != 2) {
    ADD_FAILURE() << k.code.kernel_name << ": no _tiling.cc / _tiling_data.h pair";
    return nullptr;
  }
  return toolchain::CompileKernel(src, main_file, KernelCompileOptions(k.code, o));
}

// How CheckGeneratedAgainstInProcess builds the tiling function.
enum class Build {
  // The whole kernel, as the pipeline builds it: with the default options it is the kernel the
  // e2e test and ChosenTilings build too, so the suite's shared kernel cache builds it once.
  kWholeKernel,
  // The tiling function alone (BuildTilingFunction): for options no other test builds a kernel
  // with (other solvers, the tiling cache), where the kernel would be a compile of its own.
  kTilingOnly,
};

// Compiles `path` with `o` and compares its generated tiling function with the in-process solver
// on `trials` random shapes (random core counts and UB sizes too); sizes are capped at
// `cap_elems` elements per symbol when > 0. Returns the number of shapes compared.
int CheckGeneratedAgainstInProcess(const std::filesystem::path& path, const Options& o, int trials,
                                   std::int64_t cap_elems, std::mt19937_64& rng, Build build) {
  SCOPED_TRACE(path.filename().string() + " " + o.soc);
  const hw::Profile& profile = hw::GetProfile(o.soc);
  const auto solver = att::SolverOptionsFrom(o.flags, profile);
  Options compile = o;
  compile.build = build == Build::kWholeKernel;
  const CompileResult r = Compile(path.string(), compile);
  EXPECT_EQ(r.kernels.size(), 1u);
  if (r.kernels.size() != 1) return 0;
  const Kernel& k = r.kernels[0];
  EXPECT_TRUE(k.error.empty()) << k.error;
  if (!k.error.empty()) return 0;
  const auto library = build == Build::kWholeKernel ? k.library : BuildTilingFunction(k, o);
  EXPECT_NE(library, nullptr);
  if (library == nullptr) return 0;
  auto* fn = reinterpret_cast<TilingFn>(library->Symbol(AF_COMPUTE_TILING_CASE_SYMBOL));
  EXPECT_NE(fn, nullptr);
  if (fn == nullptr) return 0;
  const auto& syms = k.code.symbols;
  int checked = 0;
  for (int trial = 0; trial < trials; ++trial) {
    sym::Bindings b;
    std::vector<std::int64_t> values;
    for (const auto& s : syms) {
      std::int64_t v = RandomSize(rng, static_cast<int>(syms.size()));
      if (cap_elems > 0) v = 1 + (v - 1) % cap_elems;
      values.push_back(v);
      b[s] = v;
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
      d = att::Solve(k.schedule, b, p, -1, -1, solver);
    } catch (const af::InputError&) {
      solved = false;
    }
    EXPECT_EQ(rc == 0, solved) << "trial " << trial;
    if (rc == 0 && !solved) return checked;
    if (!solved) continue;
    AfTilingHeader head{};
    std::memcpy(&head, data.data(), sizeof head);
    EXPECT_EQ(static_cast<int>(head.tiling_key), d.chosen) << "trial " << trial;
    EXPECT_EQ(head.block_dim, d.solution.block_dim) << "trial " << trial;
    // The chosen tiling satisfies every constraint of the model.
    EXPECT_LE(d.solution.ub_bytes, ub);
    EXPECT_GE(d.solution.block_dim, 1u);
    EXPECT_LE(d.solution.block_dim, cores);
    EXPECT_GE(d.solution.tile, 1);
    if (static_cast<int>(head.tiling_key) != d.chosen || head.block_dim != d.solution.block_dim)
      return checked;
    ++checked;
  }
  return checked;
}

TEST(Pipeline, GeneratedTilingAgreesWithTheCompilerOnRandomShapes) {
  const auto graphs = E2eGraphs();
  ASSERT_GE(graphs.size(), 8u);
  std::mt19937_64 rng(2024);
  int checked = 0;
  for (const auto& path : graphs)
    checked +=
        CheckGeneratedAgainstInProcess(path, TestOptions(), 1500, 0, rng, Build::kWholeKernel);
  EXPECT_GT(checked, static_cast<int>(graphs.size()) * 1000);
  RecordProperty("checked", checked);
}

// The other solvers, the 950 profile (V2 tables, trade-off on) and the tiling cache, on every
// third test graph: the generated function still makes the in-process decision.
TEST(Pipeline, GeneratedTilingAgreesForEverySolverProfileAndTheCache) {
  const auto graphs = E2eGraphs();
  std::mt19937_64 rng(77);
  int checked = 0;
  for (std::size_t g = 0; g < graphs.size(); g += 3) {
    Options high = TestOptions();
    high.flags["autofuse_att_algorithm"] = "HighPerf";
    checked += CheckGeneratedAgainstInProcess(graphs[g], high, 300, 0, rng, Build::kTilingOnly);
    Options ex = TestOptions();
    ex.flags["autofuse_att_algorithm"] = "Exhaustive";
    checked += CheckGeneratedAgainstInProcess(graphs[g], ex, 40, 1000, rng, Build::kTilingOnly);
    Options v2 = TestOptions();
    v2.soc = "ascend950";
    v2.flags["autofuse_enable_tiling_cache"] = "1";
    checked += CheckGeneratedAgainstInProcess(graphs[g], v2, 300, 0, rng, Build::kTilingOnly);
  }
  EXPECT_GT(checked, 1500);
  RecordProperty("checked", checked);
}

// The cube + vector graphs: the generated tiling function's cube group (template, block_dim and
// base M/N/K, read from its struct in the combined tiling data) is the in-process
// att::SolveCubeGroup's on random sizes and core counts, forced templates included.
TEST(Pipeline, GeneratedCubeTilingAgreesWithTheCompilerOnRandomShapes) {
  std::mt19937_64 rng(24);
  int checked = 0;
  for (const auto& path :
       af::test::FilesUnder(af::test::SourceDir() / "tests" / "e2e" / "graphs", {".graph.txt"})) {
    if (path.filename().string().rfind("cv_", 0) != 0) continue;
    SCOPED_TRACE(path.filename().string());
    Options o = TestOptions();
    o.build = false;
    const CompileResult r = Compile(path.string(), o);
    ASSERT_EQ(r.kernels.size(), 1u);
    const Kernel& k = r.kernels[0];
    ASSERT_TRUE(k.error.empty()) << k.error;
    std::size_t cube = k.groups.size();
    for (std::size_t q = 0; q < k.groups.size(); ++q)
      if (k.groups[q].group.cube) cube = q;
    ASSERT_LT(cube, k.groups.size());
    const schedule::CubeGroup& cg = *k.groups[cube].group.cube;
    const auto lib = BuildTilingFunction(k, o);
    ASSERT_NE(lib, nullptr);
    auto* fn =
        reinterpret_cast<AfComputeGroupTilingFn>(lib->Symbol(AF_COMPUTE_GROUP_TILING_SYMBOL));
    ASSERT_NE(fn, nullptr);
    for (int trial = 0; trial < 300; ++trial) {
      sym::Bindings b;
      std::vector<std::int64_t> values;
      for (const auto& s : k.code.symbols) {
        const std::int64_t v = 1 + static_cast<std::int64_t>(rng() % (trial % 3 == 0 ? 5000 : 300));
        values.push_back(v);
        b[s] = v;
      }
      const std::uint32_t cores = 2 + 2 * static_cast<std::uint32_t>(rng() % 32);
      const int forced = trial % 4 == 3 ? static_cast<int>(rng() % 2) : -1;
      hw::Profile p = hw::GetProfile(o.soc);
      p.vector_cores = cores;
      std::vector<std::int32_t> cases(k.groups.size(), -1);
      cases[cube] = forced;
      std::vector<std::uint8_t> data(8192, 0);
      const int rc = fn(values.data(), static_cast<std::uint32_t>(values.size()), cores,
                        static_cast<std::uint64_t>(p.ub_bytes), cases.data(),
                        static_cast<std::uint32_t>(cases.size()), -1, data.data(), data.size());
      att::CubeDecision d;
      bool solved = true;
      try {
        d = att::SolveCubeGroup(cg, b, p, forced);
      } catch (const af::InputError&) {
        solved = false;
      }
      // The generated function also refuses what its 16-bit Nd2Nz/Fixpipe fields cannot hold.
      if (!solved || d.problem.m > 65535 || d.problem.n > 65535 || d.problem.k > 65535) {
        EXPECT_NE(rc, 0) << "trial " << trial;
        continue;
      }
      ASSERT_EQ(rc, 0) << "trial " << trial;
      std::uint64_t off = 0;
      std::memcpy(&off, data.data() + codegen::kSuperMemberOffsetsAt + 8 * cube, sizeof off);
      std::uint32_t head[2] = {0, 0};
      std::int64_t base[3] = {0, 0, 0};
      std::memcpy(head, data.data() + off, sizeof head);
      std::memcpy(base, data.data() + off + 8 + 4 * 8, sizeof base);  // after batch, m, n, k
      EXPECT_EQ(static_cast<int>(head[1]), d.chosen) << "trial " << trial;
      EXPECT_EQ(head[0], d.tiling.block_dim) << "trial " << trial;
      EXPECT_EQ(base[0], d.tiling.base_m) << "trial " << trial;
      EXPECT_EQ(base[1], d.tiling.base_n) << "trial " << trial;
      EXPECT_EQ(base[2], d.tiling.base_k) << "trial " << trial;
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
  RecordProperty("checked", checked);
}

// The cache returns what the solver would: repeated and interleaved shapes give the same data.
TEST(Pipeline, TilingCacheReturnsTheSolversDecision) {
  const auto path = af::test::SourceDir() / "tests" / "e2e" / "graphs" / "sum_ar.graph.txt";
  Options cached = TestOptions();
  cached.flags["autofuse_enable_tiling_cache"] = "1";
  Options plain = TestOptions();
  cached.build = false;
  plain.build = false;
  const CompileResult rc = Compile(path.string(), cached);
  const CompileResult rp = Compile(path.string(), plain);
  const auto lc = BuildTilingFunction(rc.kernels.at(0), cached);
  const auto lp = BuildTilingFunction(rp.kernels.at(0), plain);
  ASSERT_NE(lc, nullptr);
  ASSERT_NE(lp, nullptr);
  auto* fc = reinterpret_cast<TilingFn>(lc->Symbol(AF_COMPUTE_TILING_CASE_SYMBOL));
  auto* fp = reinterpret_cast<TilingFn>(lp->Symbol(AF_COMPUTE_TILING_CASE_SYMBOL));
  ASSERT_NE(fc, nullptr);
  ASSERT_NE(fp, nullptr);
  ASSERT_NE(rc.kernels[0].code.files[2].text.find("af_cache"), std::string::npos);
  ASSERT_EQ(rp.kernels[0].code.files[2].text.find("af_cache"), std::string::npos);
  std::mt19937_64 rng(5);
  const std::int64_t shapes[12][2] = {{7, 9},   {1000, 3},   {7, 9}, {3, 100003}, {1, 1}, {1000, 3},
                                      {64, 64}, {3, 100003}, {5, 5}, {6, 6},      {7, 7}, {7, 9}};
  for (int round = 0; round < 3; ++round) {
    for (const auto& sh : shapes) {
      const std::uint32_t cores = round == 1 ? 8u : 48u;
      std::vector<std::uint8_t> a(4096, 0);
      std::vector<std::uint8_t> b(4096, 0);
      ASSERT_EQ(fc(sh, 2, cores, 196608, -1, a.data(), a.size()), 0);
      ASSERT_EQ(fp(sh, 2, cores, 196608, -1, b.data(), b.size()), 0);
      ASSERT_EQ(a, b) << sh[0] << "x" << sh[1] << " round " << round;
    }
  }
}

// Never overflow: random shapes (1 to millions of elements, primes) on every test graph and
// every profile; each chosen tiling runs on the CPU runtime without a UB or bounds violation,
// gives the reference interpreter's values, and moves exactly the bytes and vector repeats the
// model predicted.
TEST(Pipeline, ChosenTilingsRunWithinBoundsAndMatchTheModel) {
  const auto graphs = E2eGraphs();
  std::mt19937_64 rng(99);
  const char* socs[] = {"ascend910b", "ascend910_93", "ascend950"};
  int ran = 0;
  for (std::size_t g = 0; g < graphs.size(); ++g) {
    const auto& path = graphs[g];
    SCOPED_TRACE(path.filename().string());
    for (int trial = 0; trial < 3; ++trial) {
      Options o = TestOptions();
      // One profile per graph, in turn (each profile runs a third of the graphs): the sizes are
      // not compiled in, so the three shapes of a graph share one kernel build.
      o.soc = socs[g % 3];
      const CompileResult probe = Compile(path.string(), [&] {
        Options q = o;
        q.build = false;
        return q;
      }());
      ASSERT_EQ(probe.kernels.size(), 1u);
      const auto syms = att::KernelSymbols(probe.kernels[0].schedule);
      // Up to ~2M elements in all. A concat keeps its dim and the dims after it whole in UB:
      // its graphs draw sizes up to 40.
      const bool whole_rows = probe.kernels[0].schedule.parts.dim.has_value();
      std::int64_t budget = 2000000;
      for (std::size_t i = 0; i < syms.size(); ++i) {
        const int left = static_cast<int>(syms.size() - i);
        const auto cap = static_cast<std::int64_t>(
            std::max(1.0, std::pow(static_cast<double>(budget), 1.0 / left)));
        std::int64_t v = RandomSize(rng, static_cast<int>(syms.size()));
        v = 1 + (v - 1) % (trial == 2 ? cap : std::min<std::int64_t>(cap, 4099));
        if (whole_rows) v = 1 + (v - 1) % 40;
        o.bindings[syms[i]] = v;
        budget = std::max<std::int64_t>(1, budget / v);
      }
      const CompileResult r = Compile(path.string(), o);
      ASSERT_TRUE(r.kernels.at(0).error.empty()) << r.kernels[0].error;
      RunOptions ro;
      ro.seed = static_cast<std::uint64_t>(trial);
      std::string where = o.soc;
      for (const auto& [n, v] : o.bindings)
        where += " " + n + "=" + std::to_string(v);
      const RunResult res = pipeline::Run(r.kernels[0], o, ro);
      // Reductions into fp16 may round one or two fp16 ulps (2^-9 relative) away from the
      // reference's fp32 summation order; anything beyond that is a failure. math_binary's
      // Floor/Remainder/FloorDiv/Fmod of a / b jump by one step wherever a / b is an integer,
      // and on random inputs the kernel's rounded division lands on the other side of some of
      // those jumps: its values are checked by the e2e test, whose inputs keep a / b away from
      // integers; here it checks bounds and counters only.
      const bool steps_at_integers = path.filename() == "math_binary.graph.txt";
      bool ok = !res.outputs.empty();
      for (std::size_t i = 0; i < res.outputs.size(); ++i) {
        const auto& c = res.outputs[i];
        if (c.ok) continue;
        ok = ok && data::CompareArrays(res.expected.at(i), res.actual.at(i), std::max(c.atol, 4e-3),
                                       std::max(c.rtol, 4e-3))
                       .ok;
      }
      EXPECT_TRUE(ok || steps_at_integers) << where;
      EXPECT_EQ(static_cast<std::int64_t>(res.mte2_bytes), res.model_mte2_bytes) << where;
      EXPECT_EQ(static_cast<std::int64_t>(res.mte3_bytes), res.model_mte3_bytes) << where;
      EXPECT_EQ(static_cast<std::int64_t>(res.vec_repeats), res.model_vec_repeats) << where;
      EXPECT_LE(res.ub_peak_bytes, static_cast<std::uint64_t>(hw::GetProfile(o.soc).ub_bytes));
      ++ran;
    }
  }
  EXPECT_EQ(ran, static_cast<int>(graphs.size()) * 3);
}

// inductor_npu_ext's entry points (docs/formats.md): AutofuseTiling fills the tiling our tiling
// function does, and AutofuseLaunch gives af_launch's outputs with it; a short tiling buffer or a
// missing output pointer is refused, not run.
TEST(Pipeline, NpuExtEntryPointsMatchOurs) {
  const auto path = af::test::SourceDir() / "tests" / "e2e" / "graphs" / "abs_add_relu.graph.txt";
  Options o = TestOptions();
  o.bindings["s0"] = 37;
  o.bindings["s1"] = 129;
  const CompileResult r = Compile(path.string(), o);
  ASSERT_EQ(r.kernels.size(), 1u);
  const Kernel& k = r.kernels[0];
  ASSERT_TRUE(k.error.empty()) << k.error;
  ASSERT_EQ(k.code.symbols, (std::vector<std::string>{"s0", "s1"}));
  ASSERT_EQ(k.code.input_nodes.size() + k.code.output_nodes.size(), 3u);
  using NpuTiling =
      std::int64_t (*)(std::int64_t, std::int64_t, void*, std::uint32_t*, std::uint32_t*, void*);
  using NpuLaunch = std::int64_t (*)(std::uint32_t, void*, void*, void*, void*, void*, void*);
  auto* tiling_fn = reinterpret_cast<NpuTiling>(k.library->Symbol("AutofuseTiling"));
  auto* launch_fn = reinterpret_cast<NpuLaunch>(k.library->Symbol("AutofuseLaunch"));
  auto* ours = reinterpret_cast<TilingFn>(k.library->Symbol(AF_COMPUTE_TILING_CASE_SYMBOL));
  ASSERT_NE(tiling_fn, nullptr);
  ASSERT_NE(launch_fn, nullptr);
  ASSERT_NE(ours, nullptr);
  const auto size =
      reinterpret_cast<std::uint64_t (*)()>(k.library->Symbol(AF_TILING_SIZE_SYMBOL))();
  std::vector<std::uint8_t> td(size, 0);
  std::vector<std::uint8_t> expect(size, 0);
  std::uint32_t ws = 7;
  std::uint32_t bd = 0;
  ASSERT_EQ(tiling_fn(37, 129, td.data(), &ws, &bd, nullptr), 0);
  const hw::Profile& p = hw::GetProfile(o.soc);
  const std::int64_t syms[] = {37, 129};
  ASSERT_EQ(ours(syms, 2, p.vector_cores, static_cast<std::uint64_t>(p.ub_bytes), -1, expect.data(),
                 expect.size()),
            0);
  EXPECT_EQ(td, expect);
  AfTilingHeader h{};
  std::memcpy(&h, td.data(), sizeof h);
  EXPECT_EQ(bd, h.block_dim);
  EXPECT_EQ(ws, 0u);  // elementwise: no workspace

  const std::size_t n = 37 * 129;
  std::vector<float> x(n);
  std::vector<float> y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(static_cast<int>(i % 23) - 11) * 0.5f;
    y[i] = static_cast<float>(static_cast<int>(i % 7) - 3) * 0.25f;
  }
  std::vector<float> out_npu(n, -1.0f);
  std::vector<float> out_ours(n, -2.0f);
  ASSERT_EQ(launch_fn(bd, nullptr, x.data(), y.data(), out_npu.data(), nullptr, td.data()), 0);
  std::uint8_t* gm[] = {reinterpret_cast<std::uint8_t*>(x.data()),
                        reinterpret_cast<std::uint8_t*>(y.data()),
                        reinterpret_cast<std::uint8_t*>(out_ours.data())};
  const std::uint64_t sizes[] = {n * 4, n * 4, n * 4};
  AfLaunchArgs a{};
  a.abi_version = AF_LAUNCH_ABI_VERSION;
  a.block_dim = bd;
  a.ub_bytes = static_cast<std::uint64_t>(p.ub_bytes);
  a.num_gm = 3;
  a.gm_ptrs = gm;
  a.gm_sizes = sizes;
  a.tiling = td.data();
  a.tiling_size = td.size();
  ASSERT_EQ(k.library->Launch(&a), AF_STATUS_OK) << a.error;
  EXPECT_EQ(out_npu, out_ours);
  EXPECT_NE(out_npu[0], -1.0f);
  // Refusals: no tiling data; an output buffer missing (NULL with a non-zero size).
  EXPECT_NE(launch_fn(bd, nullptr, x.data(), y.data(), out_npu.data(), nullptr, nullptr), 0);
  EXPECT_NE(launch_fn(bd, nullptr, x.data(), y.data(), nullptr, nullptr, td.data()), 0);
  EXPECT_NE(tiling_fn(37, 129, nullptr, &ws, &bd, nullptr), 0);
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
    const att::CaseSet set = att::BuildCases(sched, dims);
    for (int c = 0; c < 8; ++c) {
      Options oc = o;
      oc.flags["force_tiling_case"] = std::to_string(c);
      const bool fits =
          af_tiling::SolveCase(set.params[c], profile.vector_cores, profile.ub_bytes).ok;
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
  // Five transposed loads (innermost stride s0) each need a VECIN queue of their own for the
  // GM-order staging block; with two stores that exceeds the 4-queue budget of ascend910b.
  std::string text = af::test::ReadFile(af::test::SourceDir() / "tests" / "e2e" / "graphs" /
                                        "five_inputs_two_outputs.graph.txt");
  int loads = 0;
  for (std::size_t p = text.find(" : Load("); p != std::string::npos;
       p = text.find(" : Load(", p + 1)) {
    const std::string from = "repeats=(s0, s1) strides=(s1, 1)";
    const auto q = text.find(from, p);
    ASSERT_NE(q, std::string::npos);
    text.replace(q, from.size(), "repeats=(s0, s1) strides=(1, s0)");
    ++loads;
  }
  ASSERT_EQ(loads, 5);
  const auto dir = af::test::TempDir("refusal");
  const auto path = (dir / "t.graph.txt").string();
  std::ofstream(path) << text;
  const CompileResult r = Compile(path, TestOptions());
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].error_code, "TOO_MANY_STRIDED_LOADS");
  EXPECT_THAT(r.kernels[0].error, HasSubstr("5 strided loads"));
  EXPECT_THAT(ReportJson(r, TestOptions()), HasSubstr("TOO_MANY_STRIDED_LOADS"));
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
  for (const char* key : {"\"pipe_formulas\"", "\"binding\"", "\"head_cycles\"",
                          "\"model_mte2_bytes\"", "\"solver\": \"AxesReorder\"", "T_load"}) {
    EXPECT_THAT(json, HasSubstr(key));
  }
  // The formulas name each case's own tiling variables and price every pipe.
  for (const auto& c : r.kernels[0].schedule.cases) {
    const int i = static_cast<int>(&c - r.kernels[0].schedule.cases.data());
    const auto f = att::PipeFormulas(r.kernels[0].schedule, i, 1);
    ASSERT_EQ(f.size(), 5u);
    EXPECT_THAT(f[0], HasSubstr(c.tile_var));
    EXPECT_THAT(f[0], HasSubstr("MTE2 = "));
    EXPECT_THAT(f[2], HasSubstr("Add"));
    EXPECT_THAT(att::PipeFormulas(r.kernels[0].schedule, i, 2)[0], HasSubstr("1174.3"));
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
