// Cube + vector kernels: the partition of a hint graph around its matrix product (see
// autofuse/schedule/groups.h, PartitionCube, and docs/schedule.md "CV templates").
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "autofuse/ir/conv.h"
#include "autofuse/ir/cube.h"
#include "autofuse/ir/data_movement.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/schedule/groups.h"
#include "group_parts.h"
#include "node_kinds.h"

namespace af::schedule {
namespace {

using ir::Graph;
using ir::Node;
using sym::Expr;

bool IsCubeNode(const Node& n) {
  const ir::OpDef* op = ir::FindOp(n.type);
  return op != nullptr && op->compute == ir::ComputeType::kCube;
}

// The refusal of a cube node no cube + vector kernel takes: a convolution, an op variant this
// compiler does not take, a malformed attribute.
void CheckCubeNode(const Node& n, ir::MatMulInfo* info) {
  std::string error;
  if (const ir::OpDef* op = ir::FindOp(n.type); op != nullptr && ir::IsConvOp(op->code)) {
    const auto c = ir::ReadConv2D(n, &error);
    if (!c) throw ScheduleError("CUBE_BAD_ATTR", "node '" + n.name + "': " + error);
    throw ScheduleError(ir::ConvRefusal(*c), "node '" + n.name + "' (" + n.type +
                                                 ") is a convolution: no fused kernel takes "
                                                 "one (docs/ir.md, \"Cube ops\")");
  }
  const auto m = ir::ReadMatMul(n, &error);
  if (!m) throw ScheduleError("CUBE_BAD_ATTR", "node '" + n.name + "': " + error);
  if (const auto code = ir::CubeRefusal(*m)) {
    throw ScheduleError(*code, "node '" + n.name + "' (" + n.type +
                                   ") is a cube op variant this compiler does not take "
                                   "(docs/ir.md, \"Cube ops\")");
  }
  *info = *m;
}

bool IsDense(const ir::Tensor& t) {
  const ir::Tensor d = DenseView(t, t.dtype);
  for (std::size_t j = 0; j < t.repeats.size(); ++j) {
    if (t.repeats[j] == Expr(1)) continue;
    if (j >= t.strides.size() || !ir::SameRepeat(t.strides[j], d.strides[j])) return false;
  }
  return true;
}

class CubePartitioner {
 public:
  explicit CubePartitioner(const Graph& g) : g_(g) {}

  GroupPartition Run() {
    FindCube();
    CheckWork();
    for (const auto& n : g_.nodes) {
      if (n.type == "Data") ++inputs_;
      if (n.type == "Output") ++outputs_;
    }
    p_.num_params = inputs_ + outputs_;
    for (const auto& n : g_.nodes)
      names_.insert(n.name);
    ReadOperands();
    const bool prologue = operand_ws_[0] >= 0 || operand_ws_[1] >= 0;
    if (prologue) p_.groups.push_back(BuildPrologue());
    acc_ws_ = static_cast<int>(p_.workspace.size());
    const ir::Tensor& out = Cube().outputs.at(0);
    Expr elems(1);
    for (const auto& r : out.repeats)
      elems = elems * r;
    p_.workspace.push_back(
        {Cube().name, ir::DType::kFloat32, elems, static_cast<int>(p_.groups.size())});
    p_.decisions.push_back({"groups", "CUBE_WORKSPACE",
                            "kCommon: the cube writes the fp32 product of '" + Cube().name +
                                "' to GM workspace tensor " + std::to_string(acc_ws_) + " of " +
                                elems.ToString() +
                                " elements; the epilogue reads it after a SyncAll<false>"});
    p_.groups.push_back(BuildCubeGroup(prologue));
    const int cube_at = static_cast<int>(p_.groups.size()) - 1;
    p_.groups.push_back(BuildEpilogue());
    FindFixpipe(cube_at, static_cast<int>(p_.groups.size()) - 1);
    return std::move(p_);
  }

 private:
  const Node& Cube() const { return g_.nodes[static_cast<std::size_t>(c_)]; }

  void FindCube() {
    for (std::size_t i = 0; i < g_.nodes.size(); ++i) {
      if (!IsCubeNode(g_.nodes[i])) continue;
      CheckCubeNode(g_.nodes[i], &mm_);
      if (c_ >= 0) {
        throw ScheduleError("CUBE_MULTIPLE", "nodes '" + Cube().name + "' and '" +
                                                 g_.nodes[i].name +
                                                 "' both run on the cube: a cube + vector kernel "
                                                 "takes one matrix product");
      }
      c_ = static_cast<int>(i);
    }
    const ir::Tensor* x1 = ir::InputTensor(g_, Cube(), 0);
    if (x1 == nullptr) throw ScheduleError("CUBE_BAD_ATTR", "node '" + Cube().name + "': no x1");
    if (x1->dtype == ir::DType::kFloat32) {
      throw ScheduleError("CUBE_FP32_UNSUPPORTED",
                          "node '" + Cube().name +
                              "' multiplies fp32 operands: the cube loads them with a fractal "
                              "transpose the CPU runtime's LoadData does not model for fp32 "
                              "(docs/runtime.md, \"Cube side\")");
    }
  }

  // Only elementwise and broadcast work around the product: the groups have no reduction or data
  // movement templates beside a cube group.
  void CheckWork() const {
    for (const auto& n : g_.nodes) {
      if (!IsCompute(n) || IsCubeNode(n)) continue;
      const ir::OpDef* op = ir::FindOp(n.type);
      const ir::ComputeType t = op->compute;
      if (t == ir::ComputeType::kElewise || t == ir::ComputeType::kBroadcast ||
          t == ir::ComputeType::kLoad || t == ir::ComputeType::kStore)
        continue;
      const bool reduce = IsReduce(n) || n.type == "Softmax";
      throw ScheduleError(reduce ? "CUBE_WITH_REDUCE" : "CUBE_WITH_DATA_MOVEMENT",
                          "node '" + n.name + "' (" + n.type + ") beside cube node '" +
                              Cube().name +
                              "': a cube + vector kernel takes elementwise and broadcast work "
                              "around its product only");
    }
  }

  // x1 and x2: a Data node read whole by the cube (dense in GM), or a computed value the
  // prologue stores to a workspace tensor; the batch strides of each; M, N, K.
  void ReadOperands() {
    const ir::Tensor& out = Cube().outputs.at(0);
    const std::size_t rank = out.repeats.size();
    for (int i = 0; i < 2; ++i) {
      const Node& src = g_.nodes.at(static_cast<std::size_t>(Cube().inputs.at(i).node));
      const ir::Tensor& t = *ir::InputTensor(g_, Cube(), static_cast<std::size_t>(i));
      if (src.type == "Data") {
        if (!IsDense(t)) {
          throw ScheduleError("CUBE_OPERAND_LAYOUT",
                              "operand x" + std::to_string(i + 1) + " of '" + Cube().name +
                                  "' (Data '" + src.name +
                                  "') is not dense in GM: the cube reads whole rows");
        }
        operand_param_[i] = static_cast<int>(src.IntAttr("index").value_or(0));
      } else {
        operand_ws_[i] = static_cast<int>(p_.workspace.size());
        Expr elems(1);
        for (const auto& r : t.repeats)
          elems = elems * r;
        p_.workspace.push_back({src.name, t.dtype, elems, 0});
        operand_param_[i] = -1;
        p_.decisions.push_back(
            {"groups", "CUBE_PROLOGUE",
             "operand x" + std::to_string(i + 1) + " of '" + Cube().name + "' is computed ('" +
                 src.name + "', " + std::string(ir::DTypeName(t.dtype)) +
                 "): the prologue stores it to GM workspace tensor " +
                 std::to_string(operand_ws_[i]) + " for the cube to read after a SyncAll<false>"});
      }
      // Batch strides of a dense operand: the elements after each batch dim; 0 where the dim is
      // 1 or missing (it broadcasts).
      std::vector<Expr> strides;
      const std::size_t r = t.repeats.size();
      const std::size_t nb = rank - 2;
      for (std::size_t d = 0; d < nb; ++d) {
        const std::size_t missing = nb - (r - 2);
        if (d < missing || t.repeats[d - missing] == Expr(1)) {
          strides.emplace_back(0);
          continue;
        }
        Expr after(1);
        for (std::size_t j = d - missing + 1; j < r; ++j)
          after = after * t.repeats[j];
        strides.push_back(after);
      }
      (i == 0 ? cube_.x1_batch_stride : cube_.x2_batch_stride) = strides;
      if (i == 0) {
        cube_.in_dtype = t.dtype;
        cube_.k = t.repeats[mm_.transpose_x1 ? r - 2 : r - 1];
      }
    }
    cube_.batch.assign(out.repeats.begin(), out.repeats.end() - 2);
    cube_.m = out.repeats[rank - 2];
    cube_.n = out.repeats[rank - 1];
    cube_.node = Cube().name;
    cube_.mm = mm_;
  }

  // The nodes a set of values needs, in graph order, not entering the cube node.
  std::vector<int> Cone(const std::vector<int>& seeds) const {
    std::vector<bool> need(g_.nodes.size(), false);
    for (const int s : seeds)
      need[static_cast<std::size_t>(s)] = true;
    for (std::size_t i = g_.nodes.size(); i-- > 0;) {
      if (!need[i] || static_cast<int>(i) == c_) continue;
      for (const auto& in : g_.nodes[i].inputs)
        need[static_cast<std::size_t>(in.node)] = true;
    }
    std::vector<int> out;
    for (std::size_t i = 0; i < need.size(); ++i)
      if (need[i]) out.push_back(static_cast<int>(i));
    return out;
  }

  // Copies nodes `cone` of the hint graph into h (Data and Output renumbered, their kernel
  // parameters recorded); `value` maps node -> its value in h, pre-seeded for replaced nodes.
  void CopyNodes(const std::vector<int>& cone, Graph& h, std::map<int, ir::InputRef>& value,
                 std::vector<int>& in_params, std::vector<int>& out_params) const {
    for (const int i : cone) {
      if (i == c_ || value.contains(i)) continue;
      Node n = g_.nodes[static_cast<std::size_t>(i)];
      for (auto& in : n.inputs) {
        const auto it = value.find(in.node);
        in = it->second.output == -1 ? ir::InputRef{it->second.node, in.output} : it->second;
      }
      if (n.type == "Data") {
        in_params.push_back(static_cast<int>(n.IntAttr("index").value_or(0)));
        n.attrs["index"] = std::int64_t{static_cast<int>(in_params.size()) - 1};
      } else if (n.type == "Output") {
        out_params.push_back(inputs_ + static_cast<int>(n.IntAttr("index").value_or(0)));
        n.attrs["index"] = std::int64_t{static_cast<int>(out_params.size()) - 1};
      }
      h.nodes.push_back(n);
      // output -1: "the same output index as the reference" (the copied node's own outputs)
      value[i] = {static_cast<int>(h.nodes.size()) - 1, -1};
    }
  }

  Graph NewGraph(const std::string& suffix) const {
    Graph h;
    h.name = g_.name + suffix;
    h.type = g_.type;
    h.size_vars = g_.size_vars;
    h.axes = g_.axes;
    return h;
  }

  // Appends Store + Output writing `v` (of view `t`) to workspace tensor w.
  void StoreTo(Graph& h, ir::InputRef v, const ir::Tensor& t, const ir::SchedInfo& sched, int w,
               std::vector<int>& out_params) {
    AppendWorkspaceStore(h, names_, v, t, sched, w, static_cast<std::int64_t>(out_params.size()));
    out_params.push_back(p_.num_params + w);
  }

  GroupGraph BuildPrologue() {
    GroupGraph gg;
    gg.graph = NewGraph("_prologue");
    std::vector<int> seeds;
    for (int i = 0; i < 2; ++i)
      if (operand_ws_[i] >= 0) seeds.push_back(Cube().inputs[static_cast<std::size_t>(i)].node);
    std::map<int, ir::InputRef> value;
    std::vector<int> in_params;
    std::vector<int> out_params;
    CopyNodes(Cone(seeds), gg.graph, value, in_params, out_params);
    for (int i = 0; i < 2; ++i) {
      if (operand_ws_[i] < 0) continue;
      const ir::InputRef& ref = Cube().inputs[static_cast<std::size_t>(i)];
      const Node& src = g_.nodes[static_cast<std::size_t>(ref.node)];
      StoreTo(gg.graph, {value.at(ref.node).node, ref.output},
              src.outputs.at(static_cast<std::size_t>(ref.output)), src.sched, operand_ws_[i],
              out_params);
    }
    gg.params = in_params;
    gg.params.insert(gg.params.end(), out_params.begin(), out_params.end());
    return gg;
  }

  // The cube group's graph (for the dumps, the report and the viewer): its operands as Data, the
  // product in fp32 (bias, has_relu and the rounding are the epilogue's), stored to the
  // workspace.
  GroupGraph BuildCubeGroup(bool after_prologue) {
    GroupGraph gg;
    gg.graph = NewGraph("_cube");
    Graph& h = gg.graph;
    for (int i = 0; i < 2; ++i) {
      const ir::Tensor& t = *ir::InputTensor(g_, Cube(), static_cast<std::size_t>(i));
      Node d;
      d.name = FreshName(names_, "x" + std::to_string(i + 1));
      d.type = "Data";
      d.attrs["index"] = std::int64_t{i};
      d.outputs.push_back(DenseView(t, t.dtype));
      h.nodes.push_back(d);
      gg.params.push_back(operand_param_[i] >= 0 ? operand_param_[i]
                                                 : p_.num_params + operand_ws_[i]);
    }
    Node mm = Cube();
    mm.type = mm_.batch ? "BatchMatMul" : "MatMul";
    mm.inputs = {{0, 0}, {1, 0}};
    mm.attrs.erase("has_relu");
    mm.outputs.at(0) = DenseView(Cube().outputs.at(0), ir::DType::kFloat32);
    h.nodes.push_back(mm);
    std::vector<int> out_params;
    StoreTo(h, {2, 0}, mm.outputs[0], mm.sched, acc_ws_, out_params);
    gg.params.insert(gg.params.end(), out_params.begin(), out_params.end());
    gg.reads_workspace = after_prologue;
    gg.cube = cube_;
    return gg;
  }

  // The epilogue: the fp32 product from the workspace, the bias (fp32), has_relu, the rounding
  // to the product's dtype, then every node the outputs need.
  // The product's view for the epilogue: over the axes its readers' views span (a front-end hint
  // graph gives every vector node all the graph's axes, extent 1 where it has none), its own
  // extents, dense; `sched` the reader's (else the product's).
  ir::Tensor EpilogueView(ir::SchedInfo& sched) const {
    const ir::Tensor& out = Cube().outputs.at(0);
    sched = Cube().sched;
    for (const auto& n : g_.nodes) {
      if (std::none_of(n.inputs.begin(), n.inputs.end(),
                       [&](const ir::InputRef& r) { return r.node == c_; }))
        continue;
      const ir::Tensor& t = n.outputs.at(0);
      if (!std::all_of(out.axis.begin(), out.axis.end(), [&](std::int64_t a) {
            return std::find(t.axis.begin(), t.axis.end(), a) != t.axis.end();
          }))
        break;
      ir::Tensor v = t;
      for (std::size_t j = 0; j < v.axis.size(); ++j) {
        const auto it = std::find(out.axis.begin(), out.axis.end(), v.axis[j]);
        v.repeats[j] = it == out.axis.end()
                           ? Expr(1)
                           : out.repeats[static_cast<std::size_t>(it - out.axis.begin())];
      }
      sched = n.sched;
      return DenseView(v, out.dtype);
    }
    return DenseView(out, out.dtype);
  }

  GroupGraph BuildEpilogue() {
    GroupGraph gg;
    gg.graph = NewGraph("_epilogue");
    Graph& h = gg.graph;
    gg.reads_workspace = true;
    ir::SchedInfo sched;
    const ir::Tensor out = EpilogueView(sched);
    std::vector<int> in_params;
    std::vector<int> out_params;
    auto add = [&](Node n) {
      n.sched = sched;
      h.nodes.push_back(std::move(n));
      return ir::InputRef{static_cast<int>(h.nodes.size()) - 1, 0};
    };
    auto unary = [&](const std::string& type, const std::string& base, ir::InputRef in,
                     ir::DType dtype) {
      Node n;
      n.name = FreshName(names_, base);
      n.type = type;
      n.inputs.push_back(in);
      n.outputs.push_back(DenseView(out, dtype));
      return add(n);
    };
    Node d;
    d.name = FreshName(names_, "workspace" + std::to_string(acc_ws_));
    d.type = "Data";
    d.attrs["index"] = std::int64_t{0};
    d.outputs.push_back(DenseView(out, ir::DType::kFloat32));
    h.nodes.push_back(d);
    in_params.push_back(p_.num_params + acc_ws_);
    ir::InputRef v = unary("Load", "workspace" + std::to_string(acc_ws_) + "_load",
                           {static_cast<int>(h.nodes.size()) - 1, 0}, ir::DType::kFloat32);
    acc_load_ = v.node;
    if (mm_.bias) v = AddBias(h, v, out, sched, in_params, add, unary);
    if (mm_.has_relu) v = unary("Relu", Cube().name + "_relu", v, ir::DType::kFloat32);
    if (out.dtype != ir::DType::kFloat32) v = unary("Cast", Cube().name + "_round", v, out.dtype);
    std::vector<int> stores;
    for (std::size_t i = 0; i < g_.nodes.size(); ++i)
      if (g_.nodes[i].type == "Output") stores.push_back(static_cast<int>(i));
    std::map<int, ir::InputRef> value;
    value[c_] = v;
    CopyNodes(Cone(stores), h, value, in_params, out_params);
    gg.params = in_params;
    gg.params.insert(gg.params.end(), out_params.begin(), out_params.end());
    return gg;
  }

  // Bias (a Data node of the output's dtype, rank <= the product's, aligned from the right):
  // loaded over the product's axes with stride 0 where it broadcasts, broadcast, cast to fp32,
  // added.
  template <typename Add, typename Unary>
  ir::InputRef AddBias(Graph& h, ir::InputRef acc, const ir::Tensor& out,
                       const ir::SchedInfo& sched, std::vector<int>& in_params, Add& add,
                       Unary& unary) {
    const ir::InputRef& ref = Cube().inputs.at(2);
    const Node& src = g_.nodes.at(static_cast<std::size_t>(ref.node));
    if (src.type != "Data") {
      throw ScheduleError("CUBE_BIAS_COMPUTED", "the bias of '" + Cube().name + "' ('" + src.name +
                                                    "') is computed: a cube + vector kernel "
                                                    "reads its bias from a kernel input");
    }
    const ir::Tensor& b = src.outputs.at(static_cast<std::size_t>(ref.output));
    const ir::Tensor dense = DenseView(b, b.dtype);
    // Bias dim k sits on the product's dim off + k (aligned from the right).
    const ir::Tensor& prod = Cube().outputs.at(0);
    ir::Tensor view = DenseView(out, b.dtype);
    for (std::size_t j = 0; j < view.repeats.size(); ++j) {
      view.repeats[j] = Expr(1);
      view.strides[j] = Expr(0);
    }
    const std::size_t off = prod.repeats.size() - b.repeats.size();
    for (std::size_t k = 0; k < b.repeats.size(); ++k) {
      const auto at = std::find(view.axis.begin(), view.axis.end(), prod.axis.at(off + k));
      if (at == view.axis.end()) continue;
      const auto j = static_cast<std::size_t>(at - view.axis.begin());
      view.repeats[j] = b.repeats[k];
      view.strides[j] = ir::SameRepeat(b.repeats[k], Expr(1)) ? Expr(0) : dense.strides[k];
    }
    bool broadcast = false;
    for (std::size_t j = 0; j < view.repeats.size(); ++j)
      broadcast = broadcast || !ir::SameRepeat(view.repeats[j], out.repeats[j]);
    // The kernel input, viewed over the product's axes (stride 0 where it broadcasts).
    Node d = src;
    d.attrs["index"] = std::int64_t{static_cast<int>(in_params.size())};
    d.sched = sched;
    d.outputs.at(0) = view;
    h.nodes.push_back(d);
    in_params.push_back(static_cast<int>(src.IntAttr("index").value_or(0)));
    Node l;
    l.name = FreshName(names_, src.name + "_load");
    l.type = "Load";
    l.inputs.push_back({static_cast<int>(h.nodes.size()) - 1, 0});
    l.outputs.push_back(view);
    ir::InputRef v = add(l);
    if (broadcast) v = unary("Broadcast", src.name + "_broadcast", v, b.dtype);
    if (b.dtype != ir::DType::kFloat32)
      v = unary("Cast", src.name + "_fp32", v, ir::DType::kFloat32);
    Node sum;
    sum.name = FreshName(names_, Cube().name + "_bias");
    sum.type = "Add";
    sum.inputs = {acc, v};
    sum.outputs.push_back(DenseView(out, ir::DType::kFloat32));
    return add(sum);
  }

  // kFixpip: the epilogue is the workspace load, at most one ReLU and one cast to a cube dtype,
  // each read once, then the kernel's only store of a dense output.
  void FindFixpipe(int cube_at, int epilogue_at) {
    const Graph& h = p_.groups[static_cast<std::size_t>(epilogue_at)].graph;
    std::vector<int> uses(h.nodes.size(), 0);
    int stores = 0;
    for (const auto& n : h.nodes) {
      for (const auto& in : n.inputs)
        ++uses[static_cast<std::size_t>(in.node)];
      if (n.type == "Store") ++stores;
    }
    if (stores != 1 || mm_.bias) return;
    // Casts between fp32 and the stored dtype only: widening back to fp32 is exact, so every
    // rounding after the first rounds an exact value (the fixpipe rounds once); ReLU commutes
    // with them.
    int at = acc_load_;
    bool relu = false;
    bool cast = false;
    std::vector<ir::DType> cast_to;
    ir::DType dtype = ir::DType::kFloat32;
    for (;;) {
      if (uses[static_cast<std::size_t>(at)] != 1) return;
      const auto next = std::find_if(h.nodes.begin(), h.nodes.end(), [&](const Node& n) {
        return std::any_of(n.inputs.begin(), n.inputs.end(),
                           [&](const ir::InputRef& r) { return r.node == at; });
      });
      const Node& n = *next;
      if (n.type == "Relu" && !relu) {
        relu = true;
      } else if (n.type == "Cast" && ir::IsCubeDType(n.outputs.at(0).dtype)) {
        cast = true;
        cast_to.push_back(n.outputs[0].dtype);
      } else if (n.type == "Store") {
        dtype = n.outputs.at(0).dtype;
        if (!IsDense(n.outputs[0]) || !ir::IsCubeDType(dtype)) return;
        for (const ir::DType t : cast_to)
          if (t != dtype && t != ir::DType::kFloat32) return;
        const ir::Tensor& acc = h.nodes[static_cast<std::size_t>(acc_load_)].outputs.at(0);
        if (n.outputs[0].repeats.size() != acc.repeats.size()) return;
        for (std::size_t j = 0; j < acc.repeats.size(); ++j)
          if (!ir::SameRepeat(n.outputs[0].repeats[j], acc.repeats[j])) return;
        break;
      } else {
        return;
      }
      at = static_cast<int>(next - h.nodes.begin());
    }
    GroupGraph& cg = p_.groups[static_cast<std::size_t>(cube_at)];
    const GroupGraph& eg = p_.groups[static_cast<std::size_t>(epilogue_at)];
    cg.cube->fixpipe = true;
    cg.cube->fix_relu = relu;
    cg.cube->fix_dtype = dtype;
    cg.cube->epilogue_group = epilogue_at;
    cg.params.push_back(eg.params.back());  // the epilogue's one output
    p_.decisions.push_back(
        {"groups", "CUBE_FIXPIPE",
         "kFixpip offered: the epilogue of '" + Cube().name + "' is " +
             (relu ? "a ReLU" : "no ReLU") +
             (cast ? ", a cast to " + std::string(ir::DTypeName(dtype)) : ", no cast") +
             " and one dense store, which the fixpipe does on the way out of "
             "L0C; the tiling picks kFixpip or kCommon"});
  }

  const Graph& g_;
  int c_ = -1;
  ir::MatMulInfo mm_;
  CubeGroup cube_;
  int inputs_ = 0;
  int outputs_ = 0;
  int operand_param_[2] = {-1, -1};
  int operand_ws_[2] = {-1, -1};
  int acc_ws_ = -1;
  int acc_load_ = -1;
  std::set<std::string> names_;
  GroupPartition p_;
};

}  // namespace

GroupPartition PartitionCube(const ir::Graph& hint) {
  return CubePartitioner(hint).Run();
}

}  // namespace af::schedule
