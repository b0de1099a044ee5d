#include "report_loader.h"

#include <google/protobuf/util/json_util.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>

#include "autofuse/support/error.h"
#include "report.pb.h"

namespace af::viewer {
namespace {

constexpr qint64 kMaxReportBytes = 512LL << 20;  // far above any real report
constexpr qint64 kMaxSourceBytes = 64LL << 20;

InputError Error(const QString& file, const QString& cause) {
  return InputError({file.toStdString(), 0, 0}, cause.toStdString());
}

QByteArray ReadAll(const QString& path, qint64 limit) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) throw Error(path, "cannot read: " + f.errorString());
  if (f.size() > limit) throw Error(path, "is too large (" + QString::number(f.size()) + " bytes)");
  return f.readAll();
}

void WriteAll(const QString& path, const QByteArray& data) {
  QSaveFile f(path);  // written to a temporary file, then renamed over the target
  if (!f.open(QIODevice::WriteOnly)) throw Error(path, "cannot write: " + f.errorString());
  if (f.write(data) != data.size() || !f.commit()) {
    throw Error(path, "cannot write: " + f.errorString());
  }
}

// Entries of source_files are "<kernel>/<file>" with generated names; anything else (absolute
// paths, "..") is refused so a report cannot make the viewer read arbitrary files.
bool SafeRelative(const QString& rel) {
  static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9_.]+/[A-Za-z0-9_.]+$"));
  return re.match(rel).hasMatch() && !rel.contains(QStringLiteral(".."));
}

}  // namespace

InputKind ClassifyInput(const QString& path) {
  const QFileInfo fi(path);
  // A folder is a report when it holds report.json; torch_compile_debug and case folders are
  // compiled.
  if (fi.isDir()) {
    return QFileInfo::exists(QDir(path).filePath(QStringLiteral("report.json")))
               ? InputKind::kReport
               : InputKind::kGraph;
  }
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return InputKind::kGraph;  // the pipeline reports the error
  const QByteArray head = f.read(4096);
  for (char c : head) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    return c == '{' ? InputKind::kReport : InputKind::kGraph;
  }
  return InputKind::kGraph;
}

std::shared_ptr<Run> LoadReport(const QString& path) {
  QString file = path;
  if (QFileInfo(path).isDir()) {
    file = QDir(path).filePath(QStringLiteral("report.json"));
    if (!QFileInfo::exists(file)) throw Error(path, "is a folder without a report.json");
  }
  const QByteArray json = ReadAll(file, kMaxReportBytes);
  auto report = std::make_shared<report::CompileReport>();
  google::protobuf::util::JsonParseOptions opts;
  opts.ignore_unknown_fields = true;  // reports from newer versions still open
  const auto st = google::protobuf::util::JsonStringToMessage(
      std::string(json.constData(), static_cast<std::size_t>(json.size())), report.get(), opts);
  if (!st.ok()) {
    throw Error(file, "is not a CompileReport: " + QString::fromStdString(st.ToString()));
  }
  auto run = std::make_shared<Run>();
  run->report_path = QFileInfo(file).absoluteFilePath();
  // Front-end runs: their reports carry the model graph and the decisions (older ones do not,
  // but afc writes fusion.json next to them, and the front end's reasons all read
  // "[CODE] message").
  bool coded = report->fallbacks_size() > 0;
  for (const auto& f : report->fallbacks())
    coded = coded && !f.reason().empty() && f.reason().front() == '[';
  run->frontend = coded || report->model_nodes_size() > 0 || report->fusion_decisions_size() > 0 ||
                  QFileInfo::exists(QFileInfo(file).dir().filePath(QStringLiteral("fusion.json")));
  run->request.input = ResolveInput(QString::fromStdString(report->input()), run->report_path);
  run->request.soc = report->soc().empty() ? std::string("ascend910b") : report->soc();
  for (const auto& [k, v] : report->flags())
    run->request.flags[k] = v;
  run->request.superkernel = report->has_superkernel();
  for (const auto& k : report->kernels()) {
    if (!k.has_tiling()) continue;
    for (const auto& [name, value] : k.tiling().bindings())
      run->request.bindings[name] = value;
  }
  const QDir dir = QFileInfo(file).absoluteDir();
  for (const auto& k : report->kernels()) {
    auto& files = run->sources[k.name()];
    QStringList rels;
    for (const auto& rel : k.source_files())
      rels << QString::fromStdString(rel);
    if (!k.source_files().empty()) {
      rels << QString::fromStdString(k.name()) + QStringLiteral("/schedule.txt");
    }
    for (const QString& rel : rels) {
      SourceFile sf;
      sf.name = rel.section('/', -1);
      const QString p = dir.filePath(rel);
      if (!SafeRelative(rel) || !QFileInfo(p).isFile()) {
        if (rel.endsWith(QStringLiteral("/schedule.txt"))) continue;  // optional
        sf.missing = true;
      } else {
        try {
          sf.text = QString::fromUtf8(ReadAll(p, kMaxSourceBytes));
        } catch (const InputError&) {
          sf.missing = true;
        }
      }
      files.push_back(sf);
    }
  }
  run->report = std::move(report);
  return run;
}

QString ResolveInput(const QString& recorded, const QString& report_path) {
  if (recorded.isEmpty()) return recorded;
  const QFileInfo as_is(recorded);
  if (as_is.isAbsolute() || as_is.exists()) return recorded;
  QDir dir = QFileInfo(report_path).absoluteDir();
  for (int up = 0; up < 6; ++up) {
    const QString candidate = dir.filePath(recorded);
    if (QFileInfo(candidate).isFile()) return QDir::cleanPath(candidate);
    if (!dir.cdUp()) break;
  }
  return recorded;
}

std::string ReportToJson(const report::CompileReport& r) {
  std::string json;
  google::protobuf::util::JsonPrintOptions jo;
  jo.add_whitespace = true;
  jo.preserve_proto_field_names = true;
  const auto st = google::protobuf::util::MessageToJsonString(r, &json, jo);
  if (!st.ok()) throw std::runtime_error("report to JSON: " + st.ToString());
  return json;
}

void SaveReport(const Run& run, const QString& json_path) {
  if (!run.report) throw Error(json_path, "the run has no report (it failed)");
  const std::string json = ReportToJson(*run.report);
  WriteAll(json_path, QByteArray::fromStdString(json));
}

void SaveReportWithSources(const Run& run, const QString& dir_path) {
  if (!run.report) throw Error(dir_path, "the run has no report (it failed)");
  QDir dir(dir_path);
  if (!dir.mkpath(QStringLiteral("."))) throw Error(dir_path, "cannot create the folder");
  for (const auto& [kernel, files] : run.sources) {
    const QString kname = QString::fromStdString(kernel);
    if (!SafeRelative(kname + "/x")) continue;
    if (!dir.mkpath(kname)) throw Error(dir.filePath(kname), "cannot create the folder");
    for (const auto& f : files) {
      if (f.missing || !SafeRelative(kname + "/" + f.name)) continue;
      WriteAll(dir.filePath(kname + "/" + f.name), f.text.toUtf8());
    }
  }
  SaveReport(run, dir.filePath(QStringLiteral("report.json")));
}

}  // namespace af::viewer
