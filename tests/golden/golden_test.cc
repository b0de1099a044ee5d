// Golden tests: each file under tests/golden/ holds an input graph in the readable text form, a
// `# RUN: <stage> [args]` line naming what to apply, and `# CHECK...` lines matched against the
// dump of the result (see tests/support/filecheck.h). One gtest case per file.
//
// Stages (later issues add the pipeline's own):
//   dump                      parse and print back
//   tile_split AXIS           TileSplit of the named axis
//   block_split AXIS          BlockSplit of the named axis
//   merge AXIS AXIS...        MergeAxes; a refusal prints "merge refused: <why>"
//   reorder AXIS AXIS...      ReorderAxes
//   proto                     write AscGraphDef text, read it back, dump
//   validate                  print the diagnostics ("ok" when there are none)
//   normalize                 the schedule's normalisation (casts, broadcasts, merged axes)
//   schedule                  the whole schedule: decisions, buffers, axis groups, templates,
//                             tiling cases and impl graphs; a refusal prints
//                             "schedule error CODE: message"
// Several RUN lines apply in order.
#include <gtest/gtest.h>

#include <sstream>

#include "autofuse/ir/axis_algebra.h"
#include "autofuse/ir/proto_io.h"
#include "autofuse/ir/text.h"
#include "autofuse/ir/validate.h"
#include "autofuse/schedule/schedule.h"
#include "filecheck.h"
#include "fixtures.h"

namespace af {
namespace {

std::vector<std::string> Words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  for (std::string x; in >> x;)
    w.push_back(x);
  return w;
}

std::int64_t AxisByName(const ir::Graph& g, const std::string& name) {
  const ir::Axis* a = g.FindAxisByName(name);
  if (a == nullptr) throw std::runtime_error("golden: unknown axis " + name);
  return a->id;
}

std::string RunStages(ir::Graph g, const std::vector<std::vector<std::string>>& runs) {
  std::string out;
  bool dump = true;
  for (const auto& r : runs) {
    const std::string& stage = r.at(0);
    std::vector<std::int64_t> ids;
    if (stage != "dump" && stage != "proto" && stage != "validate" && stage != "normalize" &&
        stage != "schedule") {
      for (std::size_t i = 1; i < r.size(); ++i)
        ids.push_back(AxisByName(g, r[i]));
    }
    if (stage == "dump") {
    } else if (stage == "tile_split") {
      ir::TileSplit(g, ids.at(0));
    } else if (stage == "block_split") {
      ir::BlockSplit(g, ids.at(0));
    } else if (stage == "merge") {
      std::string why;
      if (!ir::MergeAxes(g, ids, &why)) out += "merge refused: " + why + "\n";
    } else if (stage == "reorder") {
      ir::ReorderAxes(g, ids);
    } else if (stage == "proto") {
      g = ir::ParseAscGraphText(ir::WriteAscGraphText(g), "golden").graph;
    } else if (stage == "validate") {
      const auto d = ir::Validate(g);
      out += d.empty() ? "ok\n" : ir::FormatDiagnostics(d);
      dump = false;
    } else if (stage == "normalize") {
      std::vector<schedule::Decision> d;
      g = schedule::Normalize(g, {}, &d);
      for (const auto& x : d)
        out += "decision " + x.code + ": " + x.message + "\n";
    } else if (stage == "schedule") {
      dump = false;
      try {
        const auto s = schedule::Schedule(g, hw::GetProfile("ascend910b"));
        for (const auto& x : s.decisions)
          out += "decision " + x.code + ": " + x.message + "\n";
        out += schedule::DumpSchedule(s);
      } catch (const schedule::ScheduleError& e) {
        out += "schedule error " + e.code() + ": " + e.what() + "\n";
      }
    } else {
      throw std::runtime_error("golden: unknown stage " + stage);
    }
  }
  if (dump) out += ir::DumpText(g);
  return out;
}

class Golden : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(Golden, Matches) {
  const std::string text = test::ReadFile(GetParam());
  std::vector<std::vector<std::string>> runs;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const auto p = line.find("# RUN:");
    if (p != std::string::npos) runs.push_back(Words(line.substr(p + 6)));
  }
  ASSERT_FALSE(runs.empty()) << "no RUN line";
  const ir::Graph g = ir::ParseText(text, GetParam().string());
  const std::string out = RunStages(g, runs);
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
