// The modelled saving of super kernels and its Chrome trace (see superkernel.h).
#include <nlohmann/json.hpp>
#include <set>

#include "autofuse/pipeline/estimate.h"
#include "autofuse/pipeline/superkernel.h"
#include "autofuse/support/error.h"

namespace af::pipeline {
namespace {

std::string KernelLabel(const Kernel& k) {
  return k.code.kernel_name.empty() ? k.hint.name : k.code.kernel_name;
}

// The segment's terms from its members' times.
void FillSegment(const SuperEstimate& e, SuperSegmentEstimate* out) {
  for (std::size_t m = 0; m < out->members.size(); ++m) {
    const SuperMemberEstimate& k = out->members[m];
    out->separate_us += k.kernel_us + e.launch_us;
    out->super_us += k.kernel_us;
    if (m > 0 && k.sync_before) ++out->syncs;
    if (m > 0 && !k.sync_before) ++out->independent;
  }
  const auto n = static_cast<double>(out->members.size());
  out->launches_removed_us = (n - 1) * e.launch_us;
  out->barriers_us = out->syncs * e.sync_us;
  out->early_start_us = out->independent * e.sync_us;
  out->super_us += e.launch_us + out->barriers_us;
}

}  // namespace

SuperEstimate EstimateSuper(const CompileResult& r, const Options& o) {
  if (!r.front_end) throw InputError({r.input}, "--superkernel needs a model graph");
  for (const auto& s : r.front_end->graph.symbols)
    if (o.bindings.find(s) == o.bindings.end())
      throw InputError({r.input}, "size symbol '" + s + "' is unbound: pass --bind " + s + "=N");
  const hw::Profile& profile = hw::GetProfile(o.soc);
  const ModelClock clock = ClockFor(profile, EstimateModel{});
  const SuperPlan plan = PlanSuperKernels(r, o);
  SuperEstimate e;
  e.decisions = plan.decisions;
  e.clock_ghz = clock.ghz;
  e.launch_us = clock.launch_us;
  e.sync_us = kSyncAllAssumptionUs;
  e.segments.resize(plan.segments.size());
  for (std::size_t i = 0; i < plan.order.size(); ++i) {
    const Unit& u = plan.order[i];
    if (u.kernel < 0) continue;
    const Kernel& k = r.kernels[static_cast<std::size_t>(u.kernel)];
    std::set<std::string> unbound;
    std::string why;
    const auto us = KernelLaunchUs(k.hint, o, clock, &unbound, &why);
    if (!us) throw InputError({r.input}, "kernel " + KernelLabel(k) + " not modelled: " + why);
    SuperMemberEstimate m;
    m.name = KernelLabel(k);
    m.kernel_us = *us - clock.launch_us;
    m.segment = plan.segment_of_unit[i];
    m.kernel = u.kernel;
    if (m.segment >= 0) {
      const SuperSegment& seg = plan.segments[static_cast<std::size_t>(m.segment)];
      const auto at = std::ranges::find(seg.units, static_cast<int>(i)) - seg.units.begin();
      m.sync_before = seg.sync_before[static_cast<std::size_t>(at)];
      e.segments[static_cast<std::size_t>(m.segment)].members.push_back(m);
    } else {
      e.separate_us += m.kernel_us + e.launch_us;
      e.super_us += m.kernel_us + e.launch_us;
      ++e.super_launches;
    }
    ++e.separate_launches;
    e.kernels.push_back(m);
  }
  for (std::size_t s = 0; s < e.segments.size(); ++s) {
    FillSegment(e, &e.segments[s]);
    e.separate_us += e.segments[s].separate_us;
    e.super_us += e.segments[s].super_us;
    ++e.super_launches;
  }
  return e;
}

std::string SuperEstimateJson(const SuperEstimate& e) {
  nlohmann::json segs = nlohmann::json::array();
  for (const auto& s : e.segments) {
    nlohmann::json members = nlohmann::json::array();
    for (const auto& m : s.members)
      members.push_back(
          {{"name", m.name}, {"kernel_us", m.kernel_us}, {"sync_before", m.sync_before}});
    segs.push_back({{"members", members},
                    {"syncs", s.syncs},
                    {"independent", s.independent},
                    {"separate_us", s.separate_us},
                    {"super_us", s.super_us},
                    {"launches_removed_us", s.launches_removed_us},
                    {"barriers_us", s.barriers_us},
                    {"early_start_us", s.early_start_us}});
  }
  nlohmann::json decisions = nlohmann::json::array();
  for (const auto& d : e.decisions)
    decisions.push_back({{"code", d.code}, {"message", d.message}});
  nlohmann::json j;
  j["super_kernels"] = segs;
  j["decisions"] = decisions;
  j["total"] = {{"separate_us", e.separate_us},
                {"super_us", e.super_us},
                {"saving_us", e.separate_us - e.super_us},
                {"separate_launches", e.separate_launches},
                {"super_launches", e.super_launches}};
  j["model"] = {{"clock_ghz", e.clock_ghz},
                {"launch_us", e.launch_us},
                {"sync_us", e.sync_us},
                {"sync_source", "assumption: no public figure for a hard SyncAll"}};
  return j.dump(2) + "\n";
}

std::string SuperTraceJson(const SuperEstimate& e) {
  nlohmann::json ev = nlohmann::json::array();
  auto slice = [&ev](int pid, const std::string& name, const std::string& cat, double ts,
                     double dur) {
    ev.push_back({{"name", name},
                  {"cat", cat},
                  {"ph", "X"},
                  {"pid", pid},
                  {"tid", 1},
                  {"ts", ts},
                  {"dur", dur}});
  };
  ev.push_back({{"name", "process_name"},
                {"ph", "M"},
                {"pid", 1},
                {"args", {{"name", "separate kernels"}}}});
  ev.push_back(
      {{"name", "process_name"}, {"ph", "M"}, {"pid", 2}, {"args", {{"name", "super kernels"}}}});
  // Apart: every kernel pays its launch, then runs.
  double t = 0;
  for (const auto& k : e.kernels) {
    slice(1, "launch", "launch", t, e.launch_us);
    slice(1, k.name, "kernel", t + e.launch_us, k.kernel_us);
    t += e.launch_us + k.kernel_us;
  }
  // Super: one launch per super kernel, a SyncAll before a dependent member.
  t = 0;
  int open = -1;
  for (const auto& k : e.kernels) {
    if (k.segment < 0 || k.segment != open) {
      slice(2,
            k.segment >= 0 ? "launch (super kernel " + std::to_string(k.segment) + ")" : "launch",
            "launch", t, e.launch_us);
      t += e.launch_us;
    } else if (k.sync_before) {
      slice(2, "SyncAll", "barrier", t, e.sync_us);
      t += e.sync_us;
    }
    open = k.segment;
    slice(2, k.name, "kernel", t, k.kernel_us);
    t += k.kernel_us;
  }
  nlohmann::json j;
  j["traceEvents"] = ev;
  j["displayTimeUnit"] = "ns";
  j["otherData"] = {{"separate_us", e.separate_us},
                    {"super_us", e.super_us},
                    {"launch_us", e.launch_us},
                    {"sync_us", e.sync_us}};
  return j.dump(1) + "\n";
}

}  // namespace af::pipeline
