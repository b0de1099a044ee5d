// The e2e test graphs (tests/e2e/graphs) as scheduling units for the tiling tests and tools: a
// graph, or each group of a multi-group graph ("<graph>/g<i>", schedule/groups.h), so that every
// loop nest the compiler solves is covered, groups included. Header-only: its users link the
// library already.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "autofuse/ir/load.h"
#include "autofuse/schedule/groups.h"
#include "autofuse/schedule/schedule.h"
#include "fixtures.h"

namespace af::test {

inline std::filesystem::path E2eGraphFile(const std::string& graph) {
  return SourceDir() / "tests" / "e2e" / "graphs" / (graph + ".graph.txt");
}

// The profile a graph file names on a `# SOC: NAME` line ("" when none: every profile runs it).
// Graphs of ops one profile refuses (an innermost-dim Gather on A2/A3) name the one they run on.
inline std::string E2eGraphSoc(const std::filesystem::path& path) {
  const std::string text = ReadFile(path);
  const std::string key = "# SOC:";
  const auto at = text.find(key);
  if (at == std::string::npos) return "";
  const auto from = text.find_first_not_of(' ', at + key.size());
  const auto to = text.find_first_of(" \n", from);
  return from == std::string::npos ? "" : text.substr(from, to - from);
}

// Every unit's name, in file order: those of the graphs `soc` runs (E2eGraphSoc).
inline std::vector<std::string> E2eUnits(const std::string& soc = "ascend910b") {
  std::vector<std::string> out;
  for (const auto& p : FilesUnder(SourceDir() / "tests" / "e2e" / "graphs", {".graph.txt"})) {
    const std::string graph_soc = E2eGraphSoc(p);
    if (!graph_soc.empty() && graph_soc != soc) continue;
    const std::string f = p.filename().string();
    const std::string name = f.substr(0, f.find('.'));
    const auto part = schedule::PartitionGroups(ir::LoadGraphFile(p.string()).graphs.at(0).graph);
    // Cube + vector kernels (cv_*) are left out: their cube group has no vector schedule, the
    // 950 refuses them, and their vector groups are plain elementwise kernels.
    if (std::any_of(part.groups.begin(), part.groups.end(),
                    [](const schedule::GroupGraph& g) { return g.cube.has_value(); }))
      continue;
    if (part.groups.empty()) out.push_back(name);
    for (std::size_t q = 0; q < part.groups.size(); ++q)
      out.push_back(name + "/g" + std::to_string(q));
  }
  return out;
}

// The unit's schedule (a group's as ScheduleGroups makes it).
inline schedule::ScheduleResult ScheduleE2eUnit(const std::string& unit,
                                                const hw::Profile& profile) {
  const auto slash = unit.find('/');
  const ir::Graph g =
      ir::LoadGraphFile(E2eGraphFile(unit.substr(0, slash)).string()).graphs.at(0).graph;
  if (slash == std::string::npos) return schedule::Schedule(g, profile);
  const auto part = schedule::PartitionGroups(g);
  return schedule::ScheduleGroups(part, profile).at(std::stoul(unit.substr(slash + 2)));
}

}  // namespace af::test
