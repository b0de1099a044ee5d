// `afc estimate` on Inductor dumps (torch_compile_debug folders at any level, ir_post_fusion.txt):
// each of Inductor's fused groups that lowers to a hint graph is a fused kernel; its parts are its
// scheduler nodes, each lowered alone (from ir_pre_fusion.txt, else from the post-fusion file's
// sub-node dumps). Priced like model graphs (pipeline/estimate.h). Groups that cannot be
// estimated are listed under `skipped` with the reason.
#pragma once

#include <string>

#include "autofuse/pipeline/estimate.h"

namespace af::inputs {

// Throws af::InputError when the path holds no post-fusion IR or a lowered group has unbound
// sizes.
pipeline::GraphEstimate EstimateInductor(const std::string& path, const pipeline::Options& options,
                                         const pipeline::EstimateModel& model = {});

}  // namespace af::inputs
