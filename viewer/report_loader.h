// Reading and writing CompileReports: recognising a report.json (or a compile output folder that
// holds one) among the inputs, loading it into a Run together with the generated sources written
// next to it, finding the graph file the report was made from (for re-runs), and saving a run's
// report (optionally with its sources, in the layout `afc compile --out` writes).
#pragma once

#include <QString>
#include <memory>

#include "run_data.h"

namespace af::viewer {

enum class InputKind { kReport, kGraph };

// A folder holding report.json, or a file whose content starts with '{', is a report; anything
// else goes to the pipeline (which recognises graph files by content).
InputKind ClassifyInput(const QString& path);

// Loads report.json (or DIR/report.json) and the sources listed in it. Throws af::InputError
// naming the file and the cause. The run's id and title are left for the caller.
std::shared_ptr<Run> LoadReport(const QString& path);

// The graph file a report was made from: the recorded path as is, else relative to the report's
// folder and the folders above it. Returns the recorded path unchanged when nothing exists.
QString ResolveInput(const QString& recorded, const QString& report_path);

// The report as afc writes it (protobuf JSON, field names as in report.proto).
std::string ReportToJson(const report::CompileReport& r);

// Writes the report alone. Throws af::InputError when the file cannot be written.
void SaveReport(const Run& run, const QString& json_path);
// Writes DIR/report.json and DIR/<kernel>/<source files>, as `afc compile --out DIR` does.
void SaveReportWithSources(const Run& run, const QString& dir);

}  // namespace af::viewer
