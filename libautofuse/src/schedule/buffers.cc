// Queue/buffer plan shared by every case, and the buffer queries the tiling and codegen share.
#include "buffers.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "af_tiling/elementwise.h"
#include "autofuse/ir/data_movement.h"
#include "autofuse/ir/math_lowering.h"
#include "autofuse/ir/op_registry.h"
#include "node_kinds.h"

namespace af::schedule {
namespace {

using ir::Graph;
using ir::Node;
using sym::Expr;

// The dim a strided load reads contiguously (stride 1, extent > 1), if any.
std::optional<int> ContiguousDim(const ir::Tensor& t) {
  for (std::size_t j = 0; j < t.strides.size(); ++j) {
    if (t.strides[j] == Expr(1) && t.repeats[j] != Expr(1)) return static_cast<int>(j);
  }
  return std::nullopt;
}

// Plans the buffers in steps: VECOUT queues, strided loads, VECIN queues, compute TBufs, work
// buffers, then what each buffer holds (tenants, extent-1 masks, parts).
class BufferPlanner {
 public:
  BufferPlanner(ScheduleResult& r, const hw::Profile& profile)
      : r_(r),
        g_(r.graph),
        n_(static_cast<int>(r.graph.nodes.size())),
        reduces_(r.groups.passes > 0),
        budget_(static_cast<int>(profile.max_queues)),
        consumers_(r.graph.Consumers()) {}

  void Run() {
    r_.placed.assign(n_, NodeBuffers{});
    // Gathers read rows from GM into a VECIN queue like loads; they come first, so they get
    // queues of their own (the staging path is for plain loads).
    for (int i = 0; i < n_; ++i) {
      if (g_.nodes[i].type == "Gather") loads_.push_back(i);
    }
    for (int i = 0; i < n_; ++i) {
      if (g_.nodes[i].type == "Load") (IsStridedLoad(g_.nodes[i]) ? strided_ : loads_).push_back(i);
      if (g_.nodes[i].type == "Store") stores_.push_back(i);
    }
    PlanStoreQueues();
    PlanStridedLoads();
    last_use_.assign(n_, -1);
    for (int i = 0; i < n_; ++i) {
      for (const auto& [c, slot] : consumers_[i])
        last_use_[i] = std::max(last_use_[i], c);
    }
    PlanLoadQueues();
    PlanGatherRows();
    PlanComputeBuffers();
    for (const auto& [s, q] : store_queue_)
      r_.placed[s].store_queue = q;
    AddCompareBuffers();
    if (reduces_) AddReduceBuffers();
    // Row alignment: 32 bytes of the narrowest dtype held in UB.
    int min_esize = 4;
    for (const auto& b : r_.buffers)
      min_esize = std::min(min_esize, b.esize);
    r_.row_align = 32 / std::max(1, min_esize);
    RecordTenants();
    RecordMasks();
    if (r_.parts.dim) RecordParts();
  }

 private:
  int Add(BufKind kind, int buf_num, int esize) {
    Buffer b;
    b.id = static_cast<int>(r_.buffers.size());
    b.kind = kind;
    b.buf_num = buf_num;
    b.esize = esize;
    r_.buffers.push_back(b);
    return b.id;
  }

  int ESize(int node) const { return std::max(1, ir::DTypeBytes(g_.nodes[node].outputs[0].dtype)); }

  int PartOfNode(int i) const {
    return g_.nodes[i].outputs.empty() ? af_tiling::kPartFull : PartOf(r_, g_.nodes[i].outputs[0]);
  }

  // In reduce graphs, R-invariant results (reduce results and what is computed from them, and
  // broadcast operands loaded once per A iteration) live across the R loop of the common
  // template: they get buffers of their own, never shared by lifetime.
  bool Persistent(int i) const {
    return reduces_ && (r_.groups.r_invariant[i] || IsReduce(g_.nodes[i])) &&
           g_.nodes[i].type != "Store";
  }

  // VECOUT: one queue per store when that leaves a VECIN queue, else shared queues: one per part
  // of the stores when the budget allows (each sized for its part), else one.
  void PlanStoreQueues() {
    min_in_ = static_cast<int>(strided_.size()) + (loads_.empty() ? 0 : 1);
    own_out_ = static_cast<int>(stores_.size()) + min_in_ <= budget_;
    std::set<int> store_parts;
    for (int s : stores_)
      store_parts.insert(PartOfNode(s));
    const bool out_per_part = static_cast<int>(store_parts.size()) + min_in_ <= budget_;
    std::map<int, int> shared_out;  // part (kPartFull when one for all) -> buffer
    for (int s : stores_) {
      const int producer = g_.nodes[s].inputs[0].node;
      if (own_out_) {
        store_queue_[s] = Add(BufKind::kQueueOut, 2, ESize(producer));
      } else {
        const int key = out_per_part ? PartOfNode(s) : af_tiling::kPartFull;
        if (!shared_out.contains(key)) {
          shared_out[key] = Add(BufKind::kQueueOut, 2, ESize(producer));
        }
        const int q = shared_out[key];
        r_.buffers[q].esize = std::max(r_.buffers[q].esize, ESize(producer));
        store_queue_[s] = q;
      }
    }
    if (!own_out_) {
      r_.decisions.push_back(
          {"buffers", "SHARED_VECOUT_QUEUE",
           std::to_string(stores_.size()) + " stores share " +
               (shared_out.size() == 1
                    ? std::string("one VECOUT queue")
                    : std::to_string(shared_out.size()) + " VECOUT queues, one per part") +
               " (queue budget " + std::to_string(budget_) + "); results are copied into it"});
    }
    out_queues_ = own_out_ ? static_cast<int>(stores_.size()) : static_cast<int>(shared_out.size());
    if (out_queues_ + min_in_ > budget_) {
      throw ScheduleError("TOO_MANY_STRIDED_LOADS",
                          "graph '" + g_.name + "' has " + std::to_string(strided_.size()) +
                              " strided loads, each needing a VECIN queue of its own, besides " +
                              std::to_string(out_queues_) + " VECOUT queue(s)" +
                              (loads_.empty() ? "" : " and one for its other loads") +
                              " (queue budget " + std::to_string(budget_) + ")");
    }
  }

  // Strided loads: a VECIN queue for the GM-order block, a TBuf (PlanComputeBuffers) for the
  // loop-order one, and the Gather offsets between them.
  void PlanStridedLoads() {
    for (const int l : strided_) {
      const int q = Add(BufKind::kQueueIn, 2, ESize(l));
      r_.buffers[q].role = "gather_staging";
      r_.buffers[q].gather_dim = ContiguousDim(g_.nodes[l].outputs[0]);
      r_.placed[l].gather_queue = q;
      const int off = Add(BufKind::kTBuf, 1, 4);
      r_.buffers[off].role = "gather_offsets";
      r_.buffers[off].one_mask = OneMask(g_.nodes[l].outputs[0]);
      r_.buffers[off].all_full = false;
      r_.placed[l].gather_offsets = off;
      const std::optional<int> gd = r_.buffers[q].gather_dim;
      r_.decisions.push_back(
          {"buffers", "STRIDED_LOAD_GATHER",
           "'" + g_.nodes[l].name + "' reads its innermost dim with stride " +
               g_.nodes[l].outputs[0].strides.back().ToString() + ": copied in GM order into " +
               r_.buffers[q].Name() +
               (gd ? " (rows along " + g_.FindAxis(r_.dims[static_cast<std::size_t>(*gd)])->name +
                         " when the tile dim is at or before it, else one element per row)"
                   : " (one element per row: no dim is contiguous)") +
               ", then gathered into loop order with offsets in " + r_.buffers[off].Name()});
    }
  }

  // Innermost-dim Gathers: a TBuf for the params row (its fixed length, whatever the tile) and
  // one for the uint32 Gather offsets of the index block (the index Load's layout: extent 1
  // along the params dims). Neither is compact in unaligned cases.
  void PlanGatherRows() {
    for (int i = 0; i < n_; ++i) {
      const Node& n = g_.nodes[i];
      if (n.type != "Gather" || !ir::GatherInnermost(n)) continue;
      const ir::AttrValue* ext = n.FindAttr("gather_extent");
      const auto* e = ext != nullptr ? std::get_if<Expr>(ext) : nullptr;
      if (e == nullptr) {
        throw ScheduleError("GATHER_VIEW", "Gather '" + n.name + "' lacks its gather_extent");
      }
      const int row = Add(BufKind::kTBuf, 1, ESize(i));
      r_.buffers[row].role = "gather_row";
      r_.buffers[row].fixed_elems = *e;
      r_.buffers[row].all_full = false;
      const int off = Add(BufKind::kTBuf, 1, 4);
      r_.buffers[off].role = "gather_row_offsets";
      r_.buffers[off].one_mask = OneMask(g_.nodes[n.inputs.at(1).node].outputs.at(0));
      r_.buffers[off].all_full = false;
      r_.placed[i].gather_row = row;
      r_.placed[i].gather_row_offsets = off;
      r_.decisions.push_back({"buffers", "GATHER_ROW_BUFFERS",
                              "Gather '" + n.name + "' loads each params row (" + e->ToString() +
                                  " elements) into " + r_.buffers[row].Name() +
                                  " and gathers it with the byte offsets in " +
                                  r_.buffers[off].Name()});
    }
  }

  // A load takes over the VECIN queue of an earlier load of the same dtype size and part once
  // that one's values are dead (a concat turned into stores: one input after another). Only in
  // graphs with parts: their templates (elementwise, concat) free a load at its last reader, as
  // planned here; the reduce and brc_inline templates keep some loads longer. Returns the index
  // into `owner` (per queue: its latest load), or -1.
  int ReusableQueue(int l, const std::vector<int>& owner) const {
    const bool queue_reuse = r_.parts.dim && !reduces_;
    for (std::size_t q = 0; queue_reuse && q < owner.size() && g_.nodes[l].type == "Load"; ++q) {
      const int o = owner[q];
      if (last_use_[o] < l && ESize(o) == ESize(l) && PartOfNode(o) == PartOfNode(l)) {
        return static_cast<int>(q);
      }
    }
    return -1;
  }

  // VECIN queues of the loads and gathers, with that reuse; beyond the budget, later loads go
  // through one shared staging queue and a UB-to-UB copy into a TBuf.
  void PlanLoadQueues() {
    int needed = 0;  // VECIN queues the loads need with that reuse
    {
      std::vector<int> owner;  // per queue: its latest load
      for (const int l : loads_) {
        const int q = ReusableQueue(l, owner);
        if (q >= 0) {
          owner[static_cast<std::size_t>(q)] = l;
        } else {
          owner.push_back(l);
        }
      }
      needed = static_cast<int>(owner.size());
    }
    const int in_budget = std::max(1, budget_ - out_queues_ - static_cast<int>(strided_.size()));
    const bool stage = needed > in_budget;
    std::vector<int> owner;     // per own VECIN queue: its latest load
    std::vector<int> queue_of;  // per own VECIN queue: the buffer
    for (const int l : loads_) {
      const int q = ReusableQueue(l, owner);
      if (q >= 0) {
        owner[static_cast<std::size_t>(q)] = l;
        r_.placed[l].buffer = queue_of[static_cast<std::size_t>(q)];
        r_.decisions.push_back(
            {"buffers", "REUSE_QUEUE",
             "'" + g_.nodes[l].name + "' reuses " +
                 r_.buffers[static_cast<std::size_t>(*r_.placed[l].buffer)].Name() +
                 " (the previous load's values are dead)"});
      } else if (!stage || static_cast<int>(owner.size()) < in_budget - 1) {
        const int b = Add(BufKind::kQueueIn, 2, ESize(l));
        r_.placed[l].buffer = b;
        owner.push_back(l);
        queue_of.push_back(b);
      } else if (g_.nodes[l].type == "Gather") {
        throw ScheduleError("TOO_MANY_GATHERS",
                            "Gather '" + g_.nodes[l].name +
                                "' would need a VECIN queue beyond the budget of " +
                                std::to_string(budget_));
      } else {
        if (staging_ < 0) {
          staging_ = Add(BufKind::kQueueIn, 2, ESize(l));
          r_.work.staging_queue = staging_;
          r_.decisions.push_back({"buffers", "UB2UB_STAGING",
                                  "more loads than VECIN queues (" + std::to_string(in_budget) +
                                      "): later loads go through a shared queue and a UB-to-UB "
                                      "copy into a TBuf"});
        }
        r_.buffers[staging_].esize = std::max(r_.buffers[staging_].esize, ESize(l));
        r_.placed[l].staged = true;
      }
    }
  }

  // Compute results: straight into the store's queue when the store is the only consumer and
  // the queue is its own; otherwise a TBuf, reused once its last consumer has run by a tensor of
  // the same element size and part.
  void PlanComputeBuffers() {
    struct Slot {
      int buffer;
      int busy_until;
      int part;
    };
    std::vector<Slot> slots;
    for (int i = 0; i < n_; ++i) {
      const Node& node = g_.nodes[i];
      const bool gathered = r_.placed[i].gather_queue.has_value();
      const bool needs_tbuf = (IsCompute(node) && node.type != "Load" && node.type != "Store" &&
                               node.type != "Gather") ||
                              node.type == "Scalar" || r_.placed[i].staged || gathered;
      if (!needs_tbuf) continue;
      if (consumers_[i].size() == 1 && own_out_ &&
          g_.nodes[consumers_[i][0].first].type == "Store" && node.type != "Scalar" &&
          !r_.placed[i].staged && !gathered && !Persistent(i)) {
        r_.placed[i].buffer = store_queue_[consumers_[i][0].first];
        continue;
      }
      int chosen = -1;
      for (auto& s : slots) {
        if (Persistent(i)) break;
        if (s.busy_until < i && r_.buffers[s.buffer].esize == ESize(i) && s.part == PartOfNode(i)) {
          // The buffer grows to the larger block: extent 1 only where both blocks have it.
          r_.buffers[s.buffer].one_mask &= OneMask(node.outputs.at(0));
          chosen = s.buffer;
          s.busy_until = last_use_[i];
          break;
        }
      }
      if (chosen < 0) {
        chosen = Add(BufKind::kTBuf, 1, ESize(i));
        r_.buffers[chosen].one_mask = OneMask(node.outputs.at(0));
        if (!Persistent(i)) slots.push_back({chosen, last_use_[i], PartOfNode(i)});
      } else {
        r_.decisions.push_back({"buffers", "REUSE_TBUF",
                                "'" + node.name + "' reuses " + r_.buffers[chosen].Name() +
                                    " (its previous tensor is dead)"});
      }
      r_.placed[i].buffer = chosen;
    }
  }

  // Comparison work buffers (see ScheduleResult::cmp_mask).
  void AddCompareBuffers() {
    bool compares = false;
    for (int i = 0; i < n_; ++i) {
      const ir::OpDef* op = ir::FindOp(g_.nodes[i].type);
      if (op != nullptr && op->compute == ir::ComputeType::kElewise &&
          (op->out_rule == ir::DTypeRule::kBool || g_.nodes[i].type == "Where" ||
           g_.nodes[i].type == "Select" || g_.nodes[i].type == "MaskedFill")) {
        // LogicalNot and the math set's predicates (IsNan ...) have APIs of their own.
        compares = compares || (g_.nodes[i].type != "LogicalNot" && !ir::MathLowering(op->code));
      }
    }
    AddMathTmp();
    if (!compares) return;
    const int mask = Add(BufKind::kTBuf, 1, 1);
    r_.buffers[mask].role = "cmp_mask";
    r_.buffers[mask].all_full = false;
    r_.work.cmp_mask = mask;
    const int half = Add(BufKind::kTBuf, 1, 2);
    r_.buffers[half].role = "cmp_half";
    r_.buffers[half].all_full = false;
    r_.work.cmp_half = half;
    r_.vec_align_bytes = 512;
  }

  // The math set's work tensor (ir::kCallTmp): one tile of the widest compute type (4 bytes, or
  // 8 for LShift/RShift of int64).
  void AddMathTmp() {
    int bytes = 0;
    for (int i = 0; i < n_; ++i) {
      const ir::OpDef* op = ir::FindOp(g_.nodes[i].type);
      if (op == nullptr || !ir::MathNeedsTmp(op->code)) continue;
      bytes = std::max({bytes, 4, ir::DTypeBytes(g_.nodes[i].outputs.at(0).dtype)});
    }
    if (bytes == 0) return;
    const int tmp = Add(BufKind::kTBuf, 1, bytes);
    r_.buffers[tmp].role = "math_tmp";
    r_.buffers[tmp].all_full = false;
    r_.work.math_tmp = tmp;
  }

  // Reduce work buffers: the partial result of one R iteration (common template), and the
  // intermediate of a two-step reduction (two R dims inside one UB block).
  void AddReduceBuffers() {
    std::uint32_t out_mask = ~0u;
    std::uint32_t in_mask = ~0u;
    for (int i = 0; i < n_; ++i) {
      if (!IsReduce(g_.nodes[i])) continue;
      out_mask &= OneMask(g_.nodes[i].outputs.at(0));
      const auto& in = g_.nodes[i].inputs.at(0);
      in_mask &= OneMask(g_.nodes[in.node].outputs.at(in.output));
    }
    const int partial = Add(BufKind::kTBuf, 1, 4);
    r_.buffers[partial].one_mask = out_mask;
    r_.buffers[partial].role = "reduce_partial";
    r_.work.reduce_partial = partial;
    AddArgMaxTmp();
    int r_dims = 0;
    for (bool b : r_.groups.r_dim)
      r_dims += b ? 1 : 0;
    if (r_dims >= 2) {
      const int scratch = Add(BufKind::kTBuf, 1, 4);
      r_.buffers[scratch].one_mask = in_mask;
      r_.buffers[scratch].role = "reduce_scratch";
      r_.work.reduce_scratch = scratch;
    }
  }

  // ArgMax's ReduceMax(dst, src, sharedTmpBuffer, count, true) work tensor. The AscendC
  // ReduceMax page sizes it from the first pass's (value, index) pair per 256-byte repeat of
  // `count`, then the passes after it; we give it one byte per input element (at least 8x the
  // first pass's pairs for float, 32x for half; that it covers the later passes too is our
  // assumption, the exact formula not checked).
  void AddArgMaxTmp() {
    for (int i = 0; i < n_; ++i) {
      if (g_.nodes[i].type != "ArgMax") continue;
      const auto& in = g_.nodes[i].inputs.at(0);
      const int tmp = Add(BufKind::kTBuf, 1, 1);
      r_.buffers[tmp].one_mask = OneMask(g_.nodes[in.node].outputs.at(in.output));
      r_.buffers[tmp].role = "argmax_tmp";
      r_.work.argmax_tmp = tmp;
      return;
    }
  }

  // The nodes each buffer holds, and whether every block it holds is full (no extent-1 dim).
  void RecordTenants() {
    // Staged loads keep their own TBuf (above) and borrow the staging queue while copying.
    for (int i = 0; i < n_; ++i) {
      if (const auto b = r_.placed[i].buffer) r_.buffers[*b].nodes.push_back(i);
    }
    if (staging_ >= 0) {
      for (int i = 0; i < n_; ++i) {
        if (r_.placed[i].staged) r_.buffers[staging_].nodes.push_back(i);
      }
    }
    for (int i = 0; i < n_; ++i) {
      if (const auto q = r_.placed[i].gather_queue) r_.buffers[*q].nodes.push_back(i);
    }
    for (auto& b : r_.buffers) {
      for (int i : b.nodes) {
        if (!g_.nodes[i].outputs.empty() && OneMask(g_.nodes[i].outputs[0]) != 0) {
          b.all_full = false;
        }
      }
    }
    for (int st = 0; st < n_; ++st) {
      const auto q = r_.placed[st].store_queue;
      if (q && OneMask(g_.nodes[st].outputs.at(0)) != 0) {
        r_.buffers[*q].all_full = false;
      }
    }
  }

  // Queue masks: dims along which every block the queue carries has extent 1.
  void RecordMasks() {
    for (auto& b : r_.buffers) {
      if (b.kind == BufKind::kTBuf) continue;
      std::uint32_t m = ~0u;
      for (int i : b.nodes)
        m &= g_.nodes[i].outputs.empty() ? 0u : OneMask(g_.nodes[i].outputs[0]);
      for (int st = 0; st < n_; ++st) {
        if (r_.placed[st].store_queue == b.id) m &= OneMask(g_.nodes[st].outputs.at(0));
      }
      b.one_mask = b.nodes.empty() && m == ~0u ? 0u : m;
    }
    for (auto& b : r_.buffers) {
      if (r_.dims.size() < 32) b.one_mask &= (1u << r_.dims.size()) - 1u;
    }
  }

  // Concat parts: a buffer whose every tenant has one input's extent along the concat dim is
  // sized for it; any other mix gets the full extent.
  void RecordParts() {
    for (auto& b : r_.buffers) {
      std::vector<const ir::Tensor*> held;
      for (int i : b.nodes) {
        if (!g_.nodes[i].outputs.empty()) held.push_back(g_.nodes[i].outputs.data());
      }
      for (int st = 0; st < n_; ++st) {
        if (r_.placed[st].store_queue == b.id) held.push_back(&g_.nodes[st].outputs.at(0));
      }
      int part = held.empty() ? af_tiling::kPartFull : PartOf(r_, *held[0]);
      for (const auto* t : held) {
        if (PartOf(r_, *t) != part) part = af_tiling::kPartFull;
      }
      b.part = part;
    }
  }

  ScheduleResult& r_;
  const Graph& g_;
  const int n_;
  const bool reduces_;
  const int budget_;
  const std::vector<std::vector<std::pair<int, int>>> consumers_;
  std::vector<int> loads_;  // contiguous-row loads and gathers
  std::vector<int> strided_;
  std::vector<int> stores_;
  std::vector<int> last_use_;       // per node: its last consumer, or -1
  int min_in_ = 0;                  // VECIN queues the loads need at least
  bool own_out_ = false;            // one VECOUT queue per store
  int out_queues_ = 0;              // VECOUT queues
  std::map<int, int> store_queue_;  // store node -> buffer
  int staging_ = -1;                // the shared VECIN queue of staged loads
};

}  // namespace

void PlanBuffers(ScheduleResult& r, const hw::Profile& profile) {
  BufferPlanner(r, profile).Run();
}

std::uint32_t OneMask(const ir::Tensor& t) {
  std::uint32_t m = 0;
  for (std::size_t j = 0; j < t.repeats.size() && j < 32; ++j) {
    if (t.repeats[j] == Expr(1)) m |= 1u << j;
  }
  return m;
}

std::string_view BufKindName(BufKind k) {
  switch (k) {
    case BufKind::kQueueIn:
      return "TQue<VECIN>";
    case BufKind::kQueueOut:
      return "TQue<VECOUT>";
    case BufKind::kTBuf:
      return "TBuf<VECCALC>";
  }
  return "?";
}

bool BufferUsedBy(const Buffer& b, CaseKind kind) {
  if (b.role.rfind("unaligned_", 0) == 0) return kind == CaseKind::kUnaligned;
  if (b.role.rfind("concat_", 0) == 0) return kind == CaseKind::kConcatGather;
  return true;
}

bool BufferCompact(const Buffer& b, CaseKind kind) {
  return kind == CaseKind::kUnaligned && b.all_full && b.one_mask == 0;
}

std::int32_t BufferRun(const Buffer& b, int tile_dim) {
  if (b.role != "gather_staging") return af_tiling::kRunInner;
  return b.gather_dim && *b.gather_dim >= tile_dim ? af_tiling::kRunAt(*b.gather_dim)
                                                   : af_tiling::kRunElements;
}

std::string Buffer::Name() const {
  return (kind == BufKind::kTBuf ? "b" : "q") + std::to_string(id);
}

}  // namespace af::schedule
