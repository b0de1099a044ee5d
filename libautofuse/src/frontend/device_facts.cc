// Device facts per hardware profile (see device_facts.h). Sources are the public pages collected
// in ../shared/reference/anchors.md Part D; an entry without a public source says "assumption".
#include "autofuse/frontend/device_facts.h"

#include <vector>

#include "autofuse/support/error.h"

namespace af::frontend {
namespace {

constexpr std::int64_t kGiB = std::int64_t{1} << 30;

// No public Ascend document gives the overhead of one kernel launch (task dispatch, tiling copy,
// core start-up beyond ATT's per-core head cost). 3 us is our assumption, the same on every
// profile; docs/cost-model.md discusses what it does to the predictions.
constexpr double kLaunchAssumptionUs = 3.0;
constexpr const char* kLaunchAssumption =
    "assumption: no public source gives an Ascend kernel-launch overhead";

std::vector<std::pair<std::string, DeviceFacts>> Table() {
  std::vector<std::pair<std::string, DeviceFacts>> t;
  DeviceFacts a2;
  a2.clock_ghz = 1.8;  // Atlas A2 / 910B2 AI Core clock
  a2.clock_source = "gitcode cann/ops-nn#6033 (also cann/ops-cv#997, ops-transformer#5487)";
  a2.launch_us = kLaunchAssumptionUs;
  a2.launch_source = kLaunchAssumption;
  a2.hbm_bytes = 64 * kGiB;  // 64 GB HBM per device
  a2.hbm_source = "gitcode cann/ops-nn#6033; sglang Ascend docs (64 GB per die)";
  t.emplace_back("ascend910b", a2);
  DeviceFacts a3 = a2;  // one A3 die = one device
  a3.clock_source =
      "assumption: the A2's 1.8 GHz (A3 dies group with 910B as V220 in CANN's cpudebug "
      "libraries, cann/asc-tools; no public A3 clock found)";
  a3.hbm_source = "docs.sglang.io ascend_npu_reference (64 GB HBM per A3 die)";
  t.emplace_back("ascend910_93", a3);
  DeviceFacts v2;
  v2.clock_ghz = 1.65;  // Ascend 950PR
  v2.clock_source = "gitcode cann/ops-nn#6033; cann/ops-transformer#5487";
  v2.launch_us = kLaunchAssumptionUs;
  v2.launch_source = kLaunchAssumption;
  v2.hbm_bytes = 128 * kGiB;  // 128 GB HiBL
  v2.hbm_source = "gitcode cann/ops-nn#6033; cann/ops-transformer#5487 (128 GB HiBL)";
  t.emplace_back("ascend950", v2);
  return t;
}

}  // namespace

const DeviceFacts& GetDeviceFacts(const hw::Profile& profile) {
  static const auto table = Table();
  for (const auto& [name, facts] : table)
    if (name == profile.name) return facts;
  throw InputError(
      {}, "no device facts (clock, launch overhead, HBM) for profile '" + profile.name + "'");
}

}  // namespace af::frontend
