// The AscendC kernel conventions around the entry function: the kernel type a kernel declares
// (KERNEL_TASK_TYPE_DEFAULT / KERNEL_TASK_TYPE), how it reads its tiling data
// (REGISTER_TILING_DEFAULT, GET_TILING_DATA, GET_TILING_DATA_WITH_STRUCT) and which tiling case
// it runs (TILING_KEY_IS). Generated kernels use exactly these, as AutoFuse's do, so that the same
// source builds with CANN's compiler. The names and the KernelMetaType values follow CANN's public
// kernel_utils_macros.h; the bodies are ours: on the CPU the declared type is recorded so that the
// runtime can refuse a hard SyncAll in a kernel that did not declare a mixed type (CANN's
// KERNEL_TASK_TYPE_DEFAULT documentation: hard synchronisation needs KERNEL_TYPE_MIX_AIV_1_0), and
// the tiling data is copied out of the launch's registered tiling buffer (from any offset inside
// it) with a size check.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>

#include "af_cpu/config.h"
#include "af_cpu/context.h"

// The kernel types of CANN's KernelMetaType (same names and order).
enum KernelMetaType : uint8_t {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE,
  KERNEL_TYPE_MAX,
};

AF_CPU_HIDDEN_BEGIN

namespace af_cpu {

// What the kernel .so declared: its default type and per-tiling-key types (KERNEL_TYPE_MAX: none).
struct KernelTypes {
  std::mutex mu;
  KernelMetaType default_type = KERNEL_TYPE_MAX;
  std::map<uint64_t, KernelMetaType> per_key;
};

AF_CPU_RT KernelTypes& DeclaredKernelTypes();

AF_CPU_RT bool DeclareKernelType(KernelMetaType type);

AF_CPU_RT bool DeclareKernelType(uint64_t key, KernelMetaType type);

// The type that applies to the running launch: its tiling key's, else the default.
AF_CPU_RT KernelMetaType KernelTypeOf(uint64_t key);

inline bool HasHardSync(KernelMetaType type) {
  return type == KERNEL_TYPE_MIX_AIV_1_0 || type == KERNEL_TYPE_MIX_AIC_1_0 ||
         type == KERNEL_TYPE_MIX_AIC_1_1 || type == KERNEL_TYPE_MIX_AIC_1_2;
}

// Hard SyncAll() is a multi-core control instruction: the kernel must be of a mixed type.
AF_CPU_RT void CheckHardSyncAllowed(const char* api);

__aicore__ inline uint64_t CurrentTilingKey() {
  return Ctx("TILING_KEY_IS").launch->tiling_key;
}

// GET_TILING_DATA: copies the kernel's tiling struct out of the launch's tiling buffer. Like
// CurrentTilingKey it stands for device code (__aicore__), as the macros expand in the kernel.
template <typename T>
__aicore__ inline T ReadTilingData(GM_ADDR gm_tiling) {  // NOLINT(readability-non-const-parameter)
  static_assert(std::is_trivially_copyable_v<T>, "tiling data must be trivially copyable");
#if defined(AF_DEVICE_CHECK)
  const auto* tiling = (const uint8_t*)gm_tiling;  // NOLINT(google-readability-casting)
#else
  const uint8_t* tiling = gm_tiling;
#endif
  const BlockCtx& c = Ctx("GET_TILING_DATA");
  if (tiling == nullptr) Fail("GET_TILING_DATA", "the tiling argument is NULL");
  // Any address inside the launch's tiling buffer, as a GM address would be: a super kernel
  // reads each member's struct at its offset (GET_TILING_DATA_WITH_STRUCT on tiling + offset).
  const uint8_t* base = c.launch->tiling;
  const uint64_t size = c.launch->tiling_size;
  if (base == nullptr || tiling < base || tiling >= base + size) {
    Fail("GET_TILING_DATA", "the tiling argument is not inside the launch's tiling buffer");
  }
  const auto at = static_cast<uint64_t>(tiling - base);
  if (size - at < sizeof(T)) {
    Fail("GET_TILING_DATA", "the tiling buffer holds " + std::to_string(size - at) + " bytes" +
                                (at != 0 ? " from offset " + std::to_string(at) : std::string()) +
                                " but the tiling struct needs " + std::to_string(sizeof(T)));
  }
  T out;
  std::memcpy(&out, tiling, sizeof(T));
  return out;
}

}  // namespace af_cpu

AF_CPU_HIDDEN_END

#define AF_CPU_CONCAT_IMPL(a, b) a##b
#define AF_CPU_CONCAT(a, b) AF_CPU_CONCAT_IMPL(a, b)

// Valid at namespace scope (as AutoFuse writes it) and in a function body.
#define KERNEL_TASK_TYPE_DEFAULT(value)                                         \
  [[maybe_unused]] static const bool AF_CPU_CONCAT(af_kernel_type_, __LINE__) = \
      af_cpu::DeclareKernelType(value)
#define KERNEL_TASK_TYPE(key, value)                                                \
  [[maybe_unused]] static const bool AF_CPU_CONCAT(af_kernel_type_key_, __LINE__) = \
      af_cpu::DeclareKernelType(static_cast<uint64_t>(key), value)

// The tiling key of the running launch, as CANN's g_tilingKey.
#define TILING_KEY_VAR (af_cpu::CurrentTilingKey())
#define TILING_KEY_IS(k) (TILING_KEY_VAR == static_cast<uint64_t>(k))

// REGISTER_TILING_DEFAULT names the struct GET_TILING_DATA fills (in CANN the op build generates
// GET_TILING_DATA for the registered struct).
#define REGISTER_TILING_DEFAULT(tiling_struct) using AfDefaultTilingStruct = tiling_struct
#define GET_TILING_DATA(tiling_data, tiling_arg) \
  AfDefaultTilingStruct tiling_data = af_cpu::ReadTilingData<AfDefaultTilingStruct>(tiling_arg)
#define GET_TILING_DATA_WITH_STRUCT(tiling_struct, tiling_data, tiling_arg) \
  tiling_struct tiling_data = af_cpu::ReadTilingData<tiling_struct>(tiling_arg)
