// The AscGraph IR: what one fused kernel computes (a hint graph) and, after scheduling, how
// (an impl graph with tiled axes, loop nests and UB buffers). Mirrors AutoFuse's AscGraph so
// AscGraphDef files map onto it field by field:
//   Graph  = name, size symbols, axes, nodes in file order;
//   Axis   = id, name, type (ORIGINAL / TILE_OUT / TILE_IN / BLOCK_OUT / BLOCK_IN / MERGED),
//            symbolic size, alignment, parents it was split from or merged of;
//   Node   = name, op type, inputs (producer node + output index), attributes, schedule
//            (loop nest outer->inner, loop axis), one Tensor per output;
//   Tensor = dtype, view (axis ids, repeats, strides in elements; stride 0 marks broadcast,
//            repeat 1 with stride 0 a reduced or broadcast axis), vectorised axes with UB strides,
//            memory placement.
// Graphs are plain values: copy them to try a transformation, compare them with ==.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "autofuse/ir/dtype.h"
#include "autofuse/sym/expr.h"

namespace af::ir {

using sym::Expr;

// ------------------------------------------------------------------ axes

enum class AxisType : std::uint8_t {
  kOriginal = 0,
  kBlockOuter = 1,
  kBlockInner = 2,
  kTileOuter = 3,
  kTileInner = 4,
  kMerged = 5,
};
std::string_view AxisTypeName(AxisType t);  // "ORIGINAL", "BLOCK_OUT", ...
std::optional<AxisType> AxisTypeFromName(std::string_view s);

struct Axis {
  std::int64_t id = 0;
  std::string name;
  AxisType type = AxisType::kOriginal;
  Expr size;
  Expr align = Expr(1);
  std::vector<std::int64_t> from;  // parent axis (split) or merged axes, by id
  std::int64_t split_pair_other_id = -1;
  bool bind_block = false;
  bool allow_oversize_axis = false;
  bool allow_unaligned_tail = true;
  friend bool operator==(const Axis&, const Axis&) = default;
};

// A size symbol of the graph; CONST ones carry their value.
struct SizeVar {
  std::string name;
  std::optional<std::int64_t> const_value;
  friend bool operator==(const SizeVar&, const SizeVar&) = default;
};

// ------------------------------------------------------------------ memory placement

enum class AllocType : std::uint8_t { kGlobal, kL1, kL2, kBuffer, kQueue, kInvalid };
enum class Position : std::uint8_t { kGM, kVecIn, kVecOut, kVecCalc, kInvalid };
enum class Hardware : std::uint8_t { kGM, kUB, kInvalid };
std::string_view AllocTypeName(AllocType t);
std::string_view PositionName(Position p);
std::string_view HardwareName(Hardware h);

struct MemInfo {
  std::int64_t tensor_id = -1;
  AllocType alloc_type = AllocType::kGlobal;
  Position position = Position::kGM;
  Hardware hardware = Hardware::kGM;
  std::vector<std::int64_t> buf_ids;
  std::string name;
  std::int64_t reuse_id = -1;
  friend bool operator==(const MemInfo&, const MemInfo&) = default;
};

struct QueInfo {
  std::int64_t id = -1;
  std::int64_t depth = -1;
  std::int64_t buf_num = -1;
  std::string name;
  friend bool operator==(const QueInfo&, const QueInfo&) = default;
};

struct BufInfo {
  std::int64_t id = -1;
  std::string name;
  friend bool operator==(const BufInfo&, const BufInfo&) = default;
};

struct OptInfo {
  std::int64_t reuse_id = -1;
  std::int64_t ref_tensor = -1;
  std::int64_t merge_scope = -1;
  friend bool operator==(const OptInfo&, const OptInfo&) = default;
};

// ------------------------------------------------------------------ tensors

struct Tensor {
  DType dtype = DType::kFloat32;
  std::vector<std::int64_t> axis;             // view axes, outer -> inner
  std::vector<Expr> repeats;                  // extent of the view along each axis
  std::vector<Expr> strides;                  // in elements; 0 = broadcast
  std::vector<std::int64_t> vectorized_axis;  // axes held in the UB buffer
  std::vector<Expr> vectorized_strides;       // UB-layout strides (aligned)
  MemInfo mem;
  QueInfo que;
  BufInfo buf;
  OptInfo opt;
  std::size_t rank() const { return axis.size(); }
  friend bool operator==(const Tensor&, const Tensor&) = default;
};

// ------------------------------------------------------------------ nodes

// An attribute value: integers, floats, booleans, strings, symbolic expressions, integer lists.
using AttrValue =
    std::variant<std::int64_t, double, bool, std::string, Expr, std::vector<std::int64_t>>;

struct InputRef {
  int node = -1;   // index into Graph::nodes
  int output = 0;  // output index of that node
  friend bool operator==(const InputRef&, const InputRef&) = default;
};

struct SchedInfo {
  std::vector<std::int64_t> axis;  // loop nest, outer -> inner, by axis id
  std::int64_t loop_axis = -1;     // innermost loop; axes inside it become the API call length
  std::int32_t exec_condition = 0;
  std::int64_t exec_order = -1;  // deprecated upstream; kept for round trips
  friend bool operator==(const SchedInfo&, const SchedInfo&) = default;
};

// AutoFuse's ApiInfo numbers are version-dependent hints (the enum numbering changed between
// releases); we keep them as read so files round-trip, and never decide anything on them.
struct ApiInfo {
  std::int64_t type = 0;
  std::int64_t compute_type = 0;
  std::int64_t unit = 0;
  friend bool operator==(const ApiInfo&, const ApiInfo&) = default;
};

struct TmpBuffer {
  Expr size;
  std::int64_t life_time_axis_id = -1;
  MemInfo mem;
  std::int64_t id = -1;
  friend bool operator==(const TmpBuffer&, const TmpBuffer&) = default;
};

struct Node {
  std::string name;
  std::string type;  // AscIR op type: "Data", "Load", "Add", ...
  std::vector<InputRef> inputs;
  std::map<std::string, AttrValue> attrs;  // op-specific (ir_attr): index, offset, value, axis...
  SchedInfo sched;
  std::vector<Tensor> outputs;
  ApiInfo api;
  std::vector<TmpBuffer> tmp_buffers;
  std::vector<std::string> input_names;  // IR input/output names (ir_def), for round trips
  std::vector<std::string> output_names;
  friend bool operator==(const Node&, const Node&) = default;

  const AttrValue* FindAttr(const std::string& key) const;
  std::optional<std::int64_t> IntAttr(const std::string& key) const;
};

// ------------------------------------------------------------------ graphs

enum class GraphType : std::uint8_t { kHint = 0, kImpl = 1 };

struct Graph {
  std::string name;
  GraphType type = GraphType::kHint;
  std::int64_t tiling_key = -1;
  std::vector<SizeVar> size_vars;
  std::vector<Axis> axes;
  std::vector<Node> nodes;
  friend bool operator==(const Graph&, const Graph&) = default;

  const Axis* FindAxis(std::int64_t id) const;
  Axis* FindAxis(std::int64_t id);
  const Axis* FindAxisByName(const std::string& name) const;
  int FindNode(const std::string& name) const;  // -1 when absent
  // The next free axis id (max id + 1).
  std::int64_t NextAxisId() const;
  // Adds an ORIGINAL axis with the given size and returns its id.
  std::int64_t AddAxis(const std::string& name, const Expr& size);
  // Adds a size variable unless one with this name exists.
  void AddSizeVar(const std::string& var, std::optional<std::int64_t> const_value = {});
  // Consumers of every node's outputs: result[node] = list of (consumer node, input slot).
  std::vector<std::vector<std::pair<int, int>>> Consumers() const;
  // Node indices in a topological order (producers first); empty when there is a cycle.
  std::vector<int> TopoOrder() const;
};

}  // namespace af::ir
