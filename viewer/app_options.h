// afviewer's command line:
//   afviewer [--bind s0=…] [--flags "--k=v;…"] [--soc NAME] [--build] [--superkernel] [INPUT…]
//   afviewer --screenshot FILE [--select KERNEL] [--case N] [--tab NAME] [--graph KIND]
//            [--node NAME] [--scale F] [--bind …] INPUT
// INPUT is anything afc opens, or a report.json (or a folder holding one). With --screenshot the
// window (1600×1000) is rendered to FILE once the pipeline and the graph layout are done, and the
// program exits: tests and the documentation's pictures use it.
#pragma once

#include <QString>
#include <QStringList>

#include "run_data.h"

namespace af::viewer {

struct AppOptions {
  QStringList inputs;
  RunRequest request;    // soc, bindings, flags, build, superkernel for the inputs
  QString screenshot;    // PNG file; empty: interactive
  QString select;        // kernel name, graph name or index
  int tcase = -1;        // tiling case to select
  QString tab;           // inspector tab
  QString graph;         // hint | normalized | impl | model
  QString node;          // node to select
  double scale = 1.0;    // the screenshot is scaled by this (0.25 … 1), e.g. for documentation
  bool timings = false;  // --timings: log pipeline, layout and paint times
  QString layout = QStringLiteral("auto");    // auto | dot | layered
  QString grouping = QStringLiteral("ours");  // ours | inductor (model graph clusters)
  QString model;  // model folder name or index (torch_compile_debug runs)
};

enum class ParseOutcome { kRun, kExit, kError };

// Parses arguments (args[0] is the program). kExit: print `message` (help, version) and exit 0;
// kError: print `message` and exit 2.
ParseOutcome ParseAppOptions(const QStringList& args, AppOptions* out, QString* message);

}  // namespace af::viewer
