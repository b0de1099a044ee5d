// afc estimate as a user runs it: case directories, Inductor dumps, the model constants it
// reports, and inputs it cannot estimate (exit 2 with the reason, never a crash).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "afc_process.h"
#include "fixtures.h"

namespace {

using ::testing::HasSubstr;

using Result = af::test::AfcResult;
using af::test::Afc;
using af::test::Shell;

std::string Src(const std::string& rel) {
  return Shell((af::test::SourceDir() / rel).string());
}

TEST(AfcEstimate, CaseDirectoryWithSourcedClock) {
  const Result r = Afc("estimate " + Src("samples/torch/cases/abs_add_relu_casts") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["kernels"].size(), 1u);
  const auto& k = j["kernels"][0];
  EXPECT_GT(k["fused_us"].get<double>(), 3.0);  // one launch at least
  EXPECT_GT(k["unfused_us"].get<double>(), k["fused_us"].get<double>());
  EXPECT_DOUBLE_EQ(j["model"]["clock_ghz"].get<double>(), 1.8);
  EXPECT_DOUBLE_EQ(j["model"]["launch_us"].get<double>(), 3.0);
  EXPECT_NEAR(j["total"]["gain"].get<double>(),
              j["total"]["unfused_us"].get<double>() / j["total"]["fused_us"].get<double>(), 1e-9);
  // The 950 profile's clock is 1.65 GHz: the same cycles take longer.
  const Result v2 =
      Afc("estimate " + Src("samples/torch/cases/abs_add_relu_casts") + " --soc ascend950 --json");
  ASSERT_EQ(v2.code, 0) << v2.err;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(v2.out)["model"]["clock_ghz"].get<double>(), 1.65);
}

TEST(AfcEstimate, InductorPostFusionFile) {
  const std::string f = Src("tests/fixtures/inductor/pointwise_bcast.ir_post_fusion.txt");
  const Result r = Afc("estimate " + f + " --bind s0=1000 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["kernels"].size(), 1u) << r.out;
  const auto& k = j["kernels"][0];
  EXPECT_EQ(k["name"], "op0_op1");
  EXPECT_EQ(k["nodes"], nlohmann::json::array({"op0", "op1"}));
  // two kernels apart (two launches, buf0 written and read back) against one
  EXPECT_GT(k["unfused_us"].get<double>(), k["fused_us"].get<double>() + 3.0);
  const Result text = Afc("estimate " + f + " --bind s0=1000");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("op0_op1: fused "));
  EXPECT_THAT(text.out, HasSubstr("(clock 1.80 GHz, 3.00 us per launch)"));
}

TEST(AfcEstimate, InductorNeedsBoundSizes) {
  const Result r =
      Afc("estimate " + Src("tests/fixtures/inductor/pointwise_bcast.ir_post_fusion.txt"));
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("size symbols unbound: pass --bind s0=N"));
}

TEST(AfcEstimate, InductorDebugFolder) {
  AF_REQUIRE_REAL_FIXTURES();
  const std::string dir = Shell(
      (af::test::RealFixtures() / "inductor" / "t2.5.1_mnist_cnn_cpu_dynamic_fullrun").string());
  const Result r = Afc("estimate " + dir + " --bind s0=7 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_GT(j["kernels"].size() + j["skipped"].size(), 0u) << r.out;
  for (const auto& s : j["skipped"])
    EXPECT_FALSE(s["reason"].get<std::string>().empty());
}

TEST(AfcEstimate, InputsItCannotEstimate) {
  const Result asc = Afc("estimate " + Src("samples/hint_graphs/add_bcast_relu.AscGraphDef.txt"));
  EXPECT_EQ(asc.code, 2);
  EXPECT_THAT(asc.err, HasSubstr("an AscGraph is one kernel already"));
  const Result missing = Afc("estimate /nonexistent/folder");
  EXPECT_EQ(missing.code, 2);
  EXPECT_THAT(missing.err, HasSubstr("no such file or folder"));
  // An Inductor dump without post-fusion IR: which nodes share a kernel is unknown.
  const Result no_post = Afc("estimate " + Src("tests/fixtures/inductor/output_code_2.5_cpp.py"));
  EXPECT_EQ(no_post.code, 2);
  EXPECT_THAT(no_post.err, HasSubstr("no ir_post_fusion.txt"));
}

}  // namespace
