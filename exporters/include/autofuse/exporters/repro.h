// A stand-alone reproducer folder for one compiled kernel: the generated sources as codegen wrote
// them (kernel, tiling data, tiling function, infer-shape), a copy of every CPU runtime header,
// seeded inputs and the reference interpreter's expected outputs (.npy for people, .bin raw bytes
// for main.cc), a main.cc that computes the tiling, launches the kernel and compares, and a
// CMakeLists.txt: `cmake -S DIR -B DIR/build && cmake --build DIR/build && DIR/build/repro` prints
// PASS. A bisheng.txt gives the NPU compile line for a CANN host.
#pragma once

#include <filesystem>

#include "autofuse/pipeline/pipeline.h"

namespace af::exporters {

// Writes the folder `dir` (which must not exist or be empty) for kernel `k` of a compile with
// `options` (every size symbol bound). Throws af::InputError naming the cause.
void WriteRepro(const pipeline::Kernel& k, const pipeline::Options& options,
                const std::filesystem::path& dir, std::uint64_t seed = 0);

}  // namespace af::exporters
