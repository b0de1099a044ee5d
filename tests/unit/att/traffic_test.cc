// The traffic figure (att/traffic.h): compulsory bytes are every addressed input byte once; the
// per-load model bytes add up to the case's MTE2 total; every load read more than once carries a
// reason code, and the codes name the actual cause.
#include <gtest/gtest.h>

#include <string>

#include "autofuse/att/tiling.h"
#include "autofuse/hw/profile.h"
#include "autofuse/ir/text.h"
#include "autofuse/schedule/schedule.h"
#include "fixtures.h"

namespace af {
namespace {

schedule::ScheduleResult Graph(const std::string& name, const std::string& soc = "ascend910b") {
  const auto path = test::SourceDir() / "tests" / "e2e" / "graphs" / (name + ".graph.txt");
  return schedule::Schedule(ir::ParseText(test::ReadFile(path), path.string()),
                            hw::GetProfile(soc));
}

bool HasCode(const att::Traffic& t, const std::string& code) {
  for (const auto& d : t.reasons) {
    if (d.code == code) return true;
  }
  return false;
}

std::int64_t LoadSum(const att::Traffic& t) {
  std::int64_t sum = 0;
  for (const auto& l : t.loads)
    sum += l.model_bytes;
  return sum;
}

TEST(Traffic, ElementwiseReadsEachInputOnce) {
  const auto s = Graph("abs_add_relu");
  const auto d = att::Solve(s, {{"s0", 1024}, {"s1", 2048}}, hw::GetProfile("ascend910b"));
  EXPECT_EQ(d.compulsory_bytes, 2 * 1024 * 2048 * 4);
  EXPECT_EQ(d.traffic.model_bytes, d.solution.mte2_bytes);
  EXPECT_EQ(LoadSum(d.traffic), d.solution.mte2_bytes);
  EXPECT_DOUBLE_EQ(d.traffic.ratio, 1.0);
  EXPECT_TRUE(d.traffic.reasons.empty());
}

TEST(Traffic, BroadcastOperandReadPerTileHasAReason) {
  // x [s0, s1] + v [1, s1]: v is read again for every tile of rows.
  const auto s = Graph("bcast_leading");
  const auto d = att::Solve(s, {{"s0", 1000}, {"s1", 3}}, hw::GetProfile("ascend910b"));
  EXPECT_EQ(d.compulsory_bytes, (1000 * 3 + 3) * 4);
  EXPECT_EQ(LoadSum(d.traffic), d.solution.mte2_bytes);
  if (d.traffic.model_bytes > d.compulsory_bytes) {
    EXPECT_TRUE(HasCode(d.traffic, "REREAD_BROADCAST_LOOP"));
  }
  EXPECT_FALSE(HasCode(d.traffic, "REREAD_UNEXPLAINED"));
}

TEST(Traffic, NormSweepsAreNamed) {
  // Rows longer than the UB: the common template sweeps three times (max, sum, write).
  const auto s = Graph("softmax_fp16");
  const auto d = att::Solve(s, {{"s0", 3}, {"s1", 200003}}, hw::GetProfile("ascend910b"));
  EXPECT_EQ(d.compulsory_bytes, 3 * 200003 * 2);
  EXPECT_EQ(LoadSum(d.traffic), d.solution.mte2_bytes);
  EXPECT_GT(d.traffic.ratio, 2.9);
  EXPECT_TRUE(HasCode(d.traffic, "REREAD_NORM_SWEEPS"));
  EXPECT_FALSE(HasCode(d.traffic, "REREAD_UNEXPLAINED"));
}

TEST(Traffic, InnermostGatherRowsAreNamed) {
  // x[:, idx] + b on the 950, 3 indices into rows of 50021: each params row is loaded whole into
  // UB for the vector Gather, thousands of times the 3 elements it addresses.
  const auto s = Graph("gather_inner_add", "ascend950");
  const auto d = att::Solve(s, {{"s0", 3}, {"s1", 50021}, {"s2", 3}}, hw::GetProfile("ascend950"));
  EXPECT_EQ(LoadSum(d.traffic), d.solution.mte2_bytes);
  EXPECT_GT(d.traffic.ratio, 1000.0);
  EXPECT_TRUE(HasCode(d.traffic, "REREAD_GATHER_ROW"));
  EXPECT_FALSE(HasCode(d.traffic, "REREAD_UNEXPLAINED"));
}

TEST(Traffic, RCoreWorkspaceIsNamed) {
  // Few rows of a long reduction: r_core splits the R loop and reads its partials back.
  const auto s = Graph("sum_ar");
  int r_core = -1;
  for (std::size_t c = 0; c < s.cases.size(); ++c) {
    if (s.cases[c].kind == schedule::CaseKind::kRCore) r_core = static_cast<int>(c);
  }
  ASSERT_GE(r_core, 0);
  const auto d = att::Solve(s, {{"s0", 2}, {"s1", 1000003}}, hw::GetProfile("ascend910b"), r_core);
  EXPECT_GT(d.solution.r_split, 1);
  EXPECT_TRUE(HasCode(d.traffic, "R_CORE_WORKSPACE"));
  EXPECT_GT(d.traffic.model_bytes, LoadSum(d.traffic));  // the workspace is not an input
  EXPECT_FALSE(HasCode(d.traffic, "REREAD_UNEXPLAINED"));
}

}  // namespace
}  // namespace af
