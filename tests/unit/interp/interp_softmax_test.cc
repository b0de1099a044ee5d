// AscIR's V2 Softmax node: the reference interpreter against NumPy (fp32 and fp16, along the
// innermost axis, rows holding NaN and -inf), and the schedule's expansion (SOFTMAX_EXPANDED:
// the same values from the Max/Sub/Exp/Sum/Div graph the templates schedule).
#include <gtest/gtest.h>

#include <cmath>

#include "autofuse/data/compare.h"
#include "autofuse/hw/profile.h"
#include "autofuse/interp/interpreter.h"
#include "autofuse/ir/validate.h"
#include "autofuse/schedule/schedule.h"
#include "graph_builder.h"
#include "numpy_case.h"

namespace af::interp {
namespace {

using ir::DType;
using testing::GraphBuilder;

ir::Graph SoftmaxGraph(DType dt) {
  GraphBuilder b("softmax", 2);
  const int x = b.Data("x", 0, dt, "s0, s1", "s1, 1");
  const int l = b.Add("Load", "lx", {x}, dt, "s0, s1", "s1, 1");
  const int sm = b.Add("Softmax", "sm", {l}, dt, "s0, s1", "s1, 1");
  const int st = b.Add("Store", "st", {sm}, dt, "s0, s1", "s1, 1");
  b.Output("y", 0, st, dt, "s0, s1", "s1, 1");
  return b.graph();
}

TEST(InterpSoftmax, InnermostAxisAgainstNumpyWithNanAndInfRows) {
  testing::NumpyScript c("softmax", "rng = np.random.default_rng(5)\n");
  ASSERT_EQ(c.Run(R"(
x = rng.uniform(-8, 8, (6, 37)).astype(np.float32)
x[1, 3] = np.nan; x[2, :] = -np.inf; x[3, 5] = np.inf; x[4, :] = 1000.0
np.save('x.npy', x); np.save('h.npy', x.astype(np.float16))
def sm(v):
    v = v.astype(np.float64)
    with np.errstate(invalid='ignore'):
        e = np.exp(v - v.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
np.save('y.npy', sm(x).astype(np.float32))
np.save('yh.npy', sm(x.astype(np.float16)).astype(np.float16))
)"),
            "");
  const sym::Bindings bind = {{"s0", 6}, {"s1", 37}};
  const ir::Graph g = SoftmaxGraph(DType::kFloat32);
  EXPECT_FALSE(ir::HasErrors(ir::Validate(g)));
  auto out = Interpret(g, bind, {c.Load("x")});
  EXPECT_CLOSE(c.Load("y"), out[0], 0.0, 1e-6);  // NaN rows must be NaN in both
  out = Interpret(SoftmaxGraph(DType::kFloat16), bind, {c.Load("h", DType::kFloat16)});
  EXPECT_CLOSE(c.Load("yh", DType::kFloat16), out[0], 0.0, 1.0 / 1024);
}

TEST(InterpSoftmax, TheScheduleExpandsItIntoTheOpsItSchedules) {
  const ir::Graph g = SoftmaxGraph(DType::kFloat32);
  const auto s = schedule::Schedule(g, hw::GetProfile("ascend950"));
  std::string types;
  for (const auto& n : s.graph.nodes)
    types += n.type + " ";
  EXPECT_NE(types.find("Max"), std::string::npos) << types;
  EXPECT_NE(types.find("Exp"), std::string::npos) << types;
  EXPECT_NE(types.find("Sum"), std::string::npos) << types;
  EXPECT_NE(types.find("Div"), std::string::npos) << types;
  EXPECT_EQ(types.find("Softmax"), std::string::npos) << types;
  bool expanded = false;
  for (const auto& d : s.decisions)
    expanded = expanded || d.code == "SOFTMAX_EXPANDED";
  EXPECT_TRUE(expanded);
  // On A2/A3 it compiles the same, with AutoFuse V1's missing registration as a decision.
  const auto v1 = schedule::Schedule(g, hw::GetProfile("ascend910b"));
  bool unregistered = false;
  for (const auto& d : v1.decisions)
    unregistered = unregistered || (d.code == "AUTOFUSE_V1_UNREGISTERED" &&
                                    d.message.find("Softmax") != std::string::npos);
  EXPECT_TRUE(unregistered);
}

}  // namespace
}  // namespace af::interp
