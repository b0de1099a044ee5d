// Golden tests of the front end: each tests/golden/frontend/*.fxtest file is an aten FX graph
// (torch 2.x readable form) with `# RUN: <stage>` comments and `# CHECK...` comments matched
// against the stages' output (tests/support/filecheck.h). The stages (lower, check, fuse) are the
// pipeline's (pipeline/stages.h), the same `afc opt FILE` runs by hand.
#include <gtest/gtest.h>

#include <sstream>

#include "autofuse/importers/fx_graph.h"
#include "autofuse/pipeline/stages.h"
#include "filecheck.h"
#include "fixtures.h"

namespace af {
namespace {

class FrontendGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(FrontendGolden, Matches) {
  const auto path = test::SourceDir() / "tests/golden/frontend" / GetParam();
  const std::string text = test::ReadFile(path);
  const model::Graph g = importers::ParseFxGraph(text, path.string());
  std::string out;
  for (const auto& run : pipeline::RunLines(text))
    out += pipeline::RunModelStage(g, run);
  EXPECT_FILECHECK(out, text);
}

std::vector<std::string> Files() {
  std::vector<std::string> names;
  for (const auto& p : test::FilesUnder(test::SourceDir() / "tests/golden/frontend", {".fxtest"}))
    names.push_back(p.filename().string());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Files, FrontendGolden, ::testing::ValuesIn(Files()),
                         [](const auto& param_info) {
                           std::string s = param_info.param;
                           for (auto& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace
}  // namespace af
