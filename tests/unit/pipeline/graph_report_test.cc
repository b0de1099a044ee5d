// The CompileReport of a front-end run: the fusion decider's records become fusion_decisions, and
// every op of the model graph a ModelNodeReport naming the kernel that holds it or its fallback
// code (what the viewer's framework-level graph and `afc diff` read).
#include <gmock/gmock.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "autofuse/inputs/registry.h"
#include "autofuse/pipeline/report.h"
#include "fixtures.h"
#include "report.pb.h"

namespace af::pipeline {
namespace {

std::string CaseDir(const std::string& name) {
  return (af::test::SourceDir() / "samples" / "torch" / "cases" / name).string();
}

Options NoBuild() {
  Options o;
  o.build = false;
  return o;
}

std::map<std::string, const report::ModelNodeReport*> ByName(const report::CompileReport& rep) {
  std::map<std::string, const report::ModelNodeReport*> m;
  for (const auto& n : rep.model_nodes())
    m[n.name()] = &n;
  return m;
}

TEST(GraphReport, MatmulEpilogueNodesDecisionsAndFallbacks) {
  const Options o = NoBuild();
  const CompileResult r = inputs::CompileFile(CaseDir("matmul_epilogue"), o);
  report::CompileReport rep;
  inputs::FillReport(r, o, &rep);
  ASSERT_EQ(rep.kernels_size(), 1);
  const std::string kernel = rep.kernels(0).name();
  // The model graph: three tensor placeholders, three ops, the output.
  const auto nodes = ByName(rep);
  ASSERT_EQ(rep.model_nodes_size(), 7);
  ASSERT_TRUE(nodes.count("arg0_1") && nodes.count("mm") && nodes.count("output"));
  EXPECT_EQ(nodes.at("arg0_1")->op(), "placeholder");
  EXPECT_EQ(nodes.at("arg0_1")->dtype(), "f32");
  EXPECT_EQ(nodes.at("arg0_1")->shape(), "[16, 32]");
  EXPECT_EQ(nodes.at("mm")->op(), "aten.mm.default");
  EXPECT_THAT(nodes.at("mm")->inputs(), ::testing::ElementsAre("arg0_1", "arg1_1"));
  // mm is left outside with its reason code; add and relu are the kernel.
  EXPECT_TRUE(nodes.at("mm")->kernel().empty());
  EXPECT_FALSE(nodes.at("mm")->fallback_code().empty());
  EXPECT_EQ(nodes.at("add")->kernel(), kernel);
  EXPECT_EQ(nodes.at("relu")->kernel(), kernel);
  EXPECT_TRUE(nodes.at("relu")->fallback_code().empty());
  EXPECT_THAT(nodes.at("add")->inputs(), ::testing::ElementsAre("mm", "arg2_1"));
  EXPECT_THAT(nodes.at("output")->inputs(), ::testing::ElementsAre("relu"));
  // Every op node is either in a kernel or has a fallback code.
  for (const auto& n : rep.model_nodes()) {
    if (n.op() == "placeholder" || n.op() == "output") continue;
    EXPECT_NE(n.kernel().empty(), n.fallback_code().empty()) << n.name();
  }
  // The decisions: one per FusionRecord; add+relu accepted, mm never a candidate (a cube op).
  ASSERT_EQ(rep.fusion_decisions_size(), static_cast<int>(r.front_end->fusion.records.size()));
  ASSERT_EQ(rep.fusion_decisions_size(), 1);
  const auto& d = rep.fusion_decisions(0);
  EXPECT_TRUE(d.accepted());
  EXPECT_EQ(d.code(), "FUSED");
  EXPECT_EQ(d.kind(), "vertical");
  EXPECT_EQ(d.round(), 1);
  EXPECT_THAT(d.first(), ::testing::ElementsAre("add"));
  EXPECT_THAT(d.second(), ::testing::ElementsAre("relu"));
  EXPECT_GT(d.bytes_saved(), 0);
  EXPECT_EQ(nodes.at("mm")->fallback_code(), "CUBE_OP");
  // The fallbacks stay in the report as before.
  ASSERT_EQ(rep.fallbacks_size(), 1);
  EXPECT_EQ(rep.fallbacks(0).name(), "mm");
}

TEST(GraphReport, RefusedDecisionsKeepTheirCodeAndStage) {
  const Options o = NoBuild();
  const CompileResult r = inputs::CompileFile(CaseDir("rmsnorm_bf16"), o);
  report::CompileReport rep;
  inputs::FillReport(r, o, &rep);
  int refused = 0;
  for (const auto& d : rep.fusion_decisions()) {
    if (d.accepted()) continue;
    ++refused;
    EXPECT_FALSE(d.code().empty());
    EXPECT_NE(d.code(), "FUSED");
    EXPECT_FALSE(d.stage().empty());
    EXPECT_FALSE(d.message().empty());
  }
  EXPECT_GE(refused, 1);
  // Every op is in the one kernel or left outside with a code.
  ASSERT_EQ(rep.kernels_size(), 1);
  for (const auto& n : rep.model_nodes()) {
    if (n.op() == "placeholder" || n.op() == "output") continue;
    EXPECT_NE(n.kernel().empty(), n.fallback_code().empty()) << n.name();
  }
}

TEST(GraphReport, WrittenReportJsonCarriesTheNewFields) {
  const Options o = NoBuild();
  const CompileResult r = inputs::CompileFile(CaseDir("softmax"), o);
  const auto dir = af::test::TempDir("graph_report") / "out";
  inputs::WriteOutputs(r, o, dir.string(), true);
  report::CompileReport rep;
  const auto st =
      google::protobuf::util::JsonStringToMessage(af::test::ReadFile(dir / "report.json"), &rep);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(rep.kernels_size(), 1);
  EXPECT_GT(rep.fusion_decisions_size(), 0);
  int in_kernel = 0;
  for (const auto& n : rep.model_nodes())
    in_kernel += n.kernel() == rep.kernels(0).name() ? 1 : 0;
  EXPECT_GE(in_kernel, 3);  // softmax fuses whole
  EXPECT_TRUE(std::filesystem::exists(dir / "fusion.json"));
}

}  // namespace
}  // namespace af::pipeline
