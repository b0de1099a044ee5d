#include "source_tab.h"

#include <Qsci/qscilexercpp.h>
#include <Qsci/qsciscintilla.h>

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "report.pb.h"

namespace af::viewer {
namespace {

const std::vector<SourceFile>* FilesOf(const RunPtr& run, const std::string& kernel) {
  if (!run) return nullptr;
  const auto it = run->sources.find(kernel);
  return it == run->sources.end() ? nullptr : &it->second;
}

// The part of a generated file name after the kernel name: "_kernel.cc", "_tiling.cc", ...
QString Suffix(const QString& file, const std::string& kernel) {
  const QString k = QString::fromStdString(kernel);
  return file.startsWith(k) ? file.mid(k.size()) : file;
}

}  // namespace

SourceTab::SourceTab(QWidget* parent) : InspectorTab(parent) {
  files_ = new QComboBox(this);
  files_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  search_ = new QLineEdit(this);
  search_->setPlaceholderText(tr("Find in source…"));
  search_->setClearButtonEnabled(true);
  auto* next = new QToolButton(this);
  next->setText(tr("Next"));
  status_ = new QLabel(this);
  editor_ = new QsciScintilla(this);
  lexer_ = new QsciLexerCPP(editor_);
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  mono.setPointSizeF(9);
  lexer_->setDefaultFont(mono);
  lexer_->setFont(mono);
  editor_->setFont(mono);
  editor_->setReadOnly(true);
  editor_->setUtf8(true);
  editor_->setMarginType(0, QsciScintilla::NumberMargin);
  editor_->setMarginLineNumbers(0, true);
  editor_->setMarginsFont(mono);
  editor_->setMarginWidth(0, QStringLiteral("000000"));
  editor_->setCaretLineVisible(true);
  editor_->setCaretLineBackgroundColor(QColor(0xf2, 0xf6, 0xfc));
  editor_->setWrapMode(QsciScintilla::WrapNone);
  editor_->setBraceMatching(QsciScintilla::SloppyBraceMatch);

  auto* bar = new QHBoxLayout;
  bar->addWidget(files_);
  bar->addWidget(search_, 1);
  bar->addWidget(next);
  bar->addWidget(status_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(editor_, 1);

  connect(files_, &QComboBox::currentIndexChanged, this, [this](int i) {
    showFile(i);
    if (i >= 0) preferred_suffix_ = Suffix(files_->itemText(i), kernel_name_);
  });
  connect(search_, &QLineEdit::returnPressed, this, [this] { find(search_->text()); });
  connect(next, &QToolButton::clicked, this, [this] { find(search_->text()); });
  showKernel(nullptr, -1, -1);
}

void SourceTab::showKernel(const RunPtr& run, int kernel, int) {
  run_ = run;
  const report::KernelReport* k = run ? run->kernel(kernel) : nullptr;
  kernel_name_ = k != nullptr ? k->name() : std::string();
  const QString keep = preferred_suffix_;
  files_->blockSignals(true);
  files_->clear();
  if (const auto* files = FilesOf(run_, kernel_name_)) {
    for (const auto& f : *files)
      files_->addItem(f.name);
  }
  files_->blockSignals(false);
  status_->clear();
  if (files_->count() == 0) {
    editor_->setLexer(nullptr);
    editor_->setText(k == nullptr ? tr("// Select a kernel to read its generated sources.")
                     : !k->error_code().empty()
                         ? tr("// No sources: the kernel was refused (%1).")
                               .arg(QString::fromStdString(k->error_code()))
                         : tr("// No generated sources for this kernel in the report."));
    return;
  }
  preferred_suffix_ = keep;
  setCurrentFile(preferred_suffix_);
}

void SourceTab::setCurrentFile(const QString& name) {
  int index = files_->findText(name);
  if (index < 0) {
    for (int i = 0; i < files_->count(); ++i) {
      if (files_->itemText(i).endsWith(name)) {
        index = i;
        break;
      }
    }
  }
  if (index < 0) index = 0;
  if (files_->currentIndex() == index) {
    showFile(index);
  } else {
    files_->setCurrentIndex(index);
  }
}

void SourceTab::showFile(int index) {
  const auto* files = FilesOf(run_, kernel_name_);
  if (files == nullptr || index < 0 || index >= static_cast<int>(files->size())) return;
  const SourceFile& f = (*files)[static_cast<std::size_t>(index)];
  const bool code = f.name.endsWith(QStringLiteral(".cc")) || f.name.endsWith(QStringLiteral(".h"));
  editor_->setLexer(code ? lexer_ : nullptr);
  if (f.missing) {
    editor_->setText(tr("// %1 is listed in the report but was not found next to it.\n"
                        "// Re-run (Flags & shapes) to generate it again in memory.\n")
                         .arg(f.name));
  } else {
    editor_->setText(f.text);
  }
  status_->setText(tr("%n line(s)", "", editor_->lines()));
}

void SourceTab::showNode(const QString& node) {
  if (node.isEmpty() || files_->count() == 0) return;
  editor_->setCursorPosition(0, 0);
  if (find(node, true)) status_->setText(tr("'%1' found").arg(node));
}

QStringList SourceTab::fileNames() const {
  QStringList names;
  for (int i = 0; i < files_->count(); ++i)
    names << files_->itemText(i);
  return names;
}

QString SourceTab::currentFile() const {
  return files_->currentText();
}

QString SourceTab::text() const {
  return editor_->text();
}

bool SourceTab::find(const QString& text, bool whole_word) {
  if (text.isEmpty()) return false;
  const bool found = editor_->findFirst(text, /*re=*/false, /*cs=*/false, whole_word,
                                        /*wrap=*/true, /*forward=*/true);
  if (!found) {
    status_->setText(tr("'%1' not found").arg(text));
    return false;
  }
  // Bring the match to the middle of the editor rather than its last line.
  int line = 0;
  int index = 0;
  editor_->getCursorPosition(&line, &index);
  const long on_screen = editor_->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN);
  editor_->setFirstVisibleLine(std::max(0, line - static_cast<int>(on_screen / 2)));
  return true;
}

}  // namespace af::viewer
