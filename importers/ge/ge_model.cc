// GE graphs as model graphs (ge_model.h): each GE node lowers to the aten ops of its meaning,
// with its attributes and Const operands read at import; the others stay `ge.<Type>` with a
// reason code.
#include "autofuse/importers/ge_model.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <sstream>
#include <unordered_map>

#include "autofuse/model/dtype_code.h"
#include "autofuse/model/infer.h"

namespace af::importers::ge {
namespace {

using model::Arg;
using model::OpName;

constexpr int kMaxOutputs = 4096;  // outputs of one GE node we model (edges name larger ones)

struct Refuse {
  std::string code;
  std::string message;
};

OpName Aten(std::string name, std::string overload) {
  return OpName{"aten", std::move(name), std::move(overload)};
}

std::string FloatText(double v) {
  std::ostringstream ss;
  ss.precision(9);
  ss << v;
  std::string s = ss.str();
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

// "1,2,-1" -> {1, 2, -1}; nullopt on anything else.
std::optional<std::vector<std::int64_t>> IntsOf(const std::string& text) {
  std::vector<std::int64_t> v;
  std::size_t p = 0;
  while (p < text.size()) {
    std::size_t e = text.find(',', p);
    if (e == std::string::npos) e = text.size();
    std::int64_t x = 0;
    const auto r = std::from_chars(text.data() + p, text.data() + e, x);
    if (r.ec != std::errc() || r.ptr != text.data() + e) return std::nullopt;
    v.push_back(x);
    p = e + 1;
  }
  return v;
}

model::ValueType TypeOfDesc(const GeTensorDesc* d) {
  if (d == nullptr || d->dtype.empty() || !d->has_shape) return {};
  const auto dt = ir::DTypeFromGeName(d->dtype);
  if (!dt) return {};
  std::vector<sym::Expr> shape;
  for (std::int64_t v : d->shape) {
    if (v < 0) return {};  // unknown dims: leave the type unknown
    shape.emplace_back(v);
  }
  return model::ValueType::Tensor(*dt, std::move(shape));
}

// Elementwise GE ops: aten name, overload for tensor operands, overload when operand 1 is a
// Python scalar ("" = keep the Const as a tensor), commutative (a scalar operand 0 may swap).
struct Pointwise {
  std::string_view aten;
  std::string_view overload;
  std::string_view scalar_overload;
  bool commutative = false;
  int arity = 2;
};

const std::unordered_map<std::string_view, Pointwise>& PointwiseOps() {
  static const std::unordered_map<std::string_view, Pointwise> kMap = {
      {"Add", {"add", "Tensor", "Tensor", true}},
      {"AddV2", {"add", "Tensor", "Tensor", true}},
      {"Sub", {"sub", "Tensor", "Tensor", false}},
      {"Mul", {"mul", "Tensor", "Tensor", true}},
      {"RealDiv", {"div", "Tensor", "Tensor", false}},
      {"Div", {"div", "Tensor", "Tensor", false}},
      {"Maximum", {"maximum", "default", "", true}},
      {"Minimum", {"minimum", "default", "", true}},
      {"Pow", {"pow", "Tensor_Tensor", "Tensor_Scalar", false}},
      {"Less", {"lt", "Tensor", "Scalar", false}},
      {"LessEqual", {"le", "Tensor", "Scalar", false}},
      {"Greater", {"gt", "Tensor", "Scalar", false}},
      {"GreaterEqual", {"ge", "Tensor", "Scalar", false}},
      {"Equal", {"eq", "Tensor", "Scalar", true}},
      {"NotEqual", {"ne", "Tensor", "Scalar", true}},
      {"LogicalAnd", {"logical_and", "default", "", true}},
      {"LogicalOr", {"logical_or", "default", "", true}},
      {"Abs", {"abs", "default", "", false, 1}},
      {"Relu", {"relu", "default", "", false, 1}},
      {"Exp", {"exp", "default", "", false, 1}},
      {"Log", {"log", "default", "", false, 1}},
      {"Sqrt", {"sqrt", "default", "", false, 1}},
      {"Rsqrt", {"rsqrt", "default", "", false, 1}},
      {"Neg", {"neg", "default", "", false, 1}},
      {"Sigmoid", {"sigmoid", "default", "", false, 1}},
      {"Tanh", {"tanh", "default", "", false, 1}},
      {"Reciprocal", {"reciprocal", "default", "", false, 1}},
      {"Erf", {"erf", "default", "", false, 1}},
      {"Sign", {"sign", "default", "", false, 1}},
      {"Square", {"square", "default", "", false, 1}},
      {"Gelu", {"gelu", "default", "", false, 1}},
      {"LogicalNot", {"logical_not", "default", "", false, 1}},
  };
  return kMap;
}

class GeLowerer {
 public:
  GeLowerer(GeModelImport& out, std::string prefix) : out_(out), prefix_(std::move(prefix)) {}

  void Graph(const GeOnnxGraph& g) {
    for (const auto& n : g.nodes)
      Node(n);
  }

 private:
  using Rule = void (GeLowerer::*)(const GeOnnxNode&);
  model::Graph& mg() { return out_.graph; }

  void Node(const GeOnnxNode& n) {
    const GeOpClass c = ClassifyGeOp(n.type);
    if (c == GeOpClass::kInput) return Input(n);
    if (c == GeOpClass::kOutput) {
      for (const auto& e : n.inputs)
        if (e.index >= 0) mg().outputs.push_back(ValueArg(e));
      return;
    }
    const std::size_t first = mg().nodes.size();
    try {
      Lower(n);
    } catch (const Refuse& r) {
      Opaque(n, r);
    }
    // torchair.scope.super_kernel marks every op inside it (model/scope_markers.h).
    if (const std::string* scope = Attr(n, "_super_kernel_scope")) {
      for (std::size_t k = first; k < mg().nodes.size(); ++k)
        mg().nodes[k].super_kernel_scope = *scope;
    }
  }

  // ---- inputs and constants

  void Input(const GeOnnxNode& n) {
    const bool is_const = n.type == "Const" || n.type == "Constant";
    const int n_out = std::clamp<int>(static_cast<int>(n.output_desc.size()), 1, kMaxOutputs);
    std::vector<int>& v = outs_[n.name];
    for (int k = 0; k < n_out; ++k) {
      const GeTensorDesc* d = static_cast<std::size_t>(k) < n.output_desc.size()
                                  ? &n.output_desc[static_cast<std::size_t>(k)]
                                  : nullptr;
      if (is_const && d == nullptr && n.value_desc.has_shape) d = &n.value_desc;
      const std::string vname = prefix_ + (n_out > 1 ? n.name + ":" + std::to_string(k) : n.name);
      const model::ValueType t = TypeOfDesc(d);
      const int id = is_const ? mg().AddAttr(vname) : mg().AddInput(vname, t);
      if (is_const) {
        mg().value(id).type = t;
        mg().value(id).source =
            t.IsKnown() ? model::TypeSource::kAnnotation : model::TypeSource::kNone;
        if (k == 0) Constant(n, id, t);
      }
      v.push_back(id);
    }
  }

  // A Const with its bytes: kept for the runner, and read as integers / a scalar at import.
  void Constant(const GeOnnxNode& n, int id, const model::ValueType& t) {
    if (!n.has_value || !t.IsTensor()) return;
    const int size = ir::DTypeBytes(t.dtype);
    std::int64_t numel = 1;
    std::vector<std::int64_t> shape;
    for (const auto& e : t.shape) {
      shape.push_back(*e.AsInt());
      if (shape.back() > 0 && numel > (std::int64_t{1} << 40) / shape.back()) return;
      numel *= shape.back();
    }
    if (size == 0 || static_cast<std::int64_t>(n.value_data.size()) != numel * size) return;
    out_.constants.push_back({id, t.dtype, shape, n.value_data});
    if (numel > 4096) return;
    std::vector<double> vals;
    const auto* p = reinterpret_cast<const unsigned char*>(n.value_data.data());
    for (std::int64_t i = 0; i < numel; ++i)
      vals.push_back(Element(t.dtype, p + i * size));
    if (!ir::IsFloat(t.dtype) && t.dtype != ir::DType::kBool) {
      std::vector<std::int64_t>& ints = ints_[id];
      for (double x : vals)
        ints.push_back(static_cast<std::int64_t>(x));
    }
    if (numel == 1) scalars_[id] = vals[0];
  }

  static double Element(ir::DType dt, const unsigned char* p) {
    auto get = [p](auto v) {
      std::memcpy(&v, p, sizeof v);
      return static_cast<double>(v);
    };
    switch (dt) {
      case ir::DType::kFloat32:
        return get(float{});
      case ir::DType::kFloat64:
        return get(double{});
      case ir::DType::kInt32:
        return get(std::int32_t{});
      case ir::DType::kInt64:
        return get(std::int64_t{});
      case ir::DType::kInt16:
        return get(std::int16_t{});
      case ir::DType::kInt8:
        return get(std::int8_t{});
      case ir::DType::kUInt8:
      case ir::DType::kBool:
        return get(std::uint8_t{});
      default:
        return 0.0;  // fp16 / bf16 scalars stay tensors (no scalar entry is made for them)
    }
  }

  // ---- refusals

  void CheckTensors(const GeOnnxNode& n) const {
    for (const auto* v : {&n.input_desc, &n.output_desc}) {
      for (const auto& d : *v) {
        if (!IsPlainGeFormat(d.layout)) {
          throw Refuse{"GE_FORMAT", n.type + " has a tensor in format " + d.layout +
                                        " (only ND and the plain layouts are lowered)"};
        }
      }
    }
    for (const auto& d : n.output_desc) {
      for (std::int64_t x : d.shape)
        if (x < 0)
          throw Refuse{"GE_DYNAMIC_SHAPE",
                       n.type + " has an output of unknown dims (-1/-2): static shapes only"};
    }
  }

  void Opaque(const GeOnnxNode& n, const Refuse& why) {
    int n_out = static_cast<int>(n.output_desc.size());
    for (const auto& o : n.outputs) {
      const GeEdge e = ParseGeEdge(o);
      if (e.index >= 0) n_out = std::max(n_out, e.index + 1);
    }
    n_out = std::min(n_out, kMaxOutputs);
    std::vector<Arg> args;
    for (const auto& e : n.inputs)
      if (e.index >= 0) args.push_back(ValueArg(e));
    const int id = mg().AddNode(prefix_ + n.name, OpName{"ge", n.type, ""}, std::move(args), {},
                                std::max(1, n_out));
    out_.refusals.push_back({prefix_ + n.name, why.code, why.message});
    Bind(n, mg().node(id).outputs);
  }

  // ---- operands

  Arg ValueArg(const GeEdge& e) const {
    auto it = outs_.find(e.src);
    if (it == outs_.end() || e.index < 0 || static_cast<std::size_t>(e.index) >= it->second.size())
      return Arg::None();
    return Arg::Value(it->second[static_cast<std::size_t>(e.index)]);
  }

  static std::vector<GeEdge> DataIns(const GeOnnxNode& n) {
    std::vector<GeEdge> v;
    for (const auto& e : n.inputs)
      if (e.index >= 0) v.push_back(e);
    return v;
  }

  // Data input k as a graph value.
  Arg In(const GeOnnxNode& n, std::size_t k) const {
    const auto ins = DataIns(n);
    if (k >= ins.size() || ins[k].src.empty())
      throw Refuse{"GE_UNSUPPORTED_ATTR", n.type + ": input " + std::to_string(k) + " missing"};
    Arg a = ValueArg(ins[k]);
    if (a.IsNone())
      throw Refuse{"GE_UNSUPPORTED_ATTR",
                   n.type + ": input " + std::to_string(k) + " comes from an unknown node"};
    return a;
  }

  bool Connected(const GeOnnxNode& n, std::size_t k) const {
    const auto ins = DataIns(n);
    return k < ins.size() && !ins[k].src.empty();
  }

  // The Const integers feeding input k (axes, permutations, sizes).
  std::vector<std::int64_t> ConstInts(const GeOnnxNode& n, std::size_t k) const {
    const Arg a = In(n, k);
    auto it = ints_.find(a.value);
    if (it == ints_.end()) {
      throw Refuse{"GE_CONST_MISSING", n.type + ": input " + std::to_string(k) +
                                           " must be an integer Const whose value the dump holds "
                                           "(DUMP_GE_GRAPH=1)"};
    }
    return it->second;
  }

  std::int64_t ConstInt(const GeOnnxNode& n, std::size_t k) const {
    const auto v = ConstInts(n, k);
    if (v.size() != 1)
      throw Refuse{"GE_UNSUPPORTED_ATTR", n.type + ": input " + std::to_string(k) +
                                              " must be a one-element integer Const"};
    return v[0];
  }

  model::ValueType TypeIn(const GeOnnxNode& n, std::size_t k) const {
    if (k < n.input_desc.size()) {
      model::ValueType t = TypeOfDesc(&n.input_desc[k]);
      if (t.IsTensor()) return t;
    }
    const Arg a = In(n, k);
    const model::ValueType& t = out_.graph.value(a.value).type;
    if (!t.IsTensor()) throw Refuse{"GE_DYNAMIC_SHAPE", n.type + ": input type not known"};
    return t;
  }

  std::vector<std::int64_t> OutShape(const GeOnnxNode& n, std::size_t k = 0) const {
    const model::ValueType t = TypeOfDesc(k < n.output_desc.size() ? &n.output_desc[k] : nullptr);
    if (!t.IsTensor()) throw Refuse{"GE_DYNAMIC_SHAPE", n.type + ": output shape not dumped"};
    std::vector<std::int64_t> v;
    for (const auto& e : t.shape)
      v.push_back(*e.AsInt());
    return v;
  }

  static const std::string* Attr(const GeOnnxNode& n, const std::string& key) {
    auto it = n.attrs.find(key);
    return it == n.attrs.end() ? nullptr : &it->second;
  }

  static std::int64_t AttrInt(const GeOnnxNode& n, const std::string& key, std::int64_t dflt) {
    const std::string* s = Attr(n, key);
    if (s == nullptr || s->empty()) return dflt;
    auto v = IntsOf(*s);
    if (!v || v->size() != 1)
      throw Refuse{"GE_UNSUPPORTED_ATTR", n.type + ": attribute " + key + " = " + *s};
    return (*v)[0];
  }

  static std::optional<std::vector<std::int64_t>> AttrInts(const GeOnnxNode& n,
                                                           const std::string& key) {
    const std::string* s = Attr(n, key);
    if (s == nullptr) return std::nullopt;
    auto v = IntsOf(*s);
    if (!v) throw Refuse{"GE_UNSUPPORTED_ATTR", n.type + ": attribute " + key + " = " + *s};
    return v;
  }

  static std::int64_t NormDim(const GeOnnxNode& n, std::int64_t d, std::size_t rank) {
    const auto r = static_cast<std::int64_t>(rank);
    if (r == 0 || d < -r || d >= r)
      throw Refuse{"GE_UNSUPPORTED_ATTR", n.type + ": axis " + std::to_string(d) +
                                              " out of range for rank " + std::to_string(r)};
    return d < 0 ? d + r : d;
  }

  static Arg IntList(const std::vector<std::int64_t>& v) {
    std::vector<Arg> items;
    items.reserve(v.size());
    for (std::int64_t x : v)
      items.push_back(Arg::Int(x));
    return Arg::List(std::move(items));
  }

  // ---- building

  int Emit(const std::string& name, OpName op, std::vector<Arg> args, int n_out = 1) {
    std::string full = prefix_ + name;
    if (mg().FindNode(full) != nullptr) full += "#" + std::to_string(mg().nodes.size());
    const int id = mg().AddNode(full, std::move(op), std::move(args), {}, n_out);
    mg().node(id).multi_output = n_out > 1;
    return id;
  }
  int EmitV(const std::string& name, OpName op, std::vector<Arg> args) {
    return mg().node(Emit(name, std::move(op), std::move(args))).outputs[0];
  }

  // The node's outputs are `values`; GE's output descriptions annotate them.
  void Bind(const GeOnnxNode& n, const std::vector<int>& values) {
    std::vector<int>& v = outs_[n.name];
    v = values;
    for (std::size_t k = 0; k < values.size() && k < n.output_desc.size(); ++k) {
      const model::ValueType t = TypeOfDesc(&n.output_desc[k]);
      if (!t.IsKnown()) continue;
      mg().value(values[k]).type = t;
      mg().value(values[k]).source = model::TypeSource::kAnnotation;
    }
  }
  void BindOne(const GeOnnxNode& n, int value) { Bind(n, std::vector<int>{value}); }

  // ---- lowering rules

  void Lower(const GeOnnxNode& n) {
    if (auto it = PointwiseOps().find(n.type); it != PointwiseOps().end()) {
      CheckTensors(n);
      return Elementwise(n, it->second);
    }
    static const std::unordered_map<std::string_view, Rule> kRules = {
        {"Cast", &GeLowerer::Cast},
        {"ReduceSumD", &GeLowerer::Reduce},
        {"ReduceSum", &GeLowerer::Reduce},
        {"ReduceMeanD", &GeLowerer::Reduce},
        {"ReduceMean", &GeLowerer::Reduce},
        {"ReduceMaxD", &GeLowerer::Reduce},
        {"ReduceMax", &GeLowerer::Reduce},
        {"ReduceMinD", &GeLowerer::Reduce},
        {"ReduceMin", &GeLowerer::Reduce},
        {"Softmax", &GeLowerer::Softmax},
        {"SoftmaxV2", &GeLowerer::Softmax},
        {"LogSoftmaxV2", &GeLowerer::Softmax},
        {"LayerNorm", &GeLowerer::LayerNorm},
        {"Transpose", &GeLowerer::Transpose},
        {"TransposeD", &GeLowerer::Transpose},
        {"ConcatV2", &GeLowerer::Concat},
        {"ConcatV2D", &GeLowerer::Concat},
        {"ConcatD", &GeLowerer::Concat},
        {"Concat", &GeLowerer::Concat},
        {"Split", &GeLowerer::Split},
        {"SplitD", &GeLowerer::Split},
        {"SplitV", &GeLowerer::Split},
        {"SplitVD", &GeLowerer::Split},
        {"GatherV2", &GeLowerer::Gather},
        {"GatherV2D", &GeLowerer::Gather},
        {"Gather", &GeLowerer::Gather},
        {"MatMul", &GeLowerer::MatMul},
        {"MatMulV2", &GeLowerer::MatMul},
        {"BatchMatMul", &GeLowerer::MatMul},
        {"BatchMatMulV2", &GeLowerer::MatMul},
        {"Reshape", &GeLowerer::Reshape},
        {"ExpandDims", &GeLowerer::Reshape},
        {"Squeeze", &GeLowerer::Reshape},
        {"Unsqueeze", &GeLowerer::Reshape},
        {"Flatten", &GeLowerer::Reshape},
        {"FlattenV2", &GeLowerer::Reshape},
        {"BroadcastTo", &GeLowerer::BroadcastTo},
        {"BroadcastToD", &GeLowerer::BroadcastTo},
        {"Identity", &GeLowerer::Identity},
        {"Select", &GeLowerer::Select},
        {"SelectV2", &GeLowerer::Select},
        {"BiasAdd", &GeLowerer::BiasAdd},
    };
    auto it = kRules.find(n.type);
    if (it == kRules.end()) {
      if (!n.subgraphs.empty() || n.type == "PartitionedCall" ||
          n.type == "StatefulPartitionedCall")
        throw Refuse{"GE_SUBGRAPH_CALL",
                     n.type + " calls a subgraph; its body is lowered as a graph of its own"};
      throw Refuse{"GE_UNSUPPORTED_OP", "GE op type " + n.type + " has no lowering to aten ops"};
    }
    CheckTensors(n);  // a known type: its tensors must be plain and static
    (this->*(it->second))(n);
  }

  // A one-element Const operand as a Python scalar, else nullopt.
  std::optional<Arg> ScalarArg(const GeOnnxNode& n, std::size_t k) const {
    const Arg a = In(n, k);
    auto it = scalars_.find(a.value);
    if (it == scalars_.end()) return std::nullopt;
    const ir::DType dt = out_.graph.value(a.value).type.dtype;
    if (ir::IsFloat(dt)) return Arg::Float(it->second, FloatText(it->second));
    return Arg::Int(static_cast<std::int64_t>(it->second));
  }

  void Elementwise(const GeOnnxNode& n, const Pointwise& p) {
    if (p.arity == 1) {
      BindOne(n, EmitV(n.name, Aten(std::string(p.aten), "default"), {In(n, 0)}));
      return;
    }
    Arg a = In(n, 0);
    Arg b = In(n, 1);
    std::string overload(p.overload);
    if (!p.scalar_overload.empty()) {
      const auto sa = ScalarArg(n, 0);
      const auto sb = ScalarArg(n, 1);
      if (sb && !sa) {
        b = *sb;
        overload = p.scalar_overload;
      } else if (sa && !sb && p.commutative) {
        a = b;
        b = *sa;
        overload = p.scalar_overload;
      }
    }
    BindOne(n, EmitV(n.name, Aten(std::string(p.aten), overload), {a, b}));
  }

  void Cast(const GeOnnxNode& n) {
    std::optional<ir::DType> dt;
    if (!n.output_desc.empty() && !n.output_desc[0].dtype.empty())
      dt = ir::DTypeFromGeName(n.output_desc[0].dtype);
    if (!dt && Attr(n, "dst_type") != nullptr) dt = ir::DTypeFromGe(AttrInt(n, "dst_type", -1));
    if (!dt) throw Refuse{"GE_UNSUPPORTED_ATTR", "Cast: destination type not known"};
    BindOne(n, EmitV(n.name, OpName{"prims", "convert_element_type", "default"},
                     {In(n, 0), Arg::DType(*dt, model::TorchName(*dt))}));
  }

  // ReduceXxxD (axes attribute) and ReduceXxx (axes Const input 1); empty axes: every dim.
  void Reduce(const GeOnnxNode& n) {
    const std::size_t rank = TypeIn(n, 0).rank();
    const bool d_form = n.type.back() == 'D';
    std::vector<std::int64_t> axes;
    if (d_form) {
      axes = AttrInts(n, "axes").value_or(std::vector<std::int64_t>{});
    } else if (Connected(n, 1)) {
      axes = ConstInts(n, 1);
    }
    std::vector<std::int64_t> dims;
    dims.reserve(axes.size());
    for (std::int64_t a : axes)
      dims.push_back(NormDim(n, a, rank));
    if (dims.empty()) {
      dims.resize(rank);
      std::iota(dims.begin(), dims.end(), 0);
    }
    const bool keep = AttrInt(n, "keep_dims", 0) != 0;
    const std::string base = n.type.substr(0, n.type.size() - (d_form ? 1 : 0));
    OpName op;
    if (base == "ReduceSum") op = Aten("sum", "dim_IntList");
    if (base == "ReduceMean") op = Aten("mean", "dim");
    if (base == "ReduceMax") op = Aten("amax", "default");
    if (base == "ReduceMin") op = Aten("amin", "default");
    BindOne(n, EmitV(n.name, op, {In(n, 0), IntList(dims), Arg::Bool(keep)}));
  }

  // softmax(x) = exp(x - max) / sum(exp(x - max)) along the axes (one axis: GE's default -1);
  // log-softmax = (x - max) - log(sum).
  void Softmax(const GeOnnxNode& n) {
    const std::size_t rank = TypeIn(n, 0).rank();
    const auto axes = AttrInts(n, "axes").value_or(std::vector<std::int64_t>{-1});
    std::vector<std::int64_t> dims;
    for (std::int64_t a : axes.empty() ? std::vector<std::int64_t>{-1} : axes)
      dims.push_back(NormDim(n, a, rank));
    const Arg x = In(n, 0);
    const Arg d = IntList(dims);
    const int m = EmitV(n.name + "/max", Aten("amax", "default"), {x, d, Arg::Bool(true)});
    const int s = EmitV(n.name + "/sub", Aten("sub", "Tensor"), {x, Arg::Value(m)});
    const int e = EmitV(n.name + "/exp", Aten("exp", "default"), {Arg::Value(s)});
    const int z =
        EmitV(n.name + "/sum", Aten("sum", "dim_IntList"), {Arg::Value(e), d, Arg::Bool(true)});
    if (n.type == "LogSoftmaxV2") {
      const int l = EmitV(n.name + "/log", Aten("log", "default"), {Arg::Value(z)});
      BindOne(n, EmitV(n.name, Aten("sub", "Tensor"), {Arg::Value(s), Arg::Value(l)}));
      return;
    }
    BindOne(n, EmitV(n.name, Aten("div", "Tensor"), {Arg::Value(e), Arg::Value(z)}));
  }

  // y = (x - mean) * rsqrt(var + eps) * gamma + beta over dims [begin_norm_axis, rank); the
  // outputs are y, mean and variance, as GE's LayerNorm gives them.
  void LayerNorm(const GeOnnxNode& n) {
    const std::size_t rank = TypeIn(n, 0).rank();
    const std::int64_t b = NormDim(n, AttrInt(n, "begin_norm_axis", -1), rank);
    const std::int64_t bp = NormDim(n, AttrInt(n, "begin_params_axis", b), rank);
    if (bp != b)
      throw Refuse{"GE_UNSUPPORTED_ATTR", "LayerNorm: begin_params_axis != begin_norm_axis"};
    double eps = 1e-7;
    if (const std::string* s = Attr(n, "epsilon"); s != nullptr) {
      char* end = nullptr;
      eps = std::strtod(s->c_str(), &end);
      if (s->empty() || end != s->c_str() + s->size())
        throw Refuse{"GE_UNSUPPORTED_ATTR", "LayerNorm: epsilon = " + *s};
    }
    std::vector<std::int64_t> dims;
    for (auto i = b; i < static_cast<std::int64_t>(rank); ++i)
      dims.push_back(i);
    const Arg x = In(n, 0);
    const Arg d = IntList(dims);
    const int mean = EmitV(n.name + "/mean", Aten("mean", "dim"), {x, d, Arg::Bool(true)});
    const int diff = EmitV(n.name + "/sub", Aten("sub", "Tensor"), {x, Arg::Value(mean)});
    const int sq =
        EmitV(n.name + "/square", Aten("mul", "Tensor"), {Arg::Value(diff), Arg::Value(diff)});
    const int var =
        EmitV(n.name + "/variance", Aten("mean", "dim"), {Arg::Value(sq), d, Arg::Bool(true)});
    const int ve = EmitV(n.name + "/add_eps", Aten("add", "Tensor"),
                         {Arg::Value(var), Arg::Float(eps, FloatText(eps))});
    const int rs = EmitV(n.name + "/rsqrt", Aten("rsqrt", "default"), {Arg::Value(ve)});
    int y = EmitV(n.name + "/norm", Aten("mul", "Tensor"), {Arg::Value(diff), Arg::Value(rs)});
    if (Connected(n, 1))
      y = EmitV(n.name + "/scale", Aten("mul", "Tensor"), {Arg::Value(y), In(n, 1)});
    if (Connected(n, 2)) y = EmitV(n.name, Aten("add", "Tensor"), {Arg::Value(y), In(n, 2)});
    Bind(n, {y, mean, var});
  }

  void Transpose(const GeOnnxNode& n) {
    const auto perm = n.type == "TransposeD" ? AttrInts(n, "perm") : ConstInts(n, 1);
    if (!perm) throw Refuse{"GE_UNSUPPORTED_ATTR", "TransposeD without perm"};
    BindOne(n, EmitV(n.name, Aten("permute", "default"), {In(n, 0), IntList(*perm)}));
  }

  // ConcatV2: tensors then the axis Const; Concat: the axis Const then tensors; the D forms take
  // the attribute concat_dim.
  void Concat(const GeOnnxNode& n) {
    const std::size_t count = DataIns(n).size();
    std::size_t first = 0;
    std::size_t last = count;
    std::int64_t dim = 0;
    if (n.type == "ConcatV2") {
      last = count - 1;
      dim = ConstInt(n, count - 1);
    } else if (n.type == "Concat") {
      first = 1;
      dim = ConstInt(n, 0);
    } else {
      dim = AttrInt(n, "concat_dim", 0);
    }
    std::vector<Arg> xs;
    for (std::size_t k = first; k < last; ++k)
      xs.push_back(In(n, k));
    if (xs.empty()) throw Refuse{"GE_UNSUPPORTED_ATTR", n.type + " without inputs"};
    const std::size_t rank = TypeIn(n, first).rank();
    BindOne(n, EmitV(n.name, Aten("cat", "default"),
                     {Arg::List(std::move(xs)), Arg::Int(NormDim(n, dim, rank))}));
  }

  // Split: (split_dim Const, x) + num_split; SplitD: x + split_dim, num_split; SplitV:
  // (x, size_splits Const, split_dim Const); SplitVD: x + size_splits, split_dim.
  void Split(const GeOnnxNode& n) {
    const std::size_t xi = n.type == "Split" ? 1 : 0;
    const model::ValueType t = TypeIn(n, xi);
    std::int64_t dim = 0;
    std::vector<std::int64_t> sizes;
    if (n.type == "Split" || n.type == "SplitD") {
      dim = n.type == "Split" ? ConstInt(n, 0) : AttrInt(n, "split_dim", 0);
      dim = NormDim(n, dim, t.rank());
      const std::int64_t num =
          AttrInt(n, "num_split", static_cast<std::int64_t>(n.output_desc.size()));
      const auto total = t.shape[static_cast<std::size_t>(dim)].AsInt();
      if (num <= 0 || num > kMaxOutputs || !total || *total % num != 0)
        throw Refuse{"GE_UNSUPPORTED_ATTR", n.type + ": num_split does not divide the dim"};
      sizes.assign(static_cast<std::size_t>(num), *total / num);
    } else {
      const auto s =
          n.type == "SplitV" ? std::optional(ConstInts(n, 1)) : AttrInts(n, "size_splits");
      if (!s) throw Refuse{"GE_UNSUPPORTED_ATTR", n.type + " without size_splits"};
      sizes = *s;
      if (sizes.empty() || sizes.size() > static_cast<std::size_t>(kMaxOutputs))
        throw Refuse{"GE_UNSUPPORTED_ATTR",
                     n.type + ": " + std::to_string(sizes.size()) + " parts"};
      dim = n.type == "SplitV" ? ConstInt(n, 2) : AttrInt(n, "split_dim", 0);
      dim = NormDim(n, dim, t.rank());
    }
    const int id = Emit(n.name, Aten("split_with_sizes", "default"),
                        {In(n, xi), IntList(sizes), Arg::Int(dim)}, static_cast<int>(sizes.size()));
    Bind(n, mg().node(id).outputs);
  }

  // GatherV2 (axis Const), GatherV2D (axis attribute), Gather (axis 0): rows of a 2-D table are
  // an embedding lookup, a 1-D index list along any axis an index_select.
  void Gather(const GeOnnxNode& n) {
    std::int64_t axis = 0;
    if (n.type == "GatherV2") axis = ConstInt(n, 2);
    if (n.type == "GatherV2D") axis = AttrInt(n, "axis", 0);
    if (AttrInt(n, "batch_dims", 0) != 0)
      throw Refuse{"GE_UNSUPPORTED_ATTR", n.type + ": batch_dims != 0"};
    const model::ValueType params = TypeIn(n, 0);
    const model::ValueType idx = TypeIn(n, 1);
    axis = NormDim(n, axis, params.rank());
    if (axis == 0 && params.rank() == 2) {
      BindOne(n, EmitV(n.name, Aten("embedding", "default"), {In(n, 0), In(n, 1)}));
    } else if (idx.rank() == 1) {
      BindOne(n,
              EmitV(n.name, Aten("index_select", "default"), {In(n, 0), Arg::Int(axis), In(n, 1)}));
    } else {
      throw Refuse{"GE_UNSUPPORTED_ATTR", n.type + ": indices of rank " +
                                              std::to_string(idx.rank()) + " on a table of rank " +
                                              std::to_string(params.rank())};
    }
  }

  // MatMul(V2): 2-D, transpose_x1/x2, optional bias (input 2); BatchMatMul(V2): adj_x1/x2.
  void MatMul(const GeOnnxNode& n) {
    const bool batch = n.type.rfind("Batch", 0) == 0;
    const bool t1 = AttrInt(n, batch ? "adj_x1" : "transpose_x1", 0) != 0;
    const bool t2 = AttrInt(n, batch ? "adj_x2" : "transpose_x2", 0) != 0;
    const std::size_t r1 = TypeIn(n, 0).rank();
    const std::size_t r2 = TypeIn(n, 1).rank();
    auto operand = [&](std::size_t k, bool t, const char* tag) {
      if (!t) return In(n, k);
      return Arg::Value(
          EmitV(n.name + tag, Aten("transpose", "int"), {In(n, k), Arg::Int(-2), Arg::Int(-1)}));
    };
    const Arg a = operand(0, t1, "/transpose_x1");
    const Arg b = operand(1, t2, "/transpose_x2");
    OpName op = Aten("matmul", "default");
    if (r1 == 2 && r2 == 2) op = Aten("mm", "default");
    if (r1 == 3 && r2 == 3) op = Aten("bmm", "default");
    const bool bias = !batch && Connected(n, 2);
    int y = EmitV(bias ? n.name + "/mm" : n.name, op, {a, b});
    if (bias) y = EmitV(n.name, Aten("add", "Tensor"), {Arg::Value(y), In(n, 2)});
    BindOne(n, y);
  }

  // Shape-only ops: a view to the output shape GE dumped.
  void Reshape(const GeOnnxNode& n) {
    BindOne(n, EmitV(n.name, Aten("view", "default"), {In(n, 0), IntList(OutShape(n))}));
  }

  void BroadcastTo(const GeOnnxNode& n) {
    BindOne(n, EmitV(n.name, Aten("expand", "default"), {In(n, 0), IntList(OutShape(n))}));
  }

  void Identity(const GeOnnxNode& n) {
    BindOne(n, EmitV(n.name, Aten("clone", "default"), {In(n, 0)}));
  }

  void Select(const GeOnnxNode& n) {
    BindOne(n, EmitV(n.name, Aten("where", "self"), {In(n, 0), In(n, 1), In(n, 2)}));
  }

  // BiasAdd on the last dim (NHWC, ND); NCHW's channel bias is not a trailing broadcast.
  void BiasAdd(const GeOnnxNode& n) {
    const std::string* f = Attr(n, "data_format");
    if (f != nullptr && *f == "NCHW" && TypeIn(n, 0).rank() > 2)
      throw Refuse{"GE_FORMAT", "BiasAdd with data_format NCHW"};
    BindOne(n, EmitV(n.name, Aten("add", "Tensor"), {In(n, 0), In(n, 1)}));
  }

  GeModelImport& out_;
  std::string prefix_;
  std::unordered_map<std::string, std::vector<int>> outs_;   // GE node name -> its output values
  std::unordered_map<int, std::vector<std::int64_t>> ints_;  // integer Consts' values
  std::unordered_map<int, double> scalars_;                  // one-element Consts' values
};

// Ops that lowered but whose outputs have no known type fall outside the front end's view: they
// are refused here so that every op of the dump has a kernel or a reason.
void RefuseUntyped(GeModelImport& r) {
  std::unordered_map<std::string, bool> refused;
  for (const auto& x : r.refusals)
    refused[x.node] = true;
  for (const auto& n : r.graph.nodes) {
    if (n.kind != model::NodeKind::kOp || refused.contains(n.name)) continue;
    const bool typed =
        std::ranges::any_of(n.outputs, [&](int v) { return r.graph.value(v).type.IsTensor(); });
    if (!typed)
      r.refusals.push_back({n.name, "GE_DYNAMIC_SHAPE",
                            n.op.ToString() + ": output types not known (dims not dumped)"});
  }
}

}  // namespace

bool IsPlainGeFormat(std::string_view layout) {
  static const std::array<std::string_view, 8> kPlain = {"",      "ND",    "NCHW", "NHWC",
                                                         "NCDHW", "NDHWC", "HWCN", "CHWN"};
  return std::ranges::find(kPlain, layout) != kPlain.end();
}

GeModelImport LowerGeGraph(const GeOnnxGraph& g, const std::string& file) {
  GeModelImport r;
  r.graph.name = g.name;
  r.graph.file = file;
  GeLowerer(r, "").Graph(g);
  model::InferTypes(r.graph);
  RefuseUntyped(r);
  return r;
}

GeModelImport LowerGeModel(const GeOnnxModel& m) {
  GeModelImport r;
  r.graph.name = m.graphs.empty() ? "" : m.graphs[0].name;
  r.graph.file = m.file;
  for (std::size_t i = 0; i < m.graphs.size(); ++i)
    GeLowerer(r, i == 0 ? "" : m.graphs[i].name + "/").Graph(m.graphs[i]);
  model::InferTypes(r.graph);
  RefuseUntyped(r);
  return r;
}

model::Graph GeOnnxToModelGraph(const GeOnnxGraph& g, const std::string& file) {
  return LowerGeGraph(g, file).graph;
}

}  // namespace af::importers::ge
