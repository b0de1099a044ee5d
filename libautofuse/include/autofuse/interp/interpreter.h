// The reference interpreter: executes a HINT graph directly over its views on host arrays. It is
// the oracle that generated kernels are checked against, so it is written for clarity and exact,
// documented semantics rather than speed (fine up to ~1e7 elements per tensor).
//
// Semantics:
//  * Sizes. Views are evaluated under the bindings plus the graph's CONST size symbols (a binding
//    that contradicts a CONST value is an error). Index arithmetic is checked int64.
//  * Inputs. Data node k takes its `index` attribute, or its position among the Data nodes in
//    file order when it has none; the indices must be 0..n-1 without duplicates. The array for
//    input k must have the Data node's dtype and shape = its output view's repeats (a broadcast
//    dim has repeat 1; an empty view is a rank-0 array). Scalar nodes are constants, not inputs.
//  * Values. Every other node's output is a dense logical array over its own view's repeats, in
//    the node's output dtype: each node computes in double (int64 for integer inputs) and rounds
//    its result into its dtype, so fp16/bf16 graphs round after every op as the hardware does.
//  * Load reads element i (a multi-index over its repeats) from the flat input buffer at
//    offset + sum_k i_k * stride_k, using the Load's own view strides and its `offset` attribute
//    (Expr or int, default 0). Reading outside the buffer is an error. Loads read only Data nodes
//    (a Gather may also take a Data node as an input directly, see below).
//  * Store keeps its input (whose shape must equal the Store's repeats). Output allocates a
//    zero-filled array with the Output's view repeats and dtype (the Store's view and dtype when
//    the Output's view is empty and the Store's is not) and writes element i of the Store at
//    offset + sum_k i_k * stride_k of the Store's view; writing outside it is an error; elements
//    the Store does not cover stay 0; with stride-0 aliasing the last write wins. An Output fed
//    by a non-Store node copies that value densely (shapes must match). Outputs are numbered like
//    inputs (`index` or file order among Output nodes).
//  * Scalar: the `value` attribute -- a string ("2.0", "-inf", "nan", "1e-5", "3", "true"),
//    int, double, bool or Expr (evaluated) -- converted to the output dtype, filled over the view
//    (normally empty: rank 0).
//  * Broadcast and elementwise ops: an input dim of repeat 1 broadcasts to the output's repeat; a
//    rank-0 input broadcasts everywhere; otherwise repeats must be equal.
//  * Elementwise math: Abs Neg Exp Ln Sqrt Rsqrt(1/sqrt) Reciprocal Relu(NaN stays NaN) Sigmoid
//    Tanh Erf Sign(NaN stays NaN) LogicalNot Add Sub Mul Div TrueDiv Maximum Minimum (NaN
//    propagates) Pow, comparisons Eq Ne Gt Ge Lt Le (-> bool, false with NaN except Ne),
//    LogicalAnd LogicalOr (nonzero = true), Where/Select (x1 nonzero ? x2 : x3). Exp..Erf always
//    compute in double. Integer operands stay in int64 with two's-complement wrap-around:
//    integer Div truncates toward zero as in C (division by zero is an error, INT_MIN / -1
//    wraps), integer Pow with a negative exponent is the truncated exact result (0 ** -n is an
//    error).
//  * Cast and every rounding into a dtype: to fp16/bf16/fp32 round to nearest even; float to
//    integer truncates toward zero, saturates at the range, NaN -> 0; integer to integer wraps;
//    anything to bool is "nonzero" (NaN included).
//  * Reductions Sum Mean Max Min Prod Any All keep dims: the reduced dims are those where the
//    output repeat is 1 with stride 0 while the input repeat is not 1; every other dim must have
//    equal repeats. Float inputs (fp16/bf16 too) accumulate in double and round once at the end;
//    integers accumulate in int64 with wrap-around; Max/Min propagate NaN.
//  * Data movement (docs/ir.md, "Data-movement ops"); every element is copied exactly:
//    - Transpose: output dim j is the input dim holding the same axis id (the output's axes must
//      be a permutation of the input's); extents must match.
//    - Concat: inputs joined along the concat dim, the first dim where an input's repeats
//      differ from the output's (symbolically; numerically when the symbols agree); input k
//      starts at the sum of the extents of inputs 0..k-1; all other dims equal the output's and
//      the extents add up to the output's. Any number of inputs.
//    - Split: the mirror image; each output of a Split node is a value of its own (consumers read
//      it by output index). Split nodes sharing an integer `gid` over the same input form one
//      split whose pieces follow their `index` attributes (ir::SplitPieces).
//    - Gather: out[pre, j, post] = params[pre, idx(indices[j]), post] along `axis` (negative axis
//      counts from the end); indices int32/int64; params and indices may be read straight from
//      Data nodes, as AutoFuse's Gather reads GM. A negative index v becomes v + n when
//      `negative_index_support` is true; every index outside [0, n) after that is an error
//      naming the node, the index and its position (all indices are checked, even when the
//      output is empty).
//    - Pad / RemovePad: values unchanged. Pad's output may be larger per dim (new elements 0),
//      RemovePad's smaller (the leading box kept); hint graphs normally keep the view.
//  * Cube ops (autofuse/ir/cube.h): MatMul, MatMulBias, BatchMatMul, BatchMatMulBias with
//    transposed operands (transpose_x1/x2, adj_x1/x2), broadcast batch dims and has_relu; the
//    operands may be computed values or Data nodes read whole. Products and sums in double, the
//    bias added before has_relu, one rounding into the output dtype. The Offset variants and
//    offset_x / enable_hf32 != 0 are refused (CUBE_OFFSET_UNSUPPORTED, CUBE_INT8_UNSUPPORTED,
//    CUBE_HF32_UNSUPPORTED in the message).
//  * Not supported yet (af::InputError "not supported by the interpreter yet"): Workspace.
// Every failure -- bad inputs, unbound symbols, shape mismatches, out-of-bounds views, unknown
// ops, cycles -- throws af::InputError whose location is "graph NAME" and whose cause names the
// node.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "autofuse/data/host_array.h"
#include "autofuse/ir/graph.h"
#include "autofuse/sym/expr.h"

namespace af::interp {

// One graph input or output as the interpreter expects or returns it.
struct TensorSpec {
  std::string name;    // the Data / Output node's name
  std::int64_t index;  // position in Interpret's input / result vector
  ir::DType dtype;
  std::vector<std::int64_t> shape;
  friend bool operator==(const TensorSpec&, const TensorSpec&) = default;
};

// Expected inputs / produced outputs, ordered by index.
std::vector<TensorSpec> InputShapes(const ir::Graph& g, const sym::Bindings& b);
std::vector<TensorSpec> OutputShapes(const ir::Graph& g, const sym::Bindings& b);

// Runs the graph; inputs[k] feeds the Data node of index k, result[k] is Output k.
std::vector<data::HostArray> Interpret(const ir::Graph& g, const sym::Bindings& b,
                                       const std::vector<data::HostArray>& inputs);

// A look at (and a say in) the values of chosen nodes: after the interpreter computes output 0 of
// a node named in `nodes`, it calls `fn` with the node, its inputs' values broadcast to the
// value's shape (in their own dtypes) and the value, which `fn` may change in place (keeping its
// shape and dtype). pipeline/reference.cc uses it to read and settle comparison outcomes.
struct NodeHook {
  std::set<std::string> nodes;
  std::function<void(const ir::Node& node, const std::vector<data::HostArray>& inputs,
                     data::HostArray& value)>
      fn;
};
std::vector<data::HostArray> Interpret(const ir::Graph& g, const sym::Bindings& b,
                                       const std::vector<data::HostArray>& inputs,
                                       const NodeHook& hook);

}  // namespace af::interp
