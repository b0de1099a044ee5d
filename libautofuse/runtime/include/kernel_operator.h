// The header AscendC kernels include. This is autofuse's CPU implementation of the AscendC kernel
// API (namespace AscendC): kernels compiled with the host compiler against it run block by block on
// threads, with the runtime checking hardware rules and counting data movement and vector work.
// See docs/runtime.md for what is implemented, checked and counted.
#pragma once

#include "af_cpu/autofuse_api.h"
#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/cube.h"
#include "af_cpu/data_copy.h"
#include "af_cpu/kernel_conventions.h"
#include "af_cpu/launch.h"
#include "af_cpu/launch_abi.h"
#include "af_cpu/pipe.h"
#include "af_cpu/sync.h"
#include "af_cpu/tensor.h"
#include "af_cpu/types.h"
#include "af_cpu/vec_advanced.h"
#include "af_cpu/vec_arith.h"
#include "af_cpu/vec_cast.h"
#include "af_cpu/vec_cmpsel.h"
#include "af_cpu/vec_common.h"
#include "af_cpu/vec_gather.h"
#include "af_cpu/vec_math.h"
#include "af_cpu/vec_reduce.h"
#include "af_cpu/vec_reduce_pattern.h"
// The out-of-line part of the runtime: here, unless the kernel links it prebuilt (af_cpu/config.h).
#if !defined(AF_CPU_PREBUILT_RUNTIME) || defined(AF_CPU_RUNTIME_OBJECT)
#include "af_cpu/runtime_impl.h"
#endif
