// Normalisation of a hint graph before scheduling: after validation, a plain list of named passes
// (kPasses, at the end), each followed by an optional dump: expand Softmax nodes, drop dangling
// nodes, fold transposes
// and splits into the loads they read, rewrite gathers, find the one loop nest, compute logical
// reductions and fp16/bf16 in fp32, make implicit broadcasts explicit, drop size-1 axes, merge
// axes contiguous in every tensor, renumber axes, turn concats into stores where possible.
#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "af_tiling/elementwise.h"
#include "autofuse/ir/axis_algebra.h"
#include "autofuse/ir/conv.h"
#include "autofuse/ir/cube.h"
#include "autofuse/ir/data_movement.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/ir/text.h"
#include "autofuse/ir/validate.h"
#include "autofuse/schedule/schedule.h"
#include "cast_chain.h"
#include "expand_softmax.h"

namespace af::schedule {
namespace {

using ir::DType;
using ir::Graph;
using ir::Node;
using sym::Expr;

bool IsHalf(DType t) {
  return t == DType::kFloat16 || t == DType::kBFloat16;
}

ir::ComputeType ComputeOf(const Node& n) {
  const ir::OpDef* op = ir::FindOp(n.type);
  return op != nullptr ? op->compute : ir::ComputeType::kBuffer;
}

// Rebuilds `g` keeping only nodes with keep[i], in order, remapping inputs.
Graph Filter(const Graph& g, const std::vector<bool>& keep) {
  Graph out = g;
  out.nodes.clear();
  std::vector<int> remap(g.nodes.size(), -1);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (!keep[i]) continue;
    remap[i] = static_cast<int>(out.nodes.size());
    out.nodes.push_back(g.nodes[i]);
  }
  for (auto& n : out.nodes) {
    for (auto& in : n.inputs)
      in.node = remap[in.node];
  }
  return out;
}

Graph DropDangling(const Graph& g, std::vector<Decision>* d) {
  std::vector<bool> keep(g.nodes.size(), false);
  std::vector<int> stack;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].type == "Output") stack.push_back(static_cast<int>(i));
  }
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    if (keep[i]) continue;
    keep[i] = true;
    for (const auto& in : g.nodes[i].inputs)
      stack.push_back(in.node);
  }
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (!keep[i] && g.nodes[i].type != "Data") {
      d->push_back({"normalize", "DROP_DANGLING",
                    "node '" + g.nodes[i].name + "' reaches no Output; dropped"});
    }
  }
  // Data nodes stay even when unused: they are kernel parameters.
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].type == "Data") keep[i] = true;
  }
  return Filter(g, keep);
}

// Inserts `n` right after node `after` and returns its index; inputs of later nodes are shifted.
int InsertAfter(Graph& g, int after, Node n) {
  const int at = after + 1;
  for (auto& m : g.nodes) {
    for (auto& in : m.inputs) {
      if (in.node >= at) ++in.node;
    }
  }
  for (auto& in : n.inputs) {
    if (in.node >= at) ++in.node;
  }
  g.nodes.insert(g.nodes.begin() + at, std::move(n));
  return at;
}

std::string UniqueName(const Graph& g, const std::string& base) {
  std::string name = base;
  for (int k = 1; g.FindNode(name) != -1; ++k)
    name = base + "_" + std::to_string(k);
  return name;
}

Node MakeLike(const Node& like, const std::string& name, const std::string& type, int input,
              DType dtype) {
  Node n;
  n.name = name;
  n.type = type;
  n.inputs = {{input, 0}};
  n.sched = like.sched;
  n.outputs = {like.outputs.at(0)};
  n.outputs[0].dtype = dtype;
  n.outputs[0].mem = {};
  n.outputs[0].que = {};
  n.outputs[0].buf = {};
  n.outputs[0].opt = {};
  return n;
}

// fp16/bf16 compute in fp32: upcast compute nodes, then cast on every edge whose dtypes differ.
// A Cast of an upcast half value to an integer or bool first rounds it back to the graph's half
// dtype (ROUND_BEFORE_INT_CAST): the graph converts an fp16 number, and truncating the unrounded
// fp32 instead can land on the other side of an integer (1.9999999 -> 1 where fp16 holds 2.0;
// found by the soak, seed 238). A Cast to a float dtype rounds it too (ROUND_BEFORE_CAST): the
// graph converts the fp16 number, so fp16 2049 -> fp32 is 2048, not the unrounded 2049 (soak
// seed 1104: an fp16 Add cast to fp32 and then to int64 was off by one).
void Upcast(Graph& g, std::vector<Decision>* d, const std::set<std::string>& keep) {
  std::vector<bool> upcast(g.nodes.size(), false);
  std::map<std::string, DType> half_of;  // upcast node name -> its dtype in the graph
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    Node& n = g.nodes[i];
    if (keep.contains(n.type) && !n.outputs.empty() && IsHalf(n.outputs[0].dtype)) {
      d->push_back({"normalize", "KEEP_PRECISION",
                    "node '" + n.name + "' keeps " +
                        std::string(ir::DTypeName(n.outputs[0].dtype)) + " (" + n.type +
                        " is in --autofuse_enhance_precision_blacklist)"});
      continue;
    }
    const auto ct = ComputeOf(n);
    // A Concat moves what its (upcast) inputs computed: it follows them into fp32.
    const bool compute = (ct == ir::ComputeType::kElewise || ct == ir::ComputeType::kBroadcast ||
                          ct == ir::ComputeType::kReduce || ct == ir::ComputeType::kConcat) &&
                         n.type != "Cast";
    if ((compute || n.type == "Scalar") && !n.outputs.empty() && IsHalf(n.outputs[0].dtype)) {
      d->push_back({"normalize", "UPCAST_FP32",
                    "node '" + n.name + "' computes in fp32 instead of " +
                        std::string(ir::DTypeName(n.outputs[0].dtype))});
      half_of[n.name] = n.outputs[0].dtype;
      n.outputs[0].dtype = DType::kFloat32;
      upcast[i] = true;
    }
  }
  std::map<std::pair<int, DType>, int> casts;
  for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
    const Node& n = g.nodes[i];
    const auto ct = ComputeOf(n);
    std::optional<DType> want;
    std::size_t first = 0;
    if (n.type == "Store") {
      want = n.outputs.at(0).dtype;
    } else if (n.type == "Cast") {
      const auto it = half_of.find(g.nodes[n.inputs.at(0).node].name);
      if (it == half_of.end()) continue;
      want = it->second;
      const bool to_int = !ir::IsFloat(n.outputs.at(0).dtype);
      d->push_back({"normalize", to_int ? "ROUND_BEFORE_INT_CAST" : "ROUND_BEFORE_CAST",
                    "'" + n.name + "' converts an " + std::string(ir::DTypeName(want.value())) +
                        " value to " + std::string(ir::DTypeName(n.outputs[0].dtype)) +
                        ": its fp32 input is rounded to " +
                        std::string(ir::DTypeName(want.value())) + " first, as the graph says"});
    } else if ((ct == ir::ComputeType::kElewise || ct == ir::ComputeType::kBroadcast ||
                ct == ir::ComputeType::kReduce || ct == ir::ComputeType::kConcat) &&
               n.type != "Cast") {
      const ir::OpDef* op = ir::FindOp(n.type);
      // Ops with a declared output dtype (ArgMax, the *ToInt casts) keep their inputs.
      if (op->out_rule == ir::DTypeRule::kDeclared) continue;
      if (op->out_rule == ir::DTypeRule::kBool) {
        // Comparisons keep their inputs, except that fp16/bf16 operands compare in fp32 (both
        // operands of the AscendC Compare have one type; scalars were upcast above).
        bool half_in = false;
        for (const auto& in : n.inputs)
          half_in = half_in || IsHalf(g.nodes[in.node].outputs.at(in.output).dtype);
        if (!half_in) continue;
        want = DType::kFloat32;
      } else {
        want = n.outputs.at(0).dtype;
      }
      if (n.type == "Where" || n.type == "Select") first = 1;
    }
    if (!want) continue;
    // `n` dangles after the first InsertAfter below (g.nodes grows and shifts): only g.nodes[i]
    // from here on (a use after free the ASan stage found).
    const bool masked_fill = n.type == "MaskedFill";
    for (std::size_t s = first; s < g.nodes[i].inputs.size(); ++s) {
      if (masked_fill && s == 1) continue;  // the bool mask
      const ir::InputRef in = g.nodes[i].inputs[s];
      const DType have = g.nodes[in.node].outputs.at(in.output).dtype;
      if (have == *want) continue;
      if (!(IsHalf(have) || IsHalf(*want))) continue;  // only the precision casts we introduced
      const auto key = std::make_pair(in.node, *want);
      auto it = casts.find(key);
      if (it == casts.end()) {
        const Node& src = g.nodes[in.node];
        Node c = MakeLike(src, UniqueName(g, src.name + "_to_" + std::string(ir::DTypeName(*want))),
                          "Cast", in.node, *want);
        if (c.sched.axis.empty()) c.sched = g.nodes[i].sched;
        const int at = InsertAfter(g, in.node, std::move(c));
        // Indices at or after `at` shifted: fix the cache and our position.
        std::map<std::pair<int, DType>, int> shifted;
        for (const auto& [k, v] : casts) {
          shifted[{k.first >= at ? k.first + 1 : k.first, k.second}] = v >= at ? v + 1 : v;
        }
        casts = std::move(shifted);
        if (i >= at) ++i;
        casts[key] = at;
        it = casts.find(key);
      }
      g.nodes[i].inputs[s] = {it->second, 0};
    }
  }
}

// Any/All over bool tensors become Max/Min over 0/1 values in fp32 (the AscendC pattern
// reductions and the accumulation APIs are float APIs on Atlas A2/A3), with casts around them.
void LogicalReductionsAsFloat(Graph& g, std::vector<Decision>* d) {
  for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
    if (g.nodes[i].type != "Any" && g.nodes[i].type != "All") continue;
    const bool any = g.nodes[i].type == "Any";
    const DType out_dtype = g.nodes[i].outputs.at(0).dtype;
    const ir::InputRef in = g.nodes[i].inputs.at(0);
    // bool/uint8 -> fp16 -> fp32: AscendC Cast has no direct uint8 -> float conversion.
    const DType in_dtype = g.nodes[in.node].outputs.at(in.output).dtype;
    std::vector<DType> chain;
    if (in_dtype == DType::kBool || in_dtype == DType::kUInt8 || in_dtype == DType::kInt8) {
      chain = {DType::kFloat16, DType::kFloat32};
    } else if (in_dtype != DType::kFloat32) {
      chain = {DType::kFloat32};
    }
    int from = in.node;
    for (DType to : chain) {
      const Node& src = g.nodes[from];
      Node c = MakeLike(src, UniqueName(g, src.name + "_to_" + std::string(ir::DTypeName(to))),
                        "Cast", from, to);
      if (c.sched.axis.empty()) c.sched = g.nodes[i].sched;
      const int at = InsertAfter(g, from, std::move(c));
      if (i >= at) ++i;
      from = at;
    }
    g.nodes[i].inputs[0] = {from, 0};
    Node& r = g.nodes[i];
    d->push_back({"normalize", "LOGICAL_REDUCE_AS_FLOAT",
                  "'" + r.name + "' (" + r.type + ") reduces 0/1 values in fp32 with " +
                      (any ? "Max" : "Min")});
    r.type = any ? "Max" : "Min";
    r.outputs[0].dtype = DType::kFloat32;
    if (out_dtype == DType::kFloat32) continue;
    std::vector<DType> back_chain = {out_dtype};
    if (out_dtype == DType::kBool || out_dtype == DType::kUInt8 || out_dtype == DType::kInt8) {
      back_chain = {DType::kFloat16, out_dtype};
    }
    int last = i;
    std::vector<int> inserted;
    for (DType to : back_chain) {
      const Node& src = g.nodes[last];
      Node back = MakeLike(src, UniqueName(g, src.name + "_to_" + std::string(ir::DTypeName(to))),
                           "Cast", last, to);
      last = InsertAfter(g, last, std::move(back));
      inserted.push_back(last);
    }
    for (int m = 0; m < static_cast<int>(g.nodes.size()); ++m) {
      if (std::find(inserted.begin(), inserted.end(), m) != inserted.end()) continue;
      for (auto& use : g.nodes[m].inputs) {
        if (use.node == i) use = {last, 0};
      }
    }
  }
}

// Casts the vector unit lacks become chains of documented ones (cast_chain.h), and a cast to bool
// becomes `x != 0` compared in fp32 (a bool is 0 or 1; a converting Cast would truncate 0.5 to 0).
void SplitCasts(Graph& g, std::vector<Decision>* d) {
  for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
    if (g.nodes[i].type != "Cast") continue;
    const ir::InputRef in = g.nodes[i].inputs.at(0);
    const DType from = g.nodes[in.node].outputs.at(in.output).dtype;
    const DType to = g.nodes[i].outputs.at(0).dtype;
    const bool to_bool = to == DType::kBool && from != DType::kBool;
    std::vector<DType> chain;
    try {
      chain = CastChain(from, to_bool ? DType::kFloat32 : to);
    } catch (const std::invalid_argument& e) {
      throw ScheduleError("UNSUPPORTED_CAST", "Cast '" + g.nodes[i].name + "': " + e.what());
    }
    if (!to_bool) {
      if (chain.size() <= 1) continue;
      chain.pop_back();  // the node itself does the last step
    }
    ir::InputRef src = in;
    for (const DType t : chain) {
      const Node& like = g.nodes[i];
      Node c = MakeLike(like, UniqueName(g, like.name + "_via_" + std::string(ir::DTypeName(t))),
                        "Cast", src.node, t);
      src = {InsertAfter(g, i - 1, std::move(c)), 0};
      ++i;
    }
    Node& n = g.nodes[i];
    n.inputs[0] = src;
    if (!to_bool) {
      d->push_back({"normalize", "CAST_CHAIN",
                    "Cast '" + n.name + "' " + std::string(ir::DTypeName(from)) + " -> " +
                        std::string(ir::DTypeName(to)) + " goes through " +
                        std::to_string(chain.size()) + " intermediate dtype(s): AscendC Cast has " +
                        "no direct conversion"});
      continue;
    }
    Node zero = MakeLike(n, UniqueName(g, n.name + "_zero"), "Scalar", 0, DType::kFloat32);
    zero.inputs.clear();
    zero.attrs["value"] = std::string("0");
    zero.outputs[0].axis.clear();
    zero.outputs[0].repeats.clear();
    zero.outputs[0].strides.clear();
    const int z = InsertAfter(g, i - 1, std::move(zero));
    ++i;
    g.nodes[i].type = "Ne";
    g.nodes[i].inputs = {src, {z, 0}};
    d->push_back({"normalize", "CAST_TO_BOOL_AS_NE",
                  "Cast '" + g.nodes[i].name + "' " + std::string(ir::DTypeName(from)) +
                      " -> bool is computed as x != 0 in fp32"});
  }
}

// Pad and RemovePad: elementwise ops whose output extent may differ from their input's (the
// box grows or shrinks); they neither broadcast nor fold into a narrowed copy.
bool ResizesBox(const Node& n) {
  return n.type == "Pad" || n.type == "RemovePad";
}

// Elementwise inputs whose view repeats 1 where the output does not get an explicit Broadcast.
void ExplicitBroadcasts(Graph& g, std::vector<Decision>* d) {
  for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
    if (ComputeOf(g.nodes[i]) != ir::ComputeType::kElewise || ResizesBox(g.nodes[i])) continue;
    for (std::size_t s = 0; s < g.nodes[i].inputs.size(); ++s) {
      const ir::InputRef in = g.nodes[i].inputs[s];
      const ir::Tensor& src = g.nodes[in.node].outputs.at(in.output);
      const ir::Tensor& out = g.nodes[i].outputs.at(0);
      if (src.axis.empty() || src.repeats == out.repeats) continue;
      Node b = MakeLike(g.nodes[i], UniqueName(g, g.nodes[in.node].name + "_brc"), "Broadcast",
                        in.node, src.dtype);
      d->push_back({"normalize", "EXPLICIT_BROADCAST",
                    "input " + std::to_string(s) + " of '" + g.nodes[i].name +
                        "' is broadcast: inserted '" + b.name + "'"});
      const int at = InsertAfter(g, in.node, std::move(b));
      if (i >= at) ++i;
      g.nodes[i].inputs[s] = {at, 0};
    }
  }
}

bool IsComputeNode(const Node& n) {
  return ComputeOf(n) != ir::ComputeType::kBuffer;
}

// The nodes in `order` (every node once), inputs remapped.
void Reorder(Graph& g, const std::vector<int>& order) {
  Graph sorted = g;
  sorted.nodes.clear();
  std::vector<int> remap(g.nodes.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    remap[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
  for (const int i : order)
    sorted.nodes.push_back(g.nodes[static_cast<std::size_t>(i)]);
  for (auto& n : sorted.nodes) {
    for (auto& in : n.inputs)
      in.node = remap[static_cast<std::size_t>(in.node)];
  }
  g = std::move(sorted);
}

// Nodes in topological order (producers first), inputs remapped.
void SortTopo(Graph& g) {
  Reorder(g, g.TopoOrder());
}

// The nodes a data-movement op's input is computed from (`root` included), ascending; Data and
// Scalar nodes are not part of it. Throws `code` when one of them is not a load, an elementwise
// op or a broadcast. `*shared` names a cone node whose value is also read outside the cone and
// `users` ("" when none): folding then recomputes the cone for the op.
std::vector<int> FoldableCone(const Graph& g, int root, const std::set<int>& users,
                              const std::string& code, const std::string& what,
                              std::string* shared) {
  std::set<int> cone;
  std::vector<int> stack{root};
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    const Node& n = g.nodes[static_cast<std::size_t>(i)];
    if (n.type == "Data" || n.type == "Scalar" || !cone.insert(i).second) continue;
    const auto ct = ComputeOf(n);
    if ((ct != ir::ComputeType::kElewise && ct != ir::ComputeType::kBroadcast &&
         ct != ir::ComputeType::kLoad) ||
        ResizesBox(n)) {
      throw ScheduleError(code, what + " reads '" + n.name + "' (" + n.type +
                                    "); only loads, elementwise ops and broadcasts fold");
    }
    for (const auto& in : n.inputs)
      stack.push_back(in.node);
  }
  if (cone.empty()) {
    throw ScheduleError(code, what + " reads a Data node directly: there is no load to fold into");
  }
  const auto consumers = g.Consumers();
  shared->clear();
  for (const int i : cone) {
    for (const auto& [c, slot] : consumers[static_cast<std::size_t>(i)]) {
      if (cone.contains(c) || users.contains(c) || !shared->empty()) continue;
      *shared = "'" + g.nodes[static_cast<std::size_t>(i)].name + "' (also read by '" +
                g.nodes[static_cast<std::size_t>(c)].name + "')";
    }
  }
  return {cone.begin(), cone.end()};
}

// Appends a copy of the cone's nodes (named <name><suffix>, inputs inside the cone remapped to
// the copies) and returns old index -> copy index.
std::map<int, int> CloneCone(Graph& g, const std::vector<int>& cone, const std::string& suffix) {
  std::map<int, int> copy;
  for (const int c : cone) {
    Node n = g.nodes[static_cast<std::size_t>(c)];
    n.name = UniqueName(g, n.name + suffix);
    for (auto& in : n.inputs) {
      if (const auto it = copy.find(in.node); it != copy.end()) in.node = it->second;
    }
    copy[c] = static_cast<int>(g.nodes.size());
    g.nodes.push_back(std::move(n));
  }
  return copy;
}

// UB strides of a tensor held contiguously in its own dim order (0 along extent-1 dims).
void ContiguousStrides(ir::Tensor& t) {
  Expr run(1);
  for (std::size_t j = t.axis.size(); j-- > 0;) {
    if (t.repeats[j] == Expr(1)) {
      t.strides[j] = Expr(0);
      continue;
    }
    t.strides[j] = run;
    run = run * t.repeats[j];
  }
}

// Appends a copy of `cone` (CloneCone) narrowed to [off, off + len) along `dim`: loads and stores
// (GM views) move their offset by off elements along it, every other tensor takes contiguous UB
// strides; tensors of extent 1 along it are kept. Without a dim the copy is not narrowed.
std::map<int, int> NarrowedCopy(Graph& g, const std::vector<int>& cone,
                                std::optional<std::size_t> dim, const Expr& off, const Expr& len,
                                const std::string& suffix) {
  auto copy = CloneCone(g, cone, suffix);
  for (const auto& [from, to] : copy) {
    Node& n = g.nodes[static_cast<std::size_t>(to)];
    ir::Tensor& v = n.outputs.at(0);
    if (!dim || v.repeats.at(*dim) == Expr(1)) continue;
    const bool gm = n.type == "Load" || n.type == "Store";
    if (gm) n.attrs["offset"] = ir::ViewOffset(n).value_or(Expr(0)) + off * v.strides.at(*dim);
    v.repeats[*dim] = len;
    if (!gm) ContiguousStrides(v);
  }
  return copy;
}

// Points every input that reads `from` at `to`.
void Rewire(Graph& g, ir::InputRef from, ir::InputRef to) {
  for (auto& n : g.nodes) {
    for (auto& in : n.inputs) {
      if (in == from) in = to;
    }
  }
}

// A flat view of a GM buffer over the loop nest: all its elements along the innermost axis,
// extent 1 elsewhere, so it neither blocks nor joins merges of the outer axes (the buffer is only
// addressed through the views of the nodes that read it).
ir::Tensor FlatView(const ir::Tensor& like, const std::vector<std::int64_t>& axes) {
  ir::Tensor t = like;
  Expr numel(1);
  for (const auto& r : like.repeats)
    numel = numel * r;
  t.axis = axes;
  t.repeats.assign(axes.size(), Expr(1));
  t.strides.assign(axes.size(), Expr(0));
  if (!axes.empty()) {
    t.repeats.back() = numel;
    t.strides.back() = Expr(1);
  }
  return t;
}

// Gathers read their params and indices straight from Data nodes (AutoFuse's form). Each becomes
// a load of rows from GM: its output view carries the params' GM strides over the output's axes
// (0 along the index dims), the gathered dim's extent and stride become attributes, and a Load
// of the indices (extent 1 along the params dims) feeds it. The Data nodes get flat views over
// the output's axes. The innermost output dim must come from params (a row per index).
void RewriteGathers(Graph& g, std::vector<Decision>* d) {
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].type != "Gather") continue;
    const auto consumers = g.Consumers();
    const std::string what = "Gather '" + g.nodes[i].name + "'";
    const int pn = g.nodes[i].inputs.at(0).node;
    const int qn = g.nodes[i].inputs.at(1).node;
    for (const int x : {pn, qn}) {
      const Node& src = g.nodes[static_cast<std::size_t>(x)];
      if (src.type != "Data" || consumers[static_cast<std::size_t>(x)].size() != 1) {
        throw ScheduleError("GATHER_INPUT", what + " reads '" + src.name +
                                                "': params and indices must be kernel inputs "
                                                "read by the Gather alone");
      }
    }
    const ir::Tensor pt = g.nodes[static_cast<std::size_t>(pn)].outputs.at(0);
    const ir::Tensor it = g.nodes[static_cast<std::size_t>(qn)].outputs.at(0);
    if (it.dtype != DType::kInt32 && it.dtype != DType::kInt64) {
      throw ScheduleError("GATHER_INDEX_DTYPE", what + " has " +
                                                    std::string(ir::DTypeName(it.dtype)) +
                                                    " indices; int32 or int64 are gathered");
    }
    const auto axis = ir::GatherAxis(g.nodes[i], pt.axis.size());
    Node& n = g.nodes[i];
    ir::Tensor& out = n.outputs.at(0);
    if (!axis || out.axis.size() + 1 != pt.axis.size() + it.axis.size()) {
      throw ScheduleError("GATHER_VIEW", what +
                                             ": its output is not params[:axis] + indices + "
                                             "params[axis+1:]");
    }
    const std::size_t a = *axis;
    const std::size_t n_idx = it.axis.size();
    // Along the params' innermost dim, a row per index would be a DMA per element: the params'
    // row is loaded whole into UB and the vector Gather picks the elements (codegen's
    // EmitGatherInnermost; AutoFuse V2 uses IndirectLoad). The schedule keeps it on 950
    // profiles only (GATHER_INNERMOST_INDEX on A2/A3, as AutoFuse V1).
    const bool innermost = a + 1 == pt.axis.size();
    if (innermost && pt.strides[a] != Expr(1)) {
      throw ScheduleError("GATHER_INNERMOST_STRIDED",
                          what + " gathers along the params' innermost dim, whose stride is " +
                              pt.strides[a].ToString() +
                              ": the row loaded into UB must be contiguous");
    }
    if (innermost && ir::DTypeBytes(pt.dtype) != 2 && ir::DTypeBytes(pt.dtype) != 4) {
      throw ScheduleError("GATHER_INNERMOST_DTYPE",
                          what + " gathers " + std::string(ir::DTypeName(pt.dtype)) +
                              " along the params' innermost dim: the vector Gather that picks "
                              "the elements is built for 2- and 4-byte types (the A2/A3 list)");
    }
    ir::Tensor idx = it;
    idx.axis = out.axis;
    idx.repeats.assign(out.axis.size(), Expr(1));
    idx.strides.assign(out.axis.size(), Expr(0));
    for (std::size_t j = 0; j < out.axis.size(); ++j) {
      if (j < a) {
        out.strides[j] = pt.strides[j];
      } else if (j < a + n_idx) {
        out.strides[j] = Expr(0);
        idx.repeats[j] = it.repeats[j - a];
        idx.strides[j] = it.strides[j - a];
      } else {
        out.strides[j] = pt.strides[j - n_idx + 1];
      }
    }
    n.attrs["gather_extent"] = pt.repeats[a];
    n.attrs["gather_stride"] = pt.strides[a];
    if (innermost) n.attrs["gather_innermost"] = true;
    Node load;
    load.name = UniqueName(g, n.name + "_indices");
    load.type = "Load";
    load.inputs = {{qn, 0}};
    load.sched = n.sched;
    load.outputs = {idx};
    const std::vector<std::int64_t> axes = out.axis;
    const std::string name = n.name;
    g.nodes[static_cast<std::size_t>(pn)].outputs[0] = FlatView(pt, axes);
    g.nodes[static_cast<std::size_t>(qn)].outputs[0] = FlatView(it, axes);
    const int at = InsertAfter(g, qn, std::move(load));
    const std::size_t gi = i + (static_cast<std::size_t>(at) <= i ? 1 : 0);
    g.nodes[gi].inputs[1] = {at, 0};
    if (static_cast<std::size_t>(at) <= i) ++i;
    const std::string loads =
        "'" + g.nodes[static_cast<std::size_t>(at)].name + "' loads the indices";
    if (innermost) {
      d->push_back({"normalize", "GATHER_INNERMOST_ROW",
                    "Gather '" + name +
                        "' picks elements along the params' innermost dim: each params row is "
                        "loaded whole into UB and gathered there by index; " +
                        loads});
    } else {
      d->push_back(
          {"normalize", "GATHER_ROWS",
           "Gather '" + name + "' reads its params row by row from GM at each index; " + loads});
    }
  }
}

// Transposes fold into the loads they read (AutoFuse eliminates them into Load strides when a
// reduction follows, and in its `_group_transpose` template): every node of the input's cone
// lists its dims in the output's order, the loads keep their GM strides (the innermost may now
// be strided: a strided load), and the Transpose goes.
void FoldTransposes(Graph& g, std::vector<Decision>* d) {
  std::vector<bool> keep(g.nodes.size(), true);
  bool any = false;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& t = g.nodes[i];
    if (t.type != "Transpose") continue;
    const std::string what = "Transpose '" + t.name + "'";
    const ir::Tensor* in = ir::InputTensor(g, t, 0);
    if (in == nullptr || !ir::TransposePerm(*in, t.outputs.at(0))) {
      throw ScheduleError("TRANSPOSE_AXES", what +
                                                ": its output axes are not a permutation of "
                                                "its input's");
    }
    std::string shared;
    const auto cone = FoldableCone(g, t.inputs[0].node, {static_cast<int>(i)},
                                   "TRANSPOSE_UNFOLDABLE", what, &shared);
    if (!shared.empty()) {
      // Recomputing the cone would not help: its other readers loop in the input's order, the
      // folded copy in the output's, and one kernel has one loop nest (transposed stores are not
      // built).
      throw ScheduleError("TRANSPOSE_UNFOLDABLE",
                          what + " reads " + shared +
                              ", which needs the input's dim order; one loop nest cannot hold "
                              "both orders");
    }
    const auto order = g.nodes[i].outputs[0].axis;
    const ir::InputRef src = g.nodes[i].inputs[0];
    // Lists a view's dims in `order` (a view over other axes, e.g. a flat Data, stays).
    auto reorder = [&](ir::Tensor& v) {
      if (v.axis.size() != order.size() ||
          !std::is_permutation(v.axis.begin(), v.axis.end(), order.begin())) {
        return;
      }
      const ir::Tensor old = v;
      for (std::size_t j = 0; j < order.size(); ++j) {
        const auto p = static_cast<std::size_t>(
            std::find(old.axis.begin(), old.axis.end(), order[j]) - old.axis.begin());
        v.axis[j] = old.axis.at(p);
        v.repeats[j] = old.repeats.at(p);
        v.strides[j] = old.strides.at(p);
      }
    };
    std::string loads;
    for (const int c : cone) {
      Node& n = g.nodes[static_cast<std::size_t>(c)];
      ir::Tensor& v = n.outputs.at(0);
      reorder(v);
      if (n.type == "Load") {
        // The GM buffer's own view describes the same memory in the new order.
        Node& data = g.nodes[static_cast<std::size_t>(n.inputs.at(0).node)];
        if (data.type == "Data") reorder(data.outputs.at(0));
        loads += (loads.empty() ? "'" : ", '") + n.name + "'";
      } else {
        ContiguousStrides(v);
      }
      n.sched.axis = order;
      n.sched.loop_axis = order.empty() ? -1 : order.back();
    }
    Rewire(g, {static_cast<int>(i), 0}, src);
    keep[i] = false;
    any = true;
    d->push_back({"normalize", "FOLD_TRANSPOSE",
                  what + " folded into " + (loads.empty() ? "no load" : loads) +
                      ": its input is computed in the output's dim order (a load whose innermost "
                      "dim becomes strided is gathered into loop order)"});
  }
  if (!any) return;
  g = Filter(g, keep);
  SortTopo(g);
}

// Split pieces fold into the loads they read (AutoFuse converts a first-axis split into loads):
// each piece gets its own copy of the input's cone with the split dim narrowed to the piece and
// the loads' offsets moved to its start; the Split nodes go. The pieces then have their own
// extent along the split dim (the schedule's parts).
void FoldSplits(Graph& g, std::vector<Decision>* d) {
  std::vector<bool> gone(g.nodes.size(), false);
  bool any = false;
  const std::size_t n0 = g.nodes.size();
  for (std::size_t i = 0; i < n0; ++i) {
    if (g.nodes[i].type != "Split" || gone[i]) continue;
    const auto group = ir::SplitGroup(g, static_cast<int>(i));
    const auto pieces = ir::SplitPieces(g, static_cast<int>(i));
    const std::string what = "Split '" + g.nodes[i].name + "'";
    const ir::InputRef src = g.nodes[i].inputs.at(0);
    const auto dim = ir::SplitDim(g, static_cast<int>(i));
    const std::set<int> users(group.begin(), group.end());
    std::string shared;
    const auto cone = FoldableCone(g, src.node, users, "SPLIT_UNFOLDABLE", what, &shared);
    Expr off(0);
    for (std::size_t k = 0; k < pieces.size(); ++k) {
      const ir::Tensor& piece = g.nodes[static_cast<std::size_t>(pieces[k].node)].outputs.at(
          static_cast<std::size_t>(pieces[k].output));
      const Expr len = dim ? piece.repeats.at(*dim) : Expr(1);
      const auto copy = NarrowedCopy(g, cone, dim, off, len, "_p" + std::to_string(k));
      gone.resize(g.nodes.size(), false);
      Rewire(g, {pieces[k].node, pieces[k].output}, {copy.at(src.node), src.output});
      off = off + len;
    }
    // The original cone goes unless other nodes read it (then the pieces recompute it).
    for (const int c : cone)
      gone[static_cast<std::size_t>(c)] = shared.empty();
    if (!shared.empty()) {
      d->push_back({"normalize", "RECOMPUTE",
                    what + " reads " + shared + ": its loads and ops are recomputed per piece"});
    }
    for (const int s : group)
      gone[static_cast<std::size_t>(s)] = true;
    any = true;
    d->push_back({"normalize", "FOLD_SPLIT",
                  what + " folded into " + std::to_string(pieces.size()) +
                      " copies of its input's loads and ops, one per piece, each narrowed to "
                      "its piece"});
  }
  if (!any) return;
  std::vector<bool> keep(gone.size());
  for (std::size_t i = 0; i < gone.size(); ++i)
    keep[i] = !gone[i];
  g = Filter(g, keep);
  SortTopo(g);
}

// Nodes in the order the Outputs' stores need them (depth first, inputs before their readers,
// each store right after what only it reads), so that one input's values are dead before the next
// input's are computed and UB buffers can be reused.
void SortByStores(Graph& g) {
  const int n = static_cast<int>(g.nodes.size());
  std::vector<int> order;
  std::vector<char> state(static_cast<std::size_t>(n), 0);  // 1: on the stack, 2: placed
  auto visit = [&](int root) {
    std::vector<std::pair<int, std::size_t>> stack{{root, 0}};
    while (!stack.empty()) {
      auto& [i, next] = stack.back();
      const Node& node = g.nodes[static_cast<std::size_t>(i)];
      if (state[static_cast<std::size_t>(i)] == 2) {
        stack.pop_back();
        continue;
      }
      state[static_cast<std::size_t>(i)] = 1;
      if (next < node.inputs.size()) {
        const int in = node.inputs[next++].node;
        if (state[static_cast<std::size_t>(in)] == 0) stack.emplace_back(in, 0);
        continue;
      }
      state[static_cast<std::size_t>(i)] = 2;
      order.push_back(i);
      stack.pop_back();
    }
  };
  for (int i = 0; i < n; ++i) {
    if (g.nodes[static_cast<std::size_t>(i)].type == "Data") visit(i);
  }
  for (int i = 0; i < n; ++i) {
    if (g.nodes[static_cast<std::size_t>(i)].type != "Output") continue;
    for (const auto& in : g.nodes[static_cast<std::size_t>(i)].inputs)
      visit(in.node);
  }
  for (int i = 0; i < n; ++i)
    visit(i);
  Reorder(g, order);
}

// Why a Concat cannot become one store per input ("" when it can): the nodes that compute from
// it (returned in `down`, ascending) must be elementwise ops, broadcasts and stores, and the
// other values they read must fold like a split's input (their cones in `sides`).
std::string StoreBlocker(const Graph& g, int cat, std::size_t dim, std::vector<int>* down,
                         std::map<int, std::vector<int>>* sides,
                         std::map<int, std::string>* shared) {
  const auto consumers = g.Consumers();
  std::set<int> seen;
  std::vector<int> stack{cat};
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    for (const auto& [c, slot] : consumers[static_cast<std::size_t>(i)]) {
      const Node& n = g.nodes[static_cast<std::size_t>(c)];
      if (n.type == "Output" || !seen.insert(c).second) continue;
      const auto ct = ComputeOf(n);
      if ((ct != ir::ComputeType::kElewise && ct != ir::ComputeType::kBroadcast &&
           ct != ir::ComputeType::kStore) ||
          ResizesBox(n)) {
        return "it feeds '" + n.name + "' (" + n.type + ")";
      }
      if (ct != ir::ComputeType::kStore) stack.push_back(c);
    }
  }
  down->assign(seen.begin(), seen.end());
  std::set<int> users(seen.begin(), seen.end());
  users.insert(cat);
  for (const int i : *down) {
    for (const auto& in : g.nodes[static_cast<std::size_t>(i)].inputs) {
      if (in.node == cat || users.contains(in.node) || sides->contains(in.node)) continue;
      const Node& side = g.nodes[static_cast<std::size_t>(in.node)];
      if (side.type == "Scalar" ||
          side.outputs.at(static_cast<std::size_t>(in.output)).repeats.at(dim) == Expr(1)) {
        continue;  // the same for every input's rows
      }
      std::string why;
      try {
        (*sides)[in.node] = FoldableCone(g, in.node, users, "", "'" + side.name + "'", &why);
      } catch (const ScheduleError& e) {
        return e.what();
      }
      if (!why.empty()) (*shared)[in.node] = why;
    }
  }
  return "";
}

// A Concat along the outermost loop dim (AutoFuse's GM concat), or with more inputs than the UB
// concat takes (its grouped concat, one input per group), becomes one store per input: each
// input's value goes through a copy of the nodes after the Concat, narrowed to its rows (the
// other values they read are narrowed the same way), into its region of the output.
void ConcatsToStores(Graph& g, std::vector<Decision>* d) {
  for (bool again = true; again;) {
    again = false;
    for (std::size_t i = 0; i < g.nodes.size() && !again; ++i) {
      if (g.nodes[i].type != "Concat") continue;
      const Node cat = g.nodes[i];
      const auto dim = ir::ConcatDim(g, cat);
      const bool many = cat.inputs.size() > static_cast<std::size_t>(af_tiling::kMaxParts);
      int concats = 0;
      for (const auto& other : g.nodes)
        concats += other.type == "Concat" ? 1 : 0;
      if (!dim || (*dim != 0 && !many && concats == 1)) continue;
      std::vector<int> down;
      std::map<int, std::vector<int>> sides;
      std::map<int, std::string> shared;  // side values also read elsewhere: recomputed
      const std::string what = "Concat '" + cat.name + "'";
      if (const std::string why =
              StoreBlocker(g, static_cast<int>(i), *dim, &down, &sides, &shared);
          !why.empty()) {
        d->push_back({"normalize", "CONCAT_KEPT",
                      what + " stays a Concat (not one store per input): " + why});
        continue;
      }
      std::vector<bool> gone(g.nodes.size(), false);
      gone[i] = true;
      for (const int x : down)
        gone[static_cast<std::size_t>(x)] = true;
      for (const auto& [side, cone] : sides) {
        for (const int x : cone)
          gone[static_cast<std::size_t>(x)] = !shared.contains(side);
      }
      std::map<int, std::vector<ir::InputRef>> stores_of;  // original Store -> its copies
      Expr off(0);
      for (std::size_t k = 0; k < cat.inputs.size(); ++k) {
        const Expr len = ir::InputTensor(g, cat, k)->repeats.at(*dim);
        const std::string suffix = "_c" + std::to_string(k);
        std::map<std::pair<int, int>, ir::InputRef> to;  // what the copies read instead
        to[{static_cast<int>(i), 0}] = cat.inputs[k];
        for (const auto& [side, cone] : sides) {
          const auto copy = NarrowedCopy(g, cone, dim, off, len, suffix);
          for (int o = 0;
               o < static_cast<int>(g.nodes[static_cast<std::size_t>(side)].outputs.size()); ++o)
            to[{side, o}] = {copy.at(side), o};
        }
        const auto copy = NarrowedCopy(g, down, dim, off, len, suffix);
        for (const auto& [from, c] : copy) {
          for (auto& in : g.nodes[static_cast<std::size_t>(c)].inputs) {
            if (const auto it = to.find({in.node, in.output}); it != to.end()) in = it->second;
          }
          if (g.nodes[static_cast<std::size_t>(from)].type == "Store")
            stores_of[from].push_back({c, 0});
        }
        off = off + len;
      }
      for (auto& n : g.nodes) {
        if (n.type != "Output") continue;
        std::vector<ir::InputRef> ins;
        for (const auto& in : n.inputs) {
          const auto it = stores_of.find(in.node);
          if (it == stores_of.end()) {
            ins.push_back(in);
          } else {
            ins.insert(ins.end(), it->second.begin(), it->second.end());
          }
        }
        n.inputs = std::move(ins);
      }
      gone.resize(g.nodes.size(), false);
      std::vector<bool> keep(gone.size());
      for (std::size_t x = 0; x < gone.size(); ++x)
        keep[x] = !gone[x];
      for (const auto& [side, why] : shared) {
        d->push_back(
            {"normalize", "RECOMPUTE",
             what + ": the nodes after it read " + why + ", recomputed for each input's rows"});
      }
      d->push_back({"normalize", "CONCAT_TO_STORES",
                    what +
                        (*dim == 0 ? " concatenates along the outermost loop dim"
                         : many    ? " has " + std::to_string(cat.inputs.size()) +
                                      " inputs, more than the UB concat takes (" +
                                      std::to_string(af_tiling::kMaxParts) + ")"
                                : " is one of " + std::to_string(concats) +
                                      " Concats and the UB concat templates take one") +
                        ": one store per input into its region of the output (" +
                        std::to_string(down.size()) +
                        " node(s) after it copied per input), AutoFuse's " +
                        (*dim == 0 ? "GM concat" : "grouped concat with one input per group")});
      g = Filter(g, keep);
      SortByStores(g);
      again = true;
    }
  }
}

// Axes referenced anywhere; the rest are removed and the survivors renumbered 0.. in loop order.
void CompactAxes(Graph& g, const std::vector<std::int64_t>& order) {
  std::map<std::int64_t, std::int64_t> remap;
  std::vector<ir::Axis> axes;
  for (auto id : order) {
    ir::Axis a = *g.FindAxis(id);
    remap[id] = static_cast<std::int64_t>(axes.size());
    a.id = remap[id];
    a.type = ir::AxisType::kOriginal;
    a.from.clear();
    a.split_pair_other_id = -1;
    axes.push_back(a);
  }
  auto map_list = [&](std::vector<std::int64_t>& v) {
    for (auto& id : v)
      id = remap.at(id);
  };
  for (auto& n : g.nodes) {
    map_list(n.sched.axis);
    if (n.sched.loop_axis != -1) {
      n.sched.loop_axis = remap.contains(n.sched.loop_axis) ? remap[n.sched.loop_axis] : -1;
    }
    for (auto& t : n.outputs) {
      map_list(t.axis);
      t.vectorized_axis.clear();
      t.vectorized_strides.clear();
    }
  }
  g.axes = std::move(axes);
}

// The state the passes share: the graph, its loop nest (outer -> inner, from the loop_nest pass
// on), the options and the decisions.
struct NormalizeState {
  Graph g;
  std::vector<std::int64_t> nest;
  const ScheduleOptions& options;
  std::vector<Decision>* d;
};

// A cube node: the refusal code of an op variant this compiler does not take
// (ir::CubeRefusal), else CUBE_NOT_SCHEDULED: a cube op is scheduled through PartitionGroups'
// cube + vector groups (docs/schedule.md "CV templates"), never as one loop nest.
[[noreturn]] void RefuseCube(const ir::Node& n) {
  std::string error;
  if (const ir::OpDef* op = ir::FindOp(n.type); op != nullptr && ir::IsConvOp(op->code)) {
    const auto c = ir::ReadConv2D(n, &error);
    if (!c) throw ScheduleError("CUBE_BAD_ATTR", "node '" + n.name + "': " + error);
    throw ScheduleError(ir::ConvRefusal(*c), "node '" + n.name + "' (" + n.type +
                                                 ") is a convolution: no fused " +
                                                 "kernel takes one (docs/ir.md, \"Cube ops\")");
  }
  const auto m = ir::ReadMatMul(n, &error);
  if (!m) throw ScheduleError("CUBE_BAD_ATTR", "node '" + n.name + "': " + error);
  if (const auto code = ir::CubeRefusal(*m)) {
    throw ScheduleError(*code, "node '" + n.name + "' (" + n.type + ") is a cube op variant " +
                                   "this compiler does not take (docs/ir.md, \"Cube ops\")");
  }
  throw ScheduleError("CUBE_NOT_SCHEDULED",
                      "node '" + n.name + "' (" + n.type + ") runs on the cube unit: a cube op " +
                          "is scheduled as a cube + vector kernel of groups " +
                          "(schedule::PartitionGroups, docs/schedule.md \"CV templates\"), " +
                          "not in one loop nest");
}

// One loop nest for all compute nodes (the elementwise/broadcast subset); buffers do not loop.
void LoopNest(NormalizeState& st) {
  Graph& g = st.g;
  std::vector<std::int64_t>& nest = st.nest;
  for (const auto& n : g.nodes) {
    if (!IsComputeNode(n)) continue;
    const ir::OpDef* op = ir::FindOp(n.type);
    if (op->compute == ir::ComputeType::kCube) RefuseCube(n);
    if (op->compute != ir::ComputeType::kElewise && op->compute != ir::ComputeType::kBroadcast &&
        op->compute != ir::ComputeType::kLoad && op->compute != ir::ComputeType::kStore &&
        op->compute != ir::ComputeType::kReduce && op->compute != ir::ComputeType::kConcat &&
        op->compute != ir::ComputeType::kGather) {
      throw ScheduleError("UNSUPPORTED_COMPUTE_TYPE",
                          "node '" + n.name + "' (" + n.type + ") is a " +
                              std::string(ir::ComputeTypeName(op->compute)) +
                              " op; this schedule handles elementwise, broadcast, reduce, "
                              "concat and gather graphs (transposes and splits fold into "
                              "loads)");
    }
    if (nest.empty()) nest = n.sched.axis;
    if (n.sched.axis != nest) {
      throw ScheduleError("MIXED_LOOP_NESTS",
                          "node '" + n.name + "' has a different loop nest from the others");
    }
  }
  if (nest.empty()) {
    for (const auto& a : g.axes)
      nest.push_back(a.id);
  }
  if (nest.empty()) throw ScheduleError("NO_AXES", "graph '" + g.name + "' has no loop axes");
  for (auto& n : g.nodes) {
    if (IsComputeNode(n)) continue;
    n.sched.axis.clear();  // buffers do not loop
    n.sched.loop_axis = -1;
  }
  // Every compute tensor must cover the loop nest (scalars excepted).
  for (const auto& n : g.nodes) {
    for (const auto& t : n.outputs) {
      if (!t.axis.empty() && t.axis != nest) {
        throw ScheduleError(
            "VIEW_AXES_DIFFER",
            "node '" + n.name + "' has a view whose axes differ from the loop nest");
      }
    }
  }
}

// Loop dims a reduction removes (positions in the nest).
std::vector<bool> ReducedDims(const Graph& g, std::size_t n) {
  std::vector<bool> r(n, false);
  for (const auto& node : g.nodes) {
    if (!ir::IsReduceOp(node.type) || node.inputs.empty()) continue;
    const ir::Tensor* in = ir::InputTensor(g, node, 0);
    const ir::Tensor& out = node.outputs.at(0);
    for (std::size_t p = 0; p < n && p < in->repeats.size() && p < out.repeats.size(); ++p)
      r[p] = r[p] || (in->repeats[p] != Expr(1) && out.repeats[p] == Expr(1));
  }
  return r;
}

bool VariesAlong(const Node& n, std::size_t p) {
  return !n.outputs.empty() && p < n.outputs[0].repeats.size() &&
         n.outputs[0].repeats[p] != Expr(1);
}

// The load a kept dim `p` would re-read: a row operand (varying along the innermost dim) that does
// not vary along p but feeds nodes that do. Empty when there is none.
std::string RereadLoad(const Graph& g, std::size_t p, std::size_t last) {
  const auto consumers = g.Consumers();
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (n.type != "Load" || VariesAlong(n, p) || !VariesAlong(n, last)) continue;
    std::vector<int> stack{static_cast<int>(i)};
    std::set<int> seen;
    while (!stack.empty()) {
      const int k = stack.back();
      stack.pop_back();
      if (!seen.insert(k).second) continue;
      const Node& c = g.nodes[static_cast<std::size_t>(k)];
      if (k != static_cast<int>(i) && IsComputeNode(c) && VariesAlong(c, p)) return n.name;
      for (const auto& [user, slot] : consumers[static_cast<std::size_t>(k)])
        stack.push_back(user);
    }
  }
  return {};
}

// Unrolls a small static kept dim before the reduced dims when a row operand that does not vary
// along it would be re-read for each of its indices (the common template loops over kept dims
// outside its block): the nodes that vary along the dim are copied once per index, narrowed to
// it, so every copy reads the operand's one block and the dim disappears from the loop nest
// (DeepSeek-V4 hc_post: the 4 output rows of a hyper-connection computed together from one load
// of the residual). Records UNROLL_REUSE_DIM, or REUSE_DIM_KEPT with the reason it did not unroll.
void UnrollReuseDims(NormalizeState& st) {
  constexpr std::int64_t kMaxUnroll = 8;
  constexpr std::size_t kMaxNodes = 160;
  Graph& g = st.g;
  const std::size_t n = st.nest.size();
  if (n < 2) return;
  const auto reduced = ReducedDims(g, n);
  const auto first_r = std::find(reduced.begin(), reduced.end(), true);
  if (first_r == reduced.end()) return;
  for (std::size_t p = 0; p < static_cast<std::size_t>(first_r - reduced.begin()); ++p) {
    const ir::Axis* a = g.FindAxis(st.nest[p]);
    const auto e = a->size.AsInt();
    if (!e || *e < 2) continue;
    const std::string load = RereadLoad(g, p, n - 1);
    if (load.empty()) continue;
    std::vector<int> cone;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      if (IsComputeNode(g.nodes[i]) && VariesAlong(g.nodes[i], p))
        cone.push_back(static_cast<int>(i));
    }
    const std::string what =
        "'" + load + "' does not vary along axis " + a->name + " (size " + std::to_string(*e) + ")";
    if (*e > kMaxUnroll ||
        g.nodes.size() + cone.size() * static_cast<std::size_t>(*e - 1) > kMaxNodes) {
      st.d->push_back({"normalize", "REUSE_DIM_KEPT",
                       what + " but is re-read for each of its indices: unrolling it would copy " +
                           std::to_string(cone.size()) + " nodes " + std::to_string(*e) +
                           " times (at most " + std::to_string(kMaxUnroll) + " indices and " +
                           std::to_string(kMaxNodes) + " nodes)"});
      continue;
    }
    std::map<int, std::vector<ir::InputRef>> stores_of;
    for (std::int64_t k = 0; k < *e; ++k) {
      const auto copy = NarrowedCopy(g, cone, p, Expr(k), Expr(1), "_u" + std::to_string(k));
      for (const auto& [from, to] : copy) {
        ir::Tensor& v = g.nodes[static_cast<std::size_t>(to)].outputs.at(0);
        v.strides[p] = Expr(0);
        if (g.nodes[static_cast<std::size_t>(from)].type == "Store")
          stores_of[from].push_back({to, 0});
      }
    }
    for (auto& node : g.nodes) {
      if (node.type == "Output") {
        std::vector<ir::InputRef> ins;
        for (const auto& in : node.inputs) {
          const auto it = stores_of.find(in.node);
          if (it == stores_of.end()) {
            ins.push_back(in);
          } else {
            ins.insert(ins.end(), it->second.begin(), it->second.end());
          }
        }
        node.inputs = std::move(ins);
      }
      // GM buffers that vary along the dim are addressed only through their loads and stores:
      // a flat view keeps their size without the dim.
      if (!IsComputeNode(node) && VariesAlong(node, p))
        node.outputs[0] = FlatView(node.outputs[0], st.nest);
    }
    std::vector<bool> keep(g.nodes.size(), true);
    for (const int c : cone)
      keep[static_cast<std::size_t>(c)] = false;
    // A copy's broadcast along the unrolled dim alone no longer broadcasts: its readers read its
    // input.
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      const Node& b = g.nodes[i];
      if (!keep[i] || b.type != "Broadcast" || b.inputs.empty()) continue;
      if (ir::InputTensor(g, b, 0)->repeats != b.outputs.at(0).repeats) continue;
      Rewire(g, {static_cast<int>(i), 0}, b.inputs[0]);
      keep[i] = false;
    }
    g = Filter(g, keep);
    SortByStores(g);
    st.d->push_back({"normalize", "UNROLL_REUSE_DIM",
                     what + " and would be re-read for each of its indices: the " +
                         std::to_string(cone.size()) + " nodes that vary along it are copied " +
                         "once per index, so every copy reads one block of it"});
    return;
  }
}

// Drop axes of size 1, and axes along which no tensor moves (repeat 1, stride 0 everywhere:
// every iteration would compute and store the same values). Keep at least one loop axis.
void DropAxes(NormalizeState& st) {
  Graph& g = st.g;
  std::vector<std::int64_t>& nest = st.nest;
  std::vector<Decision>* d = st.d;
  auto still_everywhere = [&](std::int64_t id) {
    bool seen = false;
    for (const auto& n : g.nodes) {
      for (const auto& t : n.outputs) {
        const auto it = std::find(t.axis.begin(), t.axis.end(), id);
        if (it == t.axis.end()) continue;
        const auto p = static_cast<std::size_t>(it - t.axis.begin());
        if (t.repeats[p] != Expr(1) || t.strides[p] != Expr(0)) return false;
        seen = true;
      }
    }
    return seen;
  };
  for (std::size_t i = 0; i < nest.size() && nest.size() > 1;) {
    const ir::Axis* a = g.FindAxis(nest[i]);
    const bool size1 = sym::ProveEq(a->size, Expr(1)) == sym::Tri::kTrue;
    const bool still = !size1 && still_everywhere(nest[i]);
    if (!size1 && !still) {
      ++i;
      continue;
    }
    d->push_back({"normalize", size1 ? "DROP_SIZE1_AXIS" : "DROP_STRIDE0_AXIS",
                  "axis " + a->name +
                      (size1 ? " has size 1; dropped"
                             : " has repeat 1 and stride 0 in every tensor; dropped")});
    const auto id = nest[i];
    for (auto& n : g.nodes) {
      auto& s = n.sched.axis;
      s.erase(std::remove(s.begin(), s.end(), id), s.end());
      if (n.sched.loop_axis == id) n.sched.loop_axis = s.empty() ? -1 : s.back();
      for (auto& t : n.outputs) {
        const auto it = std::find(t.axis.begin(), t.axis.end(), id);
        if (it == t.axis.end()) continue;
        const auto p = it - t.axis.begin();
        t.axis.erase(it);
        t.repeats.erase(t.repeats.begin() + p);
        t.strides.erase(t.strides.begin() + p);
      }
    }
    nest.erase(nest.begin() + static_cast<long>(i));
  }
}

// Merge adjacent axes contiguous in every tensor.
void MergeContiguousAxes(NormalizeState& st) {
  Graph& g = st.g;
  std::vector<std::int64_t>& nest = st.nest;
  std::vector<Decision>* d = st.d;
  for (std::size_t i = 0; i + 1 < nest.size();) {
    std::string why;
    const auto merged = ir::MergeAxes(g, {nest[i], nest[i + 1]}, &why);
    if (merged) {
      d->push_back({"normalize", "MERGE_CONTIGUOUS",
                    "merged axes " + g.FindAxis(nest[i])->name + " and " +
                        g.FindAxis(nest[i + 1])->name + " (contiguous in every tensor)"});
      nest[i] = *merged;
      nest.erase(nest.begin() + static_cast<long>(i) + 1);
    } else {
      d->push_back({"normalize", "KEEP_AXES_APART",
                    g.FindAxis(nest[i])->name + " and " + g.FindAxis(nest[i + 1])->name +
                        " stay separate: " + why});
      ++i;
    }
  }
}

// Renumber the axes in loop order; every compute node loops innermost over the last one.
void CompactLoopAxes(NormalizeState& st) {
  CompactAxes(st.g, st.nest);
  for (auto& n : st.g.nodes) {
    if (IsComputeNode(n) && !n.sched.axis.empty()) n.sched.loop_axis = n.sched.axis.back();
  }
}

struct NormalizePass {
  std::string_view name;
  void (*run)(NormalizeState& st);
};

// The passes, in order.
constexpr std::array<NormalizePass, 16> kPasses = {{
    {"expand_softmax", [](NormalizeState& st) { ExpandSoftmax(st.g, st.d); }},
    {"drop_dangling", [](NormalizeState& st) { st.g = DropDangling(st.g, st.d); }},
    {"sort_topo", [](NormalizeState& st) { SortTopo(st.g); }},
    {"fold_transposes", [](NormalizeState& st) { FoldTransposes(st.g, st.d); }},
    {"fold_splits", [](NormalizeState& st) { FoldSplits(st.g, st.d); }},
    {"rewrite_gathers", [](NormalizeState& st) { RewriteGathers(st.g, st.d); }},
    {"loop_nest", LoopNest},
    {"unroll_reuse_dims", UnrollReuseDims},
    {"logical_reductions_as_float",
     [](NormalizeState& st) { LogicalReductionsAsFloat(st.g, st.d); }},
    {"upcast",
     [](NormalizeState& st) {
       if (st.options.upcast_half) Upcast(st.g, st.d, st.options.keep_precision);
     }},
    {"split_casts", [](NormalizeState& st) { SplitCasts(st.g, st.d); }},
    {"explicit_broadcasts", [](NormalizeState& st) { ExplicitBroadcasts(st.g, st.d); }},
    {"drop_axes", DropAxes},
    {"merge_axes", MergeContiguousAxes},
    {"compact_axes", CompactLoopAxes},
    {"concats_to_stores", [](NormalizeState& st) { ConcatsToStores(st.g, st.d); }},
}};

}  // namespace

std::vector<std::string_view> NormalizePassNames() {
  std::vector<std::string_view> names;
  names.reserve(kPasses.size());
  for (const auto& p : kPasses)
    names.push_back(p.name);
  return names;
}

Graph PrecisionGraph(const Graph& hint, const ScheduleOptions& options) {
  Graph g = hint;
  std::vector<Decision> decisions;  // the schedule records them; here they are not needed
  ExpandSoftmax(g, &decisions);
  LogicalReductionsAsFloat(g, &decisions);
  if (options.upcast_half) Upcast(g, &decisions, options.keep_precision);
  SplitCasts(g, &decisions);
  return g;
}

Graph Normalize(const Graph& hint, const ScheduleOptions& options, std::vector<Decision>* d,
                const StageDump& dump) {
  const auto diags = ir::Validate(hint);
  if (ir::HasErrors(diags)) {
    throw ScheduleError("INVALID_GRAPH",
                        "graph '" + hint.name + "' is invalid:\n" + ir::FormatDiagnostics(diags));
  }
  NormalizeState st{hint, {}, options, d};
  for (const auto& p : kPasses) {
    p.run(st);
    if (dump) dump("normalize." + std::string(p.name), ir::DumpText(st.g));
  }
  return std::move(st.g);
}

}  // namespace af::schedule
