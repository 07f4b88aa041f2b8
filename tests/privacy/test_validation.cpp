// Parameter checks shared by the CLI and the GUI (core/privacy/validation): the warning
// for a δ too large for the dataset (issue 9 item 10) and the messages for extreme values.

#include <QTest>

#include <limits>

#include "core/privacy/validation.h"

using namespace dpstudio;
using namespace dpstudio::privacy;

class TestValidation : public QObject {
  Q_OBJECT

 private slots:
  // The CLI printed "(1, 0.9)-DP" for --delta 0.9 on 150 rows without a word.
  void doubtfulDeltaWarnsAtOrAboveOneOverN() {
    const auto warning = doubtfulDeltaWarning(0.9, 150);
    QVERIFY(warning.has_value());
    QVERIFY2(warning->find("1/150") != std::string::npos, warning->c_str());
    QVERIFY2(warning->find("0.9") != std::string::npos, warning->c_str());
    QVERIFY(doubtfulDeltaWarning(1.0 / 150, 150).has_value());  // exactly 1/n
    QVERIFY(doubtfulDeltaWarning(0.01, 100).has_value());
  }

  void usualDeltaIsNotDoubtful() {
    QVERIFY(!doubtfulDeltaWarning(1e-5, 150).has_value());
    QVERIFY(!doubtfulDeltaWarning(0.0099, 100).has_value());
    QVERIFY(!doubtfulDeltaWarning(0.0, 150).has_value());   // pure ε-DP
    QVERIFY(!doubtfulDeltaWarning(0.5, 0).has_value());     // n unknown
  }

  // ε = 1e-300 is valid (finite, > 0); ε = 0, ∞ and NaN get a message naming the parameter.
  void extremeEpsilonMessages() {
    QVERIFY(requirePositive("epsilon", 1e-300).ok());
    for (double bad : {0.0, -1.0, std::numeric_limits<double>::infinity(),
                       std::numeric_limits<double>::quiet_NaN()}) {
      const Status s = requirePositive("epsilon", bad);
      QVERIFY(!s.ok());
      QCOMPARE(s.error().field, std::string("epsilon"));
      QVERIFY2(s.error().message.rfind("epsilon must be finite and > 0", 0) == 0,
               s.error().message.c_str());
    }
  }
};

QTEST_GUILESS_MAIN(TestValidation)
#include "test_validation.moc"
