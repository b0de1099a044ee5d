// The concat templates' runtime choice (the reference's column-count rule): for int32 rows of
// `cols` columns, cat([a, b], dim=1) with a and b [1024, cols] runs the direct-copy concat
// template exactly when cols is a multiple of 8 (a's rows end on a 32-byte boundary, so b's
// DataCopy starts aligned); every other count needs concat_gather. The aligned template scores
// 1, so it wins whenever it is feasible even where the gather would model fewer cycles.
#include <gtest/gtest.h>

#include <string>

#include "autofuse/att/tiling.h"
#include "autofuse/hw/profile.h"
#include "autofuse/ir/text.h"
#include "autofuse/schedule/schedule.h"
#include "autofuse/support/error.h"
#include "fixtures.h"

namespace af {
namespace {

schedule::ScheduleResult ConcatInt32() {
  const auto path = test::SourceDir() / "tests" / "e2e" / "graphs" / "concat_int32.graph.txt";
  return schedule::Schedule(ir::ParseText(test::ReadFile(path), path.string()),
                            hw::GetProfile("ascend910b"));
}

TEST(ConcatChoice, ColumnCountRuleForInt32Rows) {
  const auto s = ConcatInt32();
  ASSERT_EQ(s.templates.size(), 2u);
  EXPECT_EQ(s.templates[0].name, "concat");
  EXPECT_EQ(s.templates[1].name, "concat_gather");
  const auto& profile = hw::GetProfile("ascend910b");
  for (int cols = 1; cols <= 65; ++cols) {
    SCOPED_TRACE("cols = " + std::to_string(cols));
    const sym::Bindings b = {{"s0", 1024}, {"s1", cols}, {"s2", cols}};
    const auto d = att::Solve(s, b, profile);
    ASSERT_GE(d.chosen, 0);
    const bool aligned = cols % 8 == 0;
    EXPECT_EQ(s.templates.at(static_cast<std::size_t>(s.cases[d.chosen].templ)).name,
              aligned ? "concat" : "concat_gather");
    // Forcing the direct-copy template where a's rows end inside a 32-byte block finds no case.
    if (!aligned) {
      EXPECT_THROW(att::Solve(s, b, profile, -1, 0), InputError);
    }
  }
}

TEST(ConcatChoice, ModelCountsEachInputAtItsOwnExtent) {
  const auto s = ConcatInt32();
  const auto& profile = hw::GetProfile("ascend910b");
  // a [1000, 3] and b [1000, 61]: the loads move 4 * 1000 * (3 + 61) bytes, the store as many.
  const sym::Bindings b = {{"s0", 1000}, {"s1", 3}, {"s2", 61}};
  const auto d = att::Solve(s, b, profile);
  ASSERT_GE(d.chosen, 0);
  EXPECT_EQ(d.solution.mte2_bytes, 4 * 1000 * 64);
  EXPECT_EQ(d.solution.mte3_bytes, 4 * 1000 * 64);
}

}  // namespace
}  // namespace af
