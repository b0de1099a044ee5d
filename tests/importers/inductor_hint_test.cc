// Inductor kernel groups as hint graphs: our pointwise and sum fixtures lower to graphs that
// validate and compute what the loop bodies say (run by the reference interpreter); transposed
// reads become strided Load views (golden hint text); indirect and masked indexing, transposed
// stores, templates and the 2.0 names-only fused form are refused with a reason; on the real
// dumps every group is either a valid graph or has a reason, and the ViT counts are pinned.
// asc_graph.py hint graphs convert and compute too.
#include "autofuse/importers/inductor_hint.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "autofuse/importers/asc_graph_py.h"
#include "autofuse/interp/interpreter.h"
#include "autofuse/ir/text.h"
#include "autofuse/ir/validate.h"
#include "fixtures.h"

namespace af::importers::inductor {
namespace {

std::map<std::string, int> Types(const ir::Graph& g) {
  std::map<std::string, int> t;
  for (const auto& n : g.nodes)
    ++t[n.type];
  return t;
}

TEST(InductorHint, PointwiseGroupLowersAndComputes) {
  const IrFile f =
      LoadInductorIrFile(test::OurFixtures() / "inductor" / "pointwise_bcast.ir_post_fusion.txt");
  const auto groups = BuildHintGraphs(f);
  ASSERT_EQ(groups.size(), 1u);  // the extern node is not a kernel group
  ASSERT_TRUE(groups[0].graph.has_value()) << groups[0].reason;
  const ir::Graph& g = *groups[0].graph;
  EXPECT_FALSE(ir::HasErrors(ir::Validate(g)));
  EXPECT_EQ(g.axes.size(), 2u);
  const std::map<std::string, int> want = {{"Data", 2}, {"Load", 2},  {"Broadcast", 1},
                                           {"Add", 1},  {"Relu", 1},  {"Scalar", 1},
                                           {"Mul", 1},  {"Store", 1}, {"Output", 1}};
  EXPECT_EQ(Types(g), want);  // buf0 stays inside the kernel: no Store for it
  const sym::Bindings b = {{"s0", 3}};
  data::HostArray x{ir::DType::kFloat32, {3, 8}, std::vector<std::uint8_t>(3 * 8 * 4)};
  data::HostArray y{ir::DType::kFloat32, {1, 8}, std::vector<std::uint8_t>(8 * 4)};
  for (int i = 0; i < 24; ++i)
    x.SetFromDouble(i, i - 12.0);
  for (int i = 0; i < 8; ++i)
    y.SetFromDouble(i, 0.5 * i);
  const auto out = interp::Interpret(g, b, {x, y});
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].numel(), 24);
  for (int i = 0; i < 24; ++i) {
    const double v = (i - 12.0) + 0.5 * (i % 8);
    EXPECT_DOUBLE_EQ(out[0].GetAsDouble(i), 2.0 * (v > 0 ? v : 0.0)) << i;
  }
}

TEST(InductorHint, ReductionLowersKeptDimAndComputes) {
  // The NPU add + sum of our torch_compile_debug tree: (x f32[8, 32] + y f32[1, 32]).sum()
  const IrFile f =
      LoadInductorIrFile(test::OurFixtures() / "inductor" / "tcd" / "torch_compile_debug" /
                         "run_2026_01_01_00_00_00_000001-pid_42" / "torchinductor" /
                         "model__0_inference_0.0" / "ir_post_fusion.txt");
  const auto groups = BuildHintGraphs(f);
  ASSERT_EQ(groups.size(), 1u);
  ASSERT_TRUE(groups[0].graph.has_value()) << groups[0].reason;
  const ir::Graph& g = *groups[0].graph;
  const std::map<std::string, int> want = {{"Data", 2}, {"Load", 2},  {"Broadcast", 1}, {"Add", 1},
                                           {"Sum", 1},  {"Store", 1}, {"Output", 1}};
  EXPECT_EQ(Types(g), want);
  data::HostArray x{ir::DType::kFloat32, {8, 32}, std::vector<std::uint8_t>(8 * 32 * 4)};
  data::HostArray y{ir::DType::kFloat32, {1, 32}, std::vector<std::uint8_t>(32 * 4)};
  double sum = 0;
  for (int i = 0; i < 256; ++i) {
    x.SetFromDouble(i, 0.125 * (i % 5));
    sum += 0.125 * (i % 5);
  }
  for (int i = 0; i < 32; ++i) {
    y.SetFromDouble(i, 1.0 + i % 2);
    sum += 8 * (1.0 + i % 2);
  }
  const auto out = interp::Interpret(g, {}, {x, y});
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].numel(), 1);
  EXPECT_NEAR(out[0].GetAsDouble(0), sum, 1e-3);
}

// Transposed and permuted reads (a bmm/addmm output read through a permuted view) are Load views
// with the index expression's strides in loop order, however they are ordered: op1 reads a
// [s0, 24] buffer transposed (innermost stride 24), op3 reads two 16-wide heads of an fp16
// [s0, 48] buffer from column 16 on (outer dims permuted, offset 16). The Data of such a read is
// the flat buffer. A transposed store (op4) is still refused.
TEST(InductorHint, TransposedReadsAreStridedLoadViews) {
  const auto dir = test::OurFixtures() / "inductor" / "transposed_read";
  const auto groups = BuildHintGraphs(LoadInductorIrFile(dir / "ir_post_fusion.txt"));
  // golden: each lowered group's readable text is expected/<group>.graph.txt
  for (const auto& h : groups) {
    if (!h.graph) continue;
    EXPECT_FALSE(ir::HasErrors(ir::Validate(*h.graph))) << h.name;
    const auto golden = dir / "expected" / (h.name + ".graph.txt");
    const std::string got = ir::DumpText(*h.graph);
    if (got != test::ReadFile(golden)) {
      const auto actual = test::TempDir("transposed_read") / (h.name + ".graph.txt");
      std::ofstream(actual) << got;
      ADD_FAILURE() << h.name << ": hint text differs from " << golden << "; actual in " << actual;
    }
  }
  ASSERT_EQ(groups.size(), 3u);
  ASSERT_TRUE(groups[0].graph.has_value()) << groups[0].reason;
  ASSERT_TRUE(groups[1].graph.has_value()) << groups[1].reason;
  EXPECT_EQ(groups[2].reason, "store of buf4 writes transposed (not lowered yet)");
  // op1: out[i, j] = relu(x[j, i] + b[j]), x = buf0 [s0, 24], out [24, s0]
  constexpr std::int64_t kS0 = 5;
  const auto bytes = [](std::int64_t n) {
    return std::vector<std::uint8_t>(static_cast<std::size_t>(n));
  };
  data::HostArray x{ir::DType::kFloat32, {kS0 * 24, 1}, bytes(kS0 * 24 * 4)};
  data::HostArray b{ir::DType::kFloat32, {1, kS0}, bytes(kS0 * 4)};
  for (std::int64_t i = 0; i < kS0 * 24; ++i)
    x.SetFromDouble(i, 0.5 * static_cast<double>(i % 13) - 2.0);
  for (std::int64_t j = 0; j < kS0; ++j)
    b.SetFromDouble(j, 0.25 * static_cast<double>(j));
  const auto out = interp::Interpret(*groups[0].graph, {{"s0", kS0}}, {x, b});
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].numel(), 24 * kS0);
  for (std::int64_t i = 0; i < 24; ++i) {
    for (std::int64_t j = 0; j < kS0; ++j) {
      const double v = x.GetAsDouble(j * 24 + i) + b.GetAsDouble(j);
      EXPECT_DOUBLE_EQ(out[0].GetAsDouble(i * kS0 + j), v > 0 ? v : 0.0) << i << "," << j;
    }
  }
  // op3: out[h, r, c] = 0.25 * y[r, 16 + 16 h + c], y = buf2 fp16 [s0, 48]; the Data holds
  // elements up to the last one read (48 s0 of them).
  const auto in3 = interp::InputShapes(*groups[1].graph, {{"s0", kS0}});
  ASSERT_EQ(in3.size(), 1u);
  EXPECT_EQ(in3[0].shape, (std::vector<std::int64_t>{48 * kS0, 1, 1}));
  data::HostArray y{ir::DType::kFloat16, {48 * kS0, 1, 1}, bytes(48 * kS0 * 2)};
  for (std::int64_t i = 0; i < 48 * kS0; ++i)
    y.SetFromDouble(i, static_cast<double>(i % 48));
  const auto out3 = interp::Interpret(*groups[1].graph, {{"s0", kS0}}, {y});
  ASSERT_EQ(out3.size(), 1u);
  ASSERT_EQ(out3[0].numel(), 32 * kS0);
  for (std::int64_t h = 0; h < 2; ++h) {
    for (std::int64_t r = 0; r < kS0; ++r) {
      for (std::int64_t c = 0; c < 16; ++c) {
        EXPECT_DOUBLE_EQ(out3[0].GetAsDouble((h * kS0 + r) * 16 + c),
                         0.25 * static_cast<double>(16 + 16 * h + c))
            << h << "," << r << "," << c;
      }
    }
  }
}

TEST(InductorHint, UnsupportedGroupsGiveReasons) {
  const auto reason = [](const std::string& file) {
    const auto gs = BuildHintGraphs(LoadInductorIrFile(test::OurFixtures() / "inductor" / file));
    std::string all;
    for (const auto& g : gs)
      all += g.graph ? "lowered;" : g.reason + ";";
    return all;
  };
  EXPECT_NE(reason("v2.0_buf_names.ir_post_fusion.txt").find("members' names"), std::string::npos);
  EXPECT_NE(reason("v2.0_buf_names.ir_post_fusion.txt").find("dtype of primals_2"),
            std::string::npos);
  EXPECT_NE(reason("v2.3_indented_snodes.ir_post_fusion.txt").find("another loop nest"),
            std::string::npos);
  // op1 reads buf0 permuted (a strided Load view now); its welford reduction is not lowered
  EXPECT_NE(reason("v2.6_op_names.ir_post_fusion.txt").find("reduction welford_reduce"),
            std::string::npos);
  EXPECT_NE(reason("v2.6_op_names.ir_post_fusion.txt").find("template"), std::string::npos);
}

// torch 2.0: the post-fusion fused node lists only its members' names; their loop bodies are the
// nodes of ir_pre_fusion.txt.
TEST(InductorHint, Torch20FusedNodeTakesMembersFromPreFusion) {
  const std::string post = R"(buf0_buf1: FusedSchedulerNode(NoneType)
buf0_buf1.writes = [MemoryDep(name='buf1', index=c0, size=(32,))]
buf0_buf1.unmet_dependencies = []
buf0_buf1.met_dependencies = [MemoryDep(name='arg0_1', index=c0, size=(32,))]
buf0_buf1.snodes = ['buf0', 'buf1']
)";
  const std::string pre = R"(buf0: SchedulerNode(ComputedBuffer)
buf0.writes = [MemoryDep(name='buf0', index=c0, size=(32,))]
buf0.unmet_dependencies = []
buf0.met_dependencies = [MemoryDep(name='arg0_1', index=c0, size=(32,))]
buf0.group.device = cuda:0
buf0.group.iteration = (32, 1)
buf0.sizes = ([32], [])
arg0_1_layout = FixedLayout('cuda', torch.float32, size=[32], stride=[1])
buf0_layout = FixedLayout('cuda', torch.float32, size=[32], stride=[1])
class buf0_loop_body:
    var_ranges = {z0: 32}
    index0 = z0
    def body(self, ops):
        get_index = self.get_index('index0')
        load = ops.load('arg0_1', get_index)
        relu = ops.relu(load)
        get_index_1 = self.get_index('index0')
        store = ops.store('buf0', get_index_1, relu, None)
        return store


buf1: SchedulerNode(ComputedBuffer)
buf1.writes = [MemoryDep(name='buf1', index=c0, size=(32,))]
buf1.unmet_dependencies = [MemoryDep(name='buf0', index=c0, size=(32,))]
buf1.met_dependencies = []
buf1.group.device = cuda:0
buf1.group.iteration = (32, 1)
buf1.sizes = ([32], [])
buf0_layout = FixedLayout('cuda', torch.float32, size=[32], stride=[1])
buf1_layout = FixedLayout('cuda', torch.float32, size=[32], stride=[1])
class buf1_loop_body:
    var_ranges = {z0: 32}
    index0 = z0
    def body(self, ops):
        get_index = self.get_index('index0')
        load = ops.load('buf0', get_index)
        exp = ops.exp(load)
        get_index_1 = self.get_index('index0')
        store = ops.store('buf1', get_index_1, exp, None)
        return store
)";
  const IrFile post_ir = ParseInductorIr(post, "ir_post_fusion.txt");
  const IrFile pre_ir = ParseInductorIr(pre, "ir_pre_fusion.txt");
  const auto without = BuildHintGraphs(post_ir, nullptr);
  ASSERT_EQ(without.size(), 1u);
  EXPECT_FALSE(without[0].graph.has_value());
  EXPECT_NE(without[0].reason.find("members' names"), std::string::npos);
  const auto groups = BuildHintGraphs(post_ir, &pre_ir);
  ASSERT_EQ(groups.size(), 1u);
  ASSERT_TRUE(groups[0].graph.has_value()) << groups[0].reason;
  const auto types = Types(*groups[0].graph);
  EXPECT_EQ(types.count("Relu"), 1u);
  EXPECT_EQ(types.count("Exp"), 1u);
  data::HostArray x{ir::DType::kFloat32, {32}, std::vector<std::uint8_t>(32 * 4)};
  for (int i = 0; i < 32; ++i)
    x.SetFromDouble(i, i - 16.0);
  const auto out = interp::Interpret(*groups[0].graph, {}, {x});
  ASSERT_FALSE(out.empty());
  const auto& y = out.back();
  ASSERT_EQ(y.numel(), 32);
  for (int i = 0; i < 32; ++i) {
    const double want = std::exp(std::max(i - 16.0, 0.0));
    EXPECT_NEAR(y.GetAsDouble(i), want, 1e-6 * want) << i;  // float32 exp
  }
}

TEST(AscGraphPyHint, SingleGraphLayoutConvertsAndComputes) {
  const auto path = test::OurFixtures() / "inductor" / "tcd" / "torch_compile_debug" /
                    "run_2026_01_01_00_00_00_000001-pid_42" / "torchinductor" /
                    "model__0_inference_0.0" /
                    "autofused_add_sum_0123456789abcdef0123456789abcdef" / "asc_graph.py";
  const AscGraphPy a = LoadAscGraphPyFile(path);
  ASSERT_EQ(a.graphs.size(), 2u);
  const AscPyHint h = ToHintGraph(a.graphs[0]);
  ASSERT_TRUE(h.graph.has_value()) << h.reason;
  EXPECT_FALSE(ToHintGraph(a.graphs[1]).graph.has_value());  // the FusedGraph
  const ir::Graph& g = *h.graph;
  EXPECT_EQ(g.axes.size(), 2u);
  EXPECT_EQ(g.nodes.size(), 9u);
  // (x f32[8, 32] + y f32[1, 32]).sum()
  data::HostArray x{ir::DType::kFloat32, {8, 32}, std::vector<std::uint8_t>(8 * 32 * 4)};
  data::HostArray y{ir::DType::kFloat32, {1, 32}, std::vector<std::uint8_t>(32 * 4)};
  double want = 0;
  for (int i = 0; i < 256; ++i) {
    x.SetFromDouble(i, 0.25 * (i % 7));
    want += 0.25 * (i % 7);
  }
  for (int i = 0; i < 32; ++i) {
    y.SetFromDouble(i, 0.5 * (i % 3));
    want += 8 * 0.5 * (i % 3);
  }
  const auto out = interp::Interpret(g, {}, {x, y});
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].numel(), 1);
  EXPECT_NEAR(out[0].GetAsDouble(0), want, 1e-3);
}

TEST(AscGraphPyHint, MultiGraphLayoutAndRefusals) {
  const AscGraphPy a = LoadAscGraphPyFile(test::OurFixtures() / "inductor" / "asc_graph_multi.py");
  const AscPyHint g0 = ToHintGraph(a.graphs[0]);
  ASSERT_TRUE(g0.graph.has_value()) << g0.reason;
  EXPECT_EQ(g0.graph->size_vars.size(), 1u);
  EXPECT_EQ(g0.graph->axes[0].size.ToString(), "ks0");
  AscPyGraph bad = a.graphs[0];
  bad.nodes[2].type = "NoSuchOp";
  EXPECT_NE(ToHintGraph(bad).reason.find("unknown AscIR op"), std::string::npos);
}

TEST(InductorHintReal, EveryGroupIsAGraphOrHasAReason) {
  AF_REQUIRE_REAL_FIXTURES();
  int lowered = 0;
  int refused = 0;
  for (const auto& p : test::FilesUnder(test::RealFixtures() / "inductor", {".txt"})) {
    if (p.filename().string().find("post_fusion") == std::string::npos) continue;
    for (const auto& h : BuildHintGraphs(LoadInductorIrFile(p))) {
      if (h.graph) {
        EXPECT_FALSE(ir::HasErrors(ir::Validate(*h.graph))) << h.name;
        // It runs in the reference interpreter on small sizes and finite inputs.
        sym::Bindings b;
        for (const auto& v : h.graph->size_vars)
          b[v.name] = 3;
        std::vector<data::HostArray> ins;
        for (const auto& spec : interp::InputShapes(*h.graph, b)) {
          data::HostArray a{spec.dtype, spec.shape, {}};
          a.bytes.resize(static_cast<std::size_t>(a.numel() * a.itemsize()));
          for (std::int64_t i = 0; i < a.numel(); ++i)
            a.SetFromDouble(i, 0.01 * static_cast<double>(i % 17) - 0.05);
          ins.push_back(std::move(a));
        }
        EXPECT_NO_THROW(interp::Interpret(*h.graph, b, ins)) << p << " " << h.name;
        ++lowered;
      } else {
        EXPECT_FALSE(h.reason.empty()) << h.name;
        ++refused;
      }
    }
  }
  std::cout << lowered << " Inductor groups lowered to hint graphs, " << refused
            << " not lowered (with reasons)\n";
  EXPECT_GE(lowered, 10);
}

// Figures of docs/formats.md. ViT (torch 2.0): the 48 groups that read bmm/addmm outputs through
// permuted views lower to strided Load views; what still falls back is 25 groups mixing two loop
// nests (layernorm) and 2 stores into slices of the concat buffer. MNIST (2.5.1): 12 of 35.
TEST(InductorHintReal, VitAndMnistCounts) {
  AF_REQUIRE_REAL_FIXTURES();
  const auto count = [](const std::filesystem::path& dir) {
    std::map<std::string, int> c;
    for (const auto& p : test::FilesUnder(dir, {"ir_post_fusion.txt"})) {
      for (const auto& h : BuildHintGraphs(LoadInductorIrFile(p))) {
        ++c[h.graph ? "lowered" : "refused"];
        for (const char* k : {"reads transposed", "writes transposed", "another loop nest",
                              "slice of a concat buffer"})
          c[k] += h.reason.find(k) != std::string::npos ? 1 : 0;
      }
    }
    return c;
  };
  const auto vit =
      count(test::RealFixtures() / "inductor" / "t2.0_vit_dynamic_layernorm_softmax_fp16");
  EXPECT_EQ(vit.at("lowered"), 72);
  EXPECT_EQ(vit.at("refused"), 27);
  EXPECT_EQ(vit.at("reads transposed"), 0);
  EXPECT_EQ(vit.at("another loop nest"), 25);
  EXPECT_EQ(vit.at("slice of a concat buffer"), 2);
  const auto mnist =
      count(test::RealFixtures() / "inductor" / "t2.5.1_mnist_cnn_cpu_dynamic_fullrun");
  EXPECT_EQ(mnist.at("lowered"), 12);
  EXPECT_EQ(mnist.at("refused"), 23);
  EXPECT_EQ(mnist.at("writes transposed"), 7);
}

}  // namespace
}  // namespace af::importers::inductor
