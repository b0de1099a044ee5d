// afc on AutoFuse DFX dumps as a user runs it: `inspect` lists graphs × stages with counts taken
// from the files, `compile`/`run` take the folder (each graph's hint stage) or one ascgraph file,
// and damaged copies exit 2 with a message naming file and line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "../cli/afc_process.h"
#include "fixtures.h"

namespace {

namespace fs = std::filesystem;
using af::test::Afc;
using af::test::Shell;
using ::testing::HasSubstr;

fs::path Root() {
  return af::test::OurFixtures() / "dfx";
}
fs::path Pid() {
  return Root() / "autofuse_compile_debug" / "ascgen_dump_pid_4242";
}

// Node headers (`  [i] name : ascir.ops.T`) of a file's VIEW 2, counted by a regular expression.
std::size_t CountNodeHeaders(const fs::path& f) {
  static const std::regex kHeader(R"(^  \[\d+\] .+ : ascir\.ops\.\w+$)");
  std::istringstream in(af::test::ReadFile(f));
  std::size_t c = 0;
  for (std::string line; std::getline(in, line);)
    c += std::regex_match(line, kHeader) ? 1 : 0;
  return c;
}

TEST(DfxCli, InspectListsGraphsTimesStages) {
  const auto r = Afc("inspect --json " + Shell(Root().string()));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["format"], "AutoFuse DFX dump");
  EXPECT_EQ(j["folders"], 2);
  EXPECT_EQ(j["graphs"], 4);
  EXPECT_EQ(j["stages"], 8);
  EXPECT_EQ(j["ge_onnx"], 2);
  std::size_t files = 0;
  for (const auto& g : j["graph_list"]) {
    std::uint64_t last = 0;
    for (const auto& s : g["stages"]) {
      ++files;
      EXPECT_GE(s["seq"].get<std::uint64_t>(), last);
      last = s["seq"].get<std::uint64_t>();
      EXPECT_EQ(s["nodes"].get<std::size_t>(), CountNodeHeaders(s["file"].get<std::string>()))
          << s["file"];
      if (s.contains("diagnostics")) {
        EXPECT_TRUE(s["diagnostics"].empty()) << s["diagnostics"];
      }
    }
  }
  EXPECT_EQ(files, af::test::FilesUnder(Root(), {".txt"}).size());
  ASSERT_EQ(j["py_code"].size(), 1u);
  EXPECT_EQ(j["py_code"][0]["nodes"], 5);

  const auto t = Afc("inspect " + Shell(Root().string()));
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_THAT(t.out, HasSubstr("graph LoadAbsStore (in autofuse_compile_debug/"));
  EXPECT_THAT(t.out, HasSubstr("00003 0_AfterDoTiling: impl, 5 node(s), 6 axis/axes"));
  EXPECT_THAT(t.out, HasSubstr("00001 _Subgraph_: subgraph, 3 node(s)"));
}

TEST(DfxCli, InspectOneAscGraphFile) {
  const auto f = Pid() / "AddReduce" / "ascgraph_00001_AddReduce_AfterPreProcess_1.txt";
  const auto r = Afc("inspect " + Shell(f.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("00001 AfterPreProcess: hint, 11 node(s), 2 axis/axes"));
}

TEST(DfxCli, RunTheFolderAndOneFile) {
  const auto r = Afc("run " + Shell(Root().string()) + " --bind s0=37,s1=1031");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("PASS"));
  EXPECT_THAT(r.out, HasSubstr("(AddReduce_"));
  EXPECT_THAT(r.out, HasSubstr("(LoadAbsStore_"));
  const auto f = Pid() / "LoadAbsStore" / "ascgraph_00000_LoadAbsStore_AfterDeserialize_0.txt";
  const auto one = Afc("run " + Shell(f.string()) + " --bind s0=5,s1=300");
  EXPECT_EQ(one.code, 0) << one.out << one.err;
  EXPECT_THAT(one.out, HasSubstr("PASS"));
  // An impl-graph stage alone has nothing to schedule: exit 2 with the reason.
  const auto impl =
      Afc("compile " +
          Shell((Pid() / "LoadAbsStore" /
                 "ascgraph_00003_LoadAbsStore_0_general_0_nil_0_nil_0_AfterDoTiling_0.txt")
                    .string()) +
          " --out " + Shell((af::test::TempDir("dfx_impl") / "o").string()));
  EXPECT_EQ(impl.code, 2);
  EXPECT_THAT(impl.err, HasSubstr("impl graph"));
  // A folder holding only impl-graph and subgraph dumps has nothing to compile either.
  const fs::path dir = af::test::TempDir("dfx_impl_only");
  for (const char* name :
       {"ascgraph_00003_LoadAbsStore_0_general_0_nil_0_nil_0_AfterDoTiling_0.txt",
        "../AddReduce/ascgraph_00001_AddReduce_sub_0__Subgraph__1.txt"})
    fs::copy_file(Pid() / "LoadAbsStore" / name, dir / fs::path(name).filename());
  const auto none = Afc("compile " + Shell(dir.string()) + " --out " + Shell((dir / "o").string()));
  EXPECT_EQ(none.code, 2);
  EXPECT_THAT(none.err, HasSubstr("no hint-graph stage to compile"));
}

// Damaged copies of the folder: exit 2, the message names the damaged file and its line.
TEST(DfxCli, DamagedCopiesExit2WithFileAndLine) {
  struct Case {
    const char* name;
    std::string from;
    std::string to;
    bool truncate;
  };
  const std::vector<Case> cases = {
      {"truncated", "Nodes:", "", true},
      {"bad_axis", ".axis = {z0, z1}\n    .loop_axis = z1\n    .x = {load.y}",
       ".axis = {z0, zz}\n    .loop_axis = z1\n    .x = {load.y}", false},
      {"unknown_node", ".x = {abs.y}", ".x = {absent.y}", false},
      {"garbage", "", "", false},
  };
  const fs::path f0 =
      Pid() / "LoadAbsStore" / "ascgraph_00002_LoadAbsStore_BeforeAutoSchedule_0.txt";
  const std::string text = af::test::ReadFile(f0);
  for (const auto& c : cases) {
    const fs::path dir = af::test::TempDir(std::string("dfx_damage_") + c.name);
    fs::copy(Root(), dir / "dfx", fs::copy_options::recursive);
    const fs::path f = dir / "dfx" / fs::relative(f0, Root());
    std::string d = text;
    if (c.truncate) {
      d = d.substr(0, d.find(c.from));
    } else if (c.from.empty()) {
      d = "\x7f"
          "ELF\x02\x01garbage\n\xff\xfe";
    } else {
      d.replace(d.find(c.from), c.from.size(), c.to);
    }
    std::ofstream(f, std::ios::binary) << d;
    for (const std::string cmd : {"inspect", "compile"}) {
      const std::string out = cmd == "compile" ? " --out " + Shell((dir / "out").string()) : "";
      const auto r = Afc(cmd + " " + Shell((dir / "dfx").string()) + out);
      EXPECT_EQ(r.code, 2) << c.name << " " << cmd << ": " << r.out << r.err;
      EXPECT_THAT(r.err, HasSubstr(f.filename().string() + ":")) << c.name << " " << cmd;
      EXPECT_THAT(r.err, HasSubstr("expected")) << c.name << " " << cmd;
    }
  }
}

// A damaged ge_onnx file of a dump call: inspect (which loads it) exits 2 naming it.
TEST(DfxCli, DamagedGeOnnxExit2) {
  const fs::path dir = af::test::TempDir("dfx_damage_onnx");
  fs::copy(Root(), dir / "dfx", fs::copy_options::recursive);
  const fs::path f = dir / "dfx" / fs::relative(Pid(), Root()) / "LoadAbsStore" /
                     "ge_onnx_00000_LoadAbsStore_AfterDeserialize.pbtxt";
  std::string d = af::test::ReadFile(f);
  d = d.substr(0, d.size() / 2) + "\n  node { name: \"unterminated\n";
  std::ofstream(f, std::ios::binary) << d;
  const auto r = Afc("inspect " + Shell((dir / "dfx").string()));
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("ge_onnx_00000_LoadAbsStore_AfterDeserialize.pbtxt:"));
}

}  // namespace
