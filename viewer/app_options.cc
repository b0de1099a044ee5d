#include "app_options.h"

#include <QCommandLineParser>

#include "autofuse/hw/profile.h"
#include "autofuse/pipeline/pipeline.h"
#include "autofuse/support/error.h"
#include "kernel_inspector.h"

namespace af::viewer {

ParseOutcome ParseAppOptions(const QStringList& args, AppOptions* out, QString* message) {
  QCommandLineParser p;
  p.setApplicationDescription(
      QStringLiteral("afviewer — inspect what autofuse fused, how it split the axes, what each "
                     "tiling case costs and what code came out."));
  const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                QStringLiteral("Show this help."));
  const QCommandLineOption version(QStringLiteral("version"), QStringLiteral("Show the version."));
  const QCommandLineOption bind(QStringLiteral("bind"),
                                QStringLiteral("Bind size symbols, e.g. s0=37,s1=1031."),
                                QStringLiteral("BINDINGS"));
  const QCommandLineOption flags(QStringLiteral("flags"),
                                 QStringLiteral("AutoFuse flags: \"--key=value;--k2=v2\"."),
                                 QStringLiteral("FLAGS"));
  const QCommandLineOption soc(QStringLiteral("soc"),
                               QStringLiteral("Hardware profile: ascend910b | ascend910_93 | "
                                              "ascend950."),
                               QStringLiteral("NAME"), QStringLiteral("ascend910b"));
  const QCommandLineOption build(QStringLiteral("build"),
                                 QStringLiteral("Also build the kernels with the host compiler."));
  const QCommandLineOption superkernel(
      QStringLiteral("superkernel"),
      QStringLiteral("Model graphs: also estimate super kernels (the Timeline tab)."));
  const QCommandLineOption shot(QStringLiteral("screenshot"),
                                QStringLiteral("Render the window to FILE (PNG) and exit."),
                                QStringLiteral("FILE"));
  const QCommandLineOption select(QStringLiteral("select"),
                                  QStringLiteral("Select a kernel: its name, its graph's name or "
                                                 "its index."),
                                  QStringLiteral("KERNEL"));
  const QCommandLineOption tcase(QStringLiteral("case"),
                                 QStringLiteral("Select a tiling case of the kernel (index)."),
                                 QStringLiteral("N"));
  const QCommandLineOption tab(QStringLiteral("tab"),
                               QStringLiteral("Inspector tab: axes | templates | cost | source | "
                                              "fusion."),
                               QStringLiteral("NAME"));
  const QCommandLineOption graph(QStringLiteral("graph"),
                                 QStringLiteral("Graph to draw: hint | normalized | impl | model."),
                                 QStringLiteral("KIND"));
  const QCommandLineOption node(QStringLiteral("node"),
                                QStringLiteral("Select a node of the drawn graph."),
                                QStringLiteral("NAME"));
  const QCommandLineOption scale(QStringLiteral("scale"),
                                 QStringLiteral("Scale the screenshot by F (0.25 to 1)."),
                                 QStringLiteral("F"), QStringLiteral("1"));
  const QCommandLineOption timings(
      QStringLiteral("timings"),
      QStringLiteral("Log the viewer's timings (pipeline, layout, first paint) to stderr."));
  const QCommandLineOption layout(
      QStringLiteral("layout"),
      QStringLiteral("Graph layout engine: auto (dot up to 400 nodes, layered beyond) | dot | "
                     "layered."),
      QStringLiteral("ENGINE"), QStringLiteral("auto"));
  const QCommandLineOption grouping(
      QStringLiteral("grouping"),
      QStringLiteral("Kernels drawn in the model graph: ours | inductor (Inductor's own groups)."),
      QStringLiteral("WHICH"), QStringLiteral("ours"));
  const QCommandLineOption model(
      QStringLiteral("model"),
      QStringLiteral("Model graph of a torch_compile_debug run to draw: its folder name (e.g. "
                     "model__0_forward_1.0) or index."),
      QStringLiteral("MODEL"));
  p.addOptions({help, version, bind, flags, soc, build, superkernel, shot, select, tcase, tab,
                graph, node, scale, timings, layout, grouping, model});
  p.addPositionalArgument(QStringLiteral("INPUT"),
                          QStringLiteral("Graph file (AscGraphDef text, GE graph text, readable "
                                         "text) or report.json."),
                          QStringLiteral("[INPUT…]"));
  if (!p.parse(args)) {
    *message = p.errorText();
    return ParseOutcome::kError;
  }
  if (p.isSet(help)) {
    *message = p.helpText();
    return ParseOutcome::kExit;
  }
  if (p.isSet(version)) {
    *message = QStringLiteral("afviewer %1").arg(QStringLiteral(AF_VERSION));
    return ParseOutcome::kExit;
  }
  AppOptions o;
  o.inputs = p.positionalArguments();
  o.request.soc = p.value(soc).toStdString();
  o.request.build = p.isSet(build);
  o.request.superkernel = p.isSet(superkernel);
  try {
    (void)hw::GetProfile(o.request.soc);
    pipeline::ParseBindings(p.value(bind).toStdString(), &o.request.bindings);
    pipeline::ParseFlags(p.value(flags).toStdString(), &o.request.flags);
  } catch (const InputError& e) {
    *message = QString::fromStdString(e.what());
    return ParseOutcome::kError;
  }
  o.screenshot = p.value(shot);
  o.select = p.value(select);
  o.tab = p.value(tab).toLower();
  o.graph = p.value(graph).toLower();
  o.node = p.value(node);
  o.timings = p.isSet(timings);
  o.model = p.value(model);
  o.layout = p.value(layout).toLower();
  o.grouping = p.value(grouping).toLower();
  if (o.layout != QStringLiteral("auto") && o.layout != QStringLiteral("dot") &&
      o.layout != QStringLiteral("layered")) {
    *message = QStringLiteral("--layout must be auto, dot or layered, not '%1'").arg(o.layout);
    return ParseOutcome::kError;
  }
  if (o.grouping != QStringLiteral("ours") && o.grouping != QStringLiteral("inductor")) {
    *message = QStringLiteral("--grouping must be ours or inductor, not '%1'").arg(o.grouping);
    return ParseOutcome::kError;
  }
  if (p.isSet(tcase)) {
    bool ok = false;
    o.tcase = p.value(tcase).toInt(&ok);
    if (!ok || o.tcase < 0) {
      *message = QStringLiteral("--case needs a case index, not '%1'").arg(p.value(tcase));
      return ParseOutcome::kError;
    }
  }
  {
    bool ok = false;
    o.scale = p.value(scale).toDouble(&ok);
    if (!ok || o.scale < 0.25 || o.scale > 1.0) {
      *message = QStringLiteral("--scale must be between 0.25 and 1, not '%1'").arg(p.value(scale));
      return ParseOutcome::kError;
    }
  }
  if (!o.tab.isEmpty() && !KernelInspector::TabNames().contains(o.tab)) {
    *message = QStringLiteral("--tab must be one of %1, not '%2'")
                   .arg(KernelInspector::TabNames().join(", "), o.tab);
    return ParseOutcome::kError;
  }
  static const QStringList kGraphs = {QStringLiteral("hint"), QStringLiteral("normalized"),
                                      QStringLiteral("normalised"), QStringLiteral("impl"),
                                      QStringLiteral("model")};
  if (!o.graph.isEmpty() && !kGraphs.contains(o.graph)) {
    *message =
        QStringLiteral("--graph must be hint, normalized, impl or model, not '%1'").arg(o.graph);
    return ParseOutcome::kError;
  }
  if (!o.screenshot.isEmpty() && o.inputs.size() != 1) {
    *message = QStringLiteral("--screenshot needs exactly one INPUT");
    return ParseOutcome::kError;
  }
  *out = std::move(o);
  return ParseOutcome::kRun;
}

}  // namespace af::viewer
