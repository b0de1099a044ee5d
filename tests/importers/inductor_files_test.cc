// The other Inductor readers on our fixtures and the real dumps: output_code.py (kernels, their
// provenance comments, npu_ext artifacts, launches and extern calls), torch_compile_debug
// discovery at every level, inductor_npu_ext asc_graph.py (single- and multi-graph layouts) and
// its Lowered/Fallback log lines.
#include <gtest/gtest.h>

#include <iostream>

#include "autofuse/importers/asc_graph_py.h"
#include "autofuse/importers/debug_dir.h"
#include "autofuse/importers/npu_ext_log.h"
#include "autofuse/importers/output_code.h"
#include "autofuse/support/error.h"
#include "fixtures.h"

namespace af::importers::inductor {
namespace {

namespace fs = std::filesystem;

fs::path Ours(const std::string& name) {
  return test::OurFixtures() / "inductor" / name;
}

const fs::path kRun =
    fs::path("tcd") / "torch_compile_debug" / "run_2026_01_01_00_00_00_000001-pid_42";
const fs::path kModel = kRun / "torchinductor" / "model__0_inference_0.0";

TEST(OutputCode, Torch20Triton) {
  const OutputCode oc = LoadOutputCodeFile(Ours("output_code_2.0_triton.py"));
  ASSERT_EQ(oc.kernels.size(), 2u);
  EXPECT_EQ(oc.kernels[0].name, "triton__0");
  EXPECT_EQ(oc.kernels[0].backend, "triton");
  EXPECT_GT(oc.kernels[0].source_bytes, 50u);
  EXPECT_EQ(oc.kernel_launches, 2);
  EXPECT_EQ(oc.extern_calls.at("mm"), 1);
}

TEST(OutputCode, Torch25CppWithProvenance) {
  const OutputCode oc = LoadOutputCodeFile(Ours("output_code_2.5_cpp.py"));
  EXPECT_EQ(oc.aot_id, "['0_inference']");
  ASSERT_EQ(oc.kernels.size(), 2u);
  const OutputKernel& k = oc.kernels[0];
  EXPECT_EQ(k.backend, "cpp_pybinding");
  EXPECT_EQ(k.kernel_path, "/tmp/torchinductor_x/ab/cab.py");
  EXPECT_EQ(k.source_nodes, (std::vector<std::string>{"x", "relu"}));
  EXPECT_EQ(k.aten_ops, (std::vector<std::string>{"aten.add", "aten.relu"}));
  EXPECT_EQ(k.graph_fragment.size(), 2u);
  EXPECT_EQ(oc.kernels[1].backend, "cpp");
  EXPECT_EQ(oc.kernels[1].source_nodes, std::vector<std::string>{"y"});
  EXPECT_EQ(oc.kernel_launches, 2);
}

TEST(OutputCode, NpuExtArtifacts) {
  const OutputCode oc = LoadOutputCodeFile(Ours("output_code_npu_ext.py"));
  ASSERT_EQ(oc.kernels.size(), 1u);
  const OutputKernel& k = oc.kernels[0];
  EXPECT_EQ(k.backend, "ascendc");
  EXPECT_EQ(k.aten_ops, (std::vector<std::string>{"aten.add", "aten.sum"}));
  ASSERT_EQ(k.artifacts.size(), 5u);
  EXPECT_EQ(k.artifacts.at("name"), k.name);
  EXPECT_NE(k.artifacts.at("tiling_def").find("struct AutofuseTilingData"), std::string::npos);
  EXPECT_NE(k.artifacts.at("device_impl").find("AutofuseLaunch"), std::string::npos);
  EXPECT_EQ(oc.kernel_launches, 1);
}

TEST(OutputCode, UnterminatedSourceIsAnError) {
  try {
    ParseOutputCode("async_compile = AsyncCompile()\nk = async_compile.triton('''\nx\n", "o.py");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 2);
  }
}

TEST(DebugDir, EveryLevelOfOurTree) {
  const fs::path base = test::OurFixtures() / "inductor";
  const DebugTree root = DiscoverDebugDump(base / "tcd" / "torch_compile_debug");
  EXPECT_EQ(root.layout, "torch_compile_debug root");
  ASSERT_EQ(root.models.size(), 2u);
  EXPECT_EQ(root.torch_version, "2.8.0+cpu");
  EXPECT_EQ(root.version_source, "fx_graph_runnable.py");
  EXPECT_EQ(root.FileCount(DumpFileKind::kOutputCode), 2);
  EXPECT_EQ(root.FileCount(DumpFileKind::kAscGraphPy), 1);
  EXPECT_EQ(DiscoverDebugDump(base / kRun).layout, "run folder");
  EXPECT_EQ(DiscoverDebugDump(base / kRun / "torchinductor").layout, "torchinductor folder");
  const DebugTree model = DiscoverDebugDump(base / kModel);
  EXPECT_EQ(model.layout, "model folder");
  ASSERT_EQ(model.models.size(), 1u);
  EXPECT_EQ(model.models[0].graph, "inference");
  EXPECT_EQ(model.models[0].model, "model");
  EXPECT_EQ(model.models[0].autofused_dirs.size(), 1u);
  EXPECT_NE(model.models[0].Find(DumpFileKind::kIrPreFusion), nullptr);
  const DebugTree old =
      DiscoverDebugDump(base / "tcd" / "torch_compile_debug" / "renamed_debug_run_2023_01_01");
  EXPECT_EQ(old.layout, "run folder");
  EXPECT_EQ(old.torch_version, "2.0");
  EXPECT_EQ(old.version_source, "sniffed from ir_post_fusion.txt");
  const DebugTree one = DiscoverDebugDump(base / "npu_ext_debug.log");
  EXPECT_EQ(one.layout, "single file");
  EXPECT_EQ(one.models[0].files[0].kind, DumpFileKind::kIrText);
  EXPECT_THROW(DiscoverDebugDump(base / "no_such_dir"), InputError);
  EXPECT_THROW(DiscoverDebugDump(test::OurFixtures() / "fx" / "README.md"), InputError);
}

TEST(DebugDirReal, NamingSchemesAndVersions) {
  AF_REQUIRE_REAL_FIXTURES();
  const fs::path ind = test::RealFixtures() / "inductor";
  const DebugTree full = DiscoverDebugDump(ind / "t2.5.1_mnist_cnn_cpu_dynamic_fullrun");
  EXPECT_EQ(full.torch_version, "2.5.1+cu124");
  EXPECT_EQ(full.models.size(), 5u);
  int fwd = 0;
  for (const auto& m : full.models) {
    fwd += m.graph == "forward" ? 1 : 0;
    EXPECT_EQ(m.torch_version, "2.5.1+cu124") << m.name;
  }
  EXPECT_EQ(fwd, 2);
  EXPECT_EQ(full.FileCount(DumpFileKind::kOutputCode), 5);
  const DebugTree gernet = DiscoverDebugDump(ind / "t2.0_gernet_l_fwd_logsoftmax_nll");
  EXPECT_EQ(gernet.torch_version.rfind("2.0.0", 0), 0u);
  const DebugTree npu = DiscoverDebugDump(ind / "t2.8_npu_ext_manual_log_excerpt");
  EXPECT_EQ(npu.FileCount(DumpFileKind::kIrText), 2);
}

TEST(AscGraphPy, SingleGraphLayout) {
  const AscGraphPy a = LoadAscGraphPyFile(Ours(
      (kModel / "autofused_add_sum_0123456789abcdef0123456789abcdef" / "asc_graph.py").string()));
  ASSERT_EQ(a.graphs.size(), 2u);
  const AscPyGraph& h = a.graphs[0];
  EXPECT_FALSE(h.fused);
  EXPECT_EQ(h.name, "graph_hint");
  ASSERT_EQ(h.axes.size(), 2u);
  EXPECT_EQ(h.axes[1], (std::pair<std::string, std::string>{"a1", "32"}));
  ASSERT_EQ(h.nodes.size(), 9u);
  const AscPyNode& add = h.nodes[5];
  EXPECT_EQ(add.type, "Add");
  EXPECT_EQ(add.name, "add");
  ASSERT_EQ(add.inputs.size(), 2u);
  EXPECT_EQ(add.inputs[1], (std::pair<std::string, std::string>{"x2", "broadcast.y"}));
  ASSERT_NE(add.Attr("y.strides"), nullptr);
  EXPECT_EQ(*add.Attr("y.strides"), "[32, 1]");
  EXPECT_EQ(*h.nodes[3].Attr("y.strides"), "[0, 1]");
  const AscPyGraph& f = a.graphs[1];
  EXPECT_TRUE(f.fused);
  ASSERT_EQ(f.nodes.size(), 4u);
  EXPECT_EQ(f.nodes[0].type, "AscBackend");
  EXPECT_EQ(*f.nodes[0].Attr("hint_graph"), "graph_hint");
  EXPECT_NE(a.hint_block.find("op0: SchedulerNode"), std::string::npos);
}

TEST(AscGraphPy, OldMultiGraphLayout) {
  const AscGraphPy a = LoadAscGraphPyFile(Ours("asc_graph_multi.py"));
  EXPECT_EQ(a.CountGraphs(false), 2);
  EXPECT_EQ(a.CountGraphs(true), 1);
  EXPECT_EQ(a.graphs[0].sizes, std::vector<std::string>{"ks0"});
  EXPECT_EQ(a.graphs[1].sizes, std::vector<std::string>{"ks0"});
  EXPECT_EQ(a.graphs[1].axes[0].second, "Mod(ks0, 8)");
  EXPECT_EQ(*a.graphs[0].nodes[3].Attr("y.offset"), "ks0 / 2");
  EXPECT_EQ(a.graphs[2].nodes.size(), 2u);
  EXPECT_THROW(ParseAscGraphPy("x = ascir.ops.Add('g/add', g)\n", "a.py"), InputError);
  EXPECT_THROW(ParseAscGraphPy("g = ascir.HintGraph('g')\n'''\nopen", "a.py"), InputError);
}

TEST(NpuExtLog, LoweredAndFallbackLines) {
  const auto recs = ParseLoweringSummary(test::ReadFile(Ours("npu_ext_debug.log")));
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_FALSE(recs[0].fallback);
  EXPECT_EQ(recs[0].op, "aten.mul.Tensor");
  EXPECT_TRUE(recs[1].fallback);
  EXPECT_EQ(recs[1].count, 2);
  EXPECT_EQ(recs[1].op, "aten.cumsum.default");
  EXPECT_EQ(recs[1].reason, "not in lowering whitelist");
}

TEST(NpuExtLogReal, ManualExcerpt) {
  AF_REQUIRE_REAL_FIXTURES();
  const auto recs = ParseLoweringSummary(
      test::ReadFile(test::RealFixtures() / "inductor" / "t2.8_npu_ext_manual_log_excerpt" /
                     "npu_ext_debug_log_blocks.txt"));
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].op, "aten.add.Tensor");
  EXPECT_EQ(recs[1].op, "aten.sum.default");
}

TEST(OutputCodeReal, KernelsAndProvenance) {
  AF_REQUIRE_REAL_FIXTURES();
  int total = 0;
  for (const auto& f : test::FilesUnder(test::RealFixtures() / "inductor", {"output_code.py"})) {
    const std::string text = test::ReadFile(f);
    EXPECT_TRUE(LooksLikeOutputCode(text)) << f;
    const OutputCode oc = ParseOutputCode(text, f.string());
    int with_aten = 0;
    for (const auto& k : oc.kernels)
      with_aten += k.aten_ops.empty() ? 0 : 1;
    std::cout << fs::relative(f, test::RealFixtures()).string() << ": " << oc.kernels.size()
              << " kernels (" << with_aten << " with aten provenance), " << oc.kernel_launches
              << " launches\n";
    EXPECT_EQ(oc.kernel_launches >= static_cast<int>(oc.kernels.size()), true) << f;
    total += static_cast<int>(oc.kernels.size());
  }
  EXPECT_EQ(total, 38);
}

}  // namespace
}  // namespace af::importers::inductor
