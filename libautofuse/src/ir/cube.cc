// Attribute and shape rules of the cube ops (autofuse/ir/cube.h).
#include "autofuse/ir/cube.h"

#include <algorithm>

#include "autofuse/ir/data_movement.h"

namespace af::ir {
namespace {

std::optional<std::int64_t> IntOrBool(const Node& n, const std::string& key, std::string* error) {
  const AttrValue* v = n.FindAttr(key);
  if (v == nullptr) return 0;
  if (const auto* b = std::get_if<bool>(v)) return *b ? 1 : 0;
  if (auto i = n.IntAttr(key)) return i;
  if (error != nullptr) *error = "attribute '" + key + "' is neither an integer nor a bool";
  return std::nullopt;
}

std::string List(const std::vector<Expr>& v) {
  std::string s = "(";
  for (std::size_t k = 0; k < v.size(); ++k)
    s += (k != 0 ? ", " : "") + v[k].ToString();
  return s + ")";
}

bool IsOne(const Expr& e) {
  return e.AsInt() == 1;
}

// Batch dims of the output from the two operands' leading dims (aligned from the right); an error
// text when a pair is neither equal nor 1.
std::optional<std::vector<Expr>> BatchDims(const std::vector<Expr>& a, const std::vector<Expr>& b,
                                           std::string* error) {
  const std::size_t n = std::max(a.size(), b.size());
  std::vector<Expr> out(n, Expr::Const(1));
  for (std::size_t k = 0; k < n; ++k) {
    const bool ha = k + a.size() >= n;
    const bool hb = k + b.size() >= n;
    const Expr ea = ha ? a[k + a.size() - n] : Expr::Const(1);
    const Expr eb = hb ? b[k + b.size() - n] : Expr::Const(1);
    if (IsOne(ea)) {
      out[k] = eb;
    } else if (IsOne(eb) || SameRepeat(ea, eb)) {
      out[k] = ea;
    } else {
      *error = "batch dims " + ea.ToString() + " and " + eb.ToString() + " differ and neither is 1";
      return std::nullopt;
    }
  }
  return out;
}

void CheckBias(const Tensor& bias, const std::vector<Expr>& out, DType out_dtype,
               std::vector<std::string>& errs) {
  if (bias.dtype != out_dtype) {
    errs.push_back("bias has dtype " + std::string(DTypeName(bias.dtype)) + ", the output has " +
                   std::string(DTypeName(out_dtype)) + " (the bias has the output's dtype)");
  }
  if (bias.repeats.empty() || bias.repeats.size() > out.size()) {
    errs.push_back("bias has rank " + std::to_string(bias.repeats.size()) + "; expected 1.." +
                   std::to_string(out.size()));
    return;
  }
  const std::size_t off = out.size() - bias.repeats.size();
  for (std::size_t k = 0; k < bias.repeats.size(); ++k) {
    const Expr& e = bias.repeats[k];
    if (!IsOne(e) && !SameRepeat(e, out[off + k])) {
      errs.push_back("bias repeats " + List(bias.repeats) + " do not broadcast to the output " +
                     List(out));
      return;
    }
  }
}

}  // namespace

bool IsCubeDType(DType t) {
  return t == DType::kFloat16 || t == DType::kBFloat16 || t == DType::kFloat32;
}

bool IsCubeOp(OpCode c) {
  switch (c) {
    case OpCode::kMatMul:
    case OpCode::kMatMulBias:
    case OpCode::kMatMulOffset:
    case OpCode::kMatMulOffsetBias:
    case OpCode::kBatchMatMul:
    case OpCode::kBatchMatMulBias:
    case OpCode::kBatchMatMulOffset:
    case OpCode::kBatchMatMulOffsetBias:
      return true;
    default:
      return false;
  }
}

std::optional<MatMulInfo> ReadMatMul(const Node& n, std::string* error) {
  const OpDef* op = FindOp(n.type);
  if (op == nullptr || !IsCubeOp(op->code)) {
    if (error != nullptr) *error = "'" + n.type + "' is not a cube op";
    return std::nullopt;
  }
  MatMulInfo m;
  m.code = op->code;
  m.batch = op->code == OpCode::kBatchMatMul || op->code == OpCode::kBatchMatMulBias ||
            op->code == OpCode::kBatchMatMulOffset || op->code == OpCode::kBatchMatMulOffsetBias;
  m.bias = op->code == OpCode::kMatMulBias || op->code == OpCode::kMatMulOffsetBias ||
           op->code == OpCode::kBatchMatMulBias || op->code == OpCode::kBatchMatMulOffsetBias;
  m.offset = op->code == OpCode::kMatMulOffset || op->code == OpCode::kMatMulOffsetBias ||
             op->code == OpCode::kBatchMatMulOffset || op->code == OpCode::kBatchMatMulOffsetBias;
  const auto t1 = IntOrBool(n, m.batch ? "adj_x1" : "transpose_x1", error);
  const auto t2 = IntOrBool(n, m.batch ? "adj_x2" : "transpose_x2", error);
  const auto relu = IntOrBool(n, "has_relu", error);
  const auto ox = IntOrBool(n, "offset_x", error);
  const auto hf32 = IntOrBool(n, "enable_hf32", error);
  if (!t1 || !t2 || !relu || !ox || !hf32) return std::nullopt;
  m.transpose_x1 = *t1 != 0;
  m.transpose_x2 = *t2 != 0;
  m.has_relu = *relu != 0;
  m.offset_x = *ox;
  m.enable_hf32 = *hf32 != 0;
  return m;
}

std::optional<std::string> CubeRefusal(const MatMulInfo& m) {
  if (m.offset) return "CUBE_OFFSET_UNSUPPORTED";
  if (m.offset_x != 0) return "CUBE_INT8_UNSUPPORTED";
  if (m.enable_hf32) return "CUBE_HF32_UNSUPPORTED";
  return std::nullopt;
}

std::vector<std::string> CheckMatMul(const Graph& g, const Node& n) {
  std::vector<std::string> errs;
  std::string error;
  const auto m = ReadMatMul(n, &error);
  if (!m) return {error};
  const Tensor* x1 = InputTensor(g, n, 0);
  const Tensor* x2 = InputTensor(g, n, 1);
  if (x1 == nullptr || x2 == nullptr || n.outputs.empty()) return errs;
  const Tensor& out = n.outputs[0];
  if (!IsCubeDType(x1->dtype) || x1->dtype != x2->dtype) {
    errs.push_back("x1 and x2 have dtypes " + std::string(DTypeName(x1->dtype)) + " and " +
                   std::string(DTypeName(x2->dtype)) + "; both must be one of fp16, bf16, fp32");
  }
  if (!IsCubeDType(out.dtype)) {
    errs.push_back("output dtype " + std::string(DTypeName(out.dtype)) +
                   " is not one of fp16, bf16, fp32");
  }
  const std::size_t r1 = x1->repeats.size();
  const std::size_t r2 = x2->repeats.size();
  if (m->batch ? (r1 < 2 || r2 < 2) : (r1 != 2 || r2 != 2)) {
    errs.push_back("x1 and x2 have ranks " + std::to_string(r1) + " and " + std::to_string(r2) +
                   (m->batch ? "; BatchMatMul takes rank 2 or more" : "; MatMul takes rank 2"));
    return errs;
  }
  const Expr& m_ext = x1->repeats[m->transpose_x1 ? r1 - 1 : r1 - 2];
  const Expr& k1 = x1->repeats[m->transpose_x1 ? r1 - 2 : r1 - 1];
  const Expr& k2 = x2->repeats[m->transpose_x2 ? r2 - 1 : r2 - 2];
  const Expr& n_ext = x2->repeats[m->transpose_x2 ? r2 - 2 : r2 - 1];
  if (!SameRepeat(k1, k2)) {
    errs.push_back("inner sizes differ: x1 has K = " + k1.ToString() +
                   ", x2 has K = " + k2.ToString());
  }
  const std::vector<Expr> b1(x1->repeats.begin(), x1->repeats.end() - 2);
  const std::vector<Expr> b2(x2->repeats.begin(), x2->repeats.end() - 2);
  auto want = BatchDims(b1, b2, &error);
  if (!want) {
    errs.push_back(error);
    return errs;
  }
  want->push_back(m_ext);
  want->push_back(n_ext);
  bool same = out.repeats.size() == want->size();
  for (std::size_t k = 0; same && k < want->size(); ++k)
    same = SameRepeat(out.repeats[k], (*want)[k]);
  if (!same) {
    errs.push_back("output repeats " + List(out.repeats) + " differ from the product's " +
                   List(*want));
  }
  if (m->bias) {
    if (const Tensor* bias = InputTensor(g, n, 2)) CheckBias(*bias, out.repeats, out.dtype, errs);
  }
  if (m->offset) {
    const Tensor* w = InputTensor(g, n, m->bias ? 3 : 2);
    if (w != nullptr && w->dtype != DType::kInt8) {
      errs.push_back("offset_w has dtype " + std::string(DTypeName(w->dtype)) + "; expected int8");
    }
  }
  return errs;
}

}  // namespace af::ir
