// A hint graph with a cube op is refused by the schedule with a reason code: the op variant's own
// (ir::CubeRefusal) or CUBE_NOT_SCHEDULED while the CV templates are not generated; a
// convolution with CUBE_CONV_UNSUPPORTED (or its variant's code, ir::ConvRefusal).
#include <gtest/gtest.h>

#include <string>

#include "autofuse/hw/profile.h"
#include "autofuse/ir/text.h"
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

}  // namespace
}  // namespace af
