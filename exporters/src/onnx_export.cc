// The CompileReport as an ONNX ModelProto (see onnx_export.h).
#include "autofuse/exporters/onnx_export.h"

#include <google/protobuf/text_format.h>

#include <map>
#include <set>
#include <vector>

#include "af_onnx.pb.h"
#include "autofuse/ir/proto_io.h"
#include "autofuse/support/strings.h"
#include "report.pb.h"

namespace af::exporters {
namespace {

namespace ox = af::onnx;

// ONNX TensorProto.DataType number for one of our dtype names (0 when unknown).
int ElemType(const std::string& dtype) {
  const auto t = ir::DTypeFromName(dtype);
  return t ? ir::OnnxDataType(*t) : 0;
}

// "[s0, 128]" -> dims.
void SetShape(const std::string& shape, ox::TypeProto::Tensor* t) {
  auto* s = t->mutable_shape();
  std::string_view body = TrimSpace(shape);
  if (body.size() < 2 || body.front() != '[' || body.back() != ']') return;
  body = body.substr(1, body.size() - 2);
  std::size_t p = 0;
  while (p <= body.size() && !TrimSpace(body).empty()) {
    const std::size_t q = std::min(body.find(',', p), body.size());
    const std::string d(TrimSpace(body.substr(p, q - p)));
    if (!d.empty()) {
      auto* dim = s->add_dim();
      if (d.find_first_not_of("0123456789") == std::string::npos && d.size() < 18) {
        dim->set_dim_value(std::stoll(d));
      } else {
        dim->set_dim_param(d);
      }
    }
    p = q + 1;
  }
}

void SetValue(ox::ValueInfoProto* v, const std::string& name, const std::string& dtype,
              const std::string& shape) {
  v->set_name(name);
  auto* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(ElemType(dtype));
  SetShape(shape, t);
}

// "aten.mul.Tensor" -> domain "aten", op_type "mul.Tensor".
void SetOp(ox::NodeProto* n, const std::string& op) {
  const auto dot = op.find('.');
  n->set_domain(dot == std::string::npos ? "autofuse.model" : op.substr(0, dot));
  n->set_op_type(dot == std::string::npos ? op : op.substr(dot + 1));
}

void AddOpsets(google::protobuf::RepeatedPtrField<ox::OperatorSetIdProto>* out,
               const std::set<std::string>& domains) {
  for (const auto& d : domains) {
    auto* o = out->Add();
    o->set_domain(d);
    o->set_version(1);
  }
}

// The fused group a model node belongs to: identical groups share one kernel (and its name), so
// each group is its own function, named by the group; the doc string names the kernel.
std::string GroupOf(const report::ModelNodeReport& n) {
  return n.group().empty() ? n.kernel() : n.group();
}

void ModelGraph(const report::CompileReport& r, ox::ModelProto* m) {
  auto* g = m->mutable_graph();
  std::map<std::string, const report::ModelNodeReport*> by_name;
  std::map<std::string, std::set<std::string>> readers;  // value -> reading nodes
  for (const auto& n : r.model_nodes()) {
    by_name[n.name()] = &n;
    for (const auto& in : n.inputs())
      readers[in].insert(n.name());
  }
  std::set<std::string> domains = {"autofuse"};
  std::map<std::string, ox::FunctionProto*> functions;
  std::map<std::string, ox::NodeProto*> calls;
  std::map<std::string, std::set<std::string>> fn_inputs;
  for (const auto& n : r.model_nodes()) {
    if (n.op() == "placeholder") {
      SetValue(g->add_input(), n.name(), n.dtype(), n.shape());
      continue;
    }
    if (n.op() == "output") {
      for (const auto& in : n.inputs()) {
        const auto it = by_name.find(in);
        SetValue(g->add_output(), in, it != by_name.end() ? it->second->dtype() : "",
                 it != by_name.end() ? it->second->shape() : "");
      }
      continue;
    }
    ox::NodeProto* op = nullptr;
    if (n.kernel().empty()) {  // outside every kernel
      op = g->add_node();
      if (!n.fallback_code().empty()) {
        op->set_doc_string("fallback: " + n.fallback_code());
        auto* a = op->add_attribute();
        a->set_name("fallback_code");
        a->set_type(ox::AttributeProto::STRING);
        a->set_s(n.fallback_code());
      }
    } else {
      const std::string key = GroupOf(n);
      auto& fn = functions[key];
      if (fn == nullptr) {
        fn = m->add_functions();
        fn->set_name(key);
        fn->set_domain("autofuse");
        auto* call = g->add_node();
        call->set_name(key);
        call->set_op_type(key);
        call->set_domain("autofuse");
        call->set_doc_string("fused kernel " + n.kernel());
        calls[key] = call;
      }
      op = fn->add_node();
      for (const auto& in : n.inputs()) {
        const auto it = by_name.find(in);
        const bool inside = it != by_name.end() && GroupOf(*it->second) == key;
        if (!inside && fn_inputs[key].insert(in).second) {
          fn->add_input(in);
          calls[key]->add_input(in);
        }
      }
      bool escapes = readers[n.name()].empty();
      for (const auto& reader : readers[n.name()])
        escapes = escapes || GroupOf(*by_name.at(reader)) != key;
      if (escapes) {
        fn->add_output(n.name());
        calls[key]->add_output(n.name());
      }
    }
    op->set_name(n.name());
    SetOp(op, n.op());
    domains.insert(op->domain());
    for (const auto& in : n.inputs())
      op->add_input(in);
    op->add_output(n.name());
    if (!n.dtype().empty()) SetValue(g->add_value_info(), n.name(), n.dtype(), n.shape());
  }
  // Topological order (a kernel's call node sits where its first op was; an op outside the
  // kernel may feed a later op of it).
  std::set<std::string> ready;
  for (const auto& in : g->input())
    ready.insert(in.name());
  google::protobuf::RepeatedPtrField<ox::NodeProto> sorted;
  std::vector<bool> placed(static_cast<std::size_t>(g->node_size()), false);
  for (bool progress = true; progress;) {
    progress = false;
    for (int i = 0; i < g->node_size(); ++i) {
      if (placed[static_cast<std::size_t>(i)]) continue;
      const auto& node = g->node(i);
      bool ok = true;
      for (const auto& in : node.input())
        ok = ok && (ready.contains(in) || !by_name.contains(in));
      if (!ok) continue;
      placed[static_cast<std::size_t>(i)] = true;
      progress = true;
      for (const auto& out : node.output())
        ready.insert(out);
      *sorted.Add() = node;
    }
  }
  for (int i = 0; i < g->node_size(); ++i)  // a cycle (never from the decider): keep the rest
    if (!placed[static_cast<std::size_t>(i)]) *sorted.Add() = g->node(i);
  g->mutable_node()->Swap(&sorted);
  for (auto& [name, fn] : functions) {
    std::set<std::string> used;
    for (const auto& node : fn->node())
      used.insert(node.domain());
    AddOpsets(fn->mutable_opset_import(), used);
  }
  AddOpsets(m->mutable_opset_import(), domains);
}

// AscGraph inputs: one function per kernel holding its AscIR nodes.
void KernelGraphs(const report::CompileReport& r, ox::ModelProto* m) {
  auto* g = m->mutable_graph();
  std::set<std::string> keys;
  for (int e = 0; e < r.kernels_size(); ++e) {
    const auto& kr = r.kernels(e);
    const ir::Graph hint = ir::FromProto(kr.hint_graph());
    // Entries of identical groups share a kernel name, and the model folders of one run may
    // repeat group names: each entry is its own function, named uniquely.
    std::string key = kr.group().empty() ? kr.name() : kr.group();
    if (!keys.insert(key).second) {
      key += "_" + std::to_string(e);
      keys.insert(key);
    }
    auto* fn = m->add_functions();
    fn->set_name(key);
    fn->set_domain("autofuse");
    auto* call = g->add_node();
    call->set_name(key);
    call->set_op_type(key);
    call->set_domain("autofuse");
    auto value = [&hint](const ir::InputRef& in) {
      const auto& src = hint.nodes.at(static_cast<std::size_t>(in.node));
      return in.output == 0 ? src.name : src.name + ":" + std::to_string(in.output);
    };
    for (const auto& n : hint.nodes) {
      const std::string ext = key + "/" + n.name;
      const std::string dtype =
          n.outputs.empty() ? std::string() : std::string(ir::DTypeName(n.outputs[0].dtype));
      std::string shape = "[";
      if (!n.outputs.empty()) {
        for (std::size_t i = 0; i < n.outputs[0].repeats.size(); ++i)
          shape += (i != 0 ? ", " : "") + n.outputs[0].repeats[i].ToString();
      }
      shape += "]";
      if (n.type == "Data") {
        fn->add_input(n.name);
        call->add_input(ext);
        SetValue(g->add_input(), ext, dtype, shape);
        continue;
      }
      auto* op = fn->add_node();
      op->set_name(n.name);
      op->set_op_type(n.type);
      op->set_domain("ascir");
      for (const auto& in : n.inputs)
        op->add_input(value(in));
      for (std::size_t i = 0; i < n.outputs.size(); ++i)
        op->add_output(i == 0 ? n.name : n.name + ":" + std::to_string(i));
      if (n.type == "Output") {
        fn->add_output(n.name);
        call->add_output(ext);
        SetValue(g->add_output(), ext, dtype, shape);
      }
    }
    AddOpsets(fn->mutable_opset_import(), {"ascir"});
  }
  AddOpsets(m->mutable_opset_import(), {"autofuse"});
}

ox::ModelProto Build(const report::CompileReport& r) {
  ox::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("autofuse");
  m.set_producer_version(r.tool_version());
  m.set_doc_string("autofuse " + r.tool_version() + " compile of " + r.input() + " for " + r.soc());
  m.mutable_graph()->set_name(r.input().empty() ? std::string("autofuse") : r.input());
  if (r.model_nodes_size() > 0) {
    ModelGraph(r, &m);
  } else {
    KernelGraphs(r, &m);
  }
  return m;
}

}  // namespace

std::string OnnxModelText(const report::CompileReport& r) {
  std::string out;
  google::protobuf::TextFormat::PrintToString(Build(r), &out);
  return out;
}

std::string OnnxModelBinary(const report::CompileReport& r) {
  return Build(r).SerializeAsString();
}

}  // namespace af::exporters
