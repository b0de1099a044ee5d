// Graphviz rendering (see render.h).
#include "autofuse/exporters/render.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <mutex>

#include "autofuse/support/error.h"

namespace af::exporters {

std::string RenderDot(const std::string& dot, const std::string& format) {
  if (format != "svg" && format != "png") {
    throw InputError({}, "cannot render to '" + format + "' (svg or png)");
  }
  static std::mutex mu;  // gvc's contexts are not safe to share between threads
  const std::lock_guard<std::mutex> lock(mu);
  static GVC_t* gvc = gvContext();
  Agraph_t* g = agmemread(dot.c_str());
  if (g == nullptr) throw InputError({}, "Graphviz could not read the DOT text");
  if (gvLayout(gvc, g, "dot") != 0) {
    agclose(g);
    throw InputError({}, "Graphviz could not lay the graph out");
  }
  char* data = nullptr;
  unsigned int length = 0;
  const int rc = gvRenderData(gvc, g, format.c_str(), &data, &length);
  std::string out;
  if (rc == 0 && data != nullptr) out.assign(data, length);
  if (data != nullptr) gvFreeRenderData(data);
  gvFreeLayout(gvc, g);
  agclose(g);
  if (rc != 0 || out.empty()) {
    throw InputError({}, "Graphviz has no '" + format + "' renderer here (its plugins)");
  }
  return out;
}

}  // namespace af::exporters
