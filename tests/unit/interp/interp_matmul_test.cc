// The cube ops (MatMul, MatMulBias, BatchMatMul) in validation and the reference interpreter,
// against NumPy: transposed operands, fp16/bf16 inputs with fp32 or narrow outputs, bias and
// has_relu, broadcast batch dims, operands read straight from Data nodes, and every refusal.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "autofuse/data/compare.h"
#include "autofuse/data/npy.h"
#include "autofuse/interp/interpreter.h"
#include "autofuse/ir/cube.h"
#include "autofuse/ir/text.h"
#include "autofuse/ir/validate.h"
#include "autofuse/support/error.h"
#include "fixtures.h"
#include "graph_builder.h"
#include "numpy_case.h"

namespace af::interp {
namespace {

using data::HostArray;
using ir::DType;
using testing::GraphBuilder;

constexpr auto F32 = DType::kFloat32;
constexpr auto F16 = DType::kFloat16;
constexpr auto BF16 = DType::kBFloat16;

constexpr const char* kPrelude = R"(
rng = np.random.default_rng(7)
def bf16(a):
    a = np.ascontiguousarray(a, dtype=np.float32)
    u = a.view(np.uint32).astype(np.uint64)
    u = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    return u.astype(np.uint32).view(np.float32)
def rand(shape):
    return rng.uniform(-2.0, 2.0, shape).astype(np.float32)
)";

class Case : public testing::NumpyScript {
 public:
  explicit Case(const std::string& tag) : NumpyScript(tag, kPrelude) {}
};

std::string Dense(const std::vector<std::string>& dims) {
  std::string r;
  for (std::size_t k = 0; k < dims.size(); ++k) {
    std::string s = "1";
    for (std::size_t j = k + 1; j < dims.size(); ++j)
      s += " * " + dims[j];
    r += (k != 0 ? ", " : "") + s;
  }
  return r;
}
std::string Join(const std::vector<std::string>& dims) {
  std::string r;
  for (std::size_t k = 0; k < dims.size(); ++k)
    r += (k != 0 ? ", " : "") + dims[k];
  return r;
}

struct Spec {
  std::string type = "MatMul";
  DType in = F32;
  DType out = F32;
  std::vector<std::string> x1, x2, y, bias;  // dims as size expressions
  std::vector<std::pair<std::string, std::int64_t>> attrs;
  bool through_loads = true;
};

// Data x1, x2 (and bias) -> [Load] -> cube op -> Store -> Output.
ir::Graph CubeGraph(const Spec& s) {
  GraphBuilder b("cube", 4);  // axes z0..z3: the views name them by position
  for (const char* v : {"b0", "b1", "m", "k", "n"})
    b.AddSizeVar(v);
  auto operand = [&](const std::string& name, std::int64_t index, DType dt,
                     const std::vector<std::string>& dims) {
    const int d = b.Data(name, index, dt, Join(dims), Dense(dims));
    return s.through_loads ? b.Add("Load", "l" + name, {d}, dt, Join(dims), Dense(dims)) : d;
  };
  std::vector<int> ins = {operand("x1", 0, s.in, s.x1), operand("x2", 1, s.in, s.x2)};
  if (!s.bias.empty()) ins.push_back(operand("bias", 2, s.out, s.bias));
  const int mm = b.Add(s.type, "mm", ins, s.out, Join(s.y), Dense(s.y));
  for (const auto& [k, v] : s.attrs)
    b.node(mm).attrs[k] = v;
  const int st = b.Add("Store", "st", {mm}, s.out, Join(s.y), Dense(s.y));
  b.Output("y", 0, st, s.out, Join(s.y), Dense(s.y));
  return b.graph();
}

std::vector<std::string> Errors(const ir::Graph& g) {
  std::vector<std::string> out;
  for (const auto& d : ir::Validate(g)) {
    if (d.severity == ir::Diagnostic::Severity::kError) out.push_back(d.message);
  }
  return out;
}

TEST(InterpMatMul, Float32PlainAndTransposedOperands) {
  Case c("mm_f32");
  ASSERT_EQ(c.Run(R"(
a = rand((5, 7)); b = rand((7, 3))
np.save('a.npy', a); np.save('b.npy', b); np.save('at.npy', np.ascontiguousarray(a.T))
np.save('bt.npy', np.ascontiguousarray(b.T))
np.save('y.npy', (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32))
)"),
            "");
  const sym::Bindings bind = {{"m", 5}, {"k", 7}, {"n", 3}};
  for (int t1 = 0; t1 < 2; ++t1) {
    for (int t2 = 0; t2 < 2; ++t2) {
      Spec s;
      s.x1 = t1 != 0 ? std::vector<std::string>{"k", "m"} : std::vector<std::string>{"m", "k"};
      s.x2 = t2 != 0 ? std::vector<std::string>{"n", "k"} : std::vector<std::string>{"k", "n"};
      s.y = {"m", "n"};
      s.attrs = {{"transpose_x1", t1}, {"transpose_x2", t2}};
      s.through_loads = t1 == t2;  // both forms of operand
      const ir::Graph g = CubeGraph(s);
      EXPECT_TRUE(Errors(g).empty()) << Errors(g).front();
      const auto out =
          Interpret(g, bind, {c.Load(t1 != 0 ? "at" : "a"), c.Load(t2 != 0 ? "bt" : "b")});
      EXPECT_CLOSE(c.Load("y"), out[0], 0.0, 1e-6);
    }
  }
}

TEST(InterpMatMul, HalfInputsAccumulateWideAndRoundOnce) {
  Case c("mm_f16");
  // K = 300 products of fp16 values: an fp16 accumulator would be far off; the exact sum rounded
  // once to fp16 (and to fp32 for the fp32 output) is what the cube computes.
  ASSERT_EQ(c.Run(R"(
a = rand((4, 300)).astype(np.float16); b = rand((300, 6)).astype(np.float16)
np.save('a.npy', a); np.save('b.npy', b)
y = a.astype(np.float64) @ b.astype(np.float64)
np.save('y16.npy', y.astype(np.float16)); np.save('y32.npy', y.astype(np.float32))
)"),
            "");
  for (DType out_dt : {F16, F32}) {
    Spec s;
    s.in = F16;
    s.out = out_dt;
    s.x1 = {"m", "k"};
    s.x2 = {"k", "n"};
    s.y = {"m", "n"};
    const ir::Graph g = CubeGraph(s);
    EXPECT_TRUE(Errors(g).empty());
    const auto out = Interpret(g, {{"m", 4}, {"k", 300}, {"n", 6}}, {c.Load("a"), c.Load("b")});
    EXPECT_CLOSE(c.Load(out_dt == F16 ? "y16" : "y32"), out[0], 0.0, out_dt == F16 ? 0.0 : 1e-6);
  }
}

TEST(InterpMatMul, Bf16BiasAndRelu) {
  Case c("mm_bias");
  ASSERT_EQ(c.Run(R"(
a = bf16(rand((6, 33))); b = bf16(rand((33, 9))); bias = bf16(rand((9,)))
np.save('a.npy', a); np.save('b.npy', b); np.save('bias.npy', bias)
y = np.maximum(a.astype(np.float64) @ b.astype(np.float64) + bias.astype(np.float64), 0)
np.save('y.npy', bf16(y.astype(np.float32)))
)"),
            "");
  Spec s;
  s.type = "MatMulBias";
  s.in = BF16;
  s.out = BF16;
  s.x1 = {"m", "k"};
  s.x2 = {"k", "n"};
  s.y = {"m", "n"};
  s.bias = {"n"};
  s.attrs = {{"has_relu", 1}};
  const ir::Graph g = CubeGraph(s);
  EXPECT_TRUE(Errors(g).empty());
  const auto out = Interpret(g, {{"m", 6}, {"k", 33}, {"n", 9}},
                             {c.Load("a", BF16), c.Load("b", BF16), c.Load("bias", BF16)});
  // One rounding of the fp64 result vs numpy's fp64 -> fp32 -> bf16: at most one bf16 ulp apart.
  EXPECT_CLOSE(c.Load("y", BF16), out[0], 0.0, 1.0 / 128);
}

TEST(InterpMatMul, BatchWithBroadcastBatchDimsAndAdjoints) {
  Case c("bmm");
  ASSERT_EQ(c.Run(R"(
a = rand((2, 3, 4, 5)); b = rand((3, 6, 5))
np.save('a.npy', np.ascontiguousarray(np.swapaxes(a, -1, -2))); np.save('b.npy', b)
y = a.astype(np.float64) @ np.swapaxes(b, -1, -2).astype(np.float64)
np.save('y.npy', y.astype(np.float32))
)"),
            "");
  Spec s;
  s.type = "BatchMatMul";
  s.x1 = {"b0", "b1", "k", "m"};  // adj_x1: (.., K, M)
  s.x2 = {"b1", "n", "k"};        // adj_x2: (.., N, K), batch b0 broadcast
  s.y = {"b0", "b1", "m", "n"};
  s.attrs = {{"adj_x1", 1}, {"adj_x2", 1}};
  const ir::Graph g = CubeGraph(s);
  EXPECT_TRUE(Errors(g).empty());
  const auto out = Interpret(g, {{"b0", 2}, {"b1", 3}, {"m", 4}, {"k", 5}, {"n", 6}},
                             {c.Load("a"), c.Load("b")});
  EXPECT_CLOSE(c.Load("y"), out[0], 1e-6, 1e-6);
}

TEST(InterpMatMul, ValidationNamesEachBadShapeAndDtype) {
  Spec s;
  s.x1 = {"m", "k"};
  s.x2 = {"n", "n"};
  s.y = {"m", "n"};
  auto errs = Errors(CubeGraph(s));
  ASSERT_EQ(errs.size(), 1U);
  EXPECT_NE(errs[0].find("inner sizes differ"), std::string::npos) << errs[0];

  s.x2 = {"k", "n"};
  s.y = {"n", "m"};
  errs = Errors(CubeGraph(s));
  ASSERT_EQ(errs.size(), 1U);
  EXPECT_NE(errs[0].find("differ from the product's (m, n)"), std::string::npos) << errs[0];

  s.y = {"m", "n"};
  s.type = "MatMulBias";
  s.bias = {"m"};
  errs = Errors(CubeGraph(s));
  ASSERT_EQ(errs.size(), 1U);
  EXPECT_NE(errs[0].find("do not broadcast"), std::string::npos) << errs[0];

  s.bias = {"n"};
  s.in = DType::kInt32;
  errs = Errors(CubeGraph(s));
  ASSERT_FALSE(errs.empty());
  EXPECT_NE(errs[0].find("must be one of fp16, bf16, fp32"), std::string::npos) << errs[0];

  s.in = F32;
  s.type = "MatMul";
  s.bias.clear();
  s.x1 = {"b0", "m", "k"};
  errs = Errors(CubeGraph(s));
  ASSERT_EQ(errs.size(), 1U);
  EXPECT_NE(errs[0].find("MatMul takes rank 2"), std::string::npos) << errs[0];
}

TEST(InterpMatMul, RefusalsCarryTheirReasonCodes) {
  const auto refused = [](Spec s, const std::string& code) {
    const ir::Graph g = CubeGraph(s);
    try {
      Interpret(g, {{"m", 2}, {"k", 2}, {"n", 2}},
                {data::Zeros(F32, {2, 2}), data::Zeros(F32, {2, 2})});
      ADD_FAILURE() << s.type << " was not refused";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(code), std::string::npos) << e.what();
    }
  };
  Spec s;
  s.x1 = {"m", "k"};
  s.x2 = {"k", "n"};
  s.y = {"m", "n"};
  s.attrs = {{"offset_x", 3}};
  refused(s, "CUBE_INT8_UNSUPPORTED");
  s.attrs = {{"enable_hf32", 1}};
  refused(s, "CUBE_HF32_UNSUPPORTED");
  ir::Node n;
  n.type = "BatchMatMulOffset";
  std::string err;
  const auto m = ir::ReadMatMul(n, &err);
  ASSERT_TRUE(m.has_value());
  EXPECT_TRUE(m->batch && m->offset && !m->bias);
  EXPECT_EQ(ir::CubeRefusal(*m), "CUBE_OFFSET_UNSUPPORTED");
  n.type = "Add";
  EXPECT_FALSE(ir::ReadMatMul(n, &err).has_value());
  n.type = "MatMul";
  n.attrs["transpose_x1"] = std::string("yes");
  EXPECT_FALSE(ir::ReadMatMul(n, &err).has_value());
  EXPECT_NE(err.find("transpose_x1"), std::string::npos);
}

TEST(InterpMatMul, FixtureParsesValidatesRoundTripsAndRuns) {
  Case c("mm_fixture");
  ASSERT_EQ(c.Run(R"(
a = rand((5, 19)).astype(np.float16); b = rand((19, 8)).astype(np.float16); bias = rand((8,))
np.save('a.npy', a); np.save('b.npy', b); np.save('bias.npy', bias)
y = np.maximum(a.astype(np.float64) @ b.astype(np.float64) + bias.astype(np.float64), 0)
np.save('y.npy', y.astype(np.float32).astype(np.float16))
)"),
            "");
  const auto path = test::OurFixtures() / "ir" / "matmul.graph.txt";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const ir::Graph g = ir::ParseText(text.str(), path.string());
  EXPECT_TRUE(Errors(g).empty());
  EXPECT_EQ(ir::DumpText(ir::ParseText(ir::DumpText(g))), ir::DumpText(g));
  const auto out =
      Interpret(g, {{"s0", 5}, {"s1", 8}, {"s2", 19}}, {c.Load("a"), c.Load("b"), c.Load("bias")});
  // fp32 product rounded to fp16 by the Cast vs numpy's fp64 -> fp32 -> fp16: one fp16 ulp.
  EXPECT_CLOSE(c.Load("y"), out[0], 0.0, 1e-3);
}

}  // namespace
}  // namespace af::interp
