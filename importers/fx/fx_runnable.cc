// Reading the input descriptions and version comment of fx_graph_runnable.py.
#include "fx_runnable.h"

#include <cctype>
#include <map>

#include "autofuse/model/dtype_code.h"
#include "autofuse/support/strings.h"
#include "py_expr.h"

namespace af::importers::fx {
namespace {

struct NotUnderstood {
  std::string message;
};

// A size expression of load_args: integers, symbols, + - * //.
sym::Expr SizeOf(const PyExpr& e) {
  switch (e.kind) {
    case PyExpr::Kind::kInt:
      if (e.big) throw NotUnderstood{"size too large"};
      return {e.i};
    case PyExpr::Kind::kName:
      return sym::Expr::Sym(e.text);
    case PyExpr::Kind::kUnary:
      if (e.text == "-") return -SizeOf(e.items[0]);
      break;
    case PyExpr::Kind::kBinary: {
      const sym::Expr a = SizeOf(e.items[0]);
      const sym::Expr b = SizeOf(e.items[1]);
      if (e.text == "+") return a + b;
      if (e.text == "-") return a - b;
      if (e.text == "*") return a * b;
      if (e.text == "//") return sym::FloorDiv(a, b);
      break;
    }
    default:
      break;
  }
  throw NotUnderstood{"not a size expression"};
}

std::vector<sym::Expr> SizesOf(const PyExpr& e) {
  if (e.kind != PyExpr::Kind::kTuple && e.kind != PyExpr::Kind::kList) {
    throw NotUnderstood{"expected a tuple of sizes"};
  }
  std::vector<sym::Expr> out;
  for (const auto& it : e.items)
    out.push_back(SizeOf(it));
  return out;
}

ir::DType DTypeOf(const PyExpr& e) {
  if (e.kind == PyExpr::Kind::kName) {
    if (auto t = model::DTypeFromTorchName(e.text)) return *t;
  }
  throw NotUnderstood{"expected a dtype"};
}

// device(type='cuda', index=0) -> "cuda:0"; 'cuda' -> "cuda".
std::string DeviceOf(const PyExpr& e) {
  if (e.kind == PyExpr::Kind::kString) return e.text;
  if (e.kind == PyExpr::Kind::kCall && (e.text == "device" || e.text == "torch.device")) {
    std::string type;
    std::string index;
    if (!e.items.empty() && e.items[0].kind == PyExpr::Kind::kString) type = e.items[0].text;
    for (const auto& [k, v] : e.kwargs) {
      if (k == "type" && v.kind == PyExpr::Kind::kString) type = v.text;
      if (k == "index" && v.kind == PyExpr::Kind::kInt) index = v.text;
    }
    return index.empty() ? type : type + ":" + index;
  }
  return "";
}

// The trailing `# name` comment of a line.
std::string TrailingName(std::string_view line) {
  const std::size_t hash = line.rfind('#');
  if (hash == std::string_view::npos) return "";
  const std::string_view n = TrimSpace(line.substr(hash + 1));
  for (char c : n) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return "";
  }
  return std::string(n);
}

std::size_t Indent(std::string_view l) {
  std::size_t i = 0;
  while (i < l.size() && (l[i] == ' ' || l[i] == '\t'))
    ++i;
  return i;
}

// The shape and element kind of a (nested) literal list: tensor([[1, 2], [3, 4]]).
void LiteralShape(const PyExpr& e, std::size_t depth, std::vector<sym::Expr>& shape,
                  ir::DType& dt) {
  if (e.kind == PyExpr::Kind::kList || e.kind == PyExpr::Kind::kTuple) {
    if (depth > 16) throw NotUnderstood{"literal nested too deeply"};
    if (shape.size() == depth) shape.emplace_back(static_cast<std::int64_t>(e.items.size()));
    for (const auto& it : e.items)
      LiteralShape(it, depth + 1, shape, dt);
    return;
  }
  const PyExpr& v = e.kind == PyExpr::Kind::kUnary && !e.items.empty() ? e.items[0] : e;
  if (v.kind == PyExpr::Kind::kFloat || (v.kind == PyExpr::Kind::kName && v.text == "inf")) {
    dt = ir::DType::kFloat32;
  } else if (v.kind == PyExpr::Kind::kInt) {
    if (dt == ir::DType::kBool || dt == ir::DType::kUndefined) dt = ir::DType::kInt64;
  } else if (v.kind == PyExpr::Kind::kName && (v.text == "True" || v.text == "False")) {
    if (dt == ir::DType::kUndefined) dt = ir::DType::kBool;
  } else {
    throw NotUnderstood{"not a literal tensor"};
  }
}

// self.register_buffer('_tensor_constant0', tensor(1., device='cuda:0').cuda())
void ReadBuffer(std::string_view t, RunnableInfo& info) {
  const std::size_t at = t.find("register_buffer(");
  std::string_view rest = t.substr(at + 16);
  const std::size_t comma = rest.find(',');
  if (comma == std::string_view::npos) throw NotUnderstood{"register_buffer without a value"};
  const PyExpr name = ParseWholeExpr(rest.substr(0, comma));
  if (name.kind != PyExpr::Kind::kString) throw NotUnderstood{"register_buffer name"};
  rest = TrimSpace(rest.substr(comma + 1));
  std::string device;
  // Drop the register_buffer call's own ')' and a trailing .cuda() / .cpu().
  if (!rest.empty() && rest.back() == ')') rest.remove_suffix(1);
  rest = TrimSpace(rest);
  for (std::string_view suffix : {".cuda()", ".cpu()"}) {
    if (rest.size() > suffix.size() && rest.substr(rest.size() - suffix.size()) == suffix) {
      device = suffix == ".cuda()" ? "cuda" : "cpu";
      rest.remove_suffix(suffix.size());
    }
  }
  const PyExpr e = ParseWholeExpr(rest);
  if (e.kind != PyExpr::Kind::kCall || (e.text != "tensor" && e.text != "torch.tensor") ||
      e.items.empty()) {
    throw NotUnderstood{"buffer is not a literal tensor"};
  }
  std::vector<sym::Expr> shape;
  ir::DType dt = ir::DType::kUndefined;
  LiteralShape(e.items[0], 0, shape, dt);
  for (const auto& [k, v] : e.kwargs) {
    if (k == "dtype") dt = DTypeOf(v);
    if (k == "device") device = DeviceOf(v);
  }
  if (dt == ir::DType::kUndefined) dt = ir::DType::kFloat32;
  model::ValueType type = model::ValueType::Tensor(dt, shape);
  type.device = device;
  info.buffers.emplace_back(name.text, std::move(type));
}

}  // namespace

RunnableInfo ReadRunnableInfo(const std::vector<std::string_view>& lines) {
  RunnableInfo info;
  std::map<std::string, std::string> storage_device;
  bool in_load_args = false;
  std::size_t load_args_indent = 0;
  for (std::size_t li = 0; li < lines.size(); ++li) {
    const std::string_view line = lines[li];
    const std::string_view t = TrimSpace(line);
    const int lineno = static_cast<int>(li + 1);
    if (t.substr(0, 16) == "# torch version:") {
      info.torch_version = std::string(TrimSpace(t.substr(16)));
      continue;
    }
    if (t.empty() || t[0] == '#') continue;
    if (t.substr(0, 20) == "def load_args(reader") {
      in_load_args = true;
      load_args_indent = Indent(line);
      continue;
    }
    if (in_load_args && Indent(line) <= load_args_indent) in_load_args = false;
    try {
      if (t.find("self.register_buffer(") != std::string_view::npos) {
        ReadBuffer(t, info);
        continue;
      }
      if (in_load_args) {
        const PyExpr e = [&] {
          // `bufN = reader.storage(...)` or a bare `reader.tensor(...)` / `reader.symint(...)`.
          const std::size_t eq = t.find(" = ");
          return ParseWholeExpr(
              eq != std::string_view::npos && t.substr(0, 3) == "buf" ? t.substr(eq + 3) : t);
        }();
        if (e.kind != PyExpr::Kind::kCall) continue;
        if (e.text == "reader.storage") {
          const std::size_t eq = t.find(" = ");
          std::string dev;
          for (const auto& [k, v] : e.kwargs) {
            if (k == "device") dev = DeviceOf(v);
          }
          if (eq != std::string_view::npos) {
            storage_device[std::string(TrimSpace(t.substr(0, eq)))] = dev.empty() ? "cpu" : dev;
          }
        } else if (e.text == "reader.tensor") {
          if (e.items.size() < 2) throw NotUnderstood{"reader.tensor needs a shape"};
          RunnableInput in;
          in.name = TrailingName(line);
          in.line = lineno;
          ir::DType dt = ir::DType::kFloat32;
          std::string code = "f32";
          for (const auto& [k, v] : e.kwargs) {
            if (k == "dtype") {
              dt = DTypeOf(v);
              code = v.text;
            }
          }
          in.type = model::ValueType::Tensor(dt, SizesOf(e.items[1]));
          if (dt == ir::DType::kUndefined) in.type.dtype_code = code;
          if (e.items.size() >= 3) in.type.strides = SizesOf(e.items[2]);
          if (in.type.strides && in.type.strides->size() != in.type.shape.size()) {
            throw NotUnderstood{"strides and shape differ in rank"};
          }
          if (e.items[0].kind == PyExpr::Kind::kName) {
            auto it = storage_device.find(e.items[0].text);
            if (it != storage_device.end()) in.type.device = it->second;
          }
          info.inputs.push_back(std::move(in));
        } else if (e.text == "reader.symint" || e.text == "reader.symfloat" ||
                   e.text == "reader.symbool") {
          RunnableInput in;
          in.name = TrailingName(line);
          in.line = lineno;
          in.type.kind = e.text == "reader.symint"     ? model::ValueKind::kSymInt
                         : e.text == "reader.symfloat" ? model::ValueKind::kSymFloat
                                                       : model::ValueKind::kSymBool;
          if (!e.items.empty() && e.items[0].kind == PyExpr::Kind::kInt && !e.items[0].big) {
            in.hint = e.items[0].i;
          }
          info.inputs.push_back(std::move(in));
        }
        continue;
      }
      // torch 2.0: args = [((8, 1000), (1000, 1), torch.float32, 'cuda'), ...]
      if (Indent(line) == 0 && (t.substr(0, 9) == "args = [(" || t == "args = []")) {
        const PyExpr e = ParseWholeExpr(t.substr(7));
        if (e.kind != PyExpr::Kind::kList) continue;
        for (const auto& it : e.items) {
          RunnableInput in;
          in.line = lineno;
          if (it.kind == PyExpr::Kind::kInt) {
            in.type.kind = model::ValueKind::kSymInt;
            if (!it.big) in.hint = it.i;
          } else if (it.kind == PyExpr::Kind::kTuple && it.items.size() >= 3) {
            in.type = model::ValueType::Tensor(DTypeOf(it.items[2]), SizesOf(it.items[0]));
            in.type.strides = SizesOf(it.items[1]);
            if (in.type.strides->size() != in.type.shape.size()) {
              throw NotUnderstood{"strides and shape differ in rank"};
            }
            if (it.items.size() >= 4) in.type.device = DeviceOf(it.items[3]);
          } else {
            throw NotUnderstood{"an input description that is not (shape, stride, dtype, device)"};
          }
          info.inputs.push_back(std::move(in));
        }
      }
    } catch (const NotUnderstood& e) {
      info.problems.emplace_back(lineno, e.message);
    } catch (const LexError& e) {
      info.problems.emplace_back(lineno, e.message);
    } catch (const sym::Error& e) {
      info.problems.emplace_back(lineno, e.what());
    }
  }
  return info;
}

}  // namespace af::importers::fx
