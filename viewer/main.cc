// afviewer: starts the Qt application, parses the command line and either shows the main window
// or renders a screenshot of it and exits (see app_options.h).
#include <QApplication>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app_options.h"
#include "main_window.h"
#include "run_manager.h"
#include "screenshot.h"
#include "timing_log.h"

int main(int argc, char** argv) {
  // A screenshot needs no display: use the offscreen platform unless one is configured.
  bool screenshot = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--screenshot" || a.rfind("--screenshot=", 0) == 0) screenshot = true;
  }
  if (screenshot && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") &&
      qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
  }
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("autofuse"));
  QApplication::setApplicationName(QStringLiteral("afviewer"));

  af::viewer::AppOptions options;
  QString message;
  switch (af::viewer::ParseAppOptions(QApplication::arguments(), &options, &message)) {
    case af::viewer::ParseOutcome::kExit:
      std::fprintf(stdout, "%s\n", qPrintable(message));
      return 0;
    case af::viewer::ParseOutcome::kError:
      std::fprintf(stderr, "afviewer: %s\n", qPrintable(message));
      return 2;
    case af::viewer::ParseOutcome::kRun:
      break;
  }

  af::viewer::SetTimingLog(options.timings);
  af::viewer::MainWindow window;
  if (!options.screenshot.isEmpty()) {
    QString error;
    const int code = af::viewer::RunScreenshot(&window, options, &error);
    if (!error.isEmpty()) std::fprintf(stderr, "afviewer: %s\n", qPrintable(error));
    return code;
  }
  window.resize(af::viewer::kScreenshotWidth, af::viewer::kScreenshotHeight);
  window.show();
  for (const QString& input : options.inputs)
    window.open(input, options.request);
  if (!options.inputs.isEmpty()) {
    // Apply --select/--tab/... once the first input is in.
    QObject::connect(
        window.runs(), &af::viewer::RunManager::runAdded, &window,
        [&window, options](int) {
          QString error;
          if (!af::viewer::ApplyViewOptions(&window, options, &error)) {
            std::fprintf(stderr, "afviewer: %s\n", qPrintable(error));
          }
        },
        Qt::SingleShotConnection);
  }
  return QApplication::exec();
}
