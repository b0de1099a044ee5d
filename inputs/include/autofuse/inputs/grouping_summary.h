// Inductor's grouping beside ours as afc prints it: a compact JSON summary per model folder
// (for --json output), its text form, and the comparison for a model folder with the default
// options (`afc inspect` on a torch_compile_debug folder). Read from the CompileReport's
// framework_groupings in report.json's form.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace af::inputs {

nlohmann::json GroupingSummary(const nlohmann::json& groupings);
void PrintGroupingSummary(const nlohmann::json& groupings, const std::string& indent);
// framework_groupings for a model folder: Inductor's groups against our front end's decisions
// with the default options (an empty array when the folder lacks one side).
nlohmann::json FolderGroupings(const std::string& model_dir);

}  // namespace af::inputs
