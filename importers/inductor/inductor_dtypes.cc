// Buffer dtypes from layouts, the FX graph and loop-body propagation (inductor_dtypes.h).
#include "autofuse/importers/inductor_dtypes.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "autofuse/importers/fx_graph.h"
#include "autofuse/model/dtype_code.h"
#include "autofuse/support/error.h"

namespace af::importers::inductor {
namespace {

bool IsTorchDType(const std::string& s) {
  return s.rfind("torch.", 0) == 0 && model::DTypeFromTorchName(s).has_value();
}

// The numeric suffix of bufN / opN (creation order); names without one sort last.
long long CreationIndex(const std::string& name) {
  std::size_t i = name.size();
  while (i > 0 && std::isdigit(static_cast<unsigned char>(name[i - 1])) != 0)
    --i;
  if (i == name.size() || name.size() - i > 9) return 1LL << 40;
  return std::stoll(name.substr(i));
}

// The aten op an extern kernel calls: `extern_kernels.addmm` / `aten.convolution` -> addmm.
std::string ExternOp(const std::string& kernel) {
  const auto dot = kernel.rfind('.');
  return dot == std::string::npos ? kernel : kernel.substr(dot + 1);
}

class Inference {
 public:
  explicit Inference(BufferDTypes* out) : out_(out) {}

  void Set(const std::string& buf, const std::string& dtype, const std::string& source) {
    if (buf.empty() || !IsTorchDType(dtype) || out_->dtype.contains(buf)) return;
    out_->dtype[buf] = dtype;
    out_->source[buf] = source;
    changed_ = true;
  }

  // One pass over a loop body: value dtypes from loads and dtype-naming ops; stores set buffers.
  void Body(const SchedNode& n) {
    std::map<std::string, std::string> val;
    auto of = [&](const std::string& v) -> std::string {
      auto it = val.find(v);
      return it == val.end() ? std::string() : it->second;
    };
    static const std::set<std::string, std::less<>> kBool = {
        "eq",    "ne",          "lt",         "le",          "gt",          "ge",     "isnan",
        "isinf", "logical_and", "logical_or", "logical_not", "logical_xor", "signbit"};
    for (const auto& block : n.body->blocks) {
      for (const BodyOp& op : block.ops) {
        if (op.kind != BodyOp::Kind::kOps) continue;
        const auto& a = op.args;
        std::string d;
        if (op.op == "load") {
          auto it = out_->dtype.find(op.buffer);
          if (it != out_->dtype.end()) d = it->second;
        } else if (op.op == "to_dtype" || op.op == "constant" || op.op == "index_expr") {
          if (a.size() >= 2) d = a[1];
        } else if (op.op == "reduction" && a.size() == 6) {  // 2.0: stores directly
          Set(op.buffer, a[1], "the reduction in " + n.name + "'s loop body");
          continue;
        } else if (op.op == "reduction" && a.size() == 4) {
          if (op.reduction_type.rfind("welford", 0) != 0 && op.reduction_type != "argmax" &&
              op.reduction_type != "argmin")
            d = a[0];
        } else if (op.op == "store" || op.op == "store_reduction") {
          if (a.size() >= 3) Set(op.buffer, of(a[2]), "the value " + n.name + " stores");
          continue;
        } else if (kBool.contains(op.op)) {
          d = "torch.bool";
        } else if (op.op == "where" && a.size() == 3) {
          if (of(a[1]) == of(a[2])) d = of(a[1]);
        } else {
          // Pointwise: the operands' common dtype (value operands only; none known: unknown).
          bool any = false;
          for (const auto& x : a) {
            const std::string t = of(x);
            if (t.empty()) {
              any = false;
              d.clear();
              break;
            }
            if (any && t != d) {
              d.clear();
              break;
            }
            d = t;
            any = true;
          }
        }
        if (!d.empty() && IsTorchDType(d)) val[op.result] = d;
      }
    }
  }

  bool TakeChanged() {
    const bool c = changed_;
    changed_ = false;
    return c;
  }

 private:
  BufferDTypes* out_;
  bool changed_ = false;
};

}  // namespace

BufferDTypes InferBufferDTypes(const IrFile& post, const IrFile* pre, const model::Graph* fx) {
  BufferDTypes r;
  Inference inf(&r);
  // Every scheduler node once (post's leaves, then pre's), in creation order.
  std::vector<const SchedNode*> nodes;
  std::set<std::string> seen;
  for (const IrFile* f : {&post, pre}) {
    if (f == nullptr) continue;
    for (const auto& n : f->nodes) {
      for (const auto* l : n.Leaves()) {
        if (seen.insert(l->name).second) nodes.push_back(l);
      }
    }
  }
  std::stable_sort(nodes.begin(), nodes.end(), [](const SchedNode* a, const SchedNode* b) {
    return CreationIndex(a->name) < CreationIndex(b->name);
  });
  // 1. layouts
  for (const auto* n : nodes) {
    for (const auto& [b, l] : n->buffer_layouts)
      inf.Set(b, l.dtype, "layout");
    for (const auto& o : n->outputs) {
      if (o.layout) inf.Set(o.name, o.layout->dtype, "layout");
    }
  }
  if (fx != nullptr) {
    r.fx_file = fx->file;
    // 2. graph inputs by placeholder name
    for (int id : fx->inputs) {
      const auto& v = fx->value(id);
      if (v.type.IsTensor() && v.type.dtype != ir::DType::kUndefined)
        inf.Set(v.name, model::TorchName(v.type.dtype), "FX placeholder " + v.name);
    }
    // 3. extern kernels by ordinal per aten op, when the counts agree
    std::map<std::string, std::vector<const SchedNode*>> externs;
    for (const auto* n : nodes) {
      if (n->kind == NodeKind::kExtern && !n->kernel.empty())
        externs[ExternOp(n->kernel)].push_back(n);
    }
    for (const auto& [op, ns] : externs) {
      std::vector<const model::Node*> calls;
      for (const auto& fn : fx->nodes) {
        if (fn.kind == model::NodeKind::kOp && fn.op.Is("aten", op) && fn.outputs.size() == 1)
          calls.push_back(&fn);
      }
      if (calls.size() != ns.size()) {
        r.notes.push_back(std::to_string(ns.size()) + " extern " + op + " kernel(s) but " +
                          std::to_string(calls.size()) + " FX call(s) of aten." + op +
                          ": their outputs are not mapped");
        continue;
      }
      for (std::size_t i = 0; i < ns.size(); ++i) {
        const auto& t = fx->value(calls[i]->outputs[0]).type;
        if (!t.IsTensor() || t.dtype == ir::DType::kUndefined) continue;
        for (const auto& w : ns[i]->writes)
          inf.Set(w.buffer, model::TorchName(t.dtype), "FX node " + calls[i]->name);
        inf.Set(ns[i]->name, model::TorchName(t.dtype), "FX node " + calls[i]->name);
      }
    }
  }
  // 4. loop bodies and concat buffers, to a fixpoint (each pass can only add entries)
  for (std::size_t pass = 0; pass <= nodes.size(); ++pass) {
    for (const auto* n : nodes) {
      if (n->body) inf.Body(*n);
      if (n->kind == NodeKind::kNop && std::find(n->ir_classes.begin(), n->ir_classes.end(),
                                                 "ConcatKernel") != n->ir_classes.end()) {
        std::string d;
        bool agree = !n->unmet_dependencies.empty();
        for (const auto& dep : n->unmet_dependencies) {
          auto it = r.dtype.find(dep.buffer);
          if (it == r.dtype.end() || (!d.empty() && d != it->second)) {
            agree = false;
            break;
          }
          d = it->second;
        }
        if (agree) {
          for (const auto& w : n->writes)
            inf.Set(w.buffer, d, "the inputs of the concat " + n->name);
        }
      }
    }
    if (!inf.TakeChanged()) break;
  }
  return r;
}

std::optional<model::Graph> LoadFolderFxGraph(const std::string& ir_file) {
  if (ir_file.empty()) return std::nullopt;
  const auto dir = std::filesystem::path(ir_file).parent_path();
  for (const char* name :
       {"fx_graph_transformed.py", "fx_graph_readable.py", "fx_graph_runnable.py"}) {
    const auto p = dir / name;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(p, ec)) continue;
    try {
      return LoadFxGraphFile(p);
    } catch (const InputError&) {
      continue;  // a damaged FX file: try the next one; without any, groups fall back
    }
  }
  return std::nullopt;
}

}  // namespace af::importers::inductor
