// The interpreter's driver: numbers the graph's inputs and outputs, walks the nodes in
// topological order, evaluates views under the bindings and dispatches each node to its
// evaluator. Node-level problems are raised as detail::EvalError and reported here with the
// graph and node named.
#include "autofuse/interp/interpreter.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <optional>

#include "autofuse/ir/data_movement.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/ir/validate.h"
#include "autofuse/support/error.h"
#include "conv.h"
#include "data_movement.h"
#include "elementwise.h"
#include "math_ops.h"
#include "matmul.h"
#include "reduce.h"
#include "strided_counter.h"
#include "value.h"

namespace af::interp {
namespace {

using detail::EvalError;
using detail::ShapeString;
using detail::Value;
using ir::OpCode;

// A Data or Output node with its number.
struct Port {
  int node = -1;
  std::int64_t index = 0;
};

std::string Where(const ir::Graph& g) {
  return "graph " + (g.name.empty() ? std::string("<unnamed>") : g.name);
}

[[noreturn]] void Fail(const ir::Graph& g, const std::string& cause) {
  throw InputError(SourceLoc{Where(g), 0, 0}, cause);
}

std::string NodeLabel(const ir::Node& n) {
  return "node '" + n.name + "' (" + n.type + ")";
}

// The user's bindings plus the graph's CONST sizes.
sym::Bindings AllBindings(const ir::Graph& g, const sym::Bindings& b) {
  sym::Bindings all = b;
  for (const auto& v : g.size_vars) {
    if (!v.const_value) continue;
    const auto it = all.find(v.name);
    if (it == all.end()) {
      all.emplace(v.name, *v.const_value);
    } else if (it->second != *v.const_value) {
      Fail(g, "binding " + v.name + " = " + std::to_string(it->second) +
                  " contradicts its CONST value " + std::to_string(*v.const_value));
    }
  }
  return all;
}

std::int64_t EvalExpr(const sym::Expr& e, const sym::Bindings& b, const std::string& what) {
  try {
    return e.Eval(b);
  } catch (const sym::Error& err) {
    throw EvalError(what + " '" + e.ToString() + "': " + err.what());
  }
}

const ir::Tensor& Out0(const ir::Node& n) {
  if (n.outputs.empty()) throw EvalError("has no output tensor");
  return n.outputs[0];
}

std::vector<std::int64_t> EvalRepeats(const ir::Tensor& t, const sym::Bindings& b) {
  std::vector<std::int64_t> r;
  for (const auto& e : t.repeats) {
    const std::int64_t v = EvalExpr(e, b, "repeat");
    if (v < 0)
      throw EvalError("repeat '" + e.ToString() + "' is negative (" + std::to_string(v) + ")");
    r.push_back(v);
  }
  return r;
}

std::vector<std::int64_t> EvalStrides(const ir::Tensor& t, const sym::Bindings& b) {
  if (t.strides.size() != t.repeats.size()) {
    throw EvalError("view has " + std::to_string(t.repeats.size()) + " repeats but " +
                    std::to_string(t.strides.size()) + " strides");
  }
  std::vector<std::int64_t> s;
  for (const auto& e : t.strides)
    s.push_back(EvalExpr(e, b, "stride"));
  return s;
}

std::int64_t OffsetAttr(const ir::Node& n, const sym::Bindings& b) {
  const auto e = ir::ViewOffset(n);
  if (!e) throw EvalError("attribute 'offset' is neither an integer nor an expression");
  return EvalExpr(*e, b, "offset");
}

// Checks that a strided view over `repeats` starting at `offset` stays inside [0, size) and that
// the walk's intermediate offsets fit in int64.
void CheckBounds(const std::vector<std::int64_t>& repeats, const std::vector<std::int64_t>& strides,
                 std::int64_t offset, std::int64_t size, const std::string& what) {
  for (std::int64_t r : repeats) {
    if (r == 0) return;  // empty view: nothing is touched
  }
  std::int64_t lo = offset;
  std::int64_t hi = offset;
  std::int64_t span = 0;
  bool overflow = false;
  for (std::size_t k = 0; k < repeats.size(); ++k) {
    std::int64_t ext = 0;
    std::int64_t full = 0;
    overflow |= __builtin_mul_overflow(repeats[k] - 1, strides[k], &ext);
    overflow |=
        __builtin_mul_overflow(repeats[k], strides[k] < 0 ? -strides[k] : strides[k], &full);
    overflow |= __builtin_add_overflow(span, full, &span);
    overflow |= __builtin_add_overflow(ext < 0 ? lo : hi, ext, ext < 0 ? &lo : &hi);
  }
  overflow |= __builtin_add_overflow(span, offset < 0 ? -offset : offset, &span);
  if (overflow) throw EvalError(what + ": view addresses overflow int64");
  if (lo < 0 || hi >= size) {
    throw EvalError(what + " elements [" + std::to_string(lo) + ", " + std::to_string(hi) +
                    "] of a buffer of " + std::to_string(size) + " elements (offset " +
                    std::to_string(offset) + ", repeats " + ShapeString(repeats) + ", strides " +
                    ShapeString(strides) + ")");
  }
}

// Parses a Scalar's string value into element 0.. of `v`.
void FillScalarString(Value& v, const std::string& raw) {
  std::size_t b = 0;
  std::size_t e = raw.size();
  while (b < e && std::isspace(static_cast<unsigned char>(raw[b])) != 0)
    ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(raw[e - 1])) != 0)
    --e;
  const std::string s = raw.substr(b, e - b);
  const auto fill_int = [&](std::int64_t x) {
    for (std::int64_t k = 0; k < v.numel(); ++k)
      v.PutInt(k, x);
  };
  if (s == "true" || s == "True") return fill_int(1);
  if (s == "false" || s == "False") return fill_int(0);
  std::int64_t i = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
  if (!s.empty() && ec == std::errc() && p == s.data() + s.size()) return fill_int(i);
  char* end = nullptr;
  errno = 0;
  const double d = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size()) {
    throw EvalError("value \"" + raw + "\" is not a number");
  }
  for (std::int64_t k = 0; k < v.numel(); ++k)
    v.PutDouble(k, d);
}

class Run {
 public:
  Run(const ir::Graph& g, const sym::Bindings& b) : g_(g), b_(AllBindings(g, b)) {
    for (const auto& n : g.nodes) {
      if (ir::FindOp(n.type) == nullptr) {
        Fail(g, NodeLabel(n) + ": unknown op type '" + n.type + "'");
      }
    }
    inputs_ = Number("Data", OpCode::kData);
    outputs_ = Number("Output", OpCode::kOutput);
  }

  std::vector<TensorSpec> InputSpecs() const {
    std::vector<TensorSpec> out;
    for (const Port& p : inputs_) {
      const ir::Node& n = g_.nodes[static_cast<std::size_t>(p.node)];
      Guard(n, [&] {
        const ir::Tensor& t = Out0(n);
        out.push_back({n.name, p.index, t.dtype, EvalRepeats(t, b_)});
      });
    }
    return out;
  }

  std::vector<TensorSpec> OutputSpecs() const {
    std::vector<TensorSpec> out;
    for (const Port& p : outputs_) {
      const ir::Node& n = g_.nodes[static_cast<std::size_t>(p.node)];
      Guard(n, [&] {
        const ir::Tensor& t = OutputView(n);
        const ir::DType dtype = n.outputs.empty() ? t.dtype : n.outputs[0].dtype;
        out.push_back({n.name, p.index, dtype, EvalRepeats(t, b_)});
      });
    }
    return out;
  }

  std::vector<data::HostArray> Execute(const std::vector<data::HostArray>& inputs,
                                       const NodeHook* hook = nullptr) {
    CheckInputs(inputs);
    const std::size_t n = g_.nodes.size();
    for (std::size_t i = 0; i < n; ++i) {
      const ir::Node& node = g_.nodes[i];
      for (const auto& in : node.inputs) {
        if (in.node < 0 || static_cast<std::size_t>(in.node) >= n ||
            in.node == static_cast<int>(i)) {
          Fail(g_, NodeLabel(node) + ": input refers to node " + std::to_string(in.node) +
                       ", which is not another node of the graph");
        }
        const ir::Node& prod = g_.nodes[static_cast<std::size_t>(in.node)];
        if (in.output < 0 || static_cast<std::size_t>(in.output) >= prod.outputs.size()) {
          Fail(g_, NodeLabel(node) + ": reads output " + std::to_string(in.output) + " of '" +
                       prod.name + "', which has " + std::to_string(prod.outputs.size()) +
                       " output(s)");
        }
      }
    }
    const std::vector<int> order = g_.TopoOrder();
    if (order.size() != n) Fail(g_, "the graph has a cycle");

    remaining_.assign(n, 0);
    for (const auto& node : g_.nodes) {
      for (const auto& in : node.inputs)
        ++remaining_[static_cast<std::size_t>(in.node)];
    }
    values_.assign(n, {});
    data_of_.assign(n, nullptr);
    for (const Port& p : inputs_) {
      data_of_[static_cast<std::size_t>(p.node)] = &inputs[static_cast<std::size_t>(p.index)];
    }
    results_.assign(outputs_.size(), data::HostArray{});
    output_slot_.assign(n, -1);
    for (const Port& p : outputs_)
      output_slot_[static_cast<std::size_t>(p.node)] = p.index;

    for (int idx : order) {
      const ir::Node& node = g_.nodes[static_cast<std::size_t>(idx)];
      Guard(node, [&] {
        Step(idx, node);
        if (hook != nullptr && hook->fn && hook->nodes.contains(node.name)) Hook(idx, node, *hook);
      });
      for (const auto& in : node.inputs) {
        if (--remaining_[static_cast<std::size_t>(in.node)] == 0) {
          values_[static_cast<std::size_t>(in.node)].clear();
        }
      }
    }
    return std::move(results_);
  }

 private:
  // A dense host array of `v` read through `strides` over `shape` (a broadcast view of v).
  static data::HostArray ToArray(const Value& v, const std::vector<std::int64_t>& shape,
                                 const std::vector<std::int64_t>& strides) {
    data::HostArray a = data::Zeros(v.dtype, shape);
    detail::StridedCounter<1> c(shape, {&strides}, {0});
    for (std::int64_t k = 0; k < a.numel(); ++k) {
      const std::int64_t o = c.offsets()[0];
      if (v.is_float) {
        a.SetFromDouble(k, v.f[static_cast<std::size_t>(o)]);
      } else {
        a.SetFromInt(k, v.i[static_cast<std::size_t>(o)]);
      }
      c.Next();
    }
    return a;
  }

  // NodeHook: hands output 0 of node idx and its broadcast inputs to the hook, takes it back.
  void Hook(int idx, const ir::Node& n, const NodeHook& hook) {
    auto& slot = values_[static_cast<std::size_t>(idx)].at(0);
    if (slot == nullptr) return;
    const std::vector<std::int64_t> shape = slot->shape;
    std::vector<data::HostArray> ins;
    for (std::size_t s = 0; s < n.inputs.size(); ++s) {
      const Value& x = In(n, s);
      ins.push_back(ToArray(x, shape, detail::BroadcastStrides(x.shape, shape, "hooked input")));
    }
    data::HostArray value = ToArray(*slot, shape, detail::DenseStrides(shape));
    hook.fn(n, ins, value);
    if (value.dtype != slot->dtype || value.shape != shape) {
      throw EvalError("a NodeHook changed the value's dtype or shape");
    }
    auto changed = std::make_shared<Value>(detail::MakeValue(slot->dtype, shape));
    for (std::int64_t k = 0; k < changed->numel(); ++k) {
      if (changed->is_float) {
        changed->PutDouble(k, value.GetAsDouble(k));
      } else {
        changed->PutInt(k, value.GetAsInt(k));
      }
    }
    slot = std::move(changed);
  }

  // Runs `f`, turning node-level errors into InputErrors that name the node.
  template <typename F>
  void Guard(const ir::Node& n, F&& f) const {
    try {
      f();
    } catch (const EvalError& e) {
      Fail(g_, NodeLabel(n) + ": " + e.what());
    } catch (const sym::Error& e) {
      Fail(g_, NodeLabel(n) + ": " + e.what());
    } catch (const std::invalid_argument& e) {
      Fail(g_, NodeLabel(n) + ": " + e.what());
    } catch (const std::out_of_range& e) {
      Fail(g_, NodeLabel(n) + ": " + e.what());
    }
  }

  std::vector<Port> Number(const std::string& what, OpCode code) const {
    std::vector<Port> ports;
    for (std::size_t i = 0; i < g_.nodes.size(); ++i) {
      const ir::Node& n = g_.nodes[i];
      if (ir::FindOp(n.type)->code != code) continue;
      Port p{static_cast<int>(i), static_cast<std::int64_t>(ports.size())};
      if (n.FindAttr("index") != nullptr) {
        const auto v = n.IntAttr("index");
        if (!v) Fail(g_, NodeLabel(n) + ": attribute 'index' is not an integer");
        p.index = *v;
      }
      ports.push_back(p);
    }
    std::vector<Port> sorted(ports.size());
    std::vector<bool> seen(ports.size(), false);
    for (const Port& p : ports) {
      const ir::Node& n = g_.nodes[static_cast<std::size_t>(p.node)];
      if (p.index < 0 || static_cast<std::size_t>(p.index) >= ports.size()) {
        Fail(g_, NodeLabel(n) + ": index " + std::to_string(p.index) + " is outside 0.." +
                     std::to_string(ports.size() - 1) + " (the graph has " +
                     std::to_string(ports.size()) + " " + what + " nodes)");
      }
      if (seen[static_cast<std::size_t>(p.index)]) {
        Fail(g_, NodeLabel(n) + ": another " + what + " node has index " + std::to_string(p.index));
      }
      seen[static_cast<std::size_t>(p.index)] = true;
      sorted[static_cast<std::size_t>(p.index)] = p;
    }
    return sorted;
  }

  // The view that defines an Output's array: its own, or its Store's when its own is empty.
  const ir::Tensor& OutputView(const ir::Node& n) const {
    const ir::Tensor* producer = n.inputs.size() == 1 ? ir::InputTensor(g_, n, 0) : nullptr;
    if (!n.outputs.empty() &&
        (!n.outputs[0].repeats.empty() || producer == nullptr || producer->repeats.empty())) {
      return n.outputs[0];
    }
    if (producer == nullptr) {
      throw EvalError(n.inputs.size() > 1 ? "has several Stores and no output view of its own"
                                          : "has no output view and no producer with one");
    }
    return *producer;
  }

  void CheckInputs(const std::vector<data::HostArray>& inputs) const {
    const std::vector<TensorSpec> specs = InputSpecs();
    if (inputs.size() != specs.size()) {
      Fail(g_, "expects " + std::to_string(specs.size()) + " input arrays, got " +
                   std::to_string(inputs.size()));
    }
    for (const TensorSpec& s : specs) {
      const data::HostArray& a = inputs[static_cast<std::size_t>(s.index)];
      const std::string want = std::string(ir::DTypeName(s.dtype)) + " " + ShapeString(s.shape);
      const std::string got = std::string(ir::DTypeName(a.dtype)) + " " + ShapeString(a.shape);
      if (a.dtype != s.dtype || a.shape != s.shape) {
        Fail(g_, "input " + std::to_string(s.index) + " (Data '" + s.name + "'): expected " + want +
                     ", got " + got);
      }
      std::int64_t n = 0;
      try {
        n = a.numel();
      } catch (const std::invalid_argument& e) {
        Fail(g_, "input " + std::to_string(s.index) + ": " + e.what());
      }
      if (static_cast<std::int64_t>(a.bytes.size()) != n * a.itemsize()) {
        Fail(g_, "input " + std::to_string(s.index) + " (Data '" + s.name + "') holds " +
                     std::to_string(a.bytes.size()) + " bytes, but " + got + " needs " +
                     std::to_string(n * a.itemsize()));
      }
    }
  }

  const Value& In(const ir::Node& n, std::size_t slot) const {
    const int p = n.inputs[slot].node;
    const auto& outs = values_[static_cast<std::size_t>(p)];
    const auto o = static_cast<std::size_t>(n.inputs[slot].output);
    const Value* v = o < outs.size() ? outs[o].get() : nullptr;
    if (v == nullptr) {
      const ir::Node& prod = g_.nodes[static_cast<std::size_t>(p)];
      throw EvalError("input " + std::to_string(slot) + " reads " + NodeLabel(prod) +
                      ", which has no value here (graph inputs are read through Load)");
    }
    return *v;
  }

  void Step(int idx, const ir::Node& n) {
    const ir::OpDef& def = *ir::FindOp(n.type);
    if (!def.dynamic_inputs && n.inputs.size() != def.inputs.size()) {
      throw EvalError("has " + std::to_string(n.inputs.size()) + " inputs, the op takes " +
                      std::to_string(def.inputs.size()));
    }
    auto& outs = values_[static_cast<std::size_t>(idx)];
    outs.assign(std::max<std::size_t>(n.outputs.size(), 1), nullptr);
    auto& slot = outs[0];
    switch (def.code) {
      case OpCode::kData:
        return;
      case OpCode::kScalar:
        slot = std::make_shared<Value>(Scalar(n));
        return;
      case OpCode::kLoad:
        slot = std::make_shared<Value>(Load(n));
        return;
      case OpCode::kStore:
        slot = std::make_shared<Value>(StoreValue(n));
        return;
      case OpCode::kOutput:
        results_[static_cast<std::size_t>(output_slot_[static_cast<std::size_t>(idx)])] = Output(n);
        return;
      case OpCode::kTranspose:
        slot = std::make_shared<Value>(Transpose(n));
        return;
      case OpCode::kConcat:
        slot = std::make_shared<Value>(Concat(n));
        return;
      case OpCode::kSplit:
        return Split(idx, n);
      case OpCode::kGather:
        slot = std::make_shared<Value>(Gather(n));
        return;
      case OpCode::kPad:
      case OpCode::kRemovePad:
        slot = std::make_shared<Value>(PadLike(n, def.code == OpCode::kPad));
        return;
      case OpCode::kWorkspace:
        throw EvalError("op " + n.type + " is not supported by the interpreter yet");
      default:
        break;
    }
    if (ir::IsCubeOp(def.code)) {
      slot = std::make_shared<Value>(MatMul(n));
      return;
    }
    if (ir::IsConvOp(def.code)) {
      slot = std::make_shared<Value>(Conv2D(n));
      return;
    }
    const ir::Tensor& t = Out0(n);
    const std::vector<std::int64_t> shape = EvalRepeats(t, b_);
    std::vector<const Value*> ins;
    for (std::size_t s = 0; s < n.inputs.size(); ++s)
      ins.push_back(&In(n, s));
    if (def.code == OpCode::kSoftmax) {
      if (ins[0]->shape != shape) {
        throw EvalError("input shape " + ShapeString(ins[0]->shape) + " and output shape " +
                        ShapeString(shape) + " differ (Softmax keeps the shape)");
      }
      slot = std::make_shared<Value>(detail::EvalSoftmax(*ins[0], t.dtype));
      return;
    }
    if (def.compute == ir::ComputeType::kReduce) {
      const std::vector<std::int64_t> strides = EvalStrides(t, b_);
      const Value& x = *ins[0];
      if (x.shape.size() != shape.size()) {
        throw EvalError("input shape " + ShapeString(x.shape) + " and output shape " +
                        ShapeString(shape) + " differ in rank (reductions keep dims)");
      }
      std::vector<bool> reduced(shape.size(), false);
      for (std::size_t k = 0; k < shape.size(); ++k) {
        reduced[k] = shape[k] == 1 && strides[k] == 0 && x.shape[k] != 1;
        if (!reduced[k] && shape[k] != x.shape[k]) {
          throw EvalError("dim " + std::to_string(k) + ": input repeat " +
                          std::to_string(x.shape[k]) + ", output repeat " +
                          std::to_string(shape[k]) +
                          " (a reduced dim needs output repeat 1 and stride 0)");
        }
      }
      if (def.code == OpCode::kArgMax) {
        slot = std::make_shared<Value>(detail::EvalArgMax(x, reduced, t.dtype, shape));
        return;
      }
      if (def.code == OpCode::kArgMaxMultiRPhase1 || def.code == OpCode::kArgMaxMultiRPhase2) {
        throw EvalError("op " + n.type +
                        " (a phase of AutoFuse's multi-R ArgMax) is not "
                        "supported by the interpreter; use ArgMax");
      }
      slot = std::make_shared<Value>(detail::EvalReduce(def.code, x, reduced, t.dtype, shape));
      return;
    }
    if (detail::IsMathOp(def.code)) {
      slot = std::make_shared<Value>(
          detail::EvalMath(def.code, ins, t.dtype, shape, MathAttr(n, def.code)));
      return;
    }
    slot = std::make_shared<Value>(detail::EvalElementwise(def.code, ins, t.dtype, shape));
  }

  // Input `slot` of a Gather or cube op: a computed value, or the graph input behind a Data node
  // (AutoFuse's Gather and MatMul read GM directly), read densely over the Data's view.
  const Value& Operand(const ir::Node& n, std::size_t slot, std::optional<Value>& holder) const {
    const auto p = static_cast<std::size_t>(n.inputs[slot].node);
    const data::HostArray* a = data_of_[p];
    if (a == nullptr) return In(n, slot);
    holder = detail::MakeValue(g_.nodes[p].outputs[0].dtype, a->shape);
    const bool f = ir::IsFloat(a->dtype);
    for (std::int64_t k = 0; k < holder->numel(); ++k) {
      if (f) {
        holder->PutDouble(k, a->GetAsDouble(k));
      } else {
        holder->PutInt(k, a->GetAsInt(k));
      }
    }
    return *holder;
  }

  Value Transpose(const ir::Node& n) const {
    const ir::Tensor& t = Out0(n);
    const ir::Tensor* in = ir::InputTensor(g_, n, 0);
    const auto perm = in != nullptr ? ir::TransposePerm(*in, t) : std::nullopt;
    if (!perm) {
      throw EvalError("its output axes are not a permutation of its input's axes (matched by id)");
    }
    return detail::EvalTranspose(In(n, 0), *perm, t.dtype, EvalRepeats(t, b_));
  }

  Value Concat(const ir::Node& n) const {
    const ir::Tensor& t = Out0(n);
    std::vector<const Value*> ins;
    for (std::size_t s = 0; s < n.inputs.size(); ++s)
      ins.push_back(&In(n, s));
    return detail::EvalConcat(ins, ir::ConcatDim(g_, n), t.dtype, EvalRepeats(t, b_));
  }

  void Split(int idx, const ir::Node& n) {
    if (n.outputs.empty()) throw EvalError("has no outputs");
    std::vector<detail::PieceSpec> specs;
    const std::vector<ir::SplitPiece> pieces = ir::SplitPieces(g_, idx);
    for (const ir::SplitPiece& p : pieces) {
      const ir::Node& owner = g_.nodes[static_cast<std::size_t>(p.node)];
      const ir::Tensor& t = owner.outputs[static_cast<std::size_t>(p.output)];
      std::vector<std::int64_t> shape;
      try {
        shape = EvalRepeats(t, b_);
      } catch (const EvalError& e) {
        throw EvalError("piece " + std::to_string(p.output) + " of " + NodeLabel(owner) + ": " +
                        e.what());
      }
      specs.push_back({t.dtype, std::move(shape), p.node == idx});
    }
    std::vector<Value> vals = detail::EvalSplit(In(n, 0), ir::SplitDim(g_, idx), specs);
    auto& outs = values_[static_cast<std::size_t>(idx)];
    for (std::size_t k = 0; k < pieces.size(); ++k) {
      if (pieces[k].node != idx) continue;
      outs[static_cast<std::size_t>(pieces[k].output)] =
          std::make_shared<Value>(std::move(vals[k]));
    }
  }

  Value Gather(const ir::Node& n) const {
    const ir::Tensor& t = Out0(n);
    std::optional<Value> hold_x;
    std::optional<Value> hold_i;
    const Value& x = Operand(n, 0, hold_x);
    const Value* indices = &Operand(n, 1, hold_i);
    // Indices a reduction computed here span the params' trailing axes with extent 1: the
    // index dims are the others (ir::GatherIndexDims); dropping extent-1 dims keeps the layout.
    const auto tensor = [&](std::size_t k) -> const ir::Tensor& {
      const ir::InputRef& in = n.inputs.at(k);
      return g_.nodes.at(static_cast<std::size_t>(in.node))
          .outputs.at(static_cast<std::size_t>(in.output));
    };
    const std::vector<std::size_t> dims = ir::GatherIndexDims(tensor(0), tensor(1));
    std::optional<Value> trimmed;
    if (dims.size() != indices->shape.size() && tensor(1).repeats.size() == indices->shape.size()) {
      trimmed = *indices;
      trimmed->shape.clear();
      for (const std::size_t j : dims)
        trimmed->shape.push_back(indices->shape[j]);
      indices = &*trimmed;
    }
    const auto axis = ir::GatherAxis(n, x.shape.size());
    if (!axis) {
      const auto v = n.IntAttr("axis");
      throw EvalError(v ? "attribute 'axis' = " + std::to_string(*v) +
                              " is outside the params rank " + std::to_string(x.shape.size())
                        : std::string("attribute 'axis' is missing or not an integer"));
    }
    return detail::EvalGather(x, *indices, *axis, ir::NegativeIndexSupport(n), t.dtype,
                              EvalRepeats(t, b_));
  }

  // A cube op; its operands may be computed values or Data nodes read whole (the cube reads GM).
  Value MatMul(const ir::Node& n) const {
    std::string error;
    const auto m = ir::ReadMatMul(n, &error);
    if (!m) throw EvalError(error);
    if (const auto code = ir::CubeRefusal(*m)) {
      throw EvalError(*code + ": " + n.type +
                      (m->offset ? " (int8 weight offsets)" : " with offset_x or enable_hf32") +
                      " is not supported by the interpreter");
    }
    std::optional<Value> h1;
    std::optional<Value> h2;
    std::optional<Value> hb;
    const Value& x1 = Operand(n, 0, h1);
    const Value& x2 = Operand(n, 1, h2);
    const Value* bias = m->bias ? &Operand(n, 2, hb) : nullptr;
    const ir::Tensor& t = Out0(n);
    return detail::EvalMatMul(*m, x1, x2, bias, t.dtype, EvalRepeats(t, b_));
  }

  // A convolution (ir/conv.h); operands as for MatMul. The Offset variants, offset_x and
  // enable_hf32 are refused as there.
  Value Conv2D(const ir::Node& n) const {
    std::string error;
    const auto c = ir::ReadConv2D(n, &error);
    if (!c) throw EvalError(error);
    if (const std::string code = ir::ConvRefusal(*c); code != "CUBE_CONV_UNSUPPORTED") {
      throw EvalError(code + ": " + n.type +
                      (c->offset ? " (int8 weight offsets)" : " with offset_x or enable_hf32") +
                      " is not supported by the interpreter");
    }
    std::optional<Value> hx;
    std::optional<Value> hf;
    std::optional<Value> hb;
    const Value& x = Operand(n, 0, hx);
    const Value& f = Operand(n, 1, hf);
    const Value* bias = c->bias ? &Operand(n, 2, hb) : nullptr;
    const ir::Tensor& t = Out0(n);
    return detail::EvalConv2D(*c, x, f, bias, t.dtype, EvalRepeats(t, b_));
  }

  Value PadLike(const ir::Node& n, bool pad) const {
    const ir::Tensor& t = Out0(n);
    return detail::EvalPad(In(n, 0), pad, t.dtype, EvalRepeats(t, b_));
  }

  // Axpy's alpha, LeakyRelu's negative_slope or an orthogonal polynomial's degree n (0 for
  // other ops).
  static double MathAttr(const ir::Node& n, OpCode code) {
    if (ir::IsPolynomialOp(code)) {
      const auto d = ir::PolynomialDegree(n);
      if (!d) throw EvalError("attribute 'n' (the degree) is missing or not an integer");
      return static_cast<double>(*d);
    }
    const char* key = code == OpCode::kAxpy        ? "alpha"
                      : code == OpCode::kLeakyRelu ? "negative_slope"
                                                   : nullptr;
    if (key == nullptr) return 0;
    const ir::AttrValue* a = n.FindAttr(key);
    if (const auto* d = a == nullptr ? nullptr : std::get_if<double>(a)) return *d;
    if (const auto* i = a == nullptr ? nullptr : std::get_if<std::int64_t>(a)) {
      return static_cast<double>(*i);
    }
    if (const auto* s = a == nullptr ? nullptr : std::get_if<std::string>(a)) {
      char* end = nullptr;
      const double v = std::strtod(s->c_str(), &end);
      if (end != s->c_str() && *end == '\0') return v;
    }
    throw EvalError(std::string("attribute '") + key + "' is missing or not a number");
  }

  Value Scalar(const ir::Node& n) const {
    const ir::Tensor& t = Out0(n);
    Value v = detail::MakeValue(t.dtype, EvalRepeats(t, b_));
    const ir::AttrValue* a = n.FindAttr("value");
    if (a == nullptr) throw EvalError("has no 'value' attribute");
    if (const auto* s = std::get_if<std::string>(a)) {
      FillScalarString(v, *s);
    } else if (const auto* d = std::get_if<double>(a)) {
      for (std::int64_t k = 0; k < v.numel(); ++k)
        v.PutDouble(k, *d);
    } else {
      std::int64_t x = 0;
      if (const auto* i = std::get_if<std::int64_t>(a)) {
        x = *i;
      } else if (const auto* bo = std::get_if<bool>(a)) {
        x = *bo ? 1 : 0;
      } else if (const auto* e = std::get_if<sym::Expr>(a)) {
        x = EvalExpr(*e, b_, "value");
      } else {
        throw EvalError("attribute 'value' is an integer list, not a scalar");
      }
      for (std::int64_t k = 0; k < v.numel(); ++k)
        v.PutInt(k, x);
    }
    return v;
  }

  Value Load(const ir::Node& n) const {
    const int p = n.inputs[0].node;
    const data::HostArray* buf = data_of_[static_cast<std::size_t>(p)];
    if (buf == nullptr) {
      throw EvalError("reads " + NodeLabel(g_.nodes[static_cast<std::size_t>(p)]) +
                      "; the interpreter loads only from Data nodes");
    }
    const ir::Tensor& t = Out0(n);
    const std::vector<std::int64_t> shape = EvalRepeats(t, b_);
    const std::vector<std::int64_t> strides = EvalStrides(t, b_);
    const std::int64_t offset = OffsetAttr(n, b_);
    CheckBounds(shape, strides, offset, buf->numel(),
                "reads Data '" + g_.nodes[static_cast<std::size_t>(p)].name + "'");
    Value v = detail::MakeValue(t.dtype, shape);
    const bool src_float = ir::IsFloat(buf->dtype);
    detail::StridedCounter<1> c(shape, {&strides}, {offset});
    for (std::int64_t k = 0; k < v.numel(); ++k) {
      const std::int64_t o = c.offsets()[0];
      if (src_float) {
        v.PutDouble(k, buf->GetAsDouble(o));
      } else {
        v.PutInt(k, buf->GetAsInt(o));
      }
      c.Next();
    }
    return v;
  }

  // A Store's value: its input in the Store's shape and dtype.
  Value StoreValue(const ir::Node& n) const {
    const ir::Tensor& t = Out0(n);
    const std::vector<std::int64_t> shape = EvalRepeats(t, b_);
    EvalStrides(t, b_);  // checked here so errors name the Store
    const Value& x = In(n, 0);
    if (x.shape == shape && x.dtype == t.dtype) return x;
    if (x.shape.size() != shape.size() && !x.shape.empty()) {
      throw EvalError("stores a value of shape " + ShapeString(x.shape) + " through a view of " +
                      ShapeString(shape));
    }
    return detail::EvalElementwise(OpCode::kCast, {&x}, t.dtype, shape);
  }

  // An Output's array: its value, or what each of its Stores writes through its view.
  data::HostArray Output(const ir::Node& n) const {
    const ir::Tensor& view = OutputView(n);
    const ir::DType dtype = n.outputs.empty() ? view.dtype : n.outputs[0].dtype;
    const std::vector<std::int64_t> out_shape = EvalRepeats(view, b_);
    data::HostArray out = data::Zeros(dtype, out_shape);
    for (std::size_t s = 0; s < n.inputs.size(); ++s) {
      const Value& v = In(n, s);
      const ir::Node& prod = g_.nodes[static_cast<std::size_t>(n.inputs[s].node)];
      std::vector<std::int64_t> strides;
      std::int64_t offset = 0;
      if (ir::FindOp(prod.type)->code == OpCode::kStore) {
        strides = EvalStrides(Out0(prod), b_);
        offset = OffsetAttr(prod, b_);
        CheckBounds(v.shape, strides, offset, out.numel(), "Store '" + prod.name + "' writes");
      } else {
        if (v.shape != out_shape) {
          throw EvalError("receives a value of shape " + ShapeString(v.shape) +
                          " for an output of shape " + ShapeString(out_shape));
        }
        strides = detail::DenseStrides(out_shape);
      }
      detail::StridedCounter<1> c(v.shape, {&strides}, {offset});
      for (std::int64_t k = 0; k < v.numel(); ++k) {
        const std::int64_t o = c.offsets()[0];
        if (v.is_float) {
          out.SetFromDouble(o, v.f[static_cast<std::size_t>(k)]);
        } else {
          out.SetFromInt(o, v.i[static_cast<std::size_t>(k)]);
        }
        c.Next();
      }
    }
    return out;
  }

  const ir::Graph& g_;
  sym::Bindings b_;
  std::vector<Port> inputs_;
  std::vector<Port> outputs_;
  std::vector<std::vector<std::shared_ptr<const Value>>> values_;  // per node, per output
  std::vector<const data::HostArray*> data_of_;
  std::vector<int> remaining_;
  std::vector<data::HostArray> results_;
  std::vector<std::int64_t> output_slot_;
};

}  // namespace

std::vector<TensorSpec> InputShapes(const ir::Graph& g, const sym::Bindings& b) {
  return Run(g, b).InputSpecs();
}

std::vector<TensorSpec> OutputShapes(const ir::Graph& g, const sym::Bindings& b) {
  return Run(g, b).OutputSpecs();
}

std::vector<data::HostArray> Interpret(const ir::Graph& g, const sym::Bindings& b,
                                       const std::vector<data::HostArray>& inputs) {
  return Run(g, b).Execute(inputs);
}

std::vector<data::HostArray> Interpret(const ir::Graph& g, const sym::Bindings& b,
                                       const std::vector<data::HostArray>& inputs,
                                       const NodeHook& hook) {
  return Run(g, b).Execute(inputs, &hook);
}

}  // namespace af::interp
