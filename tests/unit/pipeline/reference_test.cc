// The references a kernel is checked against (pipeline/reference.h): the precision graph's run is
// what the kernel computes, comparison ties are settled in the per-step run, and `afc run`
// compares the kernel with the precision graph's run (soak seed 607: a fp16 Le of a value and
// its Sum flipped a Where between the per-step reference and the kernel's fp32).
#include "autofuse/pipeline/reference.h"

#include <gtest/gtest.h>

#include "autofuse/data/host_array.h"
#include "autofuse/inputs/registry.h"
#include "autofuse/interp/interpreter.h"
#include "autofuse/ir/text.h"
#include "autofuse/pipeline/run.h"
#include "fixtures.h"

namespace af::pipeline {
namespace {

std::string TieGraphPath() {
  return (af::test::SourceDir() / "tests" / "soak" / "regressions" /
          "fp16_le_sum_where_tie.graph.txt")
      .string();
}

// n1 = x (fp16 [1, 1, 2]), n3 = x * 0.5, n4 = Sum(n3) over the inner dims, Where(n3 <= n4, n1, n3).
// x = (2, -0.0002): n3 = (1, -0.0001); the fp16 Sum 0.9999 rounds to 1, so per step 1 <= 1 picks
// x = 2, while the kernel's fp32 sum 0.9999 makes 1 <= 0.9999 false and picks n3 = 1.
struct TieCase {
  ir::Graph g = ir::ParseText(af::test::ReadFile(TieGraphPath()), TieGraphPath());
  sym::Bindings b = {{"s0", 1}, {"s1", 1}, {"s2", 2}};
  std::vector<data::HostArray> inputs = {
      data::FromDoubles(ir::DType::kFloat16, {1, 1, 2}, {2.0, -0.0002})};
};

TEST(Reference, PrecisionGraphComputesHalvesInFp32) {
  const TieCase t;
  const ir::Graph p = schedule::PrecisionGraph(t.g);
  int casts = 0;
  for (const auto& n : p.nodes) {
    if (n.type == "Sum" || n.type == "Mul" || n.type == "Where") {
      EXPECT_EQ(n.outputs.at(0).dtype, ir::DType::kFloat32) << n.name;
    }
    casts += n.type == "Cast" ? 1 : 0;
  }
  EXPECT_GT(casts, 0);
  EXPECT_EQ(p.nodes.size(), t.g.nodes.size() + static_cast<std::size_t>(casts));
  // Without the upcast it is the graph as written.
  schedule::ScheduleOptions keep;
  keep.upcast_half = false;
  EXPECT_EQ(schedule::PrecisionGraph(t.g, keep), t.g);
}

TEST(Reference, NormalizedRunDiffersFromThePerStepRunAtATie) {
  const TieCase t;
  const auto per_step = interp::Interpret(t.g, t.b, t.inputs);
  EXPECT_EQ(data::ToDoubles(per_step.at(0)),
            (std::vector<double>{2.0, data::ToDoubles(t.inputs[0])[1]}));
  const References refs = ComputeReferences(t.g, {}, t.b, t.inputs);
  ASSERT_EQ(refs.normalized.size(), 1u);
  EXPECT_EQ(data::ToDoubles(refs.normalized[0])[0], 1.0);
  // The per-step run takes the normalized outcome of the tie: it agrees with the kernel's.
  ASSERT_EQ(refs.per_step.size(), 1u);
  EXPECT_EQ(refs.settled_ties, 1);
  EXPECT_EQ(data::ToDoubles(refs.per_step[0]), data::ToDoubles(refs.normalized[0]));
}

TEST(Reference, FarApartOperandsAreNotSettled) {
  // x = (2, 3): n3 = (1, 1.5), Sum 2.5: both runs agree, nothing to settle.
  TieCase t;
  t.inputs = {data::FromDoubles(ir::DType::kFloat16, {1, 1, 2}, {2.0, 3.0})};
  const References refs = ComputeReferences(t.g, {}, t.b, t.inputs);
  EXPECT_EQ(refs.settled_ties, 0);
  EXPECT_EQ(data::ToDoubles(refs.per_step.at(0)), (std::vector<double>{2.0, 3.0}));
}

TEST(Reference, HookSeesBroadcastInputsAndChangesTheValue) {
  const TieCase t;
  interp::NodeHook hook;
  hook.nodes = {"n5"};  // Le(n3 [1,1,2], n4 [1,1,1])
  int calls = 0;
  hook.fn = [&](const ir::Node& n, const std::vector<data::HostArray>& in, data::HostArray& v) {
    ++calls;
    EXPECT_EQ(n.type, "Le");
    ASSERT_EQ(in.size(), 2u);
    EXPECT_EQ(in[1].shape, v.shape);  // the Sum, broadcast to the comparison's shape
    EXPECT_EQ(data::ToDoubles(in[1]), (std::vector<double>{1.0, 1.0}));
    v.SetFromInt(0, 0);  // force "false": the Where takes n3 = 1
  };
  const auto out = interp::Interpret(t.g, t.b, t.inputs, hook);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(data::ToDoubles(out.at(0))[0], 1.0);
}

TEST(Reference, AfcRunComparesTheKernelWithTheNormalizedReference) {
  const TieCase t;
  Options o;
  o.compile.cache_dir = af::test::BinaryDir() / "kernel-cache";
  o.bindings = t.b;
  const CompileResult r = inputs::CompileFile(TieGraphPath(), o);
  ASSERT_EQ(r.kernels.size(), 1u);
  ASSERT_TRUE(r.kernels[0].error.empty()) << r.kernels[0].error;
  RunOptions ro;
  ro.inputs = t.inputs;
  const RunResult res = pipeline::Run(r.kernels[0], o, ro);
  EXPECT_TRUE(res.ok) << res.outputs.at(0).message;
  // The kernel computes the fp32 outcome (1), which the per-step reference alone calls wrong (2).
  EXPECT_EQ(data::ToDoubles(res.actual.at(0))[0], 1.0);
  EXPECT_EQ(data::ToDoubles(interp::Interpret(t.g, t.b, t.inputs).at(0))[0], 2.0);
  EXPECT_EQ(res.expected.at(0), ComputeReferences(t.g, {}, t.b, t.inputs).normalized.at(0));
  EXPECT_EQ(res.settled_ties, 1);
  // The output's cone reduces halves (the fp16 Sum), where per-step rounding of the summands may
  // cancel: it is compared with the normalized reference only.
  ASSERT_EQ(res.outputs.size(), 1u);
  EXPECT_FALSE(res.outputs[0].per_step_checked);
}

}  // namespace
}  // namespace af::pipeline
