// Inductor's grouping beside ours as afc prints it (see grouping_summary.h).
#include "autofuse/inputs/grouping_summary.h"

#include <filesystem>
#include <iostream>

#include "autofuse/inputs/inductor_compare.h"
#include "autofuse/pipeline/report.h"
#include "autofuse/support/error.h"
#include "report.pb.h"

namespace af::inputs {

using nlohmann::json;

json GroupingSummary(const json& groupings) {
  json out = json::array();
  for (const auto& g : groupings) {
    json d = json::array();
    for (const auto& x : g.value("diffs", json::array()))
      d.push_back({{"kind", x.value("kind", "")},
                   {"inductor", x.value("inductor_groups", json::array())},
                   {"ours", x.value("our_groups", json::array())},
                   {"codes", x.value("codes", json::array())}});
    out.push_back({{"model", g.value("model", "")},
                   {"inductor_kernels", g.value("inductor_kernels", 0)},
                   {"our_kernels", g.value("our_kernels", 0)},
                   {"identical", g.value("identical", 0)},
                   {"split", g.value("split", 0)},
                   {"merged", g.value("merged", 0)},
                   {"inductor_only_nodes", g.value("inductor_only_nodes", 0)},
                   {"ours_only_nodes", g.value("ours_only_nodes", 0)},
                   {"diffs", d}});
  }
  return out;
}

void PrintGroupingSummary(const json& groupings, const std::string& indent) {
  auto join = [](const json& a, const char* sep) {
    std::string s;
    for (const auto& x : a)
      s += (s.empty() ? "" : sep) + x.get<std::string>();
    return s;
  };
  for (const auto& g : groupings) {
    std::cout << indent << "Inductor vs autofuse grouping ("
              << std::filesystem::path(g.value("model", "")).filename().string() << "): Inductor "
              << g.value("inductor_kernels", 0) << " kernel(s), ours " << g.value("our_kernels", 0)
              << "; " << g.value("identical", 0) << " identical, " << g.value("split", 0)
              << " split by us, " << g.value("merged", 0) << " merged by us; "
              << g.value("inductor_only_nodes", 0) << " node(s) only Inductor fuses, "
              << g.value("ours_only_nodes", 0) << " only we fuse\n";
    for (const auto& x : g.value("diffs", json::array())) {
      std::cout << indent << "  " << x.value("kind", "") << ": "
                << join(x.value("inductor_groups", json::array()), " + ") << " -> "
                << join(x.value("our_groups", json::array()), " + ");
      if (const auto codes = x.value("codes", json::array()); !codes.empty())
        std::cout << " [" << join(codes, ", ") << "]";
      std::cout << ": " << join(x.value("nodes", json::array()), " ") << "\n";
    }
    for (const auto& n : g.value("notes", json::array()))
      if (n.get<std::string>().rfind("not compared", 0) == 0)
        std::cout << indent << "  " << n.get<std::string>() << "\n";
  }
}

json FolderGroupings(const std::string& model_dir) {
  report::CompileReport rep;
  try {
    if (!CompareWithInductor(model_dir, pipeline::Options{}, rep.add_framework_groupings()))
      return json::array();
  } catch (const InputError& e) {
    return json::array(
        {{{"model", model_dir}, {"notes", {std::string("not compared: ") + e.what()}}}});
  }
  const json j = json::parse(pipeline::ReportToJson(rep), nullptr, false);
  return j.is_discarded() ? json::array() : j.value("framework_groupings", json::array());
}

}  // namespace af::inputs
