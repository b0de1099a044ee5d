// The "Flags & shapes" form: the hardware profile, the known flags (force_tiling_case, offered
// as the selected kernel's cases), any other flags as free text in AutoFuse's "--key=value;…"
// syntax, one field per size symbol, and whether to build the kernels with the host compiler.
// It is filled from the selected run; Re-run asks for a new run with what the form says (the
// main window adds it next to the old one), Cancel drops the running job.
#pragma once

#include <QString>
#include <QWidget>
#include <map>

#include "run_data.h"
#include "selection_model.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace af::viewer {

class RunManager;

class FlagsPanel : public QWidget {
  Q_OBJECT

 public:
  FlagsPanel(RunManager* runs, SelectionModel* selection, QWidget* parent = nullptr);

  // The request the form describes (for the selected run's input). False, with `error`, when a
  // field does not parse or no run is selected.
  bool request(RunRequest* out, QString* error) const;

  void setSoc(const QString& soc);
  void setForcedCase(int tcase);  // -1: let the cost model choose
  int forcedCase() const;
  void setBinding(const QString& symbol, const QString& value);
  QString binding(const QString& symbol) const;
  QStringList symbols() const;
  void setExtraFlags(const QString& text);
  void setBuild(bool build);
  void showError(const QString& text);

 signals:
  void rerunRequested();
  void cancelRequested();

 private:
  void onSelectionChanged(const Selection& now, const Selection& before);
  void loadRun();
  void loadCases();

  RunManager* runs_;
  SelectionModel* selection_;
  QLabel* input_;
  QComboBox* soc_;
  QComboBox* forced_;
  QFormLayout* bindings_form_;
  std::map<QString, QLineEdit*> bind_edits_;
  QLineEdit* flags_;
  QCheckBox* build_;
  QPushButton* rerun_;
  QPushButton* cancel_;
  QLabel* error_;
};

}  // namespace af::viewer
