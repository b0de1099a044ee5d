// The Stages tab of the kernel inspector: steps through the stages of one kernel as AutoFuse's
// codegen_compile_debug tree holds them (ascgraph_<NNNNN>_<graph>_<stage>_<id>.txt, read with
// the DFX importer), with Prev / Next buttons and a slider; each stage shows its file's graph text
// and what the importer reads of it (node and axis counts, or why it cannot be read). The impl
// graphs and subgraphs AutoFuse dumps under names of their own in the kernel's folder are steps
// too, in sequence order. The tree is the one the run wrote (a compile with
// --codegen_compile_debug) or the input itself when the run opened a DFX dump folder.
#pragma once

#include <QString>
#include <filesystem>
#include <optional>
#include <vector>

#include "autofuse/importers/dfx_dump.h"
#include "inspector_tab.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSlider;

namespace af::viewer {

class StageStepper : public InspectorTab {
  Q_OBJECT

 public:
  explicit StageStepper(QWidget* parent = nullptr);

  void showKernel(const RunPtr& run, int kernel, int tcase) override;
  // Shows the stages of graph `graph` in the dump tree `tree` (any level the DFX importer takes);
  // false, with the reason on the tab, when the tree or the graph is not there.
  bool setDump(const QString& tree, const QString& graph);

  int stageCount() const { return static_cast<int>(stages_.size()); }
  int currentStage() const { return current_; }
  QString stageName() const;  // "" when there are no stages
  QString stageText() const;
  QString summary() const;  // "Stage 2 of 9: AfterMergeAxis · 12 nodes, 3 axes"
  void setStage(int index);
  void next() { setStage(current_ + 1); }
  void prev() { setStage(current_ - 1); }
  QPushButton* nextButton() const { return next_; }
  QPushButton* prevButton() const { return prev_; }
  QSlider* slider() const { return slider_; }

 private:
  void clear(const QString& why);
  const importers::dfx::DfxDump* dump(const QString& tree, QString* why);

  QLabel* summary_;
  QPushButton* prev_;
  QPushButton* next_;
  QSlider* slider_;
  QPlainTextEdit* text_;
  std::vector<importers::dfx::DfxStage> stages_;  // the folder's dumps, by sequence number
  std::vector<QString> graphs_;                   // the graph each stage belongs to
  QString graph_;                                 // the kernel's graph
  int current_ = -1;
  QString tree_;                                 // the tree dump_ was read from
  std::optional<importers::dfx::DfxDump> dump_;  // cached per tree
};

}  // namespace af::viewer
