// The run manager: holds every run open in this session and produces new ones off the GUI
// thread. Opening a report, or compiling an input through the input registry
// (inputs::CompileFile + FillReport), happens in a worker, one job after the other; progress (the
// pipeline's stages, also as steps for a determinate progress bar) and the result come back as
// queued signals. Cancelling drops the waiting jobs and ignores the running job's result when it
// arrives; the UI never waits for it. Runs are never replaced: a re-run is added next to the run it
// came from.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>
#include <deque>
#include <memory>
#include <vector>

#include "run_data.h"

namespace af::viewer {

class RunManager : public QObject {
  Q_OBJECT

 public:
  explicit RunManager(QObject* parent = nullptr);
  ~RunManager() override;  // waits for a job still running in the worker

  int count() const { return static_cast<int>(runs_.size()); }
  RunPtr run(int index) const;  // null when out of range
  bool busy() const { return busy_; }

  // Opens PATH: a report.json (or a folder holding one) is read, anything else is compiled with
  // `request` (whose input becomes PATH). Returns the job's ticket (Run::ticket of its run).
  int open(const QString& path, RunRequest request);
  // Compiles request.input again with the request's profile, bindings and flags; `parent` is
  // the run it re-runs (kept for comparisons), may be null.
  int compile(RunRequest request, RunPtr parent = nullptr);
  // Drops the waiting jobs and ignores the running job's result.
  void cancel();
  // Adds a finished run and returns its index (the worker's results arrive here too).
  int add(std::shared_ptr<Run> run);

  // The pipeline's stages in order, as the progress bar counts them: import, frontend, schedule,
  // tiling, codegen, compile, report.
  static const QStringList& PipelineStages();
  // The step of a progress text ("schedule…" -> 2); -1 when it names no stage.
  static int StageStep(const QString& text);

  // The job itself, synchronous: what the worker runs (public for tests).
  static std::shared_ptr<Run> Execute(const QString& path, const RunRequest& request,
                                      bool is_report,
                                      const std::function<void(const QString&)>& progress);

 signals:
  void busyChanged(bool busy);
  void progress(const QString& text);
  // The pipeline's stage as a step: `done` of `total` (PipelineStages()) stages are behind.
  void step(int done, int total);
  void runAdded(int index);

 private:
  struct Job {
    int ticket = 0;
    QString path;
    RunRequest request;
    bool is_report = false;
    RunPtr parent;
  };
  int enqueue(const QString& path, RunRequest request, bool is_report, RunPtr parent);
  void startNext();
  void finish(int generation, const Job& job, std::shared_ptr<Run> run);
  void setBusy(bool busy);

  std::vector<RunPtr> runs_;
  std::deque<Job> queue_;
  int next_id_ = 1;
  int next_ticket_ = 1;
  int generation_ = 0;  // of the job whose result is wanted
  bool busy_ = false;
  QThreadPool pool_;
};

}  // namespace af::viewer
