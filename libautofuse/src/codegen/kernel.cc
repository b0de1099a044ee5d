// The AscendC kernel source: one function per impl graph (tiling case) and the entry that
// dispatches on the tiling key.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "autofuse/codegen/codegen.h"
#include "autofuse/ir/op_registry.h"
#include "codegen_internal.h"

namespace af::codegen {
namespace {

using ir::Node;
using schedule::BufKind;

const std::map<std::string, std::string>& UnaryApis() {
  static const std::map<std::string, std::string> m = {
      {"Abs", "Abs"},   {"Exp", "Exp"},         {"Ln", "Ln"},
      {"Sqrt", "Sqrt"}, {"Rsqrt", "Rsqrt"},     {"Reciprocal", "Reciprocal"},
      {"Relu", "Relu"}, {"Sigmoid", "Sigmoid"}, {"Tanh", "Tanh"},
      {"Erf", "Erf"},   {"Sign", "Sign"}};
  return m;
}

const std::map<std::string, std::string>& BinaryApis() {
  static const std::map<std::string, std::string> m = {
      {"Add", "Add"},     {"Sub", "Sub"},     {"Mul", "Mul"},     {"Div", "Div"},
      {"TrueDiv", "Div"}, {"Maximum", "Max"}, {"Minimum", "Min"}, {"Pow", "Power"}};
  return m;
}

std::string RoundModeFor(ir::DType from, ir::DType to) {
  if (ir::IsFloat(from) && !ir::IsFloat(to)) return "RoundMode::CAST_TRUNC";
  if (ir::DTypeBytes(to) < ir::DTypeBytes(from) && ir::IsFloat(to)) return "RoundMode::CAST_RINT";
  return "RoundMode::CAST_NONE";
}

std::string NumberLiteral(const Node& n) {
  const ir::AttrValue* v = n.FindAttr("value");
  double d = 0;
  if (v == nullptr) {
    throw CodegenError("BAD_SCALAR", "scalar '" + SafeComment(n.name) + "' has no value");
  }
  if (const auto* s = std::get_if<std::string>(v)) {
    const std::string& t = *s;
    if (t == "inf" || t == "+inf" || t == "Infinity") return "af_inf()";
    if (t == "-inf" || t == "-Infinity") return "(-af_inf())";
    if (t == "nan" || t == "NaN") return "af_nan()";
    char* end = nullptr;
    d = std::strtod(t.c_str(), &end);
    if (end == t.c_str() || *end != '\0') {
      throw CodegenError("BAD_SCALAR",
                         "scalar '" + SafeComment(n.name) + "' value is not a number");
    }
  } else if (const auto* i = std::get_if<std::int64_t>(v)) {
    return std::to_string(*i) + "LL";
  } else if (const auto* f = std::get_if<double>(v)) {
    d = *f;
  } else if (const auto* b = std::get_if<bool>(v)) {
    return *b ? "1" : "0";
  } else {
    throw CodegenError("BAD_SCALAR", "scalar '" + SafeComment(n.name) + "' value kind");
  }
  if (d != d) return "af_nan()";
  if (d > 1.7e308) return "af_inf()";
  if (d < -1.7e308) return "(-af_inf())";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return std::string("(") + buf + ")";
}

class KernelWriter {
 public:
  KernelWriter(const Context& ctx, int case_index)
      : ctx_(ctx),
        s_(ctx.s),
        c_(ctx.s.cases.at(case_index)),
        k_(c_.tile_dim),
        n_dims_(static_cast<int>(ctx.s.dims.size())) {}

  std::string Write(const std::string& fn_name) {
    const auto& g = s_.graph;
    o_ << "// Impl graph " << SafeComment(c_.name) << ": tiles dim " << k_ << " ("
       << SafeComment(g.FindAxis(s_.dims[k_])->name) << ").\n";
    o_ << "__aicore__ inline void " << fn_name << "(" << ctx_.ParamList() << ", GM_ADDR workspace, "
       << "const AutofuseTilingData* t) {\n";
    in_ = 1;
    Line("(void)workspace;");
    for (std::size_t i = 0; i < ctx_.symbols.size(); ++i) {
      Line("const int64_t s" + std::to_string(i) + " = t->" + ctx_.SymField(i) + ";");
    }
    for (int j = 0; j < n_dims_; ++j) {
      Line("const int64_t D" + std::to_string(j) + " = " + ctx_.Cpp(g.FindAxis(s_.dims[j])->size) +
           ";");
    }
    Line("const int64_t tile = t->" + ctx_.TileField(c_) + ";");
    Line("const int64_t tiles_per_block = t->" + ctx_.BlockField(c_) + ";");
    Line("const int64_t T = af_ceildiv(D" + std::to_string(k_) + ", tile);");
    std::string outer = "T";
    for (int j = 0; j < k_; ++j)
      outer = "D" + std::to_string(j) + " * " + outer;
    Line("const int64_t outer = " + outer + ";");
    Line("const int64_t blk = static_cast<int64_t>(GetBlockIdx());");
    Line("if (blk >= static_cast<int64_t>(t->block_dim)) return;");
    // GM tensors.
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      const Node& n = g.nodes[i];
      if (n.type != "Data" && n.type != "Output") continue;
      const std::string ty = CType(n.outputs.at(0).dtype);
      const int param = ctx_.ParamOf(static_cast<int>(i));
      Expr numel(1);
      for (const auto& r : n.outputs.at(0).repeats)
        numel = numel * r;
      Line("GlobalTensor<" + ty + "> g" + std::to_string(i) + ";");
      Line("g" + std::to_string(i) + ".SetGlobalBuffer(reinterpret_cast<__gm__ " + ty + "*>(p" +
           std::to_string(param) + "), static_cast<uint64_t>(" + ctx_.Cpp(numel) + "));");
    }
    // UB buffers.
    Line("TPipe pipe;");
    for (const auto& b : s_.buffers) {
      const std::string name = b.Name();
      if (b.kind == BufKind::kTBuf) {
        Line("TBuf<TPosition::VECCALC> " + name + ";");
        Line("pipe.InitBuffer(" + name + ", t->" + name + "_size);");
      } else {
        Line(std::string("TQue<TPosition::") + (b.kind == BufKind::kQueueIn ? "VECIN" : "VECOUT") +
             ", 1> " + name + ";");
        Line("pipe.InitBuffer(" + name + ", " + std::to_string(b.buf_num) + ", t->" + name +
             "_size);");
      }
    }
    // UB row pitch of full-layout tensors (elements), from the tile (not the tail).
    Line("const int64_t RA = " + std::to_string(s_.row_align) + ";");
    Line("for (int64_t it = 0; it < tiles_per_block; ++it) {");
    ++in_;
    Line("const int64_t o = blk * tiles_per_block + it;");
    Line("if (o >= outer) break;");
    Line("int64_t rem = o;");
    Line("const int64_t iT = rem % T;");
    Line("rem /= T;");
    for (int j = k_ - 1; j >= 0; --j) {
      const std::string J = std::to_string(j);
      Line("const int64_t i" + J + " = rem % D" + J + ";");
      Line("rem /= D" + J + ";");
    }
    Line("(void)rem;");
    Line("const int64_t a" + std::to_string(k_) + " = (iT == T - 1) ? D" + std::to_string(k_) +
         " - iT * tile : tile;");
    Line("const int64_t i" + std::to_string(k_) + " = iT * tile;");
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
      EmitNode(static_cast<int>(i));
    --in_;
    Line("}");
    in_ = 0;
    o_ << "}\n\n";
    return o_.str();
  }

 private:
  void Line(const std::string& s) {
    o_ << std::string(static_cast<std::size_t>(in_) * 2, ' ') << s << "\n";
  }

  // Extent expression of vectorised dim j (>= k) of a tensor: its actual size or 1 (broadcast).
  std::string Ext(const ir::Tensor& t, int j, bool max_tile) const {
    if (t.axis.empty() || t.repeats.at(static_cast<std::size_t>(j)) == Expr(1)) return "1";
    if (j == k_) return max_tile ? "tile" : "a" + std::to_string(k_);
    return "D" + std::to_string(j);
  }

  // UB stride of vectorised dim j for this tensor's own layout (from the max tile).
  std::string UbStride(const ir::Tensor& t, int j) const {
    std::string s = "1";
    for (int m = n_dims_ - 1; m > j; --m) {
      const std::string e = Ext(t, m, true);
      s = m == n_dims_ - 1 ? "af_align(" + e + ", RA)" : "(" + e + ") * " + s;
    }
    return s;
  }

  // Elements a whole-buffer vector op covers for this tensor (rows padded, tail-sized).
  std::string Count(const ir::Tensor& t) const {
    if (t.axis.empty()) return "1";
    if (k_ == n_dims_ - 1) return "af_align(" + Ext(t, k_, false) + ", RA)";
    return "(" + Ext(t, k_, false) + ") * " + UbStride(t, k_);
  }

  // Full-layout count (the consumer's shape) for scalars.
  std::string FullCount() const {
    ir::Tensor full;
    full.axis = s_.dims;
    for (int j = 0; j < n_dims_; ++j)
      full.repeats.emplace_back(2);  // any non-1 marker
    full.strides.assign(static_cast<std::size_t>(n_dims_), Expr(0));
    return Count(full);
  }

  std::string Var(int i) const { return "v" + std::to_string(i); }

  // GM offset of the tile's first element for a view (outer coords and the tile start).
  std::string GmBase(const Node& n) const {
    const ir::Tensor& t = n.outputs.at(0);
    std::string s = "0";
    if (const ir::AttrValue* off = n.FindAttr("offset")) {
      if (const auto* e = std::get_if<Expr>(off)) s = ctx_.Cpp(*e);
      if (const auto* i = std::get_if<std::int64_t>(off)) s = std::to_string(*i) + "LL";
    }
    for (int j = 0; j <= k_; ++j) {
      if (t.repeats.at(static_cast<std::size_t>(j)) == Expr(1)) continue;  // broadcast: coord 0
      s += " + i" + std::to_string(j) + " * (" +
           ctx_.Cpp(t.strides.at(static_cast<std::size_t>(j))) + ")";
    }
    return s;
  }

  // Emits the row copies between GM and UB for a tensor's vectorised block. `to_ub` chooses the
  // direction. Outer vectorised dims become loops; the last two dims become one DataCopyPad per
  // chunk of at most 4095 rows.
  void EmitCopy(const Node& n, const std::string& gm, const std::string& ub, bool to_ub,
                const std::string& ty) {
    const ir::Tensor& t = n.outputs.at(0);
    const int last = n_dims_ - 1;
    Line("{");
    ++in_;
    Line("const int64_t base = " + GmBase(n) + ";");
    // Loops over vectorised dims k .. last-2.
    std::string gm_off = "base";
    std::string ub_off = "0";
    const int row_dim = last - 1;  // the dim counted by blockCount (if >= k)
    for (int j = k_; j < row_dim; ++j) {
      const std::string J = std::to_string(j);
      Line("for (int64_t r" + J + " = 0; r" + J + " < " + Ext(t, j, false) + "; ++r" + J + ") {");
      ++in_;
      gm_off += " + r" + J + " * (" + ctx_.Cpp(t.strides.at(static_cast<std::size_t>(j))) + ")";
      ub_off += " + r" + J + " * (" + UbStride(t, j) + ")";
    }
    Line("const int64_t len = " + Ext(t, last, false) + ";");
    Line("const int64_t pitch_ub = " +
         (row_dim >= k_ ? UbStride(t, row_dim) : std::string("af_align(len, RA)")) + ";");
    if (row_dim >= k_) {
      Line("const int64_t rows = " + Ext(t, row_dim, false) + ";");
      Line("const int64_t pitch_gm = " +
           (Ext(t, row_dim, false) == "1"
                ? std::string("len")
                : ctx_.Cpp(t.strides.at(static_cast<std::size_t>(row_dim)))) +
           ";");
    } else {
      Line("const int64_t rows = 1;");
      Line("const int64_t pitch_gm = len;");
    }
    // UB gap in 32-byte blocks after each row rounded up to 32 bytes (DataCopyPad's rule).
    Line("const int64_t esz = static_cast<int64_t>(sizeof(" + ty + "));");
    Line("const int64_t gap_ub = (pitch_ub * esz - af_align(len * esz, 32)) / 32;");
    Line("const int64_t gap_gm = (pitch_gm - len) * static_cast<int64_t>(sizeof(" + ty + "));");
    Line("if (gap_gm >= 0 && rows > 0) {");
    ++in_;
    Line("for (int64_t rc = 0; rc < rows; rc += 4095) {");
    ++in_;
    Line("const int64_t n = af_min(rows - rc, 4095);");
    Line(
        "DataCopyExtParams prm(static_cast<uint16_t>(n), static_cast<uint32_t>(len * "
        "static_cast<int64_t>(sizeof(" +
        ty + "))), static_cast<uint32_t>(" + std::string(to_ub ? "gap_gm" : "gap_ub") +
        "), static_cast<uint32_t>(" + std::string(to_ub ? "gap_ub" : "gap_gm") + "), 0);");
    const std::string gidx = gm + "[static_cast<uint64_t>(" + gm_off + " + rc * pitch_gm)]";
    const std::string uidx = ub + "[static_cast<uint32_t>(" + ub_off + " + rc * pitch_ub)]";
    const std::string copy = to_ub ? "DataCopyPad(" + uidx + ", " + gidx +
                                         ", prm, DataCopyPadExtParams<" + ty + ">(false, 0, 0, " +
                                         ty + "(0)));"
                                   : "DataCopyPad(" + gidx + ", " + uidx + ", prm);";
    Line(copy);
    --in_;
    Line("}");
    --in_;
    Line("} else {");
    ++in_;
    Line("for (int64_t rc = 0; rc < rows; ++rc) {");
    ++in_;
    Line("DataCopyExtParams prm(1, static_cast<uint32_t>(len * static_cast<int64_t>(sizeof(" + ty +
         "))), 0, 0, 0);");
    Line(copy);
    --in_;
    Line("}");
    --in_;
    Line("}");
    for (int j = k_; j < row_dim; ++j) {
      --in_;
      Line("}");
    }
    --in_;
    Line("}");
  }

  // Allocates or fetches the UB tensor of node i's output.
  void Alloc(int i, const std::string& ty) {
    const int b = s_.node_buffer[i];
    const auto& buf = s_.buffers.at(b);
    if (buf.kind == BufKind::kTBuf) {
      Line("LocalTensor<" + ty + "> " + Var(i) + " = " + buf.Name() + ".Get<" + ty + ">();");
    } else {
      Line("LocalTensor<" + ty + "> " + Var(i) + " = " + buf.Name() + ".AllocTensor<" + ty +
           ">();");
    }
  }

  void FreeDeadInputs(int i) {
    const auto& n = s_.graph.nodes[i];
    for (const auto& in : n.inputs) {
      const int p = in.node;
      if (ctx_.last_use[p] != i || s_.node_buffer[p] < 0) continue;
      const auto& buf = s_.buffers[s_.node_buffer[p]];
      if (buf.kind == BufKind::kQueueIn) Line(buf.Name() + ".FreeTensor(" + Var(p) + ");");
    }
  }

  void EmitNode(int i) {
    const Node& n = s_.graph.nodes[i];
    const ir::Tensor& t = n.outputs.empty() ? ir::Tensor{} : n.outputs[0];
    const std::string ty = CType(t.dtype);
    Line("// [" + std::to_string(i) + "] " + SafeComment(n.name) + " : " + SafeComment(n.type));
    if (n.type == "Data" || n.type == "Output") return;
    if (n.type == "Scalar") {
      Alloc(i, ty);
      Line("Duplicate(" + Var(i) + ", " + ScalarOf(ty, NumberLiteral(n)) +
           ", static_cast<int32_t>(" + FullCount() + "));");
      Line("PipeBarrier<PIPE_V>();");
      return;
    }
    if (n.type == "Load") {
      const int data = n.inputs.at(0).node;
      if (s_.staged[i]) {
        const auto& q = s_.buffers.at(static_cast<std::size_t>(s_.staging_queue));
        Alloc(i, ty);
        Line("{");
        ++in_;
        Line("LocalTensor<" + ty + "> st = " + q.Name() + ".AllocTensor<" + ty + ">();");
        EmitCopy(n, "g" + std::to_string(data), "st", true, ty);
        Line(q.Name() + ".EnQue(st);");
        Line("st = " + q.Name() + ".DeQue<" + ty + ">();");
        Line("DataCopy(" + Var(i) + ", st, static_cast<uint32_t>(" + Count(t) + "));");
        Line(q.Name() + ".FreeTensor(st);");
        --in_;
        Line("}");
        return;
      }
      const auto& q = s_.buffers.at(static_cast<std::size_t>(s_.node_buffer[i]));
      Line("LocalTensor<" + ty + "> " + Var(i) + " = " + q.Name() + ".AllocTensor<" + ty + ">();");
      EmitCopy(n, "g" + std::to_string(data), Var(i), true, ty);
      Line(q.Name() + ".EnQue(" + Var(i) + ");");
      Line(Var(i) + " = " + q.Name() + ".DeQue<" + ty + ">();");
      return;
    }
    if (n.type == "Store") {
      const int p = n.inputs.at(0).node;
      const int out = ctx_.store_output.at(i);
      const auto& q = s_.buffers.at(static_cast<std::size_t>(s_.store_queue[i]));
      const std::string pty = CType(s_.graph.nodes[p].outputs[0].dtype);
      Line("{");
      ++in_;
      if (s_.node_buffer[p] == s_.store_queue[i]) {
        Line("LocalTensor<" + ty + "> so = " + Var(p) + ";");
      } else {
        Line("LocalTensor<" + ty + "> so = " + q.Name() + ".AllocTensor<" + ty + ">();");
        Line("DataCopy(so, " + Var(p) + ", static_cast<uint32_t>(" + Count(t) + "));");
      }
      Line(q.Name() + ".EnQue(so);");
      Line("so = " + q.Name() + ".DeQue<" + ty + ">();");
      EmitCopy(n, "g" + std::to_string(out), "so", false, ty);
      Line(q.Name() + ".FreeTensor(so);");
      --in_;
      Line("}");
      FreeDeadInputs(i);
      return;
    }
    if (n.type == "Broadcast") {
      EmitBroadcast(i, ty);
      FreeDeadInputs(i);
      return;
    }
    Alloc(i, ty);
    const std::string cnt = "static_cast<int32_t>(" + Count(t) + ")";
    auto in = [&](std::size_t s) { return Var(n.inputs.at(s).node); };
    if (n.type == "Cast") {
      const ir::DType from = s_.graph.nodes[n.inputs[0].node].outputs[0].dtype;
      if (from == t.dtype) {
        Line("DataCopy(" + Var(i) + ", " + in(0) + ", static_cast<uint32_t>(" + Count(t) + "));");
      } else {
        Line("Cast(" + Var(i) + ", " + in(0) + ", " + RoundModeFor(from, t.dtype) + ", " + cnt +
             ");");
      }
    } else if (n.type == "Neg") {
      Line("Muls(" + Var(i) + ", " + in(0) + ", " + ScalarOf(ty, "-1") + ", " + cnt + ");");
    } else if (UnaryApis().contains(n.type)) {
      Line(UnaryApis().at(n.type) + "(" + Var(i) + ", " + in(0) + ", " + cnt + ");");
    } else if (BinaryApis().contains(n.type)) {
      Line(BinaryApis().at(n.type) + "(" + Var(i) + ", " + in(0) + ", " + in(1) + ", " + cnt +
           ");");
    } else {
      throw CodegenError("UNSUPPORTED_OP", "codegen has no AscendC lowering for op " +
                                               SafeComment(n.type) + " (node '" +
                                               SafeComment(n.name) + "') yet");
    }
    Line("PipeBarrier<PIPE_V>();");
    FreeDeadInputs(i);
  }

  // Broadcast in UB: for every row of the output block, copy the matching source row, or
  // duplicate the source element when the innermost dim is broadcast.
  void EmitBroadcast(int i, const std::string& ty) {
    const Node& n = s_.graph.nodes[i];
    const ir::Tensor& out = n.outputs.at(0);
    const ir::Tensor& src = s_.graph.nodes[n.inputs.at(0).node].outputs.at(0);
    Alloc(i, ty);
    const int last = n_dims_ - 1;
    Line("{");
    ++in_;
    std::string so = "0";
    std::string doff = "0";
    for (int j = k_; j < last; ++j) {
      const std::string J = std::to_string(j);
      Line("for (int64_t r" + J + " = 0; r" + J + " < " + Ext(out, j, false) + "; ++r" + J + ") {");
      ++in_;
      doff += " + r" + J + " * (" + UbStride(out, j) + ")";
      if (Ext(src, j, false) != "1") so += " + r" + J + " * (" + UbStride(src, j) + ")";
    }
    const std::string len = Ext(out, last, false);
    const std::string dst = Var(i) + "[static_cast<uint32_t>(" + doff + ")]";
    const std::string srcv = Var(n.inputs[0].node);
    if (Ext(src, last, false) == "1" && len != "1") {
      Line("Duplicate(" + dst + ", " + srcv + ".GetValue(static_cast<uint32_t>(" + so +
           ")), static_cast<int32_t>(" + len + "));");
    } else {
      Line("DataCopy(" + dst + ", " + srcv + "[static_cast<uint32_t>(" + so +
           ")], static_cast<uint32_t>(af_align(" + len + ", RA)));");
    }
    for (int j = k_; j < last; ++j) {
      --in_;
      Line("}");
    }
    --in_;
    Line("}");
    Line("PipeBarrier<PIPE_V>();");
  }

  const Context& ctx_;
  const schedule::ScheduleResult& s_;
  const schedule::ImplCase& c_;
  int k_;
  int n_dims_;
  int in_ = 0;
  std::ostringstream o_;
};

}  // namespace

std::string KernelSource(const Context& ctx) {
  std::ostringstream o;
  o << "// Generated by autofuse: AscendC kernel " << ctx.kernel << ".\n";
  o << "#include \"kernel_operator.h\"\n";
  o << "#include \"" << ctx.kernel << "_tiling_data.h\"\n\n";
  o << "using namespace AscendC;\n\n";
  for (std::size_t c = 0; c < ctx.s.cases.size(); ++c) {
    o << KernelWriter(ctx, static_cast<int>(c)).Write("case" + std::to_string(c));
  }
  o << "extern \"C\" __global__ __aicore__ void " << ctx.kernel << "(" << ctx.ParamList()
    << ", GM_ADDR workspace, GM_ADDR tiling) {\n";
  o << "  const AutofuseTilingData* t = reinterpret_cast<const AutofuseTilingData*>(tiling);\n";
  for (std::size_t c = 0; c < ctx.s.cases.size(); ++c) {
    o << "  " << (c != 0u ? "} else if" : "if") << " (t->tiling_key == " << c << "u) {\n";
    o << "    case" << c << "(" << ctx.ArgList() << ", workspace, t);\n";
  }
  o << "  }\n}\n\n";
  o << "AF_DEFINE_LAUNCH(" << ctx.kernel << ")\n";
  return o.str();
}

}  // namespace af::codegen
