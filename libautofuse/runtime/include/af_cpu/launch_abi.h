/* The plain C ABI between a kernel .so built against the CPU runtime and the runner that dlopens
 * it: the runner fills an AfLaunchArgs and calls the exported `int af_launch(AfLaunchArgs*)`.
 * The generated tiling function's symbols, signatures and the tiling data's 8-byte header are
 * declared here too, once, for the runner (pipeline/run.cc), the code generator and the tests.
 * C and C++ compatible; no runtime headers needed on the runner side. */
#ifndef AF_CPU_LAUNCH_ABI_H_
#define AF_CPU_LAUNCH_ABI_H_

#include <cstdint>

#ifdef __cplusplus
extern "C" {
#endif

/* A C header: typedefs, not using-declarations. */
/* NOLINTBEGIN(modernize-use-using, modernize-redundant-void-arg) */

#define AF_LAUNCH_ABI_VERSION 1u

/* af_launch status codes. */
#define AF_STATUS_OK 0
#define AF_STATUS_VIOLATION 1 /* the kernel broke a hardware rule; see error/failed_block */
#define AF_STATUS_BAD_ARGS 2  /* the AfLaunchArgs are inconsistent */
#define AF_STATUS_INTERNAL 3  /* the runtime itself failed (e.g. could not start threads) */

/* Calls and vector repeats of one AscendC API, summed over all blocks. */
typedef struct AfApiCount {
  char name[48];
  uint64_t calls;
  uint64_t repeats;
} AfApiCount;

typedef struct AfLaunchArgs {
  /* ---- inputs ---- */
  uint32_t abi_version;     /* must be AF_LAUNCH_ABI_VERSION */
  uint32_t block_dim;       /* number of blocks (GetBlockNum) */
  uint64_t ub_bytes;        /* Unified Buffer bytes per block (multiple of 32) */
  uint32_t num_gm;          /* kernel GM arguments before workspace and tiling */
  uint32_t max_threads;     /* blocks run concurrently; 0 = min(block_dim, 256) */
  uint8_t** gm_ptrs;        /* [num_gm] GM buffers, in kernel parameter order */
  const uint64_t* gm_sizes; /* [num_gm] their sizes in bytes */
  uint8_t* workspace;       /* may be NULL */
  uint64_t workspace_size;
  uint8_t* tiling; /* may be NULL */
  uint64_t tiling_size;
  const char* kernel_name; /* for messages; NULL = the kernel's symbol name */

  /* Optional per-block outputs, each NULL or an array of block_dim elements. */
  uint64_t* block_mte2_bytes;
  uint64_t* block_mte3_bytes;
  uint64_t* block_vec_repeats;
  uint64_t* block_ub_peak_bytes;

  /* Optional per-API counters: up to api_counts_cap entries are written to api_counts;
   * api_counts_len receives the number of distinct APIs called (may exceed the capacity). */
  AfApiCount* api_counts;
  uint32_t api_counts_cap;
  uint32_t api_counts_len;

  /* ---- outputs ---- */
  int32_t status;         /* AF_STATUS_* */
  int32_t failed_block;   /* block of the first violation, -1 if none */
  char error[1024];       /* first violation: "kernel 'k' block i/n: API: details" */
  uint64_t mte2_bytes;    /* GM -> UB payload bytes, all blocks */
  uint64_t mte3_bytes;    /* UB -> GM payload bytes, all blocks */
  uint64_t vec_repeats;   /* vector repeats, all blocks */
  uint64_t ub_peak_bytes; /* largest UB allocation of any block */
} AfLaunchArgs;

/* The symbols a kernel .so exports (defined by AF_DEFINE_LAUNCH in af_cpu/launch.h). */
typedef int (*AfLaunchFn)(AfLaunchArgs* args);
typedef uint32_t (*AfAbiVersionFn)(void);
/* ---- The tiling function (codegen/codegen.cc writes it into every kernel's sources) ----
 * syms: the kernel's size symbols in tiling-data order (af_num_symbols of them); core_num and
 * ub_size: the device; forced_case / forced_template: -1, or the tiling case / template index
 * to use (--force_tiling_case, --force_schedule_result); out: out_size bytes receiving the
 * tiling data (af_tiling_data_size). Returns 0, or non-zero when no case fits. */
#define AF_COMPUTE_TILING_SYMBOL "af_compute_tiling_t"
#define AF_COMPUTE_TILING_CASE_SYMBOL "af_compute_tiling" /* without forced_template */
#define AF_TILING_SIZE_SYMBOL "af_tiling_data_size"
#define AF_WORKSPACE_BYTES_SYMBOL "af_workspace_bytes"
#define AF_NUM_SYMBOLS_SYMBOL "af_num_symbols"
typedef int (*AfComputeTilingFn)(const int64_t* syms, uint32_t nsyms, uint32_t core_num,
                                 uint64_t ub_size, int32_t forced_case, int32_t forced_template,
                                 void* out, uint64_t out_size);
typedef int (*AfComputeTilingCaseFn)(const int64_t* syms, uint32_t nsyms, uint32_t core_num,
                                     uint64_t ub_size, int32_t forced_case, void* out,
                                     uint64_t out_size);
/* Kernels of several groups or members (multi-group kernels, super kernels: codegen/superkernel.cc)
 * also export this: forced_cases[i] (-1: the solver's choice) forces group / member i's tiling
 * case (--force_tiling_case=gG_N,...); n_forced is their number (the kernel's groups) or 0 (none
 * forced). af_compute_tiling_t(..., forced_case, ...) forces every group to forced_case. */
#define AF_COMPUTE_GROUP_TILING_SYMBOL "af_compute_group_tiling"
typedef int (*AfComputeGroupTilingFn)(const int64_t* syms, uint32_t nsyms, uint32_t core_num,
                                      uint64_t ub_size, const int32_t* forced_cases,
                                      uint32_t n_forced, int32_t forced_template, void* out,
                                      uint64_t out_size);
typedef uint64_t (*AfTilingDataSizeFn)(void);
typedef uint64_t (*AfWorkspaceBytesFn)(const void* tiling); /* GM workspace the tiling needs */
typedef uint32_t (*AfNumSymbolsFn)(void);

/* Every tiling data starts with this header: the launch's block count and the chosen tiling
 * case (the kernel's tiling key). */
typedef struct AfTilingHeader {
  uint32_t block_dim;
  uint32_t tiling_key;
} AfTilingHeader;
/* NOLINTEND(modernize-use-using, modernize-redundant-void-arg) */

#ifdef __cplusplus
}
#endif

#endif /* AF_CPU_LAUNCH_ABI_H_ */
