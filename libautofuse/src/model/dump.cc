// The readable text form of a model graph.
#include "autofuse/model/dump.h"

#include <charconv>
#include <cstdio>

#include "autofuse/model/dtype_code.h"

namespace af::model {
namespace {

std::string FloatText(const Arg& a) {
  if (!a.text.empty()) return a.text;
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, a.f);
  std::string s(buf, res.ptr);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // 2 -> 2.0; inf/nan untouched
  return s;
}

std::string Quoted(const std::string& s) {
  std::string out = "'";
  for (unsigned char ch : s) {
    if (ch == '\'' || ch == '\\') {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch < 0x20 || ch >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", ch);
      out += buf;
    } else {
      out += static_cast<char>(ch);
    }
  }
  return out + "'";
}

std::string NodeNote(const Node& n) {
  switch (n.infer) {
    case InferState::kOpaque:
      return "opaque";
    case InferState::kUnknown:
      return "inputs unknown";
    case InferState::kFailed:
      return "inference failed";
    case InferState::kNotRun:
      return "not inferred";
    case InferState::kInferred:
      break;
  }
  return "";
}

std::string SourceNote(const Value& v, const Node* n, const DumpOptions& o) {
  std::string note;
  if (o.type_source) note = std::string(TypeSourceName(v.source));
  if (n != nullptr) {
    const std::string nn = NodeNote(*n);
    if (!nn.empty()) note += (note.empty() ? "" : ", ") + nn;
  }
  return note.empty() ? "" : "  # " + note;
}

}  // namespace

std::string FormatArg(const Graph& g, const Arg& a) {
  switch (a.kind) {
    case Arg::Kind::kValue:
      if (a.value >= 0 && static_cast<std::size_t>(a.value) < g.values.size()) {
        return g.value(a.value).name;
      }
      return "%" + std::to_string(a.value);
    case Arg::Kind::kNone:
      return "None";
    case Arg::Kind::kBool:
      return a.b ? "True" : "False";
    case Arg::Kind::kInt:
      return std::to_string(a.i);
    case Arg::Kind::kFloat:
      return FloatText(a);
    case Arg::Kind::kString:
      return Quoted(a.text);
    case Arg::Kind::kDType:
      return a.text.empty() ? TorchName(a.dtype) : a.text;
    case Arg::Kind::kDevice:
      return "device(" + Quoted(a.text) + ")";
    case Arg::Kind::kLayout:
    case Arg::Kind::kMemoryFormat:
    case Arg::Kind::kOther:
      return a.text;
    case Arg::Kind::kList: {
      std::string s = a.tuple ? "(" : "[";
      for (std::size_t i = 0; i < a.items.size(); ++i) {
        if (i > 0) s += ", ";
        s += FormatArg(g, a.items[i]);
      }
      if (a.tuple && a.items.size() == 1) s += ",";
      return s + (a.tuple ? ")" : "]");
    }
  }
  return "?";
}

std::string DumpText(const Graph& g, const DumpOptions& opts) {
  std::string out = "graph " + g.name + "\n";
  if (!g.torch_version.empty()) out += "  torch " + g.torch_version + "\n";
  if (!g.symbols.empty()) {
    out += "  symbols ";
    for (std::size_t i = 0; i < g.symbols.size(); ++i)
      out += (i > 0 ? ", " : "") + g.symbols[i];
    out += "\n";
  }
  for (int id : g.inputs) {
    const Value& v = g.value(id);
    out += "  input " + v.name + ": " + v.type.ToString();
    if (v.hint) out += " = " + std::to_string(*v.hint);
    out += "\n";
  }
  for (int id : g.attrs) {
    const Value& v = g.value(id);
    out += "  attr " + v.name + ": " + v.type.ToString() + "\n";
  }
  const std::vector<std::string>* last_provenance = nullptr;
  for (const Node& n : g.nodes) {
    // Like FX, a source comment is printed when it changes.
    if (opts.provenance && (last_provenance == nullptr || *last_provenance != n.provenance)) {
      for (const auto& p : n.provenance)
        out += "  # " + p + "\n";
    }
    last_provenance = &n.provenance;
    std::string call = n.op.ToString() + "(";
    bool first = true;
    for (const auto& a : n.args) {
      call += (first ? "" : ", ") + FormatArg(g, a);
      first = false;
    }
    for (const auto& [k, v] : n.kwargs) {
      call += (first ? "" : ", ") + k + "=" + FormatArg(g, v);
      first = false;
    }
    call += ")";
    std::string where = opts.file_and_line ? "  line " + std::to_string(n.line) : "";
    if (n.super_kernel_scope)
      where += "  super_kernel_scope=" + FormatArg(g, Arg::String(*n.super_kernel_scope));
    out += "  %" + std::to_string(n.id) + " ";
    if (!n.multi_output && n.outputs.size() == 1) {
      const Value& v = g.value(n.outputs[0]);
      out += v.name;
      out += ": " + v.type.ToString();
      out += " = " + call;
      out += SourceNote(v, &n, opts);
      out += where + "\n";
      continue;
    }
    const std::string nn = NodeNote(n);
    out += n.name;
    out += " = " + call;
    if (!nn.empty()) out += "  # " + nn;
    out += where + "\n";
    for (int id : n.outputs) {
      const Value& v = g.value(id);
      out += "      [" + std::to_string(v.index) + "] " + v.name + ": " + v.type.ToString() +
             SourceNote(v, nullptr, opts) + "\n";
    }
  }
  out += "  return (";
  for (std::size_t i = 0; i < g.outputs.size(); ++i)
    out += (i > 0 ? ", " : "") + FormatArg(g, g.outputs[i]);
  out += g.outputs.size() == 1 ? ",)\n" : ")\n";
  if (opts.diagnostics) {
    for (const auto& d : g.diagnostics) {
      out += "  diagnostic ";
      if (d.line > 0) out += "line " + std::to_string(d.line) + " ";
      out += std::string(DiagnosticKindName(d.kind)) + ": " + d.message + "\n";
    }
  }
  return out;
}

}  // namespace af::model
