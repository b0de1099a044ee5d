// The super-kernel part of the CompileReport (see superkernel_report.h).
#include "autofuse/pipeline/superkernel_report.h"

#include "autofuse/frontend/device_facts.h"
#include "autofuse/pipeline/superkernel.h"
#include "autofuse/support/error.h"
#include "report.pb.h"

namespace af::pipeline {
namespace {

void FillSegment(const SuperEstimate& e, int s, report::SuperSegmentReport* out) {
  const SuperSegmentEstimate& g = e.segments[static_cast<std::size_t>(s)];
  for (std::size_t m = 0; m < e.kernels.size(); ++m)
    if (e.kernels[m].segment == s) out->add_members(static_cast<int>(m));
  out->set_syncs(g.syncs);
  out->set_independent(g.independent);
  out->set_separate_us(g.separate_us);
  out->set_super_us(g.super_us);
  out->set_launches_removed_us(g.launches_removed_us);
  out->set_barriers_us(g.barriers_us);
  out->set_early_start_us(g.early_start_us);
}

void FillEstimate(const SuperEstimate& e, const hw::Profile& profile,
                  report::SuperKernelReport* out) {
  out->set_code(kSuperEstimated);
  out->set_message(std::to_string(e.segments.size()) +
                   " super kernel(s): " + std::to_string(e.super_launches) +
                   " launches instead of " + std::to_string(e.separate_launches));
  for (const auto& k : e.kernels) {
    auto* m = out->add_members();
    m->set_name(k.name);
    m->set_kernel(k.kernel);
    m->set_kernel_us(k.kernel_us);
    m->set_segment(k.segment);
    m->set_sync_before(k.sync_before);
  }
  for (int s = 0; s < static_cast<int>(e.segments.size()); ++s)
    FillSegment(e, s, out->add_segments());
  for (const auto& d : e.decisions) {
    auto* dr = out->add_decisions();
    dr->set_stage("superkernel");
    dr->set_code(d.code);
    dr->set_message(d.message);
  }
  out->set_separate_us(e.separate_us);
  out->set_super_us(e.super_us);
  out->set_saving_us(e.separate_us - e.super_us);
  out->set_separate_launches(e.separate_launches);
  out->set_super_launches(e.super_launches);
  const frontend::DeviceFacts& facts = frontend::GetDeviceFacts(profile);
  auto* model = out->mutable_model();
  model->set_clock_ghz(e.clock_ghz);
  model->set_clock_source(facts.clock_source);
  model->set_launch_us(e.launch_us);
  model->set_launch_source(facts.launch_source);
  model->set_sync_us(e.sync_us);
  model->set_sync_source("assumption: no public figure for a hard SyncAll");
}

}  // namespace

void FillSuperKernelReport(const CompileResult& r, const Options& options,
                           report::SuperKernelReport* out) {
  out->Clear();
  if (!r.front_end) {
    out->set_code(kSuperNotModelGraph);
    out->set_message(
        "super kernels need a model graph (FX graph, case folder, GE dump, Inductor dump): the "
        "kernels' order and data flow come from it");
    return;
  }
  std::string unbound;
  std::string first;
  for (const auto& s : r.front_end->graph.symbols) {
    if (options.bindings.contains(s)) continue;
    unbound += (unbound.empty() ? "" : ", ") + s;
    if (first.empty()) first = s;
  }
  if (!unbound.empty()) {
    out->set_code(kSuperSizesUnbound);
    out->set_message("the estimate prices every kernel at bound sizes; unbound: " + unbound +
                     " (pass --bind " + first + "=N)");
    return;
  }
  try {
    FillEstimate(EstimateSuper(r, options), hw::GetProfile(options.soc), out);
  } catch (const InputError& e) {
    out->Clear();
    out->set_code(kSuperNotModelled);
    out->set_message(e.what());
  }
}

}  // namespace af::pipeline
