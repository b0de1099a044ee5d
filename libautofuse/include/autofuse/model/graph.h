// The model graph: a framework-level, op-set-agnostic dataflow graph. Nodes call an op
// (namespace + name + overload) on arguments (graph values or constants) and define output
// values with dtype and symbolic shape. Graph inputs are placeholders (tensors and symbolic
// sizes such as Sym(s0)); graph outputs are arguments too (a returned None is kept). Ids of
// values and nodes are stable: the order of appearance in the input.
//
// Importers (FX graphs today; GE graphs later) fill a Graph and call InferTypes (infer.h), which
// infers the types of what the file leaves unannotated and checks what it annotates.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "autofuse/model/arg.h"
#include "autofuse/model/op_name.h"
#include "autofuse/model/value.h"

namespace af::model {

enum class NodeKind : std::uint8_t {
  kOp,      // a call of an operator library op: torch.ops.<ns>.<name>[.<overload>]
  kPython,  // Python-level arithmetic or a builtin on symbolic scalars: `s - 1`, torch.sym_float
};

// What type inference made of a node.
enum class InferState : std::uint8_t {
  kNotRun,    // InferTypes has not seen it
  kInferred,  // a rule gave every output's type
  kOpaque,    // no rule for this op: outputs keep what the file says
  kUnknown,   // a rule exists but an input's type is not known
  kFailed,    // a rule exists and could not decide (a diagnostic says why)
};

struct Node {
  int id = -1;
  std::string name;
  NodeKind kind = NodeKind::kOp;
  OpName op;
  std::vector<Arg> args;
  std::vector<std::pair<std::string, Arg>> kwargs;
  std::vector<int> outputs;   // value ids, in output order
  bool multi_output = false;  // the op returns a tuple (outputs are reached through getitem)
  std::vector<std::string> provenance;  // the source comments (`# File: ...`) before it
  int line = 0;                         // 1-based line in the input; 0 = not from a file
  InferState infer = InferState::kNotRun;
  // The SuperKernel scope the input puts the node in (scope_markers.h): GE's
  // `_super_kernel_scope` attribute, or torchair's scope markers in an FX graph. Unset: no
  // marker; "" : a scope that turns super kernels off (torchair's super_kernel(None)).
  std::optional<std::string> super_kernel_scope;

  // The keyword argument `key`, or null.
  const Arg* Kwarg(std::string_view key) const;
};

struct Diagnostic {
  enum class Kind : std::uint8_t {
    kMismatch,     // inferred type disagrees with the file's annotation (annotation kept)
    kInferFailed,  // an op with a rule whose inference could not decide
    kAnnotation,   // an annotation or input description that was not understood
  };
  Kind kind = Kind::kMismatch;
  int line = 0;   // 1-based line in the input; 0 = unknown
  int node = -1;  // node id, -1 when not about a node
  std::string message;
};

std::string_view DiagnosticKindName(Diagnostic::Kind k);  // "mismatch", "infer-failed", ...

struct Graph {
  std::string name;           // the module class name ("GraphModule", "<lambda>", "Repro")
  std::string file;           // where it was read from; empty for graphs built in code
  std::string torch_version;  // "2.5.1+cu124" when the input says it
  std::vector<Value> values;  // every value, indexed by id
  std::vector<int> inputs;    // placeholder value ids, in signature order
  std::vector<int> attrs;     // module-attribute value ids (get_attr), in order of appearance
  std::vector<Node> nodes;    // in order of appearance (a topological order)
  std::vector<Arg> outputs;   // what forward returns, in order
  std::vector<std::string> symbols;  // size symbols in order of first appearance (s0, s1, u0)
  std::vector<Diagnostic> diagnostics;

  const Value& value(int id) const { return values.at(static_cast<std::size_t>(id)); }
  Value& value(int id) { return values.at(static_cast<std::size_t>(id)); }
  const Node& node(int id) const { return nodes.at(static_cast<std::size_t>(id)); }
  Node& node(int id) { return nodes.at(static_cast<std::size_t>(id)); }
  const Node* FindNode(std::string_view name) const;
  const Value* FindValue(std::string_view name) const;
  int CountNodes(NodeKind kind) const;
  int CountDiagnostics(Diagnostic::Kind kind) const;

  // Building. Values get the next id; a node gets `n_outputs` output values named after it
  // (`name` for one output, `name[k]` for several) with unknown types.
  int AddInput(std::string name, ValueType type, TypeSource source = TypeSource::kAnnotation);
  int AddAttr(std::string name);
  int AddNode(std::string name, OpName op, std::vector<Arg> args,
              std::vector<std::pair<std::string, Arg>> kwargs = {}, int n_outputs = 1,
              NodeKind kind = NodeKind::kOp);
  // Appends an output value to node `node_id` (for multi-output nodes); returns its value id.
  int AddOutput(int node_id, std::string name);
  // Adds the free symbols of `t` (shape, strides, expression) to `symbols`, in order.
  void NoteSymbols(const ValueType& t);
};

}  // namespace af::model
