// Keywords and macros of the AscendC kernel dialect mapped onto the host compiler, plus the
// visibility helpers that keep every runtime symbol private to the kernel .so it is compiled into.
#pragma once

#include <cstdint>

#if defined(AF_DEVICE_CHECK)
// The clang device check (scripts/device_check.sh, docs/toolchain.md): a kernel is only
// syntax-checked, with GM and UB pointers in real address spaces (so a plain-pointer cast of a
// GM address fails, as under CANN's compiler) and device functions annotated, so that a
// clang-query matcher can find calls from device code to functions that are not __aicore__.
// AF_CPU_RUNTIME stays undefined: the CPU entry points drop out, as under CANN's compiler.
#define __global__ __attribute__((annotate("af_global")))
#define __aicore__ __attribute__((annotate("af_aicore")))
#define __gm__ __attribute__((address_space(1)))
#define __ubuf__ __attribute__((address_space(6)))
#else
// Defined when kernels are built against autofuse's CPU runtime (guards AF_DEFINE_LAUNCH).
#define AF_CPU_RUNTIME 1

// Address-space and function qualifiers have no meaning on the CPU.
#define __global__
#define __aicore__
#define __gm__
#define __ubuf__
#endif
#define __inout_pipe__(pipe)
#define __in_pipe__(pipe)
#define __out_pipe__(pipe)

// The AI Core architecture the kernel is built for, as CANN's compiler defines it: 2201 for the
// Atlas A2/A3 (dav-2201), 3510 for the Ascend 950 (dav-3510). The toolchain passes the profile's;
// without one, the A2's. API signatures that differ between the two follow it.
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201  // NOLINT(bugprone-reserved-identifier): the compiler's name
#endif

// Kernel parameters are raw byte pointers into Global Memory.
#define GM_ADDR __gm__ uint8_t*

// Kernel types (KERNEL_TASK_TYPE_DEFAULT), tiling registration and tiling keys are in
// af_cpu/kernel_conventions.h. A mixed cube + vector launch (KERNEL_TYPE_MIX_AIC_1_2) runs AIC
// and AIV blocks, and kernels branch on the kind as on the device (`if ASCEND_IS_AIC { ... }`);
// every other launch runs its blocks as AI Vector cores.
#define ASCEND_IS_AIV (::af_cpu::CoreIsAiv())
#define ASCEND_IS_AIC (!::af_cpu::CoreIsAiv())

// The runtime's non-template machinery (af_cpu/runtime_impl.h: the launcher, block state, SyncAll,
// buffer carving) is inline in every kernel by default. With AF_CPU_PREBUILT_RUNTIME it is
// declared only, and the kernel links an object built once from runtime_impl.h (compiled with
// AF_CPU_RUNTIME_OBJECT too): the toolchain's kernel cache does this to halve each kernel compile.
#if defined(AF_CPU_PREBUILT_RUNTIME)
#define AF_CPU_RT
#else
#define AF_CPU_RT inline
#endif

// All runtime code is hidden so that two kernel .so files loaded into one process never share
// (or interpose) each other's state; only af_launch/af_abi_version are exported.
#define AF_CPU_HIDDEN_BEGIN _Pragma("GCC visibility push(hidden)")
#define AF_CPU_HIDDEN_END _Pragma("GCC visibility pop")
#define AF_EXPORT __attribute__((visibility("default")))

// Hardware pipes (global, as in the CCE dialect). The CPU executes every API synchronously in
// program order, so pipe barriers and flags only take part in the checks, never in scheduling.
enum pipe_t : uint8_t {
  PIPE_S = 0,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_MTE4,
  PIPE_MTE5,
  PIPE_V2,
  PIPE_FIX,
  PIPE_NUM,
};

enum event_t : uint8_t {
  EVENT_ID0 = 0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7,
};
