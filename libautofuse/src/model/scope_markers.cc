// SuperKernel scopes from torchair's marker calls (see scope_markers.h).
#include "autofuse/model/scope_markers.h"

#include <algorithm>
#include <optional>

namespace af::model {
namespace {

constexpr std::string_view kScopeKey = "_super_kernel_scope";

// Argument `pos` of `n`, or its keyword `key`; null when absent.
const Arg* ArgAt(const Node& n, std::size_t pos, std::string_view key) {
  if (pos < n.args.size()) return &n.args[pos];
  return n.Kwarg(key);
}

// A list of string constants; nullopt when `a` is anything else.
std::optional<std::vector<std::string>> Strings(const Arg* a) {
  if (a == nullptr || !a->IsList()) return std::nullopt;
  std::vector<std::string> out;
  for (const Arg& it : a->items) {
    if (it.kind != Arg::Kind::kString) return std::nullopt;
    out.push_back(it.text);
  }
  return out;
}

// One open marker: whether it sets the super-kernel scope, and to what.
struct Frame {
  bool sets_scope = false;
  bool kernel_scope = false;  // opened by kernel_scope_in (closed by kernel_scope_out)
  std::string scope;
};

class Walker {
 public:
  explicit Walker(Graph& g) : g_(g) {}

  void Run() {
    for (Node& n : g_.nodes) {
      if (IsScopeMarker(n)) {
        Marker(n);
        continue;
      }
      if (n.kind != NodeKind::kOp) continue;
      // The innermost marker that sets a scope (clang 14 cannot build views::reverse here).
      const auto it =
          std::find_if(stack_.rbegin(), stack_.rend(), [](const Frame& f) { return f.sets_scope; });
      if (it != stack_.rend()) n.super_kernel_scope = it->scope;
    }
  }

 private:
  void Marker(const Node& n) {
    const std::string& name = n.op.name;
    if (name == "scope_enter") return Enter(n);
    if (name == "kernel_scope_in") {
      const Arg* s = ArgAt(n, 0, "scope");
      if (s == nullptr || (s->kind != Arg::Kind::kString && !s->IsNone())) {
        return Bad(n, "its scope is not a string");
      }
      stack_.push_back({true, true, s->IsNone() ? "" : s->text});
      return;
    }
    // scope_exit / kernel_scope_out: close the innermost open marker of the same kind.
    const bool kernel = name == "kernel_scope_out";
    if (stack_.empty() || stack_.back().kernel_scope != kernel) {
      return Bad(n, "it closes a scope that is not open");
    }
    stack_.pop_back();
  }

  void Enter(const Node& n) {
    const auto keys = Strings(ArgAt(n, 0, "keys"));
    const auto values = Strings(ArgAt(n, 1, "values"));
    if (!keys || !values || keys->size() != values->size()) {
      Bad(n, "its keys and values are not two string lists of one length");
      stack_.push_back({});  // its scope_exit still closes it
      return;
    }
    Frame f;
    for (std::size_t k = 0; k < keys->size(); ++k) {
      if ((*keys)[k] != kScopeKey) continue;
      f.sets_scope = true;
      f.scope = (*values)[k];
    }
    stack_.push_back(f);
  }

  void Bad(const Node& n, const std::string& why) {
    g_.diagnostics.push_back(
        {Diagnostic::Kind::kAnnotation, n.line, n.id,
         "scope marker " + n.name + " (" + n.op.ToString() + ") ignored: " + why});
  }

  Graph& g_;
  std::vector<Frame> stack_;
};

}  // namespace

bool IsScopeMarker(const Node& n) {
  if (n.kind != NodeKind::kOp || n.op.ns != "air") return false;
  static constexpr std::string_view kNames[] = {"scope_enter", "scope_exit", "kernel_scope_in",
                                                "kernel_scope_out"};
  return std::ranges::find(kNames, n.op.name) != std::end(kNames);
}

void ApplyScopeMarkers(Graph& g) {
  Walker(g).Run();
}

std::vector<std::string> SuperKernelScopes(const Graph& g) {
  std::vector<std::string> out;
  for (const Node& n : g.nodes) {
    if (!n.super_kernel_scope || n.super_kernel_scope->empty()) continue;
    if (std::ranges::find(out, *n.super_kernel_scope) == out.end())
      out.push_back(*n.super_kernel_scope);
  }
  return out;
}

}  // namespace af::model
