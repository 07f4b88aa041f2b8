#pragma once
// A sweep's summary as `dpstudio-cli sweep --json` prints it: each series' points by axis value.

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QMap>
#include <QString>

#include <cmath>

namespace dpstudio::test {

struct SweepPoint {
  double mean = 0;
  double std = 0;
  int count = 0;
  double standardError() const { return count > 0 ? std / std::sqrt(static_cast<double>(count)) : 0.0; }
};

using SweepCurves = QMap<QString, QMap<double, SweepPoint>>;

inline SweepCurves sweepCurves(const QJsonObject& json) {
  SweepCurves curves;
  for (const QJsonValue& v : json["points"].toArray()) {
    const QJsonObject p = v.toObject();
    curves[p["mechanism"].toString()][p["value"].toDouble()] = {p["mean"].toDouble(), p["std"].toDouble(),
                                                                 p["count"].toInt()};
  }
  return curves;
}

}  // namespace dpstudio::test
