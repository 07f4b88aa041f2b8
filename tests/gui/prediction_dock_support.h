#pragma once
// What the private-prediction dock tests share (test_prediction_dock.cpp: the form;
// test_prediction_training.cpp: training, answering, the ledger): the datasets, the form's
// prediction fields, and comparing a shown calibration with core's.

#include "tests/gui/gui_training_support.h"
#include "ui/training/mechanism_form.h"
#include "ui/training/prediction_fields.h"

namespace dpstudio::test {

inline const QString kIris = QStringLiteral("builtin:iris");  // public bound R = 20 prefilled
inline const QString kTwoBlobs = QStringLiteral("builtin:blobs:classes=2");  // 200 rows, 2-D, binary

inline ui::PredictionFields* fields(ui::MainWindow& window) { return mechanismForm(window)->predictionFields(); }

inline void compareReports(const mech::MechanismReport& shown, const mech::MechanismReport& want) {
  QCOMPARE(shown.rows().size(), want.rows().size());
  for (const auto& d : want.rows()) {
    QVERIFY2(shown.value(d.key), d.key.c_str());
    QCOMPARE(*shown.value(d.key), d.value);
  }
}

}  // namespace dpstudio::test
