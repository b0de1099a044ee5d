// Hardware profiles. Numbers are facts from public sources, cited per value.
#include "autofuse/hw/profile.h"
#include "autofuse/support/error.h"

namespace af::hw {
namespace {

std::vector<Profile> MakeProfiles() {
  std::vector<Profile> p;
  Profile a2;
  a2.name = "ascend910b";
  a2.npu_arch = "dav-2201";  // SoC map Ascend910B* -> dav-2201 (autofuse-reference.md §6.4)
  // 24 Cube + 48 Vector cores per Atlas A2 / 910B2 (anchors.md Part D); AutoFuse's e2e tests
  // call tiling with aiv_num=48 (autofuse-reference.md §5.3).
  a2.vector_cores = 48;
  // UB 192 KB per AIV (anchors.md Part D); e2e tests use ub_size=192*1024 (reference §5.3).
  a2.ub_bytes = 192 * 1024;
  a2.ub_align = 32;              // UB alignment 32 B (reference §5.3 constants table)
  a2.vector_repeat_bytes = 256;  // 128 fp16 lanes = 256 B per repeat (anchors.md Part D)
  a2.gm_align = 512;             // DataCopy wants 512 B GM alignment (anchors.md Part D)
  a2.max_queues = 4;             // PlatformV1 max concurrent VECIN/VECOUT queues (reference §4.2)
  a2.sources = {"shared/reference/anchors.md Part D (Atlas A2 physical limits)",
                "shared/reference/autofuse-reference.md §4.2, §5.3, §6.4"};
  p.push_back(a2);

  Profile a3 = a2;
  a3.name = "ascend910_93";
  // A3 = two A2-class dies per card; each die is one device with the A2 per-core limits
  // (anchors.md Part D); SoC map Ascend910_93* -> dav-2201 (reference §6.4).
  a3.sources = {"shared/reference/anchors.md Part D (A3 = two A2 dies)",
                "shared/reference/autofuse-reference.md §6.4"};
  p.push_back(a3);

  Profile v2 = a2;
  v2.name = "ascend950";
  v2.npu_arch = "dav-3510";  // Ascend950* -> dav-3510 (reference §6.4)
  // set_local_memory_size 248K-8K-32K = 212992 usable for V2 (reference §4.2 BackendSpec);
  // max queues 14 on PlatformV2 (reference §4.2).
  v2.ub_bytes = 212992;
  v2.max_queues = 14;
  v2.sources = {"shared/reference/autofuse-reference.md §4.2 (BackendSpec V2), §6.4"};
  p.push_back(v2);
  return p;
}

const std::vector<Profile>& All() {
  static const std::vector<Profile> profiles = MakeProfiles();
  return profiles;
}

}  // namespace

const Profile& GetProfile(std::string_view name) {
  for (const auto& p : All()) {
    if (p.name == name) return p;
  }
  std::string known;
  for (const auto& p : All())
    known += (known.empty() ? "" : ", ") + p.name;
  throw InputError({}, "unknown --soc '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<std::string> ProfileNames() {
  std::vector<std::string> n;
  for (const auto& p : All())
    n.push_back(p.name);
  return n;
}

}  // namespace af::hw
