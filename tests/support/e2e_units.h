// The e2e test graphs (tests/e2e/graphs) as scheduling units for the tiling tests and tools: a
// graph, or each group of a multi-group graph ("<graph>/g<i>", schedule/groups.h), so that every
// loop nest the compiler solves is covered, groups included. Header-only: its users link the
// library already.
#pragma once

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

// Every unit's name, in file order.
inline std::vector<std::string> E2eUnits() {
  std::vector<std::string> out;
  for (const auto& p : FilesUnder(SourceDir() / "tests" / "e2e" / "graphs", {".graph.txt"})) {
    const std::string f = p.filename().string();
    const std::string name = f.substr(0, f.find('.'));
    const auto part = schedule::PartitionGroups(ir::LoadGraphFile(p.string()).graphs.at(0).graph);
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
