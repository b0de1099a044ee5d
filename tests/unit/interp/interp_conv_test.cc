// The Conv2D cube ops (Conv2D, Conv2DBias and their Offset variants) in validation, the
// reference interpreter and the schedule: against PyTorch's conv2d (strides, pads, dilations,
// groups, bias + ReLU, fp16 rounded once, NHWC with an HWIO filter, pad_mode SAME and VALID),
// the validation message of each broken rule, and the refusal codes.
#include <gtest/gtest.h>

#include "autofuse/data/compare.h"
#include "autofuse/data/npy.h"
#include "autofuse/interp/interpreter.h"
#include "autofuse/ir/conv.h"
#include "autofuse/ir/text.h"
#include "autofuse/ir/validate.h"
#include "autofuse/support/error.h"
#include "fixtures.h"
#include "graph_builder.h"
#include "numpy_case.h"

namespace af::interp {
namespace {

using ir::DType;
using testing::GraphBuilder;

constexpr auto F32 = DType::kFloat32;
constexpr auto F16 = DType::kFloat16;

constexpr const char* kPrelude = R"(
import torch
import torch.nn.functional as F
rng = np.random.default_rng(11)
def rand(shape, dt=np.float32):
    return rng.uniform(-2.0, 2.0, shape).astype(dt)
def conv(x, w, b=None, **kw):
    t = lambda a: torch.from_numpy(a.astype(np.float64))
    return F.conv2d(t(x), t(w), None if b is None else t(b), **kw).numpy()
)";

class Case : public testing::NumpyScript {
 public:
  explicit Case(const std::string& tag) : NumpyScript(tag, kPrelude) {}
};

std::string Csv(const std::vector<std::int64_t>& v) {
  std::string s;
  for (std::size_t k = 0; k < v.size(); ++k)
    s += (k != 0 ? ", " : "") + std::to_string(v[k]);
  return s;
}
std::string Dense(const std::vector<std::int64_t>& v) {
  std::vector<std::int64_t> st(v.size(), 1);
  for (std::size_t k = v.size(); k-- > 1;)
    st[k - 1] = st[k] * v[k];
  return Csv(st);
}

struct Spec {
  std::string type = "Conv2D";
  DType in = F32;
  DType out = F32;
  std::vector<std::int64_t> x, filter, y, bias;
  std::vector<std::pair<std::string, ir::AttrValue>> attrs;
};

// Data x, filter (and bias) -> Load -> Conv2D -> Store -> Output, constant sizes.
ir::Graph ConvGraph(const Spec& s) {
  GraphBuilder b("conv", 4);
  auto operand = [&](const std::string& name, std::int64_t index, DType dt,
                     const std::vector<std::int64_t>& dims) {
    const int d = b.Data(name, index, dt, Csv(dims), Dense(dims));
    return b.Add("Load", "l" + name, {d}, dt, Csv(dims), Dense(dims));
  };
  std::vector<int> ins = {operand("x", 0, s.in, s.x), operand("filter", 1, s.in, s.filter)};
  if (!s.bias.empty()) ins.push_back(operand("bias", 2, s.out, s.bias));
  const int cv = b.Add(s.type, "cv", ins, s.out, Csv(s.y), Dense(s.y));
  for (const auto& [k, v] : s.attrs)
    b.node(cv).attrs[k] = v;
  const int st = b.Add("Store", "st", {cv}, s.out, Csv(s.y), Dense(s.y));
  b.Output("y", 0, st, s.out, Csv(s.y), Dense(s.y));
  return b.graph();
}

std::vector<std::string> Errors(const ir::Graph& g) {
  std::vector<std::string> out;
  for (const auto& d : ir::Validate(g)) {
    if (d.severity == ir::Diagnostic::Severity::kError) out.push_back(d.message);
  }
  return out;
}

using Ints = std::vector<std::int64_t>;

TEST(InterpConv, StridesPadsDilationsAndGroupsAgainstTorch) {
  Case c("conv_nchw");
  ASSERT_EQ(c.Run(R"(
x = rand((2, 6, 11, 13)); w = rand((4, 3, 3, 2))
np.save('x.npy', x); np.save('w.npy', w)
np.save('y.npy', conv(x, w, stride=(2, 3), padding=(1, 2), dilation=(2, 1), groups=2)
        .astype(np.float32))
)"),
            "");
  Spec s;
  s.x = {2, 6, 11, 13};
  s.filter = {4, 3, 3, 2};
  s.y = {2, 4, 5, 6};  // (11 + 2 - 4 - 1) / 2 + 1 = 5, (13 + 4 - 1 - 1) / 3 + 1 = 6
  s.attrs = {{"strides", Ints{1, 1, 2, 3}},
             {"pads", Ints{1, 1, 2, 2}},
             {"dilations", Ints{1, 1, 2, 1}},
             {"groups", std::int64_t{2}}};
  const ir::Graph g = ConvGraph(s);
  ASSERT_TRUE(Errors(g).empty()) << Errors(g).front();
  const auto out =
      Interpret(g, {{"s0", 2}, {"s1", 6}, {"s2", 11}, {"s3", 13}}, {c.Load("x"), c.Load("w")});
  EXPECT_CLOSE(c.Load("y"), out[0], 1e-6, 1e-6);
}

TEST(InterpConv, HalfBiasReluAndNhwcAgainstTorch) {
  Case c("conv_nhwc");
  ASSERT_EQ(c.Run(R"(
x = rand((1, 7, 9, 5), np.float16); w = rand((3, 3, 5, 8), np.float16); b = rand((8,), np.float16)
np.save('x.npy', x); np.save('w.npy', w); np.save('b.npy', b)
y = conv(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), b, padding=1)
np.save('y.npy', np.maximum(y, 0).transpose(0, 2, 3, 1).astype(np.float16))
)"),
            "");
  Spec s;
  s.type = "Conv2DBias";
  s.in = F16;
  s.out = F16;
  s.x = {1, 7, 9, 5};
  s.filter = {3, 3, 5, 8};
  s.bias = {8};
  s.y = {1, 7, 9, 8};
  s.attrs = {{"data_format", std::string("NHWC")},
             {"strides", Ints{1, 1, 1, 1}},
             {"pads", Ints{1, 1, 1, 1}},
             {"has_relu", std::int64_t{1}}};
  const ir::Graph g = ConvGraph(s);
  ASSERT_TRUE(Errors(g).empty()) << Errors(g).front();
  const auto out = Interpret(g, {}, {c.Load("x", F16), c.Load("w", F16), c.Load("b", F16)});
  // 45 fp16 products summed in double and rounded once, as torch's double result rounded to
  // fp16: the two sums' orders differ, so a value on a rounding boundary may land one ulp away.
  EXPECT_CLOSE(c.Load("y", F16), out[0], 0.0, 1.0 / 1024);
}

TEST(InterpConv, PadModesSameAndValid) {
  Case c("conv_same");
  ASSERT_EQ(c.Run(R"(
x = rand((1, 2, 10, 8)); w = rand((3, 2, 4, 3))
np.save('x.npy', x); np.save('w.npy', w)
# SAME with stride 3: ceil(10 / 3) = 4 rows need (4 - 1) * 3 + 4 - 10 = 3 padded rows (1 above,
# 2 below) and ceil(8 / 3) = 3 columns (3 - 1) * 3 + 3 - 8 = 1 (0 left, 1 right).
xp = np.pad(x, ((0, 0), (0, 0), (1, 2), (0, 1)))
np.save('same.npy', conv(xp, w, stride=3).astype(np.float32))
np.save('valid.npy', conv(x, w, stride=3).astype(np.float32))
)"),
            "");
  for (const char* mode : {"SAME", "VALID"}) {
    Spec s;
    s.x = {1, 2, 10, 8};
    s.filter = {3, 2, 4, 3};
    s.y = std::string(mode) == "SAME" ? Ints{1, 3, 4, 3} : Ints{1, 3, 3, 2};
    s.attrs = {
        {"strides", Ints{3, 3}}, {"pad_mode", std::string(mode)}, {"pads", Ints{5, 5, 5, 5}}};
    const ir::Graph g = ConvGraph(s);
    ASSERT_TRUE(Errors(g).empty()) << mode << ": " << Errors(g).front();
    SCOPED_TRACE(mode);
    const auto out = Interpret(g, {}, {c.Load("x"), c.Load("w")});
    EXPECT_CLOSE(c.Load(std::string(mode) == "SAME" ? "same" : "valid"), out[0], 1e-6, 1e-6);
  }
}

TEST(InterpConv, FixtureParsesValidatesAndRuns) {
  Case c("conv_fixture");
  ASSERT_EQ(c.Run(R"(
x = rand((2, 3, 5, 7)); w = rand((8, 3, 3, 3)); b = rand((8,))
np.save('x.npy', x); np.save('w.npy', w); np.save('b.npy', b)
np.save('y.npy', np.maximum(conv(x, w, b, padding=1), 0).astype(np.float32))
)"),
            "");
  const auto path = af::test::OurFixtures() / "ir" / "conv2d.graph.txt";
  const ir::Graph g = ir::ParseText(af::test::ReadFile(path), path.string());
  ASSERT_TRUE(Errors(g).empty()) << Errors(g).front();
  const auto out = Interpret(g, {{"s0", 2}, {"s1", 3}, {"s2", 5}, {"s3", 7}},
                             {c.Load("x"), c.Load("w"), c.Load("b")});
  EXPECT_CLOSE(c.Load("y"), out[0], 1e-6, 1e-6);
}

TEST(InterpConv, ValidationNamesEachBrokenRule) {
  const auto first_error = [](const Spec& s) {
    const auto errs = Errors(ConvGraph(s));
    return errs.empty() ? std::string("(no error)") : errs.front();
  };
  Spec s;
  s.x = {1, 6, 8, 8};
  s.filter = {4, 3, 3, 3};
  s.y = {1, 4, 6, 6};
  EXPECT_NE(first_error(s).find("must divide into the groups"), std::string::npos);
  s.attrs = {{"groups", std::int64_t{2}}};
  EXPECT_EQ(first_error(s), "(no error)");
  s.y = {1, 4, 6, 5};
  EXPECT_NE(first_error(s).find("differ from the convolution's (1, 4, 6, 6)"), std::string::npos)
      << first_error(s);
  s.y = {1, 4, 6, 6};
  s.attrs.push_back({"strides", Ints{2, 1, 1, 1}});
  EXPECT_NE(first_error(s).find("must be 1 on N and C"), std::string::npos) << first_error(s);
  s.attrs = {{"groups", std::int64_t{2}}, {"pads", Ints{1, 1, 1}}};
  EXPECT_NE(first_error(s).find("expected 4 (top, bottom, left, right)"), std::string::npos);
  s.attrs = {{"groups", std::int64_t{2}}, {"data_format", std::string("NCDHW")}};
  EXPECT_NE(first_error(s).find("neither NCHW nor NHWC"), std::string::npos);
  s.attrs = {{"groups", std::int64_t{2}}};
  s.type = "Conv2DBias";
  s.bias = {6};
  EXPECT_NE(first_error(s).find("bias must be (Cout) = (4)"), std::string::npos) << first_error(s);
  s.bias = {4};
  EXPECT_EQ(first_error(s), "(no error)");
  s.in = DType::kInt32;
  EXPECT_NE(first_error(s).find("must be one of fp16, bf16, fp32"), std::string::npos);
  s.in = F32;
  s.filter = {4, 3, 9, 3};
  EXPECT_NE(first_error(s).find("does not fit the padded 8x8 input"), std::string::npos)
      << first_error(s);
}

TEST(InterpConv, RefusalsCarryTheirReasonCodes) {
  ir::Node n;
  std::string err;
  const auto code = [&](const std::string& type,
                        std::vector<std::pair<std::string, ir::AttrValue>> attrs) {
    n.type = type;
    n.attrs.clear();
    for (const auto& [k, v] : attrs)
      n.attrs[k] = v;
    const auto c = ir::ReadConv2D(n, &err);
    return c ? ir::ConvRefusal(*c) : "unreadable: " + err;
  };
  EXPECT_EQ(code("Conv2D", {}), "CUBE_CONV_UNSUPPORTED");
  EXPECT_EQ(code("Conv2DBias", {{"has_relu", true}}), "CUBE_CONV_UNSUPPORTED");
  EXPECT_EQ(code("Conv2DOffset", {}), "CUBE_OFFSET_UNSUPPORTED");
  EXPECT_EQ(code("Conv2DOffsetBias", {}), "CUBE_OFFSET_UNSUPPORTED");
  EXPECT_EQ(code("Conv2D", {{"offset_x", std::int64_t{3}}}), "CUBE_INT8_UNSUPPORTED");
  EXPECT_EQ(code("Conv2D", {{"enable_hf32", true}}), "CUBE_HF32_UNSUPPORTED");
  EXPECT_EQ(code("Conv2D", {{"groups", std::int64_t{0}}}),
            "unreadable: attribute 'groups' is 0; it must be at least 1");
  EXPECT_EQ(code("Conv2D", {{"pad_mode", std::string("REFLECT")}}),
            "unreadable: pad_mode 'REFLECT' is not one of SPECIFIC, NOTSET, VALID, SAME");
  EXPECT_EQ(code("MatMul", {}), "unreadable: 'MatMul' is not a Conv2D op");
  // The interpreter refuses an offset variant with its code.
  Spec s;
  s.type = "Conv2D";
  s.x = {1, 1, 3, 3};
  s.filter = {1, 1, 1, 1};
  s.y = {1, 1, 3, 3};
  s.attrs = {{"offset_x", std::int64_t{1}}};
  try {
    Interpret(ConvGraph(s), {}, {data::Zeros(F32, {1, 1, 3, 3}), data::Zeros(F32, {1, 1, 1, 1})});
    ADD_FAILURE() << "offset_x was not refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("CUBE_INT8_UNSUPPORTED"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace af::interp
