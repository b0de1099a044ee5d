// Hardware profiles as data: the numbers the schedule, tiling and runtime need about an Ascend
// SoC (vector cores, Unified Buffer size, alignment, vector repeat width). Each value names its
// source next to it (libautofuse/hw/*.cc). UB size and core count are defaults only: AutoFuse
// reads them from the runtime, and so do our tiling functions (they are parameters).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace af::hw {

struct Profile {
  std::string name;      // "ascend910b"
  std::string npu_arch;  // "dav-2201"
  std::uint32_t vector_cores = 0;
  std::int64_t ub_bytes = 0;   // per vector core
  std::int64_t ub_align = 32;  // UB block / DataCopy alignment in bytes
  std::int64_t vector_repeat_bytes = 256;
  std::int64_t gm_align = 512;   // preferred GM burst alignment
  std::uint32_t max_queues = 4;  // concurrent VECIN/VECOUT queues the V1 backend allows
  std::vector<std::string> sources;
};

// The cost of one hard SyncAll() across the vector cores: an assumption (no public document gives
// its latency). Priced by the super-kernel estimate and between the groups of a multi-group
// kernel.
inline constexpr double kSyncAllAssumptionUs = 0.5;

const Profile& GetProfile(std::string_view name);  // throws af::InputError for unknown names
std::vector<std::string> ProfileNames();

}  // namespace af::hw
