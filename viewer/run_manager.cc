#include "run_manager.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>

#include "autofuse/inputs/registry.h"
#include "autofuse/pipeline/debug_dump.h"
#include "autofuse/pipeline/flag_table.h"
#include "autofuse/pipeline/pipeline.h"
#include "autofuse/support/error.h"
#include "report.pb.h"
#include "report_loader.h"
#include "timing_log.h"

namespace af::viewer {

RunManager::RunManager(QObject* parent) : QObject(parent) {
  pool_.setMaxThreadCount(2);
}

RunManager::~RunManager() {
  pool_.waitForDone();
}

RunPtr RunManager::run(int index) const {
  if (index < 0 || index >= count()) return nullptr;
  return runs_[static_cast<std::size_t>(index)];
}

int RunManager::open(const QString& path, RunRequest request) {
  const bool is_report = ClassifyInput(path) == InputKind::kReport;
  request.input = path;
  return enqueue(path, std::move(request), is_report, nullptr);
}

int RunManager::compile(RunRequest request, RunPtr parent) {
  const QString path = request.input;
  return enqueue(path, std::move(request), false, std::move(parent));
}

void RunManager::cancel() {
  if (!busy_) return;
  ++generation_;
  queue_.clear();
  setBusy(false);
  emit progress(tr("Cancelled"));
}

int RunManager::add(std::shared_ptr<Run> run) {
  run->id = next_id_++;
  if (run->title.isEmpty()) {
    const QString shown = run->report_path.isEmpty() ? run->request.input : run->report_path;
    run->title = QStringLiteral("#%1 %2").arg(run->id).arg(QFileInfo(shown).fileName());
  }
  runs_.push_back(std::move(run));
  const int index = count() - 1;
  emit runAdded(index);
  return index;
}

int RunManager::enqueue(const QString& path, RunRequest request, bool is_report, RunPtr parent) {
  const int ticket = next_ticket_++;
  queue_.push_back({ticket, path, std::move(request), is_report, std::move(parent)});
  if (!busy_) startNext();
  return ticket;
}

void RunManager::startNext() {
  if (queue_.empty()) {
    setBusy(false);
    return;
  }
  Job job = std::move(queue_.front());
  queue_.pop_front();
  const int gen = ++generation_;
  setBusy(true);
  const QString name = QFileInfo(job.path).fileName();
  emit progress(job.is_report ? tr("Reading %1").arg(name) : tr("Compiling %1").arg(name));
  // The worker reports back through queued calls on this object; the destructor waits for the
  // pool, so `this` outlives every job.
  const int total = static_cast<int>(PipelineStages().size());
  emit step(0, job.is_report ? 0 : total);  // reading a report has no stages: busy indicator
  auto report_progress = [this, gen, total](const QString& text) {
    QMetaObject::invokeMethod(
        this,
        [this, gen, text, total] {
          if (gen != generation_ || !busy_) return;
          emit progress(text);
          const int s = StageStep(text);
          if (s >= 0) emit step(s, total);
        },
        Qt::QueuedConnection);
  };
  (void)QtConcurrent::run(&pool_, [this, gen, job, report_progress] {
    std::shared_ptr<Run> run = Execute(job.path, job.request, job.is_report, report_progress);
    QMetaObject::invokeMethod(
        this, [this, gen, job, run] { finish(gen, job, run); }, Qt::QueuedConnection);
  });
}

void RunManager::finish(int generation, const Job& job, std::shared_ptr<Run> run) {
  if (generation != generation_) return;  // cancelled
  run->ticket = job.ticket;
  run->parent = job.parent;
  emit progress(run->ok() ? tr("Done in %1 ms").arg(run->wall_ms, 0, 'f', 0)
                          : tr("Failed: %1").arg(run->error));
  LogTiming(QStringLiteral("%1: loaded in %2 ms (import, pipeline, report)")
                .arg(job.path)
                .arg(run->wall_ms, 0, 'f', 1));
  add(std::move(run));
  startNext();
}

void RunManager::setBusy(bool busy) {
  if (busy == busy_) return;
  busy_ = busy;
  emit busyChanged(busy);
}

const QStringList& RunManager::PipelineStages() {
  static const QStringList stages = {QStringLiteral("import"),   QStringLiteral("frontend"),
                                     QStringLiteral("schedule"), QStringLiteral("tiling"),
                                     QStringLiteral("codegen"),  QStringLiteral("compile"),
                                     QStringLiteral("report")};
  return stages;
}

int RunManager::StageStep(const QString& text) {
  QString stage = text;
  if (stage.endsWith(QChar(0x2026))) stage.chop(1);
  return static_cast<int>(PipelineStages().indexOf(stage));
}

std::shared_ptr<Run> RunManager::Execute(const QString& path, const RunRequest& request,
                                         bool is_report,
                                         const std::function<void(const QString&)>& progress) {
  QElapsedTimer timer;
  timer.start();
  std::shared_ptr<Run> run;
  try {
    if (is_report) {
      run = LoadReport(path);
    } else {
      run = std::make_shared<Run>();
      run->request = request;
      run->request.input = path;
      pipeline::Options o;
      o.soc = request.soc;
      o.bindings = request.bindings;
      o.flags = request.flags;
      o.build = request.build;
      o.superkernel = request.superkernel;
      o.dump = [&](const std::string& stage, const std::string&) {
        if (progress) progress(QString::fromStdString(stage) + QStringLiteral("…"));
      };
      const std::string input = path.toStdString();
      auto rep = std::make_shared<report::CompileReport>();
      // The input registry reads every format; FX graphs and PyTorch case folders go through
      // the fusion front end, and their report also carries its decisions and the model graph.
      (void)pipeline::CheckFlags(&o.flags);  // as afc: unknown names and bad values dropped
      const pipeline::CompileResult r = inputs::CompileFile(input, o);
      // --codegen_compile_debug, as afc; the Stages tab steps through it
      run->debug_tree = QString::fromStdString(pipeline::WriteDebugTree(r, o));
      run->frontend = r.front_end.has_value();
      if (progress) progress(QStringLiteral("report…"));
      inputs::FillReport(r, o, rep.get());
      for (std::size_t i = 0; i < r.kernels.size(); ++i) {
        const auto& k = r.kernels[i];
        run->origins.push_back(k.origin);
        auto& files = run->sources[rep->kernels(static_cast<int>(i)).name()];
        for (const auto& f : k.code.files) {
          files.push_back({QString::fromStdString(f.name), QString::fromStdString(f.text), false});
        }
      }
      run->report = std::move(rep);
    }
  } catch (const InputError& e) {
    run = std::make_shared<Run>();
    run->request = request;
    run->request.input = path;
    run->error = QString::fromStdString(e.what());
  } catch (const std::exception& e) {
    run = std::make_shared<Run>();
    run->request = request;
    run->request.input = path;
    run->error = QStringLiteral("internal error: ") + QString::fromStdString(e.what());
  }
  run->wall_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  return run;
}

}  // namespace af::viewer
