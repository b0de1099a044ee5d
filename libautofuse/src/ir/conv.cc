// Attribute and shape rules of the Conv2D cube ops (autofuse/ir/conv.h).
#include "autofuse/ir/conv.h"

#include <algorithm>

#include "autofuse/ir/cube.h"
#include "autofuse/ir/data_movement.h"

namespace af::ir {
namespace {

std::string Fail(std::string* error, const std::string& what) {
  if (error != nullptr) *error = what;
  return what;
}

// An integer or bool attribute (absent: `dflt`).
std::optional<std::int64_t> Int(const Node& n, const std::string& key, std::int64_t dflt,
                                std::string* error) {
  const AttrValue* v = n.FindAttr(key);
  if (v == nullptr) return dflt;
  if (const auto* b = std::get_if<bool>(v)) return *b ? 1 : 0;
  if (auto i = n.IntAttr(key)) return i;
  Fail(error, "attribute '" + key + "' is neither an integer nor a bool");
  return std::nullopt;
}

std::optional<std::string> Str(const Node& n, const std::string& key, std::string* error) {
  const AttrValue* v = n.FindAttr(key);
  if (v == nullptr) return std::string();
  if (const auto* s = std::get_if<std::string>(v)) return *s;
  Fail(error, "attribute '" + key + "' is not a string");
  return std::nullopt;
}

std::optional<std::vector<std::int64_t>> List(const Node& n, const std::string& key,
                                              std::string* error) {
  const AttrValue* v = n.FindAttr(key);
  if (v == nullptr) return std::vector<std::int64_t>();
  if (const auto* l = std::get_if<std::vector<std::int64_t>>(v)) return *l;
  Fail(error, "attribute '" + key + "' is not an integer list");
  return std::nullopt;
}

// strides / dilations: 4 entries in data_format order with 1 on N and C, or 2 (h, w).
bool HeightWidth(const std::vector<std::int64_t>& l, bool nhwc, const std::string& key,
                 std::array<std::int64_t, 2>* out, std::string* error) {
  if (l.empty()) return true;
  if (l.size() == 2) {
    *out = {l[0], l[1]};
  } else if (l.size() == 4) {
    const std::size_t h = nhwc ? 1 : 2;
    const std::size_t c = nhwc ? 3 : 1;
    if (l[0] != 1 || l[c] != 1) {
      Fail(error, "attribute '" + key + "' must be 1 on N and C, got (" + std::to_string(l[0]) +
                      ", " + std::to_string(l[1]) + ", " + std::to_string(l[2]) + ", " +
                      std::to_string(l[3]) + ")");
      return false;
    }
    *out = {l[h], l[h + 1]};
  } else {
    Fail(error, "attribute '" + key + "' has " + std::to_string(l.size()) +
                    " entries; expected 4 (data_format order) or 2 (h, w)");
    return false;
  }
  if ((*out)[0] < 1 || (*out)[1] < 1) {
    Fail(error, "attribute '" + key + "' must be at least 1 along h and w");
    return false;
  }
  return true;
}

std::string Shape(const std::vector<std::int64_t>& v) {
  std::string s = "(";
  for (std::size_t k = 0; k < v.size(); ++k)
    s += (k != 0 ? ", " : "") + std::to_string(v[k]);
  return s + ")";
}

std::int64_t CeilDiv(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// The repeats as integers, nullopt when one is symbolic.
std::optional<std::vector<std::int64_t>> Constants(const std::vector<Expr>& r) {
  std::vector<std::int64_t> v;
  for (const Expr& e : r) {
    const auto i = e.AsInt();
    if (!i) return std::nullopt;
    v.push_back(*i);
  }
  return v;
}

}  // namespace

bool IsConvOp(OpCode c) {
  return c == OpCode::kConv2D || c == OpCode::kConv2DBias || c == OpCode::kConv2DOffset ||
         c == OpCode::kConv2DOffsetBias;
}

std::optional<ConvInfo> ReadConv2D(const Node& n, std::string* error) {
  const OpDef* op = FindOp(n.type);
  if (op == nullptr || !IsConvOp(op->code)) {
    Fail(error, "'" + n.type + "' is not a Conv2D op");
    return std::nullopt;
  }
  ConvInfo c;
  c.code = op->code;
  c.bias = op->code == OpCode::kConv2DBias || op->code == OpCode::kConv2DOffsetBias;
  c.offset = op->code == OpCode::kConv2DOffset || op->code == OpCode::kConv2DOffsetBias;
  const auto format = Str(n, "data_format", error);
  const auto mode = Str(n, "pad_mode", error);
  const auto strides = List(n, "strides", error);
  const auto dilations = List(n, "dilations", error);
  const auto pads = List(n, "pads", error);
  const auto groups = Int(n, "groups", 1, error);
  const auto relu = Int(n, "has_relu", 0, error);
  const auto ox = Int(n, "offset_x", 0, error);
  const auto hf32 = Int(n, "enable_hf32", 0, error);
  if (!format || !mode || !strides || !dilations || !pads || !groups || !relu || !ox || !hf32)
    return std::nullopt;
  if (!format->empty() && *format != "NCHW" && *format != "NHWC") {
    Fail(error, "data_format '" + *format + "' is neither NCHW nor NHWC");
    return std::nullopt;
  }
  c.nhwc = *format == "NHWC";
  c.pad_mode = *mode;
  if (!c.pad_mode.empty() && c.pad_mode != "SPECIFIC" && c.pad_mode != "NOTSET" &&
      c.pad_mode != "VALID" && c.pad_mode != "SAME") {
    Fail(error, "pad_mode '" + c.pad_mode + "' is not one of SPECIFIC, NOTSET, VALID, SAME");
    return std::nullopt;
  }
  if (!HeightWidth(*strides, c.nhwc, "strides", &c.strides, error) ||
      !HeightWidth(*dilations, c.nhwc, "dilations", &c.dilations, error))
    return std::nullopt;
  if (!pads->empty()) {
    if (pads->size() != 4) {
      Fail(error, "attribute 'pads' has " + std::to_string(pads->size()) +
                      " entries; expected 4 (top, bottom, left, right)");
      return std::nullopt;
    }
    if (std::any_of(pads->begin(), pads->end(), [](std::int64_t p) { return p < 0; })) {
      Fail(error, "attribute 'pads' has a negative entry");
      return std::nullopt;
    }
    std::copy(pads->begin(), pads->end(), c.pads.begin());
  }
  if (*groups < 1) {
    Fail(error, "attribute 'groups' is " + std::to_string(*groups) + "; it must be at least 1");
    return std::nullopt;
  }
  c.groups = *groups;
  c.has_relu = *relu != 0;
  c.offset_x = *ox;
  c.enable_hf32 = *hf32 != 0;
  return c;
}

std::string ConvRefusal(const ConvInfo& c) {
  if (c.offset) return "CUBE_OFFSET_UNSUPPORTED";
  if (c.offset_x != 0) return "CUBE_INT8_UNSUPPORTED";
  if (c.enable_hf32) return "CUBE_HF32_UNSUPPORTED";
  return "CUBE_CONV_UNSUPPORTED";
}

std::array<std::int64_t, 4> ConvPads(const ConvInfo& c, std::int64_t h, std::int64_t w,
                                     std::int64_t kh, std::int64_t kw) {
  if (c.pad_mode == "VALID") return {0, 0, 0, 0};
  if (c.pad_mode != "SAME") return c.pads;
  const auto total = [](std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t d) {
    const std::int64_t out = CeilDiv(in, s);
    return std::max<std::int64_t>(0, (out - 1) * s + (k - 1) * d + 1 - in);
  };
  const std::int64_t th = total(h, kh, c.strides[0], c.dilations[0]);
  const std::int64_t tw = total(w, kw, c.strides[1], c.dilations[1]);
  return {th / 2, th - th / 2, tw / 2, tw - tw / 2};
}

std::optional<std::vector<std::int64_t>> ConvOutputShape(const ConvInfo& c,
                                                         const std::vector<std::int64_t>& x,
                                                         const std::vector<std::int64_t>& filter,
                                                         std::string* error) {
  if (x.size() != 4 || filter.size() != 4) {
    Fail(error, "x " + Shape(x) + " and filter " + Shape(filter) + " must both have rank 4");
    return std::nullopt;
  }
  const std::int64_t n = x[0];
  const std::int64_t ch = c.nhwc ? x[3] : x[1];
  const std::int64_t h = c.nhwc ? x[1] : x[2];
  const std::int64_t w = c.nhwc ? x[2] : x[3];
  const std::int64_t cout = c.nhwc ? filter[3] : filter[0];
  const std::int64_t cin_g = c.nhwc ? filter[2] : filter[1];
  const std::int64_t kh = c.nhwc ? filter[0] : filter[2];
  const std::int64_t kw = c.nhwc ? filter[1] : filter[3];
  if (ch % c.groups != 0 || cout % c.groups != 0 || cin_g * c.groups != ch) {
    Fail(error, "x has " + std::to_string(ch) + " channels and the filter " + Shape(filter) +
                    " takes " + std::to_string(cin_g) + " per group for " + std::to_string(cout) +
                    " outputs in " + std::to_string(c.groups) +
                    " group(s): channels and outputs must divide into the groups");
    return std::nullopt;
  }
  const auto p = ConvPads(c, h, w, kh, kw);
  const std::int64_t eh = h + p[0] + p[1] - c.dilations[0] * (kh - 1) - 1;
  const std::int64_t ew = w + p[2] + p[3] - c.dilations[1] * (kw - 1) - 1;
  if (kh < 1 || kw < 1 || eh < 0 || ew < 0) {
    Fail(error, "the " + std::to_string(kh) + "x" + std::to_string(kw) +
                    " window (dilated) does not fit the padded " + std::to_string(h) + "x" +
                    std::to_string(w) + " input");
    return std::nullopt;
  }
  const std::int64_t ho = eh / c.strides[0] + 1;
  const std::int64_t wo = ew / c.strides[1] + 1;
  return c.nhwc ? std::vector<std::int64_t>{n, ho, wo, cout}
                : std::vector<std::int64_t>{n, cout, ho, wo};
}

std::vector<std::string> CheckConv2D(const Graph& g, const Node& n) {
  std::vector<std::string> errs;
  std::string error;
  const auto c = ReadConv2D(n, &error);
  if (!c) return {error};
  const Tensor* x = InputTensor(g, n, 0);
  const Tensor* f = InputTensor(g, n, 1);
  if (x == nullptr || f == nullptr || n.outputs.empty()) return errs;
  const Tensor& out = n.outputs[0];
  if (!IsCubeDType(x->dtype) || x->dtype != f->dtype) {
    errs.push_back("x and filter have dtypes " + std::string(DTypeName(x->dtype)) + " and " +
                   std::string(DTypeName(f->dtype)) + "; both must be one of fp16, bf16, fp32");
  }
  if (!IsCubeDType(out.dtype)) {
    errs.push_back("output dtype " + std::string(DTypeName(out.dtype)) +
                   " is not one of fp16, bf16, fp32");
  }
  if (x->repeats.size() != 4 || f->repeats.size() != 4 || out.repeats.size() != 4) {
    errs.push_back("x, filter and output have ranks " + std::to_string(x->repeats.size()) + ", " +
                   std::to_string(f->repeats.size()) + " and " +
                   std::to_string(out.repeats.size()) + "; Conv2D takes rank 4");
    return errs;
  }
  const auto xs = Constants(x->repeats);
  const auto fs = Constants(f->repeats);
  const auto os = Constants(out.repeats);
  if (xs && fs) {
    const auto want = ConvOutputShape(*c, *xs, *fs, &error);
    if (!want) {
      errs.push_back(error);
    } else if (os && *os != *want) {
      errs.push_back("output repeats " + Shape(*os) + " differ from the convolution's " +
                     Shape(*want));
    }
  }
  if (c->bias) {
    const Tensor* bias = InputTensor(g, n, 2);
    const Expr& cout = f->repeats[c->nhwc ? 3 : 0];
    if (bias != nullptr && (bias->dtype != out.dtype || bias->repeats.size() != 1 ||
                            !SameRepeat(bias->repeats[0], cout))) {
      errs.push_back("bias must be (Cout) = (" + cout.ToString() + ") of the output's dtype " +
                     std::string(DTypeName(out.dtype)));
    }
  }
  if (c->offset) {
    const Tensor* w = InputTensor(g, n, c->bias ? 3 : 2);
    if (w != nullptr && w->dtype != DType::kInt8) {
      errs.push_back("offset_w has dtype " + std::string(DTypeName(w->dtype)) + "; expected int8");
    }
  }
  return errs;
}

}  // namespace af::ir
