#pragma once
// Class balance at a glance: one row per class with its colour, name, count and a bar
// proportional to its share of the rows. Painted, not built from child widgets, so that a
// hundred classes cost nothing; rows past maxRows() are summarised in one line.

#include <QStringList>
#include <QWidget>

#include <vector>

namespace dpstudio::ui {

class ClassBalanceWidget : public QWidget {
  Q_OBJECT

 public:
  explicit ClassBalanceWidget(QWidget* parent = nullptr);

  void setCounts(const QStringList& names, const std::vector<long long>& counts);
  void clear();
  int maxRows() const { return 20; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  int rowHeight() const;
  int shownRows() const;

  QStringList names_;
  std::vector<long long> counts_;
  long long total_ = 0;
};

}  // namespace dpstudio::ui
