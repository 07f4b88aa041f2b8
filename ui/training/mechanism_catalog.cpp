#include "ui/training/mechanism_catalog.h"

#include <QComboBox>
#include <QFont>
#include <QObject>
#include <QStandardItemModel>

#include "ui/training/mechanism_form.h"

namespace dpstudio::ui {
namespace {

using mech::MechanismKind;

struct MechanismEntry {
  MechanismKind kind;
  const char* label;
  const char* tip;
};

const MechanismEntry kPrivateEntries[] = {
    {MechanismKind::Output, "Output perturbation",
     "A: train exactly, then add noise scaled to the model's sensitivity \u0394 = 2K/(n\u03bb) (Chaudhuri et al.; "
     "Help \u2192 Algorithms \u00a73 A). Any model; \u2113\u2082-Laplace (\u03b5-DP) or Gaussian ((\u03b5, \u03b4)-DP)."},
    {MechanismKind::Objective, "Objective perturbation (binary models)",
     "B: add a random linear term to the objective and minimize (Chaudhuri et al. Alg. 2; \u00a73 B). "
     "Logistic regression and Huber SVM, one-vs-rest for more classes."},
    {MechanismKind::Loss, "Loss perturbation",
     "C: a random linear term scaled to the loss's gradient bound, for softmax and the other linear models "
     "(Kifer et al.; \u00a73 C)."},
    {MechanismKind::DpLmgc, "DP-LMGC",
     "D: loss perturbation of the large-margin Gaussian classifier (Pathak & Raj; \u00a73 D), corrected or as "
     "published."},
    {MechanismKind::DpSgd, "DP-SGD",
     "E: noisy clipped gradient steps on Poisson-sampled batches, \u03c3 calibrated by the PLD accountant "
     "(\u00a73 E). Softmax and LMGC."},
};

// §3 F, G, I: not mech::MechanismKind values; the list holds them by these names.
const QString kMultiparty = MechanismForm::multipartyChoice();

struct PredictionEntry {
  const char* name;  // the list's data: predictionKindName(), or kMultiparty
  const char* label;
  const char* tip;
};

const PredictionEntry kPredictionEntries[] = {
    {"prediction", "Prediction sensitivity",
     "F: a non-private model \u03b8* answers queries with noisy scores, each answer (\u03b5/B)-DP, for a budget "
     "of B answers (Dwork & Feldman; paper 003 Alg. 6/7; Help \u2192 Algorithms \u00a73 F). Logistic regression, Huber SVM, "
     "softmax."},
    {"subsample", "Subsample-and-aggregate",
     "G: T non-private teachers on disjoint parts vote; each answer is sampled by the exponential mechanism, for a "
     "budget of B answers (paper 003 Alg. 8; \u00a73 G). Any model."},
};

QStandardItemModel* itemsOf(QComboBox* box) { return qobject_cast<QStandardItemModel*>(box->model()); }

void addHeader(QComboBox* box, const QString& text) {
  auto* item = new QStandardItem(text);
  item->setFlags(Qt::NoItemFlags);  // a section title: not selectable, skipped by the keys
  QFont font = item->font();
  font.setBold(true);
  item->setFont(font);
  itemsOf(box)->appendRow(item);
}

}  // namespace

void setComboItemAllowed(QComboBox* box, int index, const QString& problem, const QString& help) {
  QStandardItem* item = itemsOf(box)->item(index);
  item->setEnabled(problem.isEmpty());
  item->setToolTip(problem.isEmpty() ? help : QObject::tr("Not available: %1").arg(problem));
}

void keepComboOnEnabledItem(QComboBox* box) {
  const QStandardItemModel* items = itemsOf(box);
  if (box->currentIndex() >= 0 && items->item(box->currentIndex())->isEnabled()) return;
  for (int i = 0; i < box->count(); ++i)
    if (items->item(i)->isEnabled()) {
      box->setCurrentIndex(i);
      return;
    }
}

void fillMechanismList(QComboBox* box) {
  addHeader(box, QObject::tr("Baselines"));
  box->addItem(QObject::tr("    None \u2014 non-private"),
               QString::fromStdString(mech::mechanismName(MechanismKind::None)));
  addHeader(box, QObject::tr("Private training"));
  for (const MechanismEntry& e : kPrivateEntries) {
    box->addItem(QStringLiteral("    ") + QObject::tr(e.label), QString::fromStdString(mech::mechanismName(e.kind)));
    box->setItemData(box->count() - 1, QObject::tr(e.tip), Qt::ToolTipRole);
  }
  addHeader(box, QObject::tr("Private prediction"));
  for (const PredictionEntry& e : kPredictionEntries) {
    box->addItem(QStringLiteral("    ") + QObject::tr(e.label), QString::fromLatin1(e.name));
    box->setItemData(box->count() - 1, QObject::tr(e.tip), Qt::ToolTipRole);
  }
  addHeader(box, QObject::tr("Multiparty"));
  box->addItem(QStringLiteral("    ") + QObject::tr("Multiparty aggregation"), kMultiparty);
  box->setItemData(box->count() - 1,
                   QObject::tr("I: K parties each train regularized logistic regression (or the Huber SVM) on "
                               "their own rows; the average is released with noise calibrated to the smallest "
                               "party (Pathak, Rane & Raj 2010; \u00a73 I). Binary data only."),
                   Qt::ToolTipRole);
}

bool isComboItemEnabled(QComboBox* box, int index) {
  return index >= 0 && index < box->count() && itemsOf(box)->item(index)->isEnabled();
}

QString mechanismNote(mech::MechanismKind kind) {
  switch (kind) {
    case MechanismKind::None:
      return QObject::tr("Trains the model exactly: not differentially private. The reference every private "
                         "model is measured against.");
    case MechanismKind::Output: return QObject::tr("Noise on the trained parameters (\u00a73 A).");
    case MechanismKind::Objective: return QObject::tr("Noise in the objective, binary models (\u00a73 B).");
    case MechanismKind::Loss: return QObject::tr("Noise in the loss, linear models (\u00a73 C).");
    case MechanismKind::DpLmgc: return QObject::tr("Noise in LMGC's loss (\u00a73 D).");
    case MechanismKind::DpSgd: return QObject::tr("Noisy clipped gradient steps; Gaussian noise (\u00a73 E).");
  }
  return {};
}

QString predictionNote(const QString& choice) {
  if (choice == QLatin1String("prediction"))
    return QObject::tr("Releases answers, not a model: noisy scores of the non-private \u03b8* (\u00a73 F).");
  if (choice == QLatin1String("subsample"))
    return QObject::tr("Releases answers, not a model: a noisy vote of T teachers (\u00a73 G).");
  return QObject::tr("K parties train locally; their average is released with noise (\u00a73 I, paper 004). "
                     "Binary data; \u03bb is paper 004's, of (1/n\u2c7c)\u03a3\u2113 + \u03bb\u2016w\u2016\u00b2.");
}

}  // namespace dpstudio::ui
