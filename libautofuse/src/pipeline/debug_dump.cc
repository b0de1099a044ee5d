// The codegen_compile_debug dump tree (see debug_dump.h). Layout after
// ../shared/reference/autofuse-reference.md § 7 "Dumped files".
#include "autofuse/pipeline/debug_dump.h"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "autofuse/ir/text.h"
#include "autofuse/pipeline/api_param_dump.h"
#include "autofuse/pipeline/flag_table.h"
#include "autofuse/pipeline/py_code.h"
#include "autofuse/support/error.h"

namespace af::pipeline {
namespace {

namespace fs = std::filesystem;

// Our normalize passes that do what an AutoFuse stage does, under AutoFuse's name.
std::string StageName(const std::string& pass) {
  static const std::map<std::string, std::string> kAutoFuse = {
      {"drop_dangling", "AutoFuseBeforeRemoveDanglingNodes"},
      {"upcast", "AfterDtypeConsistency"},
      {"merge_axes", "AfterMergeAxis"},
      {"fold_transposes", "AfterConvertTranspose"},
      {"fold_splits", "AfterConvertSplitToLoad"},
      {"concats_to_stores", "AfterConvertConcatToStore"}};
  if (const auto it = kAutoFuse.find(pass); it != kAutoFuse.end()) return it->second;
  std::string camel = "After";
  bool up = true;
  for (char c : pass) {
    if (c == '_') {
      up = true;
      continue;
    }
    camel += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return camel;
}

// A generated file name as one path component ('.' kept, never leading).
std::string SafeFile(const std::string& s) {
  std::string out;
  for (char c : s)
    out += (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.')
               ? c
               : '_';
  if (out.empty() || out[0] == '.') out = "f" + out;
  return out;
}

std::string Quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string ValueInfo(const std::string& name, const ir::Tensor& t) {
  std::ostringstream o;
  o << "    name: " << Quoted(name)
    << "\n    type { tensor_type { elem_type: " << ir::OnnxDataType(t.dtype) << " shape {";
  for (const auto& r : t.repeats) {
    const auto v = r.IsConst() ? r.AsInt() : std::nullopt;
    if (v) {
      o << " dim { dim_value: " << *v << " }";
    } else {
      o << " dim { dim_param: " << Quoted(r.ToString()) << " }";
    }
  }
  o << " } } }\n";
  return o.str();
}

// AutoFuse's short dtype names of the DumpGraphText views.
std::string ShortDType(ir::DType t) {
  switch (t) {
    case ir::DType::kFloat32:
      return "f32";
    case ir::DType::kFloat16:
      return "f16";
    case ir::DType::kBFloat16:
      return "bf16";
    case ir::DType::kFloat64:
      return "f64";
    case ir::DType::kInt8:
      return "i8";
    case ir::DType::kInt16:
      return "i16";
    case ir::DType::kInt32:
      return "i32";
    case ir::DType::kInt64:
      return "i64";
    case ir::DType::kUInt8:
      return "u8";
    case ir::DType::kUInt16:
      return "u16";
    case ir::DType::kUInt32:
      return "u32";
    case ir::DType::kUInt64:
      return "u64";
    case ir::DType::kBool:
      return "i1";
    case ir::DType::kUndefined:
      break;
  }
  return "undefined";
}

std::string AxisNames(const ir::Graph& g, const std::vector<std::int64_t>& ids) {
  std::string s = "{";
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const ir::Axis* a = g.FindAxis(ids[i]);
    s += (i != 0 ? ", " : "") + (a != nullptr ? a->name : std::to_string(ids[i]));
  }
  return s + "}";
}

std::string Exprs(const std::vector<sym::Expr>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i != 0 ? ", " : "") + v[i].ToString();
  return s + ")";
}

std::string IrAttr(const ir::AttrValue& v) {
  struct V {
    std::string operator()(std::int64_t i) const { return "i: " + std::to_string(i); }
    std::string operator()(double d) const {
      std::ostringstream o;
      o.precision(17);
      o << d;
      return "f: " + o.str();
    }
    std::string operator()(bool b) const { return std::string("b: ") + (b ? "true" : "false"); }
    std::string operator()(const std::string& str) const { return "s: " + Quoted(str); }
    std::string operator()(const sym::Expr& e) const {
      return "expression: " + Quoted(e.ToString());
    }
    std::string operator()(const std::vector<std::int64_t>& l) const {
      std::string s = "list {";
      for (auto x : l)
        s += " i: " + std::to_string(x);
      return s + " }";
    }
  };
  return std::visit(V{}, v);
}

// AutoFuse's memory line of a tensor placed outside the default (global memory):
// `.mem = UB[tensor_id=3, que_id=0, buf_num=2, depth=2, pos=VECIN]`, `UB[tensor_id=4, buf_id=1,
// pos=VECCALC]`.
void MemView(std::ostringstream& o, const ir::Tensor& t) {
  const ir::MemInfo& m = t.mem;
  if (m == ir::MemInfo{} && t.que.id == -1 && t.buf.id == -1) return;
  o << "      .mem = " << ir::HardwareName(m.hardware) << "[tensor_id=" << m.tensor_id;
  if (m.alloc_type == ir::AllocType::kQueue)
    o << ", que_id=" << t.que.id << ", buf_num=" << t.que.buf_num << ", depth=" << t.que.depth;
  if (m.alloc_type == ir::AllocType::kBuffer) o << ", buf_id=" << t.buf.id;
  if (m.reuse_id != -1) o << ", reuse_id=" << m.reuse_id;
  o << ", pos=" << ir::PositionName(m.position) << "]\n";
}

void NodeView(std::ostringstream& o, const ir::Graph& g, std::size_t i) {
  const ir::Node& n = g.nodes[i];
  o << "  [" << i << "] " << n.name << " : ascir.ops." << n.type << "\n";
  if (!n.sched.axis.empty()) o << "    .axis = " << AxisNames(g, n.sched.axis) << "\n";
  if (n.sched.loop_axis != -1) {
    const ir::Axis* a = g.FindAxis(n.sched.loop_axis);
    if (a != nullptr) o << "    .loop_axis = " << a->name << "\n";
  }
  if (n.sched.exec_condition != 0) o << "    .exec_condition = " << n.sched.exec_condition << "\n";
  if (!n.tmp_buffers.empty()) {
    o << "    .tmp_buf = {";
    for (std::size_t b = 0; b < n.tmp_buffers.size(); ++b) {
      const ir::TmpBuffer& tb = n.tmp_buffers[b];
      o << (b != 0 ? ", " : "") << "{id=" << tb.id << ", size=" << tb.size.ToString()
        << ", life_cycle=" << tb.life_time_axis_id << "}";
    }
    o << "}\n";
  }
  for (const auto& [k, v] : n.attrs)
    o << "    .ir_attr." << k << " = " << IrAttr(v) << "\n";
  if (!n.inputs.empty()) {
    o << "    .x = {";
    for (std::size_t s = 0; s < n.inputs.size(); ++s) {
      const auto& in = n.inputs[s];
      const auto& src = g.nodes.at(static_cast<std::size_t>(in.node));
      o << (s != 0 ? ", " : "") << src.name << ".y";
      if (src.outputs.size() > 1) o << "[" << in.output << "]";
    }
    o << "}\n";
  }
  for (std::size_t k = 0; k < n.outputs.size(); ++k) {
    const ir::Tensor& t = n.outputs[k];
    o << "    .y" << (n.outputs.size() > 1 ? "[" + std::to_string(k) + "]" : std::string()) << ": "
      << ShortDType(t.dtype) << "\n";
    o << "      .axis = " << AxisNames(g, t.axis) << "\n";
    o << "      .repeats = " << Exprs(t.repeats) << "\n";
    o << "      .strides = " << Exprs(t.strides) << "\n";
    if (!t.vectorized_axis.empty() && t.vectorized_axis.size() == t.vectorized_strides.size()) {
      o << "      .vectorized = {";
      for (std::size_t v = 0; v < t.vectorized_axis.size(); ++v) {
        const ir::Axis* a = g.FindAxis(t.vectorized_axis[v]);
        o << (v != 0 ? ", " : "") << (a != nullptr ? a->name : "?") << ":"
          << t.vectorized_strides[v].ToString();
      }
      o << "}\n";
    }
    MemView(o, t);
  }
}

void Write(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw InputError({p.string(), 0, 0}, "cannot write the debug dump file");
}

}  // namespace

std::string DumpFileStem(const std::string& name) {
  std::string out;
  for (char c : name)
    out += (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-') ? c : '_';
  return out.empty() ? std::string("graph") : out.substr(0, 120);
}

std::vector<std::pair<std::string, ir::Graph>> DebugStages(const Kernel& k, const Options& o) {
  std::vector<std::pair<std::string, ir::Graph>> out;
  out.emplace_back("AutoFuseBeforeOptimize", k.hint);
  // The normalize passes again, one graph each (the pipeline keeps only the last).
  const KernelStageSettings settings = KernelStageSettingsFrom(o, NoTiling::kRefuse);
  try {
    (void)schedule::Schedule(k.hint, *settings.profile, settings.schedule,
                             [&out](const std::string& stage, const std::string& text) {
                               if (stage.rfind("normalize.", 0) != 0) return;
                               out.emplace_back(StageName(stage.substr(10)),
                                                ir::ParseText(text, stage));
                             });
  } catch (const std::exception&) {
    // A kernel the schedule refuses: the stages up to the refusal are dumped.
  }
  if (k.schedule.graph.nodes.empty()) return out;
  // A kernel identical to an earlier one (Kernel::same_as) holds that kernel's schedule: its
  // graphs are dumped under this kernel's graph name, one name per folder as AutoFuse's.
  ir::Graph normalized = k.schedule.graph;
  normalized.name = k.hint.name;
  out.emplace_back("BeforeAutoSchedule", std::move(normalized));
  for (std::size_t c = 0; c < k.schedule.cases.size(); ++c) {
    ir::Graph g = k.schedule.cases[c].graph;
    g.name = k.hint.name;  // one graph name per folder, as AutoFuse's impl-graph dumps
    out.emplace_back("S" + std::to_string(k.schedule.cases[c].templ) + "G0C" + std::to_string(c) +
                         "_AfterDoTiling",
                     std::move(g));
  }
  return out;
}

std::string AscGraphText(const ir::Graph& g) {
  const std::string rule(80, '=');
  const std::string thin(80, '-');
  std::ostringstream o;
  o << rule << "\nGraph: " << g.name << "\n"
    << rule << "\n\n"
    << thin << "\nVIEW 2: Graph Structure\n"
    << thin << "\nGraph: " << g.name << "\nSizes:\n";
  for (const auto& v : g.size_vars) {
    o << "  " << v.name << ": ";
    if (v.const_value) {
      o << *v.const_value << "\n";
    } else {
      o << "VAR\n";
    }
  }
  o << "\nAxis:\n";
  for (const auto& a : g.axes) {
    o << "  " << a.name << "(" << a.id << ") : " << ir::AxisTypeName(a.type)
      << ", size:" << a.size.ToString();
    if (!a.from.empty()) o << ", from: " << AxisNames(g, a.from);
    o << "\n";
  }
  o << "\nNodes:\n";
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    NodeView(o, g, i);
  o << "\n" << rule << "\nEnd of Dump\n" << rule << "\n";
  return o.str();
}

std::string OnnxText(const ir::Graph& g) {
  std::ostringstream o;
  o << "ir_version: 8\nproducer_name: \"autofuse\"\nopset_import { domain: \"\" version: 17 }\n"
    << "graph {\n  name: " << Quoted(g.name) << "\n";
  auto value = [&g](const ir::InputRef& in) {
    const auto& n = g.nodes.at(static_cast<std::size_t>(in.node));
    return in.output == 0 ? n.name : n.name + ":" + std::to_string(in.output);
  };
  for (const auto& n : g.nodes) {
    o << "  node {\n";
    for (const auto& in : n.inputs)
      o << "    input: " << Quoted(value(in)) << "\n";
    for (std::size_t i = 0; i < n.outputs.size(); ++i)
      o << "    output: " << Quoted(i == 0 ? n.name : n.name + ":" + std::to_string(i)) << "\n";
    o << "    name: " << Quoted(n.name) << "\n    op_type: " << Quoted(n.type)
      << "\n    domain: \"ascir\"\n  }\n";
  }
  for (const auto& n : g.nodes) {
    if (n.type == "Data" && !n.outputs.empty())
      o << "  input {\n" << ValueInfo(n.name, n.outputs[0]) << "  }\n";
  }
  for (const auto& n : g.nodes) {
    if (n.type == "Output" && !n.inputs.empty()) {
      const auto& src = g.nodes.at(static_cast<std::size_t>(n.inputs[0].node));
      if (!src.outputs.empty())
        o << "  output {\n" << ValueInfo(value(n.inputs[0]), src.outputs[0]) << "  }\n";
    }
  }
  o << "}\n";
  return o.str();
}

std::string WriteDebugTree(const CompileResult& r, const Options& o) {
  if (!FlagBool(o.flags, "codegen_compile_debug", false)) return {};
  std::string root = "./";
  if (const auto it = o.flags.find("debug_dir"); it != o.flags.end() && !it->second.empty())
    root = it->second;
  const fs::path pid_dir = fs::path(root) / "autofuse_compile_debug" /
                           ("ascgen_dump_pid_" + std::to_string(static_cast<long>(::getpid())));
  std::error_code ec;
  fs::create_directories(pid_dir, ec);
  if (ec)
    throw InputError({pid_dir.string(), 0, 0},
                     "cannot create the debug dump folder: " + ec.message());
  // One folder per fused graph, as AutoFuse's: kernels that share generated code (identical
  // groups, Kernel::same_as) get their graph's name after the kernel's.
  std::map<std::string, int> uses;
  for (const auto& k : r.kernels)
    ++uses[k.code.kernel_name];
  for (const auto& k : r.kernels) {
    const std::string graph = DumpFileStem(k.hint.name);
    std::string folder = k.code.kernel_name.empty() ? k.hint.name : k.code.kernel_name;
    if (!k.code.kernel_name.empty() && uses[k.code.kernel_name] > 1) folder += "_" + k.hint.name;
    folder = DumpFileStem(folder);
    const fs::path dir = pid_dir / folder;
    fs::create_directories(dir, ec);
    int seq = 0;
    for (const auto& [stage, g] : DebugStages(k, o)) {
      char num[16];
      std::snprintf(num, sizeof num, "%05d", seq++);
      Write(dir / ("ascgraph_" + std::string(num) + "_" + graph + "_" + stage + "_0.txt"),
            AscGraphText(g));
      if (stage == "AutoFuseBeforeOptimize")
        Write(dir / ("ge_onnx_" + std::string(num) + "_" + graph + "_" + stage + ".pbtxt"),
              OnnxText(g));
    }
    Write(dir / ("py_code_" + graph + ".py"), PyCode(k.hint, o.bindings));
    if (k.code.files.empty()) continue;
    for (const auto& [name, text] : ApiParamDumps(k.code))
      Write(dir / name, text);
    fs::create_directories(dir / "build", ec);
    for (const auto& f : k.code.files)
      Write(dir / "build" / SafeFile(f.name), f.text);
  }
  return pid_dir.string();
}

}  // namespace af::pipeline
