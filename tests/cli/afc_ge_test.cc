// GE dumps and inductor_npu_ext asc_graph.py files through the whole pipeline as a user runs afc:
// the generated GE networks (tests/fixtures/ge/cases, scripts/gen_ge_dump.py) compile, fuse and
// run against numpy in both dump forms; the seeds' Cast_Abs_Cast_Add_Relu_Cast is one kernel with
// a modelled gain; every real GE dump compiles (kernels or fallbacks with reason codes, no crash);
// asc_graph.py files compile, tile and run on the CPU runtime, or are refused by name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "afc_process.h"
#include "fixtures.h"

namespace {

using af::test::Afc;
using af::test::Shell;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

void Write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

fs::path Case(const std::string& name) {
  return af::test::OurFixtures() / "ge" / "cases" / name;
}

std::string Dump(const std::string& name, const std::string& form) {
  const fs::path p =
      Case(name) / (form == "onnx" ? "ge_onnx_" + name + ".pbtxt" : "ge_proto_" + name + ".txt");
  return Shell(p.string());
}

nlohmann::json Report(const fs::path& out) {
  return nlohmann::json::parse(af::test::ReadFile(out / "report.json"));
}

class GeCase : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

// afc run: the kernels on the CPU runtime, the cube ops on the reference evaluator, then the
// outputs against numpy's.
TEST_P(GeCase, RunsAgainstNumpy) {
  const auto& [name, form] = GetParam();
  const auto r = Afc("run " + Dump(name, form));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("PASS"));
  EXPECT_THAT(r.out, HasSubstr("kernel "));
  // --inputs / --expect name the folders explicitly; a wrong expectation fails.
  const auto e =
      Afc("run " + Dump(name, form) + " --inputs " + Shell((Case(name) / "inputs").string()) +
          " --expect " + Shell((Case(name) / "inputs").string()));
  EXPECT_NE(e.code, 0) << e.out;
}

INSTANTIATE_TEST_SUITE_P(Generated, GeCase,
                         ::testing::Combine(::testing::Values("cast_abs_cast_add_relu_cast",
                                                              "rec_mlp", "norm_softmax"),
                                            ::testing::Values("onnx", "proto")));

TEST(AfcGe, SeedCastAbsAddReluFusesIntoOneKernelWithAGain) {
  const auto out = af::test::TempDir("ge_seed");
  const auto r = Afc("compile " + Dump("cast_abs_cast_add_relu_cast", "onnx") + " --force --out " +
                     Shell(out.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rep = Report(out);
  ASSERT_EQ(rep["kernels"].size(), 1u) << rep.dump(1);
  EXPECT_EQ(rep.value("fallbacks", nlohmann::json::array()).size(), 0u);
  int in_kernel = 0;
  for (const auto& n : rep["model_nodes"])
    in_kernel += n.value("kernel", "").empty() ? 0 : 1;
  EXPECT_EQ(in_kernel, 6);  // Cast, Abs, Cast, Add, Relu, Cast
  const auto e = Afc("estimate " + Dump("cast_abs_cast_add_relu_cast", "proto"));
  ASSERT_EQ(e.code, 0) << e.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(e.out, m, std::regex(R"(total: .* gain ([0-9.]+)x)"))) << e.out;
  EXPECT_GT(std::stod(m[1]), 1.5);
}

// The recommendation block: the matmul falls back (cube unit) with its reason, the gathers,
// concat and reductions fuse.
TEST(AfcGe, RecommendationBlockKernelsAndCubeFallback) {
  const auto out = af::test::TempDir("ge_rec");
  const auto r =
      Afc("compile " + Dump("rec_mlp", "proto") + " --force --out " + Shell(out.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rep = Report(out);
  EXPECT_GE(rep["kernels"].size(), 2u);
  bool cube = false;
  for (const auto& f : rep["fallbacks"])
    cube = cube || f["reason"].get<std::string>().find("CUBE_OP") != std::string::npos;
  EXPECT_TRUE(cube) << rep["fallbacks"].dump(1);
  // With AutoFuse's gather and concat fusion on, the embedding lookups on the Const tables are
  // kernels too, and the numbers still match numpy's.
  const auto g =
      Afc("run " + Dump("rec_mlp", "onnx") + " --flags \"--autofuse_enable_pass=gather,concat\"");
  EXPECT_EQ(g.code, 0) << g.out << g.err;
  EXPECT_THAT(g.out, HasSubstr("kernel autofused_gather"));
  EXPECT_THAT(g.out, HasSubstr("PASS"));
}

// Every real GE dump compiles: kernels, or fallbacks that each carry a [CODE]; never a crash.
TEST(AfcGeReal, EveryDumpCompilesWithReasons) {
  AF_REQUIRE_REAL_FIXTURES();
  const auto files = af::test::FilesUnder(af::test::RealFixtures() / "ge_dump", {".txt", ".pbtxt"});
  int compiled = 0;
  for (const auto& f : files) {
    if (f.filename() == "SOURCE.txt") continue;
    SCOPED_TRACE(f.string());
    const auto out = af::test::TempDir("ge_real_" + f.stem().string());
    const auto r = Afc("compile " + Shell(f.string()) + " --force --out " + Shell(out.string()));
    ASSERT_EQ(r.signal, 0);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto rep = Report(out);
    std::size_t ops = 0;
    for (const auto& n : rep["model_nodes"]) {
      const std::string op = n["op"];
      if (op == "placeholder" || op == "get_attr" || op == "output") continue;
      ++ops;
      EXPECT_TRUE(!n.value("kernel", "").empty() || !n.value("fallback_code", "").empty())
          << n.dump();
    }
    EXPECT_GT(ops, 0u);
    for (const auto& fb : rep["fallbacks"])
      EXPECT_THAT(fb["reason"].get<std::string>(), ::testing::MatchesRegex(R"(\[[A-Z_]+\] .*)"));
    ++compiled;
  }
  EXPECT_EQ(compiled, 5);
}

// An ONNX dump with a tensor in a private format: the op falls back with GE_FORMAT.
TEST(AfcGe, PrivateFormatIsRefusedWithACode) {
  const auto dir = af::test::TempDir("ge_format");
  std::string text = af::test::ReadFile(Case("cast_abs_cast_add_relu_cast") /
                                        "ge_onnx_cast_abs_cast_add_relu_cast.pbtxt");
  const std::string from = "name: \"Abs\"";
  const std::size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  const std::size_t layout = text.find("\"ND\"", at);
  text.replace(layout, 4, "\"NC1HWC0\"");
  Write(dir / "nz.pbtxt", text);
  const auto out = dir / "out";
  const auto r =
      Afc("compile " + Shell((dir / "nz.pbtxt").string()) + " --out " + Shell(out.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Fallback ge.Abs Abs reason: [GE_FORMAT]"));
  EXPECT_THAT(r.out, HasSubstr("NC1HWC0"));
}

// asc_graph.py alone (not read as Inductor IR) and in its autofused_* folder: compile, tile and
// run on the CPU runtime.
TEST(AfcAscGraphPy, AloneAndInItsFolderCompileTileAndRun) {
  const fs::path dir = af::test::OurFixtures() / "inductor" / "tcd" / "torch_compile_debug" /
                       "run_2026_01_01_00_00_00_000001-pid_42" / "torchinductor" /
                       "model__0_inference_0.0" /
                       "autofused_add_sum_0123456789abcdef0123456789abcdef";
  for (const fs::path& in : {dir, dir / "asc_graph.py"}) {
    SCOPED_TRACE(in.string());
    const auto out = af::test::TempDir("ascpy_" + in.filename().string());
    const auto c = Afc("compile " + Shell(in.string()) + " --force --out " + Shell(out.string()));
    ASSERT_EQ(c.code, 0) << c.err;
    EXPECT_THAT(c.out, HasSubstr("kernel "));
    const auto t = Afc("tile " + Shell(in.string()));
    ASSERT_EQ(t.code, 0) << t.err;
    EXPECT_THAT(t.out, HasSubstr("modeled"));
    const auto r = Afc("run " + Shell(in.string()));
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("PASS"));
  }
}

// The older multi-graph layout: the graphs we read run; an op outside our registry is named.
TEST(AfcAscGraphPy, UnknownOpIsNamedInTheRefusal) {
  const auto dir = af::test::TempDir("ascpy_unknown");
  std::string text =
      af::test::ReadFile(af::test::OurFixtures() / "inductor" / "asc_graph_multi.py");
  const std::string from = "ascir.ops.Abs(";
  const std::size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), "ascir.ops.Frobnicate(");
  Write(dir / "asc_graph.py", text);
  const auto r = Afc("compile " + Shell((dir / "asc_graph.py").string()) + " --bind ks0=64 --out " +
                     Shell((dir / "out").string()));
  EXPECT_THAT(r.err, HasSubstr("Frobnicate"));
  EXPECT_THAT(r.out + r.err, ::testing::Not(HasSubstr("Inductor IR")));
}

}  // namespace
