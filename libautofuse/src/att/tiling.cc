// Case parameters, solving and case choice for elementwise/broadcast schedules.
#include "autofuse/att/tiling.h"

#include <algorithm>
#include <chrono>
#include <set>

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

double IoBytesPerElem(const ScheduleResult& s) {
  return MovedBytesPerElem(s, "Load") + MovedBytesPerElem(s, "Store");
}

double MovedBytesPerElem(const ScheduleResult& s, const std::string& op) {
  double bytes = 0;
  for (const auto& n : s.graph.nodes) {
    if (n.type != op) continue;
    const auto& t = n.outputs.at(0);
    const bool broadcast = std::any_of(t.repeats.begin(), t.repeats.end(),
                                       [](const sym::Expr& e) { return e == sym::Expr(1); });
    if (!broadcast) bytes += ir::DTypeBytes(t.dtype);
  }
  return bytes;
}

double VecOpsPerElem(const ScheduleResult& s) {
  double ops = 0;
  for (const auto& n : s.graph.nodes) {
    const ir::OpDef* op = ir::FindOp(n.type);
    if (op != nullptr &&
        (op->compute == ir::ComputeType::kElewise || op->compute == ir::ComputeType::kBroadcast ||
         op->compute == ir::ComputeType::kReduce)) {
      ops += 1;
    }
  }
  return ops;
}

af_tiling::CaseParams CaseParamsFor(const ScheduleResult& s, int case_index,
                                    const std::vector<std::int64_t>& dim_values) {
  af_tiling::CaseParams p;
  p.n_dims = static_cast<std::int32_t>(dim_values.size());
  p.tile_dim = s.cases.at(case_index).tile_dim;
  for (std::size_t j = 0; j < dim_values.size() && j < af_tiling::kMaxDims; ++j) {
    p.dims[j] = dim_values[j];
  }
  p.row_align = s.row_align;
  p.vec_align = s.vec_align_bytes;
  p.n_buffers = static_cast<std::int32_t>(s.buffers.size());
  for (std::size_t b = 0; b < s.buffers.size() && b < af_tiling::kMaxBuffers; ++b) {
    p.buf_esize[b] = s.buffers[b].esize;
    p.buf_num[b] = s.buffers[b].buf_num;
    p.buf_one_mask[b] = s.buffers[b].one_mask;
    const auto kind = s.cases.at(case_index).kind;
    if (!schedule::BufferUsedBy(s.buffers[b], kind)) p.buf_num[b] = 0;
    p.buf_compact[b] = schedule::BufferCompact(s.buffers[b], kind) ? 1 : 0;
  }
  for (std::size_t j = 0; j < s.r_dim.size() && j < af_tiling::kMaxDims; ++j) {
    if (s.r_dim[j]) p.r_mask |= 1u << j;
  }
  const auto kind = s.cases.at(case_index).kind;
  p.passes = kind == schedule::CaseKind::kCommon ? s.passes : 1;
  p.r_core = kind == schedule::CaseKind::kRCore ? 1 : 0;
  p.templ = s.cases.at(case_index).templ;
  p.partial_buffer = s.reduce_partial;
  for (const auto& n : s.graph.nodes) {
    const ir::OpDef* op = ir::FindOp(n.type);
    if (op != nullptr && op->compute == ir::ComputeType::kReduce) ++p.n_reduces;
  }
  p.io_bytes_per_elem = IoBytesPerElem(s);
  p.vec_ops_per_elem = VecOpsPerElem(s);
  if (s.cases.at(case_index).kind == schedule::CaseKind::kUnaligned) {
    p.compact = 1;
    for (const auto& n : s.graph.nodes) {
      if (n.type == "Broadcast") p.vec_ops_per_elem += 1;  // the Gather after each broadcast
    }
  }
  if (s.cases.at(case_index).kind == schedule::CaseKind::kBrcInline) {
    // Inlined broadcasts are not computed; each use becomes one API call per row.
    const auto consumers = s.graph.Consumers();
    for (std::size_t i = 0; i < s.inlined.size(); ++i) {
      if (!s.inlined[i]) continue;
      p.vec_ops_per_elem -= 1;
      p.row_ops += static_cast<std::int32_t>(consumers[i].size());
    }
  }
  return p;
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
  return v;
}

TilingDecision Solve(const ScheduleResult& s, const sym::Bindings& b, const hw::Profile& profile,
                     int forced_case, int forced_template) {
  if (s.dims.size() > static_cast<std::size_t>(af_tiling::kMaxDims) ||
      s.buffers.size() > static_cast<std::size_t>(af_tiling::kMaxBuffers)) {
    throw InputError({}, "kernel too large for the tiling solver (dims or buffers)");
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
  std::vector<af_tiling::CaseParams> params;
  for (std::size_t c = 0; c < s.cases.size(); ++c) {
    params.push_back(CaseParamsFor(s, static_cast<int>(c), dims));
  }
  TilingDecision d;
  const auto t0 = std::chrono::steady_clock::now();
  d.chosen =
      af_tiling::SelectCase(params.data(), static_cast<int>(params.size()), profile.vector_cores,
                            profile.ub_bytes, forced_case, &d.solution, forced_template);
  const auto t1 = std::chrono::steady_clock::now();
  d.solve_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
  for (std::size_t c = 0; c < s.cases.size(); ++c) {
    CaseReport r;
    r.name = s.cases[c].name;
    r.solution = af_tiling::SolveCase(params[c], profile.vector_cores, profile.ub_bytes);
    r.feasible = r.solution.ok;
    d.cases.push_back(r);
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
  return d;
}

PipeEstimate EstimatePipes(const ScheduleResult& s, const af_tiling::CaseParams& p,
                           const af_tiling::CaseSolution& sol) {
  PipeEstimate e;
  if (!sol.ok) return e;
  const double elems = static_cast<double>(af_tiling::BufferElems(p, sol.tile)) *
                       static_cast<double>(sol.tiles_per_block) *
                       static_cast<double>(sol.r_iters > 0 ? sol.r_iters : 1) *
                       static_cast<double>(p.passes > 0 ? p.passes : 1);
  e.mte2 = elems * MovedBytesPerElem(s, "Load") / 32.0;
  e.mte3 = elems * MovedBytesPerElem(s, "Store") / 32.0;
  e.vec = elems * p.vec_ops_per_elem * 4.0 / 256.0;
  return e;
}

sym::Expr UbBytesExpr(const ScheduleResult& s, int case_index) {
  const auto& c = s.cases.at(case_index);
  const sym::Expr tile = sym::Expr::Sym(c.tile_var);
  const int last = static_cast<int>(s.dims.size()) - 1;
  sym::Expr total(0);
  for (const auto& b : s.buffers) {
    if (!schedule::BufferUsedBy(b, c.kind)) continue;
    if (schedule::BufferCompact(b, c.kind)) {
      sym::Expr e = tile;
      for (int j = c.tile_dim + 1; j <= last; ++j)
        e = e * s.graph.FindAxis(s.dims[j])->size;
      total = total + sym::Expr(b.buf_num) *
                          sym::Align(sym::Align(e, sym::Expr(s.row_align)) * sym::Expr(b.esize),
                                     sym::Expr(std::max(32, s.vec_align_bytes)));
      continue;
    }
    sym::Expr elems(1);
    for (int j = c.tile_dim; j <= last; ++j) {
      sym::Expr ext = ((b.one_mask >> j) & 1u) != 0 ? sym::Expr(1)
                      : j == c.tile_dim             ? tile
                                                    : s.graph.FindAxis(s.dims[j])->size;
      if (j == last) ext = sym::Align(ext, sym::Expr(s.row_align));
      elems = elems * ext;
    }
    total = total + sym::Expr(b.buf_num) * sym::Align(elems * sym::Expr(b.esize),
                                                      sym::Expr(std::max(32, s.vec_align_bytes)));
  }
  return total;
}

}  // namespace af::att
