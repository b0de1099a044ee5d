// Case parameters, solving and case choice for elementwise/broadcast schedules.
#include "autofuse/att/tiling.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "autofuse/ir/data_movement.h"
#include "autofuse/ir/math_lowering.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/support/error.h"

namespace af::att {

using schedule::ScheduleResult;

std::vector<std::string> KernelSymbols(const ScheduleResult& s) {
  std::set<std::string> used;
  for (const auto& a : s.graph.axes) {
    for (const auto& v : a.size.FreeSymbols())
      used.insert(v);
  }
  for (const auto& n : s.graph.nodes) {
    for (const auto& t : n.outputs) {
      for (const auto& e : t.repeats) {
        for (const auto& v : e.FreeSymbols())
          used.insert(v);
      }
      for (const auto& e : t.strides) {
        for (const auto& v : e.FreeSymbols())
          used.insert(v);
      }
    }
    if (const auto* off = n.FindAttr("offset")) {
      if (const auto* e = std::get_if<sym::Expr>(off)) {
        for (const auto& v : e->FreeSymbols())
          used.insert(v);
      }
    }
  }
  std::vector<std::string> out;
  for (const auto& v : s.graph.size_vars) {
    if (used.erase(v.name) != 0) out.push_back(v.name);
  }
  out.insert(out.end(), used.begin(), used.end());
  return out;
}

namespace {

using af_tiling::PerfNode;

int32_t ApiOf(const std::string& type) {
  static const std::map<std::string, int32_t> m = {
      {"Abs", af_tiling::kApiAbs},
      {"Neg", af_tiling::kApiMuls},
      {"Exp", af_tiling::kApiExp},
      {"Ln", af_tiling::kApiLn},
      {"Sqrt", af_tiling::kApiSqrt},
      {"Rsqrt", af_tiling::kApiRsqrt},
      {"Reciprocal", af_tiling::kApiReciprocal},
      {"Relu", af_tiling::kApiRelu},
      {"Sigmoid", af_tiling::kApiSigmoid},
      {"Tanh", af_tiling::kApiTanh},
      {"Erf", af_tiling::kApiErf},
      {"Sign", af_tiling::kApiSign},
      {"Add", af_tiling::kApiAdd},
      {"Sub", af_tiling::kApiSub},
      {"Mul", af_tiling::kApiMul},
      {"Div", af_tiling::kApiDiv},
      {"TrueDiv", af_tiling::kApiDiv},
      {"Maximum", af_tiling::kApiMax},
      {"Minimum", af_tiling::kApiMin},
      {"Pow", af_tiling::kApiPower},
      {"LogicalNot", af_tiling::kApiCompare},
      {"LogicalAnd", af_tiling::kApiMin},
      {"LogicalOr", af_tiling::kApiMax},
      {"Scalar", af_tiling::kApiDuplicate},
      {"Sum", af_tiling::kApiReduceSum},
      {"Mean", af_tiling::kApiReduceSum},
      {"Max", af_tiling::kApiReduceMax},
      {"ArgMax", af_tiling::kApiReduceMax},
      {"Min", af_tiling::kApiReduceMin},
      {"Prod", af_tiling::kApiReduceProd},
      {"Any", af_tiling::kApiReduceMax},
      {"All", af_tiling::kApiReduceMin},
  };
  const auto it = m.find(type);
  return it == m.end() ? af_tiling::kApiNone : it->second;
}

int32_t AccumulateApi(const std::string& type) {
  if (type == "Max" || type == "Any") return af_tiling::kApiMax;
  if (type == "Min" || type == "All") return af_tiling::kApiMin;
  if (type == "Prod") return af_tiling::kApiMul;
  return af_tiling::kApiAdd;
}

int32_t CastApi(ir::DType from, ir::DType to) {
  const bool f_half = from == ir::DType::kFloat16 || from == ir::DType::kBFloat16;
  const bool t_half = to == ir::DType::kFloat16 || to == ir::DType::kBFloat16;
  if (f_half && to == ir::DType::kFloat32) return af_tiling::kApiCastF16F32;
  if (from == ir::DType::kFloat32 && t_half) return af_tiling::kApiCastF32F16;
  return af_tiling::kApiCastOther;
}

std::optional<std::vector<ir::ApiCall>> MathCalls(const ir::Node& n) {
  const ir::OpDef* op = ir::FindOp(n.type);
  return op == nullptr ? std::nullopt : ir::MathLowering(op->code);
}

// The cost row of one call of a math lowering.
int32_t MathApi(const std::string& api) {
  static const std::map<std::string, int32_t> m = {{"Muls", af_tiling::kApiMuls},
                                                   {"Adds", af_tiling::kApiAdds},
                                                   {"Exp", af_tiling::kApiExp},
                                                   {"Ln", af_tiling::kApiLn},
                                                   {"Mul", af_tiling::kApiMul},
                                                   {"Add", af_tiling::kApiAdd},
                                                   {"Sub", af_tiling::kApiSub},
                                                   {"Div", af_tiling::kApiDiv},
                                                   {"Max", af_tiling::kApiMax},
                                                   {"Min", af_tiling::kApiMin},
                                                   {"DataCopy", af_tiling::kApiCopy},
                                                   {"Cast", af_tiling::kApiCastOther},
                                                   {"LeakyRelu", af_tiling::kApiLeakyRelu},
                                                   {"Floor", af_tiling::kApiRounding},
                                                   {"Ceil", af_tiling::kApiRounding},
                                                   {"Round", af_tiling::kApiRounding},
                                                   {"Trunc", af_tiling::kApiRounding},
                                                   {"BitwiseAnd", af_tiling::kApiBitwise},
                                                   {"BitwiseOr", af_tiling::kApiBitwise},
                                                   {"BitwiseXor", af_tiling::kApiBitwise},
                                                   {"BitwiseNot", af_tiling::kApiBitwise},
                                                   {"IsNan", af_tiling::kApiClassify},
                                                   {"IsInf", af_tiling::kApiClassify},
                                                   {"IsFinite", af_tiling::kApiClassify},
                                                   {"LogicalXor", af_tiling::kApiClassify},
                                                   {"LogicalAnd", af_tiling::kApiClassify},
                                                   {"LogicalOr", af_tiling::kApiClassify},
                                                   {"LogicalNot", af_tiling::kApiClassify},
                                                   // Bit-pattern ops (assumption: priced as the
                                                   // bitwise / classify rows; Atan2Extend falls to
                                                   // kApiAdvMath like Atan).
                                                   {"CopySignExtend", af_tiling::kApiBitwise},
                                                   {"SignBitExtend", af_tiling::kApiClassify},
                                                   // Assumption: the incomplete gamma, zeta and
                                                   // Airy kernels priced as one adv_api math call
                                                   // like the Bessel ones; no public cost table
                                                   // has them (their series run longer).
                                                   {"IgammaExtend", af_tiling::kApiAdvMath},
                                                   {"IgammacExtend", af_tiling::kApiAdvMath},
                                                   {"ZetaExtend", af_tiling::kApiAdvMath},
                                                   {"AiryAiExtend", af_tiling::kApiAdvMath},
                                                   // LShift / RShift's count fix-up and shifts
                                                   // (assumption: a shift is priced as a bitwise
                                                   // row).
                                                   {"Mins", af_tiling::kApiMins},
                                                   {"ShiftLeft", af_tiling::kApiBitwise},
                                                   {"ShiftRight", af_tiling::kApiBitwise}};
  // Everything else is one adv_api math call. Assumption: that includes the orthogonal
  // polynomials' Extend calls (ShiftedChebyshevPolynomialT/U/V/WExtend, LaguerrePolynomialLExtend,
  // LegendrePolynomialPExtend), whatever their degree: their recurrences cost O(n) vector steps,
  // but the model counts one repeat per call, as the CPU runtime's counters do (e2e math_poly
  // checks the two agree), and no public cost table has these kernels.
  const auto it = m.find(api);
  return it == m.end() ? af_tiling::kApiAdvMath : it->second;
}

bool IsCompare(const std::string& t) {
  return t == "Eq" || t == "Ne" || t == "Gt" || t == "Ge" || t == "Lt" || t == "Le";
}

// A GM stride as a constant times a product of the schedule's dim sizes (so the tiling function
// can evaluate it from the bound dims); {0, 0} when it has no such form.
std::pair<std::int64_t, std::uint32_t> StrideFactors(const sym::Expr& stride,
                                                     const ScheduleResult& s) {
  const std::size_t n = std::min<std::size_t>(s.dims.size(), af_tiling::kMaxDims);
  for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
    sym::Expr prod(1);
    for (std::size_t j = 0; j < n; ++j) {
      if (((mask >> j) & 1u) != 0) prod = prod * s.graph.FindAxis(s.dims[j])->size;
    }
    const sym::Expr q = sym::Div(stride, prod);
    const auto v = q.AsInt();
    if (v && *v > 0) return {*v, mask};
  }
  return {0, 0};
}

// The cost-model nodes of one case (PerfNodesFor): one method per kind of node, over a base node
// that carries the node's element size, block mask, part and when it runs.
class PerfNodeBuilder {
 public:
  PerfNodeBuilder(const ScheduleResult& s, int case_index)
      : s_(s),
        c_(s.cases.at(case_index)),
        g_(s.graph),
        last_(static_cast<int>(s.dims.size()) - 1),
        looped_(s.groups.passes > 0 &&
                (c_.kind == schedule::CaseKind::kCommon || c_.kind == schedule::CaseKind::kRCore)),
        unaligned_(c_.kind == schedule::CaseKind::kUnaligned) {}

  // `origin` (optional): per node built, the graph node it was built for (-1: none).
  std::vector<PerfNode> Build(std::vector<int>* origin = nullptr) {
    const int n = static_cast<int>(g_.nodes.size());
    CountSweeps(n);
    for (int i = 0; i < n; ++i) {
      const ir::Node& node = g_.nodes[i];
      if (node.type == "Data" || node.type == "Output" || node.type == "Workspace") continue;
      if (node.outputs.empty()) continue;
      PerfNode base;
      if (!BaseOf(i, &base)) continue;  // not computed by any sweep
      AddNode(i, base);
      if (origin != nullptr) origin->resize(out_.size(), i);
    }
    if (unaligned_ && s_.work.unaligned_offsets) {
      // The Gather offsets are written once per core by scalar code.
      PerfNode sc;
      sc.kind = af_tiling::kNodeScalar;
      sc.compact = 1;
      out_.push_back(sc);
    }
    if (origin != nullptr) origin->resize(out_.size(), -1);
    if (out_.size() > static_cast<std::size_t>(af_tiling::kMaxPerfNodes)) {
      throw InputError({}, "kernel too large for the tiling cost model (" +
                               std::to_string(out_.size()) + " API call sites, at most " +
                               std::to_string(af_tiling::kMaxPerfNodes) + ")");
    }
    return std::move(out_);
  }

 private:
  // Per node: in how many sweeps of the R loop it is computed (1 outside looped cases).
  void CountSweeps(int n) {
    sweeps_.assign(static_cast<std::size_t>(n), 1);
    if (!looped_) return;
    std::fill(sweeps_.begin(), sweeps_.end(), 0);
    const int passes = c_.kind == schedule::CaseKind::kRCore ? 1 : s_.groups.passes;
    for (int p = 0; p < passes; ++p) {
      const auto need = schedule::SweepNodes(s_, p);
      for (int i = 0; i < n; ++i) {
        if (need[i]) ++sweeps_[i];
      }
    }
  }

  // The base of node i's calls; false when no sweep computes it.
  bool BaseOf(int i, PerfNode* base) const {
    const ir::Node& node = g_.nodes[i];
    const ir::Tensor& t = node.outputs.at(0);
    const bool reduce = ir::IsReduceOp(node.type);
    base->esize = static_cast<int32_t>(ir::DTypeBytes(t.dtype));
    base->one_mask = schedule::OneMask(t);
    base->compact = unaligned_ && base->one_mask == 0 ? 1 : 0;
    base->part = schedule::NodePart(s_, i);
    if (looped_) {
      if (s_.groups.r_invariant[i] && !reduce) {
        base->when = s_.groups.avail[i] == 0 ? af_tiling::kWhenBefore : af_tiling::kWhenAfter;
      } else {
        if (sweeps_[i] == 0 && !reduce) return false;
        base->when = af_tiling::kWhenVarying;
        base->sweeps = reduce ? 1 : sweeps_[i];
      }
    }
    return true;
  }

  const ir::Tensor& InputTensor(const ir::Node& node, std::size_t k) const {
    return g_.nodes[node.inputs.at(k).node].outputs.at(node.inputs[k].output);
  }

  // r_core's partial results: one store to the workspace per share, loaded back for the merge
  // after SyncAll, at `base`'s element size.
  void WorkspaceMoves(const PerfNode& base) {
    PerfNode ws = base;
    ws.kind = af_tiling::kNodeWsStore;
    ws.when = af_tiling::kWhenVarying;
    ws.max_tile = 1;
    out_.push_back(ws);
    ws.kind = af_tiling::kNodeWsLoad;
    out_.push_back(ws);
  }

  // A call over the node's block (or one per slice from `split`).
  PerfNode* Vec(const PerfNode& base, int32_t api, int32_t esize, std::uint32_t mask,
                int32_t split = -1) {
    PerfNode x = base;
    x.kind = af_tiling::kNodeVec;
    x.api = api;
    x.esize = esize;
    x.one_mask = mask;
    x.split = split;
    if (split >= 0) x.compact = 0;
    out_.push_back(x);
    return &out_.back();
  }

  void AddNode(int i, const PerfNode& base) {
    const ir::Node& node = g_.nodes[i];
    if (node.type == "Load" || node.type == "Store" || node.type == "Gather") {
      MoveNodes(i, base);
    } else if (node.type == "Broadcast") {
      BroadcastNodes(i, base);
    } else if (node.type == "Concat") {
      ConcatNodes(i, base);
    } else if (node.type == "Pad" || node.type == "RemovePad") {
      // One UB copy of the box both blocks have (codegen's EmitBoxCopy): the smaller block.
      const ir::Tensor& small = node.type == "Pad" ? InputTensor(node, 0) : node.outputs.at(0);
      Vec(base, af_tiling::kApiCopy, base.esize, schedule::OneMask(small))->part =
          schedule::PartOf(s_, small);
    } else if (node.type == "Cast") {
      const ir::DType from = InputTensor(node, 0).dtype;
      const ir::DType to = node.outputs.at(0).dtype;
      if (from == to) {
        Vec(base, af_tiling::kApiCopy, base.esize, base.one_mask);
      } else {
        const int32_t es = std::max(base.esize, static_cast<int32_t>(ir::DTypeBytes(from)));
        Vec(base, CastApi(from, to), es, base.one_mask);
      }
    } else if (IsCompare(node.type) || node.type == "Where" || node.type == "Select" ||
               node.type == "MaskedFill") {
      CompareNodes(i, base);
    } else if (const auto calls = MathCalls(node)) {
      // One vector call per AscendC call of the op's lowering (ir/math_lowering.h).
      int32_t es = base.esize;
      for (const auto& in : node.inputs) {
        es = std::max(es, static_cast<int32_t>(
                              ir::DTypeBytes(g_.nodes[in.node].outputs.at(in.output).dtype)));
      }
      for (const auto& c : *calls)
        Vec(base, MathApi(c.api), es, base.one_mask);
    } else if (ir::IsReduceOp(node.type)) {
      ReduceNodes(i, base);
    } else {
      ElementwiseNodes(i, base);
    }
  }

  // Loads, stores and gathers. A Gather copies one params row per index into its block
  // (codegen's EmitGatherRows): a load whose rows sit wherever the indices say (priced with no GM
  // gap).
  void MoveNodes(int i, const PerfNode& base) {
    const ir::Node& node = g_.nodes[i];
    if (node.type == "Gather" && ir::GatherInnermost(node)) {
      GatherInnermostNodes(i, base);
      return;
    }
    PerfNode x = base;
    x.kind = node.type == "Store" ? af_tiling::kNodeStore : af_tiling::kNodeLoad;
    // A strided load copies its block in GM order (rows along the contiguous dim, or one
    // element per row; consecutive rows one innermost stride apart), then gathers it into
    // loop order; its offsets are written once per core.
    const schedule::NodeBuffers placed = static_cast<std::size_t>(i) < s_.placed.size()
                                             ? s_.placed[static_cast<std::size_t>(i)]
                                             : schedule::NodeBuffers{};
    const std::optional<int> gq = node.type == "Load" ? placed.gather_queue : std::optional<int>();
    if (gq) {
      x.run = schedule::BufferRun(s_.buffers[*gq], c_.tile_dim);
      const auto [cst, mask] = StrideFactors(node.outputs.at(0).strides.back(), s_);
      x.row_stride_const = cst;
      x.row_stride_mask = mask;
    }
    out_.push_back(x);
    if (gq) {
      GatherNodes(base);
      return;
    }
    // Staged loads and stores from a buffer other than their queue add a UB copy.
    const bool staged = node.type == "Load" && placed.staged;
    const bool copied = node.type == "Store" && !node.inputs.empty() &&
                        s_.placed[node.inputs[0].node].buffer != placed.store_queue;
    if (staged || copied) Vec(base, af_tiling::kApiCopy, base.esize, base.one_mask);
  }

  // An innermost-dim Gather (codegen's EmitGatherInnermost), per block: the byte offsets of the
  // index sub-block by scalar code (one element each, every block), then per params row one
  // DataCopyPad of the whole row (MTE2: a block with extent 1 along the index dims, each of its
  // elements the row: len_buffer) and one Gather over the sub-block's full-tile layout (VEC,
  // split where the sub-block starts).
  void GatherInnermostNodes(int i, const PerfNode& base) {
    const ir::Node& node = g_.nodes[i];
    const ir::Tensor& t = node.outputs.at(0);
    const ir::Tensor& it = InputTensor(node, 1);
    std::uint32_t index_dims = 0;
    int j0 = c_.tile_dim;
    for (int j = 0; j <= last_; ++j) {
      const auto u = static_cast<std::size_t>(j);
      if (it.repeats.at(u) != sym::Expr(1)) index_dims |= 1u << j;
      if (j >= c_.tile_dim && t.repeats.at(u) != sym::Expr(1) && t.strides.at(u) != sym::Expr(0))
        j0 = j + 1;
    }
    PerfNode sc = base;
    sc.kind = af_tiling::kNodeScalar;
    sc.one_mask = schedule::OneMask(it);
    sc.once = -1;
    sc.max_tile = 1;
    out_.push_back(sc);
    PerfNode row = base;
    row.kind = af_tiling::kNodeLoad;
    row.one_mask = base.one_mask | index_dims;
    row.len_buffer = *s_.placed.at(static_cast<std::size_t>(i)).gather_row;
    out_.push_back(row);
    // One call per params row over the sub-block's full extents; when the tile dim lies in the
    // sub-block, one call over the full tile's layout (tails included).
    const bool rows = j0 > c_.tile_dim;
    Vec(base, af_tiling::kApiGather, base.esize, base.one_mask, rows ? j0 : -1)->max_tile =
        rows ? 0 : 1;
  }

  // The Gather of a strided load's block into loop order, and its offsets, once per core
  // (EmitGatherOffsets): the first elements of the innermost row and its padding by scalar code
  // (about one row block), then doubling copies along the innermost dim (from 8 elements: whole
  // 32-byte blocks) and along each outer block dim (the mask hides the dims before it, so
  // `split` counts that dim alone).
  void GatherNodes(const PerfNode& base) {
    Vec(base, af_tiling::kApiGather, base.esize, base.one_mask);
    OffsetBuildNodes(base, last_, 8);
  }

  // A Gather's offsets, built once per core: the first elements by scalar code (the mask hides
  // dims tile_dim..upto), then doubling Adds over int32 along dims upto..tile_dim, innermost
  // first (the innermost from `innermost_doubling` elements, the others from 1).
  void OffsetBuildNodes(const PerfNode& base, int upto, std::int32_t innermost_doubling) {
    PerfNode sc;
    sc.kind = af_tiling::kNodeScalar;
    sc.one_mask = base.one_mask;
    for (int m = c_.tile_dim; m <= upto; ++m)
      sc.one_mask |= 1u << m;
    sc.max_tile = 1;
    out_.push_back(sc);
    for (int j = upto; j >= c_.tile_dim; --j) {
      std::uint32_t hide = 0;
      for (int m = c_.tile_dim; m < j; ++m)
        hide |= 1u << m;
      PerfNode* a = Vec(base, af_tiling::kApiAdds, 4, base.one_mask | hide, j + 1);
      a->once = 1;
      a->max_tile = 1;
      a->doubling = j == upto ? innermost_doubling : 1;
      a->when = af_tiling::kWhenVarying;
      a->sweeps = 1;
    }
  }

  // One call per output row: Duplicate of the source element for a column broadcast, else a UB
  // copy of the source row (nothing when brc_inline leaves it to its consumers).
  void BroadcastNodes(int i, const PerfNode& base) {
    const ir::Node& node = g_.nodes[i];
    const bool inl = c_.kind == schedule::CaseKind::kBrcInline &&
                     static_cast<std::size_t>(i) < s_.inlined.size() && s_.inlined[i];
    if (inl) return;
    const std::uint32_t sm = schedule::OneMask(InputTensor(node, 0));
    const bool column =
        last_ >= 0 && ((sm >> last_) & 1u) != 0 && ((base.one_mask >> last_) & 1u) == 0;
    Vec(base, column ? af_tiling::kApiDuplicate : af_tiling::kApiCopy, base.esize, base.one_mask,
        last_);
    if (unaligned_ && base.one_mask == 0) {
      PerfNode* gth = Vec(base, af_tiling::kApiGather, base.esize, 0);
      gth->compact = 1;
    }
  }

  // The Concat's API calls (codegen's EmitConcat): one UB-to-UB DataCopy per input (its rows to
  // their columns, or side by side into the staging block); in concat_gather cases the Gather of
  // the output block and, once per core, its offsets: the first output row by scalar code, the
  // other rows by doubling Adds over int32 along each block dim before the concat dim, innermost
  // first.
  void ConcatNodes(int i, const PerfNode& base) {
    const ir::Node& cat = g_.nodes[static_cast<std::size_t>(i)];
    for (const auto& in : cat.inputs) {
      const ir::Tensor& t = g_.nodes[in.node].outputs.at(in.output);
      PerfNode* x = Vec(base, af_tiling::kApiCopy, base.esize, schedule::OneMask(t));
      x->part = schedule::PartOf(s_, t);
    }
    if (c_.kind != schedule::CaseKind::kConcatGather) return;
    Vec(base, af_tiling::kApiGather, base.esize, base.one_mask);
    OffsetBuildNodes(base, last_ - 1, 1);
  }

  // Comparisons and Where/Select: whole 256-byte repeats, counts rounded up to 128 elements
  // (ScheduleResult::cmp_mask).
  void CompareNodes(int i, const PerfNode& base) {
    const ir::Node& node = g_.nodes[i];
    std::vector<std::pair<int32_t, int32_t>> calls;
    if (IsCompare(node.type)) {
      const auto in_es = static_cast<int32_t>(ir::DTypeBytes(InputTensor(node, 0).dtype));
      calls = {{af_tiling::kApiCompare, in_es},
               {af_tiling::kApiDuplicate, 2},
               {af_tiling::kApiSelect, 2},
               {af_tiling::kApiCastOther, 2}};
    } else {
      calls = {{af_tiling::kApiCastOther, 2},
               {af_tiling::kApiCompare, 2},
               {af_tiling::kApiSelect, base.esize}};
    }
    for (const auto& [api, es] : calls)
      Vec(base, api, es, base.one_mask)->align_elems = 128;
  }

  // The reduce steps of ReduceBlock: innermost reduced dim first, one pattern call per row
  // (innermost) or per outer slice; no step at all is a UB copy. Then the accumulation across R
  // iterations, r_core's workspace round trip, and Mean's final scaling.
  void ReduceNodes(int i, const PerfNode& base) {
    const ir::Node& node = g_.nodes[i];
    const std::uint32_t in_one = schedule::OneMask(InputTensor(node, 0));
    // ArgMax: ReduceMax with calIndex per row over the input's dtype; its running (value, index)
    // is merged in scalars (a few scalar operations per row and R iteration, not priced).
    const bool argmax = node.type == "ArgMax";
    const int32_t es =
        argmax ? static_cast<int32_t>(ir::DTypeBytes(InputTensor(node, 0).dtype)) : base.esize;
    std::uint32_t cur = in_one;
    int steps = 0;
    for (int j = last_; j >= c_.tile_dim; --j) {
      if (((in_one >> j) & 1u) != 0 || ((base.one_mask >> j) & 1u) == 0) continue;
      Vec(base, ApiOf(node.type), es, cur, j);
      cur |= 1u << j;
      ++steps;
    }
    if (argmax) {
      // r_core: one (value, index) pair per share out to the workspace and back in phase 2, as
      // 32-bit words over the padded output count (codegen's ArgMaxToWorkspace); the merge is
      // scalar code (not priced).
      if (c_.kind != schedule::CaseKind::kRCore) return;
      PerfNode words = base;
      words.esize = 4;
      WorkspaceMoves(words);
      return;
    }
    if (steps == 0) Vec(base, af_tiling::kApiCopy, base.esize, base.one_mask);
    if (looped_) Vec(base, AccumulateApi(node.type), base.esize, base.one_mask)->skip_first = 1;
    if (c_.kind == schedule::CaseKind::kRCore) {
      WorkspaceMoves(base);
      PerfNode acc = base;
      acc.kind = af_tiling::kNodeVec;
      acc.api = AccumulateApi(node.type);
      acc.when = af_tiling::kWhenCombine;
      acc.max_tile = 1;
      out_.push_back(acc);
    }
    if (node.type == "Mean") {
      PerfNode* fin = Vec(base, af_tiling::kApiMuls, base.esize, base.one_mask);
      fin->max_tile = 1;
      if (looped_) fin->when = af_tiling::kWhenAfter;
    }
  }

  // Elementwise: a binary op reading an inlined broadcast runs row by row (the scalar API for a
  // column broadcast).
  void ElementwiseNodes(int i, const PerfNode& base) {
    const ir::Node& node = g_.nodes[i];
    int32_t api = ApiOf(node.type);
    bool row_wise = false;
    if (c_.kind == schedule::CaseKind::kBrcInline) {
      for (const auto& in : node.inputs) {
        if (static_cast<std::size_t>(in.node) >= s_.inlined.size() || !s_.inlined[in.node]) {
          continue;
        }
        row_wise = true;
        const auto& src = g_.nodes[g_.nodes[in.node].inputs.at(0).node].outputs.at(0);
        const bool column = last_ >= 0 && ((schedule::OneMask(src) >> last_) & 1u) != 0;
        if (column) {
          api = node.type == "Mul" || node.type == "Div" || node.type == "TrueDiv"
                    ? af_tiling::kApiMuls
                : node.type == "Maximum" ? af_tiling::kApiMaxs
                : node.type == "Minimum" ? af_tiling::kApiMins
                                         : af_tiling::kApiAdds;
        }
      }
    }
    if (api == af_tiling::kApiNone) return;
    PerfNode* x = Vec(base, api, base.esize, base.one_mask, row_wise ? last_ : -1);
    // A Scalar is duplicated over the full tile's layout (its consumers' shape).
    if (node.type == "Scalar") {
      x->one_mask = 0;
      x->max_tile = 1;
      x->compact = unaligned_ ? 1 : 0;
    }
  }

  const ScheduleResult& s_;
  const schedule::ImplCase& c_;
  const ir::Graph& g_;
  const int last_;
  const bool looped_;
  const bool unaligned_;
  std::vector<int> sweeps_;
  std::vector<PerfNode> out_;
};

}  // namespace

std::vector<PerfNode> PerfNodesFor(const ScheduleResult& s, int case_index,
                                   std::vector<int>* origin) {
  if (origin != nullptr) origin->clear();
  return PerfNodeBuilder(s, case_index).Build(origin);
}

af_tiling::CaseParams CaseParamsFor(const ScheduleResult& s, int case_index,
                                    const std::vector<std::int64_t>& dim_values,
                                    const std::vector<af_tiling::PerfNode>& nodes) {
  af_tiling::CaseParams p;
  schedule::FillCaseLayout(s, case_index, dim_values, &p);
  const auto kind = s.cases.at(case_index).kind;
  for (std::size_t j = 0; j < s.groups.r_dim.size() && j < af_tiling::kMaxDims; ++j) {
    if (s.groups.r_dim[j]) p.r_mask |= 1u << j;
  }
  p.passes = kind == schedule::CaseKind::kCommon ? s.groups.passes : 1;
  p.r_core = kind == schedule::CaseKind::kRCore ? 1 : 0;
  p.templ = s.cases.at(case_index).templ;
  p.partial_buffer = s.work.reduce_partial.value_or(-1);
  for (const auto& n : s.graph.nodes) {
    if (ir::IsReduceOp(n.type)) ++p.n_reduces;
  }
  p.n_nodes = static_cast<std::int32_t>(nodes.size());
  p.nodes = nodes.empty() ? nullptr : nodes.data();
  return p;
}

CaseSet BuildCases(const ScheduleResult& s, const std::vector<std::int64_t>& dim_values) {
  CaseSet set;
  set.nodes.reserve(s.cases.size());
  for (std::size_t c = 0; c < s.cases.size(); ++c)
    set.nodes.push_back(PerfNodesFor(s, static_cast<int>(c)));
  for (std::size_t c = 0; c < s.cases.size(); ++c)
    set.params.push_back(CaseParamsFor(s, static_cast<int>(c), dim_values, set.nodes[c]));
  return set;
}

namespace {

double ParseDouble(const std::map<std::string, std::string>& f, const char* key, double def,
                   double lo, double hi) {
  const auto it = f.find(key);
  if (it == f.end() || it->second.empty()) return def;
  try {
    std::size_t used = 0;
    const double v = std::stod(it->second, &used);
    if (used != it->second.size() || !(v >= lo && v <= hi)) throw std::invalid_argument("");
    return v;
  } catch (const std::exception&) {
    throw InputError({}, std::string("--") + key + " must be a number in [" + std::to_string(lo) +
                             ", " + std::to_string(hi) + "], not '" + it->second + "'");
  }
}

bool ParseBool(const std::map<std::string, std::string>& f, const char* key, bool def) {
  const auto it = f.find(key);
  if (it == f.end() || it->second.empty()) return def;
  if (it->second == "true" || it->second == "1") return true;
  if (it->second == "false" || it->second == "0") return false;
  throw InputError({},
                   std::string("--") + key + " must be true or false, not '" + it->second + "'");
}

}  // namespace

std::string AlgorithmName(int algorithm) {
  switch (algorithm) {
    case af_tiling::kHeuristic:
      return "HighPerf";
    case af_tiling::kExhaustive:
      return "Exhaustive";
    default:
      return "AxesReorder";
  }
}

af_tiling::SolverOptions SolverOptionsFrom(const std::map<std::string, std::string>& flags,
                                           const hw::Profile& profile) {
  af_tiling::SolverOptions o;
  o.perf_version = profile.npu_arch == "dav-3510" ? 2 : 1;
  // AutoFuse's per-platform defaults (TilingScheduleConfigTable): V1 block-loop auto-tune on
  // and the UB/core trade-off off; V2 trade-off on with thresholds 0.01 / 1.0.
  o.tradeoff = o.perf_version == 2 ? 1 : 0;
  o.ub_threshold = o.perf_version == 2 ? 0.01 : 0.2;
  o.corenum_threshold = o.perf_version == 2 ? 1.0 : 0.4;
  o.accuracy_level = 1;
  if (const auto it = flags.find("autofuse_att_algorithm"); it != flags.end()) {
    const std::string& v = it->second;
    if (v == "AxesReorder" || v == "default" || v.empty()) {
      o.algorithm = af_tiling::kAxesReorder;
    } else if (v == "HighPerf" || v == "heuristic") {
      o.algorithm = af_tiling::kHeuristic;
    } else if (v == "Exhaustive" || v == "exhaustive") {
      o.algorithm = af_tiling::kExhaustive;
    } else {
      throw InputError({},
                       "--autofuse_att_algorithm must be AxesReorder, HighPerf or "
                       "Exhaustive, not '" +
                           v + "'");
    }
  }
  // AutoFuse's thresholds are percentages (0..100); the solver takes shares.
  o.ub_threshold = ParseDouble(flags, "att_ub_threshold", o.ub_threshold * 100, 0, 100) / 100;
  o.corenum_threshold =
      ParseDouble(flags, "att_corenum_threshold", o.corenum_threshold * 100, 0, 100) / 100;
  o.tradeoff =
      static_cast<int32_t>(ParseBool(flags, "att_enable_multicore_ub_tradeoff", o.tradeoff != 0));
  o.accuracy_level =
      static_cast<int32_t>(ParseDouble(flags, "att_accuracy_level", o.accuracy_level, 0, 1) != 0);
  return o;
}

std::vector<std::int64_t> DimValues(const ScheduleResult& s, const sym::Bindings& b) {
  std::vector<std::int64_t> v;
  for (auto id : s.dims) {
    const ir::Axis* a = s.graph.FindAxis(id);
    try {
      const std::int64_t x = a->size.Eval(b);
      if (x < 0)
        throw InputError({}, "axis " + a->name + " has negative size " + std::to_string(x));
      v.push_back(x);
    } catch (const sym::Error& e) {
      throw InputError({}, "cannot evaluate the size of axis " + a->name + " (" +
                               a->size.ToString() + "): " + e.what() + " (bind it with --bind)");
    }
  }
  // Then each part's extent along the part dim (schedule::FillCaseLayout).
  for (const auto& e : s.parts.lens) {
    try {
      v.push_back(e.Eval(b));
    } catch (const sym::Error& err) {
      throw InputError({}, "cannot evaluate the extent of a concat input or split piece (" +
                               e.ToString() + "): " + err.what() + " (bind it with --bind)");
    }
  }
  // Then each fixed-size buffer's length (an innermost-dim Gather's params row).
  for (const auto& buf : s.buffers) {
    if (!buf.fixed_elems) continue;
    try {
      v.push_back(buf.fixed_elems->Eval(b));
    } catch (const sym::Error& err) {
      throw InputError({}, "cannot evaluate the length of buffer " + buf.Name() + " (" +
                               buf.fixed_elems->ToString() + "): " + err.what() +
                               " (bind it with --bind)");
    }
  }
  return v;
}

namespace {

// solve_ns: the median of several timed runs of af_tiling::SelectCase over the cases'
// parameters, the call the generated tiling function makes (without the model's totals, which only
// the report needs). The first run is not counted (it pays the cold caches of a fresh process,
// not the solver); the runs stop after 21 or once 20 ms are spent.
std::int64_t TimeSelect(const CaseSet& set, const hw::Profile& profile, int forced_case,
                        int forced_template, const af_tiling::SolverOptions& options) {
  using Clock = std::chrono::steady_clock;
  const int n = static_cast<int>(set.params.size());
  auto once = [&] {
    af_tiling::CaseSolution best;
    const auto t0 = Clock::now();
    const int chosen =
        af_tiling::SelectCase(set.params.data(), n, profile.vector_cores, profile.ub_bytes,
                              forced_case, &best, forced_template, options);
    const auto t1 = Clock::now();
    // Keep the result alive so the call is not optimised away.
    volatile std::int64_t sink = chosen + best.tile;
    (void)sink;
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
  };
  const std::int64_t first = once();
  std::vector<std::int64_t> runs;
  std::int64_t spent = first;
  constexpr std::int64_t kBudgetNs = 20'000'000;
  while (runs.size() < 21 && spent < kBudgetNs) {
    runs.push_back(once());
    spent += runs.back();
  }
  if (runs.empty()) return first;
  std::nth_element(runs.begin(), runs.begin() + static_cast<std::ptrdiff_t>(runs.size() / 2),
                   runs.end());
  return runs[runs.size() / 2];
}

}  // namespace

TilingDecision Solve(const ScheduleResult& s, const sym::Bindings& b, const hw::Profile& profile,
                     int forced_case, int forced_template,
                     const af_tiling::SolverOptions& options) {
  if (s.dims.size() > static_cast<std::size_t>(af_tiling::kMaxDims) ||
      s.buffers.size() > static_cast<std::size_t>(af_tiling::kMaxBuffers)) {
    throw InputError({}, "[TILING_LIMIT] kernel too large for the tiling solver: " +
                             std::to_string(s.dims.size()) + " dims (at most " +
                             std::to_string(af_tiling::kMaxDims) + "), " +
                             std::to_string(s.buffers.size()) + " UB buffers (at most " +
                             std::to_string(af_tiling::kMaxBuffers) + ")");
  }
  if (forced_template >= static_cast<int>(s.templates.size())) {
    throw InputError({}, "--force_schedule_result " + std::to_string(forced_template) +
                             " out of range (" + std::to_string(s.templates.size()) +
                             " templates)");
  }
  if (forced_case >= static_cast<int>(s.cases.size())) {
    throw InputError({}, "--force_tiling_case " + std::to_string(forced_case) + " out of range (" +
                             std::to_string(s.cases.size()) + " cases)");
  }
  const auto dims = DimValues(s, b);
  const CaseSet set = BuildCases(s, dims);
  TilingDecision d;
  // The choice is the generated function's (SelectCase, solve_ns); every case is then solved
  // again with the model's totals for the report.
  d.solve_ns = TimeSelect(set, profile, forced_case, forced_template, options);
  std::vector<af_tiling::CaseSolution> sols(s.cases.size());
  std::vector<bool> eligible(s.cases.size());
  for (std::size_t c = 0; c < s.cases.size(); ++c) {
    eligible[c] = (forced_case < 0 || static_cast<int>(c) == forced_case) &&
                  (forced_template < 0 || s.cases[c].templ == forced_template);
    if (eligible[c]) {
      sols[c] =
          af_tiling::SolveCase(set.params[c], profile.vector_cores, profile.ub_bytes, options);
    }
  }
  d.chosen = af_tiling::ChooseCase(set.params.data(), sols.data(), static_cast<int>(sols.size()),
                                   af_tiling::PerfTableFor(options.perf_version), profile.ub_bytes,
                                   forced_case, forced_template, &d.solution);
  bool guard = false;
  for (std::size_t c = 0; c < s.cases.size(); ++c) {
    CaseReport r;
    r.name = s.cases[c].name;
    // Cases the overrides left out are solved for the report only.
    r.solution = eligible[c] ? sols[c]
                             : af_tiling::SolveCase(set.params[c], profile.vector_cores,
                                                    profile.ub_bytes, options);
    r.feasible = r.solution.ok;
    guard = guard || r.solution.guard_hit;
    d.cases.push_back(r);
  }
  if (guard) {
    throw InputError({},
                     "the exhaustive solver's space (tile sizes x core counts) is larger than "
                     "its guard of " +
                         std::to_string(options.exhaustive_guard) +
                         " points for these sizes; use AxesReorder or HighPerf");
  }
  if (d.chosen < 0 && forced_case >= 0) {
    throw InputError({}, "forced tiling case " + std::to_string(forced_case) + " (" +
                             s.cases[forced_case].name + ") does not fit the " +
                             std::to_string(profile.ub_bytes) + "-byte UB of " + profile.name +
                             ": one tile of it is larger than the UB");
  }
  if (d.chosen < 0 && forced_template >= 0) {
    throw InputError({}, "no case of forced template " + std::to_string(forced_template) + " (" +
                             s.templates[forced_template].name + ") is feasible on " +
                             profile.name + " for these sizes");
  }
  if (d.chosen < 0) {
    throw InputError({}, "no tiling case fits the " + std::to_string(profile.ub_bytes) +
                             "-byte UB of " + profile.name +
                             " (even one row of the innermost dimension is too large)");
  }
  const auto& chosen = set.params[static_cast<std::size_t>(d.chosen)];
  d.compulsory_bytes = CompulsoryBytes(s, d.chosen, chosen);
  d.traffic = TrafficOf(s, d.chosen, chosen, d.solution, options.perf_version);
  return d;
}

sym::Expr UbBytesExpr(const ScheduleResult& s, int case_index) {
  const auto& c = s.cases.at(case_index);
  const sym::Expr tile = sym::Expr::Sym(c.tile_var);
  const int last = static_cast<int>(s.dims.size()) - 1;
  sym::Expr total(0);
  for (const auto& b : s.buffers) {
    if (!schedule::BufferUsedBy(b, c.kind)) continue;
    if (b.fixed_elems) {  // an innermost-dim Gather's params row
      total = total + sym::Expr(b.buf_num) * sym::Align(*b.fixed_elems * sym::Expr(b.esize),
                                                        sym::Expr(std::max(32, s.vec_align_bytes)));
      continue;
    }
    if (schedule::BufferCompact(b, c.kind)) {
      sym::Expr e = tile;
      for (int j = c.tile_dim + 1; j <= last; ++j)
        e = e * s.graph.FindAxis(s.dims[j])->size;
      total = total + sym::Expr(b.buf_num) *
                          sym::Align(sym::Align(e, sym::Expr(s.row_align)) * sym::Expr(b.esize),
                                     sym::Expr(std::max(32, s.vec_align_bytes)));
      continue;
    }
    // The padded dim: the innermost; a strided load's staging block pads its run dim, or
    // holds one element per 32 bytes.
    const std::int32_t run = schedule::BufferRun(b, c.tile_dim);
    const int pad = run == af_tiling::kRunInner      ? last
                    : run == af_tiling::kRunElements ? -1
                                                     : run - 1;
    sym::Expr elems(1);
    for (int j = c.tile_dim; j <= last; ++j) {
      sym::Expr ext = ((b.one_mask >> j) & 1u) != 0 ? sym::Expr(1)
                      : j == c.tile_dim             ? tile
                                                    : s.graph.FindAxis(s.dims[j])->size;
      if (j == pad) ext = sym::Align(ext, sym::Expr(s.row_align));
      elems = elems * ext;
    }
    if (pad < 0) elems = elems * sym::Expr(32 / std::max(1, b.esize));
    total = total + sym::Expr(b.buf_num) * sym::Align(elems * sym::Expr(b.esize),
                                                      sym::Expr(std::max(32, s.vec_align_bytes)));
  }
  return total;
}

namespace {

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

const char* ApiName(int32_t api) {
  static const char* const kNames[af_tiling::kApiReduceProd + 1] = {
      "none",       "Abs",       "Add",       "Adds",      "Sub",        "Mul",
      "Muls",       "Div",       "Max",       "Maxs",      "Min",        "Mins",
      "Exp",        "Ln",        "Sqrt",      "Rsqrt",     "Reciprocal", "Relu",
      "Sigmoid",    "Tanh",      "Erf",       "Sign",      "Power",      "Cast16to32",
      "Cast32to16", "CastOther", "Compare",   "Select",    "Duplicate",  "Brcb",
      "Copy",       "Gather",    "ReduceSum", "ReduceMax", "ReduceMin",  "ReduceProd"};
  // The issue-22 rows after them.
  static const char* const kMathNames[af_tiling::kNumApis - af_tiling::kApiReduceProd - 1] = {
      "AdvMath", "Rounding", "Bitwise", "Classify", "LeakyRelu"};
  if (api >= 0 && api <= af_tiling::kApiReduceProd) return kNames[api];
  if (api > af_tiling::kApiReduceProd && api < af_tiling::kNumApis) {
    return kMathNames[api - af_tiling::kApiReduceProd - 1];
  }
  return "?";
}

}  // namespace

std::vector<std::string> PipeFormulas(const ScheduleResult& s, int case_index, int perf_version) {
  using sym::Expr;
  const auto& c = s.cases.at(case_index);
  const af_tiling::PerfTable& t = af_tiling::PerfTableFor(perf_version);
  const auto nodes = PerfNodesFor(s, case_index);
  const int k = c.tile_dim;
  const int last = static_cast<int>(s.dims.size()) - 1;
  auto size = [&](int j) { return s.graph.FindAxis(s.dims[j])->size; };
  const Expr tile = Expr::Sym(c.tile_var);
  const bool tile_is_r = k < static_cast<int>(s.groups.r_dim.size()) && s.groups.r_dim[k];
  Expr r_before(1);
  for (int j = 0; j < k; ++j) {
    if (s.groups.r_dim[j]) r_before = r_before * size(j);
  }
  // Extent of dim j in a block with extent-1 dims `mask`, the innermost padded when `pad`.
  auto ext = [&](int j, std::uint32_t mask, bool pad) {
    Expr e = ((mask >> j) & 1u) != 0 ? Expr(1) : j == k ? tile : size(j);
    if (pad && j == last) e = sym::Align(e, Expr(s.row_align));
    return e;
  };
  auto block = [&](std::uint32_t mask, bool pad, int from) {
    Expr e(1);
    for (int j = from; j <= last; ++j)
      e = e * ext(j, mask, pad);
    return e;
  };
  std::string pipes[af_tiling::kNumPipes];
  auto add = [&](int pipe, const std::string& term) {
    pipes[pipe] += (pipes[pipe].empty() ? "" : " + ") + term;
  };
  for (const auto& n : nodes) {
    // Executions per A iteration (core part).
    Expr execs(1);
    if (n.when == af_tiling::kWhenVarying && n.kind != af_tiling::kNodeWsStore &&
        n.kind != af_tiling::kNodeWsLoad) {
      execs = Expr(n.sweeps > 0 ? n.sweeps : 1) * r_before;
      if (tile_is_r) execs = execs * sym::CeilDiv(size(k), tile);
    }
    const std::string x = execs == Expr(1) ? "" : execs.ToString() + " x ";
    switch (n.kind) {
      case af_tiling::kNodeLoad:
      case af_tiling::kNodeStore: {
        const bool load = n.kind == af_tiling::kNodeLoad;
        const af_tiling::Dma& d = load ? t.load : t.store;
        const Expr bytes = block(n.one_mask, false, k) * Expr(n.esize);
        std::string stride;
        if (n.row_stride_const != 0) {
          // Strided rows (a strided load's GM-order copy): the V1 stride penalty per row.
          const int pad = n.run == af_tiling::kRunElements ? -1 : n.run - 1;
          Expr rows(1);
          for (int j = k; j <= last; ++j) {
            if (j != pad) rows = rows * ext(j, n.one_mask, false);
          }
          stride = " + " + Num(d.stride_k) + " x " + rows.ToString() + " x (gap mod 256)";
        }
        add(load ? af_tiling::kPipeMte2 : af_tiling::kPipeMte3,
            x + "(" + bytes.ToString() + " / T_" + (load ? "load" : "store") + " + " + Num(d.h) +
                stride + ")");
        break;
      }
      case af_tiling::kNodeWsStore:
      case af_tiling::kNodeWsLoad: {
        const bool load = n.kind == af_tiling::kNodeWsLoad;
        const Expr bytes = block(n.one_mask, true, k) * Expr(n.esize);
        add(load ? af_tiling::kPipeMte2 : af_tiling::kPipeMte3,
            std::string(load ? "r_split x " : "") + "(" + bytes.ToString() + " / T_" +
                (load ? "load" : "store") + " + " + Num(load ? t.load.h : t.store.h) + ")");
        break;
      }
      case af_tiling::kNodeScalar:
        add(af_tiling::kPipeScalar,
            (n.compact != 0 ? sym::Align(block(0, false, k), Expr(s.row_align))
                            : block(n.one_mask, true, k))
                .ToString());
        break;
      default: {
        Expr calls(1);
        Expr per = n.compact != 0 ? sym::Align(block(0, false, k), Expr(s.row_align))
                                  : block(n.one_mask, true, k);
        if (n.split > k && n.split <= last) {
          calls = Expr(1);
          for (int j = k; j < n.split; ++j)
            calls = calls * ext(j, n.one_mask, false);
          per = block(n.one_mask, true, n.split);
        }
        if (n.align_elems > 0) per = sym::Align(per, Expr(n.align_elems));
        std::string cost;
        if (t.version == 2) {
          const auto& mi = t.micro[n.api];
          cost = Num(t.vec_head + mi.latency) + " + " + Num(mi.throughput) + " x ceil(" +
                 (per * Expr(n.esize)).ToString() + " / 256)";
        } else {
          const auto& l = t.linear[n.api];
          const bool half = n.esize <= 2;
          cost = Num(half ? l.k16 : l.k32) + " x " + per.ToString() + " + " +
                 Num(half ? l.b16 : l.b32);
        }
        const Expr all = execs * calls;
        add(af_tiling::kPipeVec, std::string(ApiName(n.api)) + ": " +
                                     (all == Expr(1) ? "" : all.ToString() + " x ") + "(" + cost +
                                     ")");
        break;
      }
    }
  }
  const std::string per_core = c.kind == schedule::CaseKind::kRCore ? "r_per_block" : c.block_var;
  const std::string mte2_head = t.mte2_head_k > 0
                                    ? Num(t.mte2_head_k) + " x block_dim + " + Num(t.mte2_head_b)
                                    : Num(t.mte2_head_b);
  const std::string mte2_small =
      t.mte2_head_small_k > 0
          ? Num(t.mte2_head_small_k) + " x block_dim + " + Num(t.mte2_head_small_b)
          : Num(t.mte2_head_small_b);
  auto wrap = [&](int pipe) {
    return pipes[pipe].empty() ? std::string("0") : per_core + " x [" + pipes[pipe] + "]";
  };
  std::vector<std::string> out;
  out.push_back("MTE2 = " + wrap(af_tiling::kPipeMte2) + " + head (" + mte2_head + "; " +
                mte2_small + " below " + Num(t.mte2_head_threshold) +
                " B), T_load = " + Num(t.load.a) + " + " + Num(t.load.b) + " / block_dim (" +
                Num(t.load.small_a) + " + " + Num(t.load.small_b) + " / block_dim below " +
                Num(t.load.small_bytes) + " B)");
  out.push_back("MTE3 = " + wrap(af_tiling::kPipeMte3) + " + " + Num(t.mte3_head) +
                ", T_store = " + Num(t.store.a) + " + " + Num(t.store.b) + " / block_dim");
  out.push_back("VEC = " + wrap(af_tiling::kPipeVec) +
                (t.version == 1 ? " + " + Num(t.vec_head) : std::string()));
  out.push_back("SCALAR = " + (pipes[af_tiling::kPipeScalar].empty()
                                   ? std::string("0")
                                   : pipes[af_tiling::kPipeScalar]));
  out.push_back("cycles = max(MTE2, MTE3, VEC, SCALAR) + " + Num(t.op_head) + " x block_dim");
  return out;
}

}  // namespace af::att
