// Inductor's grouping beside ours (see inductor_compare.h).
#include "autofuse/inputs/inductor_compare.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "autofuse/codegen/codegen.h"
#include "autofuse/importers/debug_dir.h"
#include "autofuse/importers/fx_graph.h"
#include "autofuse/importers/inductor_grouping.h"
#include "autofuse/importers/inductor_ir.h"
#include "autofuse/pipeline/report.h"
#include "autofuse/support/error.h"
#include "report.pb.h"

namespace af::inputs {

namespace fs = std::filesystem;

bool CompareWithInductor(const std::string& model_dir, const model::Graph& g,
                         const frontend::FusionResult& fusion,
                         const std::vector<std::string>& kernel_names,
                         report::GroupingComparisonReport* out) {
  namespace ind = importers::inductor;
  std::error_code ec;
  const fs::path ir = fs::path(model_dir) / "ir_post_fusion.txt";
  if (!fs::is_regular_file(ir, ec)) return false;
  const ind::IrFile post = ind::LoadInductorIrFile(ir);
  std::string code;
  if (const fs::path oc = fs::path(model_dir) / "output_code.py"; fs::is_regular_file(oc, ec)) {
    std::ifstream in(oc, std::ios::binary);
    code.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const ind::InductorFxGroups theirs = ind::MapInductorGroups(post, g, code);
  std::vector<ind::FxGroup> ours;
  for (std::size_t i = 0; i < fusion.kernels.size(); ++i) {
    ind::FxGroup grp;
    grp.name = i < kernel_names.size() ? kernel_names[i]
                                       : codegen::KernelName(fusion.kernels[i].lowered.graph);
    grp.kind = "kernel";
    for (int id : fusion.kernels[i].nodes)
      grp.nodes.push_back(g.node(id).name);
    ours.push_back(std::move(grp));
  }
  std::map<std::string, std::string> codes;
  for (const auto& f : fusion.fallbacks)
    codes[g.node(f.node).name] = f.code;
  std::vector<ind::Refusal> refusals;
  for (const auto& rec : fusion.records)
    if (!rec.accepted) refusals.push_back({rec.first, rec.second, rec.code});
  const ind::GroupingComparison c =
      ind::CompareGroupings(theirs.groups, ours, codes, refusals, ind::ViewNodes(g));

  report::GroupingComparisonReport rep;
  rep.set_model(model_dir);
  rep.set_fx_graph(g.file);
  rep.set_ir_file(ir.string());
  auto add_group = [](const ind::FxGroup& grp, report::FxGroupReport* gr) {
    gr->set_name(grp.name);
    gr->set_kind(grp.kind);
    for (const auto& n : grp.nodes)
      gr->add_nodes(n);
    for (const auto& b : grp.buffers)
      gr->add_buffers(b);
  };
  for (const auto& grp : theirs.groups)
    add_group(grp, rep.add_inductor_groups());
  for (const auto& grp : ours)
    add_group(grp, rep.add_our_groups());
  rep.set_inductor_kernels(c.inductor_kernels);
  rep.set_our_kernels(c.our_kernels);
  rep.set_identical(c.identical);
  rep.set_split(c.split);
  rep.set_merged(c.merged);
  rep.set_inductor_only_nodes(c.inductor_only_nodes);
  rep.set_ours_only_nodes(c.ours_only_nodes);
  for (const auto& [a, b] : c.identical_pairs)
    rep.add_identical_pairs(a + " = " + b);
  for (const auto& d : c.diffs) {
    auto* dr = rep.add_diffs();
    dr->set_kind(d.kind);
    for (const auto& x : d.inductor_groups)
      dr->add_inductor_groups(x);
    for (const auto& x : d.our_groups)
      dr->add_our_groups(x);
    for (const auto& x : d.nodes)
      dr->add_nodes(x);
    for (const auto& x : d.codes)
      dr->add_codes(x);
  }
  for (const auto& nt : theirs.notes)
    rep.add_notes(nt);
  *out = std::move(rep);
  return true;
}

bool CompareWithInductor(const std::string& model_dir, const pipeline::Options& options,
                         report::GroupingComparisonReport* out) {
  std::error_code ec;
  fs::path fx;
  for (const char* name :
       {"fx_graph_readable.py", "fx_graph_transformed.py", "fx_graph_runnable.py"})
    if (fs::is_regular_file(fs::path(model_dir) / name, ec)) {
      fx = fs::path(model_dir) / name;
      break;
    }
  if (fx.empty() || !fs::is_regular_file(fs::path(model_dir) / "ir_post_fusion.txt", ec))
    return false;
  const model::Graph g = importers::LoadFxGraphFile(fx);
  frontend::FusionOptions fo;
  try {
    fo = frontend::FusionOptionsFromFlags(options.flags, options.soc);
    fo.bindings = options.bindings;
  } catch (const frontend::LowerError& e) {
    throw InputError({}, e.what());
  }
  const frontend::FusionResult fusion = frontend::DecideFusion(g, fo);
  if (!CompareWithInductor(model_dir, g, fusion, {}, out)) return false;
  std::vector<std::string> names;
  for (const auto& grp : out->our_groups())
    names.push_back(grp.name());
  pipeline::FillModelNodes(g, fusion, names, names, out->mutable_nodes());
  return true;
}

void AddInductorGroupings(const std::string& input, const pipeline::Options& options,
                          report::CompileReport* out) {
  const auto tree = importers::inductor::DiscoverDebugDump(input);
  for (const auto& m : tree.models) {
    if (m.Find(importers::inductor::DumpFileKind::kIrPostFusion) == nullptr) continue;
    report::GroupingComparisonReport cmp;
    try {
      if (!CompareWithInductor(m.dir.string(), options, &cmp)) continue;
    } catch (const InputError& e) {
      cmp.Clear();
      cmp.set_model(m.dir.string());
      cmp.add_notes(std::string("not compared: ") + e.what());
    }
    *out->add_framework_groupings() = std::move(cmp);
  }
}

}  // namespace af::inputs
