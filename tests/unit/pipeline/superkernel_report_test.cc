// The super-kernel part of the CompileReport (pipeline/superkernel_report.h): filled from the
// estimate when the run asks for it with every size bound, a reason code instead when it cannot
// be made, absent when not asked for; and carried into report.json.
#include "autofuse/pipeline/superkernel_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "autofuse/inputs/registry.h"
#include "autofuse/pipeline/report.h"
#include "autofuse/pipeline/superkernel.h"
#include "fixtures.h"
#include "report.pb.h"

namespace af::pipeline {
namespace {

using ::testing::HasSubstr;

std::string Fixture(const std::string& name) {
  return (af::test::SourceDir() / "tests" / "fixtures" / "superkernel" / name).string();
}

// One kernel per op, as the planner tests compile them.
Options OnePerOp(bool bind) {
  Options o;
  o.build = false;
  o.superkernel = true;
  o.flags["autofuse_max_fusion_size"] = "5";
  if (bind) o.bindings["s0"] = 37;
  return o;
}

TEST(SuperKernelReport, ChainIsFilledFromTheEstimate) {
  const Options o = OnePerOp(true);
  const CompileResult r = inputs::CompileFile(Fixture("chain.fx_graph.py"), o);
  report::CompileReport rep;
  inputs::FillReport(r, o, &rep);
  ASSERT_TRUE(rep.has_superkernel());
  const report::SuperKernelReport& sk = rep.superkernel();
  EXPECT_EQ(sk.code(), kSuperEstimated) << sk.message();
  const SuperEstimate e = EstimateSuper(r, o);
  // exp, relu (reads exp: a SyncAll before it), neg: one super kernel of three members.
  ASSERT_EQ(sk.members_size(), 3);
  ASSERT_EQ(sk.segments_size(), 1);
  EXPECT_THAT(sk.segments(0).members(), ::testing::ElementsAre(0, 1, 2));
  for (int m = 0; m < 3; ++m) {
    const auto& mr = sk.members(m);
    EXPECT_EQ(mr.segment(), 0);
    EXPECT_EQ(mr.sync_before(), m == 1) << m;
    EXPECT_DOUBLE_EQ(mr.kernel_us(), e.kernels[static_cast<std::size_t>(m)].kernel_us);
    EXPECT_GT(mr.kernel_us(), 0);
    // The member names the report's kernel it is.
    ASSERT_GE(mr.kernel(), 0);
    ASSERT_LT(mr.kernel(), rep.kernels_size());
    EXPECT_EQ(mr.name(), rep.kernels(mr.kernel()).name());
  }
  const auto& g = sk.segments(0);
  EXPECT_EQ(g.syncs(), 1);
  EXPECT_EQ(g.independent(), 1);
  const auto& md = sk.model();
  EXPECT_GT(md.launch_us(), 0);
  EXPECT_DOUBLE_EQ(md.sync_us(), kSyncAllAssumptionUs);
  EXPECT_DOUBLE_EQ(g.launches_removed_us(), 2 * md.launch_us());
  EXPECT_DOUBLE_EQ(g.barriers_us(), md.sync_us());
  EXPECT_DOUBLE_EQ(g.early_start_us(), md.sync_us());
  EXPECT_NEAR(g.separate_us() - g.super_us(), 2 * md.launch_us() - md.sync_us(), 1e-9);
  EXPECT_EQ(sk.separate_launches(), 3);
  EXPECT_EQ(sk.super_launches(), 1);
  EXPECT_NEAR(sk.saving_us(), sk.separate_us() - sk.super_us(), 1e-12);
  EXPECT_NEAR(sk.separate_us(), e.separate_us, 1e-12);
  EXPECT_GT(md.clock_ghz(), 0);
  EXPECT_FALSE(md.clock_source().empty());
  EXPECT_FALSE(md.launch_source().empty());
  EXPECT_THAT(md.sync_source(), HasSubstr("assumption"));
  ASSERT_EQ(sk.decisions_size(), 1);
  EXPECT_EQ(sk.decisions(0).code(), "SUPERKERNEL_JOINED");
  EXPECT_EQ(sk.decisions(0).stage(), "superkernel");
  // report.json carries it.
  const std::string json = ReportToJson(rep);
  EXPECT_THAT(json, HasSubstr("\"superkernel\""));
  EXPECT_THAT(json, HasSubstr("\"launches_removed_us\""));
  EXPECT_THAT(json, HasSubstr("SUPERKERNEL_ESTIMATED"));
}

TEST(SuperKernelReport, AFallbackSplitsTheTimeline) {
  // exp | sum_1 falls back | neg, relu: the kernels after the fallback join, exp runs alone.
  Options o = OnePerOp(false);
  o.flags["autofuse_enable_pass"] = "transpose";
  const CompileResult r = inputs::CompileFile(Fixture("fallback.fx_graph.py"), o);
  report::CompileReport rep;
  inputs::FillReport(r, o, &rep);
  const report::SuperKernelReport& sk = rep.superkernel();
  ASSERT_EQ(sk.code(), kSuperEstimated) << sk.message();
  ASSERT_EQ(sk.members_size(), 3);
  EXPECT_EQ(sk.members(0).segment(), -1);
  ASSERT_EQ(sk.segments_size(), 1);
  EXPECT_THAT(sk.segments(0).members(), ::testing::ElementsAre(1, 2));
  EXPECT_EQ(sk.super_launches(), 2);
  ASSERT_EQ(sk.decisions_size(), 2);
  EXPECT_EQ(sk.decisions(0).code(), "SUPERKERNEL_FALLBACK_BETWEEN");
}

TEST(SuperKernelReport, UnboundSizesGiveAReasonNotAFailedReport) {
  const Options o = OnePerOp(false);
  const CompileResult r = inputs::CompileFile(Fixture("chain.fx_graph.py"), o);
  report::CompileReport rep;
  inputs::FillReport(r, o, &rep);
  EXPECT_EQ(rep.kernels_size(), 3);
  ASSERT_TRUE(rep.has_superkernel());
  EXPECT_EQ(rep.superkernel().code(), kSuperSizesUnbound);
  EXPECT_THAT(rep.superkernel().message(), HasSubstr("--bind s0=N"));
  EXPECT_EQ(rep.superkernel().members_size(), 0);
  EXPECT_EQ(rep.superkernel().segments_size(), 0);
}

TEST(SuperKernelReport, OnlyWhenAskedAndOnlyForModelGraphs) {
  Options o = OnePerOp(true);
  o.superkernel = false;
  const CompileResult r = inputs::CompileFile(Fixture("chain.fx_graph.py"), o);
  report::CompileReport rep;
  inputs::FillReport(r, o, &rep);
  EXPECT_FALSE(rep.has_superkernel());
  EXPECT_THAT(ReportToJson(rep), ::testing::Not(HasSubstr("\"superkernel\"")));
  // A hint graph has no execution order between kernels.
  Options h;
  h.build = false;
  h.superkernel = true;
  const CompileResult hr = inputs::CompileFile(
      (af::test::SourceDir() / "samples" / "hint_graphs" / "add_bcast_relu.AscGraphDef.txt")
          .string(),
      h);
  inputs::FillReport(hr, h, &rep);
  EXPECT_EQ(rep.superkernel().code(), kSuperNotModelGraph);
  EXPECT_EQ(rep.kernels_size(), 1);
}

TEST(SuperKernelReport, ScopesMarkedInTheInputFillItWithoutTheOption) {
  // exp and sin in scope sk1 join; neg+relu is half in it, tanh outside.
  Options o;
  o.build = false;
  o.bindings["s0"] = 77;
  const CompileResult r = inputs::CompileFile(Fixture("scopes.fx_graph.py"), o);
  report::CompileReport rep;
  inputs::FillReport(r, o, &rep);
  ASSERT_TRUE(rep.has_superkernel());
  const report::SuperKernelReport& sk = rep.superkernel();
  ASSERT_EQ(sk.code(), kSuperEstimated) << sk.message();
  EXPECT_EQ(sk.segments_size(), 1);
  EXPECT_EQ(sk.separate_launches(), 4);
  EXPECT_EQ(sk.super_launches(), 3);
  std::vector<std::string> codes;
  for (const auto& d : sk.decisions())
    codes.push_back(d.code());
  EXPECT_THAT(codes, ::testing::Contains("SUPERKERNEL_OUTSIDE_SCOPE"));
  EXPECT_THAT(codes, ::testing::Contains("SUPERKERNEL_SCOPE_MIXED"));
}

}  // namespace
}  // namespace af::pipeline
