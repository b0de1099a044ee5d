// The super-kernel part of the CompileReport (report.proto SuperKernelReport): what
// `afc estimate --superkernel` prints, kept in report.json so that the viewer's Timeline tab can
// draw the graph's kernels launched apart and as super kernels. A run that asks for it
// (Options::superkernel) but cannot have it gets a reason code instead, never a failed report.
#pragma once

#include "autofuse/pipeline/pipeline.h"

namespace af::report {
class SuperKernelReport;
}  // namespace af::report

namespace af::pipeline {

// Reason codes of SuperKernelReport.code.
inline constexpr const char* kSuperEstimated = "SUPERKERNEL_ESTIMATED";
inline constexpr const char* kSuperNotModelGraph = "SUPERKERNEL_NOT_A_MODEL_GRAPH";
inline constexpr const char* kSuperSizesUnbound = "SUPERKERNEL_SIZES_UNBOUND";
inline constexpr const char* kSuperNotModelled = "SUPERKERNEL_NOT_MODELLED";

// Fills `out` from EstimateSuper(r, options), or with the reason code when r is not a model
// graph, a size symbol is unbound, or the model cannot price a kernel.
void FillSuperKernelReport(const CompileResult& r, const Options& options,
                           report::SuperKernelReport* out);

}  // namespace af::pipeline
