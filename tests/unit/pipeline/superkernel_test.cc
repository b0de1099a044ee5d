// SuperKernel planning and generation without a host build: which kernels join, where the
// SyncAll goes, how the GM buffers are laid out, and the refusals the CLI tests cannot reach
// (a dtype change between members, a malformed member map).
#include "autofuse/codegen/superkernel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "autofuse/inputs/registry.h"
#include "autofuse/pipeline/superkernel.h"
#include "autofuse/pipeline/view_alias.h"
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

TEST(SuperKernelPlan, AliasingViewsMapTheirResultsToTheSourceBuffer) {
  Options o;
  const CompileResult r = CompileFixture("view_alias.fx_graph.py", &o);
  ASSERT_EQ(r.kernels.size(), 4u);
  const SuperPlan p = PlanSuperKernels(r, o);
  ASSERT_EQ(p.segments.size(), 1u);
  const SuperSegment& s = p.segments[0];
  const model::Graph& g = r.front_end->graph;
  // view, unsqueeze and permute all read exp's buffer; exp is written in the segment, so the one
  // input from outside is arg0_1 and the buffers are it and the four kernels' results.
  ASSERT_EQ(s.alias.size(), 2u);  // the values members read: view (relu), permute (neg, abs)
  for (const auto& [v, src] : s.alias)
    EXPECT_EQ(g.value(src).name, "exp") << g.value(v).name;
  EXPECT_EQ(s.num_inputs, 1);
  EXPECT_EQ(s.buffers.size(), 5u);
  EXPECT_EQ(s.sync_before,
            (std::vector<bool>{false, true, false, false}));  // one barrier after exp
  std::size_t aliased = 0;
  for (const auto& d : p.decisions)
    aliased += d.code == "SUPERKERNEL_VIEW_ALIASED" ? 1 : 0;
  EXPECT_EQ(aliased, 3u);
}

// Each view op of the fixture: does its result alias its input (from the op and its strides)?
TEST(ViewAlias, DecidedFromTheOpAndItsStrides) {
  const Input in = inputs::Import(
      (af::test::SourceDir() / "tests/fixtures/superkernel/view_ops.fx_graph.py").string());
  const model::Graph& g = *in.model;
  std::map<std::string, ViewAlias> by_name;
  for (const auto& n : g.nodes)
    if (n.kind == model::NodeKind::kOp) by_name[n.name] = ViewAliasOf(g, n);
  const std::map<std::string, bool> want = {
      {"expand", true},                         // no dim broadcast
      {"expand_1", false},                      // broadcasts a size-1 dim: stride 0
      {"select", true},                         // a size-1 dim
      {"slice_1", false},                       // drops elements
      {"clone", false},                         // copies by contract
      {"permute", false},                       // a real transpose (s1 is not known to be 1)
      {"permute_1", true},                      // moves s0 past a size-1 dim only
      {"transpose", true},                      // swaps a size-1 dim with the last
      {"view", true},                           // a reshape: the elements in order
      {"contiguous", true},                     // our buffers are dense already
      {"alias", true},      {"view_1", false},  // reinterprets the dtype
      {"exp", false},                           // no view at all
  };
  for (const auto& [name, aliases] : want) {
    ASSERT_TRUE(by_name.contains(name)) << name;
    EXPECT_EQ(by_name[name].aliases, aliases) << name << ": " << by_name[name].reason;
  }
  EXPECT_TRUE(by_name["exp"].reason.empty());
  EXPECT_THAT(by_name["expand_1"].reason, HasSubstr("changes the element count"));
  EXPECT_THAT(by_name["permute"].reason, HasSubstr("moves data: [s1, 8] -> [8, s1]"));
  EXPECT_THAT(by_name["clone"].reason, HasSubstr("copies by contract"));
  EXPECT_EQ(g.value(by_name["view"].source).name, "arg0_1");
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
