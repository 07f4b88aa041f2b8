#pragma once
// A protocol transcript as a sequence diagram (issue 16): one vertical lane per participant
// (Charlie, P1..PK, the public board), one horizontal arrow per message from its sender's
// lane to its receiver's, in the order sent, with a band naming each stage where it begins.
// Click a message (or move with the arrow keys) to select it; the owner shows what it reveals.
// It draws a TranscriptRecord (core/prediction/paillier/transcript_reading.h) and computes
// nothing else.

#include <QWidget>

#include "core/prediction/paillier/transcript_reading.h"

namespace dpstudio::ui {

class TranscriptDiagram : public QWidget {
  Q_OBJECT

 public:
  explicit TranscriptDiagram(QWidget* parent = nullptr);

  void setRecord(multiparty::paillier::TranscriptRecord record);
  const multiparty::paillier::TranscriptRecord& record() const { return record_; }

  int selected() const { return selected_; }  // message index, −1 for none
  void select(int message);
  // The message whose arrow is at `point` (widget coordinates), or −1.
  int messageAt(const QPoint& point) const;
  // The centre of message `index`'s arrow (for tests and scrolling).
  QPoint arrowCentre(int index) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override { return sizeHint(); }

 signals:
  void messageSelected(int index);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

 private:
  int laneX(int lane) const;
  int rowTop(int index) const;   // of message `index`'s row (stage bands included)
  int stageBandsBefore(int index) const;

  multiparty::paillier::TranscriptRecord record_;
  int selected_ = -1;
};

}  // namespace dpstudio::ui
