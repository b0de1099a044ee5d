// SuperKernel planning and building (see superkernel.h).
#include "autofuse/pipeline/superkernel.h"

#include <algorithm>
#include <map>
#include <set>

#include "autofuse/data/host_array.h"
#include "autofuse/interp/interpreter.h"
#include "autofuse/pipeline/view_alias.h"
#include "autofuse/toolchain/compile.h"

namespace af::pipeline {
namespace {

std::string KernelLabel(const Kernel& k) {
  return k.code.kernel_name.empty() ? k.hint.name : k.code.kernel_name;
}

// Walks the execution order, closing a segment wherever a unit cannot join it.
class Planner {
 public:
  Planner(const CompileResult& r, const Options& o, SuperPlan& p) : r_(r), o_(o), p_(p) {
    marked_ = std::ranges::any_of(r_.front_end->graph.nodes, [](const model::Node& n) {
      return n.super_kernel_scope.has_value();
    });
  }

  void Run() {
    for (std::size_t i = 0; i < p_.order.size(); ++i) {
      const Unit& u = p_.order[i];
      if (u.kernel < 0) {
        // A node that writes no tensor (aten.sym_size: a size read on the host) launches nothing.
        const auto& outs = r_.front_end->graph.node(u.node).outputs;
        if (std::ranges::none_of(
                outs, [&](int v) { return r_.front_end->graph.value(v).type.IsTensor(); })) {
          continue;
        }
        OpBetween(u);
        continue;
      }
      const Kernel& k = r_.kernels[static_cast<std::size_t>(u.kernel)];
      if (marked_ && !InScope(u, k)) continue;
      if (k.MultiGroup()) {
        if (!open_.empty()) {
          Close("SUPERKERNEL_MULTI_GROUP", "the next kernel, " + KernelLabel(k) + ", cannot join");
        }
        p_.decisions.push_back({"SUPERKERNEL_MULTI_GROUP",
                                "kernel " + KernelLabel(k) +
                                    " runs alone: it is a multi-group kernel, whose groups already "
                                    "share one launch (a super kernel does not nest them)"});
        continue;
      }
      if (const std::string code =
              codegen::SuperMemberRefusal(k.hint, k.schedule, k.tiling ? k.tiling->chosen : -1);
          !code.empty()) {
        if (!open_.empty()) Close(code, "the next kernel, " + KernelLabel(k) + ", cannot join");
        p_.decisions.push_back({code, "kernel " + KernelLabel(k) +
                                          " runs alone: its template synchronises all cores "
                                          "(SyncAll), which cores past its block_dim would "
                                          "never reach in a super kernel"});
        continue;
      }
      if (const std::string why = DtypeConflict(u); !why.empty()) {
        Close("SUPERKERNEL_DTYPE", why);
      }
      open_.push_back(static_cast<int>(i));
      Wrote(u);
    }
    if (!open_.empty()) Close("", "");
  }

 private:
  // With scopes marked in the input, a kernel joins only kernels of its own scope: false (and a
  // decision) when it runs alone; a scope change ends the open segment.
  bool InScope(const Unit& u, const Kernel& k) {
    std::set<std::string> scopes;
    bool unmarked = false;
    for (const int id : r_.front_end->fusion.kernels[static_cast<std::size_t>(u.kernel)].nodes) {
      const auto& sc = r_.front_end->graph.node(id).super_kernel_scope;
      if (sc && !sc->empty()) {
        scopes.insert(*sc);
      } else {
        unmarked = true;
      }
    }
    std::string code;
    std::string why;
    if (scopes.size() > 1 || (unmarked && !scopes.empty())) {
      code = "SUPERKERNEL_SCOPE_MIXED";
      why = "its ops lie in different super-kernel scopes (or partly outside them)";
    } else if (scopes.empty()) {
      code = "SUPERKERNEL_OUTSIDE_SCOPE";
      why = "the input marks super-kernel scopes and its ops are in none";
    }
    if (!code.empty()) {
      if (!open_.empty()) {
        Close(code,
              "super-kernel scope '" + open_scope_ + "' ends before kernel " + KernelLabel(k));
      }
      p_.decisions.push_back({code, "kernel " + KernelLabel(k) + " runs alone: " + why});
      return false;
    }
    const std::string& scope = *scopes.begin();
    if (!open_.empty() && scope != open_scope_) {
      Close("SUPERKERNEL_SCOPE_BOUNDARY", "super-kernel scope '" + open_scope_ +
                                              "' ends: the next kernel, " + KernelLabel(k) +
                                              ", is in scope '" + scope + "'");
    }
    open_scope_ = scope;
    return true;
  }

  // A unit that is not ours: a view that moves no data aliases its input (the segment goes on),
  // anything else ends the open segment.
  void OpBetween(const Unit& u) {
    const model::Graph& g = r_.front_end->graph;
    const auto& n = g.node(u.node);
    const ViewAlias va = ViewAliasOf(g, n);
    if (va.aliases) {
      alias_[n.outputs[0]] = Root(va.source);
      if (!open_.empty()) {
        p_.decisions.push_back({"SUPERKERNEL_VIEW_ALIASED",
                                va.reason + ": a kernel reading " + g.value(n.outputs[0]).name +
                                    " reads the buffer of " + g.value(Root(va.source)).name +
                                    " (no launch, no cut)"});
      }
      return;
    }
    if (open_.empty()) return;
    if (!va.reason.empty()) {
      Close("SUPERKERNEL_VIEW_COPIES", va.reason + ": the segment ends before it");
      return;
    }
    Close("SUPERKERNEL_FALLBACK_BETWEEN",
          "op " + n.op.ToString() + " " + n.name +
              " runs on the reference evaluator (not ours): the segment ends before it");
  }

  // The buffer value `v` lives in: the input of the aliasing views it is a result of, else `v`.
  int Root(int v) const {
    const auto it = alias_.find(v);
    return it == alias_.end() ? v : it->second;
  }

  // What kernel unit `u` reads, each value mapped to the buffer it lives in.
  std::vector<int> ReadBuffers(const Unit& u) const {
    std::vector<int> reads = UnitReads(r_, u);
    for (int& v : reads)
      v = Root(v);
    return reads;
  }

  // Why kernel unit `u` cannot read, in the open segment, a buffer a member wrote ("" if it can).
  std::string DtypeConflict(const Unit& u) const {
    const Kernel& k = r_.kernels[static_cast<std::size_t>(u.kernel)];
    const auto reads = ReadBuffers(u);
    const auto specs = interp::InputShapes(k.hint, o_.bindings);
    for (std::size_t j = 0; j < reads.size() && j < specs.size(); ++j) {
      const auto it = written_.find(reads[j]);
      if (it == written_.end()) continue;
      if (it->second.dtype != specs[j].dtype ||
          data::ShapeNumel(it->second.shape) != data::ShapeNumel(specs[j].shape)) {
        return "kernel " + KernelLabel(k) + " reads " + r_.front_end->graph.value(reads[j]).name +
               " as " + std::string(ir::DTypeName(specs[j].dtype)) +
               ", written in another dtype or shape: the separate run converts it";
      }
    }
    return "";
  }

  void Close(const std::string& code, const std::string& why) {
    if (open_.size() >= 2) {
      MakeSegment();
      if (!code.empty()) p_.decisions.push_back({code, why});
    } else if (!open_.empty() && !code.empty()) {
      const Unit& u = p_.order[static_cast<std::size_t>(open_[0])];
      p_.decisions.push_back(
          {code, "kernel " + KernelLabel(r_.kernels[static_cast<std::size_t>(u.kernel)]) +
                     " runs alone: " + why});
    }
    open_.clear();
    written_.clear();
  }

  void MakeSegment() {
    SuperSegment seg;
    std::vector<int> ins;
    std::vector<int> outs;
    std::set<int> written;
    std::set<int> since_sync;
    for (const int i : open_) {
      const Unit& u = p_.order[static_cast<std::size_t>(i)];
      seg.units.push_back(i);
      seg.kernels.push_back(u.kernel);
      for (const int v : UnitReads(r_, u))
        if (Root(v) != v) seg.alias[v] = Root(v);
      const auto reads = ReadBuffers(u);
      const bool sync = std::ranges::any_of(reads, [&](int v) { return since_sync.contains(v); });
      if (sync) since_sync.clear();
      seg.sync_before.push_back(sync);
      seg.syncs += sync ? 1 : 0;
      for (const int v : reads)
        if (!written.contains(v) && std::ranges::find(ins, v) == ins.end()) ins.push_back(v);
      for (const int v : UnitWrites(r_, u)) {
        written.insert(v);
        since_sync.insert(v);
        outs.push_back(v);
      }
    }
    seg.buffers = ins;
    seg.num_inputs = static_cast<int>(ins.size());
    seg.buffers.insert(seg.buffers.end(), outs.begin(), outs.end());
    const int s = static_cast<int>(p_.segments.size());
    std::string names;
    for (const int i : open_) {
      p_.segment_of_unit[static_cast<std::size_t>(i)] = s;
      const Unit& u = p_.order[static_cast<std::size_t>(i)];
      names +=
          (names.empty() ? "" : ", ") + KernelLabel(r_.kernels[static_cast<std::size_t>(u.kernel)]);
    }
    p_.decisions.push_back({"SUPERKERNEL_JOINED", std::to_string(open_.size()) + " kernels (" +
                                                      names + ") in one launch, " +
                                                      std::to_string(seg.syncs) + " SyncAll"});
    p_.segments.push_back(std::move(seg));
  }

  // Records what kernel unit i writes (dtype and shape as its outputs declare them).
  void Wrote(const Unit& u) {
    const Kernel& k = r_.kernels[static_cast<std::size_t>(u.kernel)];
    const auto specs = interp::OutputShapes(k.hint, o_.bindings);
    const auto& writes = UnitWrites(r_, u);
    for (std::size_t j = 0; j < writes.size() && j < specs.size(); ++j)
      written_.insert_or_assign(writes[j], specs[j]);
  }

  const CompileResult& r_;
  const Options& o_;
  SuperPlan& p_;
  std::vector<int> open_;
  bool marked_ = false;     // the input marks super-kernel scopes (model/scope_markers.h)
  std::string open_scope_;  // the scope of the open segment's kernels, when marked_
  std::map<int, interp::TensorSpec> written_;
  std::map<int, int> alias_;  // the result of an aliasing view -> the buffer value it reads
};

}  // namespace

SuperPlan PlanSuperKernels(const CompileResult& r, const Options& options) {
  SuperPlan plan;
  plan.order = ExecutionOrder(r, &plan.log);
  plan.segment_of_unit.assign(plan.order.size(), -1);
  Planner(r, options, plan).Run();
  return plan;
}

void BuildSuperKernels(SuperPlan& plan, const CompileResult& r, const Options& options) {
  const KernelStageSettings settings = KernelStageSettingsFrom(options, NoTiling::kRefuse);
  for (auto& seg : plan.segments) {
    codegen::SuperKernelSpec spec;
    spec.num_buffers = static_cast<int>(seg.buffers.size());
    for (std::size_t m = 0; m < seg.kernels.size(); ++m) {
      const Kernel& k = r.kernels[static_cast<std::size_t>(seg.kernels[m])];
      codegen::SuperMember member;
      member.hint = &k.hint;
      member.schedule = &k.schedule;
      member.sync_before = seg.sync_before[m];
      const Unit& u = plan.order[static_cast<std::size_t>(seg.units[m])];
      const std::vector<int> reads = UnitReads(r, u);
      const std::vector<int> writes = UnitWrites(r, u);
      for (const auto* vals : {&reads, &writes}) {
        for (const int v : *vals) {
          member.params.push_back(static_cast<int>(std::ranges::find(seg.buffers, seg.BufferOf(v)) -
                                                   seg.buffers.begin()));
        }
      }
      spec.members.push_back(std::move(member));
    }
    try {
      seg.kernel.code = codegen::GenerateSuper(spec, settings.tiling);
      if (options.dump) {
        for (const auto& f : seg.kernel.code.files)
          options.dump("codegen", "// ---- " + f.name + "\n" + f.text);
      }
      if (!options.build) continue;
      std::vector<toolchain::SourceFile> src;
      for (const auto& f : seg.kernel.code.files)
        src.push_back({f.name, f.text});
      seg.kernel.library = toolchain::CompileKernel(src, seg.kernel.code.main_file,
                                                    KernelCompileOptions(seg.kernel.code, options));
    } catch (const codegen::CodegenError& e) {
      seg.kernel.error_code = e.code();
      seg.kernel.error = e.what();
    }
  }
}

}  // namespace af::pipeline
