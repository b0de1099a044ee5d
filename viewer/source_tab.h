// The Source tab: the kernel's generated files (AscendC kernel, tiling data, tiling function,
// infer-shape, the translation unit, schedule.txt when present) in a read-only QScintilla editor
// with the C++ lexer, line numbers and search. Sources come from the compile output folder next
// to a report.json, or from memory for runs made in this session. Selecting a graph node finds
// its name in the source (names appear in the generated comments).
#pragma once

#include <QStringList>

#include "inspector_tab.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QsciScintilla;
class QsciLexerCPP;

namespace af::viewer {

class SourceTab : public InspectorTab {
  Q_OBJECT

 public:
  explicit SourceTab(QWidget* parent = nullptr);

  void showKernel(const RunPtr& run, int kernel, int tcase) override;
  void showNode(const QString& node) override;

  QStringList fileNames() const;
  QString currentFile() const;
  void setCurrentFile(const QString& name);  // by name or by suffix ("_tiling.cc")
  QString text() const;
  QsciScintilla* editor() const { return editor_; }
  // Finds the next occurrence (wrapping); false when there is none.
  bool find(const QString& text, bool whole_word = false);

 private:
  void showFile(int index);

  QComboBox* files_;
  QLineEdit* search_;
  QLabel* status_;
  QsciScintilla* editor_;
  QsciLexerCPP* lexer_;
  RunPtr run_;
  std::string kernel_name_;
  QString preferred_suffix_ = QStringLiteral("_kernel.cc");
};

}  // namespace af::viewer
