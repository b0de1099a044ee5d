// Renders DOT text to SVG or PNG through Graphviz's gvc library (dot layout), in memory.
#pragma once

#include <string>

namespace af::exporters {

// `format`: "svg" or "png". Throws af::InputError when Graphviz cannot read or render the graph.
std::string RenderDot(const std::string& dot, const std::string& format);

}  // namespace af::exporters
