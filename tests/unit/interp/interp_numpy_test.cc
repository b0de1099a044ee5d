// The reference interpreter against NumPy: inputs and expected outputs are computed by a Python
// script at test time, read back through our .npy reader and compared with CompareArrays.
#include <gtest/gtest.h>

#include "autofuse/data/compare.h"
#include "autofuse/data/npy.h"
#include "autofuse/interp/interpreter.h"
#include "autofuse/ir/text.h"
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

// Python helpers available to every script.
constexpr const char* kPrelude = R"(
rng = np.random.default_rng(2024)
def bf16(a):
    a = np.ascontiguousarray(a, dtype=np.float32)
    u = a.view(np.uint32).astype(np.uint64)
    u = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    return u.astype(np.uint32).view(np.float32)
def rand(shape, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, shape).astype(np.float32)
)";

class NumpyCase : public testing::NumpyScript {
 public:
  explicit NumpyCase(const std::string& tag) : NumpyScript(tag, kPrelude) {}
};

// x[s0, s1] -> Load -> ops... -> Store -> Output.
ir::Graph Chain(const std::vector<std::string>& ops, DType dt) {
  GraphBuilder b("chain", 2);
  const int x = b.Data("x", 0, dt, "s0, s1", "s1, 1");
  int cur = b.Add("Load", "lx", {x}, dt, "s0, s1", "s1, 1");
  for (std::size_t i = 0; i < ops.size(); ++i) {
    cur = b.Add(ops[i], "n" + std::to_string(i), {cur}, dt, "s0, s1", "s1, 1");
  }
  const int st = b.Add("Store", "st", {cur}, dt, "s0, s1", "s1, 1");
  b.Output("y", 0, st, dt, "s0, s1", "s1, 1");
  return b.graph();
}

TEST(InterpNumpy, UnaryChainFloat32) {
  NumpyCase c("np_chain");
  ASSERT_EQ(c.Run(R"(
x = rand((4, 7))
v = np.abs(x); v = np.exp(v); v = np.float32(1) / (np.float32(1) + np.exp(-v))
v = np.tanh(v); v = np.sqrt(v); v = np.log(v); v = -v; v = np.reciprocal(v)
np.save('x.npy', x); np.save('y.npy', v.astype(np.float32))
)"),
            "");
  const auto out =
      Interpret(Chain({"Abs", "Exp", "Sigmoid", "Tanh", "Sqrt", "Ln", "Neg", "Reciprocal"}, F32),
                {{"s0", 4}, {"s1", 7}}, {c.Load("x")});
  EXPECT_CLOSE(c.Load("y"), out[0], false);
}

TEST(InterpNumpy, AddWithBroadcastOfEachAxis) {
  NumpyCase c("np_bcast");
  ASSERT_EQ(c.Run(R"(
for tag, shape in [('a', (3, 5, 7)), ('b', (1, 5, 7)), ('c', (2, 1, 13))]:
    x = rand(shape)
    np.save(tag + '_x.npy', x)
    for d in range(3):
        bs = list(shape); bs[d] = 1
        b = rand(tuple(bs))
        np.save(f'{tag}_b{d}.npy', b)
        np.save(f'{tag}_y{d}.npy', x + b)
)"),
            "");
  for (const auto& [tag, d0, d1, d2] :
       {std::tuple{"a", 3, 5, 7}, std::tuple{"b", 1, 5, 7}, std::tuple{"c", 2, 1, 13}}) {
    for (int bdim = 0; bdim < 3; ++bdim) {
      // b has repeat 1 (stride 0) on bdim and is broadcast explicitly.
      std::vector<std::string> r = {"s0", "s1", "s2"};
      r[static_cast<std::size_t>(bdim)] = "1";
      std::vector<std::string> s = {"s1 * s2", "s2", "1"};
      if (bdim == 0) s = {"0", "s2", "1"};
      if (bdim == 1) s = {"s2", "0", "1"};
      if (bdim == 2) s = {"s1", "1", "0"};
      const std::string br = r[0] + ", " + r[1] + ", " + r[2];
      const std::string bs = s[0] + ", " + s[1] + ", " + s[2];
      GraphBuilder b("bcast", 3);
      const std::string full = "s0, s1, s2";
      const std::string fst = "s1 * s2, s2, 1";
      const int x = b.Data("x", 0, F32, full, fst);
      const int y = b.Data("b", 1, F32, br, bs);
      const int lx = b.Add("Load", "lx", {x}, F32, full, fst);
      const int lb = b.Add("Load", "lb", {y}, F32, br, bs);
      const int bb = b.Add("Broadcast", "bb", {lb}, F32, full, fst);
      const int add = b.Add("Add", "add", {lx, bb}, F32, full, fst);
      const int st = b.Add("Store", "st", {add}, F32, full, fst);
      b.Output("y", 0, st, F32, full, fst);
      const std::string t(tag);
      const auto out = Interpret(b.graph(), {{"s0", d0}, {"s1", d1}, {"s2", d2}},
                                 {c.Load(t + "_x"), c.Load(t + "_b" + std::to_string(bdim))});
      EXPECT_CLOSE(c.Load(t + "_y" + std::to_string(bdim)), out[0], 0.0, 0.0);
    }
  }
}

TEST(InterpNumpy, Float16WithCasts) {
  NumpyCase c("np_f16");
  ASSERT_EQ(c.Run(R"(
x = rand((5, 11), -4, 4)
h = x.astype(np.float16)
y = (h * h + np.float16(0.1)).astype(np.float32)
e = np.exp(h)
np.save('x.npy', x); np.save('y.npy', y); np.save('h.npy', h); np.save('e.npy', e)
)"),
            "");
  GraphBuilder b("f16", 2);
  const int x = b.Data("x", 0, F32, "s0, s1", "s1, 1");
  const int lx = b.Add("Load", "lx", {x}, F32, "s0, s1", "s1, 1");
  const int h = b.Add("Cast", "h", {lx}, F16, "s0, s1", "s1, 1");
  const int sq = b.Add("Mul", "sq", {h, h}, F16, "s0, s1", "s1, 1");
  const int k = b.Scalar("k", F16, "0.1");
  const int add = b.Add("Add", "add", {sq, k}, F16, "s0, s1", "s1, 1");
  const int back = b.Add("Cast", "back", {add}, F32, "s0, s1", "s1, 1");
  const int st = b.Add("Store", "st", {back}, F32, "s0, s1", "s1, 1");
  b.Output("y", 0, st, F32, "s0, s1", "s1, 1");
  const auto out = Interpret(b.graph(), {{"s0", 5}, {"s1", 11}}, {c.Load("x")});
  EXPECT_CLOSE(c.Load("y"), out[0], 0.0, 0.0);  // + and * of fp16 are correctly rounded in both
  const auto e = Interpret(Chain({"Exp"}, F16), {{"s0", 5}, {"s1", 11}}, {c.Load("h")});
  EXPECT_CLOSE(c.Load("e"), e[0], false);
}

TEST(InterpNumpy, BFloat16Graph) {
  NumpyCase c("np_bf16");
  ASSERT_EQ(c.Run(R"(
x = bf16(rand((6, 13), -3, 3))
y = bf16(bf16(x * x) + x)
np.save('x.npy', x); np.save('y.npy', y)
)"),
            "");
  GraphBuilder b("bf16", 2);
  const int x = b.Data("x", 0, BF16, "s0, s1", "s1, 1");
  const int lx = b.Add("Load", "lx", {x}, BF16, "s0, s1", "s1, 1");
  const int sq = b.Add("Mul", "sq", {lx, lx}, BF16, "s0, s1", "s1, 1");
  const int add = b.Add("Add", "add", {sq, lx}, BF16, "s0, s1", "s1, 1");
  const int st = b.Add("Store", "st", {add}, BF16, "s0, s1", "s1, 1");
  b.Output("y", 0, st, BF16, "s0, s1", "s1, 1");
  const auto out = Interpret(b.graph(), {{"s0", 6}, {"s1", 13}}, {c.Load("x", BF16)});
  EXPECT_EQ(out[0].dtype, BF16);
  EXPECT_CLOSE(c.Load("y", BF16), out[0], 0.0, 0.0);
}

TEST(InterpNumpy, ScalarMultiplyComparisonsAndWhere) {
  NumpyCase c("np_where");
  ASSERT_EQ(c.Run(R"(
x = rand((7, 3)); y = rand((7, 3)); y[0, :] = x[0, :]
np.save('x.npy', x); np.save('y.npy', y)
np.save('scaled.npy', x * np.float32(0.3))
np.save('ge.npy', x >= y)
np.save('w.npy', np.where(x > y, x, y * np.float32(0.3)))
)"),
            "");
  GraphBuilder b("where", 2);
  const int x = b.Data("x", 0, F32, "s0, s1", "s1, 1");
  const int y = b.Data("y", 1, F32, "s0, s1", "s1, 1");
  const int lx = b.Add("Load", "lx", {x}, F32, "s0, s1", "s1, 1");
  const int ly = b.Add("Load", "ly", {y}, F32, "s0, s1", "s1, 1");
  const int k = b.Scalar("k", F32, "0.3");
  const int sx = b.Add("Mul", "sx", {lx, k}, F32, "s0, s1", "s1, 1");
  const int sy = b.Add("Mul", "sy", {ly, k}, F32, "s0, s1", "s1, 1");
  const int ge = b.Add("Ge", "ge", {lx, ly}, DType::kBool, "s0, s1", "s1, 1");
  const int gt = b.Add("Gt", "gt", {lx, ly}, DType::kBool, "s0, s1", "s1, 1");
  const int w = b.Add("Where", "w", {gt, lx, sy}, F32, "s0, s1", "s1, 1");
  b.Output("o0", 0, b.Add("Store", "st0", {sx}, F32, "s0, s1", "s1, 1"), F32, "s0, s1", "s1, 1");
  b.Output("o1", 1, b.Add("Store", "st1", {ge}, DType::kBool, "s0, s1", "s1, 1"), DType::kBool,
           "s0, s1", "s1, 1");
  b.Output("o2", 2, b.Add("Store", "st2", {w}, F32, "s0, s1", "s1, 1"), F32, "s0, s1", "s1, 1");
  const auto out = Interpret(b.graph(), {{"s0", 7}, {"s1", 3}}, {c.Load("x"), c.Load("y")});
  EXPECT_CLOSE(c.Load("scaled"), out[0], 0.0, 0.0);
  EXPECT_CLOSE(c.Load("ge"), out[1], 0.0, 0.0);
  EXPECT_CLOSE(c.Load("w"), out[2], 0.0, 0.0);
}

// x (contiguous, rank 2 or 3) reduced over one axis with a keep-dim view.
ir::Graph ReduceGraph(const std::string& op, int rank, int axis) {
  GraphBuilder b("reduce", rank);
  const std::vector<std::string> full =
      rank == 2 ? std::vector<std::string>{"s0", "s1"} : std::vector<std::string>{"s0", "s1", "s2"};
  const std::vector<std::string> fst = rank == 2 ? std::vector<std::string>{"s1", "1"}
                                                 : std::vector<std::string>{"s1 * s2", "s2", "1"};
  std::vector<std::string> red = full;
  red[static_cast<std::size_t>(axis)] = "1";
  // Dense strides of the keep-dim output, 0 on the reduced axis.
  std::vector<std::string> rst(static_cast<std::size_t>(rank));
  std::string acc = "1";
  for (int k = rank - 1; k >= 0; --k) {
    if (k == axis) {
      rst[static_cast<std::size_t>(k)] = "0";
      continue;
    }
    rst[static_cast<std::size_t>(k)] = acc;
    acc = acc == "1" ? full[static_cast<std::size_t>(k)]
                     : acc + " * " + full[static_cast<std::size_t>(k)];
  }
  const auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& e : v)
      s += (s.empty() ? "" : ", ") + e;
    return s;
  };
  const int x = b.Data("x", 0, F32, join(full), join(fst));
  const int lx = b.Add("Load", "lx", {x}, F32, join(full), join(fst));
  const int r = b.Add(op, "r", {lx}, F32, join(red), join(rst));
  const int st = b.Add("Store", "st", {r}, F32, join(red), join(rst));
  b.Output("y", 0, st, F32, join(red), join(rst));
  return b.graph();
}

TEST(InterpNumpy, SumMeanMaxOverLastAndFirstAxis) {
  NumpyCase c("np_reduce");
  ASSERT_EQ(c.Run(R"(
x2 = rand((6, 9)); x3 = rand((4, 5, 7))
np.save('x2.npy', x2); np.save('x3.npy', x3)
for name, x in [('x2', x2), ('x3', x3)]:
    for axis in [0, x.ndim - 1]:
        for op, f in [('Sum', np.sum), ('Mean', np.mean), ('Max', np.max)]:
            np.save(f'{name}_{op}_{axis}.npy', f(x, axis=axis, keepdims=True))
)"),
            "");
  for (const auto& [name, rank] : {std::pair{"x2", 2}, std::pair{"x3", 3}}) {
    const sym::Bindings bind = rank == 2 ? sym::Bindings{{"s0", 6}, {"s1", 9}}
                                         : sym::Bindings{{"s0", 4}, {"s1", 5}, {"s2", 7}};
    const HostArray x = c.Load(name);
    for (int axis : {0, rank - 1}) {
      for (const char* op : {"Sum", "Mean", "Max"}) {
        const std::string file = std::string(name) + "_" + op + "_" + std::to_string(axis);
        const auto out = Interpret(ReduceGraph(op, rank, axis), bind, {x});
        const HostArray want = c.Load(file);
        ASSERT_EQ(out[0].shape, want.shape) << file;
        const data::CompareResult r = data::CompareArrays(want, out[0], /*after_reduction=*/true);
        EXPECT_TRUE(r.ok) << file << ": " << r.message;
      }
    }
  }
}

TEST(InterpNumpy, ExpSubFixtureWithPrimeShapes) {
  NumpyCase c("np_exp_sub");
  ASSERT_EQ(c.Run(R"(
for s0, s1 in [(5, 7), (1, 13), (11, 1)]:
    x = rand((s0, s1)); m = rand((s0, 1))
    np.save(f'x_{s0}_{s1}.npy', x); np.save(f'm_{s0}_{s1}.npy', m)
    np.save(f'y_{s0}_{s1}.npy', np.exp(x - m) * np.float32(2.0))
)"),
            "");
  const auto path = test::OurFixtures() / "ascgraph" / "exp_sub.graph.txt";
  const ir::Graph g = ir::ParseText(test::ReadFile(path), path.string());
  for (const auto& [s0, s1] : {std::pair{5, 7}, std::pair{1, 13}, std::pair{11, 1}}) {
    const std::string tag = std::to_string(s0) + "_" + std::to_string(s1);
    const auto out =
        Interpret(g, {{"s0", s0}, {"s1", s1}}, {c.Load("x_" + tag), c.Load("m_" + tag)});
    EXPECT_CLOSE(c.Load("y_" + tag), out[0], false);
  }
}

// ------------------------------------------------------------------ data-movement ops

ir::Graph DataMovementFixture(const std::string& name) {
  const auto path = test::OurFixtures() / "ir" / name;
  return ir::ParseText(test::ReadFile(path), path.string());
}

TEST(InterpNumpy, TransposeConcatSplitAgainstNumpy) {
  NumpyCase c("np_move");
  ASSERT_EQ(c.Run(R"(
for tag, (s0, s1, s2) in [('a', (2, 3, 5)), ('b', (1, 1, 1)), ('c', (3, 17, 1)), ('d', (4, 1, 33))]:
    x = rand((s0, s1, s2))
    np.save(tag + '_x.npy', x)
    np.save(tag + '_t.npy', np.ascontiguousarray(np.transpose(x, (0, 2, 1))))
    a = rand((s0, s1)); b = rand((s0, s2)); k = rand((s0, 1))
    for n, v in [('a', a), ('b', b), ('k', k)]:
        np.save(f'{tag}_c{n}.npy', v)
    np.save(tag + '_cat.npy', np.concatenate([a, b, k], axis=1))
    w = rand((s0, s1 + s2))
    np.save(tag + '_w.npy', w)
    p0, p1 = np.split(w, [s1], axis=1)
    np.save(tag + '_p0.npy', np.ascontiguousarray(p0))
    np.save(tag + '_p1.npy', np.ascontiguousarray(-p1))
)"),
            "");
  const ir::Graph tr = DataMovementFixture("transpose.graph.txt");
  const ir::Graph cat = DataMovementFixture("concat.graph.txt");
  const ir::Graph split = DataMovementFixture("split.graph.txt");
  for (const auto& [tag, s0, s1, s2] : {std::tuple{"a", 2, 3, 5}, std::tuple{"b", 1, 1, 1},
                                        std::tuple{"c", 3, 17, 1}, std::tuple{"d", 4, 1, 33}}) {
    const std::string t(tag);
    const sym::Bindings bind = {{"s0", s0}, {"s1", s1}, {"s2", s2}};
    EXPECT_CLOSE(c.Load(t + "_t"), Interpret(tr, bind, {c.Load(t + "_x")})[0], 0.0, 0.0);
    EXPECT_CLOSE(c.Load(t + "_cat"),
                 Interpret(cat, bind, {c.Load(t + "_ca"), c.Load(t + "_cb"), c.Load(t + "_ck")})[0],
                 0.0, 0.0);
    const auto parts = Interpret(split, bind, {c.Load(t + "_w")});
    EXPECT_CLOSE(c.Load(t + "_p0"), parts[0], 0.0, 0.0);
    EXPECT_CLOSE(c.Load(t + "_p1"), parts[1], 0.0, 0.0);
  }
}

TEST(InterpNumpy, GatherAgainstNumpyTake) {
  NumpyCase c("np_gather");
  ASSERT_EQ(c.Run(R"(
for tag, (s0, s1, s2, s3) in [('a', (7, 5, 3, 4)), ('b', (1, 1, 1, 1)), ('c', (13, 33, 2, 9))]:
    emb = rand((s0, s1))
    idx = rng.integers(-s0, s0, (s2, s3)).astype(np.int64)
    np.save(tag + '_emb.npy', emb); np.save(tag + '_idx.npy', idx)
    np.save(tag + '_y.npy', np.take(emb, idx, axis=0))
)"),
            "");
  const ir::Graph g = DataMovementFixture("gather.graph.txt");
  for (const auto& [tag, s0, s1, s2, s3] :
       {std::tuple{"a", 7, 5, 3, 4}, std::tuple{"b", 1, 1, 1, 1}, std::tuple{"c", 13, 33, 2, 9}}) {
    const std::string t(tag);
    const auto out = Interpret(g, {{"s0", s0}, {"s1", s1}, {"s2", s2}, {"s3", s3}},
                               {c.Load(t + "_emb"), c.Load(t + "_idx")});
    EXPECT_CLOSE(c.Load(t + "_y"), out[0], 0.0, 0.0);
  }
}

}  // namespace
}  // namespace af::interp
