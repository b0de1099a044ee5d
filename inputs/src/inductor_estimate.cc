// Estimating Inductor's fused groups (see inductor_estimate.h).
#include "autofuse/inputs/inductor_estimate.h"

#include <map>
#include <optional>
#include <set>

#include "autofuse/importers/debug_dir.h"
#include "autofuse/importers/inductor_hint.h"
#include "autofuse/importers/inductor_ir.h"
#include "autofuse/support/error.h"

namespace af::inputs {
namespace {

namespace ind = importers::inductor;

// The parts: every scheduler node alone. ir_pre_fusion.txt lists them unfused; without it, the
// post-fusion file's sub-node dumps (torch >= 2.1) stand in. *from says which.
std::map<std::string, ind::HintGroup> SingleGroups(const ind::ModelDir& md,
                                                   const ind::IrFile& post_ir,
                                                   const ind::DumpFile& post, std::string* from) {
  ind::IrFile singles;
  if (const auto* pre = md.Find(ind::DumpFileKind::kIrPreFusion); pre != nullptr) {
    try {
      singles = ind::LoadInductorIrFile(pre->path);
      *from = pre->path.filename().string();
    } catch (const InputError&) {
      singles.nodes.clear();  // a damaged pre-fusion file: fall back to the sub-node dumps
    }
  }
  if (from->empty()) {
    singles.file = post_ir.file;
    for (const auto& n : post_ir.nodes) {
      if (n.kind == ind::NodeKind::kFused && n.snodes.empty()) continue;  // 2.0: names only
      for (const auto* leaf : n.Leaves())
        singles.nodes.push_back(*leaf);
    }
    *from = "the sub-node dumps of " + post.path.filename().string();
  }
  std::map<std::string, ind::HintGroup> groups;
  for (auto& sg : ind::BuildHintGraphs(singles, nullptr))
    groups.emplace(sg.name, std::move(sg));
  return groups;
}

struct Pricer {
  const pipeline::Options& o;
  const pipeline::ModelClock& clock;
  std::set<std::string> unbound;

  std::optional<double> Us(const ir::Graph& hint, std::string* why) {
    return pipeline::KernelLaunchUs(hint, o, clock, &unbound, why);
  }
};

// One of Inductor's groups against its scheduler nodes launched one by one.
void EstimateGroup(const ind::HintGroup& grp, const std::string& name,
                   const std::map<std::string, ind::HintGroup>& singles,
                   const std::string& singles_from, Pricer& pricer, pipeline::GraphEstimate& e) {
  if (!grp.graph) {
    e.skipped.push_back({name, "not lowered (Inductor fallback): " + grp.reason});
    return;
  }
  std::string why;
  const auto fused = pricer.Us(*grp.graph, &why);
  if (!fused) {
    e.skipped.push_back({name, "fused kernel not modeled: " + why});
    return;
  }
  pipeline::KernelEstimate ke;
  ke.name = name;
  ke.fused_us = *fused;
  const std::vector<std::string> members =
      grp.members.empty() ? std::vector<std::string>{grp.name} : grp.members;
  for (const auto& mem : members) {
    ke.nodes.push_back(mem);
    auto it = singles.find(mem);
    std::string missing;
    std::string why_part;
    std::optional<double> part;
    if (it == singles.end()) {
      missing = "scheduler node '" + mem + "' has no loop body alone in " + singles_from;
    } else if (!it->second.graph) {
      missing = "scheduler node '" + mem + "' does not lower alone: " + it->second.reason;
    } else if (part = pricer.Us(*it->second.graph, &why_part); !part) {
      missing = "scheduler node '" + mem + "' not modeled alone: " + why_part;
    }
    if (!missing.empty()) {
      e.skipped.push_back({name, missing});
      return;
    }
    ke.unfused_us += *part;
  }
  ke.gain = ke.fused_us > 0 ? ke.unfused_us / ke.fused_us : 0;
  e.kernels.push_back(ke);
}

}  // namespace

pipeline::GraphEstimate EstimateInductor(const std::string& path, const pipeline::Options& o,
                                         const pipeline::EstimateModel& m) {
  const hw::Profile& profile = hw::GetProfile(o.soc);
  const pipeline::ModelClock clock = pipeline::ClockFor(profile, m);
  const auto tree = ind::DiscoverDebugDump(path);
  pipeline::GraphEstimate e;
  Pricer pricer{o, clock, {}};
  bool any_post = false;
  for (const auto& md : tree.models) {
    // ir_post_fusion.txt, else other scheduler-node text (a renamed dump, a log excerpt) that
    // does not say it is pre-fusion.
    const auto* post = md.Find(ind::DumpFileKind::kIrPostFusion);
    std::optional<ind::IrFile> loaded;
    if (post == nullptr) {
      post = md.Find(ind::DumpFileKind::kIrText);
      if (post == nullptr) continue;
      loaded = ind::LoadInductorIrFile(post->path);
      if (loaded->stage == "pre") continue;
    }
    any_post = true;
    const auto post_ir = loaded ? *loaded : ind::LoadInductorIrFile(post->path);
    std::string singles_from;
    const auto singles = SingleGroups(md, post_ir, *post, &singles_from);
    const std::string where = tree.models.size() > 1 ? md.name + "/" : "";
    for (const auto& grp : ind::BuildHintGraphs(post_ir))
      EstimateGroup(grp, where + grp.name, singles, singles_from, pricer, e);
  }
  if (!any_post)
    throw InputError({path, 0, 0},
                     "no ir_post_fusion.txt (Inductor's fused groups) found: afc estimate needs "
                     "the post-fusion IR to know which scheduler nodes share a kernel");
  if (!pricer.unbound.empty()) {
    std::string list;
    for (const auto& s : pricer.unbound)
      list += (list.empty() ? "" : ",") + s + "=N";
    throw InputError({path, 0, 0}, "size symbols unbound: pass --bind " + list);
  }
  pipeline::FinishEstimate(e, clock);
  return e;
}

}  // namespace af::inputs
