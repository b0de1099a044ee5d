// A Chrome / Perfetto trace (trace-event JSON) of the modelled timeline of a CompileReport: the
// kernels of the graph one after another with a launch gap between them, one track per kernel
// and one per pipe (MTE2, MTE3, VEC, SCALAR) of each kernel, from the chosen tiling case's modelled
// cycles and the device's clock (frontend/device_facts.h), so a user sees where time goes.
#pragma once

#include <string>

namespace af::report {
class CompileReport;
}

namespace af::exporters {

// {"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}}; kernels without a tiling
// (unbound sizes, refused) are listed under otherData.skipped. Throws af::InputError for a SoC
// without device facts.
std::string TraceJson(const report::CompileReport& r);

}  // namespace af::exporters
