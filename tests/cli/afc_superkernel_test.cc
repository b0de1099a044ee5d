// afc run / estimate --superkernel as a user runs them: a model graph's kernels in one launch,
// built and run on the CPU runtime and checked against the separate kernels (on drawn inputs when
// there is no case folder, and against the expected arrays of a case folder), one refusal per
// reason code, the modelled saving and its trace.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "afc_process.h"
#include "autofuse/data/host_array.h"
#include "autofuse/data/npy.h"
#include "fixtures.h"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;

using Result = af::test::AfcResult;
using af::test::Afc;
using af::test::Shell;

std::string Src(const std::string& rel) {
  return Shell((af::test::SourceDir() / rel).string());
}

std::string Fixture(const std::string& name) {
  return Src("tests/fixtures/superkernel/" + name);
}

// One kernel per op (5 AscIR nodes: Data, Load, op, Store, Output), so consecutive kernels exist
// without a fallback between them.
const char* kNoFusion = " --flags '--autofuse_max_fusion_size=5'";
// The same with reductions falling back.
const char* kNoReduce = " --flags '--autofuse_max_fusion_size=5;--autofuse_enable_pass=transpose'";

TEST(AfcSuperkernel, ChainOfThreeKernelsOnDrawnInputs) {
  const Result r = Afc("run " + Fixture("chain.fx_graph.py") + " --bind s0=1999" + kNoFusion +
                       " --superkernel --seed 3");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("inputs: drawn at random (seed 3)"));
  EXPECT_THAT(r.out, HasSubstr("superkernel [SUPERKERNEL_JOINED]: 3 kernels ("));
  EXPECT_THAT(r.out, HasSubstr(") in one launch, 1 SyncAll"));
  // 1999 rows: several blocks, all of which meet at the SyncAll.
  EXPECT_THAT(r.out, HasSubstr("super run: super kernel autofused_super_"));
  EXPECT_THAT(r.out, Not(HasSubstr("(3 kernels, 1 SyncAll): block_dim 1\n")));
  EXPECT_THAT(r.out, HasSubstr("superkernel: 1 super kernel(s), 1 kernel launches instead of 3; "
                               "3 kernel-written values compared, 0 differ"));
  EXPECT_THAT(r.out, HasSubstr("PASS super kernels = separate kernels on 3 values"));
}

TEST(AfcSuperkernel, WithoutTheFlagAGraphWithoutCaseFolderIsRefused) {
  const Result r = Afc("run " + Fixture("chain.fx_graph.py") + " --bind s0=37");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("needs a case directory"));
  const Result unbound = Afc("run " + Fixture("chain.fx_graph.py") + " --superkernel");
  EXPECT_EQ(unbound.code, 2);
  EXPECT_THAT(unbound.err, HasSubstr("is unbound: pass --bind s0=N"));
}

TEST(AfcSuperkernel, CaseFolderAgainstItsExpectedArrays) {
  const Result r =
      Afc("run " + Src("samples/torch/cases/layernorm") + kNoFusion + " --superkernel");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("drawn at random")));
  // Its two kernels sit between reference-evaluator ops: each runs alone, and the super run's
  // returned value is compared with the expected array too.
  EXPECT_THAT(r.out, HasSubstr("superkernel [SUPERKERNEL_FALLBACK_BETWEEN]"));
  EXPECT_THAT(r.out, HasSubstr(" 0 differ"));
  EXPECT_THAT(r.out, HasSubstr("PASS out0"));
  EXPECT_THAT(r.out, HasSubstr("super kernels = separate kernels on 2 values"));
}

TEST(AfcSuperkernel, FallbackBetweenKernelsEndsTheSegment) {
  const Result r = Afc("run " + Fixture("fallback.fx_graph.py") + kNoReduce + " --superkernel");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("superkernel [SUPERKERNEL_FALLBACK_BETWEEN]: kernel "));
  EXPECT_THAT(r.out, HasSubstr(" runs alone: op aten.sum.dim_IntList sum_1 runs on the reference "
                               "evaluator"));
  EXPECT_THAT(r.out, HasSubstr("superkernel [SUPERKERNEL_JOINED]: 2 kernels ("));
  EXPECT_THAT(r.out, HasSubstr(") in one launch, 0 SyncAll"));
  EXPECT_THAT(r.out, HasSubstr("PASS super kernels = separate kernels on 2 values"));
}

TEST(AfcSuperkernel, ViewsThatMoveNoDataAliasTheirSource) {
  // exp -> view -> unsqueeze -> permute (moving s0 past a size-1 dim) -> three kernels: the views
  // run on the reference evaluator but move no data, so the four kernels form one super kernel
  // whose members read exp's buffer under the views' shapes.
  const Result r = Afc("run " + Fixture("view_alias.fx_graph.py") + " --bind s0=37" + kNoFusion +
                       " --superkernel --seed 5");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("superkernel [SUPERKERNEL_VIEW_ALIASED]: aten.view.default view "
                               "[s0, 4, 33] -> [s0, 132] keeps its input's elements in order: a "
                               "kernel reading view reads the buffer of exp"));
  EXPECT_THAT(r.out, HasSubstr("superkernel [SUPERKERNEL_VIEW_ALIASED]: aten.permute.default "
                               "permute [s0, 1, 132] -> [1, s0, 132]"));
  EXPECT_THAT(r.out, HasSubstr("reads the buffer of exp"));
  EXPECT_THAT(r.out, HasSubstr("superkernel [SUPERKERNEL_JOINED]: 4 kernels ("));
  EXPECT_THAT(r.out, Not(HasSubstr("SUPERKERNEL_FALLBACK_BETWEEN")));
  EXPECT_THAT(r.out, HasSubstr("superkernel: 1 super kernel(s), 1 kernel launches instead of 4; "
                               "4 kernel-written values compared, 0 differ"));
  EXPECT_THAT(r.out, HasSubstr("PASS super kernels = separate kernels on 4 values"));
}

// The same graph as a case folder: the whole graph runs again with the super kernel, the views
// on the reference evaluator after it (they read exp, which the super kernel wrote), and the
// returned values are compared with expected arrays (computed here in double).
TEST(AfcSuperkernel, AliasedViewsInACaseFolder) {
  const auto dir = af::test::TempDir("superkernel_view_case");
  std::filesystem::create_directories(dir / "inputs");
  std::filesystem::create_directories(dir / "expected");
  std::filesystem::copy_file(
      af::test::SourceDir() / "tests/fixtures/superkernel/view_alias.fx_graph.py",
      dir / "fx_graph_readable.py");
  const std::int64_t rows = 29;
  const af::data::HostArray x =
      af::data::RandomArray(af::ir::DType::kFloat32, {rows, 4, 33}, 11, -2, 2);
  af::data::WriteNpy((dir / "inputs" / "arg0_1.npy").string(), x);
  std::vector<double> relu;
  std::vector<double> neg;
  std::vector<double> abs;
  for (const double v : af::data::ToDoubles(x)) {
    const double e = std::exp(v);
    relu.push_back(std::max(e, 0.0));
    neg.push_back(-e);
    abs.push_back(std::abs(e));
  }
  using af::data::FromDoubles;
  af::data::WriteNpy((dir / "expected" / "out0.npy").string(),
                     FromDoubles(af::ir::DType::kFloat32, {rows, 132}, relu));
  af::data::WriteNpy((dir / "expected" / "out1.npy").string(),
                     FromDoubles(af::ir::DType::kFloat32, {1, rows, 132}, neg));
  af::data::WriteNpy((dir / "expected" / "out2.npy").string(),
                     FromDoubles(af::ir::DType::kFloat32, {1, rows, 132}, abs));
  const Result r = Afc("run " + Shell(dir.string()) + kNoFusion + " --superkernel");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("drawn at random")));
  EXPECT_THAT(r.out, HasSubstr("superkernel [SUPERKERNEL_JOINED]: 4 kernels ("));
  EXPECT_THAT(r.out, HasSubstr("PASS out0"));
  EXPECT_THAT(r.out, HasSubstr("super kernels = separate kernels on 4 values"));
}

TEST(AfcSuperkernel, APermuteThatMovesDataEndsTheSegment) {
  // The plan only (afc estimate builds nothing): the transpose of arg1_1 between exp and relu cuts.
  const Result r = Afc("estimate " + Fixture("view_copies.fx_graph.py") + " --bind s0=37" +
                       kNoFusion + " --superkernel");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("superkernel [SUPERKERNEL_VIEW_COPIES]: kernel autofused_exp_"));
  EXPECT_THAT(r.out, HasSubstr(" runs alone: aten.permute.default permute moves data: [33, 4] -> "
                               "[4, 33] is not its input's elements in order"));
  EXPECT_THAT(r.out, Not(HasSubstr("SUPERKERNEL_VIEW_ALIASED")));
  EXPECT_THAT(r.out, HasSubstr("superkernel [SUPERKERNEL_JOINED]: 2 kernels ("));
  EXPECT_THAT(r.out, HasSubstr("(3 launches), super kernels "));
}

// The plans on the real MNIST (every model of the run) and ViT dumps: super kernels formed,
// kernels they cover, and every decision by reason code (docs/superkernel.md, "Figures"). Between
// any two consecutive kernels of these models, except the one pair of each MNIST backward graph,
// sits a convolution, pooling or matmul fallback: the aliased views form no new super kernel.
struct RealPlan {
  std::string folder;
  std::size_t super_kernels;
  std::size_t covered;
  int launches;
  std::map<std::string, int> decisions;
};

TEST(AfcSuperkernel, PlansOnTheRealMnistAndVitDumps) {
  AF_REQUIRE_REAL_FIXTURES();
  const std::string mnist =
      "inductor/t2.5.1_mnist_cnn_cpu_dynamic_fullrun/torch_compile_debug/"
      "run_2025_01_18_22_34_03_011403-pid_20001/torchinductor/";
  const std::string fb = "SUPERKERNEL_FALLBACK_BETWEEN";
  const std::vector<RealPlan> want = {
      // The backward graphs' transposed output is not fused (STORE_STRIDED_UNSUPPORTED): one more
      // kernel, and the fallback between it and the rest. The log_softmax backward and the column
      // sum after it are one multi-group kernel (the two kernels a super kernel joined before),
      // which runs alone.
      {mnist + "model__0_backward_3.1", 0, 0, 6, {{"SUPERKERNEL_MULTI_GROUP", 1}, {fb, 5}}},
      {mnist + "model__0_forward_1.0",
       0,
       0,
       5,
       {{fb, 3}, {"SUPERKERNEL_VIEW_ALIASED", 1}, {"SUPERKERNEL_VIEW_COPIES", 1}}},
      {mnist + "model__1_backward_6.3", 0, 0, 6, {{"SUPERKERNEL_MULTI_GROUP", 1}, {fb, 5}}},
      {mnist + "model__1_forward_5.2",
       0,
       0,
       5,
       {{fb, 3}, {"SUPERKERNEL_VIEW_ALIASED", 1}, {"SUPERKERNEL_VIEW_COPIES", 1}}},
      {mnist + "model__2_inference_7.4", 0, 0, 4, {{fb, 2}, {"SUPERKERNEL_VIEW_COPIES", 1}}},
      {"inductor/t2.0_vit_dynamic_layernorm_softmax_fp16",
       0,
       0,
       49,
       {{"SUPERKERNEL_VIEW_ALIASED", 36}, {"SUPERKERNEL_VIEW_COPIES", 49}}},
  };
  for (const RealPlan& w : want) {
    const Result r = Afc("estimate " + Shell((af::test::RealFixtures() / w.folder).string()) +
                         " --bind s0=2 --superkernel --json");
    ASSERT_EQ(r.code, 0) << w.folder << ": " << r.err;
    const auto j = nlohmann::json::parse(r.out);
    std::size_t covered = 0;
    for (const auto& s : j["super_kernels"])
      covered += s["members"].size();
    std::map<std::string, int> decisions;
    for (const auto& d : j["decisions"])
      ++decisions[d["code"].get<std::string>()];
    EXPECT_EQ(j["super_kernels"].size(), w.super_kernels) << w.folder;
    EXPECT_EQ(covered, w.covered) << w.folder;
    EXPECT_EQ(j["total"]["separate_launches"].get<int>(), w.launches) << w.folder;
    EXPECT_EQ(decisions, w.decisions) << w.folder;
  }
}

TEST(AfcSuperkernel, KernelThatSynchronisesAllCoresRunsAlone) {
  const Result r = Afc("run " + Fixture("hard_sync.fx_graph.py") + " --superkernel");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("superkernel [SUPERKERNEL_HARD_SYNC]: kernel "));
  EXPECT_THAT(r.out, HasSubstr("superkernel [SUPERKERNEL_JOINED]: 2 kernels"));
  EXPECT_THAT(r.out, HasSubstr("PASS super kernels = separate kernels on 2 values"));
}

TEST(AfcSuperkernel, NeedsAModelGraph) {
  const Result r = Afc("run " + Src("samples/hint_graphs/add_bcast_relu.AscGraphDef.txt") +
                       " --bind s0=4,s1=8 --superkernel");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--superkernel needs a model graph"));
  const Result e = Afc("estimate " + Src("samples/hint_graphs/add_bcast_relu.AscGraphDef.txt") +
                       " --superkernel");
  EXPECT_EQ(e.code, 2);
  EXPECT_THAT(e.err, HasSubstr("--superkernel needs a model graph"));
}

TEST(AfcSuperkernel, EstimateShowsEachTermAndWritesTheTrace) {
  const auto trace = af::test::TempDir("superkernel") / "trace.json";
  const Result r = Afc("estimate " + Fixture("chain.fx_graph.py") + " --bind s0=37" + kNoFusion +
                       " --superkernel --json --trace " + Shell(trace.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["super_kernels"].size(), 1u) << r.out;
  const auto& s = j["super_kernels"][0];
  EXPECT_EQ(s["members"].size(), 3u);
  EXPECT_EQ(s["syncs"], 1);
  EXPECT_EQ(s["independent"], 1);
  const double launch = j["model"]["launch_us"].get<double>();
  const double sync = j["model"]["sync_us"].get<double>();
  EXPECT_DOUBLE_EQ(s["launches_removed_us"].get<double>(), 2 * launch);
  EXPECT_DOUBLE_EQ(s["barriers_us"].get<double>(), sync);
  EXPECT_DOUBLE_EQ(s["early_start_us"].get<double>(), sync);
  EXPECT_NEAR(j["total"]["saving_us"].get<double>(), 2 * launch - sync, 1e-9);
  EXPECT_EQ(j["total"]["separate_launches"], 3);
  EXPECT_EQ(j["total"]["super_launches"], 1);
  const std::string t = af::test::ReadFile(trace);
  const auto tj = nlohmann::json::parse(t);
  EXPECT_THAT(t, HasSubstr("\"separate kernels\""));
  EXPECT_THAT(t, HasSubstr("\"super kernels\""));
  EXPECT_THAT(t, HasSubstr("\"SyncAll\""));
  EXPECT_GT(tj["traceEvents"].size(), 8u);
  const Result text = Afc("estimate " + Fixture("chain.fx_graph.py") + " --bind s0=37" + kNoFusion +
                          " --superkernel");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("super kernel 0 (3 kernels, 1 SyncAll, 1 independent)"));
  EXPECT_THAT(text.out, HasSubstr("(3 launches), super kernels "));
  const Result no_super =
      Afc("estimate " + Fixture("chain.fx_graph.py") + " --bind s0=37 --trace x");
  EXPECT_EQ(no_super.code, 2);
  EXPECT_THAT(no_super.err, HasSubstr("--trace goes with --superkernel"));
}

TEST(AfcSuperkernel, CompileWritesTheEstimateIntoTheReport) {
  const auto out = af::test::TempDir("superkernel") / "compile";
  const Result r = Afc("compile " + Fixture("chain.fx_graph.py") + " --bind s0=37" + kNoFusion +
                       " --no-build --force --superkernel --out " + Shell(out.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rep = nlohmann::json::parse(af::test::ReadFile(out / "report.json"));
  ASSERT_TRUE(rep.contains("superkernel")) << r.out;
  const auto& sk = rep["superkernel"];
  EXPECT_EQ(sk["code"], "SUPERKERNEL_ESTIMATED");
  EXPECT_EQ(sk["members"].size(), 3u);
  EXPECT_EQ(sk["segments"].size(), 1u);
  EXPECT_EQ(sk["super_launches"], 1);
  EXPECT_GT(sk["saving_us"].get<double>(), 0);
  // Unbound: the compile succeeds and the report says why there is no estimate.
  const Result u = Afc("compile " + Fixture("chain.fx_graph.py") + kNoFusion +
                       " --no-build --force --superkernel --out " + Shell(out.string()));
  ASSERT_EQ(u.code, 0) << u.err;
  const auto ur = nlohmann::json::parse(af::test::ReadFile(out / "report.json"));
  EXPECT_EQ(ur["superkernel"]["code"], "SUPERKERNEL_SIZES_UNBOUND");
  EXPECT_EQ(ur["kernels"].size(), 3u);
}

// torchair.scope.super_kernel marks in the input turn super kernels on without --superkernel and
// bound them: only kernels of one scope join (FX marker calls here; GE attributes below).
TEST(AfcSuperkernel, ScopesMarkedInAnFxGraphBoundTheSuperKernels) {
  const Result r = Afc("run " + Fixture("scopes.fx_graph.py") + " --bind s0=77");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("the input marks super-kernel scopes 'sk1'"));
  EXPECT_THAT(r.out, HasSubstr("[SUPERKERNEL_JOINED]: 2 kernels (autofused_exp_"));
  // neg is in the scope, relu (fused with it) is not.
  EXPECT_THAT(r.out, HasSubstr("[SUPERKERNEL_SCOPE_MIXED]: kernel autofused_neg_relu_"));
  EXPECT_THAT(r.out, HasSubstr("[SUPERKERNEL_OUTSIDE_SCOPE]: kernel autofused_tanh_"));
  EXPECT_THAT(r.out, HasSubstr("1 super kernel(s), 3 kernel launches instead of 4"));
  EXPECT_THAT(r.out, HasSubstr("PASS super kernels = separate kernels on 2 values"));
}

TEST(AfcSuperkernel, ScopesMarkedInAGeDumpAgainstItsExpectedArrays) {
  const std::string dir = "tests/fixtures/ge/cases/super_kernel_scopes/";
  for (const char* file :
       {"ge_onnx_super_kernel_scopes.pbtxt", "ge_proto_super_kernel_scopes.txt"}) {
    SCOPED_TRACE(file);
    const Result r = Afc("run " + Src(dir + file));
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("the input marks super-kernel scopes 'sk1', 'sk2'"));
    EXPECT_THAT(r.out, HasSubstr("[SUPERKERNEL_SCOPE_BOUNDARY]: super-kernel scope 'sk1' ends"));
    EXPECT_THAT(r.out, HasSubstr("[SUPERKERNEL_OUTSIDE_SCOPE]: kernel autofused_tanh_"));
    EXPECT_THAT(r.out, HasSubstr("2 super kernel(s), 3 kernel launches instead of 5; "
                                 "5 kernel-written values compared, 0 differ"));
    EXPECT_THAT(r.out, HasSubstr("PASS out0 (sk1/Exp)"));
  }
  const Result e = Afc("estimate " + Src(dir + "ge_onnx_super_kernel_scopes.pbtxt"));
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_THAT(e.out, HasSubstr("super kernel 1 (2 kernels, 0 SyncAll, 1 independent)"));
  EXPECT_THAT(e.out, HasSubstr("(5 launches), super kernels "));
}

}  // namespace
