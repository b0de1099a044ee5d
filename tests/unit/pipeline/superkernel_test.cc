// SuperKernel planning and generation without a host build: which kernels join, where the
// SyncAll goes, how the GM buffers are laid out, and the refusals the CLI tests cannot reach
// (a dtype change between members, a malformed member map).
#include "autofuse/codegen/superkernel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "autofuse/inputs/registry.h"
#include "autofuse/pipeline/superkernel.h"
#include "fixtures.h"

namespace af::pipeline {
namespace {

using ::testing::HasSubstr;

// The fixture graph with one kernel per op (5 AscIR nodes: Data, Load, op, Store, Output);
// `reduce_off`: reductions fall back.
CompileResult CompileFixture(const std::string& name, Options* o, bool reduce_off = false) {
  o->build = false;
  o->flags["autofuse_max_fusion_size"] = "5";
  if (reduce_off) o->flags["autofuse_enable_pass"] = "transpose";
  o->bindings["s0"] = 37;
  Input in = inputs::Import(
      (af::test::SourceDir() / "tests" / "fixtures" / "superkernel" / name).string());
  return Compile(std::move(in), *o);
}

TEST(SuperKernelPlan, ChainJoinsWithOneBarrierBeforeTheDependentMember) {
  Options o;
  const CompileResult r = CompileFixture("chain.fx_graph.py", &o);
  ASSERT_EQ(r.kernels.size(), 3u);
  const SuperPlan p = PlanSuperKernels(r, o);
  ASSERT_EQ(p.segments.size(), 1u);
  const SuperSegment& s = p.segments[0];
  EXPECT_EQ(s.kernels.size(), 3u);
  // exp, relu (reads exp: barrier), neg (reads an input only: no barrier).
  EXPECT_EQ(s.sync_before, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(s.syncs, 1);
  // Two inputs read from outside, then the three values the members write.
  EXPECT_EQ(s.num_inputs, 2);
  EXPECT_EQ(s.buffers.size(), 5u);
  ASSERT_EQ(p.decisions.size(), 1u);
  EXPECT_EQ(p.decisions[0].code, "SUPERKERNEL_JOINED");
  EXPECT_THAT(p.decisions[0].message, HasSubstr("3 kernels"));
}

TEST(SuperKernelPlan, ADtypeChangeBetweenMembersCutsTheSegment) {
  Options o;
  CompileResult r = CompileFixture("chain.fx_graph.py", &o);
  ASSERT_EQ(r.kernels.size(), 3u);
  // relu's input as fp16 while exp wrote fp32: only the separate run converts between them.
  for (auto& n : r.kernels[1].hint.nodes)
    if (n.type == "Data") n.outputs.at(0).dtype = ir::DType::kFloat16;
  const SuperPlan p = PlanSuperKernels(r, o);
  ASSERT_EQ(p.decisions.size(), 2u);
  EXPECT_EQ(p.decisions[0].code, "SUPERKERNEL_DTYPE");
  EXPECT_THAT(p.decisions[0].message, HasSubstr("runs alone"));
  EXPECT_THAT(p.decisions[0].message, HasSubstr("as fp16"));
  ASSERT_EQ(p.segments.size(), 1u);
  EXPECT_EQ(p.segments[0].kernels, (std::vector<int>{1, 2}));
  EXPECT_EQ(p.segments[0].syncs, 0);
}

TEST(SuperKernelPlan, AFallbackBetweenKernelsEndsTheSegment) {
  Options o;
  const CompileResult r = CompileFixture("fallback.fx_graph.py", &o, true);
  const SuperPlan p = PlanSuperKernels(r, o);
  ASSERT_EQ(p.decisions.size(), 2u);
  EXPECT_EQ(p.decisions[0].code, "SUPERKERNEL_FALLBACK_BETWEEN");
  EXPECT_THAT(p.decisions[0].message, HasSubstr("sum_1"));
  EXPECT_EQ(p.decisions[1].code, "SUPERKERNEL_JOINED");
  ASSERT_EQ(p.segments.size(), 1u);
  EXPECT_EQ(p.segments[0].kernels.size(), 2u);
  EXPECT_EQ(p.segments[0].syncs, 0);
}

TEST(SuperKernelCodegen, RefusesAMalformedMemberMap) {
  Options o;
  const CompileResult r = CompileFixture("chain.fx_graph.py", &o);
  codegen::SuperKernelSpec spec;
  spec.num_buffers = 2;
  codegen::SuperMember m;
  m.hint = &r.kernels[0].hint;
  m.schedule = &r.kernels[0].schedule;
  m.params = {0, 1};
  spec.members.push_back(m);
  try {
    (void)codegen::GenerateSuper(spec, {});
    FAIL() << "one member accepted";
  } catch (const codegen::CodegenError& e) {
    EXPECT_EQ(e.code(), "SUPERKERNEL_PARAMS");
  }
  spec.members.push_back(m);
  spec.members[1].params = {0};  // exp takes an input and an output
  try {
    (void)codegen::GenerateSuper(spec, {});
    FAIL() << "a short parameter map accepted";
  } catch (const codegen::CodegenError& e) {
    EXPECT_EQ(e.code(), "SUPERKERNEL_PARAMS");
    EXPECT_THAT(e.what(), HasSubstr("takes 2 GM buffers"));
  }
  spec.members[1].params = {0, 7};  // past the entry's buffers
  EXPECT_THROW((void)codegen::GenerateSuper(spec, {}), codegen::CodegenError);
}

}  // namespace
}  // namespace af::pipeline
