// The AscendC kernel source: one function per impl graph (tiling case) and the entry that
// dispatches on the tiling key.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>

#include "af_tiling/elementwise.h"
#include "autofuse/codegen/codegen.h"
#include "autofuse/ir/data_movement.h"
#include "autofuse/ir/math_lowering.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/ir/validate.h"
#include "codegen_internal.h"
#include "loop_nest.h"

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

const std::map<std::string, std::string>& CompareModes() {
  static const std::map<std::string, std::string> m = {
      {"Gt", "CMPMODE::GT"}, {"Ge", "CMPMODE::GE"}, {"Lt", "CMPMODE::LT"},
      {"Le", "CMPMODE::LE"}, {"Eq", "CMPMODE::EQ"}, {"Ne", "CMPMODE::NE"}};
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

// The buffer of each node's result as the case's impl graph places it (its output's queue or
// TBuf id, which is the index into ScheduleResult::buffers; none: GM or no output). Throws
// INTERNAL where the impl graph disagrees with the buffer plan.
std::vector<std::optional<int>> ImplBuffers(const schedule::ScheduleResult& s,
                                            const schedule::ImplCase& c) {
  std::vector<std::optional<int>> own(c.graph.nodes.size());
  for (std::size_t i = 0; i < own.size(); ++i) {
    const auto& outs = c.graph.nodes[i].outputs;
    if (outs.empty()) continue;
    const ir::Tensor& t = outs.front();
    if (t.mem.alloc_type == ir::AllocType::kQueue) own[i] = static_cast<int>(t.que.id);
    if (t.mem.alloc_type == ir::AllocType::kBuffer) own[i] = static_cast<int>(t.buf.id);
    if (i >= s.placed.size() || own[i] != s.placed[i].buffer) {
      throw CodegenError("INTERNAL", "impl graph of case " + c.name + " places node " +
                                         SafeComment(c.graph.nodes[i].name) +
                                         " in another buffer than the buffer plan");
    }
  }
  return own;
}

class KernelWriter {
 public:
  KernelWriter(const Context& ctx, int case_index)
      : ctx_(ctx),
        s_(ctx.s),
        c_(ctx.s.cases.at(case_index)),
        nest_(ReadLoopNest(ctx.s, c_)),
        own_(ImplBuffers(ctx.s, c_)),
        k_(nest_.tile_dim),
        n_dims_(k_ + static_cast<int>(nest_.inner.size())) {}

  std::string Write(const std::string& fn_name) {
    const auto& g = s_.graph;
    const bool k_is_r = nest_.tile_reduced;
    o_ << "// Impl graph " << SafeComment(c_.name) << " (" << schedule::CaseKindName(c_.kind)
       << "): tiles dim " << k_ << " (" << SafeComment(c_.graph.FindAxis(s_.dims[k_])->name)
       << ").\n";
    o_ << "__aicore__ inline void " << fn_name << "(" << ctx_.ParamList() << ", GM_ADDR workspace, "
       << "const AutofuseTilingData* t) {\n";
    in_ = 1;
    const TemplateEntry& entry = EntryOf(c_.kind);
    if (!entry.workspace) Line("(void)workspace;");
    for (std::size_t i = 0; i < ctx_.symbols.size(); ++i) {
      Line("const int64_t s" + std::to_string(i) + " = t->" + ctx_.SymField(i) + ";");
    }
    for (int j = 0; j < n_dims_; ++j) {
      Line("const int64_t D" + std::to_string(j) + " = " +
           ctx_.Cpp(c_.graph.FindAxis(s_.dims[j])->size) + ";");
    }
    Line("const int64_t tile = t->" + ctx_.TileField(c_) + ";");
    Line("const int64_t tiles_per_block = t->" + ctx_.BlockField(c_) + ";");
    if (Pieces()) {
      // Pieces: the outer loop walks each piece's extent along dim 0 in turn (PL).
      std::string lens;
      for (const auto& e : s_.parts.lens)
        lens += (lens.empty() ? "" : ", ") + ctx_.Cpp(e);
      Line("const int64_t PL[" + std::to_string(s_.parts.lens.size()) + "] = {" + lens + "};");
      Line("const int64_t NP = " + std::to_string(s_.parts.lens.size()) + ";");
    }
    if (Pieces() && k_ == 0) {
      Line("int64_t T = 0;");
      Line("for (int64_t q = 0; q < NP; ++q) T += af_ceildiv(PL[q], tile);");
    } else {
      Line("const int64_t T = af_ceildiv(D" + std::to_string(k_) + ", tile);");
    }
    // A (kept) outer loops go over cores; R outer loops run in sequence on each core.
    std::string outer = k_is_r ? "1" : "T";
    std::string r_iters = k_is_r ? "T" : "1";
    for (const int j : nest_.a_outer)
      outer = "D" + std::to_string(j) + " * " + outer;
    for (const int j : nest_.r_outer)
      r_iters = "D" + std::to_string(j) + " * " + r_iters;
    Line("const int64_t outer = " + outer + ";");
    if (entry.r_iters) Line("const int64_t r_iters = " + r_iters + ";");
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
      if (!schedule::BufferUsedBy(b, c_.kind)) continue;
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
    if (entry.prologue != nullptr) (this->*entry.prologue)();
    EmitGatherOffsets();
    EmitConcatOffsets();
    (this->*entry.body)();
    in_ = 0;
    o_ << "}\n\n";
    return o_.str();
  }

 private:
  // The emitter entry of one template: what its kernel declares and how it walks its tiles.
  struct TemplateEntry {
    schedule::CaseKind kind;
    bool workspace;                    // reads the GM workspace
    bool r_iters;                      // counts the reduce iterations (r_iters)
    void (KernelWriter::*prologue)();  // written once before the tiles (may be null)
    void (KernelWriter::*body)();      // the tiles
  };

  static const TemplateEntry& EntryOf(schedule::CaseKind kind) {
    using K = schedule::CaseKind;
    static const TemplateEntry kEntries[] = {
        {K::kElementwise, false, false, nullptr, &KernelWriter::EmitNodeTiles},
        {K::kAllLoad, false, false, nullptr, &KernelWriter::EmitNodeTiles},
        {K::kCommon, false, true, nullptr, &KernelWriter::EmitCommonTiles},
        {K::kRCore, true, true, nullptr, &KernelWriter::EmitRCoreKernel},
        {K::kBrcInline, false, false, nullptr, &KernelWriter::EmitNodeTiles},
        {K::kUnaligned, false, false, &KernelWriter::EmitUnalignedOffsets,
         &KernelWriter::EmitNodeTiles},
        {K::kConcat, false, false, nullptr, &KernelWriter::EmitNodeTiles},
        {K::kConcatGather, false, false, nullptr, &KernelWriter::EmitNodeTiles},
    };
    for (const auto& e : kEntries) {
      if (e.kind == kind) return e;
    }
    throw CodegenError("INTERNAL", "codegen has no emitter for template " +
                                       std::string(schedule::CaseKindName(kind)));
  }

 public:
  // Whether the template synchronises all cores (a hard SyncAll over the GM workspace).
  static bool SyncsAllCores(schedule::CaseKind kind) { return schedule::SyncsAllCores(kind); }

 private:
  // Unaligned cases, once per kernel: the byte offsets of the Gather that drops the row padding
  // of a full block (compact element e is element (e / L) * af_align(L, RA) + e % L of it).
  void EmitUnalignedOffsets() {
    const auto& off = Buf(s_.work.unaligned_offsets);
    const auto& scr = Buf(s_.work.unaligned_scratch);
    const std::string L = "D" + std::to_string(n_dims_ - 1);
    Line("LocalTensor<uint32_t> uoff = " + off.Name() + ".Get<uint32_t>();");
    Line("{");
    Line("  const int64_t n_off = " + CompactElems(true) + ";");
    Line("  for (int64_t e = 0; e < n_off; ++e) {");
    Line("    uoff.SetValue(static_cast<uint32_t>(e), static_cast<uint32_t>(((e / " + L +
         ") * af_align(" + L + ", RA) + e % " + L + ") * " + std::to_string(scr.esize) + "));");
    Line("  }");
    Line("}");
  }

  void EmitRCoreKernel() {
    Line("(void)tiles_per_block;");
    EmitRCore();
  }

  // The block's tiles in sequence: `per_tile` for each, after its A coordinates.
  void EmitTileLoop(void (KernelWriter::*per_tile)()) {
    Line("for (int64_t it = 0; it < tiles_per_block; ++it) {");
    ++in_;
    Line("const int64_t o = blk * tiles_per_block + it;");
    Line("if (o >= outer) break;");
    ACoords("o");
    (this->*per_tile)();
    --in_;
    Line("}");
  }

  void EmitCommonTiles() { EmitTileLoop(&KernelWriter::EmitCommonBody); }
  void EmitNodeTiles() { EmitTileLoop(&KernelWriter::EmitNodes); }

  // Every node once per tile (each piece's under its `if` when there are pieces).
  void EmitNodes() {
    const auto& g = s_.graph;
    free_at_ = ctx_.last_use;
    if (c_.kind == schedule::CaseKind::kBrcInline) {
      // An inlined broadcast's source is read by the broadcast's consumers.
      for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        if (!Inlined(static_cast<int>(i))) continue;
        const int src = g.nodes[i].inputs.at(0).node;
        free_at_[src] = std::max(free_at_[src], ctx_.last_use[i]);
      }
    }
    if (Pieces()) {
      EmitPieces();
    } else {
      for (std::size_t i = 0; i < g.nodes.size(); ++i)
        EmitNode(static_cast<int>(i));
    }
  }

  bool IsRDim(int j) const {
    return j >= 0 && static_cast<std::size_t>(j) < s_.groups.r_dim.size() && s_.groups.r_dim[j];
  }

  bool Pieces() const { return s_.parts.dim == 0 && !s_.parts.lens.empty(); }

  // The buffer of node i's result (none: GM or no result), from the impl graph.
  std::optional<int> Own(int i) const { return own_.at(static_cast<std::size_t>(i)); }

  // Where node i's values are staged and stored from (the buffer plan).
  const schedule::NodeBuffers& Placed(int i) const {
    return s_.placed.at(static_cast<std::size_t>(i));
  }

  // A buffer the plan holds for this use (a node's, or a work buffer).
  const schedule::Buffer& Buf(const std::optional<int>& b) const {
    return s_.buffers.at(static_cast<std::size_t>(b.value()));
  }

  // A node's buffer when it is a VECIN queue (a load's, freed after its last reader).
  const schedule::Buffer* InQueue(int i) const {
    const std::optional<int> b = Own(i);
    if (!b || s_.buffers[static_cast<std::size_t>(*b)].kind != BufKind::kQueueIn) return nullptr;
    return &s_.buffers[static_cast<std::size_t>(*b)];
  }

  // The nodes of an iteration with pieces: each piece's nodes under `if (pc == k)`, nodes every
  // piece runs outside; a queue those read from is freed after all of them (outside the ifs).
  void EmitPieces() {
    const auto& g = s_.graph;
    const int n = static_cast<int>(g.nodes.size());
    const auto consumers = g.Consumers();
    std::vector<int> late;
    for (int i = 0; i < n; ++i) {
      if (s_.parts.node_piece[i]) continue;
      bool read_by_piece = false;
      for (const auto& [c, slot] : consumers[i])
        read_by_piece = read_by_piece || s_.parts.node_piece[c].has_value();
      if (!read_by_piece || free_at_[i] < 0) continue;
      free_at_[i] = -1;
      late.push_back(i);
    }
    std::optional<int> open;  // the piece whose `if` is open
    for (int i = 0; i < n; ++i) {
      const Node& node = g.nodes[i];
      if (node.type == "Data" || node.type == "Output") continue;
      const std::optional<int> piece = s_.parts.node_piece[i];
      if (piece != open) {
        if (open) {
          --in_;
          Line("}");
        }
        if (piece) {
          Line("if (pc == " + std::to_string(*piece) + ") {");
          ++in_;
        }
        open = piece;
      }
      EmitNode(i);
    }
    if (open) {
      --in_;
      Line("}");
    }
    for (const int i : late) {
      if (const schedule::Buffer* q = InQueue(i)) Line(q->Name() + ".FreeTensor(" + Var(i) + ");");
    }
  }

  bool Inlined(int i) const {
    return c_.kind == schedule::CaseKind::kBrcInline &&
           static_cast<std::size_t>(i) < s_.inlined.size() && s_.inlined[i];
  }

  // A binary op with an inlined broadcast operand, row by row: the broadcast source's matching
  // row (row broadcast) or element (column broadcast: the scalar API) per output row.
  void EmitInlineBinary(int i, int slot) {
    const Node& n = s_.graph.nodes[i];
    const ir::Tensor& out = n.outputs.at(0);
    const std::string ty = CType(out.dtype);
    const int b = n.inputs.at(slot).node;
    const int x = n.inputs.at(1 - slot).node;
    const int src = s_.graph.nodes[b].inputs.at(0).node;
    const ir::Tensor& st = s_.graph.nodes[src].outputs.at(0);
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
      if (Ext(st, j, false) != "1") so += " + r" + J + " * (" + UbStride(st, j) + ")";
    }
    const std::string len = Ext(out, last, false);
    const std::string cnt = "static_cast<int32_t>(af_align(" + len + ", RA))";
    auto at = [&](const std::string& v, const std::string& off) {
      return v + "[static_cast<uint32_t>(" + off + ")]";
    };
    const std::string dst = at(Var(i), doff);
    const std::string xv = at(Var(x), doff);
    if (Ext(st, last, false) == "1") {
      Line("const " + ty + " sv = " + Var(src) + ".GetValue(static_cast<uint32_t>(" + so + "));");
      const std::string& op = n.type;
      if (op == "Add") {
        Line("Adds(" + dst + ", " + xv + ", sv, " + cnt + ");");
      } else if (op == "Mul") {
        Line("Muls(" + dst + ", " + xv + ", sv, " + cnt + ");");
      } else if (op == "Maximum") {
        Line("Maxs(" + dst + ", " + xv + ", sv, " + cnt + ");");
      } else if (op == "Minimum") {
        Line("Mins(" + dst + ", " + xv + ", sv, " + cnt + ");");
      } else if (op == "Sub") {
        Line("Adds(" + dst + ", " + xv + ", static_cast<" + ty + ">(-sv), " + cnt + ");");
      } else {  // Div / TrueDiv by the broadcast value
        Line("Muls(" + dst + ", " + xv + ", static_cast<" + ty + ">(" + ScalarOf(ty, "1.0f") +
             " / sv), " + cnt + ");");
      }
    } else {
      const std::string sv = at(Var(src), so);
      const std::string a = slot == 0 ? sv : xv;
      const std::string c = slot == 0 ? xv : sv;
      Line(BinaryApis().at(n.type) + "(" + dst + ", " + a + ", " + c + ", " + cnt + ");");
    }
    for (int j = k_; j < last; ++j) {
      --in_;
      Line("}");
    }
    --in_;
    Line("}");
    Line("PipeBarrier<PIPE_V>();");
    FreeDeadInputs(i);
    // The source of an inlined broadcast is this op's real input: free it here if it is dead.
    if (free_at_[src] == i) {
      if (const schedule::Buffer* q = InQueue(src)) {
        Line(q->Name() + ".FreeTensor(" + Var(src) + ");");
      }
    }
  }

  static bool IsReduceNode(const Node& n) { return ir::IsReduceOp(n.type); }

  void TileCoords() {
    const std::string K = std::to_string(k_);
    if (Pieces() && k_ == 0) {
      Line("const int64_t a0 = (iT == af_ceildiv(PL[pc], tile) - 1) ? PL[pc] - iT * tile : tile;");
      Line("const int64_t i0 = iT * tile;");
      return;
    }
    Line("const int64_t a" + K + " = (iT == T - 1) ? D" + K + " - iT * tile : tile;");
    Line("const int64_t i" + K + " = iT * tile;");
  }

  // Reduce results live in their own TBufs for the whole A iteration.
  void AllocReduceResults() {
    const auto& g = s_.graph;
    for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
      if (!IsReduceNode(g.nodes[i])) continue;
      Alloc(i, CType(g.nodes[i].outputs.at(0).dtype));
      if (g.nodes[i].type != "ArgMax") continue;
      std::istringstream st(ArgMaxState(i));
      for (std::string l; std::getline(st, l);)
        Line(l);
    }
  }

  // R-invariant nodes of one reduction level (0: before the R loop; p + 1: after sweep p).
  void EmitInvariant(int level, std::vector<int>* pre_loads) {
    const auto& g = s_.graph;
    const int n = static_cast<int>(g.nodes.size());
    free_at_.assign(static_cast<std::size_t>(n), -1);
    for (int i = 0; i < n; ++i) {
      const Node& node = g.nodes[i];
      if (nest_.in_reduce_loop[i] || s_.groups.avail[i] != level) continue;
      if (node.type == "Data" || node.type == "Output") continue;
      EmitNode(i);
      if (node.type == "Load" && !Placed(i).staged) pre_loads->push_back(i);
    }
  }

  void FreePreLoads(const std::vector<int>& pre_loads) {
    for (int i : pre_loads) {
      const auto& q = Buf(Own(i));
      Line(q.Name() + ".FreeTensor(" + Var(i) + ");");
    }
  }

  // The nodes sweep p computes: the reductions of level p and the stores of varying values of
  // level p, and the varying nodes they read (recomputed in later sweeps). Sets free_at_.
  std::vector<bool> SweepNodes(int p) {
    const int n = static_cast<int>(s_.graph.nodes.size());
    std::vector<bool> need = schedule::SweepNodes(s_, p);
    const auto& g = s_.graph;
    free_at_.assign(static_cast<std::size_t>(n), -1);
    for (int i = 0; i < n; ++i) {
      if (!need[i]) continue;
      for (const auto& in : g.nodes[i].inputs) {
        if (need[in.node]) free_at_[in.node] = std::max(free_at_[in.node], i);
      }
    }
    return need;
  }

  // One sweep: `for (ri = from; ri < to; ++ri)` with the R coordinates, then the sweep's nodes.
  void EmitSweep(int p, const std::string& from, const std::string& to) {
    const bool k_is_r = nest_.tile_reduced;
    const auto need = SweepNodes(p);
    Line("for (int64_t ri = " + from + "; ri < " + to + "; ++ri) {");
    ++in_;
    Line("int64_t rrem = ri;");
    if (k_is_r) {
      Line("const int64_t iT = rrem % T;");
      Line("rrem /= T;");
    }
    for (std::size_t q = nest_.r_outer.size(); q-- > 0;) {
      const int j = nest_.r_outer[q];
      const std::string J = std::to_string(j);
      Line("const int64_t i" + J + " = rrem % D" + J + ";");
      Line("rrem /= D" + J + ";");
    }
    Line("(void)rrem;");
    if (k_is_r) TileCoords();
    in_r_loop_ = true;
    first_cond_ = "ri == " + from;
    for (int i = 0; i < static_cast<int>(need.size()); ++i) {
      if (need[i]) EmitNode(i);
    }
    in_r_loop_ = false;
    --in_;
    Line("}");
  }

  // The common template: per A iteration, R-invariant inputs once, then for each reduction level
  // a sweep over the R iterations (loads, compute, partial reduction accumulated into the
  // result), then what depends only on the finished reductions.
  void EmitCommonBody() {
    const auto& g = s_.graph;
    std::vector<int> pre_loads;
    AllocReduceResults();
    EmitInvariant(0, &pre_loads);
    for (int p = 0; p < s_.groups.passes; ++p) {
      Line("// Sweep " + std::to_string(p + 1) + " of " + std::to_string(s_.groups.passes) +
           " over the reduced iterations.");
      EmitSweep(p, "0", "r_iters");
      for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
        if (IsReduceNode(g.nodes[i]) && s_.groups.avail[i] - 1 == p) FinishReduce(i);
      }
      EmitInvariant(p + 1, &pre_loads);
    }
    FreePreLoads(pre_loads);
  }

  // Decomposes `var` into the A coordinates (and the tile when the tile dim is kept).
  void ACoords(const std::string& var) {
    Line("int64_t rem = " + var + ";");
    if (!nest_.tile_reduced) {
      Line(std::string(Pieces() && k_ == 0 ? "" : "const ") + "int64_t iT = rem % T;");
      Line("rem /= T;");
    }
    for (std::size_t q = nest_.a_outer.size(); q-- > 0;) {
      const int j = nest_.a_outer[q];
      const std::string J = std::to_string(j);
      Line(std::string(Pieces() && j == 0 ? "" : "const ") + "int64_t i" + J + " = rem % D" + J +
           ";");
      Line("rem /= D" + J + ";");
    }
    Line("(void)rem;");
    if (Pieces()) {
      // The piece of this iteration, and the coordinate (k > 0) or tile (k == 0) within it.
      Line("int64_t pc = 0;");
      if (k_ == 0) {
        Line("while (pc + 1 < NP && iT >= af_ceildiv(PL[pc], tile)) {");
        Line("  iT -= af_ceildiv(PL[pc], tile);");
      } else {
        Line("while (pc + 1 < NP && i0 >= PL[pc]) {");
        Line("  i0 -= PL[pc];");
      }
      Line("  ++pc;");
      Line("}");
    }
    if (!nest_.tile_reduced) TileCoords();
  }

  // Elements of a block with extent-1 dims `one` (rows padded), from the full tile.
  std::string CountM(std::uint32_t one) const {
    if (k_ == n_dims_ - 1) return "af_align(" + ExtM(one, k_, true) + ", RA)";
    return "(" + ExtM(one, k_, true) + ") * " + UbStrideM(one, k_);
  }

  // The r_core template. Phase 1: block b takes A iteration b / r_split and its share
  // b % r_split of the R iterations, reduces them and writes each reduction's partial block to
  // the workspace. SyncAll. Phase 2: each A iteration combines its r_split partials, finishes
  // the reductions and computes and stores what follows them.
  void EmitRCore() {
    const auto& g = s_.graph;
    const int n = static_cast<int>(g.nodes.size());
    const auto& part = Buf(s_.work.reduce_partial);
    std::vector<int> reduces;
    for (int i = 0; i < n; ++i) {
      if (IsReduceNode(g.nodes[i])) reduces.push_back(i);
    }
    Line("const int64_t r_split = t->r_split;");
    Line("const int64_t r_per = t->r_per_block;");
    Line("const int64_t shares = outer * r_split;");
    Line("const int64_t slot = af_align(" + CountM(part.one_mask) + ", 8);");
    Line("GlobalTensor<float> ws;");
    Line(
        "ws.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(workspace), "
        "static_cast<uint64_t>(t->workspace_bytes) / sizeof(float));");
    Line("// Phase 1: one share of one A iteration's reduce iterations per block.");
    Line("if (blk < shares) {");
    ++in_;
    Line("const int64_t chunk = blk % r_split;");
    ACoords("blk / r_split");
    std::vector<int> pre_loads;
    AllocReduceResults();
    EmitInvariant(0, &pre_loads);
    Line("const int64_t r0 = chunk * r_per;");
    Line("const int64_t r1 = af_min(r0 + r_per, r_iters);");
    EmitSweep(0, "r0", "r1");
    Line("SetFlag<HardEvent::V_MTE3>(0);");
    Line("WaitFlag<HardEvent::V_MTE3>(0);");
    for (std::size_t q = 0; q < reduces.size(); ++q) {
      const int m = reduces[q];
      const std::string at =
          "ws[static_cast<uint64_t>((" + std::to_string(q) + " * shares + blk) * slot)]";
      if (g.nodes[m].type == "ArgMax") {
        ArgMaxToWorkspace(m, at);
        continue;
      }
      Line("DataCopy(" + at + ", " + Var(m) + ", static_cast<uint32_t>(" +
           Count(g.nodes[m].outputs.at(0), true) + "));");
    }
    FreePreLoads(pre_loads);
    --in_;
    Line("}");
    Line("SyncAll();");
    Line("// Phase 2: combine the partials of each A iteration and finish.");
    Line("for (int64_t oa = blk; oa < outer; oa += static_cast<int64_t>(t->block_dim)) {");
    ++in_;
    ACoords("oa");
    pre_loads.clear();
    AllocReduceResults();
    EmitInvariant(0, &pre_loads);
    if (std::any_of(reduces.begin(), reduces.end(),
                    [&](int m) { return g.nodes[m].type != "ArgMax"; })) {
      Line("LocalTensor<float> rpart = " + part.Name() + ".Get<float>();");
    }
    for (std::size_t q = 0; q < reduces.size(); ++q) {
      const int m = reduces[q];
      const std::string cnt = Count(g.nodes[m].outputs.at(0), true);
      const std::string base = "(" + std::to_string(q) + " * shares + oa * r_split)";
      if (g.nodes[m].type == "ArgMax") {
        ArgMaxMerge(m, base);
        continue;
      }
      Line("DataCopy(" + Var(m) + ", ws[static_cast<uint64_t>(" + base +
           " * slot)], static_cast<uint32_t>(" + cnt + "));");
      Line("SetFlag<HardEvent::MTE2_V>(0);");
      Line("WaitFlag<HardEvent::MTE2_V>(0);");
      Line("for (int64_t c = 1; c < r_split; ++c) {");
      ++in_;
      Line("SetFlag<HardEvent::V_MTE2>(0);");
      Line("WaitFlag<HardEvent::V_MTE2>(0);");
      Line("DataCopy(rpart, ws[static_cast<uint64_t>((" + base +
           " + c) * slot)], static_cast<uint32_t>(" + cnt + "));");
      Line("SetFlag<HardEvent::MTE2_V>(0);");
      Line("WaitFlag<HardEvent::MTE2_V>(0);");
      Line(AccumulateApi(g.nodes[m].type) + "(" + Var(m) + ", " + Var(m) +
           ", rpart, static_cast<int32_t>(" + cnt + "));");
      Line("PipeBarrier<PIPE_V>();");
      --in_;
      Line("}");
      FinishReduce(m);
    }
    EmitInvariant(1, &pre_loads);
    FreePreLoads(pre_loads);
    --in_;
    Line("}");
  }

  // r_core phase 1 for ArgMax (AutoFuse's ArgMaxMultiRPhase1): the share's running (value,
  // index) pair goes to its workspace slot as 32-bit words (value as float, then the int64
  // index's low and high words), written by scalar code into the result's own UB block (an
  // int32/int64 block of the padded output count, so at least the float words copied). A share
  // with no R iterations leaves index -1, which the merge skips.
  void ArgMaxToWorkspace(int m, const std::string& at) {
    const std::string M = std::to_string(m);
    Line("{");
    ++in_;
    Line("LocalTensor<float> amp = " + Var(m) + ".ReinterpretCast<float>();");
    Line("LocalTensor<uint32_t> ampu = " + Var(m) + ".ReinterpretCast<uint32_t>();");
    Line("amp.SetValue(0u, amb" + M + ");");
    Line("ampu.SetValue(1u, static_cast<uint32_t>(static_cast<uint64_t>(ami" + M + ")));");
    Line("ampu.SetValue(2u, static_cast<uint32_t>(static_cast<uint64_t>(ami" + M + ") >> 32));");
    Line("SetFlag<HardEvent::S_MTE3>(0);");
    Line("WaitFlag<HardEvent::S_MTE3>(0);");
    Line("DataCopy(" + at + ", amp, static_cast<uint32_t>(" +
         Count(s_.graph.nodes[m].outputs.at(0), true) + "));");
    --in_;
    Line("}");
  }

  // r_core phase 2 for ArgMax (AutoFuse's ArgMaxMultiRPhase2): the shares' pairs in share order
  // (ascending indices), merged by the same rule as within a row: a strictly greater value or the
  // first NaN replaces the running pair, so the first maximum (first NaN) wins across cores.
  void ArgMaxMerge(int m, const std::string& base) {
    const std::string M = std::to_string(m);
    const ir::Tensor& out = s_.graph.nodes[m].outputs.at(0);
    Line("{");
    ++in_;
    Line("LocalTensor<float> amp = " + Var(m) + ".ReinterpretCast<float>();");
    Line("LocalTensor<uint32_t> ampu = " + Var(m) + ".ReinterpretCast<uint32_t>();");
    Line("SetFlag<HardEvent::V_MTE2>(0);");  // the previous A iteration's store read the block
    Line("WaitFlag<HardEvent::V_MTE2>(0);");
    Line("for (int64_t c = 0; c < r_split; ++c) {");
    ++in_;
    Line("DataCopy(amp, ws[static_cast<uint64_t>((" + base +
         " + c) * slot)], static_cast<uint32_t>(" + Count(out, true) + "));");
    Line("SetFlag<HardEvent::MTE2_S>(0);");
    Line("WaitFlag<HardEvent::MTE2_S>(0);");
    Line("const float v = amp.GetValue(0u);");
    Line(
        "const int64_t ix = static_cast<int64_t>((static_cast<uint64_t>(ampu.GetValue(2u)) << "
        "32) | static_cast<uint64_t>(ampu.GetValue(1u)));");
    Line("if (ix >= 0 && (" + ArgMaxTakes(M) + ")) {");
    Line("  amb" + M + " = v;");
    Line("  ami" + M + " = ix;");
    Line("}");
    Line("SetFlag<HardEvent::S_MTE2>(0);");
    Line("WaitFlag<HardEvent::S_MTE2>(0);");
    --in_;
    Line("}");
    Line(Var(m) + ".SetValue(0u, static_cast<" + CType(out.dtype) + ">(ami" + M + "));");
    --in_;
    Line("}");
    ArgMaxWritten();
  }

  // Extent of block dim j for a layout whose extent-1 dims are `one` (bit j).
  std::string ExtM(std::uint32_t one, int j, bool max_tile) const {
    if (((one >> j) & 1u) != 0) return "1";
    if (j == k_) return max_tile ? "tile" : "a" + std::to_string(k_);
    return "D" + std::to_string(j);
  }

  std::string UbStrideM(std::uint32_t one, int j) const {
    std::string s = "1";
    for (int m = n_dims_ - 1; m > j; --m) {
      const std::string e = ExtM(one, m, true);
      s = m == n_dims_ - 1 ? "af_align(" + e + ", RA)" : "(" + e + ") * " + s;
    }
    return s;
  }

  static std::uint32_t MaskOf(const ir::Tensor& t) { return schedule::OneMask(t); }

  static std::string PatternApi(const std::string& type) {
    if (type == "Sum" || type == "Mean") return "ReduceSum";
    if (type == "Max") return "ReduceMax";
    if (type == "Min") return "ReduceMin";
    if (type == "Prod") return "ReduceProd";
    throw CodegenError("UNSUPPORTED_OP", "codegen has no reduction API for " + SafeComment(type));
  }

  static std::string AccumulateApi(const std::string& type) {
    if (type == "Sum" || type == "Mean") return "Add";
    if (type == "Max") return "Max";
    if (type == "Min") return "Min";
    return "Mul";
  }

  // One reduce step over block dim j: from `src` (layout `one`) into `dst` (layout one | j).
  void ReduceStep(const std::string& api, const std::string& ty, const std::string& src,
                  std::uint32_t one, int j, const std::string& dst) {
    const int last = n_dims_ - 1;
    Line("{");
    ++in_;
    if (j == last) {
      std::string rows = "1";
      for (int m = k_; m < last; ++m)
        rows = "(" + ExtM(one, m, false) + ") * " + rows;
      const std::string len = ExtM(one, last, false);
      Line("const uint32_t shape[2] = {1u, static_cast<uint32_t>(" + len + ")};");
      Line("const int64_t pitch = af_align(" + len + ", RA);");
      Line("for (int64_t rr = 0; rr < " + rows + "; ++rr) {");
      Line("  " + api + "<" + ty + ", Pattern::Reduce::AR>(" + dst +
           "[static_cast<uint32_t>(rr * RA)], " + src +
           "[static_cast<uint32_t>(rr * pitch)], shape, true);");
      Line("}");
    } else {
      std::string outer = "1";
      for (int m = k_; m < j; ++m)
        outer = "(" + ExtM(one, m, false) + ") * " + outer;
      const std::string ext = ExtM(one, j, false);
      Line("const int64_t span = " + UbStrideM(one, j) + ";");
      Line("const uint32_t shape[2] = {static_cast<uint32_t>(" + ext +
           "), static_cast<uint32_t>(span)};");
      Line("for (int64_t ro = 0; ro < " + outer + "; ++ro) {");
      Line("  " + api + "<" + ty + ", Pattern::Reduce::RA>(" + dst +
           "[static_cast<uint32_t>(ro * span)], " + src + "[static_cast<uint32_t>(ro * (" + ext +
           ") * span)], shape, true);");
      Line("}");
    }
    --in_;
    Line("}");
    Line("PipeBarrier<PIPE_V>();");
  }

  // Reduces the UB block of node i's input into `dst` (at most two steps, innermost dim first).
  void ReduceBlock(int i, const std::string& dst) {
    const Node& n = s_.graph.nodes[i];
    const ir::Tensor& out = n.outputs.at(0);
    const int src_node = n.inputs.at(0).node;
    const ir::Tensor& in = s_.graph.nodes[src_node].outputs.at(0);
    const std::string ty = CType(out.dtype);
    const std::uint32_t in_one = MaskOf(in);
    const std::uint32_t out_one = MaskOf(out);
    std::vector<int> steps;
    for (int j = n_dims_ - 1; j >= k_; --j) {
      if (((in_one >> j) & 1u) == 0 && ((out_one >> j) & 1u) != 0) steps.push_back(j);
    }
    const std::string api = PatternApi(n.type);
    if (steps.empty()) {
      Line("DataCopy(" + dst + ", " + Var(src_node) + ", static_cast<uint32_t>(" + Count(out) +
           "));");
      Line("PipeBarrier<PIPE_V>();");
      return;
    }
    if (steps.size() > 2) {
      throw CodegenError("INTERNAL", "more than two reduce steps in one block");
    }
    if (steps.size() == 1) {
      ReduceStep(api, ty, Var(src_node), in_one, steps[0], dst);
      return;
    }
    const auto& scr = Buf(s_.work.reduce_scratch);
    Line("{");
    ++in_;
    Line("LocalTensor<" + ty + "> rscr = " + scr.Name() + ".Get<" + ty + ">();");
    ReduceStep(api, ty, Var(src_node), in_one, steps[0], "rscr");
    ReduceStep(api, ty, "rscr", in_one | (1u << steps[0]), steps[1], dst);
    --in_;
    Line("}");
  }

  void EmitReduce(int i) {
    const Node& n = s_.graph.nodes[i];
    if (n.type == "ArgMax") {
      EmitArgMax(i);
      return;
    }
    const ir::Tensor& out = n.outputs.at(0);
    const std::string ty = CType(out.dtype);
    if (!in_r_loop_) {
      Alloc(i, ty);
      ReduceBlock(i, Var(i));
      FinishReduce(i);
      return;
    }
    const auto& part = Buf(s_.work.reduce_partial);
    Line("if (" + first_cond_ + ") {");
    ++in_;
    ReduceBlock(i, Var(i));
    --in_;
    Line("} else {");
    ++in_;
    Line("LocalTensor<" + ty + "> rpart = " + part.Name() + ".Get<" + ty + ">();");
    ReduceBlock(i, "rpart");
    Line(AccumulateApi(n.type) + "(" + Var(i) + ", " + Var(i) + ", rpart, static_cast<int32_t>(" +
         Count(out) + "));");
    Line("PipeBarrier<PIPE_V>();");
    --in_;
    Line("}");
  }

  // ArgMax's running maximum and its index (-1: none yet), per row; the common template keeps
  // them for its one row across the R iterations.
  static std::string ArgMaxState(int i) {
    const std::string I = std::to_string(i);
    return "float amb" + I + " = 0.0f;\nint64_t ami" + I + " = -1;";
  }

  // Whether the candidate (v, ix) replaces ArgMax's running pair `I` (ArgMaxState): none yet, a
  // strictly greater value, or the first NaN (first maximum; NaN is the maximum). The one rule
  // the per-chunk merge and r_core's merge of the shares' pairs both emit.
  static std::string ArgMaxTakes(const std::string& I) {
    return "ami" + I + " < 0 || v > amb" + I + " || (v != v && amb" + I + " == amb" + I + ")";
  }

  // ArgMax over the innermost dim (the schedule admits no other layout, ARGMAX_LAYOUT): per row,
  // AscendC's ReduceMax with calIndex over chunks of the row (the index of half is 16 bits: chunks
  // of 65408 elements, whole 256-byte repeats), each chunk's (value, index) merged in scalars:
  // a strictly greater value or the first NaN wins (first maximum; NaN is the maximum).
  void EmitArgMax(int i) {
    const Node& n = s_.graph.nodes[i];
    const ir::Tensor& out = n.outputs.at(0);
    const int src = n.inputs.at(0).node;
    const ir::Tensor& in = s_.graph.nodes[src].outputs.at(0);
    const std::string it = CType(out.dtype);
    const std::string ty = CType(in.dtype);
    const bool is_half = in.dtype == ir::DType::kFloat16;
    if (!is_half && in.dtype != ir::DType::kFloat32) {
      throw CodegenError("UNSUPPORTED_DTYPE", "ArgMax of " + std::string(ir::DTypeName(in.dtype)) +
                                                  ": AscendC's ReduceMax takes half and float");
    }
    const int last = n_dims_ - 1;
    const std::uint32_t in_one = MaskOf(in);
    if (((in_one >> last) & 1u) != 0 || (in_r_loop_ && (k_ != last || !nest_.tile_reduced))) {
      throw CodegenError("INTERNAL", "ArgMax block does not reduce the innermost dim");
    }
    const std::string I = std::to_string(i);
    std::string rows = "1";
    for (int m = k_; m < last; ++m)
      rows = "(" + ExtM(in_one, m, false) + ") * " + rows;
    if (!in_r_loop_) Alloc(i, it);
    Line("{");
    ++in_;
    Line("LocalTensor<" + ty + "> amv = " + Buf(s_.work.reduce_partial).Name() + ".Get<" + ty +
         ">();");
    Line("LocalTensor<" + ty + "> amt = " + Buf(s_.work.argmax_tmp).Name() + ".Get<" + ty + ">();");
    Line("const int64_t len = " + ExtM(in_one, last, false) + ";");
    Line("const int64_t pitch = af_align(len, RA);");
    Line("const int64_t chunk = " + std::string(is_half ? "65408" : "1073741824") + ";");
    Line("for (int64_t rr = 0; rr < " + rows + "; ++rr) {");
    ++in_;
    if (!in_r_loop_) {
      std::istringstream st(ArgMaxState(i));
      for (std::string l; std::getline(st, l);)
        Line(l);
    }
    const std::string off = in_r_loop_ ? "i" + std::to_string(last) : "0";
    Line("for (int64_t c0 = 0; c0 < len; c0 += chunk) {");
    ++in_;
    Line("ReduceMax(amv, " + Var(src) + "[static_cast<uint32_t>(rr * pitch + c0)], amt, " +
         "static_cast<int32_t>(af_min(chunk, len - c0)), true);");
    Line("SetFlag<HardEvent::V_S>(0);");
    Line("WaitFlag<HardEvent::V_S>(0);");
    Line("const float v = static_cast<float>(amv.GetValue(0));");
    Line("const int64_t ix = " + off + " + c0 + static_cast<int64_t>(amv.ReinterpretCast<" +
         std::string(is_half ? "uint16_t" : "uint32_t") + ">().GetValue(1));");
    Line("if (" + ArgMaxTakes(I) + ") {");
    Line("  amb" + I + " = v;");
    Line("  ami" + I + " = ix;");
    Line("}");
    Line("SetFlag<HardEvent::S_V>(0);");
    Line("WaitFlag<HardEvent::S_V>(0);");
    --in_;
    Line("}");
    if (!in_r_loop_)
      Line(Var(i) + ".SetValue(static_cast<uint32_t>(rr * RA), static_cast<" + it + ">(ami" + I +
           "));");
    --in_;
    Line("}");
    --in_;
    Line("}");
    if (!in_r_loop_) ArgMaxWritten();
  }

  // Scalar writes into a UB result, before the vector or MTE3 reads that follow.
  void ArgMaxWritten() {
    Line("SetFlag<HardEvent::S_V>(0);");
    Line("WaitFlag<HardEvent::S_V>(0);");
    Line("SetFlag<HardEvent::S_MTE3>(0);");
    Line("WaitFlag<HardEvent::S_MTE3>(0);");
  }

  // After the last partial: Mean divides by the reduced element count; ArgMax (common template,
  // one row per A iteration) writes its index.
  void FinishReduce(int i) {
    const Node& n = s_.graph.nodes[i];
    if (n.type == "ArgMax" && c_.kind == schedule::CaseKind::kCommon) {
      Line(Var(i) + ".SetValue(0u, static_cast<" + CType(n.outputs.at(0).dtype) + ">(ami" +
           std::to_string(i) + "));");
      ArgMaxWritten();
      return;
    }
    if (n.type != "Mean") return;
    std::string count = "1";
    for (int j = 0; j < n_dims_; ++j) {
      if (IsRDim(j)) count = "D" + std::to_string(j) + " * " + count;
    }
    const ir::Tensor& out = n.outputs.at(0);
    const std::string ty = CType(out.dtype);
    Line("Muls(" + Var(i) + ", " + Var(i) + ", " +
         ScalarOf(ty, "1.0 / static_cast<double>(" + count + ")") + ", static_cast<int32_t>(" +
         Count(out, true) + "));");
    Line("PipeBarrier<PIPE_V>();");
  }

  void Line(const std::string& s) {
    o_ << std::string(static_cast<std::size_t>(in_) * 2, ' ') << s << "\n";
  }

  // Extent expression of vectorised dim j (>= k) of a tensor: its actual size or 1 (broadcast).
  std::string Ext(const ir::Tensor& t, int j, bool max_tile) const {
    if (t.axis.empty() || t.repeats.at(static_cast<std::size_t>(j)) == Expr(1)) return "1";
    if (j == k_) return max_tile ? "tile" : "a" + std::to_string(k_);
    if (s_.parts.dim == j && schedule::PartOf(s_, t) != af_tiling::kPartFull) {
      return "(" + ctx_.Cpp(t.repeats.at(static_cast<std::size_t>(j))) + ")";  // a concat input
    }
    return "D" + std::to_string(j);
  }

  // In unaligned cases, full tensors (no extent-1 dim) are held without row padding.
  bool IsCompact(const ir::Tensor& t) const {
    return c_.kind == schedule::CaseKind::kUnaligned && !t.axis.empty() && MaskOf(t) == 0;
  }

  // Elements of a compact full block (rounded up to whole 32-byte rows of the narrowest type).
  std::string CompactElems(bool max_tile) const {
    std::string e = max_tile ? "tile" : "a" + std::to_string(k_);
    for (int m = k_ + 1; m < n_dims_; ++m)
      e += " * D" + std::to_string(m);
    return "af_align(" + e + ", RA)";
  }

  // UB stride of vectorised dim j for this tensor's own layout (from the max tile); `padded`
  // forces the row-padded layout even for a compact tensor.
  std::string UbStride(const ir::Tensor& t, int j, bool padded = false) const {
    const bool compact = IsCompact(t) && !padded;
    std::string s = "1";
    for (int m = n_dims_ - 1; m > j; --m) {
      const std::string e = Ext(t, m, true);
      s = m == n_dims_ - 1 && !compact ? "af_align(" + e + ", RA)" : "(" + e + ") * " + s;
    }
    return s;
  }

  // Elements a whole-buffer vector op covers for this tensor (rows padded, tail-sized).
  std::string Count(const ir::Tensor& t, bool max_tile = false) const {
    if (t.axis.empty()) return "1";
    if (IsCompact(t)) return CompactElems(max_tile);
    if (k_ == n_dims_ - 1) return "af_align(" + Ext(t, k_, max_tile) + ", RA)";
    return "(" + Ext(t, k_, max_tile) + ") * " + UbStride(t, k_);
  }

  // Full-layout count (the consumer's shape) for scalars.
  std::string FullCount() const {
    ir::Tensor full;
    full.axis = s_.dims;
    for (int j = 0; j < n_dims_; ++j)
      full.repeats.emplace_back(2);  // any non-1 marker
    full.strides.assign(static_cast<std::size_t>(n_dims_), Expr(0));
    return Count(full, true);
  }

  std::string Var(int i) const { return "v" + std::to_string(i); }

  // GM offset of the tile's first element for a view (outer coords and the tile start).
  std::string GmBase(const Node& n) const {
    const ir::Tensor& t = n.outputs.at(0);
    std::string s = "(" + ctx_.Cpp(ir::ViewOffset(n).value_or(Expr(0))) + ")";
    for (int j = 0; j <= k_; ++j) {
      if (t.repeats.at(static_cast<std::size_t>(j)) == Expr(1)) continue;  // broadcast: coord 0
      s += " + i" + std::to_string(j) + " * (" +
           ctx_.Cpp(t.strides.at(static_cast<std::size_t>(j))) + ")";
    }
    return s;
  }

  // One group of `rows` rows between GM (from gm_off) and UB (from ub_off), with the locals len,
  // rows, pitch_gm, pitch_ub (elements), gap_gm (bytes), gap_ub (32-byte blocks) and esz in
  // scope: DataCopyPad in chunks of at most 4095 rows when the GM rows do not overlap, else one
  // row at a time.
  void EmitRowGroupCopy(const std::string& gm, const std::string& gm_off, const std::string& ub,
                        const std::string& ub_off, bool to_ub, const std::string& ty) {
    const std::string gidx = gm + "[static_cast<uint64_t>(" + gm_off + " + rc * pitch_gm)]";
    const std::string uidx = ub + "[static_cast<uint32_t>(" + ub_off + " + rc * pitch_ub)]";
    const std::string copy = to_ub ? "DataCopyPad(" + uidx + ", " + gidx +
                                         ", prm, DataCopyPadExtParams<" + ty + ">(false, 0, 0, " +
                                         ty + "(0)));"
                                   : "DataCopyPad(" + gidx + ", " + uidx + ", prm);";
    Line("if (gap_gm >= 0 && rows > 0) {");
    ++in_;
    Line("for (int64_t rc = 0; rc < rows; rc += 4095) {");
    ++in_;
    Line("const int64_t n = af_min(rows - rc, 4095);");
    Line(
        "DataCopyExtParams prm(static_cast<uint16_t>(n), static_cast<uint32_t>(len * esz), "
        "static_cast<uint32_t>(" +
        std::string(to_ub ? "gap_gm" : "gap_ub") + "), static_cast<uint32_t>(" +
        std::string(to_ub ? "gap_ub" : "gap_gm") + "), 0);");
    Line(copy);
    --in_;
    Line("}");
    --in_;
    Line("} else {");
    ++in_;
    Line("for (int64_t rc = 0; rc < rows; ++rc) {");
    ++in_;
    Line("DataCopyExtParams prm(1, static_cast<uint32_t>(len * esz), 0, 0, 0);");
    Line(copy);
    --in_;
    Line("}");
    --in_;
    Line("}");
  }

  // The copies below write (or read) each row of the innermost dim as one contiguous GM run; a
  // tensor whose innermost dim has another GM stride must not reach them (the schedule refuses
  // such a store, STORE_STRIDED_UNSUPPORTED, and gathers such a load, STRIDED_LOAD_GATHER). A
  // second guard here, so that no later path writes it wrongly.
  void CheckRowsContiguous(const Node& n, bool to_ub) const {
    const ir::Tensor& t = n.outputs.at(0);
    if (t.strides.empty() || t.repeats.empty()) return;
    if (t.repeats.back() == Expr(1) || t.strides.back() == Expr(1)) return;
    throw CodegenError(to_ub ? "STRIDED_LOAD_UNPLANNED" : "STORE_STRIDED_UNSUPPORTED",
                       std::string(to_ub ? "load '" : "store '") + SafeComment(n.name) +
                           "' has GM stride " + SafeComment(t.strides.back().ToString()) +
                           " on its innermost dimension; the row copy writes contiguous rows");
  }

  // Emits the row copies between GM and UB for a tensor's vectorised block. `to_ub` chooses the
  // direction. Outer vectorised dims become loops; the last two dims become one DataCopyPad per
  // chunk of at most 4095 rows.
  void EmitCopy(const Node& n, const std::string& gm, const std::string& ub, bool to_ub,
                const std::string& ty) {
    const ir::Tensor& t = n.outputs.at(0);
    CheckRowsContiguous(n, to_ub);
    if (IsCompact(t)) {
      // The tile is contiguous in GM and compact in UB: one copy of all its elements.
      Line("{");
      ++in_;
      std::string len = "a" + std::to_string(k_);
      for (int m = k_ + 1; m < n_dims_; ++m)
        len += " * D" + std::to_string(m);
      Line("const int64_t len = " + len + ";");
      Line("DataCopyExtParams prm(1, static_cast<uint32_t>(len * static_cast<int64_t>(sizeof(" +
           ty + "))), 0, 0, 0);");
      const std::string gidx = gm + "[static_cast<uint64_t>(" + GmBase(n) + ")]";
      Line(to_ub ? "DataCopyPad(" + ub + ", " + gidx + ", prm, DataCopyPadExtParams<" + ty +
                       ">(false, 0, 0, " + ty + "(0)));"
                 : "DataCopyPad(" + gidx + ", " + ub + ", prm);");
      --in_;
      Line("}");
      return;
    }
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
    EmitRowGroupCopy(gm, gm_off, ub, ub_off, to_ub, ty);
    for (int j = k_; j < row_dim; ++j) {
      --in_;
      Line("}");
    }
    --in_;
    Line("}");
  }

  // ---- strided loads (schedule: STRIDED_LOAD_GATHER) -------------------------------------

  // The staging block's run dim for this case: the load's GM-contiguous dim when the block holds
  // it (rows along it, padded), else none (one element per 32-byte row).
  std::optional<int> GatherRunDim(int i) const {
    const std::optional<int> q = Buf(Placed(i).gather_queue).gather_dim;
    return q && *q >= k_ ? q : std::nullopt;
  }

  // Staging index (elements) of a block element with coordinates c<j> (j = k..last), from the
  // full tile's extents: rows over the dims other than the run dim in loop order, each row
  // align(E_run, RA) long; or one 32-byte row per element.
  std::string GatherStagingIndex(int i, const std::vector<std::string>& coord) const {
    const ir::Tensor& t = s_.graph.nodes[i].outputs.at(0);
    const std::optional<int> q = GatherRunDim(i);
    const int last = n_dims_ - 1;
    std::string row = "0";
    for (int j = k_; j <= last; ++j) {
      if (j == q) continue;
      std::string mul = "1";
      for (int m = j + 1; m <= last; ++m) {
        if (m != q) mul += " * (" + Ext(t, m, true) + ")";
      }
      row += " + " + coord[static_cast<std::size_t>(j - k_)] + " * " + mul;
    }
    if (!q) {
      const int es = ir::DTypeBytes(t.dtype);
      return "(" + row + ") * " + std::to_string(32 / es);
    }
    return "(" + row + ") * af_align(" + Ext(t, *q, true) + ", RA) + " +
           coord[static_cast<std::size_t>(*q - k_)];
  }

  // Once per core: the Gather offsets (bytes into the staging block) of every element of each
  // strided load's loop-order block, from the full tile's layout (a tail block is a prefix of
  // it). The staging index is linear in the coordinates, so the table is built by doubling: the
  // first 8 elements of the innermost row by scalar code, then copies that add h x weight along
  // the innermost dim (whole 32-byte blocks) and along each outer dim, innermost first (Adds
  // over int32). Row padding points at a row's first element.
  void EmitGatherOffsets() {
    const int last = n_dims_ - 1;
    for (std::size_t i = 0; i < s_.graph.nodes.size(); ++i) {
      const int ii = static_cast<int>(i);
      if (!Placed(ii).gather_queue) continue;
      const ir::Tensor& t = s_.graph.nodes[i].outputs.at(0);
      const auto& off = Buf(Placed(ii).gather_offsets);
      const std::string es = std::to_string(ir::DTypeBytes(t.dtype));
      const std::string name = "goff" + std::to_string(i);
      auto at = [&](int j, const std::string& c) {  // coordinates: c at dim j, 0 elsewhere
        std::vector<std::string> coord(static_cast<std::size_t>(last - k_ + 1), "0");
        coord[static_cast<std::size_t>(j - k_)] = c;
        return GatherStagingIndex(ii, coord);
      };
      const std::string e_last = Ext(t, last, true);
      Line("LocalTensor<uint32_t> " + name + " = " + off.Name() + ".Get<uint32_t>();");
      Line("{");
      ++in_;
      Line("LocalTensor<int32_t> gi = " + name + ".ReinterpretCast<int32_t>();");
      Line("const int64_t e = " + e_last + ";");
      Line("int64_t len = af_align(e, RA);");
      Line("for (int64_t c = 0; c < len; c = c + 1 == af_min(e, 8) ? e : c + 1) {");
      Line("  gi.SetValue(static_cast<uint32_t>(c), c < e ? static_cast<int32_t>((" +
           at(last, "c") + ") * " + es + ") : 0);");
      Line("}");
      Line("PipeBarrier<PIPE_V>();");
      Line("for (int64_t h = 8; h < e; h *= 2) {");
      Line("  Adds(gi[static_cast<uint32_t>(h)], gi, static_cast<int32_t>((" + at(last, "h") +
           ") * " + es + "), static_cast<int32_t>(af_min(h, e - h)));");
      Line("  PipeBarrier<PIPE_V>();");
      Line("}");
      for (int j = last - 1; j >= k_; --j) {
        const std::string ej = Ext(t, j, true);
        Line("for (int64_t h = 1; h < " + ej + "; h *= 2) {");
        Line("  Adds(gi[static_cast<uint32_t>(h * len)], gi, static_cast<int32_t>((" + at(j, "h") +
             ") * " + es + "), static_cast<int32_t>(af_min(h, " + ej + " - h) * len));");
        Line("  PipeBarrier<PIPE_V>();");
        Line("}");
        Line("len *= " + ej + ";");
      }
      Line("(void)len;");
      --in_;
      Line("}");
    }
  }

  // ---- concat (schedule: concat / concat_gather templates) --------------------------------

  // The gather concat's staging row (elements): every input's row padded, side by side.
  std::string CatStagingPitch() const {
    std::string p;
    for (int k = 0; k < s_.parts.cat_inputs; ++k) {
      p += (p.empty() ? "(" : " + ") + std::string("af_align(") +
           ctx_.Cpp(s_.parts.lens.at(static_cast<std::size_t>(k))) + ", RA)";
    }
    return p + ")";
  }

  // Once per core (concat_gather): the Gather offsets (bytes into the staging block) of every
  // element of the output block, from the full tile's layout. Column `col` of the first row comes
  // from input q's staging column at(q) + col - off(q) (scalar code; row padding points at 0);
  // row r is row 0 plus r staging rows, so the other rows are built by doubling copies that add
  // h x the row weight along each block dim before the concat dim, innermost first (Adds over
  // int32).
  void EmitConcatOffsets() {
    if (c_.kind != schedule::CaseKind::kConcatGather) return;
    const int last = n_dims_ - 1;
    const ir::Tensor& t =
        s_.graph.nodes.at(static_cast<std::size_t>(s_.parts.concat.value())).outputs.at(0);
    const std::string es = std::to_string(ir::DTypeBytes(t.dtype));
    const auto& off = Buf(s_.work.concat_offsets);
    std::string lens;
    for (int k = 0; k < s_.parts.cat_inputs; ++k)
      lens += (lens.empty() ? "" : ", ") + ctx_.Cpp(s_.parts.lens.at(static_cast<std::size_t>(k)));
    Line("LocalTensor<uint32_t> coff = " + off.Name() + ".Get<uint32_t>();");
    Line("{");
    ++in_;
    Line("LocalTensor<int32_t> ci = coff.ReinterpretCast<int32_t>();");
    Line("const int64_t cat_w = af_align(D" + std::to_string(last) + ", RA);");
    Line("const int64_t cat_lens[] = {" + lens + "};");
    Line("const int64_t cat_n = " + std::to_string(s_.parts.cat_inputs) + ";");
    Line("int64_t q = 0;");
    Line("int64_t col0 = 0;");
    Line("int64_t at = 0;");
    Line("for (int64_t col = 0; col < cat_w; ++col) {");
    Line("  while (q < cat_n && col >= col0 + cat_lens[q]) {");
    Line("    col0 += cat_lens[q];");
    Line("    at += af_align(cat_lens[q], RA);");
    Line("    ++q;");
    Line("  }");
    Line(
        "  ci.SetValue(static_cast<uint32_t>(col), q < cat_n ? static_cast<int32_t>((at + col - "
        "col0) * " +
        es + ") : 0);");
    Line("}");
    Line("PipeBarrier<PIPE_V>();");
    Line("int64_t len = cat_w;");
    Line("int64_t weight = " + CatStagingPitch() + " * " + es + ";");
    for (int j = last - 1; j >= k_; --j) {
      const std::string ej = Ext(t, j, true);
      Line("for (int64_t h = 1; h < " + ej + "; h *= 2) {");
      Line(
          "  Adds(ci[static_cast<uint32_t>(h * len)], ci, static_cast<int32_t>(h * weight), "
          "static_cast<int32_t>(af_min(h, " +
          ej + " - h) * len));");
      Line("  PipeBarrier<PIPE_V>();");
      Line("}");
      Line("len *= " + ej + ";");
      Line("weight *= " + ej + ";");
    }
    Line("(void)len;");
    Line("(void)weight;");
    --in_;
    Line("}");
  }

  // Concat. The block's rows are its dims from the tile dim to the one before the concat dim
  // (tail-sized). Each input's rows go by UB-to-UB DataCopy (chunks of 4095 rows) straight to
  // their columns of the output block (concat), or side by side into the staging block
  // (concat_gather), from which one Gather assembles the output rows. A one-input Concat copies.
  // The rows of a block before dim c: the product of its extents along dims k..c-1.
  std::string RowsBefore(const ir::Tensor& t, int c) const {
    std::string rows = Ext(t, k_, false);
    for (int j = k_ + 1; j < c; ++j)
      rows += " * " + Ext(t, j, false);
    return rows;
  }

  // One strided UB-to-UB DataCopy of `rows` rows (in chunks of 4095, DataCopyParams' limit) of
  // `cb` 32-byte blocks each, with the locals cb, esz, src_pitch and the destination pitch
  // `dst_pitch` (elements) in scope; row r goes from src[r * src_pitch] to dst[r * dst_pitch +
  // dst_col].
  void EmitRowsCopy(const std::string& rows, const std::string& dst, const std::string& dst_pitch,
                    const std::string& dst_col, const std::string& src) {
    Line("for (int64_t rc = 0; rc < " + rows + "; rc += 4095) {");
    Line("  const int64_t nr = af_min(" + rows + " - rc, 4095);");
    Line("  DataCopy(" + dst + "[static_cast<uint32_t>(rc * " + dst_pitch + dst_col + ")], " + src +
         "[static_cast<uint32_t>(rc * src_pitch)], DataCopyParams(static_cast<uint16_t>(nr), "
         "static_cast<uint16_t>(cb), static_cast<uint16_t>(src_pitch * esz / 32 - cb), "
         "static_cast<uint16_t>(" +
         dst_pitch + " * esz / 32 - cb)));");
    Line("}");
  }

  // Pad and RemovePad: the value is unchanged, only the extent along one dim may grow (Pad: the
  // new elements are unspecified) or shrink (RemovePad: the leading box is kept); both blocks
  // are held with padded rows, so the box both have is copied row by row (rows: the dims before
  // the part dim), a whole-block copy when the extents agree.
  void EmitBoxCopy(int i, const std::string& ty) {
    const Node& n = s_.graph.nodes[i];
    const ir::Tensor& t = n.outputs.at(0);
    const ir::Tensor& x = s_.graph.nodes[n.inputs.at(0).node].outputs.at(n.inputs[0].output);
    Alloc(i, ty);
    if (!s_.parts.dim || schedule::PartOf(s_, t) == schedule::PartOf(s_, x)) {
      Line("DataCopy(" + Var(i) + ", " + Var(n.inputs.at(0).node) + ", static_cast<uint32_t>(" +
           Count(n.type == "Pad" ? x : t) + "));");
      Line("PipeBarrier<PIPE_V>();");
      return;
    }
    const int c = *s_.parts.dim;
    const ir::Tensor& small = n.type == "Pad" ? x : t;
    const bool inner = c == n_dims_ - 1;
    Line("{");
    ++in_;
    Line("const int64_t box_rows = " + RowsBefore(t, c) + ";");
    Line("const int64_t esz = static_cast<int64_t>(sizeof(" + ty + "));");
    Line("const int64_t len = " + Ext(small, c, false) + ";");
    const std::string elems = inner ? "af_align(len, RA)" : "len * " + UbStride(t, c);
    Line("const int64_t cb = af_ceildiv((" + elems + ") * esz, 32);");
    Line("const int64_t src_pitch = " + UbStride(x, c - 1) + ";");
    Line("const int64_t dst_pitch = " + UbStride(t, c - 1) + ";");
    EmitRowsCopy("box_rows", Var(i), "dst_pitch", "", Var(n.inputs[0].node));
    Line("PipeBarrier<PIPE_V>();");
    --in_;
    Line("}");
  }

  void EmitConcat(int i, const std::string& ty) {
    const Node& n = s_.graph.nodes[i];
    const ir::Tensor& t = n.outputs.at(0);
    Alloc(i, ty);
    if (!s_.parts.dim) {
      Line("DataCopy(" + Var(i) + ", " + Var(n.inputs.at(0).node) + ", static_cast<uint32_t>(" +
           Count(t) + "));");
      Line("PipeBarrier<PIPE_V>();");
      return;
    }
    const int c = *s_.parts.dim;
    const bool gather = c_.kind == schedule::CaseKind::kConcatGather;
    const bool inner = c == n_dims_ - 1;
    Line("{");
    ++in_;
    Line("const int64_t cat_rows = " + RowsBefore(t, c) + ";");
    Line("const int64_t esz = static_cast<int64_t>(sizeof(" + ty + "));");
    Line("const int64_t cat_pitch = " + (gather ? CatStagingPitch() : UbStride(t, c - 1)) + ";");
    std::string dst = Var(i);
    if (gather) {
      const auto& st = Buf(s_.work.concat_staging);
      Line("LocalTensor<" + ty + "> cst = " + st.Name() + ".Get<" + ty + ">();");
      dst = "cst";
    }
    Line("int64_t cat_col = 0;");
    const std::string unit = inner ? "1" : UbStride(t, c);
    for (const auto& in : n.inputs) {
      const ir::Tensor& it = s_.graph.nodes[in.node].outputs.at(in.output);
      Line("{");
      ++in_;
      Line("const int64_t len = " + Ext(it, c, false) + ";");
      // Elements per row: the padded row (staging), the row itself (its end may fall inside a
      // 32-byte block, which DataCopy rounds up into the output row's padding), or whole
      // padded rows of the inner dims.
      const std::string elems = inner ? (gather ? "af_align(len, RA)" : "len") : "len * " + unit;
      Line("const int64_t cb = af_ceildiv((" + elems + ") * esz, 32);");
      Line("const int64_t src_pitch = " + UbStride(it, c - 1) + ";");
      EmitRowsCopy("cat_rows", dst, "cat_pitch", " + cat_col", Var(in.node));
      Line("cat_col += " + (inner ? std::string(gather ? "af_align(len, RA)" : "len") : elems) +
           ";");
      --in_;
      Line("}");
    }
    Line("(void)cat_col;");
    Line("PipeBarrier<PIPE_V>();");
    if (gather) {
      Line("Gather(" + Var(i) + ", cst, coff, 0, static_cast<uint32_t>(" + Count(t) + "));");
      Line("PipeBarrier<PIPE_V>();");
    }
    --in_;
    Line("}");
  }

  // ---- gather (normalize: GATHER_ROWS) ----------------------------------------------------

  // A Gather: one DataCopyPad per row of its block (the innermost dim comes from params), from
  // the params row its index picks. The index is read from the indices block (its Load; extent 1
  // along the params dims), wrapped when negative indices are allowed, and checked against the
  // gathered dim's extent (Trap() when outside: AutoFuse V1 leaves it undefined, we stop).
  void EmitGatherRows(int i, const std::string& ty) {
    const Node& n = s_.graph.nodes[i];
    const ir::Tensor& t = n.outputs.at(0);
    const int params = n.inputs.at(0).node;
    const int idx = n.inputs.at(1).node;
    const ir::Tensor& it = s_.graph.nodes[idx].outputs.at(0);
    const auto& q = Buf(Own(i));
    auto attr = [&](const char* key) {
      const ir::AttrValue* a = n.FindAttr(key);
      if (const auto* e = a != nullptr ? std::get_if<Expr>(a) : nullptr) return ctx_.Cpp(*e);
      throw CodegenError("BAD_GATHER", "Gather '" + SafeComment(n.name) + "' lacks " + key);
    };
    const int last = n_dims_ - 1;
    Line("LocalTensor<" + ty + "> " + Var(i) + " = " + q.Name() + ".AllocTensor<" + ty + ">();");
    Line("{");
    ++in_;
    Line("const int64_t base = " + GmBase(n) + ";");
    Line("const int64_t gext = " + attr("gather_extent") + ";");
    Line("const int64_t gstr = " + attr("gather_stride") + ";");
    Line("const int64_t len = " + Ext(t, last, false) + ";");
    Line("const int64_t esz = static_cast<int64_t>(sizeof(" + ty + "));");
    std::string gm_off = "base";
    std::string ub_off = "0";
    std::string pos = "0";
    for (int j = k_; j < last; ++j) {
      const std::string J = std::to_string(j);
      Line("for (int64_t r" + J + " = 0; r" + J + " < " + Ext(t, j, false) + "; ++r" + J + ") {");
      ++in_;
      gm_off += " + r" + J + " * (" + ctx_.Cpp(t.strides.at(static_cast<std::size_t>(j))) + ")";
      ub_off += " + r" + J + " * (" + UbStride(t, j) + ")";
      if (it.repeats.at(static_cast<std::size_t>(j)) != Expr(1))
        pos += " + r" + J + " * (" + UbStride(it, j) + ")";
    }
    Line("int64_t gi = static_cast<int64_t>(" + Var(idx) + ".GetValue(static_cast<uint32_t>(" +
         pos + ")));");
    if (ir::NegativeIndexSupport(n)) Line("if (gi < 0) gi += gext;");
    Line("if (gi < 0 || gi >= gext) Trap();  // index out of range");
    Line("DataCopyExtParams prm(1, static_cast<uint32_t>(len * esz), 0, 0, 0);");
    Line("DataCopyPad(" + Var(i) + "[static_cast<uint32_t>(" + ub_off + ")], g" +
         std::to_string(params) + "[static_cast<uint64_t>(" + gm_off + " + gi * gstr)], prm, " +
         "DataCopyPadExtParams<" + ty + ">(false, 0, 0, " + ty + "(0)));");
    for (int j = k_; j < last; ++j) {
      --in_;
      Line("}");
    }
    --in_;
    Line("}");
    Line(q.Name() + ".EnQue(" + Var(i) + ");");
    Line(Var(i) + " = " + q.Name() + ".DeQue<" + ty + ">();");
    FreeDeadInputs(i);
  }

  // An innermost-dim Gather (normalize: GATHER_INNERMOST_ROW). Its block splits into the params
  // row dims (those before the index dims; their extents along the indices are 1) and the index
  // sub-block after them. Once per block, scalar code turns the indices into byte offsets into
  // the params row (wrapped when negative indices are allowed, Trap() outside the row), one per
  // element of the sub-block's full-tile layout (0 for padding and tails). Then per params row:
  // one DataCopyPad of the whole row into its TBuf, and one Gather of the sub-block from it.
  void EmitGatherInnermost(int i, const std::string& ty) {
    const Node& n = s_.graph.nodes[i];
    const ir::Tensor& t = n.outputs.at(0);
    const int params = n.inputs.at(0).node;
    const int idx = n.inputs.at(1).node;
    const ir::Tensor& it = s_.graph.nodes[idx].outputs.at(0);
    const auto& q = Buf(Own(i));
    const ir::AttrValue* ext = n.FindAttr("gather_extent");
    const auto* gext = ext != nullptr ? std::get_if<Expr>(ext) : nullptr;
    if (gext == nullptr || !Placed(i).gather_row || !Placed(i).gather_row_offsets) {
      throw CodegenError("BAD_GATHER", "Gather '" + SafeComment(n.name) +
                                           "' lacks its gather_extent or row buffers");
    }
    const int last = n_dims_ - 1;
    // The params row dims: strided in GM, extent > 1; the index sub-block starts after them.
    auto is_row = [&](int j) {
      const auto u = static_cast<std::size_t>(j);
      return t.repeats.at(u) != Expr(1) && t.strides.at(u) != Expr(0);
    };
    int j0 = k_;
    for (int j = k_; j <= last; ++j) {
      if (is_row(j)) j0 = j + 1;
    }
    Line("LocalTensor<" + ty + "> " + Var(i) + " = " + q.Name() + ".AllocTensor<" + ty + ">();");
    Line("{");
    ++in_;
    Line("LocalTensor<" + ty + "> grow = " + Buf(Placed(i).gather_row).Name() + ".Get<" + ty +
         ">();");
    Line("LocalTensor<uint32_t> groff = " + Buf(Placed(i).gather_row_offsets).Name() +
         ".Get<uint32_t>();");
    Line("const int64_t base = " + GmBase(n) + ";");
    Line("const int64_t gext = " + ctx_.Cpp(*gext) + ";");
    Line("const int64_t esz = static_cast<int64_t>(sizeof(" + ty + "));");
    Line("const uint32_t cnt = static_cast<uint32_t>(" +
         (j0 > last ? std::string("1")
                    : "(" +
                          (j0 == last ? "af_align(" + Ext(t, last, true) + ", RA)"
                                      : "(" + Ext(t, j0, true) + ") * " + UbStride(t, j0)) +
                          ")") +
         ");");
    // The offsets, in the sub-block's layout order (the previous block's Gather has read them).
    Line("SetFlag<HardEvent::V_S>(0);");
    Line("WaitFlag<HardEvent::V_S>(0);");
    Line("uint32_t gp = 0;");
    std::string pos = "0";
    std::string valid = "true";
    for (int j = j0; j <= last; ++j) {
      const std::string J = std::to_string(j);
      const std::string full =
          j == last ? "af_align(" + Ext(t, j, true) + ", RA)" : "(" + Ext(t, j, true) + ")";
      Line("for (int64_t c" + J + " = 0; c" + J + " < " + full + "; ++c" + J + ") {");
      ++in_;
      valid += " && c" + J + " < " + Ext(t, j, false);
      if (it.repeats.at(static_cast<std::size_t>(j)) != Expr(1))
        pos += " + c" + J + " * (" + UbStride(it, j) + ")";
    }
    Line("uint32_t o = 0;");
    Line("if (" + valid + ") {");
    ++in_;
    Line("int64_t gi = static_cast<int64_t>(" + Var(idx) + ".GetValue(static_cast<uint32_t>(" +
         pos + ")));");
    if (ir::NegativeIndexSupport(n)) Line("if (gi < 0) gi += gext;");
    Line("if (gi < 0 || gi >= gext) Trap();  // index out of range");
    Line("o = static_cast<uint32_t>(gi * esz);");
    --in_;
    Line("}");
    Line("groff.SetValue(gp++, o);");
    for (int j = j0; j <= last; ++j) {
      --in_;
      Line("}");
    }
    Line("(void)gp;");
    Line("SetFlag<HardEvent::S_V>(0);");
    Line("WaitFlag<HardEvent::S_V>(0);");
    // Per params row: the row into UB, then the Gather of the sub-block.
    std::string gm_off = "base";
    std::string ub_off = "0";
    int loops = 0;
    for (int j = k_; j < j0; ++j) {
      if (!is_row(j)) continue;
      const std::string J = std::to_string(j);
      Line("for (int64_t r" + J + " = 0; r" + J + " < " + Ext(t, j, false) + "; ++r" + J + ") {");
      ++in_;
      ++loops;
      gm_off += " + r" + J + " * (" + ctx_.Cpp(t.strides.at(static_cast<std::size_t>(j))) + ")";
      ub_off += " + r" + J + " * (" + UbStride(t, j) + ")";
    }
    Line("SetFlag<HardEvent::V_MTE2>(0);");
    Line("WaitFlag<HardEvent::V_MTE2>(0);");
    Line("DataCopyExtParams prm(1, static_cast<uint32_t>(gext * esz), 0, 0, 0);");
    Line("DataCopyPad(grow, g" + std::to_string(params) + "[static_cast<uint64_t>(" + gm_off +
         ")], prm, DataCopyPadExtParams<" + ty + ">(false, 0, 0, " + ty + "(0)));");
    Line("SetFlag<HardEvent::MTE2_V>(0);");
    Line("WaitFlag<HardEvent::MTE2_V>(0);");
    Line("Gather(" + Var(i) + "[static_cast<uint32_t>(" + ub_off + ")], grow, groff, 0u, cnt);");
    for (int l = 0; l < loops; ++l) {
      --in_;
      Line("}");
    }
    Line("PipeBarrier<PIPE_V>();");
    --in_;
    Line("}");
    Line(q.Name() + ".EnQue(" + Var(i) + ");");
    Line(Var(i) + " = " + q.Name() + ".DeQue<" + ty + ">();");
    FreeDeadInputs(i);
  }

  // A strided load: the block in GM order into its staging queue (one DataCopyPad per group of
  // rows: runs along the contiguous dim, or single elements, consecutive rows one innermost
  // stride apart in GM), then a Gather into loop order in its TBuf.
  void EmitGatheredLoad(int i, const std::string& gm, const std::string& ty) {
    const Node& n = s_.graph.nodes[i];
    const ir::Tensor& t = n.outputs.at(0);
    const auto& q = Buf(Placed(i).gather_queue);
    const std::optional<int> run = GatherRunDim(i);
    const int last = n_dims_ - 1;
    Alloc(i, ty);
    Line("{");
    ++in_;
    Line("LocalTensor<" + ty + "> st = " + q.Name() + ".AllocTensor<" + ty + ">();");
    Line("const int64_t base = " + GmBase(n) + ";");
    Line("const int64_t esz = static_cast<int64_t>(sizeof(" + ty + "));");
    // Loops over the block dims but the run dim and the innermost (the DataCopyPad's rows).
    std::vector<std::string> coord;
    std::string gm_off = "base";
    for (int j = k_; j <= last; ++j) {
      const std::string J = std::to_string(j);
      if (j == run || j == last) {
        coord.emplace_back("0");  // the group's first row, at the start of the run
        continue;
      }
      Line("for (int64_t r" + J + " = 0; r" + J + " < " + Ext(t, j, false) + "; ++r" + J + ") {");
      ++in_;
      coord.push_back("r" + J);
      gm_off += " + r" + J + " * (" + ctx_.Cpp(t.strides.at(static_cast<std::size_t>(j))) + ")";
    }
    const std::string len = run ? Ext(t, *run, false) : std::string("1");  // elements per row
    Line("const int64_t len = " + len + ";");
    Line("const int64_t rows = " + Ext(t, last, false) + ";");
    Line("const int64_t pitch_gm = " + ctx_.Cpp(t.strides.back()) + ";");
    Line("const int64_t pitch_ub = " +
         (run ? "af_align(" + Ext(t, *run, true) + ", RA)"
              : std::to_string(32 / ir::DTypeBytes(t.dtype))) +
         ";");
    Line("const int64_t gap_gm = (pitch_gm - len) * esz;");
    Line("const int64_t gap_ub = (pitch_ub * esz - af_align(len * esz, 32)) / 32;");
    // The staging index of the group's first row.
    Line("const int64_t s0 = " + GatherStagingIndex(i, coord) + ";");
    EmitRowGroupCopy(gm, gm_off, "st", "s0", true, ty);
    for (int j = k_; j < last; ++j) {
      if (j == run) continue;
      --in_;
      Line("}");
    }
    Line(q.Name() + ".EnQue(st);");
    Line("st = " + q.Name() + ".DeQue<" + ty + ">();");
    Line("Gather(" + Var(i) + ", st, goff" + std::to_string(i) + ", 0u, static_cast<uint32_t>(" +
         Count(t) + "));");
    Line(q.Name() + ".FreeTensor(st);");
    --in_;
    Line("}");
    Line("PipeBarrier<PIPE_V>();");
  }

  // Allocates or fetches the UB tensor of node i's output.
  void Alloc(int i, const std::string& ty) {
    const auto& buf = Buf(Own(i));
    if (buf.kind == BufKind::kTBuf) {
      Line("LocalTensor<" + ty + "> " + Var(i) + " = " + buf.Name() + ".Get<" + ty + ">();");
    } else {
      Line("LocalTensor<" + ty + "> " + Var(i) + " = " + buf.Name() + ".AllocTensor<" + ty +
           ">();");
    }
  }

  void FreeDeadInputs(int i) {
    const auto& n = s_.graph.nodes[i];
    std::vector<int> seen;
    for (const auto& in : n.inputs) {
      const int p = in.node;
      if (std::find(seen.begin(), seen.end(), p) != seen.end()) continue;  // x * x frees once
      seen.push_back(p);
      if (free_at_[p] != i) continue;
      if (const schedule::Buffer* q = InQueue(p)) Line(q->Name() + ".FreeTensor(" + Var(p) + ");");
    }
  }

  void EmitNode(int i) {
    const Node& n = s_.graph.nodes[i];
    const ir::Tensor& t = n.outputs.empty() ? ir::Tensor{} : n.outputs[0];
    const std::string ty = CType(t.dtype);
    Line("// [" + std::to_string(i) + "] " + SafeComment(n.name) + " : " + SafeComment(n.type));
    if (n.type == "Data" || n.type == "Output") return;
    if (const ir::OpDef* def = ir::FindOp(n.type);
        def != nullptr && !def->codegen_refusal.empty()) {
      throw CodegenError(def->codegen_refusal, "codegen has no AscendC lowering for op " +
                                                   SafeComment(n.type) + " (node '" +
                                                   SafeComment(n.name) + "')");
    }
    if (n.type == "Scalar") {
      Alloc(i, ty);
      Line("Duplicate(" + Var(i) + ", " + ScalarOf(ty, NumberLiteral(n)) +
           ", static_cast<int32_t>(" + FullCount() + "));");
      Line("PipeBarrier<PIPE_V>();");
      return;
    }
    if (n.type == "Gather") {
      if (ir::GatherInnermost(n)) {
        EmitGatherInnermost(i, ty);
      } else {
        EmitGatherRows(i, ty);
      }
      return;
    }
    if (n.type == "Load") {
      const int data = n.inputs.at(0).node;
      if (Placed(i).gather_queue) {
        EmitGatheredLoad(i, "g" + std::to_string(data), ty);
        return;
      }
      if (Placed(i).staged) {
        const auto& q = Buf(s_.work.staging_queue);
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
      const auto& q = Buf(Own(i));
      Line("LocalTensor<" + ty + "> " + Var(i) + " = " + q.Name() + ".AllocTensor<" + ty + ">();");
      EmitCopy(n, "g" + std::to_string(data), Var(i), true, ty);
      Line(q.Name() + ".EnQue(" + Var(i) + ");");
      Line(Var(i) + " = " + q.Name() + ".DeQue<" + ty + ">();");
      return;
    }
    if (n.type == "Store") {
      const int p = n.inputs.at(0).node;
      const int out = ctx_.store_output.at(i);
      const auto& q = Buf(Placed(i).store_queue);
      const std::string pty = CType(s_.graph.nodes[p].outputs[0].dtype);
      Line("{");
      ++in_;
      if (Own(p) == Placed(i).store_queue) {
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
    if (IsReduceNode(n)) {
      EmitReduce(i);
      FreeDeadInputs(i);
      return;
    }
    if (Inlined(i)) {
      Line("// inlined into its consumers (brc_inline)");
      return;
    }
    for (std::size_t slot = 0; slot < n.inputs.size() && n.inputs.size() == 2; ++slot) {
      if (Inlined(n.inputs[slot].node)) {
        EmitInlineBinary(i, static_cast<int>(slot));
        return;
      }
    }
    if (n.type == "Broadcast") {
      EmitBroadcast(i, ty);
      FreeDeadInputs(i);
      return;
    }
    if (n.type == "Concat") {
      EmitConcat(i, ty);
      FreeDeadInputs(i);
      return;
    }
    if (n.type == "Pad" || n.type == "RemovePad") {
      EmitBoxCopy(i, ty);
      FreeDeadInputs(i);
      return;
    }
    Alloc(i, ty);
    const std::string cnt = "static_cast<int32_t>(" + Count(t) + ")";
    auto in = [&](std::size_t s) { return Var(n.inputs.at(s).node); };
    if (const auto calls = ir::MathLowering(ir::FindOp(n.type)->code)) {
      EmitMathCalls(i, *calls, ty, cnt);
    } else if (n.type == "Cast") {
      const ir::DType from = s_.graph.nodes[n.inputs[0].node].outputs[0].dtype;
      // bool is stored as uint8 (0/1): bool -> uint8 is a copy (found by the soak; uint8 -> bool
      // became x != 0 in normalize's split_casts).
      const bool same_storage =
          from == t.dtype || (from == ir::DType::kBool && t.dtype == ir::DType::kUInt8);
      if (same_storage) {
        Line("DataCopy(" + Var(i) + ", " + in(0) + ", static_cast<uint32_t>(" + Count(t) + "));");
      } else {
        Line("Cast(" + Var(i) + ", " + in(0) + ", " + RoundModeFor(from, t.dtype) + ", " + cnt +
             ");");
      }
    } else if (n.type == "Neg") {
      Line("Muls(" + Var(i) + ", " + in(0) + ", " + ScalarOf(ty, "-1") + ", " + cnt + ");");
    } else if (UnaryApis().contains(n.type)) {
      if (n.type == "Sign" && !ir::IsFloat(t.dtype)) {
        // AscendC Sign is an advanced API for half and float only (found by the soak).
        throw CodegenError("UNSUPPORTED_DTYPE", "AscendC Sign has no " +
                                                    std::string(ir::DTypeName(t.dtype)) +
                                                    " form (node '" + SafeComment(n.name) + "')");
      }
      Line(UnaryApis().at(n.type) + "(" + Var(i) + ", " + in(0) + ", " + cnt + ");");
    } else if (BinaryApis().contains(n.type)) {
      Line(BinaryApis().at(n.type) + "(" + Var(i) + ", " + in(0) + ", " + in(1) + ", " + cnt +
           ");");
    } else if (CompareModes().contains(n.type) || n.type == "Where" || n.type == "Select" ||
               n.type == "MaskedFill") {
      EmitCompareOrSelect(i, ty);
    } else {
      throw CodegenError("UNSUPPORTED_OP", "codegen has no AscendC lowering for op " +
                                               SafeComment(n.type) + " (node '" +
                                               SafeComment(n.name) + "') yet");
    }
    Line("PipeBarrier<PIPE_V>();");
    FreeDeadInputs(i);
  }

  // The calls of a math-set op (ir/math_lowering.h), over the node's block: tensor operands are
  // the node's inputs, its result (in place) or the math work tensor.
  void EmitMathCalls(int i, const std::vector<ir::ApiCall>& calls, const std::string& ty,
                     const std::string& cnt) {
    const Node& n = s_.graph.nodes[i];
    const ir::DType in0 = s_.graph.nodes[n.inputs.at(0).node].outputs.at(0).dtype;
    if ((n.type == "Remainder" || n.type == "Mod") && !ir::IsFloat(in0)) {
      throw CodegenError("UNSUPPORTED_DTYPE", "'" + SafeComment(n.name) +
                                                  "': " + SafeComment(n.type) +
                                                  " lowers through Div and Floor (half or float)");
    }
    const bool tmp = ir::MathNeedsTmp(ir::FindOp(n.type)->code);
    if (tmp) {
      Line("{");
      ++in_;
      Line("LocalTensor<" + ty + "> mtmp = " + Buf(s_.work.math_tmp).Name() + ".Get<" + ty +
           ">();");
      bool bytes = false;
      for (const auto& c : calls)
        bytes = bytes || c.tmp_bytes;
      if (bytes) Line("LocalTensor<uint8_t> mtmp8 = mtmp.ReinterpretCast<uint8_t>();");
    }
    // The integer views of ty's width (ApiCall::as_unsigned / count_last): "int32_t" gives
    // "uint32_t" and "int32_t".
    const bool uty_named = ty.starts_with("uint");
    const std::string uty = uty_named ? ty : "u" + ty;
    const std::string sty = uty_named ? ty.substr(1) : ty;
    auto operand = [&](int k, const std::string& view) {
      const std::string v = k == ir::kCallDst ? Var(i)
                            : k == ir::kCallTmp
                                ? std::string("mtmp")
                                : Var(n.inputs.at(static_cast<std::size_t>(k)).node);
      return view.empty() ? v : v + ".ReinterpretCast<" + view + ">()";
    };
    for (std::size_t k = 0; k < calls.size(); ++k) {
      const ir::ApiCall& c = calls[k];
      const std::string view = c.bool_dst ? "bool" : c.as_unsigned ? uty : "";
      std::string args = operand(c.dst, view);
      for (std::size_t j = 0; j < c.srcs.size(); ++j) {
        const bool count = c.count_last && j + 1 == c.srcs.size();
        const std::string src_view = count ? sty : c.bool_srcs ? "bool" : c.as_unsigned ? uty : "";
        args += ", " + operand(c.srcs[j], src_view);
      }
      if (c.tmp_bytes) args += ", mtmp8";
      if (!c.round_mode.empty()) args += ", RoundMode::" + c.round_mode;
      if (c.scalar == "bits-1") {
        const int bits = 8 * ir::DTypeBytes(n.outputs.at(0).dtype);
        args += ", " + ScalarOf(c.as_unsigned ? uty : ty, std::to_string(bits - 1));
      } else if (!c.scalar.empty()) {
        const std::string scalar_ty = !c.scalar_ctype.empty() ? c.scalar_ctype
                                      : c.as_unsigned         ? uty
                                                              : ty;
        args += ", " + ScalarOf(scalar_ty, MathScalar(n, c.scalar));
      }
      const std::string count =
          c.api == "DataCopy" ? "static_cast<uint32_t>(" + Count(n.outputs.at(0)) + ")" : cnt;
      const std::string api =
          c.degree_template ? c.api + "<" + ty + ", " + std::to_string(MathDegree(n)) + ">" : c.api;
      Line(api + "(" + args + ", " + count + ");");
      if (k + 1 < calls.size()) Line("PipeBarrier<PIPE_V>();");
    }
    if (tmp) {
      --in_;
      Line("}");
    }
  }

  // An orthogonal polynomial's degree (its attr `n`, an integer).
  static std::int64_t MathDegree(const Node& n) {
    const auto d = ir::PolynomialDegree(n);
    if (!d) {
      throw CodegenError("BAD_ATTR", "'" + SafeComment(n.name) +
                                         "': attribute 'n' (the degree) is missing or not an "
                                         "integer");
    }
    return *d;
  }

  // A scalar operand of a math call: a number, or a numeric attribute of the node.
  static std::string MathScalar(const Node& n, const std::string& s) {
    if (s == "attr:n" && ir::IsPolynomialOp(ir::FindOp(n.type)->code)) {
      return "(" + std::to_string(MathDegree(n)) + ")";
    }
    if (s.rfind("attr:", 0) != 0) return "(" + s + ")";
    const std::string key = s.substr(5);
    const ir::AttrValue* v = n.FindAttr(key);
    double d = 0;
    if (const auto* f = v == nullptr ? nullptr : std::get_if<double>(v)) {
      d = *f;
    } else if (const auto* iv = v == nullptr ? nullptr : std::get_if<std::int64_t>(v)) {
      d = static_cast<double>(*iv);
    } else if (const auto* str = v == nullptr ? nullptr : std::get_if<std::string>(v)) {
      char* end = nullptr;
      d = std::strtod(str->c_str(), &end);
      if (end == str->c_str() || *end != '\0') v = nullptr;
    } else {
      v = nullptr;
    }
    if (v == nullptr || d != d) {
      throw CodegenError("BAD_ATTR", "'" + SafeComment(n.name) + "': attribute '" +
                                         SafeComment(key) + "' is missing or not a number");
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "(%.17g)", d);
    return buf;
  }

  // Comparisons (bool out) and Where/Select. AscendC Compare writes a bit mask and Select reads
  // one, both over whole 256-byte repeats, so counts round up to 128 elements (the buffers are
  // sized to 512-byte multiples for this, ScheduleResult::vec_align_bytes). A bool result is
  // Select(1, 0) through fp16, cast to uint8; a bool condition is cast to fp16 and compared with 0.
  void EmitCompareOrSelect(int i, const std::string& ty) {
    const Node& n = s_.graph.nodes[i];
    const ir::Tensor& t = n.outputs.at(0);
    const auto& mask = Buf(s_.work.cmp_mask);
    const auto& hbuf = Buf(s_.work.cmp_half);
    // MaskedFill(x, mask, value) is Where(mask, value, x).
    const bool fill = n.type == "MaskedFill";
    auto slot = [fill](std::size_t k) -> std::size_t { return fill ? (k + 1) % 3 : k; };
    auto in = [&](std::size_t k) { return Var(n.inputs.at(slot(k)).node); };
    auto in_type = [&](std::size_t k) {
      return s_.graph.nodes[n.inputs.at(slot(k)).node].outputs.at(0).dtype;
    };
    Line("{");
    ++in_;
    Line("const uint32_t ncmp = static_cast<uint32_t>(af_align(" + Count(t) + ", 128));");
    Line("LocalTensor<uint8_t> cmask = " + mask.Name() + ".Get<uint8_t>();");
    Line("LocalTensor<half> chalf = " + hbuf.Name() + ".Get<half>();");
    if (CompareModes().contains(n.type)) {
      const ir::DType a = in_type(0);
      if (a != ir::DType::kFloat32 && a != ir::DType::kFloat16) {
        throw CodegenError("UNSUPPORTED_DTYPE", "comparison '" + SafeComment(n.name) + "' on " +
                                                    std::string(ir::DTypeName(a)) +
                                                    ": AscendC Compare takes half or float");
      }
      Line("Compare(cmask, " + in(0) + ", " + in(1) + ", " + CompareModes().at(n.type) +
           ", ncmp);");
      Line("PipeBarrier<PIPE_V>();");
      Line("Duplicate(chalf, half(1.0f), static_cast<int32_t>(ncmp));");
      Line("PipeBarrier<PIPE_V>();");
      Line("Select(chalf, cmask, chalf, half(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, ncmp);");
      Line("PipeBarrier<PIPE_V>();");
      Line("Cast(" + Var(i) + ", chalf, RoundMode::CAST_NONE, static_cast<int32_t>(ncmp));");
    } else {  // Where / Select (cond, a, b)
      const ir::DType c = in_type(0);
      if ((c != ir::DType::kBool && c != ir::DType::kUInt8) ||
          (t.dtype != ir::DType::kFloat32 && t.dtype != ir::DType::kFloat16)) {
        throw CodegenError("UNSUPPORTED_DTYPE", "'" + SafeComment(n.name) +
                                                    "': Select takes a bool condition and "
                                                    "half or float values");
      }
      Line("Cast(chalf, " + in(0) + ", RoundMode::CAST_NONE, static_cast<int32_t>(ncmp));");
      Line("PipeBarrier<PIPE_V>();");
      Line("Compares(cmask, chalf, half(0.0f), CMPMODE::NE, ncmp);");
      Line("PipeBarrier<PIPE_V>();");
      Line("Select(" + Var(i) + ", cmask, " + in(1) + ", " + in(2) +
           ", SELMODE::VSEL_TENSOR_TENSOR_MODE, ncmp);");
      (void)ty;
    }
    --in_;
    Line("}");
  }

  // Broadcast in UB: for every row of the output block, copy the matching source row, or
  // duplicate the source element when the innermost dim is broadcast.
  void EmitBroadcast(int i, const std::string& ty) {
    const Node& n = s_.graph.nodes[i];
    const ir::Tensor& out = n.outputs.at(0);
    const ir::Tensor& src = s_.graph.nodes[n.inputs.at(0).node].outputs.at(0);
    Alloc(i, ty);
    const int last = n_dims_ - 1;
    // Compact output (unaligned): expand into the padded scratch block, then Gather the valid
    // elements of each row (RemovePad).
    const bool compact = IsCompact(out);
    std::string target = Var(i);
    if (compact) {
      const auto& scr = Buf(s_.work.unaligned_scratch);
      Line("LocalTensor<" + ty + "> uscr" + std::to_string(i) + " = " + scr.Name() + ".Get<" + ty +
           ">();");
      target = "uscr" + std::to_string(i);
    }
    Line("{");
    ++in_;
    std::string so = "0";
    std::string doff = "0";
    for (int j = k_; j < last; ++j) {
      const std::string J = std::to_string(j);
      Line("for (int64_t r" + J + " = 0; r" + J + " < " + Ext(out, j, false) + "; ++r" + J + ") {");
      ++in_;
      doff += " + r" + J + " * (" + UbStride(out, j, true) + ")";
      if (Ext(src, j, false) != "1") so += " + r" + J + " * (" + UbStride(src, j) + ")";
    }
    const std::string len = Ext(out, last, false);
    const std::string dst = target + "[static_cast<uint32_t>(" + doff + ")]";
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
    if (compact) {
      std::string n_valid = "a" + std::to_string(k_);
      for (int m = k_ + 1; m < n_dims_; ++m)
        n_valid += " * D" + std::to_string(m);
      Line("Gather(" + Var(i) + ", " + target + ", uoff, 0u, static_cast<uint32_t>(" + n_valid +
           "));");
      Line("PipeBarrier<PIPE_V>();");
    }
  }

  const Context& ctx_;
  const schedule::ScheduleResult& s_;
  const schedule::ImplCase& c_;
  LoopNest nest_;                        // the case's loops, from its impl graph
  std::vector<std::optional<int>> own_;  // per node: its result's buffer, from the impl graph
  int k_;  // the tile dim; the dims k_ .. n_dims_ - 1 are inside the tile (nest_.inner)
  int n_dims_;
  int in_ = 0;
  bool in_r_loop_ = false;
  std::string first_cond_ = "ri == 0";  // the first R iteration of the current sweep
  std::vector<int> free_at_;  // per node: the consumer after which its VECIN tensor is freed
  std::ostringstream o_;
};

}  // namespace

namespace {

// inductor_npu_ext's launch entry: AutofuseLaunch(block_dim, stream, <GM buffers in parameter
// order>, workspace, tiling_data). On the CPU runtime it runs the kernel through af_cpu::Launch
// with each GM buffer's size computed from the sizes in the tiling data.
std::string NpuExtLaunch(const Context& ctx) {
  const auto& g = ctx.s.graph;
  std::ostringstream o;
  o << "// inductor_npu_ext's entry point (the wrapper's AutofuseLaunch), on the CPU runtime.\n";
  o << "extern \"C\" AF_EXPORT int64_t AutofuseLaunch(uint32_t block_dim, void* stream";
  for (std::size_t i = 0; i < ctx.params.size(); ++i)
    o << ", void* p" << i;
  o << ", void* workspace, AutofuseTilingData* tiling_data) {\n";
  o << "  (void)stream;  // the CPU runtime runs the kernel synchronously\n";
  o << "  if (tiling_data == nullptr) return AF_STATUS_BAD_ARGS;\n";
  for (std::size_t i = 0; i < ctx.symbols.size(); ++i) {
    o << "  const int64_t s" << i << " = tiling_data->" << ctx.SymField(i) << ";\n";
    o << "  (void)s" << i << ";\n";
  }
  o << "  uint8_t* gm[" << std::max<std::size_t>(1, ctx.params.size()) << "] = {";
  for (std::size_t i = 0; i < ctx.params.size(); ++i)
    o << (i != 0u ? ", " : "") << "static_cast<uint8_t*>(p" << i << ")";
  if (ctx.params.empty()) o << "nullptr";
  o << "};\n";
  o << "  const uint64_t gm_sizes[" << std::max<std::size_t>(1, ctx.params.size()) << "] = {";
  for (std::size_t i = 0; i < ctx.params.size(); ++i) {
    const ir::Tensor& t = g.nodes[ctx.params[i]].outputs.at(0);
    Expr numel(1);
    for (const auto& r : t.repeats)
      numel = numel * r;
    o << (i != 0u ? ", " : "") << "static_cast<uint64_t>(" << ctx.Cpp(numel) << ") * sizeof("
      << CType(t.dtype) << ")";
  }
  if (ctx.params.empty()) o << "0";
  o << "};\n";
  o << "  return af_cpu::LaunchNpuExt(" << ctx.kernel << ", \"" << ctx.kernel
    << "\", block_dim, gm, gm_sizes, " << ctx.params.size()
    << "u, static_cast<uint8_t*>(workspace), static_cast<uint64_t>(tiling_data->workspace_bytes), "
       "reinterpret_cast<uint8_t*>(tiling_data), sizeof(AutofuseTilingData), "
       "static_cast<uint64_t>(tiling_data->ub_bytes));\n}\n";
  return o.str();
}

}  // namespace

bool KernelSyncsAllCores(const Context& ctx) {
  return std::any_of(ctx.s.cases.begin(), ctx.s.cases.end(),
                     [](const auto& c) { return KernelWriter::SyncsAllCores(c.kind); });
}

bool CaseSyncsAllCores(const schedule::ImplCase& c) {
  return schedule::SyncsAllCores(c.kind);
}

std::string KernelCaseFunctions(const Context& ctx) {
  std::string out;
  for (std::size_t c = 0; c < ctx.s.cases.size(); ++c)
    out += KernelWriter(ctx, static_cast<int>(c)).Write("case" + std::to_string(c));
  return out;
}

std::string KernelSource(const Context& ctx) {
  // A kernel whose template synchronises all cores through the GM workspace (r_core's hard
  // SyncAll) must be of the mixed type: CANN documents hard sync under KERNEL_TYPE_MIX_AIV_1_0.
  const bool mixed = KernelSyncsAllCores(ctx);
  std::ostringstream o;
  o << "// Generated by autofuse: AscendC kernel " << ctx.kernel << ".\n";
  o << "#include \"kernel_operator.h\"\n";
  o << "#include \"" << ctx.kernel << "_tiling_data.h\"\n\n";
  o << "using namespace AscendC;\n\n";
  o << "KERNEL_TASK_TYPE_DEFAULT(" << (mixed ? "KERNEL_TYPE_MIX_AIV_1_0" : "KERNEL_TYPE_AIV_ONLY")
    << ");\n\n";
  for (std::size_t c = 0; c < ctx.s.cases.size(); ++c) {
    o << KernelWriter(ctx, static_cast<int>(c)).Write("case" + std::to_string(c));
  }
  o << "extern \"C\" __global__ __aicore__ void " << ctx.kernel << "(" << ctx.ParamList()
    << ", GM_ADDR workspace, GM_ADDR tiling) {\n";
  o << "  REGISTER_TILING_DEFAULT(AutofuseTilingData);\n";
  o << "  GET_TILING_DATA(t, tiling);\n";
  for (std::size_t c = 0; c < ctx.s.cases.size(); ++c) {
    o << "  " << (c != 0u ? "} else if" : "if") << " (TILING_KEY_IS(" << c << ")) {\n";
    o << "    case" << c << "(" << ctx.ArgList() << ", workspace, &t);\n";
  }
  o << "  }\n}\n\n";
  // The CPU runtime's entry points; CANN's compiler never sees them.
  o << "#if defined(AF_CPU_RUNTIME)\n";
  o << "AF_DEFINE_LAUNCH(" << ctx.kernel << ")\n\n";
  o << NpuExtLaunch(ctx);
  o << "#endif\n";
  return o.str();
}

}  // namespace af::codegen
