// The normalisation is a named list of passes with a dump after each: Schedule and Normalize call
// the StageDump hook once per pass, in NormalizePassNames() order, with the graph's text after
// that pass; the last one is the normalised graph. A hook changes nothing in the result.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "autofuse/hw/profile.h"
#include "autofuse/ir/text.h"
#include "autofuse/schedule/schedule.h"
#include "fixtures.h"

namespace af {
namespace {

ir::Graph Softmax() {
  const auto path = test::SourceDir() / "tests" / "e2e" / "graphs" / "softmax_fp16.graph.txt";
  return ir::ParseText(test::ReadFile(path), path.string());
}

TEST(NormalizePasses, DumpAfterEachPassInOrder) {
  std::vector<std::string> stages;
  std::vector<std::string> texts;
  const auto s = schedule::Schedule(Softmax(), hw::GetProfile("ascend910b"),
                                    [&](const std::string& stage, const std::string& text) {
                                      stages.push_back(stage);
                                      texts.push_back(text);
                                    });
  const auto names = schedule::NormalizePassNames();
  ASSERT_EQ(stages.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i)
    EXPECT_EQ(stages[i], "normalize." + std::string(names[i]));
  EXPECT_EQ(names.front(), "expand_softmax");
  EXPECT_EQ(texts.back(), ir::DumpText(s.graph));
  // fp16 compute moves to fp32 in the upcast pass: its dump differs from the one before it.
  for (std::size_t i = 1; i < names.size(); ++i) {
    if (names[i] == "upcast") {
      EXPECT_NE(texts[i], texts[i - 1]);
    }
  }
}

TEST(NormalizePasses, HookChangesNothing) {
  const auto plain = schedule::Schedule(Softmax(), hw::GetProfile("ascend910b"));
  int calls = 0;
  const auto hooked = schedule::Schedule(
      Softmax(), hw::GetProfile("ascend910b"),
      [&](const std::string& /*stage*/, const std::string& /*text*/) { ++calls; });
  EXPECT_GT(calls, 0);
  EXPECT_EQ(schedule::DumpSchedule(plain), schedule::DumpSchedule(hooked));
  std::vector<schedule::Decision> d;
  EXPECT_EQ(ir::DumpText(schedule::Normalize(Softmax(), {}, &d)), ir::DumpText(plain.graph));
}

}  // namespace
}  // namespace af
