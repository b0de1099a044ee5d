// SuperKernel scopes marked in the input (issue 26): torchair's `torchair.scope.super_kernel(scope,
// options)` region. A GE dump carries it as the `_super_kernel_scope` / `_super_kernel_options`
// attributes of every op inside (the GE importer copies them to Node::super_kernel_scope); an FX
// graph carries it as marker calls around the ops, which this pass turns into the same per-node
// scope:
//
//   torch.ops.air.scope_enter.default(['_super_kernel_scope', '_super_kernel_options'], ['s', ''])
//   torch.ops.air.scope_exit.default()
//   torch.ops.air.kernel_scope_in.default('s', '')     (older torchair)
//   torch.ops.air.kernel_scope_out.default('s', '')
//
// Scopes nest as the markers do (the innermost super-kernel scope holds); a scope_enter without
// super-kernel keys (a stream label, a core limit) nests without changing the scope. A marker
// this pass cannot read, or an exit without its enter, is a diagnostic naming the line; the
// marker is then ignored.
#pragma once

#include <string>
#include <vector>

#include "autofuse/model/graph.h"

namespace af::model {

// True for the marker ops above (they launch nothing and write no tensor).
bool IsScopeMarker(const Node& n);

// Sets Node::super_kernel_scope on every op node between the markers.
void ApplyScopeMarkers(Graph& g);

// The distinct non-empty scopes the graph's nodes carry, in order of first appearance.
std::vector<std::string> SuperKernelScopes(const Graph& g);

}  // namespace af::model
