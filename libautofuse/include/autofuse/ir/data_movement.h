// The view rules of AscIR's data-movement ops, in one place for validation, the interpreter and
// the schedule (docs/ir.md, "Data-movement ops"):
//   Transpose  output axes are a permutation of the input axes (matched by axis id), repeats
//              permuted with them;
//   Concat     inputs agree with the output on every dim but one, the concat dim: the first dim
//              where some input's repeats differ from the output's; input k starts along it at
//              the sum of the repeats of inputs 0..k-1;
//   Split      the mirror image: the split dim is the first dim where some piece's repeats differ
//              from the input's; pieces are this node's outputs, or, for Split nodes sharing a
//              `gid` (AutoFuse's form before it merges them), every output of every node of that
//              gid in `index` order;
//   Gather     output repeats = params[:axis] + indices + params[axis+1:].
// Repeats are "the same" when their canonical forms are equal or the prover shows them equal
// (AutoFuse's StaticCheckEq == kTrue); anything else counts as different.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "autofuse/ir/graph.h"

namespace af::ir {

// Whether two repeats are provably the same extent.
bool SameRepeat(const Expr& a, const Expr& b);

// The tensor that input `slot` of `n` reads; nullptr when the reference is dangling.
const Tensor* InputTensor(const Graph& g, const Node& n, std::size_t slot);

// perm[j] = the input dim that output dim j comes from, matched by axis id; nullopt when the
// output's axes are not a permutation of the input's (or an axis id repeats).
std::optional<std::vector<std::size_t>> TransposePerm(const Tensor& in, const Tensor& out);

// A Load's or Store's `offset` attr (elements into its GM buffer) as an expression: 0 when absent,
// nullopt when it is neither an integer nor an expression.
std::optional<sym::Expr> ViewOffset(const Node& n);

// The concat dim of a Concat node: the first dim where some input's repeats differ from the
// output's. nullopt when every input equals the output (a one-input Concat copies), when an
// input is dangling or when ranks differ.
std::optional<std::size_t> ConcatDim(const Graph& g, const Node& concat);

// One piece of a split: output `output` of Split node `node`.
struct SplitPiece {
  int node = -1;
  int output = 0;
  friend bool operator==(const SplitPiece&, const SplitPiece&) = default;
};

// The Split nodes that form one split with node `split`: those of the same integer `gid` that read
// the same input, ordered by their `index` attribute (file order when absent), or the node alone
// when it has no `gid`.
std::vector<int> SplitGroup(const Graph& g, int split);
// Every piece of that split, in order (each node's outputs in output order).
std::vector<SplitPiece> SplitPieces(const Graph& g, int split);
// The split dim: the first dim where some piece's repeats differ from the input's; nullopt when
// none does (a one-piece Split copies) or when ranks differ.
std::optional<std::size_t> SplitDim(const Graph& g, int split);

// Gather's `axis` attribute normalised into [0, params_rank) (negative counts from the end);
// nullopt when absent, not an integer, or out of range.
std::optional<std::size_t> GatherAxis(const Node& gather, std::size_t params_rank);
// Gather's `negative_index_support` attribute (bool, or an integer 0/1); false when absent.
bool NegativeIndexSupport(const Node& gather);
// Whether the schedule turned `gather` into an innermost-dim Gather (normalize: its params' rows
// loaded whole into UB, elements picked by the vector Gather; attr gather_innermost).
bool GatherInnermost(const Node& gather);
// The dims of a Gather's indices view that index: every dim of indices read from a Data node
// (their view is over the index axes alone), and for indices a reduction computes in the kernel
// (argmax, then a gather of rows: a multi-group kernel) the dims not on a params axis with
// extent 1 (the reduction's loop nest also spans the params' trailing axes, with extent 1).
std::vector<std::size_t> GatherIndexDims(const Tensor& params, const Tensor& indices);
// The output repeats Gather produces from its params and indices views (GatherIndexDims').
std::vector<Expr> GatherOutputRepeats(const Tensor& params, const Tensor& indices,
                                      std::size_t axis);

}  // namespace af::ir
