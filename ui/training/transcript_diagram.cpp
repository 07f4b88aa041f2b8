#include "ui/training/transcript_diagram.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace dpstudio::ui {
namespace {

constexpr int kLaneWidth = 170;
constexpr int kMargin = 16;
constexpr int kHeaderHeight = 34;
constexpr int kRowHeight = 30;
constexpr int kStageHeight = 24;
constexpr int kSelfLoop = 24;

QString text(const std::string& s) { return QString::fromStdString(s); }

// Bytes for a person: 290 B, 35.8 kB, 1.2 MB.
QString sizeText(std::size_t bytes) {
  if (bytes < 1000) return QObject::tr("%1 B").arg(bytes);
  if (bytes < 1000 * 1000) return QObject::tr("%1 kB").arg(static_cast<double>(bytes) / 1e3, 0, 'f', 1);
  return QObject::tr("%1 MB").arg(static_cast<double>(bytes) / 1e6, 0, 'f', 1);
}

}  // namespace

TranscriptDiagram::TranscriptDiagram(QWidget* parent) : QWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  setAccessibleName(tr("Protocol sequence diagram"));
  setBackgroundRole(QPalette::Base);
  setAutoFillBackground(true);
}

void TranscriptDiagram::setRecord(multiparty::paillier::TranscriptRecord record) {
  record_ = std::move(record);
  selected_ = -1;
  updateGeometry();
  resize(sizeHint());
  update();
}

void TranscriptDiagram::select(int message) {
  if (message < -1 || message >= static_cast<int>(record_.messages.size()) || message == selected_) return;
  selected_ = message;
  update();
  emit messageSelected(message);
}

int TranscriptDiagram::laneX(int lane) const { return kMargin + kLaneWidth / 2 + lane * kLaneWidth; }

int TranscriptDiagram::stageBandsBefore(int index) const {
  int bands = 0;
  for (int i = 0; i <= index && i < static_cast<int>(record_.messages.size()); ++i)
    if (i == 0 || record_.messages[static_cast<std::size_t>(i)].stage != record_.messages[static_cast<std::size_t>(i - 1)].stage)
      ++bands;
  return bands;
}

int TranscriptDiagram::rowTop(int index) const {
  return kHeaderHeight + stageBandsBefore(index) * kStageHeight + index * kRowHeight;
}

QPoint TranscriptDiagram::arrowCentre(int index) const {
  const auto& m = record_.messages[static_cast<std::size_t>(index)];
  const int from = laneX(record_.lane(m.sender)), to = laneX(record_.lane(m.receiver));
  if (from == to) return {from + kSelfLoop, rowTop(index) + kRowHeight - 13};
  return {(from + to) / 2, rowTop(index) + kRowHeight - 8};
}

int TranscriptDiagram::messageAt(const QPoint& point) const {
  for (int i = 0; i < static_cast<int>(record_.messages.size()); ++i) {
    const int top = rowTop(i);
    if (point.y() >= top && point.y() < top + kRowHeight) {
      const auto& m = record_.messages[static_cast<std::size_t>(i)];
      const int a = laneX(record_.lane(m.sender)), b = laneX(record_.lane(m.receiver));
      if (point.x() >= std::min(a, b) - kLaneWidth / 2 && point.x() <= std::max(a, b) + kLaneWidth / 2) return i;
    }
  }
  return -1;
}

QSize TranscriptDiagram::sizeHint() const {
  const int lanes = std::max<int>(1, static_cast<int>(record_.participants.size()));
  const int rows = static_cast<int>(record_.messages.size());
  return {2 * kMargin + lanes * kLaneWidth, rowTop(rows) + kMargin};
}

void TranscriptDiagram::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QPalette pal = palette();
  const int lanes = static_cast<int>(record_.participants.size());
  const int bottom = height() - kMargin / 2;

  // Lanes: name on top, a dashed life line below.
  QFont bold = font();
  bold.setBold(true);
  for (int lane = 0; lane < lanes; ++lane) {
    const int x = laneX(lane);
    p.setPen(QPen(pal.color(QPalette::Mid), 1, Qt::DashLine));
    p.drawLine(x, kHeaderHeight - 6, x, bottom);
    p.setFont(bold);
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRect(x - kLaneWidth / 2, 4, kLaneWidth, kHeaderHeight - 10), Qt::AlignCenter,
               text(record_.participants[static_cast<std::size_t>(lane)]));
  }
  p.setFont(font());

  for (int i = 0; i < static_cast<int>(record_.messages.size()); ++i) {
    const auto& m = record_.messages[static_cast<std::size_t>(i)];
    const int top = rowTop(i);
    if (i == 0 || m.stage != record_.messages[static_cast<std::size_t>(i - 1)].stage) {
      const QRect band(kMargin / 2, top - kStageHeight, width() - kMargin, kStageHeight - 2);
      p.fillRect(band, pal.color(QPalette::AlternateBase));
      p.setPen(pal.color(QPalette::Text));
      QFont italic = font();
      italic.setItalic(true);
      p.setFont(italic);
      p.drawText(band.adjusted(6, 0, -6, 0), Qt::AlignVCenter | Qt::AlignLeft, text(m.stage));
      p.setFont(font());
    }
    const int from = laneX(record_.lane(m.sender)), to = laneX(record_.lane(m.receiver));
    const int y = top + kRowHeight - 8;
    if (i == selected_) p.fillRect(QRect(kMargin / 2, top, width() - kMargin, kRowHeight), pal.color(QPalette::Highlight).lighter(170));
    const QColor ink = i == selected_ ? pal.color(QPalette::Highlight) : pal.color(QPalette::Text);
    p.setPen(QPen(ink, i == selected_ ? 2.0 : 1.2));
    // A message to oneself (P_j forwarding to P_π1(j) = P_j) is a loop out of its lane.
    const bool self = from == to;
    if (self) {
      p.drawPolyline(QPolygon({QPoint(from, y - 10), QPoint(from + kSelfLoop, y - 10), QPoint(from + kSelfLoop, y),
                               QPoint(from, y)}));
    } else {
      p.drawLine(from, y, to, y);
    }
    const int dir = to > from ? 1 : -1;
    QPainterPath head;
    head.moveTo(to, y);
    head.lineTo(to - dir * 8, y - 4);
    head.lineTo(to - dir * 8, y + 4);
    head.closeSubpath();
    p.fillPath(head, ink);
    p.setPen(ink);
    const QString label = QStringLiteral("%1 \u00b7 %2").arg(text(m.kind), sizeText(m.bytes));
    const int left = self ? from + kSelfLoop + 4 : std::min(from, to);
    const int span = self ? kLaneWidth - kSelfLoop - 8 : std::max(std::abs(to - from), kLaneWidth);
    if (self) {
      p.drawText(QRect(left, top, span, kRowHeight - 2), Qt::AlignLeft | Qt::AlignBottom,
                 p.fontMetrics().elidedText(label, Qt::ElideRight, span));
      continue;
    }
    p.drawText(QRect(left, top, span, kRowHeight - 10), Qt::AlignHCenter | Qt::AlignBottom,
               p.fontMetrics().elidedText(label, Qt::ElideRight, span - 4));
  }
}

void TranscriptDiagram::mousePressEvent(QMouseEvent* event) {
  const int hit = messageAt(event->position().toPoint());
  if (hit >= 0) select(hit);
  QWidget::mousePressEvent(event);
}

void TranscriptDiagram::keyPressEvent(QKeyEvent* event) {
  const int last = static_cast<int>(record_.messages.size()) - 1;
  if (event->key() == Qt::Key_Down) select(std::min(last, selected_ + 1));
  else if (event->key() == Qt::Key_Up) select(std::max(0, selected_ - 1));
  else if (event->key() == Qt::Key_Home) select(last >= 0 ? 0 : -1);
  else if (event->key() == Qt::Key_End) select(last);
  else QWidget::keyPressEvent(event);
}

}  // namespace dpstudio::ui
