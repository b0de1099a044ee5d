// Pieces both partitions into groups build their group graphs with (groups.cc for reductions and
// data movement, cube_groups.cc for cube + vector kernels): the dense view of a GM workspace
// tensor and fresh node names (private to src/schedule).
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "autofuse/ir/graph.h"

namespace af::schedule {

// `t`'s repeats laid out densely in `dtype`: row-major strides, 0 on extent-1 dims (as the hint
// graphs write them).
inline ir::Tensor DenseView(const ir::Tensor& t, ir::DType dtype) {
  ir::Tensor v;
  v.dtype = dtype;
  v.axis = t.axis;
  v.repeats = t.repeats;
  v.strides.assign(t.repeats.size(), sym::Expr(0));
  sym::Expr run(1);
  for (std::size_t j = t.repeats.size(); j-- > 0;) {
    if (t.repeats[j] == sym::Expr(1)) continue;
    v.strides[j] = run;
    run = run * t.repeats[j];
  }
  return v;
}

// `base`, or base_1, base_2, ... : the first name not in `names`, which it joins.
inline std::string FreshName(std::set<std::string>& names, const std::string& base) {
  std::string name = base;
  for (int k = 1; names.contains(name); ++k)
    name = base + "_" + std::to_string(k);
  names.insert(name);
  return name;
}

// Appends to group graph `h` the Store and Output that write value `v` (of tensor `t`, scheduled
// as `sched`) to GM workspace tensor `w`, densely; the Output gets index `out_index`.
inline void AppendWorkspaceStore(ir::Graph& h, std::set<std::string>& names, ir::InputRef v,
                                 const ir::Tensor& t, const ir::SchedInfo& sched, int w,
                                 std::int64_t out_index) {
  const ir::Tensor view = DenseView(t, t.dtype);
  ir::Node st;
  st.name = FreshName(names, "workspace" + std::to_string(w) + "_store");
  st.type = "Store";
  st.inputs.push_back(v);
  st.sched = sched;
  st.outputs.push_back(view);
  h.nodes.push_back(st);
  ir::Node o;
  o.name = FreshName(names, "workspace" + std::to_string(w) + "_out");
  o.type = "Output";
  o.inputs.push_back({static_cast<int>(h.nodes.size() - 1), 0});
  o.attrs["index"] = out_index;
  o.outputs.push_back(view);
  h.nodes.push_back(o);
}

}  // namespace af::schedule
