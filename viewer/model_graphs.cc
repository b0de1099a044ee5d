#include "model_graphs.h"

#include <QFileInfo>
#include <map>

#include "report.pb.h"

namespace af::viewer {

std::vector<ModelGraph> ModelGraphs(const Run& run) {
  std::vector<ModelGraph> out;
  if (!run.ok()) return out;
  const report::CompileReport& rep = *run.report;
  if (rep.model_nodes_size() > 0) {
    ModelGraph m;
    m.label = QFileInfo(QString::fromStdString(rep.input())).fileName();
    for (const auto& n : rep.model_nodes())
      m.nodes.push_back(&n);
    if (rep.framework_groupings_size() > 0 &&
        rep.framework_groupings(0).inductor_groups_size() > 0) {
      m.comparison = &rep.framework_groupings(0);
      m.has_inductor = true;
    }
    out.push_back(std::move(m));
    return out;
  }
  for (const auto& cmp : rep.framework_groupings()) {
    if (cmp.nodes_size() == 0) continue;
    ModelGraph m;
    m.label = QFileInfo(QString::fromStdString(cmp.model())).fileName();
    for (const auto& n : cmp.nodes())
      m.nodes.push_back(&n);
    m.comparison = &cmp;
    m.has_inductor = cmp.inductor_groups_size() > 0;
    out.push_back(std::move(m));
  }
  return out;
}

namespace {

// Ours on a front-end run: one group per kernel, in kernel order (identical kernels share a name,
// so nodes name their kernel by group).
std::vector<ModelGroup> KernelGroups(const Run& run, const ModelGraph& m) {
  const report::CompileReport& rep = *run.report;
  std::vector<ModelGroup> out(static_cast<std::size_t>(rep.kernels_size()));
  std::map<std::string, int> index;
  for (int i = 0; i < rep.kernels_size(); ++i) {
    const auto& k = rep.kernels(i);
    out[static_cast<std::size_t>(i)].name = QString::fromStdString(k.name());
    out[static_cast<std::size_t>(i)].kind = QStringLiteral("kernel");
    out[static_cast<std::size_t>(i)].kernel = i;
    index.emplace(k.group().empty() ? k.name() : k.group(), i);
  }
  for (const auto* n : m.nodes) {
    const std::string& key = n->group().empty() ? n->kernel() : n->group();
    if (key.empty()) continue;
    const auto it = index.find(key);
    if (it != index.end()) out[static_cast<std::size_t>(it->second)].nodes.push_back(n->name());
  }
  return out;
}

}  // namespace

std::vector<ModelGroup> ModelGroups(const Run& run, int model, Grouping grouping) {
  const std::vector<ModelGraph> models = ModelGraphs(run);
  if (model < 0 || static_cast<std::size_t>(model) >= models.size()) return {};
  return ModelGroups(run, models[static_cast<std::size_t>(model)], grouping);
}

std::vector<ModelGroup> ModelGroups(const Run& run, const ModelGraph& m, Grouping grouping) {
  std::vector<ModelGroup> out;
  const report::CompileReport& rep = *run.report;
  if (grouping == Grouping::kOurs && rep.model_nodes_size() > 0) return KernelGroups(run, m);
  if (m.comparison == nullptr) return out;
  const auto& groups =
      grouping == Grouping::kOurs ? m.comparison->our_groups() : m.comparison->inductor_groups();
  // Kernels this run compiled from the same groups (a torch_compile_debug run compiles
  // Inductor's groups: the origin is "<ir_post_fusion.txt>: <group>").
  std::map<std::string, int> by_origin;
  for (int i = 0; i < rep.kernels_size(); ++i)
    by_origin.emplace(rep.kernels(i).origin(), i);
  std::map<std::string, std::string> refused;  // "<file>: <group>" -> reason
  for (const auto& f : rep.fallbacks())
    refused.emplace(f.origin() + ": " + f.name(), f.reason());
  for (const auto& g : groups) {
    ModelGroup mg;
    mg.name = QString::fromStdString(g.name());
    mg.kind = QString::fromStdString(g.kind());
    mg.nodes.assign(g.nodes().begin(), g.nodes().end());
    const std::string origin =
        grouping == Grouping::kInductor ? m.comparison->ir_file() + ": " + g.name() : std::string();
    if (const auto it = by_origin.find(origin); !origin.empty() && it != by_origin.end()) {
      mg.kernel = it->second;
    } else if (const auto r = refused.find(origin); !origin.empty() && r != refused.end()) {
      mg.fallback = QString::fromStdString(r->second);
    } else if (grouping == Grouping::kOurs) {
      for (int i = 0; i < rep.kernels_size(); ++i)
        if (rep.kernels(i).name() == g.name()) mg.kernel = i;
    }
    out.push_back(std::move(mg));
  }
  return out;
}

}  // namespace af::viewer
