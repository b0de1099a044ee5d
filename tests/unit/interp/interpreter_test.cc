// The reference interpreter against hand-computed values: views (offsets, strides, broadcast),
// every op family, per-op rounding of fp16/bf16, integer semantics, reductions, the exp_sub
// fixture, and the error cases.
#include "autofuse/interp/interpreter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "autofuse/data/half.h"
#include "autofuse/ir/text.h"
#include "autofuse/ir/validate.h"
#include "autofuse/support/error.h"
#include "fixtures.h"
#include "graph_builder.h"

namespace af::interp {
namespace {

using data::FromDoubles;
using data::HostArray;
using data::ToDoubles;
using ir::DType;
using testing::GraphBuilder;
using ::testing::HasSubstr;

constexpr auto F32 = DType::kFloat32;
constexpr auto F16 = DType::kFloat16;
constexpr auto BF16 = DType::kBFloat16;

double F(double v) {
  return static_cast<double>(static_cast<float>(v));
}

std::vector<double> Iota(std::int64_t n, double start = 0, double step = 1) {
  std::vector<double> v;
  for (std::int64_t i = 0; i < n; ++i)
    v.push_back(start + step * static_cast<double>(i));
  return v;
}

// x (and y) [s0, s1] -> Load -> `op` -> Store -> Output, all contiguous.
ir::Graph Elementwise2D(const std::string& op, DType in, DType out, int arity = 1) {
  GraphBuilder b("ew_" + op, 2);
  std::vector<int> loads;
  for (int k = 0; k < arity; ++k) {
    const std::string n = std::string(1, static_cast<char>('x' + k));
    const int d = b.Data(n, k, in, "s0, s1", "s1, 1");
    loads.push_back(b.Add("Load", "l" + n, {d}, in, "s0, s1", "s1, 1"));
  }
  const int o = b.Add(op, "op", loads, out, "s0, s1", "s1, 1");
  const int st = b.Add("Store", "st", {o}, out, "s0, s1", "s1, 1");
  b.Output("out", 0, st, out, "s0, s1", "s1, 1");
  return b.graph();
}

// Runs and expects an InputError whose text contains `what`.
void ExpectError(const ir::Graph& g, const sym::Bindings& b, const std::vector<HostArray>& in,
                 const std::string& what) {
  try {
    Interpret(g, b, in);
    ADD_FAILURE() << "no error; expected: " << what;
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr(what));
    EXPECT_THAT(e.what(), HasSubstr("graph " + g.name));
  }
}

TEST(Interp, UnaryChainRoundsEveryOpToFloat32) {
  GraphBuilder b("chain", 2);
  const int x = b.Data("x", 0, F32, "s0, s1", "s1, 1");
  int cur = b.Add("Load", "lx", {x}, F32, "s0, s1", "s1, 1");
  for (const char* op : {"Abs", "Sqrt", "Exp", "Neg", "Sigmoid", "Reciprocal"}) {
    cur = b.Add(op, std::string("n_") + op, {cur}, F32, "s0, s1", "s1, 1");
  }
  const int st = b.Add("Store", "st", {cur}, F32, "s0, s1", "s1, 1");
  b.Output("y", 0, st, F32, "s0, s1", "s1, 1");
  const std::vector<double> xs = {-1.5, 0.0, 0.25, 2.0, -3.0, 7.5};
  const auto out = Interpret(b.graph(), {{"s0", 2}, {"s1", 3}}, {FromDoubles(F32, {2, 3}, xs)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(out[0].dtype, F32);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    double v = F(std::fabs(F(xs[i])));
    v = F(std::sqrt(v));
    v = F(std::exp(v));
    v = F(-v);
    v = F(1.0 / (1.0 + std::exp(-v)));
    v = F(1.0 / v);
    EXPECT_EQ(out[0].GetAsDouble(static_cast<std::int64_t>(i)), v) << i;
  }
}

// x[s0, s1, s2] + b where b has repeat 1 along `bdim` (loaded with stride 0 there).
ir::Graph AddBroadcast3D(int bdim, bool explicit_broadcast) {
  GraphBuilder b("add_bcast", 3);
  const std::string full = "s0, s1, s2";
  const std::string full_st = "s1 * s2, s2, 1";
  std::vector<std::string> r = {"s0", "s1", "s2"};
  r[static_cast<std::size_t>(bdim)] = "1";
  // Dense strides of the broadcast operand, 0 on the broadcast dim.
  const std::vector<std::string> dims = {r[0], r[1], r[2]};
  std::vector<std::string> s(3);
  std::string acc = "1";
  for (int k = 2; k >= 0; --k) {
    s[static_cast<std::size_t>(k)] = k == bdim ? "0" : acc;
    if (k != bdim)
      acc = acc == "1" ? dims[static_cast<std::size_t>(k)]
                       : acc + " * " + dims[static_cast<std::size_t>(k)];
  }
  const std::string br = r[0] + ", " + r[1] + ", " + r[2];
  const std::string bs = s[0] + ", " + s[1] + ", " + s[2];
  const int x = b.Data("x", 0, F32, full, full_st);
  const int y = b.Data("b", 1, F32, br, bs);
  const int lx = b.Add("Load", "lx", {x}, F32, full, full_st);
  int ly = b.Add("Load", "lb", {y}, F32, br, bs);
  if (explicit_broadcast) ly = b.Add("Broadcast", "bb", {ly}, F32, full, full_st);
  const int add = b.Add("Add", "add", {lx, ly}, F32, full, full_st);
  const int st = b.Add("Store", "st", {add}, F32, full, full_st);
  b.Output("y", 0, st, F32, full, full_st);
  return b.graph();
}

TEST(Interp, AddWithBroadcastOfLeadingMiddleAndTrailingAxis) {
  for (const auto& [d0, d1, d2] :
       {std::tuple{2, 3, 5}, std::tuple{1, 7, 13}, std::tuple{3, 1, 2}}) {
    const sym::Bindings bind = {{"s0", d0}, {"s1", d1}, {"s2", d2}};
    const std::vector<std::int64_t> full = {d0, d1, d2};
    for (int bdim = 0; bdim < 3; ++bdim) {
      for (bool explicit_bc : {true, false}) {
        const ir::Graph g = AddBroadcast3D(bdim, explicit_bc);
        std::vector<std::int64_t> bshape = full;
        bshape[static_cast<std::size_t>(bdim)] = 1;
        const auto specs = InputShapes(g, bind);
        ASSERT_EQ(specs.size(), 2u);
        EXPECT_EQ(specs[1].shape, bshape);
        const HostArray x = FromDoubles(F32, full, Iota(d0 * d1 * d2));
        const std::int64_t nb = data::ShapeNumel(bshape);
        const HostArray bb = FromDoubles(F32, bshape, Iota(nb, 1000, 100));
        const auto out = Interpret(g, bind, {x, bb});
        ASSERT_EQ(out[0].shape, full);
        for (int i = 0; i < d0; ++i) {
          for (int j = 0; j < d1; ++j) {
            for (int k = 0; k < d2; ++k) {
              std::int64_t idx[3] = {i, j, k};
              idx[bdim] = 0;
              const std::int64_t bi = (idx[0] * bshape[1] + idx[1]) * bshape[2] + idx[2];
              const std::int64_t xi = (i * d1 + j) * d2 + k;
              ASSERT_EQ(out[0].GetAsDouble(xi), static_cast<double>(xi) + 1000 + 100 * bi)
                  << "bdim " << bdim << " at " << i << "," << j << "," << k;
            }
          }
        }
      }
    }
  }
}

TEST(Interp, Float16GraphRoundsAfterEveryOp) {
  // y = float32( fp16(x) * fp16(x) + fp16(0.1) )
  GraphBuilder b("f16", 2);
  const int x = b.Data("x", 0, F32, "s0, s1", "s1, 1");
  const int lx = b.Add("Load", "lx", {x}, F32, "s0, s1", "s1, 1");
  const int h = b.Add("Cast", "h", {lx}, F16, "s0, s1", "s1, 1");
  const int sq = b.Add("Mul", "sq", {h, h}, F16, "s0, s1", "s1, 1");
  const int c = b.Scalar("c", F16, "0.1");
  const int add = b.Add("Add", "add", {sq, c}, F16, "s0, s1", "s1, 1");
  const int back = b.Add("Cast", "back", {add}, F32, "s0, s1", "s1, 1");
  const int st = b.Add("Store", "st", {back}, F32, "s0, s1", "s1, 1");
  b.Output("y", 0, st, F32, "s0, s1", "s1, 1");
  const std::vector<double> xs = {0.3, 1.1, -2.7, 100.3, 1e-4, 300.0};
  const auto out = Interpret(b.graph(), {{"s0", 3}, {"s1", 2}}, {FromDoubles(F32, {3, 2}, xs)});
  const auto r16 = [](double v) { return data::RoundToFloatDType(v, F16); };
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double hx = r16(F(xs[i]));
    const double want = r16(r16(hx * hx) + r16(0.1));
    EXPECT_EQ(out[0].GetAsDouble(static_cast<std::int64_t>(i)), want) << i;
  }
  // 300^2 = 90000 overflows fp16.
  EXPECT_EQ(out[0].GetAsDouble(5), HUGE_VAL);
}

TEST(Interp, BFloat16InputsAndOutputs) {
  const ir::Graph g = Elementwise2D("Exp", BF16, BF16);
  const HostArray x = FromDoubles(BF16, {2, 2}, {0.5, -1.25, 3.0, 0.0078125});
  const auto out = Interpret(g, {{"s0", 2}, {"s1", 2}}, {x});
  EXPECT_EQ(out[0].dtype, BF16);
  for (std::int64_t i = 0; i < 4; ++i) {
    EXPECT_EQ(out[0].GetAsDouble(i), data::RoundToFloatDType(std::exp(x.GetAsDouble(i)), BF16));
  }
  // Cast bf16 -> fp16 -> fp32 chain.
  GraphBuilder b("casts", 1);
  const int d = b.Data("x", 0, BF16, "s0", "1");
  const int l = b.Add("Load", "l", {d}, BF16, "s0", "1");
  const int c1 = b.Add("Cast", "c1", {l}, F16, "s0", "1");
  const int c2 = b.Add("Cast", "c2", {c1}, F32, "s0", "1");
  const int st = b.Add("Store", "st", {c2}, F32, "s0", "1");
  b.Output("y", 0, st, F32, "s0", "1");
  const HostArray in = FromDoubles(BF16, {3}, {1e6, 3.140625, 1e-7});
  const auto o2 = Interpret(b.graph(), {{"s0", 3}}, {in});
  EXPECT_EQ(
      ToDoubles(o2[0]),
      (std::vector<double>{HUGE_VAL, 3.140625, data::RoundToFloatDType(in.GetAsDouble(2), F16)}));
}

TEST(Interp, ScalarMultiplyFromStringIntDoubleAndExprValues) {
  for (const auto& [value, factor] : {std::pair<ir::AttrValue, double>{std::string("2.5"), 2.5},
                                      {std::string(" -3 "), -3.0},
                                      {std::int64_t{4}, 4.0},
                                      {0.125, 0.125},
                                      {sym::Expr::Sym("s0") * sym::Expr(2), 6.0},
                                      {true, 1.0}}) {
    GraphBuilder b("scale", 2);
    const int x = b.Data("x", 0, F32, "s0, s1", "s1, 1");
    const int lx = b.Add("Load", "lx", {x}, F32, "s0, s1", "s1, 1");
    const int s = b.Scalar("k", F32, "0");
    b.node(s).attrs["value"] = value;
    const int m = b.Add("Mul", "m", {lx, s}, F32, "s0, s1", "s1, 1");
    const int st = b.Add("Store", "st", {m}, F32, "s0, s1", "s1, 1");
    b.Output("y", 0, st, F32, "s0, s1", "s1, 1");
    const auto out =
        Interpret(b.graph(), {{"s0", 3}, {"s1", 1}}, {FromDoubles(F32, {3, 1}, {1, -2, 0.5})});
    EXPECT_EQ(ToDoubles(out[0]), (std::vector<double>{factor, -2 * factor, 0.5 * factor}));
  }
  GraphBuilder b("specials", 0);
  const int s = b.Scalar("k", F32, "-inf");
  const int st = b.Add("Store", "st", {s}, F32, "", "");
  b.Output("y", 0, st, F32, "", "");
  const auto out = Interpret(b.graph(), {}, {});
  EXPECT_TRUE(out[0].shape.empty());
  EXPECT_EQ(out[0].GetAsDouble(0), -HUGE_VAL);
}

TEST(Interp, ComparisonsAndWhere) {
  const std::vector<double> xs = {1, 5, std::nan(""), -2, 3, 3};
  const std::vector<double> ys = {2, 4, 1, std::nan(""), 3, -3};
  const sym::Bindings bind = {{"s0", 2}, {"s1", 3}};
  const std::vector<HostArray> in = {FromDoubles(F32, {2, 3}, xs), FromDoubles(F32, {2, 3}, ys)};
  const auto cmp = [&](const char* op) {
    return ToDoubles(Interpret(Elementwise2D(op, F32, DType::kBool, 2), bind, in)[0]);
  };
  EXPECT_EQ(cmp("Gt"), (std::vector<double>{0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(cmp("Ge"), (std::vector<double>{0, 1, 0, 0, 1, 1}));
  EXPECT_EQ(cmp("Lt"), (std::vector<double>{1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(cmp("Le"), (std::vector<double>{1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(cmp("Eq"), (std::vector<double>{0, 0, 0, 0, 1, 0}));
  EXPECT_EQ(cmp("Ne"), (std::vector<double>{1, 1, 1, 1, 0, 1}));

  // where(x > y, x, y) and select(not(x > y) and (x == x), y, 0)
  GraphBuilder b("where", 2);
  const int x = b.Data("x", 0, F32, "s0, s1", "s1, 1");
  const int y = b.Data("y", 1, F32, "s0, s1", "s1, 1");
  const int lx = b.Add("Load", "lx", {x}, F32, "s0, s1", "s1, 1");
  const int ly = b.Add("Load", "ly", {y}, F32, "s0, s1", "s1, 1");
  const int gt = b.Add("Gt", "gt", {lx, ly}, DType::kBool, "s0, s1", "s1, 1");
  const int w = b.Add("Where", "w", {gt, lx, ly}, F32, "s0, s1", "s1, 1");
  const int st = b.Add("Store", "st", {w}, F32, "s0, s1", "s1, 1");
  b.Output("out", 0, st, F32, "s0, s1", "s1, 1");
  const int ng = b.Add("LogicalNot", "ng", {gt}, DType::kBool, "s0, s1", "s1, 1");
  const int eq = b.Add("Eq", "eq", {lx, lx}, DType::kBool, "s0, s1", "s1, 1");
  const int both = b.Add("LogicalAnd", "both", {ng, eq}, DType::kBool, "s0, s1", "s1, 1");
  const int zero = b.Scalar("zero", F32, "0");
  const int sel = b.Add("Select", "sel", {both, ly, zero}, F32, "s0, s1", "s1, 1");
  const int st2 = b.Add("Store", "st2", {sel}, F32, "s0, s1", "s1, 1");
  b.Output("out2", 1, st2, F32, "s0, s1", "s1, 1");
  const auto out = Interpret(b.graph(), bind, in);
  const auto w0 = ToDoubles(out[0]);
  EXPECT_EQ(w0[0], 2);
  EXPECT_EQ(w0[1], 5);
  EXPECT_EQ(w0[2], 1);  // NaN > 1 is false -> y
  EXPECT_TRUE(std::isnan(w0[3]));
  EXPECT_EQ(w0[4], 3);
  EXPECT_EQ(w0[5], 3);
  const auto w1 = ToDoubles(out[1]);
  EXPECT_EQ(w1[0], 2);
  EXPECT_EQ(w1[1], 0);
  EXPECT_EQ(w1[2], 0);  // x is NaN: eq false
  EXPECT_TRUE(std::isnan(w1[3]));
  EXPECT_EQ(w1[4], 3);
  EXPECT_EQ(w1[5], 0);
}

// x[s0, s1(, s2)] reduced with `op` over dims whose output repeat is 1 with stride 0.
ir::Graph Reduce(const std::string& op, DType dt, int rank, const std::vector<int>& reduced) {
  GraphBuilder b("reduce_" + op, rank);
  std::string full;
  std::string full_st;
  std::string red;
  std::string red_st;
  std::vector<std::string> names;
  for (int k = 0; k < rank; ++k)
    names.push_back("s" + std::to_string(k));
  for (int k = 0; k < rank; ++k) {
    std::string st;
    for (int j = k + 1; j < rank; ++j)
      st += (st.empty() ? "" : " * ") + names[static_cast<std::size_t>(j)];
    if (st.empty()) st = "1";
    const bool r = std::find(reduced.begin(), reduced.end(), k) != reduced.end();
    std::string rst;  // dense strides of the keep-dim output
    for (int j = k + 1; j < rank; ++j) {
      if (std::find(reduced.begin(), reduced.end(), j) != reduced.end()) continue;
      rst += (rst.empty() ? "" : " * ") + names[static_cast<std::size_t>(j)];
    }
    if (rst.empty()) rst = "1";
    const std::string sep = k == 0 ? "" : ", ";
    full += sep + names[static_cast<std::size_t>(k)];
    full_st += sep + st;
    red += sep + (r ? "1" : names[static_cast<std::size_t>(k)]);
    red_st += sep + (r ? "0" : rst);
  }
  const int x = b.Data("x", 0, dt, full, full_st);
  const int lx = b.Add("Load", "lx", {x}, dt, full, full_st);
  const int r = b.Add(op, "r", {lx}, dt, red, red_st);
  const int st = b.Add("Store", "st", {r}, dt, red, red_st);
  b.Output("y", 0, st, dt, red, red_st);
  return b.graph();
}

TEST(Interp, ReductionsOverLastAndFirstAxis2D) {
  // x = [[1, -2, 3, 4], [5, 6, -7, 8], [0.5, 0, 2, 1]]
  const std::vector<double> xs = {1, -2, 3, 4, 5, 6, -7, 8, 0.5, 0, 2, 1};
  const sym::Bindings bind = {{"s0", 3}, {"s1", 4}};
  const std::vector<HostArray> in = {FromDoubles(F32, {3, 4}, xs)};
  const auto run = [&](const char* op, int dim) {
    const auto out = Interpret(Reduce(op, F32, 2, {dim}), bind, in);
    EXPECT_EQ(out[0].shape,
              dim == 1 ? (std::vector<std::int64_t>{3, 1}) : (std::vector<std::int64_t>{1, 4}));
    return ToDoubles(out[0]);
  };
  EXPECT_EQ(run("Sum", 1), (std::vector<double>{6, 12, 3.5}));
  EXPECT_EQ(run("Sum", 0), (std::vector<double>{6.5, 4, -2, 13}));
  EXPECT_EQ(run("Mean", 1), (std::vector<double>{1.5, 3, 0.875}));
  EXPECT_EQ(run("Mean", 0),
            (std::vector<double>{F(6.5 / 3), F(4.0 / 3), F(-2.0 / 3), F(13.0 / 3)}));
  EXPECT_EQ(run("Max", 1), (std::vector<double>{4, 8, 2}));
  EXPECT_EQ(run("Max", 0), (std::vector<double>{5, 6, 3, 8}));
  EXPECT_EQ(run("Min", 1), (std::vector<double>{-2, -7, 0}));
  EXPECT_EQ(run("Prod", 0), (std::vector<double>{2.5, 0, -42, 32}));
  // Both axes at once.
  const auto all = Interpret(Reduce("Sum", F32, 2, {0, 1}), bind, in);
  EXPECT_EQ(all[0].shape, (std::vector<std::int64_t>{1, 1}));
  EXPECT_EQ(all[0].GetAsDouble(0), 21.5);
}

TEST(Interp, ReductionsOverLastAndFirstAxis3D) {
  const sym::Bindings bind = {{"s0", 2}, {"s1", 3}, {"s2", 5}};
  const std::vector<double> xs = Iota(30, -7, 0.5);
  const std::vector<HostArray> in = {FromDoubles(F32, {2, 3, 5}, xs)};
  const auto at = [&](int i, int j, int k) {
    return xs[static_cast<std::size_t>((i * 3 + j) * 5 + k)];
  };
  const auto last = ToDoubles(Interpret(Reduce("Sum", F32, 3, {2}), bind, in)[0]);
  const auto first = ToDoubles(Interpret(Reduce("Max", F32, 3, {0}), bind, in)[0]);
  const auto mean_last = ToDoubles(Interpret(Reduce("Mean", F32, 3, {2}), bind, in)[0]);
  ASSERT_EQ(last.size(), 6u);
  ASSERT_EQ(first.size(), 15u);
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int k = 0; k < 5; ++k)
        s += at(i, j, k);
      EXPECT_EQ(last[static_cast<std::size_t>(i * 3 + j)], F(s));
      EXPECT_EQ(mean_last[static_cast<std::size_t>(i * 3 + j)], F(s / 5));
    }
  }
  for (int j = 0; j < 3; ++j) {
    for (int k = 0; k < 5; ++k) {
      EXPECT_EQ(first[static_cast<std::size_t>(j * 5 + k)], std::max(at(0, j, k), at(1, j, k)));
    }
  }
  // The middle axis, with a prime extent.
  const auto mid = Interpret(Reduce("Min", F32, 3, {1}), {{"s0", 2}, {"s1", 7}, {"s2", 1}},
                             {FromDoubles(F32, {2, 7, 1}, Iota(14, 3, -1))});
  EXPECT_EQ(ToDoubles(mid[0]), (std::vector<double>{-3, -10}));
}

TEST(Interp, HalfReductionsAccumulateWideAndRoundOnce) {
  // 3000 ones summed in fp16 steps would stall at 2048; we accumulate wide and round once.
  const auto out = Interpret(Reduce("Sum", F16, 2, {1}), {{"s0", 1}, {"s1", 3000}},
                             {FromDoubles(F16, {1, 3000}, std::vector<double>(3000, 1.0))});
  EXPECT_EQ(out[0].GetAsDouble(0), 3000.0);
  const auto mean = Interpret(Reduce("Mean", BF16, 2, {0}), {{"s0", 3}, {"s1", 1}},
                              {FromDoubles(BF16, {3, 1}, {1, 1, 2})});
  EXPECT_EQ(mean[0].GetAsDouble(0), data::RoundToFloatDType(4.0 / 3.0, BF16));
}

TEST(Interp, LogicalAndIntegerReductions) {
  const sym::Bindings bind = {{"s0", 2}, {"s1", 3}};
  const HostArray bools = FromDoubles(DType::kBool, {2, 3}, {1, 0, 1, 1, 1, 1});
  EXPECT_EQ(ToDoubles(Interpret(Reduce("Any", DType::kBool, 2, {1}), bind, {bools})[0]),
            (std::vector<double>{1, 1}));
  EXPECT_EQ(ToDoubles(Interpret(Reduce("All", DType::kBool, 2, {1}), bind, {bools})[0]),
            (std::vector<double>{0, 1}));
  const HostArray i8 = FromDoubles(DType::kInt8, {2, 3}, {100, 100, 100, -5, 7, 1});
  EXPECT_EQ(ToDoubles(Interpret(Reduce("Sum", DType::kInt8, 2, {1}), bind, {i8})[0]),
            (std::vector<double>{44, 3}));  // 300 wraps to 44
  EXPECT_EQ(ToDoubles(Interpret(Reduce("Max", DType::kInt8, 2, {0}), bind, {i8})[0]),
            (std::vector<double>{100, 100, 100}));
}

TEST(Interp, IntegerArithmeticAndCasts) {
  const sym::Bindings bind = {{"s0", 1}, {"s1", 4}};
  const HostArray a = FromDoubles(DType::kInt32, {1, 4}, {-7, 7, -7, 7});
  const HostArray b = FromDoubles(DType::kInt32, {1, 4}, {2, 2, -2, -2});
  EXPECT_EQ(
      ToDoubles(Interpret(Elementwise2D("Div", DType::kInt32, DType::kInt32, 2), bind, {a, b})[0]),
      (std::vector<double>{-3, 3, 3, -3}));
  EXPECT_EQ(
      ToDoubles(Interpret(Elementwise2D("Pow", DType::kInt32, DType::kInt32, 2), bind, {a, b})[0]),
      (std::vector<double>{49, 49, 0, 0}));
  const HostArray c = FromDoubles(DType::kInt8, {1, 4}, {100, -128, 127, 1});
  EXPECT_EQ(
      ToDoubles(Interpret(Elementwise2D("Add", DType::kInt8, DType::kInt8, 2), bind, {c, c})[0]),
      (std::vector<double>{-56, 0, -2, 2}));
  EXPECT_EQ(ToDoubles(Interpret(Elementwise2D("Abs", DType::kInt8, DType::kInt8), bind, {c})[0]),
            (std::vector<double>{100, -128, 127, 1}));
  const HostArray f = FromDoubles(F32, {1, 4}, {-2.7, 2.7, 1e10, std::nan("")});
  EXPECT_EQ(ToDoubles(Interpret(Elementwise2D("Cast", F32, DType::kInt32), bind, {f})[0]),
            (std::vector<double>{-2, 2, 2147483647, 0}));
  EXPECT_EQ(ToDoubles(Interpret(Elementwise2D("Cast", F32, DType::kBool), bind, {f})[0]),
            (std::vector<double>{1, 1, 1, 1}));
  EXPECT_EQ(ToDoubles(Interpret(Elementwise2D("Cast", DType::kInt32, DType::kInt8), bind,
                                {FromDoubles(DType::kInt32, {1, 4}, {200, -129, 0, 70000})})[0]),
            (std::vector<double>{127, -128, 0, 127}));  // integer Casts saturate, as AscendC's
  EXPECT_EQ(ToDoubles(Interpret(Elementwise2D("Cast", DType::kInt16, DType::kUInt8), bind,
                                {FromDoubles(DType::kInt16, {1, 4}, {-1, 300, 7, 255})})[0]),
            (std::vector<double>{0, 255, 7, 255}));
  EXPECT_EQ(ToDoubles(Interpret(Elementwise2D("Sign", DType::kInt32, DType::kInt32), bind, {a})[0]),
            (std::vector<double>{-1, 1, -1, 1}));
  const HostArray z = FromDoubles(DType::kInt32, {1, 4}, {1, 1, 0, 1});
  ExpectError(Elementwise2D("Div", DType::kInt32, DType::kInt32, 2), bind, {a, z},
              "node 'op' (Div): integer division by zero");
}

TEST(Interp, FloatSpecialValues) {
  const sym::Bindings bind = {{"s0", 1}, {"s1", 3}};
  const HostArray x = FromDoubles(F32, {1, 3}, {std::nan(""), -1, 0});
  const HostArray y = FromDoubles(F32, {1, 3}, {1, 0, 0});
  const auto mx = ToDoubles(Interpret(Elementwise2D("Maximum", F32, F32, 2), bind, {x, y})[0]);
  EXPECT_TRUE(std::isnan(mx[0]));
  EXPECT_EQ(mx[1], 0);
  const auto dv = ToDoubles(Interpret(Elementwise2D("TrueDiv", F32, F32, 2), bind, {x, y})[0]);
  EXPECT_EQ(dv[1], -HUGE_VAL);
  EXPECT_TRUE(std::isnan(dv[2]));
  const auto relu = ToDoubles(Interpret(Elementwise2D("Relu", F32, F32), bind, {x})[0]);
  EXPECT_TRUE(std::isnan(relu[0]));
  EXPECT_EQ(relu[1], 0);
  const auto ln = ToDoubles(Interpret(Elementwise2D("Ln", F32, F32), bind, {x})[0]);
  EXPECT_TRUE(std::isnan(ln[1]));
  EXPECT_EQ(ln[2], -HUGE_VAL);
  const auto rs = ToDoubles(Interpret(Elementwise2D("Rsqrt", F32, F32), bind, {y})[0]);
  EXPECT_EQ(rs, (std::vector<double>{1, HUGE_VAL, HUGE_VAL}));
  const auto erf = ToDoubles(Interpret(Elementwise2D("Erf", F32, F32), bind, {y})[0]);
  EXPECT_EQ(erf[0], F(std::erf(1.0)));
}

TEST(Interp, ExpSubFixture) {
  const auto path = test::OurFixtures() / "ascgraph" / "exp_sub.graph.txt";
  const ir::Graph g = ir::ParseText(test::ReadFile(path), path.string());
  for (const auto& [s0, s1] : {std::pair{3, 5}, std::pair{1, 1}, std::pair{7, 11}}) {
    const sym::Bindings bind = {{"s0", s0}, {"s1", s1}};
    const auto ins = InputShapes(g, bind);
    ASSERT_EQ(ins.size(), 2u);
    EXPECT_EQ(ins[0], (TensorSpec{"x", 0, F32, {s0, s1}}));
    EXPECT_EQ(ins[1], (TensorSpec{"m", 1, F32, {s0, 1}}));
    EXPECT_EQ(OutputShapes(g, bind), (std::vector<TensorSpec>{{"y", 0, F32, {s0, s1}}}));
    const HostArray x = data::RandomArray(F32, {s0, s1}, 1, -2, 2);
    const HostArray m = data::RandomArray(F32, {s0, 1}, 2, -1, 1);
    const auto out = Interpret(g, bind, {x, m});
    for (int i = 0; i < s0; ++i) {
      for (int j = 0; j < s1; ++j) {
        const double d = F(x.GetAsDouble(i * s1 + j) - m.GetAsDouble(i));
        EXPECT_EQ(out[0].GetAsDouble(i * s1 + j), F(F(std::exp(d)) * 2.0));
      }
    }
  }
}

TEST(Interp, LoadOffsetsStridesAndTransposedViews) {
  // x is a 4x6 buffer; load the column block x[:, 3:5] and the transpose x.T.
  GraphBuilder b("views", 0);
  const int x = b.Data("x", 0, F32, "4, 6", "6, 1");
  const int blk = b.Add("Load", "blk", {x}, F32, "4, 2", "6, 1");
  b.node(blk).attrs["offset"] = sym::Expr(3);
  const int st = b.Add("Store", "st", {blk}, F32, "4, 2", "2, 1");
  b.Output("y0", 0, st, F32, "4, 2", "2, 1");
  const int tr = b.Add("Load", "tr", {x}, F32, "6, 4", "1, 6");
  const int st2 = b.Add("Store", "st2", {tr}, F32, "6, 4", "4, 1");
  b.Output("y1", 1, st2, F32, "6, 4", "4, 1");
  // A Store with an offset into the right half of a wider output; the left half stays 0.
  const int st3 = b.Add("Store", "st3", {blk}, F32, "4, 2", "4, 1");
  b.node(st3).attrs["offset"] = std::int64_t{2};
  b.Output("y2", 2, st3, F32, "4, 4", "4, 1");
  const auto out = Interpret(b.graph(), {}, {FromDoubles(F32, {4, 6}, Iota(24))});
  EXPECT_EQ(ToDoubles(out[0]), (std::vector<double>{3, 4, 9, 10, 15, 16, 21, 22}));
  ASSERT_EQ(out[1].shape, (std::vector<std::int64_t>{6, 4}));
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 4; ++j)
      EXPECT_EQ(out[1].GetAsDouble(i * 4 + j), j * 6 + i);
  }
  EXPECT_EQ(ToDoubles(out[2]),
            (std::vector<double>{0, 0, 3, 4, 0, 0, 9, 10, 0, 0, 15, 16, 0, 0, 21, 22}));
}

TEST(Interp, InputsAndOutputsWithoutIndexFollowFileOrder) {
  ir::Graph g = Elementwise2D("Sub", F32, F32, 2);
  for (auto& n : g.nodes)
    n.attrs.erase("index");
  const auto out = Interpret(g, {{"s0", 1}, {"s1", 2}},
                             {FromDoubles(F32, {1, 2}, {5, 5}), FromDoubles(F32, {1, 2}, {1, 2})});
  EXPECT_EQ(ToDoubles(out[0]), (std::vector<double>{4, 3}));
  // Indices given out of file order are honoured.
  ir::Graph h = Elementwise2D("Sub", F32, F32, 2);
  h.nodes[0].attrs["index"] = std::int64_t{1};
  h.nodes[2].attrs["index"] = std::int64_t{0};
  const auto out2 = Interpret(h, {{"s0", 1}, {"s1", 2}},
                              {FromDoubles(F32, {1, 2}, {5, 5}), FromDoubles(F32, {1, 2}, {1, 2})});
  EXPECT_EQ(ToDoubles(out2[0]), (std::vector<double>{-4, -3}));
  EXPECT_EQ(InputShapes(h, {{"s0", 1}, {"s1", 2}})[0].name, "y");
}

TEST(Interp, ConstSizesAreBound) {
  ir::Graph g = Elementwise2D("Neg", F32, F32);
  g.size_vars[1].const_value = 2;
  const auto out = Interpret(g, {{"s0", 1}}, {FromDoubles(F32, {1, 2}, {1, -1})});
  EXPECT_EQ(ToDoubles(out[0]), (std::vector<double>{-1, 1}));
  ExpectError(g, {{"s0", 1}, {"s1", 3}}, {}, "contradicts its CONST value 2");
}

TEST(Interp, Errors) {
  const ir::Graph g = Elementwise2D("Add", F32, F32, 2);
  const sym::Bindings bind = {{"s0", 2}, {"s1", 3}};
  const HostArray ok = data::Zeros(F32, {2, 3});
  ExpectError(g, bind, {ok, data::Zeros(F32, {3, 2})},
              "input 1 (Data 'y'): expected fp32 (2, 3), got fp32 (3, 2)");
  ExpectError(g, bind, {ok, data::Zeros(F16, {2, 3})}, "expected fp32 (2, 3), got fp16 (2, 3)");
  ExpectError(g, bind, {ok}, "expects 2 input arrays, got 1");
  ExpectError(g, {{"s0", 2}}, {ok, ok}, "unbound");

  // Load views that leave the buffer.
  ir::Graph oob = g;
  oob.nodes[1].attrs["offset"] = std::int64_t{1};
  ExpectError(oob, bind, {ok, ok},
              "node 'lx' (Load): reads Data 'x' elements [1, 6] of a buffer of 6 elements");
  ir::Graph wide = g;
  wide.nodes[1].outputs[0].strides[0] = sym::Expr(4);
  ExpectError(wide, bind, {ok, ok}, "elements [0, 6] of a buffer of 6");
  ir::Graph neg = g;
  neg.nodes[1].attrs["offset"] = sym::Expr(-1);
  ExpectError(neg, bind, {ok, ok}, "elements [-1, 4]");
  ir::Graph huge = g;
  huge.nodes[1].outputs[0].strides[0] = sym::Expr(INT64_MAX / 2);
  ExpectError(huge, bind, {ok, ok}, "overflow");
  // A Store writing past its output.
  ir::Graph st = g;
  st.nodes[5].attrs["offset"] = std::int64_t{3};
  ExpectError(st, bind, {ok, ok},
              "node 'out' (Output): Store 'st' writes elements [3, 8] of a buffer of 6");
  // Operands that do not broadcast.
  ir::Graph bad = g;
  bad.nodes[4].outputs[0].repeats[1] = sym::Expr::Sym("s0");
  ExpectError(bad, bind, {ok, ok}, "input 0 has shape (2, 3), which does not broadcast to (2, 2)");
  // Unsupported ops and direct reads of Data.
  ir::Graph ws = g;
  ws.nodes[4].type = "Workspace";
  ws.nodes[4].inputs.clear();
  ExpectError(ws, bind, {ok, ok}, "op Workspace is not supported by the interpreter yet");
  ir::Graph direct = g;
  direct.nodes[4].inputs[0].node = 0;
  ExpectError(direct, bind, {ok, ok}, "reads node 'x' (Data), which has no value here");
  ir::Graph unknown = g;
  unknown.nodes[4].type = "Frobnicate";
  ExpectError(unknown, bind, {ok, ok}, "unknown op type 'Frobnicate'");
  ir::Graph dup = g;
  dup.nodes[2].attrs["index"] = std::int64_t{0};
  ExpectError(dup, bind, {ok, ok}, "another Data node has index 0");
  ir::Graph cycle = g;
  cycle.nodes[1].inputs[0].node = 4;
  ExpectError(cycle, bind, {ok, ok}, "cycle");
  GraphBuilder sb("bad_scalar", 0);
  const int s = sb.Scalar("k", F32, "2.0x");
  sb.Output("y", 0, sb.Add("Store", "st", {s}, F32, "", ""), F32, "", "");
  ExpectError(sb.graph(), {}, {}, "node 'k' (Scalar): value \"2.0x\" is not a number");
  // A reduction whose output view keeps a stride on a size-1 dim is not a reduction.
  ir::Graph red = Reduce("Sum", F32, 2, {1});
  red.nodes[2].outputs[0].strides[1] = sym::Expr(1);
  ExpectError(red, bind, {ok}, "a reduced dim needs output repeat 1 and stride 0");
}

TEST(Interp, TenMillionElementsInReasonableTime) {
  GraphBuilder b("big", 2);
  const int x = b.Data("x", 0, F32, "s0, s1", "s1, 1");
  const int lx = b.Add("Load", "lx", {x}, F32, "s0, s1", "s1, 1");
  const int e = b.Add("Exp", "e", {lx}, F32, "s0, s1", "s1, 1");
  const int a = b.Add("Add", "a", {e, lx}, F32, "s0, s1", "s1, 1");
  const int r = b.Add("Sum", "r", {a}, F32, "s0, 1", "1, 0");
  const int st = b.Add("Store", "st", {r}, F32, "s0, 1", "1, 0");
  b.Output("y", 0, st, F32, "s0, 1", "1, 0");
  const HostArray in = data::RandomArray(F32, {2500, 4000}, 3, -1, 1);
  const auto t0 = std::chrono::steady_clock::now();
  const auto out = Interpret(b.graph(), {{"s0", 2500}, {"s1", 4000}}, {in});
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  RecordProperty("seconds", std::to_string(secs));
  std::cout << "1e7-element Load/Exp/Add/Sum graph: " << secs << " s\n";
  EXPECT_LT(secs, 30.0);
  double s = 0;
  for (std::int64_t j = 0; j < 4000; ++j) {
    const double v = in.GetAsDouble(j);
    s += F(F(std::exp(v)) + v);
  }
  EXPECT_EQ(out[0].GetAsDouble(0), F(s));
}

// ------------------------------------------------------------------ data-movement ops

constexpr auto I32 = DType::kInt32;
constexpr auto I64 = DType::kInt64;
constexpr auto BOOL = DType::kBool;

ir::Graph Fixture(const std::string& name) {
  const auto path = test::OurFixtures() / "ir" / name;
  return ir::ParseText(test::ReadFile(path), path.string());
}

// A view over explicit axis ids (GraphBuilder's views use ids 0..rank-1 in order).
ir::Tensor ViewOn(DType dtype, const std::string& repeats, const std::string& strides,
                  std::vector<std::int64_t> axes) {
  ir::Tensor t = GraphBuilder::View(dtype, repeats, strides);
  t.axis = std::move(axes);
  return t;
}

// Row-major offset of `idx` in `shape`.
std::int64_t Flat(const std::vector<std::int64_t>& idx, const std::vector<std::int64_t>& shape) {
  std::int64_t o = 0;
  for (std::size_t k = 0; k < shape.size(); ++k)
    o = o * shape[k] + idx[k];
  return o;
}

// Calls f(idx) for every multi-index of `shape` in C order.
template <typename F>
void ForEachIndex(const std::vector<std::int64_t>& shape, F&& f) {
  std::int64_t n = 1;
  for (auto d : shape)
    n *= d;
  std::vector<std::int64_t> idx(shape.size(), 0);
  for (std::int64_t k = 0; k < n; ++k) {
    f(idx);
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

TEST(InterpDataMovement, TransposeFixtureSwapsTheLastTwoDims) {
  const ir::Graph g = Fixture("transpose.graph.txt");
  for (const auto& [s0, s1, s2] : {std::tuple{2, 3, 5}, std::tuple{1, 1, 1}, std::tuple{3, 1, 7}}) {
    const sym::Bindings bind = {{"s0", s0}, {"s1", s1}, {"s2", s2}};
    EXPECT_EQ(OutputShapes(g, bind), (std::vector<TensorSpec>{{"y", 0, F32, {s0, s2, s1}}}));
    const std::vector<std::int64_t> in_shape = {s0, s1, s2};
    const std::vector<std::int64_t> out_shape = {s0, s2, s1};
    const HostArray x = data::RandomArray(F32, in_shape, 5, -3, 3);
    const auto out = Interpret(g, bind, {x});
    ForEachIndex(out_shape, [&](const std::vector<std::int64_t>& o) {
      EXPECT_EQ(out[0].GetAsDouble(Flat(o, out_shape)),
                x.GetAsDouble(Flat({o[0], o[2], o[1]}, in_shape)));
    });
  }
}

// x [s0, s1, s2, s3] -> Load -> Transpose to axes (z0, z3, z1, z2) -> Store -> Output.
ir::Graph Transpose0312(DType dt) {
  GraphBuilder b("transpose_0312", 4);
  const std::string in = "s0, s1, s2, s3";
  const std::string ins = "s1 * s2 * s3, s2 * s3, s3, 1";
  const std::string out = "s0, s3, s1, s2";
  const std::string outs = "s1 * s2 * s3, s1 * s2, s2, 1";
  const int x = b.Data("x", 0, dt, in, ins);
  const int lx = b.Add("Load", "lx", {x}, dt, in, ins);
  const int t = b.Add("Transpose", "t", {lx}, ViewOn(dt, out, outs, {0, 3, 1, 2}));
  const int st = b.Add("Store", "st", {t}, ViewOn(dt, out, outs, {0, 3, 1, 2}));
  b.Output("y", 0, st, dt, out, outs);
  return b.graph();
}

TEST(InterpDataMovement, TransposeEveryDtypeKeepsValuesExactly) {
  const std::vector<std::int64_t> shape = {2, 3, 1, 5};
  const sym::Bindings bind = {{"s0", 2}, {"s1", 3}, {"s2", 1}, {"s3", 5}};
  for (const DType dt : {F32, F16, BF16, I32, I64, BOOL}) {
    const HostArray x = data::RandomArray(dt, shape, 11, -1000, 1000);
    const auto out = Interpret(Transpose0312(dt), bind, {x});
    ASSERT_EQ(out[0].dtype, dt);
    ASSERT_EQ(out[0].shape, (std::vector<std::int64_t>{2, 5, 3, 1}));
    ForEachIndex(out[0].shape, [&](const std::vector<std::int64_t>& o) {
      EXPECT_EQ(out[0].GetAsDouble(Flat(o, out[0].shape)),
                x.GetAsDouble(Flat({o[0], o[2], o[3], o[1]}, shape)))
          << ir::DTypeName(dt);
    });
  }
}

TEST(InterpDataMovement, TransposeNeedsAPermutationOfTheInputAxes) {
  ir::Graph g = Transpose0312(F32);
  g.nodes[2].outputs[0].axis = {0, 3, 1, 1};
  const sym::Bindings bind = {{"s0", 2}, {"s1", 3}, {"s2", 1}, {"s3", 5}};
  const HostArray x = data::RandomArray(F32, {2, 3, 1, 5}, 1);
  ExpectError(g, bind, {x}, "node 't' (Transpose): its output axes are not a permutation");
  g = Transpose0312(F32);
  g.nodes[2].outputs[0].repeats[1] = sym::Expr::Sym("s2");  // extent of z3 is s3, not s2
  ExpectError(g, bind, {x}, "output dim 1 has extent 1, but it is input dim 3 of extent 5");
}

TEST(InterpDataMovement, ConcatFixtureJoinsAlongTheInnerDim) {
  const ir::Graph g = Fixture("concat.graph.txt");
  for (const auto& [s0, s1, s2] : {std::tuple{2, 3, 4}, std::tuple{1, 1, 1}, std::tuple{3, 7, 2}}) {
    const sym::Bindings bind = {{"s0", s0}, {"s1", s1}, {"s2", s2}};
    const HostArray a = data::RandomArray(F32, {s0, s1}, 1);
    const HostArray b = data::RandomArray(F32, {s0, s2}, 2);
    const HostArray c = data::RandomArray(F32, {s0, 1}, 3);
    const auto out = Interpret(g, bind, {a, b, c});
    const std::int64_t w = s1 + s2 + 1;
    ASSERT_EQ(out[0].shape, (std::vector<std::int64_t>{s0, w}));
    for (std::int64_t i = 0; i < s0; ++i) {
      for (std::int64_t j = 0; j < w; ++j) {
        const double want = j < s1        ? a.GetAsDouble(i * s1 + j)
                            : j < s1 + s2 ? b.GetAsDouble(i * s2 + j - s1)
                                          : c.GetAsDouble(i);
        EXPECT_EQ(out[0].GetAsDouble(i * w + j), want) << i << "," << j;
      }
    }
  }
}

// n inputs x_k [s0, w_k] (or [w_k, s0] when dim == 0) concatenated along `dim`; the widths are
// constants on a second axis zc.
ir::Graph ManyConcat(DType dt, const std::vector<std::int64_t>& widths, int dim) {
  GraphBuilder b("concat_many", 1);
  std::int64_t total = 0;
  for (auto w : widths)
    total += w;
  const auto view = [&](std::int64_t w) {
    const std::string ws = std::to_string(w);
    return dim == 1 ? ViewOn(dt, "s0, " + ws, ws + ", 1", {0, 1})
                    : ViewOn(dt, ws + ", s0", "s0, 1", {1, 0});
  };
  std::vector<int> loads;
  for (std::size_t k = 0; k < widths.size(); ++k) {
    const std::string id = std::to_string(k);
    const int d = b.Add("Data", "x" + id, {}, view(widths[k]));
    b.node(d).attrs["index"] = static_cast<std::int64_t>(k);
    loads.push_back(b.Add("Load", "l" + id, {d}, view(widths[k])));
  }
  const int cat = b.Add("Concat", "cat", loads, view(total));
  const int st = b.Add("Store", "st", {cat}, view(total));
  const int y = b.Add("Output", "y", {st}, view(total));
  b.node(y).attrs["index"] = std::int64_t{0};
  ir::Graph g = b.graph();
  g.AddAxis("zc", sym::Expr(total));
  return g;
}

TEST(InterpDataMovement, ConcatOfSeventyInputsAlongEitherDim) {
  // 70 inputs: beyond AutoFuse's UB-concat input limit (48 in the current generator, 63 in V1).
  std::vector<std::int64_t> widths;
  widths.reserve(70);
  for (int k = 0; k < 70; ++k)
    widths.push_back(1 + (k * 7) % 5);  // 1..5, odd and even
  for (const int dim : {0, 1}) {
    for (const DType dt : {I32, F16}) {
      const ir::Graph g = ManyConcat(dt, widths, dim);
      const auto diags = ir::Validate(g);
      EXPECT_FALSE(ir::HasErrors(diags)) << ir::FormatDiagnostics(diags);
      const std::int64_t rows = 3;
      std::vector<HostArray> ins;
      for (std::size_t k = 0; k < widths.size(); ++k) {
        const std::vector<std::int64_t> shape = dim == 1
                                                    ? std::vector<std::int64_t>{rows, widths[k]}
                                                    : std::vector<std::int64_t>{widths[k], rows};
        ins.push_back(data::RandomArray(dt, shape, 100 + k, -50, 50));
      }
      const auto out = Interpret(g, {{"s0", rows}}, ins);
      std::int64_t off = 0;
      for (std::size_t k = 0; k < widths.size(); ++k) {
        const std::int64_t w = widths[k];
        for (std::int64_t r = 0; r < rows; ++r) {
          for (std::int64_t c = 0; c < w; ++c) {
            const std::int64_t total = out[0].numel() / rows;
            const std::int64_t at = dim == 1 ? r * total + off + c : (off + c) * rows + r;
            const std::int64_t src = dim == 1 ? r * w + c : c * rows + r;
            ASSERT_EQ(out[0].GetAsDouble(at), ins[k].GetAsDouble(src))
                << "dim " << dim << " input " << k;
          }
        }
        off += w;
      }
    }
  }
}

TEST(InterpDataMovement, ConcatRejectsInputsThatDifferOnTwoDims) {
  ir::Graph g = Fixture("concat.graph.txt");
  const sym::Bindings bind = {{"s0", 2}, {"s1", 3}, {"s2", 4}};
  std::vector<HostArray> ins = {data::RandomArray(F32, {2, 3}, 1),
                                data::RandomArray(F32, {2, 4}, 2),
                                data::RandomArray(F32, {2, 1}, 3)};
  g.nodes[5].outputs[0].repeats[0] = sym::Expr(1);  // lc: [1, 1] under a [2, ...] output
  ExpectError(g, bind, ins, "they differ on dim 1, not only on the concat dim 0");
  g = Fixture("concat.graph.txt");
  g.nodes[6].outputs[0].repeats[1] = sym::Parse("s1 + s2 + 2");
  ExpectError(g, bind, ins, "concat dim 1: the inputs' extents add up to 8, the output has 9");
}

TEST(InterpDataMovement, SplitFixtureFeedsEachOutputItsPiece) {
  const ir::Graph g = Fixture("split.graph.txt");
  for (const auto& [s0, s1, s2] : {std::tuple{2, 3, 4}, std::tuple{1, 1, 1}, std::tuple{5, 1, 6}}) {
    const sym::Bindings bind = {{"s0", s0}, {"s1", s1}, {"s2", s2}};
    const HostArray x = data::RandomArray(F32, {s0, s1 + s2}, 9, -4, 4);
    const auto out = Interpret(g, bind, {x});
    ASSERT_EQ(out.size(), 2u);
    ASSERT_EQ(out[0].shape, (std::vector<std::int64_t>{s0, s1}));
    ASSERT_EQ(out[1].shape, (std::vector<std::int64_t>{s0, s2}));
    for (std::int64_t i = 0; i < s0; ++i) {
      for (std::int64_t j = 0; j < s1 + s2; ++j) {
        const double v = x.GetAsDouble(i * (s1 + s2) + j);
        if (j < s1) {
          EXPECT_EQ(out[0].GetAsDouble(i * s1 + j), v);
        } else {
          EXPECT_EQ(out[1].GetAsDouble(i * s2 + j - s1), -v);
        }
      }
    }
  }
}

// x [s0, 6] split along dim 1 by three one-output Split nodes sharing gid 7 (AutoFuse's form
// before it merges them), listed in file order with indices 2, 0, 1 and widths 3, 1, 2.
ir::Graph SplitByGid(DType dt) {
  GraphBuilder b("split_gid", 2);
  const int x = b.Data("x", 0, dt, "s0, 6", "6, 1");
  const int lx = b.Add("Load", "lx", {x}, dt, "s0, 6", "6, 1");
  const std::vector<std::pair<std::int64_t, std::int64_t>> parts = {{2, 3}, {0, 1}, {1, 2}};
  std::vector<int> splits;
  for (const auto& [index, w] : parts) {
    const std::string ws = std::to_string(w);
    const int s = b.Add("Split", "sp" + std::to_string(index), {lx}, dt, "s0, " + ws, ws + ", 1");
    b.node(s).attrs["gid"] = std::int64_t{7};
    b.node(s).attrs["index"] = index;
    splits.push_back(s);
  }
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const std::string ws = std::to_string(parts[k].second);
    const int st =
        b.Add("Store", "st" + std::to_string(k), {splits[k]}, dt, "s0, " + ws, ws + ", 1");
    b.Output("y" + std::to_string(k), static_cast<std::int64_t>(k), st, dt, "s0, " + ws,
             ws + ", 1");
  }
  return b.graph();
}

TEST(InterpDataMovement, SplitNodesSharingAGidAreOrderedByIndex) {
  for (const DType dt : {I64, BF16, BOOL}) {
    const ir::Graph g = SplitByGid(dt);
    const auto diags = ir::Validate(g);
    EXPECT_FALSE(ir::HasErrors(diags)) << ir::FormatDiagnostics(diags);
    const HostArray x = data::RandomArray(dt, {3, 6}, 4, -100, 100);
    const auto out = Interpret(g, {{"s0", 3}}, {x});
    // index 0 -> columns [0, 1), index 1 -> [1, 3), index 2 -> [3, 6).
    const std::vector<std::pair<std::int64_t, std::int64_t>> cols = {{3, 3}, {0, 1}, {1, 2}};
    for (std::size_t k = 0; k < 3; ++k) {
      const auto [start, w] = cols[k];
      for (std::int64_t i = 0; i < 3; ++i) {
        for (std::int64_t j = 0; j < w; ++j) {
          EXPECT_EQ(out[k].GetAsDouble(i * w + j), x.GetAsDouble(i * 6 + start + j))
              << ir::DTypeName(dt) << " output " << k;
        }
      }
    }
  }
}

TEST(InterpDataMovement, SplitAlongTheFirstDimIntoOneRowPieces) {
  GraphBuilder b("split_rows", 2);
  const int x = b.Data("x", 0, I32, "3, s1", "s1, 1");
  const int lx = b.Add("Load", "lx", {x}, I32, "3, s1", "s1, 1");
  ir::Tensor row = GraphBuilder::View(I32, "1, s1", "s1, 1");
  ir::Tensor two = GraphBuilder::View(I32, "2, s1", "s1, 1");
  const int sp = b.Add("Split", "sp", {lx}, row);
  b.node(sp).outputs.push_back(two);
  const int st0 = b.Add("Store", "st0", {sp}, row);
  const int st1 = b.Add("Store", "st1", {sp}, two);
  b.node(st1).inputs[0].output = 1;
  b.Output("y0", 0, st0, I32, "1, s1", "s1, 1");
  b.Output("y1", 1, st1, I32, "2, s1", "s1, 1");
  const auto diags = ir::Validate(b.graph());
  EXPECT_FALSE(ir::HasErrors(diags)) << ir::FormatDiagnostics(diags);
  const HostArray in = data::FromDoubles(I32, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  const auto out = Interpret(b.graph(), {{"s1", 3}}, {in});
  EXPECT_EQ(ToDoubles(out[0]), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(ToDoubles(out[1]), (std::vector<double>{4, 5, 6, 7, 8, 9}));
  ir::Graph bad = b.graph();
  bad.nodes[2].outputs[1].repeats[0] = sym::Expr(1);
  ExpectError(bad, {{"s1", 3}}, {in},
              "split dim 0: the pieces' extents add up to 2, the input has 3");
}

TEST(InterpDataMovement, GatherFixtureWrapsNegativeIndices) {
  const ir::Graph g = Fixture("gather.graph.txt");
  const sym::Bindings bind = {{"s0", 5}, {"s1", 3}, {"s2", 2}, {"s3", 3}};
  const HostArray emb = data::RandomArray(F32, {5, 3}, 8);
  const HostArray idx = data::FromDoubles(I64, {2, 3}, {0, 4, -1, 2, -5, 1});
  const auto out = Interpret(g, bind, {emb, idx});
  ASSERT_EQ(out[0].shape, (std::vector<std::int64_t>{2, 3, 3}));
  const std::vector<std::int64_t> rows = {0, 4, 4, 2, 0, 1};
  for (std::size_t j = 0; j < rows.size(); ++j) {
    for (std::int64_t c = 0; c < 3; ++c) {
      EXPECT_EQ(out[0].GetAsDouble(static_cast<std::int64_t>(j) * 3 + c),
                emb.GetAsDouble(rows[j] * 3 + c));
    }
  }
}

TEST(InterpDataMovement, GatherOutOfRangeIndicesAreErrorsNamingTheIndex) {
  ir::Graph g = Fixture("gather.graph.txt");
  const sym::Bindings bind = {{"s0", 5}, {"s1", 3}, {"s2", 2}, {"s3", 2}};
  const HostArray emb = data::RandomArray(F32, {5, 3}, 8);
  ExpectError(g, bind, {emb, data::FromDoubles(I64, {2, 2}, {0, 1, 5, 2})},
              "node 'g' (Gather): index 5 at indices position (1, 0) is out of range [-5, 5)");
  ExpectError(g, bind, {emb, data::FromDoubles(I64, {2, 2}, {0, -6, 1, 2})},
              "index -6 at indices position (0, 1) is out of range [-5, 5)");
  g.nodes[2].attrs["negative_index_support"] = false;
  ExpectError(g, bind, {emb, data::FromDoubles(I64, {2, 2}, {0, 1, 2, -1})},
              "index -1 at indices position (1, 1) is out of range [0, 5) "
              "(negative_index_support is off)");
  // Bounds are checked even when nothing is gathered (params rows of width 0).
  const sym::Bindings empty = {{"s0", 5}, {"s1", 0}, {"s2", 1}, {"s3", 1}};
  ExpectError(g, empty, {data::Zeros(F32, {5, 0}), data::FromDoubles(I64, {1, 1}, {7})}, "index 7");
}

// params [s0, s1, s2] (through a Load), int32 indices [s3] (read from Data), Gather on axis 1.
ir::Graph GatherMiddleAxis(DType dt) {
  GraphBuilder b("gather_axis1", 4);
  const int p = b.Data("p", 0, dt, "s0, s1, s2", "s1 * s2, s2, 1");
  const int lp = b.Add("Load", "lp", {p}, dt, "s0, s1, s2", "s1 * s2, s2, 1");
  const int i = b.Add("Data", "i", {}, ViewOn(I32, "s3", "1", {3}));
  b.node(i).attrs["index"] = std::int64_t{1};
  const ir::Tensor out = ViewOn(dt, "s0, s3, s2", "s3 * s2, s2, 1", {0, 3, 2});
  const int gat = b.Add("Gather", "gat", {lp, i}, out);
  b.node(gat).attrs["axis"] = std::int64_t{1};
  const int st = b.Add("Store", "st", {gat}, out);
  b.Add("Output", "y", {st}, out);
  b.node(static_cast<int>(b.graph().nodes.size()) - 1).attrs["index"] = std::int64_t{0};
  return b.graph();
}

TEST(InterpDataMovement, GatherOnAMiddleAxisWithInt32Indices) {
  for (const DType dt : {F32, F16, I32, I64}) {
    const ir::Graph g = GatherMiddleAxis(dt);
    const auto diags = ir::Validate(g);
    EXPECT_FALSE(ir::HasErrors(diags)) << ir::FormatDiagnostics(diags);
    const HostArray p = data::RandomArray(dt, {2, 7, 3}, 21, -9, 9);
    const HostArray idx = data::FromDoubles(I32, {4}, {6, 0, 6, 3});
    const auto out = Interpret(g, {{"s0", 2}, {"s1", 7}, {"s2", 3}, {"s3", 4}}, {p, idx});
    ASSERT_EQ(out[0].shape, (std::vector<std::int64_t>{2, 4, 3}));
    ForEachIndex({2, 4, 3}, [&](const std::vector<std::int64_t>& o) {
      const std::int64_t row = idx.GetAsInt(o[1]);
      EXPECT_EQ(out[0].GetAsDouble(Flat(o, {2, 4, 3})),
                p.GetAsDouble(Flat({o[0], row, o[2]}, {2, 7, 3})))
          << ir::DTypeName(dt);
    });
  }
  ir::Graph g = GatherMiddleAxis(F32);
  g.nodes[2].outputs[0].dtype = F32;  // float indices
  ExpectError(g, {{"s0", 2}, {"s1", 7}, {"s2", 3}, {"s3", 4}},
              {data::RandomArray(F32, {2, 7, 3}, 1), data::FromDoubles(F32, {4}, {0, 1, 2, 3})},
              "node 'gat' (Gather): indices have dtype fp32; Gather takes int32 or int64 indices");
}

TEST(InterpDataMovement, PadAndRemovePadKeepValues) {
  const ir::Graph g = Fixture("pad.graph.txt");
  const HostArray x = data::RandomArray(F16, {3, 17}, 6, -8, 8);
  const auto out = Interpret(g, {{"s0", 3}, {"s1", 17}}, {x});
  for (std::int64_t k = 0; k < x.numel(); ++k)
    EXPECT_EQ(out[0].GetAsDouble(k), std::fabs(x.GetAsDouble(k)));
}

// x [s0, 32] -> Load -> RemovePad to [s0, 31] (the row's padding dropped) -> Pad back to [s0, 32].
ir::Graph RemovePadThenPad(DType dt) {
  GraphBuilder b("removepad", 2);
  const int x = b.Data("x", 0, dt, "s0, 32", "32, 1");
  const int lx = b.Add("Load", "lx", {x}, dt, "s0, 32", "32, 1");
  const int rp = b.Add("RemovePad", "rp", {lx}, dt, "s0, 31", "31, 1");
  const int st = b.Add("Store", "st", {rp}, dt, "s0, 31", "31, 1");
  b.Output("y", 0, st, dt, "s0, 31", "31, 1");
  const int pd = b.Add("Pad", "pd", {rp}, dt, "s0, 32", "32, 1");
  const int st2 = b.Add("Store", "st2", {pd}, dt, "s0, 32", "32, 1");
  b.Output("z", 1, st2, dt, "s0, 32", "32, 1");
  return b.graph();
}

TEST(InterpDataMovement, RemovePadDropsTheTailAndPadZeroFills) {
  for (const DType dt : {F32, F16, I32}) {
    const ir::Graph g = RemovePadThenPad(dt);
    const auto diags = ir::Validate(g);
    EXPECT_FALSE(ir::HasErrors(diags)) << ir::FormatDiagnostics(diags);
    const HostArray x = data::RandomArray(dt, {2, 32}, 12, -5, 5);
    const auto out = Interpret(g, {{"s0", 2}}, {x});
    for (std::int64_t i = 0; i < 2; ++i) {
      for (std::int64_t j = 0; j < 32; ++j) {
        if (j < 31) {
          EXPECT_EQ(out[0].GetAsDouble(i * 31 + j), x.GetAsDouble(i * 32 + j));
        }
        EXPECT_EQ(out[1].GetAsDouble(i * 32 + j), j < 31 ? x.GetAsDouble(i * 32 + j) : 0.0);
      }
    }
  }
  ir::Graph bad = RemovePadThenPad(F32);
  bad.nodes[2].outputs[0].repeats[1] = sym::Expr(33);
  ExpectError(bad, {{"s0", 2}}, {data::RandomArray(F32, {2, 32}, 1)},
              "node 'rp' (RemovePad): output shape (2, 33) is larger than the input shape (2, 32) "
              "on dim 1 (RemovePad only drops padding)");
}

TEST(InterpDataMovement, ReadingAMissingOutputOfASplitIsAnError) {
  ir::Graph g = Fixture("split.graph.txt");
  g.nodes[3].inputs[0].output = 2;
  ExpectError(g, {{"s0", 1}, {"s1", 1}, {"s2", 1}}, {data::RandomArray(F32, {1, 2}, 1)},
              "reads output 2 of 'sp', which has 2 output(s)");
}

}  // namespace
}  // namespace af::interp
