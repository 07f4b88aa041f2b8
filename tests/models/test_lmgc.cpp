#include <QtTest>
class TestLmgc : public QObject { Q_OBJECT private slots: void placeholder() {} };
QTEST_APPLESS_MAIN(TestLmgc)
#include "test_lmgc.moc"
