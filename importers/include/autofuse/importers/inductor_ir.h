// Inductor scheduler IR dumps (`ir_pre_fusion.txt`, `ir_post_fusion.txt`, the same text in
// TORCH_LOGS artifacts and inductor_npu_ext `Codegen [i/n]` log blocks) as a structured data model:
// scheduler nodes with their kind, dependencies with index expressions, output buffers, layouts,
// group/sizes, loop bodies (var_ranges, indexN, the op list of every sub-block) and fused groups.
// The parser is tolerant (unknown keys and lines are skipped and counted) and never runs Python.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "autofuse/sym/expr.h"

namespace af::importers::inductor {

// A sympy expression as Inductor printed it; `expr` is set when our `sym` parser reads it
// (indirect `(tmp3)` and float terms such as `s1/(s3 - 1.0)` may stay text only).
struct IndexExpr {
  std::string text;
  std::optional<sym::Expr> expr;
};

// MemoryDep / StarDep / WeakDep (every printed form, 2.0 keyword form included).
struct Dep {
  enum class Kind { kMemory, kStar, kWeak, kOther };
  Kind kind = Kind::kOther;
  std::string buffer;
  IndexExpr index;                                        // MemoryDep only
  std::vector<std::pair<std::string, IndexExpr>> ranges;  // {c0: 8, c1: 1000} (2.1+)
  std::vector<IndexExpr> size;                            // size=(8, 1000) (2.0)
  std::string mode;                                       // "None" when printed as None
  std::string mutating_buf;                               // WeakDep
  bool indirect = false;                                  // index holds (tmpN) placeholders
  std::string text;                                       // the dependency as printed
};

// FixedLayout('cpu', torch.float32, size=[16, 16], stride=[16, 1][, offset=E]) and the other
// layout classes; `text` keeps the whole repr.
struct Layout {
  std::string kind;    // FixedLayout, FlexibleLayout, MutationLayoutSHOULDREMOVE, ...
  std::string device;  // cpu, cuda:0, npu
  std::string dtype;   // torch.float32
  std::vector<IndexExpr> size;
  std::vector<IndexExpr> stride;
  std::optional<IndexExpr> offset;
  std::string text;
};

struct NodeUser {
  std::string node;        // op1, or OUTPUT
  std::string node_class;  // SchedulerNode, ExternKernelSchedulerNode, ... ("" for OUTPUT)
  bool can_inplace = false;
  bool is_weak = false;
};

// One buffer of a `.outputs = [...]` block (>= 2.5).
struct OutputBuffer {
  std::string name;
  std::string ir_class;
  std::optional<Layout> layout;
  std::vector<NodeUser> users;
  std::vector<std::string> aliases;
  std::vector<std::string> mutations;
};

// One statement of a loop-body block.
struct BodyOp {
  enum class Kind {
    kGetIndex,        // x = self.get_index('index0')       -> index = "index0"
    kOps,             // x = ops.<op>(...)                    -> op, args, kwargs
    kSetIndirect,     // x = self.set_indirect0(y)          -> op = "set_indirect0"
    kMaskedSubblock,  // x = self.masked_subblock1(mask, 0.0) -> op = "masked_subblock1"
    kGetItem,         // x = y[0]
    kReturn,          // return x | return None
    kOther,           // anything else (kept as text)
  };
  Kind kind = Kind::kOther;
  int line = 0;
  std::string result;             // the assigned name ("" for return)
  std::string op;                 // ops name, set_indirectK, masked_subblockK
  std::vector<std::string> args;  // arguments as printed
  std::vector<std::pair<std::string, std::string>> kwargs;  // src_dtype -> torch.int64
  std::string buffer;          // load / store / store_reduction / 6-argument reduction
  std::string index;           // the get_index variable naming the index (load / store ...)
  std::string reduction_type;  // sum, max, welford_reduce, ...
  int item = -1;               // kGetItem
  std::string text;            // the statement as written
};

struct BodyBlock {
  std::string name;  // body, masked_subblock1, ...
  std::vector<BodyOp> ops;
};

// `class <node>_loop_body:` — var_ranges, indexN and the blocks (blocks[0] is `body`).
struct LoopBody {
  std::vector<std::pair<std::string, IndexExpr>> var_ranges;
  std::vector<std::pair<std::string, IndexExpr>> indexing;  // index0 -> expr
  std::vector<BodyBlock> blocks;
  int line = 0;
  int CountOps(BodyOp::Kind kind) const;
  bool HasOp(std::string_view op) const;  // any ops.<op> in any block
};

enum class NodeKind {
  kScheduler,  // SchedulerNode(ComputedBuffer)
  kTemplate,   // SchedulerNode(TemplateBuffer / MultiTemplateBuffer ...)
  kFused,      // FusedSchedulerNode, OuterLoopFusedSchedulerNode, GroupedSchedulerNode, ...
  kForeach,    // ForeachKernelSchedulerNode
  kExtern,     // ExternKernelSchedulerNode
  kNop,        // NopKernelSchedulerNode
  kOther,      // a class we do not know
};
std::string_view NodeKindName(NodeKind k);

struct SchedNode {
  std::string name;                     // op0, buf0, op0_op1
  std::string node_class;               // SchedulerNode, FusedSchedulerNode, ...
  std::vector<std::string> ir_classes;  // ComputedBuffer / SchedulerNode,SchedulerNode / NoneType
  NodeKind kind = NodeKind::kOther;
  int line = 0;
  std::vector<Dep> writes, unmet_dependencies, met_dependencies;
  std::vector<OutputBuffer> outputs;                                 // .outputs block (>= 2.5)
  std::vector<std::pair<std::string, std::vector<NodeUser>>> users;  // <name>.users (2.1-2.4)
  std::string device;                                                // group.device
  std::vector<std::vector<IndexExpr>> iteration;               // (numel, rnumel) or ((a, b), (c,))
  std::vector<IndexExpr> sizes;                                // iteration ranges
  std::vector<IndexExpr> reduction_sizes;                      // reduction ranges
  std::vector<std::pair<std::string, Layout>> buffer_layouts;  // <buf>_layout = ...
  std::optional<LoopBody> body;
  std::string kernel;                     // node.kernel of extern nodes
  std::vector<SchedNode> snodes;          // fused: full sub-node dumps (2.1+)
  std::vector<std::string> snode_names;   // fused: names (all forms; 2.0 lists only these)
  std::vector<std::string> skipped_keys;  // keys and lines we do not read
  bool has_backend_code = false;          // "<N> Triton code:" or similar blocks were present

  bool IsReduction() const;  // non-empty reduction sizes or a reduction in the loop body
  // Every scheduler node this node stands for: itself, or its sub-nodes (recursively).
  std::vector<const SchedNode*> Leaves() const;
};

struct IrFile {
  std::string file;
  std::string stage;          // "pre" / "post" when the file (or log artifact header) says so
  std::string version_guess;  // "2.0", "2.1-2.4", "2.5", ">=2.6" from the text's forms
  std::vector<SchedNode> nodes;
  int skipped_lines = 0;  // top-level lines outside any node (log text, headers)
  int CountKind(NodeKind k) const;
};

// True when the text holds at least one scheduler-node dump.
bool LooksLikeInductorIr(std::string_view text);
// Parses ir_*_fusion text or a log holding node dumps. Throws InputError (file:line) on a
// malformed known construct (a value that does not parse, brackets never closed).
IrFile ParseInductorIr(const std::string& text, const std::string& file);
IrFile LoadInductorIrFile(const std::filesystem::path& path);

}  // namespace af::importers::inductor
