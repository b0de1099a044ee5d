// The modelled timeline as trace events (see trace.h).
#include "autofuse/exporters/trace.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "autofuse/frontend/device_facts.h"
#include "autofuse/hw/profile.h"
#include "report.pb.h"

namespace af::exporters {
namespace {

using nlohmann::json;

json Meta(int tid, const std::string& name, int order) {
  return json::array(
      {{{"ph", "M"}, {"pid", 1}, {"tid", tid}, {"name", "thread_name"}, {"args", {{"name", name}}}},
       {{"ph", "M"},
        {"pid", 1},
        {"tid", tid},
        {"name", "thread_sort_index"},
        {"args", {{"sort_index", order}}}}});
}

// A kernel's slice named `name` from time t (`cycles` long, with `args`) and one slice per pipe
// on tracks of their own. Returns its modelled duration (us).
double AddKernelTracks(const std::string& name, double t, double cycles, json args,
                       const std::vector<std::pair<const char*, double>>& pipes,
                       double us_per_cycle, int& tid, json& events) {
  const double dur = cycles * us_per_cycle;
  for (const auto& e : Meta(tid, name, tid))
    events.push_back(e);
  events.push_back({{"ph", "X"},
                    {"pid", 1},
                    {"tid", tid},
                    {"name", name},
                    {"cat", "kernel"},
                    {"ts", t},
                    {"dur", dur},
                    {"args", std::move(args)}});
  const int kernel_tid = tid++;
  for (const auto& [pipe, pipe_cycles] : pipes) {
    for (const auto& e : Meta(tid, name + " " + pipe, tid))
      events.push_back(e);
    events.push_back(
        {{"ph", "X"},
         {"pid", 1},
         {"tid", tid},
         {"name", pipe},
         {"cat", "pipe"},
         {"ts", t},
         {"dur", pipe_cycles * us_per_cycle},
         {"args", {{"kernel", name}, {"cycles", pipe_cycles}, {"kernel_tid", kernel_tid}}}});
    ++tid;
  }
  return dur;
}

// The slices of one scheduled kernel (or one group of a multi-group kernel) from time t: the
// kernel's, and one per pipe (MTE2, MTE3, VEC, SCALAR of the chosen case).
double AddSlices(const report::KernelReport& kr, const std::string& name, double t,
                 double us_per_cycle, int& tid, json& events) {
  const auto& c = kr.cases(kr.tiling().chosen_case());
  return AddKernelTracks(name, t, c.modeled_cycles(),
                         {{"case", c.name()},
                          {"block_dim", c.block_dim()},
                          {"ub_bytes", c.ub_bytes()},
                          {"cycles", c.modeled_cycles()},
                          {"binding", c.binding()}},
                         {{"MTE2", c.mte2_cycles()},
                          {"MTE3", c.mte3_cycles()},
                          {"VEC", c.vec_cycles()},
                          {"SCALAR", c.scalar_cycles()}},
                         us_per_cycle, tid, events);
}

// The cube group of a cube + vector kernel: its slice (the chosen CV template) and one per cube
// pipe (MTE2, MTE1, CUBE, FIXP of the busiest cube core).
double AddCubeSlices(const report::KernelReport& kr, const std::string& name, double t,
                     double us_per_cycle, int& tid, json& events) {
  const auto& c = kr.cube();
  return AddKernelTracks(name, t, c.cycles(),
                         {{"template", c.template_name()},
                          {"block_dim", c.block_dim()},
                          {"tiles", c.tiles()},
                          {"cycles", c.cycles()}},
                         {{"MTE2", c.mte2_cycles()},
                          {"MTE1", c.mte1_cycles()},
                          {"CUBE", c.cube_cycles()},
                          {"FIXP", c.fixpipe_cycles()}},
                         us_per_cycle, tid, events);
}

// Whether the entry has a tiling whose chosen case it lists (a cube group: its cube tiling; a
// group that does not run under the chosen tiling counts as tiled).
bool Tiled(const report::KernelReport& kr) {
  if (kr.has_cube()) return kr.cube().tiled();
  if (kr.skipped()) return true;
  return kr.has_tiling() && kr.tiling().chosen_case() >= 0 &&
         kr.tiling().chosen_case() < kr.cases_size();
}

}  // namespace

std::string TraceJson(const report::CompileReport& r) {
  const auto& facts =
      frontend::GetDeviceFacts(hw::GetProfile(r.soc().empty() ? "ascend910b" : r.soc()));
  const double us_per_cycle = 1.0 / (facts.clock_ghz * 1000.0);
  json events = json::array();
  events.push_back({{"ph", "M"},
                    {"pid", 1},
                    {"name", "process_name"},
                    {"args", {{"name", "autofuse modelled timeline (" + r.soc() + ")"}}}});
  json skipped = json::array();
  double t = 0;  // us
  int tid = 1;
  for (int k = 0; k < r.kernels_size(); ++k) {
    const auto& kr = r.kernels(k);
    const bool groups_tiled =
        kr.groups_size() > 0 && std::all_of(kr.groups().begin(), kr.groups().end(), Tiled);
    if (!Tiled(kr) && !groups_tiled) {
      skipped.push_back(
          {{"kernel", kr.name()},
           {"reason", kr.error().empty() ? "no tiling (bind every size symbol)" : kr.error()}});
      continue;
    }
    t += facts.launch_us;  // the launch gap before every kernel
    if (kr.groups_size() > 0) {
      // A multi-group kernel: its groups one after another in one launch, a SyncAll (an
      // assumption, hw::kSyncAllAssumptionUs) before each group that reads the workspace.
      for (int g = 0; g < kr.groups_size(); ++g) {
        const auto& gr = kr.groups(g);
        if (gr.skipped()) continue;  // the epilogue kFixpip did
        if (gr.after_sync_all()) {
          for (const auto& e : Meta(tid, kr.name() + " SyncAll", tid))
            events.push_back(e);
          events.push_back({{"ph", "X"},
                            {"pid", 1},
                            {"tid", tid},
                            {"name", "SyncAll"},
                            {"cat", "barrier"},
                            {"ts", t},
                            {"dur", hw::kSyncAllAssumptionUs},
                            {"args", {{"kernel", kr.name()}, {"source", "assumption"}}}});
          t += hw::kSyncAllAssumptionUs;
          ++tid;
        }
        const std::string gname = kr.name() + " group " + std::to_string(g);
        t += gr.has_cube() ? AddCubeSlices(gr, gname + " (cube)", t, us_per_cycle, tid, events)
                           : AddSlices(gr, gname, t, us_per_cycle, tid, events);
      }
      continue;
    }
    t += AddSlices(kr, kr.name(), t, us_per_cycle, tid, events);
  }
  json out = {{"traceEvents", events},
              {"displayTimeUnit", "ns"},
              {"otherData",
               {{"input", r.input()},
                {"clock_ghz", facts.clock_ghz},
                {"clock_source", facts.clock_source},
                {"launch_us", facts.launch_us},
                {"launch_source", facts.launch_source},
                {"total_us", t},
                {"skipped", skipped}}}};
  return out.dump(1) + "\n";
}

}  // namespace af::exporters
