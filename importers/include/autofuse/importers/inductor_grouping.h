// Inductor's grouping beside ours (issue 8). Inductor's post-fusion groups are mapped onto the FX
// graph of the same model folder (the graph our front end reads), so that both groupings are sets
// of FX node names and can be compared group by group.
//
// Mapping: a buffer stands for an FX value when
//  - it is a graph input named after an FX placeholder (`primals_1`, `arg0_1`);
//  - it is the k-th output of an extern kernel calling aten.X, and the FX graph holds as many
//    calls of aten.X (`RandomSeeds` buffers: prims.inductor_seeds);
//  - it is the k-th value `call()` in output_code.py returns, and the FX graph returns as many;
//  - else (a buffer other groups read) it is guessed: among the FX values whose dtype and element
//    count equal the buffer's layout and whose backward cone stays within the group's inputs, the
//    latest one computed by an op the group's loop bodies run (`aten.neg` for `ops.neg`), else the
//    latest one (a note names each guess). Buffers read only inside their kernel need no mapping.
// A group then covers the FX op nodes between its written buffers and the buffers it reads: the
// backward cone of its outputs' values, stopping at its inputs' values and at graph inputs.
// Inductor recomputes cheap producers (a max_pool's max inside the dropout group), so one FX node
// can be covered by several Inductor groups.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "autofuse/importers/inductor_ir.h"
#include "autofuse/model/graph.h"

namespace af::importers::inductor {

// A group of FX op nodes: one of Inductor's kernels or one of ours.
struct FxGroup {
  std::string name;                  // op11_op12_op13_op18, or our kernel's name
  std::string kind;                  // Inductor: "kernel", "extern", "nop"; ours: "kernel"
  std::vector<std::string> nodes;    // FX op node names, in graph order
  std::vector<std::string> buffers;  // Inductor: the buffers it writes
};

struct InductorFxGroups {
  std::vector<FxGroup> groups;     // in the file's order (kernels, externs and nops)
  std::vector<std::string> notes;  // guessed and unmapped buffers
  int anchored_buffers = 0;        // buffers mapped by name, extern ordinal or return position
  int guessed_buffers = 0;
};

// `output_code` may be empty (no return mapping then).
InductorFxGroups MapInductorGroups(const IrFile& post, const model::Graph& fx,
                                   const std::string& output_code);

// One of our refused fusion candidates (frontend::FusionRecord with accepted = false).
struct Refusal {
  std::vector<std::string> first, second;
  std::string code;
};

struct GroupingDiff {
  // "split": an Inductor kernel whose nodes we spread over several groups (or left partly out);
  // "merged": one of our kernels covering nodes of several Inductor kernels;
  // "inductor_only": nodes Inductor fuses into a kernel that we leave outside every kernel;
  // "ours_only": nodes we fuse that no Inductor kernel covers (extern, views, ...).
  std::string kind;
  std::vector<std::string> inductor_groups;
  std::vector<std::string> our_groups;  // "-" stands for nodes outside our kernels
  std::vector<std::string> nodes;
  std::vector<std::string> codes;  // our reason codes for the difference, when recorded
};

struct GroupingComparison {
  int inductor_kernels = 0;  // Inductor kernels with a compared node
  int our_kernels = 0;       // ours with a compared node
  int identical = 0;         // Inductor kernels with exactly the nodes of one of ours
  int split = 0;
  int merged = 0;
  int inductor_only_nodes = 0;
  int ours_only_nodes = 0;
  std::vector<std::pair<std::string, std::string>> identical_pairs;  // (Inductor, ours)
  std::vector<GroupingDiff> diffs;
};

// Compares the kernels of both sides (Inductor's "extern" and "nop" groups are not kernels).
// `our_fallback_codes`: FX node -> our reason code for leaving it outside every kernel. Nodes in
// `ignored` (ViewNodes: Inductor reinterprets views, we fold them into loads) are left out of the
// comparison; a group left with no node is not compared.
GroupingComparison CompareGroupings(const std::vector<FxGroup>& inductor,
                                    const std::vector<FxGroup>& ours,
                                    const std::map<std::string, std::string>& our_fallback_codes,
                                    const std::vector<Refusal>& refusals,
                                    const std::set<std::string>& ignored = {});

// The FX op nodes the comparison leaves out: views (view, reshape, permute, expand, ...) and 0-dim
// constants (`full([], 0.0)`, which both sides inline as scalars).
std::set<std::string> ViewNodes(const model::Graph& g);

}  // namespace af::importers::inductor
