// Comparing two runs: kernels matched by the hint graph they were fused from (the n-th kernel of
// a graph name in one run with the n-th in the other), each side with its chosen tiling case and
// template, block_dim, UB bytes and modelled cycles, and the kernels only one run has. The
// Compare Runs dialog shows the table with two run pickers; the model is public for tests.
#pragma once

#include <QDialog>
#include <QString>
#include <vector>

#include "run_data.h"

class QComboBox;
class QLabel;
class QStandardItemModel;
class QTableView;

namespace af::viewer {

class RunManager;

struct KernelSide {
  bool present = false;
  bool tiled = false;  // the sizes were bound and a case chosen
  QString refused;     // error code when a stage refused the kernel
  QString case_name;   // short name of the chosen (or default) case
  QString template_name;
  qint64 block_dim = 0;
  qint64 ub_bytes = 0;
  double cycles = 0;
};

struct KernelDiff {
  QString graph;  // hint graph name ("name #2" for the second kernel of that graph)
  KernelSide a, b;
  bool changed() const;  // present in one run only, or case, block_dim, UB or cycles differ
};

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
