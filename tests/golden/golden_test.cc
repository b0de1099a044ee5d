// Golden tests: each file under tests/golden/ holds an input graph in the readable text form, a
// `# RUN: <stage> [args]` line naming what to apply, and `# CHECK...` lines matched against the
// dump of the result (see tests/support/filecheck.h). One gtest case per file.
//
// The stages are the pipeline's (pipeline/stages.h): the same runs `afc opt FILE` applies, so a
// failing file can be re-run by hand. Codegen and tiling have their own folders
// (tests/golden/codegen, tests/golden/tiling).
#include <gtest/gtest.h>

#include <sstream>

#include "autofuse/ir/text.h"
#include "autofuse/pipeline/stages.h"
#include "filecheck.h"
#include "fixtures.h"

namespace af {
namespace {

class Golden : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(Golden, Matches) {
  const std::string text = test::ReadFile(GetParam());
  const auto runs = pipeline::RunLines(text);
  ASSERT_FALSE(runs.empty()) << "no RUN line";
  const ir::Graph g = ir::ParseText(text, GetParam().string());
  const std::string out = pipeline::RunHintStages(g, runs);
  EXPECT_FILECHECK(out, text);
}

std::vector<std::filesystem::path> GoldenFiles() {
  return test::FilesUnder(test::SourceDir() / "tests" / "golden", {".test"});
}

std::string CaseName(const ::testing::TestParamInfo<std::filesystem::path>& info) {
  std::string s = info.param.parent_path().filename().string() + "_" + info.param.stem().string();
  for (char& c : s) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) c = '_';
  }
  return s;
}

INSTANTIATE_TEST_SUITE_P(Files, Golden, ::testing::ValuesIn(GoldenFiles()), CaseName);

TEST(GoldenSuite, HasFiles) {
  EXPECT_GE(GoldenFiles().size(), 5u);
}

}  // namespace
}  // namespace af
