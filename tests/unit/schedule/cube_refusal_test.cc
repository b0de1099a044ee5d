// A hint graph with a cube op: schedule::Schedule (one loop nest) refuses it with the op variant's
// code (ir::CubeRefusal) or CUBE_NOT_SCHEDULED, a convolution with CUBE_CONV_UNSUPPORTED (or its
// variant's code, ir::ConvRefusal); schedule::PartitionGroups makes it a cube + vector kernel or
// refuses it with the code of what the CV templates do not take.
#include <gtest/gtest.h>

#include <string>

#include "autofuse/hw/profile.h"
#include "autofuse/ir/text.h"
#include "autofuse/schedule/groups.h"
#include "autofuse/schedule/schedule.h"
#include "fixtures.h"

namespace af {
namespace {

ir::Graph MatMulFixture() {
  const auto path = test::OurFixtures() / "ir" / "matmul.graph.txt";
  return ir::ParseText(test::ReadFile(path), path.string());
}

std::string RefusalCode(const ir::Graph& g) {
  try {
    schedule::Schedule(g, hw::GetProfile("ascend910b"));
  } catch (const schedule::ScheduleError& e) {
    return e.code();
  }
  return "scheduled";
}

TEST(CubeRefusal, EachCubeVariantHasItsCode) {
  ir::Graph g = MatMulFixture();
  EXPECT_EQ(RefusalCode(g), "CUBE_NOT_SCHEDULED");
  ir::Node& mm = g.nodes[3];
  ASSERT_EQ(mm.type, "MatMulBias");
  mm.attrs["enable_hf32"] = std::int64_t{1};
  EXPECT_EQ(RefusalCode(g), "CUBE_HF32_UNSUPPORTED");
  mm.attrs["enable_hf32"] = std::int64_t{0};
  mm.attrs["offset_x"] = std::int64_t{2};
  EXPECT_EQ(RefusalCode(g), "CUBE_INT8_UNSUPPORTED");
  mm.attrs["offset_x"] = std::string("x");  // validation names it before the schedule runs
  EXPECT_EQ(RefusalCode(g), "INVALID_GRAPH");
}

TEST(CubeRefusal, EachConvVariantHasItsCode) {
  const auto path = test::OurFixtures() / "ir" / "conv2d.graph.txt";
  ir::Graph g = ir::ParseText(test::ReadFile(path), path.string());
  EXPECT_EQ(RefusalCode(g), "CUBE_CONV_UNSUPPORTED");
  ir::Node& cv = g.nodes[3];
  ASSERT_EQ(cv.type, "Conv2DBias");
  cv.attrs["enable_hf32"] = true;
  EXPECT_EQ(RefusalCode(g), "CUBE_HF32_UNSUPPORTED");
  cv.attrs.erase("enable_hf32");
  cv.attrs["offset_x"] = std::int64_t{2};
  EXPECT_EQ(RefusalCode(g), "CUBE_INT8_UNSUPPORTED");
  cv.attrs["offset_x"] = std::int64_t{0};
  cv.attrs["pads"] = std::vector<std::int64_t>{1, 1};  // validation names it first
  EXPECT_EQ(RefusalCode(g), "INVALID_GRAPH");
}

std::string PartitionCode(const ir::Graph& g) {
  try {
    const schedule::GroupPartition p = schedule::PartitionGroups(g);
    return p.groups.empty() ? "no groups" : "partitioned";
  } catch (const schedule::ScheduleError& e) {
    return e.code();
  }
}

ir::Graph CvFixture(const std::string& name) {
  const auto path = test::OurFixtures().parent_path() / "e2e" / "graphs" / (name + ".graph.txt");
  return ir::ParseText(test::ReadFile(path), path.string());
}

TEST(CubeRefusal, ThePartitionTakesTheMatMulAndItsEpilogue) {
  const ir::Graph g = MatMulFixture();
  const schedule::GroupPartition p = schedule::PartitionGroups(g);
  ASSERT_EQ(p.groups.size(), 2U);
  ASSERT_TRUE(p.groups[0].cube.has_value());
  const schedule::CubeGroup& c = *p.groups[0].cube;
  EXPECT_EQ(c.node, "mm");
  EXPECT_EQ(c.m.ToString(), "s0");
  EXPECT_EQ(c.n.ToString(), "s1");
  EXPECT_EQ(c.k.ToString(), "s2");
  EXPECT_FALSE(c.fixpipe);  // the bias is the epilogue's
  EXPECT_FALSE(p.groups[1].cube.has_value());
  EXPECT_TRUE(p.groups[1].reads_workspace);
  ASSERT_EQ(p.workspace.size(), 1U);
  EXPECT_EQ(p.workspace[0].dtype, ir::DType::kFloat32);
  // Straight to the output (no bias): kFixpip with the ReLU and the cast to fp16.
  const schedule::GroupPartition f = schedule::PartitionGroups(CvFixture("cv_mm_relu_fp16"));
  ASSERT_TRUE(f.groups.at(0).cube.has_value());
  EXPECT_TRUE(f.groups[0].cube->fixpipe);
  EXPECT_TRUE(f.groups[0].cube->fix_relu);
  EXPECT_EQ(f.groups[0].cube->fix_dtype, ir::DType::kFloat16);
  EXPECT_EQ(f.groups[0].cube->epilogue_group, 1);
  EXPECT_TRUE(f.groups[0].cube->mm.transpose_x1);
}

TEST(CubeRefusal, EachThingTheCvTemplatesDoNotTakeHasItsCode) {
  EXPECT_EQ(PartitionCode(MatMulFixture()), "partitioned");
  {  // a reduction beside the product
    ir::Graph g = CvFixture("cv_mm_relu_fp16");
    ir::Node& st = g.nodes[3];
    ASSERT_EQ(st.type, "Store");
    ir::Node sum = g.nodes[2];
    sum.name = "s";
    sum.type = "Sum";
    sum.attrs.clear();
    sum.inputs = {{2, 0}};
    sum.outputs[0].repeats[1] = sym::Expr(1);
    sum.outputs[0].strides = {sym::Expr(1), sym::Expr(0)};
    g.nodes.insert(g.nodes.begin() + 3, sum);
    g.nodes[4].inputs = {{3, 0}};
    g.nodes[5].inputs = {{4, 0}};
    g.nodes[4].outputs[0] = g.nodes[3].outputs[0];
    g.nodes[5].outputs[0] = g.nodes[3].outputs[0];
    EXPECT_EQ(PartitionCode(g), "CUBE_WITH_REDUCE");
  }
  {  // two products
    ir::Graph g = CvFixture("cv_mm_relu_fp16");
    ir::Node mm2 = g.nodes[2];
    mm2.name = "mm2";
    g.nodes.insert(g.nodes.begin() + 3, mm2);
    EXPECT_EQ(PartitionCode(g), "CUBE_MULTIPLE");
  }
  {  // fp32 operands
    ir::Graph g = CvFixture("cv_mm_relu_fp16");
    g.nodes[0].outputs[0].dtype = ir::DType::kFloat32;
    g.nodes[1].outputs[0].dtype = ir::DType::kFloat32;
    EXPECT_EQ(PartitionCode(g), "CUBE_FP32_UNSUPPORTED");
  }
  {  // an operand with a gap between its rows in GM
    ir::Graph g = CvFixture("cv_mm_relu_fp16");
    g.nodes[1].outputs[0].strides[0] = sym::Expr::Sym("s1") + sym::Expr(8);
    EXPECT_EQ(PartitionCode(g), "CUBE_OPERAND_LAYOUT");
  }
  {  // a computed bias
    ir::Graph g = MatMulFixture();
    ir::Node load;
    load.name = "lb";
    load.type = "Load";
    load.inputs = {{2, 0}};
    load.outputs = g.nodes[2].outputs;
    g.nodes.insert(g.nodes.begin() + 3, load);
    for (std::size_t i = 4; i < g.nodes.size(); ++i)
      for (auto& in : g.nodes[i].inputs)
        if (in.node >= 3) ++in.node;
    g.nodes[4].inputs[2] = {3, 0};
    EXPECT_EQ(PartitionCode(g), "CUBE_BIAS_COMPUTED");
  }
  {  // the 950's L0A holds Nz fractals: the cube group (Zz) is refused there
    const schedule::GroupPartition p = schedule::PartitionGroups(MatMulFixture());
    std::string code;
    try {
      (void)schedule::ScheduleGroups(p, hw::GetProfile("ascend950"));
    } catch (const schedule::ScheduleError& e) {
      code = e.code();
    }
    EXPECT_EQ(code, "CUBE_L0A_NZ_UNSUPPORTED");
    EXPECT_EQ(schedule::ScheduleGroups(p, hw::GetProfile("ascend910_93")).size(), 2U);
  }
  {  // a convolution goes through the partition's refusal too
    const auto path = test::OurFixtures() / "ir" / "conv2d.graph.txt";
    EXPECT_EQ(PartitionCode(ir::ParseText(test::ReadFile(path), path.string())),
              "CUBE_CONV_UNSUPPORTED");
  }
}

}  // namespace
}  // namespace af
