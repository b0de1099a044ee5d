// Inductor's post-fusion groups mapped onto the FX graph, and the comparison with our grouping
// (inductor_grouping.h): our hand-written model folder, inline cases and the real MNIST dumps.
#include "autofuse/importers/inductor_grouping.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "autofuse/importers/fx_graph.h"
#include "fixtures.h"

namespace af::importers::inductor {
namespace {

namespace fs = std::filesystem;
using Names = std::vector<std::string>;

fs::path OurFolder() {
  return test::OurFixtures() / "inductor" / "grouping" / "model__0_inference_0.0";
}

InductorFxGroups MapFolder(const fs::path& dir, const model::Graph& fx) {
  const IrFile post = LoadInductorIrFile(dir / "ir_post_fusion.txt");
  return MapInductorGroups(post, fx, test::ReadFile(dir / "output_code.py"));
}

const FxGroup* Find(const InductorFxGroups& m, const std::string& name) {
  for (const auto& g : m.groups)
    if (g.name == name) return &g;
  return nullptr;
}

TEST(InductorGrouping, OurFolderMapsEveryGroupOntoFxNodes) {
  const model::Graph fx = LoadFxGraphFile(OurFolder() / "fx_graph_readable.py");
  const InductorFxGroups m = MapFolder(OurFolder(), fx);
  ASSERT_EQ(m.groups.size(), 5u);
  EXPECT_EQ(m.groups[0].nodes, (Names{"add", "relu"}));
  EXPECT_EQ(m.groups[1].kind, "extern");
  EXPECT_EQ(m.groups[1].nodes, (Names{"mm"}));
  EXPECT_EQ(m.groups[2].nodes, (Names{"mul", "sum_1"}));  // buf2 stays inside the kernel
  EXPECT_EQ(m.groups[3].nodes, (Names{"neg"}));
  EXPECT_EQ(m.groups[4].nodes, (Names{"cumsum", "exp"}));
  EXPECT_EQ(m.groups[4].buffers, (Names{"buf5", "buf6"}));
  EXPECT_EQ(m.anchored_buffers, 5);  // buf1 (extern), buf0, buf3, buf4, buf6 (returned)
  EXPECT_EQ(m.guessed_buffers, 0);
  EXPECT_TRUE(m.notes.empty());
}

TEST(InductorGrouping, ComparisonCountsAndReasonCodes) {
  const model::Graph fx = LoadFxGraphFile(OurFolder() / "fx_graph_readable.py");
  const InductorFxGroups m = MapFolder(OurFolder(), fx);
  // Our grouping as the front end decides it for this graph: cumsum has no lowering.
  const std::vector<FxGroup> ours = {{"k_add_relu", "kernel", {"add", "relu"}, {}},
                                     {"k_mul_sum_neg", "kernel", {"mul", "sum_1", "neg"}, {}},
                                     {"k_exp", "kernel", {"exp"}, {}}};
  const GroupingComparison c = CompareGroupings(
      m.groups, ours, {{"mm", "CUBE_OP"}, {"cumsum", "UNSUPPORTED_OP"}}, {}, ViewNodes(fx));
  EXPECT_EQ(c.inductor_kernels, 4);
  EXPECT_EQ(c.our_kernels, 3);
  EXPECT_EQ(c.identical, 1);
  ASSERT_EQ(c.identical_pairs.size(), 1u);
  EXPECT_EQ(c.identical_pairs[0], std::make_pair(std::string("op0"), std::string("k_add_relu")));
  EXPECT_EQ(c.split, 1);
  EXPECT_EQ(c.merged, 1);
  EXPECT_EQ(c.inductor_only_nodes, 1);
  EXPECT_EQ(c.ours_only_nodes, 0);
  ASSERT_EQ(c.diffs.size(), 2u);
  EXPECT_EQ(c.diffs[0].kind, "split");
  EXPECT_EQ(c.diffs[0].inductor_groups, (Names{"op5_op6"}));
  EXPECT_EQ(c.diffs[0].our_groups, (Names{"k_exp", "-"}));
  EXPECT_EQ(c.diffs[0].codes, (Names{"UNSUPPORTED_OP"}));
  EXPECT_EQ(c.diffs[1].kind, "merged");
  EXPECT_EQ(c.diffs[1].inductor_groups, (Names{"op2_op3", "op4"}));
  EXPECT_EQ(c.diffs[1].our_groups, (Names{"k_mul_sum_neg"}));
}

TEST(InductorGrouping, RefusalsExplainSplitsAndViewsAreNotCompared) {
  const std::vector<FxGroup> theirs = {{"op0_op1", "kernel", {"a", "b", "v"}, {}},
                                       {"op2", "kernel", {"c"}, {}},
                                       {"op3", "extern", {"mm"}, {}}};
  const std::vector<FxGroup> ours = {
      {"k0", "kernel", {"a"}, {}}, {"k1", "kernel", {"b"}, {}}, {"k2", "kernel", {"c", "d"}, {}}};
  const std::vector<Refusal> refusals = {{{"a"}, {"b"}, "CYCLE"}, {{"c"}, {"x"}, "SIZE_LIMIT"}};
  const GroupingComparison c = CompareGroupings(theirs, ours, {}, refusals, {"v"});
  EXPECT_EQ(c.inductor_kernels, 2);  // the extern is not a kernel
  EXPECT_EQ(c.identical, 0);
  EXPECT_EQ(c.split, 1);
  EXPECT_EQ(c.merged, 0);
  EXPECT_EQ(c.ours_only_nodes, 1);  // d
  ASSERT_EQ(c.diffs.size(), 2u);
  EXPECT_EQ(c.diffs[0].kind, "split");
  EXPECT_EQ(c.diffs[0].nodes, (Names{"a", "b"}));  // the view v is left out
  EXPECT_EQ(c.diffs[0].codes, (Names{"CYCLE"}));
  EXPECT_EQ(c.diffs[1].kind, "ours_only");
  EXPECT_EQ(c.diffs[1].nodes, (Names{"d"}));
}

TEST(InductorGrouping, ReturnOfAnotherArityIsANote) {
  const model::Graph fx = LoadFxGraphFile(OurFolder() / "fx_graph_readable.py");
  const IrFile post = LoadInductorIrFile(OurFolder() / "ir_post_fusion.txt");
  const InductorFxGroups m =
      MapInductorGroups(post, fx, "\ndef call(args):\n    return (buf0, buf3, )\n");
  ASSERT_FALSE(m.notes.empty());
  EXPECT_EQ(m.notes[0],
            "output_code.py returns 2 values, the FX graph 4: outputs not mapped by "
            "position");
  // Without the return mapping, buffers other groups read are guessed by dtype, size, inputs and
  // the ops of the group's loop bodies: buf4 is neg (ops.neg), not the later exp.
  EXPECT_EQ(Find(m, "op4")->nodes, (Names{"neg"}));
  EXPECT_GE(m.guessed_buffers, 1);
  // No output_code.py at all: no crash, the extern output is still mapped.
  const InductorFxGroups bare = MapInductorGroups(post, fx, "");
  EXPECT_EQ(Find(bare, "op1")->nodes, (Names{"mm"}));
}

TEST(InductorGroupingReal, MnistForwardGroupsCoverTheirFxNodes) {
  AF_REQUIRE_REAL_FIXTURES();
  fs::path dir;
  for (const auto& run :
       fs::directory_iterator(test::RealFixtures() / "inductor" /
                              "t2.5.1_mnist_cnn_cpu_dynamic_fullrun" / "torch_compile_debug"))
    dir = run.path() / "torchinductor" / "model__0_forward_1.0";
  const model::Graph fx = LoadFxGraphFile(dir / "fx_graph_readable.py");
  const InductorFxGroups m = MapFolder(dir, fx);
  ASSERT_EQ(m.groups.size(), 13u);
  EXPECT_TRUE(Find(m, "op0")->nodes.empty());  // the weight layout copy computes no FX node
  EXPECT_EQ(Find(m, "op1")->nodes, (Names{"convolution"}));
  EXPECT_EQ(Find(m, "op2")->nodes, (Names{"relu"}));
  EXPECT_EQ(Find(m, "op6")->nodes, (Names{"inductor_seeds_default"}));  // RandomSeeds
  EXPECT_EQ(Find(m, "op7_op8")->nodes,
            (Names{"inductor_lookup_seed_default", "inductor_random_default_1", "gt"}));
  // Inductor recomputes the pooling max inside the dropout kernel.
  EXPECT_EQ(Find(m, "op9")->nodes,
            (Names{"_low_memory_max_pool2d_with_offsets", "mul", "mul_1", "view"}));
  EXPECT_EQ(Find(m, "op15_op16_op17")->nodes,
            (Names{"amax", "sub", "exp", "sum_1", "log", "sub_1"}));
  EXPECT_EQ(m.guessed_buffers, 0);  // buf7 and buf11 are read inside their kernels only
}

}  // namespace
}  // namespace af::importers::inductor
