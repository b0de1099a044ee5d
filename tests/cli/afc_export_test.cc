// afc export: every format on a sample model graph, an AscGraph and the real ViT and MNIST dumps;
// the ONNX files validated with the onnx package's schema and checker (python3-onnx), the trace
// read as JSON with the trace-event fields, SVG/PNG checked by their signatures.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "afc_process.h"
#include "fixtures.h"

namespace {

namespace fs = std::filesystem;
using af::test::Afc;
using af::test::Shell;
using ::testing::HasSubstr;
using Json = nlohmann::json;

std::string Src(const std::string& rel) {
  return Shell((af::test::SourceDir() / rel).string());
}

// python3-onnx: the binary through onnx.load, the text through protobuf's text_format into
// onnx.ModelProto; both through onnx.checker.check_model. Returns "" or the error.
std::string OnnxCheck(const fs::path& file, bool text) {
  const fs::path log = file.string() + ".check";
  const std::string code =
      text ? "import sys,onnx;from google.protobuf import text_format as t;"
             "m=t.Parse(open(sys.argv[1]).read(),onnx.ModelProto());onnx.checker.check_model(m);"
             "print(len(m.graph.node),len(m.functions))"
           : "import sys,onnx;m=onnx.load(sys.argv[1]);onnx.checker.check_model(m);"
             "print(len(m.graph.node),len(m.functions))";
  const std::string cmd = "/usr/bin/python3 -c " + Shell(code) + " " + Shell(file.string()) + " >" +
                          Shell(log.string()) + " 2>&1";
  const int rc = std::system(cmd.c_str());
  return rc == 0 ? "" : af::test::ReadFile(log);
}

// Returns the folder the files went to (out.<ext>).
fs::path ExportAll(const std::string& input, const std::string& args, const std::string& tag,
                   bool model_graph) {
  const fs::path d = af::test::TempDir("export") / tag;
  fs::remove_all(d);
  fs::create_directories(d);
  auto run = [&](const std::string& fmt, const std::string& ext, const std::string& more = "") {
    const fs::path out = d / ("out." + ext);
    const auto r =
        Afc("export " + input + args + " --format " + fmt + " --out " + Shell(out.string()) + more);
    EXPECT_EQ(r.code, 0) << fmt << ": " << r.err;
    return out;
  };
  const std::string dot = af::test::ReadFile(run("dot", "dot"));
  EXPECT_THAT(dot, HasSubstr("digraph autofuse"));
  EXPECT_THAT(dot, HasSubstr("subgraph cluster_0"));
  if (model_graph) {
    EXPECT_EQ(Afc("export " + input + args + " --format dot --graph hint --out " +
                  Shell((d / "hint.dot").string()))
                  .code,
              0);
  }
  EXPECT_THAT(af::test::ReadFile(run("svg", "svg")), HasSubstr("<svg"));
  EXPECT_EQ(af::test::ReadFile(run("png", "png")).substr(0, 4), "\x89PNG");
  EXPECT_EQ(OnnxCheck(run("onnx", "onnx"), false), "");
  const fs::path txt = run("onnxtxt", "onnxtxt");
  EXPECT_EQ(OnnxCheck(txt, true), "");
  EXPECT_THAT(af::test::ReadFile(txt), HasSubstr("functions {"));
  const Json trace = Json::parse(af::test::ReadFile(run("trace", "json")));
  EXPECT_TRUE(trace["traceEvents"].is_array());
  int spans = 0;
  for (const auto& e : trace["traceEvents"]) {
    EXPECT_TRUE(e.contains("ph") && e.contains("pid") && e.contains("name")) << e.dump();
    if (e["ph"] == "X") {
      EXPECT_TRUE(e.contains("ts") && e.contains("dur") && e.contains("tid")) << e.dump();
      EXPECT_GE(e["dur"].get<double>(), 0.0);
      ++spans;
    }
  }
  // The modelled timeline is there: every kernel is bound, so none is skipped.
  EXPECT_GT(spans, 0) << tag;
  EXPECT_TRUE(!trace["otherData"].contains("skipped") || trace["otherData"]["skipped"].empty())
      << trace["otherData"].dump();
  // Nothing the user had is overwritten.
  const auto again =
      Afc("export " + input + args + " --format dot --out " + Shell((d / "out.dot").string()));
  EXPECT_EQ(again.code, 2);
  EXPECT_THAT(again.err, HasSubstr("use --force"));
  return d;
}

TEST(AfcExport, SampleModelGraphAllFormats) {
  const fs::path d = ExportAll(Src("samples/torch/cases/softmax"), "", "softmax", true);
  // The trace has one kernel track and four pipe tracks per tiled kernel, launch gaps between.
  const fs::path out = d / "out.json";
  const Json t = Json::parse(af::test::ReadFile(out));
  int kernels = 0;
  int pipes = 0;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] != "X") continue;
    kernels += e["cat"] == "kernel" ? 1 : 0;
    pipes += e["cat"] == "pipe" ? 1 : 0;
  }
  EXPECT_GE(kernels, 1);
  EXPECT_EQ(pipes, 4 * kernels);
  EXPECT_GT(t["otherData"]["launch_us"].get<double>(), 0.0);
}

TEST(AfcExport, AscGraphAllFormats) {
  ExportAll(Src("samples/hint_graphs/add_bcast_relu.AscGraphDef.txt"), " --bind s0=37,s1=1031",
            "hint", false);
  const auto r = Afc("export " + Src("samples/hint_graphs/add_bcast_relu.AscGraphDef.txt") +
                     " --format dot --graph model --out " +
                     Shell((af::test::TempDir("export") / "model.dot").string()));
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("has no model graph"));
}

// A cube + vector kernel: every format; the trace has the cube group's slice with its four cube
// pipes (MTE2, MTE1, CUBE, FIXP) and no slice for the epilogue kFixpip did.
TEST(AfcExport, CubeVectorKernelAllFormats) {
  const fs::path d = ExportAll(Src("tests/e2e/graphs/cv_cast_mm.graph.txt"),
                               " --bind s0=37,s1=45,s2=70", "cv_cast_mm", false);
  const Json t = Json::parse(af::test::ReadFile(d / "out.json"));
  std::vector<std::string> names;
  for (const auto& e : t["traceEvents"])
    if (e["ph"] == "X") names.push_back(e["name"].get<std::string>());
  EXPECT_THAT(names, ::testing::Contains(::testing::HasSubstr("group 1 (cube)")));
  EXPECT_THAT(names, ::testing::Contains("CUBE"));
  EXPECT_THAT(names, ::testing::Contains("FIXP"));
  EXPECT_THAT(names, ::testing::Not(::testing::Contains(::testing::HasSubstr("group 2"))));
}

TEST(AfcExport, RealVitAndMnist) {
  AF_REQUIRE_REAL_FIXTURES();
  ExportAll(Shell((af::test::RealFixtures() / "inductor" /
                   "t2.0_vit_dynamic_layernorm_softmax_fp16" / "fx_graph_readable.py")
                      .string()),
            " --bind s0=8", "vit", true);
  ExportAll(Shell((af::test::RealFixtures() / "inductor" / "t2.5.1_mnist_cnn_cpu_dynamic_fullrun")
                      .string()),
            " --bind s0=7", "mnist", false);
}

}  // namespace

namespace {

// Exports the reproducers of `input` and builds and runs each with plain cmake: PASS.
// Returns the folder the reproducers went to.
fs::path ReproBuildsAndPasses(const std::string& input, const std::string& args,
                              const std::string& tag) {
  const fs::path d = af::test::TempDir("repro") / tag;
  fs::remove_all(d);
  const auto r = Afc("export " + input + args + " --format repro --out " + Shell(d.string()));
  EXPECT_EQ(r.code, 0) << r.err;
  if (r.code != 0) return d;
  int built = 0;
  for (const auto& k : fs::directory_iterator(d)) {
    for (const char* f : {"main.cc", "CMakeLists.txt", "bisheng.txt", "runtime/kernel_operator.h",
                          "data/in0.npy", "data/out0.npy"})
      EXPECT_TRUE(fs::exists(k.path() / f)) << k.path() << " " << f;
    const fs::path b = k.path() / "build";
    const std::string log = (k.path() / "build.log").string();
    const std::string cmd = "cmake -S " + Shell(k.path().string()) + " -B " + Shell(b.string()) +
                            " >" + Shell(log) + " 2>&1 && cmake --build " + Shell(b.string()) +
                            " >>" + Shell(log) + " 2>&1 && " + Shell((b / "repro").string()) +
                            " >" + Shell((k.path() / "run.log").string()) + " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0)
        << af::test::ReadFile(log) << af::test::ReadFile(k.path() / "run.log");
    EXPECT_THAT(af::test::ReadFile(k.path() / "run.log"), HasSubstr("PASS"));
    ++built;
  }
  EXPECT_GE(built, 1);
  return d;
}

TEST(AfcExport, ReproFoldersBuildWithPlainCmakeAndPass) {
  ReproBuildsAndPasses(Src("samples/hint_graphs/add_bcast_relu.AscGraphDef.txt"),
                       " --bind s0=37,s1=1031", "hint");
  ReproBuildsAndPasses(Src("samples/torch/cases/softmax"), "", "softmax");
}

// A sample of the e2e graphs: a reduction in bf16 and a data-movement graph (split into three).
TEST(AfcExport, E2eReproFoldersBuildWithPlainCmakeAndPass) {
  ReproBuildsAndPasses(Src("tests/e2e/graphs/layernorm_bf16.graph.txt"), " --bind s0=13,s1=77",
                       "e2e_layernorm_bf16");
  ReproBuildsAndPasses(Src("tests/e2e/graphs/split3.graph.txt"), " --bind s0=5,s1=3,s2=4,s3=7",
                       "e2e_split3");
  // A cube + vector kernel (MIX_AIC_1_2: AIC and AIV blocks on the copied runtime).
  const fs::path d = ReproBuildsAndPasses(Src("tests/e2e/graphs/cv_cast_mm.graph.txt"),
                                          " --bind s0=37,s1=45,s2=70", "e2e_cv_cast_mm");
  // bisheng builds it for the whole AI Core (cube and vector), not the AIV alone.
  for (const auto& e : fs::directory_iterator(d)) {
    if (e.is_directory()) {
      EXPECT_THAT(af::test::ReadFile(e.path() / "bisheng.txt"), HasSubstr("=dav-c220 "));
    }
  }
}

}  // namespace
