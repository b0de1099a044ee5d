// The cube ops in the reference interpreter: a plain triple loop per batch, accumulating in double.
#include "matmul.h"

#include <algorithm>

namespace af::interp::detail {
namespace {

// Strides (in elements of the dense operand) of the batch dims of `shape` (all but the last two)
// read at the output's batch multi-index; 0 where the operand broadcasts.
std::vector<std::int64_t> BatchStrides(const std::vector<std::int64_t>& shape,
                                       const std::vector<std::int64_t>& out_batch,
                                       const char* what) {
  const std::vector<std::int64_t> dense = DenseStrides(shape);
  const std::size_t nb = shape.size() - 2;
  if (nb > out_batch.size()) {
    throw EvalError(std::string(what) + " has more batch dims than the output");
  }
  std::vector<std::int64_t> st(out_batch.size(), 0);
  for (std::size_t k = 0; k < nb; ++k) {
    const std::size_t o = out_batch.size() - nb + k;
    if (shape[k] == out_batch[o]) {
      st[o] = dense[k];
    } else if (shape[k] != 1) {
      throw EvalError(std::string(what) + " batch dim " + std::to_string(k) + " is " +
                      std::to_string(shape[k]) + ", the output's is " +
                      std::to_string(out_batch[o]));
    }
  }
  return st;
}

}  // namespace

Value EvalMatMul(const ir::MatMulInfo& m, const Value& x1, const Value& x2, const Value* bias,
                 ir::DType out_dtype, const std::vector<std::int64_t>& out_shape) {
  if (x1.shape.size() < 2 || x2.shape.size() < 2 || out_shape.size() < 2) {
    throw EvalError("operands " + ShapeString(x1.shape) + " x " + ShapeString(x2.shape) +
                    " and output " + ShapeString(out_shape) + " need rank 2 or more");
  }
  const std::size_t r1 = x1.shape.size();
  const std::size_t r2 = x2.shape.size();
  const std::int64_t mm = x1.shape[m.transpose_x1 ? r1 - 1 : r1 - 2];
  const std::int64_t kk = x1.shape[m.transpose_x1 ? r1 - 2 : r1 - 1];
  const std::int64_t k2 = x2.shape[m.transpose_x2 ? r2 - 1 : r2 - 2];
  const std::int64_t nn = x2.shape[m.transpose_x2 ? r2 - 2 : r2 - 1];
  const std::size_t ro = out_shape.size();
  if (kk != k2 || out_shape[ro - 2] != mm || out_shape[ro - 1] != nn) {
    throw EvalError("x1 " + ShapeString(x1.shape) + " times x2 " + ShapeString(x2.shape) +
                    " does not give the output " + ShapeString(out_shape));
  }
  const std::vector<std::int64_t> out_batch(out_shape.begin(), out_shape.end() - 2);
  const std::vector<std::int64_t> s1 = BatchStrides(x1.shape, out_batch, "x1");
  const std::vector<std::int64_t> s2 = BatchStrides(x2.shape, out_batch, "x2");
  // Element strides of the row / column / inner index inside one matrix.
  const std::int64_t x1_i = m.transpose_x1 ? 1 : kk;
  const std::int64_t x1_k = m.transpose_x1 ? mm : 1;
  const std::int64_t x2_k = m.transpose_x2 ? 1 : nn;
  const std::int64_t x2_j = m.transpose_x2 ? kk : 1;
  std::vector<std::int64_t> bias_st;
  if (bias != nullptr) {
    if (bias->shape.empty() || bias->shape.size() > ro) {
      throw EvalError("bias " + ShapeString(bias->shape) + " does not broadcast to the output " +
                      ShapeString(out_shape));
    }
    std::vector<std::int64_t> padded(ro - bias->shape.size(), 1);
    padded.insert(padded.end(), bias->shape.begin(), bias->shape.end());
    bias_st = BroadcastStrides(padded, out_shape, "bias");
  }
  Value out = MakeValue(out_dtype, out_shape);
  std::int64_t batches = 1;
  for (std::int64_t b : out_batch)
    batches *= b;
  std::vector<std::int64_t> idx(out_batch.size(), 0);
  for (std::int64_t b = 0; b < batches; ++b) {
    std::int64_t o1 = 0;
    std::int64_t o2 = 0;
    std::int64_t ob = 0;
    for (std::size_t d = 0; d < idx.size(); ++d) {
      o1 += idx[d] * s1[d];
      o2 += idx[d] * s2[d];
      if (!bias_st.empty()) ob += idx[d] * bias_st[d];
    }
    for (std::int64_t i = 0; i < mm; ++i) {
      for (std::int64_t j = 0; j < nn; ++j) {
        double acc = 0.0;
        for (std::int64_t k = 0; k < kk; ++k)
          acc += x1.F(o1 + i * x1_i + k * x1_k) * x2.F(o2 + k * x2_k + j * x2_j);
        if (bias != nullptr) acc += bias->F(ob + i * bias_st[ro - 2] + j * bias_st[ro - 1]);
        if (m.has_relu) acc = std::max(acc, 0.0);  // NaN stays NaN
        out.PutDouble((b * mm + i) * nn + j, acc);
      }
    }
    for (std::size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < out_batch[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

}  // namespace af::interp::detail
