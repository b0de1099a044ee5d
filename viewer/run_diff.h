// Comparing two runs: kernels matched by the hint graph they were fused from (the n-th kernel of
// a graph name in one run with the n-th in the other), each side with its chosen tiling case and
// template, block_dim, UB bytes and modelled cycles, and the kernels only one run has (the
// comparison is reportdiff's, which `afc diff` prints too). The Compare Runs dialog shows the
// table with two run pickers; the model is public for tests.
#pragma once

#include <QDialog>
#include <QString>
#include <vector>

#include "report_diff.h"
#include "run_data.h"

class QComboBox;
class QLabel;
class QStandardItemModel;
class QTableView;

namespace af::viewer {

class RunManager;

// The comparison itself is the report library's (tools/report_diff, shared with `afc diff`).
using KernelSide = reportdiff::KernelSide;
using KernelDiff = reportdiff::KernelDiff;

// The kernels of two runs (a failed run has none).
std::vector<KernelDiff> DiffRuns(const Run& a, const Run& b);

class CompareDialog : public QDialog {
  Q_OBJECT

 public:
  enum Column {
    kKernel = 0,
    kCaseA,
    kCaseB,
    kBlockA,
    kBlockB,
    kBlockDelta,
    kUbA,
    kUbB,
    kUbDelta,
    kCyclesA,
    kCyclesB,
    kCyclesDelta,
    kColumns
  };

  CompareDialog(RunManager* runs, int a, int b, QWidget* parent = nullptr);

  void setRuns(int a, int b);
  int runA() const;
  int runB() const;
  QStandardItemModel* model() const { return model_; }
  const std::vector<KernelDiff>& diff() const { return diff_; }
  QString summary() const;

 private:
  void refill();
  void fillCombo(QComboBox* box);

  RunManager* runs_;
  QComboBox* a_;
  QComboBox* b_;
  QLabel* summary_;
  QStandardItemModel* model_;
  QTableView* view_;
  std::vector<KernelDiff> diff_;
};

}  // namespace af::viewer
