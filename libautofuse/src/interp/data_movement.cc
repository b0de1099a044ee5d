// Data-movement ops over dense values: index arithmetic only, every element copied exactly.
#include "data_movement.h"

#include <algorithm>
#include <string>

#include "strided_counter.h"

namespace af::interp::detail {
namespace {

// dst[to] = src[from], rounded into dst's dtype.
void Put(Value& dst, std::int64_t to, const Value& src, std::int64_t from) {
  if (src.is_float) {
    dst.PutDouble(to, src.f[static_cast<std::size_t>(from)]);
  } else {
    dst.PutInt(to, src.i[static_cast<std::size_t>(from)]);
  }
}

// Copies the box `box` (C order) from src (strides src_strides, base src_base) to dst.
void CopyBox(Value& dst, const std::vector<std::int64_t>& dst_strides, std::int64_t dst_base,
             const Value& src, const std::vector<std::int64_t>& src_strides, std::int64_t src_base,
             const std::vector<std::int64_t>& box) {
  std::int64_t n = 1;
  for (const std::int64_t d : box)
    n *= d;
  StridedCounter<2> c(box, {&dst_strides, &src_strides}, {dst_base, src_base});
  for (std::int64_t k = 0; k < n; ++k) {
    Put(dst, c.offsets()[0], src, c.offsets()[1]);
    c.Next();
  }
}

// The first dim where one of `shapes` differs from `ref`.
std::optional<std::size_t> FirstDiff(const std::vector<const std::vector<std::int64_t>*>& shapes,
                                     const std::vector<std::int64_t>& ref) {
  for (std::size_t k = 0; k < ref.size(); ++k) {
    for (const auto* s : shapes) {
      if ((*s)[k] != ref[k]) return k;
    }
  }
  return std::nullopt;
}

// Checks the shapes of the parts of a concat / split against the whole; returns the dim.
std::size_t CheckParts(const std::vector<const std::vector<std::int64_t>*>& parts,
                       const std::vector<std::int64_t>& whole, std::optional<std::size_t> dim,
                       const char* part, const char* whole_name, const char* what) {
  for (std::size_t p = 0; p < parts.size(); ++p) {
    if (parts[p]->size() != whole.size()) {
      throw EvalError(std::string(part) + " " + std::to_string(p) + " has shape " +
                      ShapeString(*parts[p]) + ", of another rank than the " + whole_name + " " +
                      ShapeString(whole));
    }
  }
  if (!dim) dim = FirstDiff(parts, whole);
  if (!dim) {
    if (parts.size() == 1) return whole.empty() ? 0 : whole.size() - 1;
    // Every part has the whole's extents: only possible along an empty dim.
    for (std::size_t k = 0; k < whole.size(); ++k) {
      if (whole[k] == 0) return k;
    }
    throw EvalError(std::string("every ") + part + " has the " + whole_name + "'s shape " +
                    ShapeString(whole) + "; no dim is the " + what + " dim");
  }
  if (*dim >= whole.size()) {
    throw EvalError(std::string(what) + " dim " + std::to_string(*dim) + " is outside rank " +
                    std::to_string(whole.size()));
  }
  std::int64_t sum = 0;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const auto& s = *parts[p];
    for (std::size_t k = 0; k < whole.size(); ++k) {
      if (k != *dim && s[k] != whole[k]) {
        throw EvalError(std::string(part) + " " + std::to_string(p) + " has shape " +
                        ShapeString(s) + ", the " + whole_name + " " + ShapeString(whole) +
                        ": they differ on dim " + std::to_string(k) + ", not only on the " + what +
                        " dim " + std::to_string(*dim));
      }
    }
    sum += s[*dim];
  }
  if (sum != whole[*dim]) {
    throw EvalError(std::string(what) + " dim " + std::to_string(*dim) + ": the " + part +
                    "s' extents add up to " + std::to_string(sum) + ", the " + whole_name +
                    " has " + std::to_string(whole[*dim]));
  }
  return *dim;
}

}  // namespace

Value EvalTranspose(const Value& x, const std::vector<std::size_t>& perm, ir::DType out_dtype,
                    const std::vector<std::int64_t>& out_shape) {
  if (perm.size() != x.shape.size() || out_shape.size() != x.shape.size()) {
    throw EvalError("transposes a value of shape " + ShapeString(x.shape) + " into shape " +
                    ShapeString(out_shape) + " (ranks differ)");
  }
  const std::vector<std::int64_t> dense = DenseStrides(x.shape);
  std::vector<std::int64_t> src(perm.size());
  for (std::size_t j = 0; j < perm.size(); ++j) {
    if (out_shape[j] != x.shape[perm[j]]) {
      throw EvalError("output dim " + std::to_string(j) + " has extent " +
                      std::to_string(out_shape[j]) + ", but it is input dim " +
                      std::to_string(perm[j]) + " of extent " + std::to_string(x.shape[perm[j]]));
    }
    src[j] = dense[perm[j]];
  }
  Value v = MakeValue(out_dtype, out_shape);
  CopyBox(v, DenseStrides(out_shape), 0, x, src, 0, out_shape);
  return v;
}

Value EvalConcat(const std::vector<const Value*>& ins, std::optional<std::size_t> dim,
                 ir::DType out_dtype, const std::vector<std::int64_t>& out_shape) {
  if (ins.empty()) throw EvalError("has no inputs");
  std::vector<const std::vector<std::int64_t>*> shapes;
  shapes.reserve(ins.size());
  for (const Value* x : ins)
    shapes.push_back(&x->shape);
  Value v = MakeValue(out_dtype, out_shape);
  if (out_shape.empty()) {
    CheckParts(shapes, out_shape, std::nullopt, "input", "output", "concat");
    Put(v, 0, *ins[0], 0);
    return v;
  }
  const std::size_t d = CheckParts(shapes, out_shape, dim, "input", "output", "concat");
  const std::vector<std::int64_t> dst = DenseStrides(out_shape);
  std::int64_t offset = 0;
  for (const Value* x : ins) {
    CopyBox(v, dst, offset * dst[d], *x, DenseStrides(x->shape), 0, x->shape);
    offset += x->shape[d];
  }
  return v;
}

std::vector<Value> EvalSplit(const Value& x, std::optional<std::size_t> dim,
                             const std::vector<PieceSpec>& pieces) {
  if (pieces.empty()) throw EvalError("has no pieces");
  std::vector<const std::vector<std::int64_t>*> shapes;
  shapes.reserve(pieces.size());
  for (const PieceSpec& p : pieces)
    shapes.push_back(&p.shape);
  std::vector<Value> out(pieces.size());
  if (x.shape.empty()) {
    CheckParts(shapes, x.shape, std::nullopt, "piece", "input", "split");
    out[0] = MakeValue(pieces[0].dtype, {});
    Put(out[0], 0, x, 0);
    return out;
  }
  const std::size_t d = CheckParts(shapes, x.shape, dim, "piece", "input", "split");
  const std::vector<std::int64_t> src = DenseStrides(x.shape);
  std::int64_t offset = 0;
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    if (pieces[p].wanted) {
      out[p] = MakeValue(pieces[p].dtype, pieces[p].shape);
      CopyBox(out[p], DenseStrides(pieces[p].shape), 0, x, src, offset * src[d], pieces[p].shape);
    }
    offset += pieces[p].shape[d];
  }
  return out;
}

Value EvalGather(const Value& x, const Value& indices, std::size_t axis,
                 bool negative_index_support, ir::DType out_dtype,
                 const std::vector<std::int64_t>& out_shape) {
  if (indices.dtype != ir::DType::kInt32 && indices.dtype != ir::DType::kInt64) {
    throw EvalError("indices have dtype " + std::string(ir::DTypeName(indices.dtype)) +
                    "; Gather takes int32 or int64 indices");
  }
  if (axis >= x.shape.size()) {
    throw EvalError("axis " + std::to_string(axis) + " is outside the params rank " +
                    std::to_string(x.shape.size()));
  }
  const auto a = static_cast<std::ptrdiff_t>(axis);
  std::vector<std::int64_t> want(x.shape.begin(), x.shape.begin() + a);
  want.insert(want.end(), indices.shape.begin(), indices.shape.end());
  want.insert(want.end(), x.shape.begin() + a + 1, x.shape.end());
  if (want != out_shape) {
    throw EvalError("output shape " + ShapeString(out_shape) + " is not params[:axis] + " +
                    "indices + params[axis+1:] = " + ShapeString(want) + " (params " +
                    ShapeString(x.shape) + ", indices " + ShapeString(indices.shape) + ", axis " +
                    std::to_string(axis) + ")");
  }
  const std::int64_t n = x.shape[axis];
  std::int64_t pre = 1;
  std::int64_t post = 1;
  for (std::size_t k = 0; k < axis; ++k)
    pre *= x.shape[k];
  for (std::size_t k = axis + 1; k < x.shape.size(); ++k)
    post *= x.shape[k];
  const std::int64_t m = indices.numel();
  std::vector<std::int64_t> rows(static_cast<std::size_t>(m));
  for (std::int64_t j = 0; j < m; ++j) {
    const std::int64_t raw = indices.i[static_cast<std::size_t>(j)];
    const std::int64_t idx = raw < 0 && negative_index_support ? raw + n : raw;
    if (idx < 0 || idx >= n) {
      std::vector<std::int64_t> pos(indices.shape.size());
      std::int64_t rest = j;
      for (std::size_t k = pos.size(); k-- > 0;) {
        pos[k] = rest % indices.shape[k];
        rest /= indices.shape[k];
      }
      const std::string range =
          negative_index_support
              ? "[" + std::to_string(-n) + ", " + std::to_string(n) +
                    ") (negative_index_support is on)"
              : "[0, " + std::to_string(n) + ")" +
                    (raw < 0 ? " (negative_index_support is off)" : std::string());
      throw EvalError("index " + std::to_string(raw) + " at indices position " + ShapeString(pos) +
                      " is out of range " + range + " for params dim " + std::to_string(axis) +
                      " of extent " + std::to_string(n));
    }
    rows[static_cast<std::size_t>(j)] = idx;
  }
  Value v = MakeValue(out_dtype, out_shape);
  std::int64_t k = 0;
  for (std::int64_t p = 0; p < pre; ++p) {
    for (std::int64_t j = 0; j < m; ++j) {
      const std::int64_t base = (p * n + rows[static_cast<std::size_t>(j)]) * post;
      for (std::int64_t q = 0; q < post; ++q)
        Put(v, k++, x, base + q);
    }
  }
  return v;
}

Value EvalPad(const Value& x, bool pad, ir::DType out_dtype,
              const std::vector<std::int64_t>& out_shape) {
  if (out_shape.size() != x.shape.size()) {
    throw EvalError("input shape " + ShapeString(x.shape) + " and output shape " +
                    ShapeString(out_shape) + " differ in rank");
  }
  std::vector<std::int64_t> box(out_shape.size());
  for (std::size_t k = 0; k < out_shape.size(); ++k) {
    if (pad ? out_shape[k] < x.shape[k] : out_shape[k] > x.shape[k]) {
      throw EvalError("output shape " + ShapeString(out_shape) +
                      (pad ? " is smaller than" : " is larger than") + " the input shape " +
                      ShapeString(x.shape) + " on dim " + std::to_string(k) +
                      (pad ? " (Pad only adds padding)" : " (RemovePad only drops padding)"));
    }
    box[k] = std::min(out_shape[k], x.shape[k]);
  }
  Value v = MakeValue(out_dtype, out_shape);
  if (out_shape.empty()) {
    Put(v, 0, x, 0);
    return v;
  }
  CopyBox(v, DenseStrides(out_shape), 0, x, DenseStrides(x.shape), 0, box);
  return v;
}

}  // namespace af::interp::detail
