#include "core/bundle/model_card.h"

#include <QJsonArray>
#include <QStringList>

namespace dpstudio::bundle {
namespace {

QString number(const QJsonValue& value) { return QString::number(value.toDouble(), 'g', 6); }

QString joined(const QJsonValue& list) {
  QStringList items;
  for (const QJsonValue& item : list.toArray()) items << item.toString();
  return items.join(", ");
}

QString whatItIs(const QJsonObject& m) {
  const QJsonObject model = m["model"].toObject();
  const QJsonObject training = m["training"].toObject();
  const QString kind = m["kind"].toString();
  QString text = QString("A %1 %2 classifier for %3 classes (%4) on %5 input features, made by dpstudio %6 from %7 "
                         "training examples.")
                     .arg(model["structure"].toString(), model["name"].toString())
                     .arg(m["classes"].toArray().size())
                     .arg(joined(m["classes"]))
                     .arg(m["input_dim"].toInt())
                     .arg(m["producer"].toObject()["version"].toString())
                     .arg(training["train_rows"].toInteger());
  if (kind == "prediction-sensitivity")
    text += " It is a private predictor (prediction sensitivity): it holds a non-private model and answers each "
            "query with noisy scores, within a budget of answers.";
  if (kind == "subsample-aggregate")
    text += QString(" It is a private predictor (subsample-and-aggregate): %1 teachers trained on disjoint parts of "
                    "the data vote, and each answer is a label sampled from their noisy vote, within a budget of "
                    "answers.")
                .arg(model["teachers"].toInteger());
  const QJsonArray steps = m["preprocessing"].toObject()["steps"].toArray();
  text += steps.isEmpty() ? QString(" Rows are used as they are (no preprocessing).")
                          : " Preprocessing, applied to every row before the model: " + joined(steps) + ".";
  return text;
}

QString guarantee(const QJsonObject& m) {
  const QJsonObject p = m["privacy"].toObject();
  if (p["mechanism"].toString() == "none")
    return "None. This model was trained without a privacy mechanism: its parameters may reveal details of "
           "individual training examples, and it must be treated like the training data themselves.";
  QString text;
  const bool stateful = m.contains("inference");
  if (p["epsilon"].isNull()) {
    text = "None: the mechanism added no effective noise (epsilon is infinite).";
  } else if (stateful) {
    const QJsonObject inference = m["inference"].toObject();
    text = QString("Each answer of this predictor is differentially private, and all %1 answers of its budget "
                   "together satisfy (%2, %3)-differential privacy under %4: whether or not any one training "
                   "example is replaced by another, the answers are almost equally likely (within a factor e^%2, "
                   "up to probability %3). The model inside the bundle is NOT private; only its answers are, so "
                   "the bundle must stay with whoever answers. %5 of the %1 answers have been given.")
               .arg(inference["budget"].toInteger())
               .arg(number(p["epsilon"]), number(p["delta"]), p["adjacency"].toString())
               .arg(inference["answers_used"].toInteger());
  } else {
    text = QString("This model satisfies (%1, %2)-differential privacy under %3: whether or not any one training "
                   "example is replaced by another, these parameters were almost equally likely to come out "
                   "(within a factor e^%1, up to probability %2), so they reveal little about any single example. "
                   "Mechanism: %4 (%5 calibration), %6 noise from the %7 source; accounting: %8.")
               .arg(number(p["epsilon"]), number(p["delta"]), p["adjacency"].toString(), p["mechanism"].toString(),
                    p["calibration"].toString(), p["noise"].toString(), p["noise_source"].toString(),
                    p["accountant"].toString());
  }
  // A reader who stops after the first sentence must not come away with "(ε, δ)-DP".
  if (!p["private"].toBool())
    text = "NOT PRIVATE as a whole: the guarantee covers " + p["covers"].toString() +
           ". See the next section for why. What the mechanism alone would give: " + text;
  return text + "\n\nThe mechanism's own statement: " + p["statement"].toString();
}

QStringList limits(const QJsonObject& m) {
  QStringList items;
  for (const QJsonValue& reason : m["privacy"].toObject()["not_private"].toArray()) items << reason.toString();
  const QJsonArray structure = m["privacy"].toObject()["structure_from_data"].toArray();
  if (!structure.isEmpty())
    items << "Read off the private rows rather than declared, and not covered by the guarantee: " + joined(structure) +
                 ".";
  items << "The guarantee covers one training example. A person with several examples in the data is protected "
           "by a weaker guarantee (about k times epsilon for k examples).";
  items << "What the bundle states openly is not protected: the class names, the number of input features, the "
           "number of training examples, and the declared preprocessing (norm bound, feature ranges).";
  items << "Differential privacy does not hide what is true of the population as a whole: predictions about a "
           "person can still be accurate.";
  items << "The checksums detect damage, not forgery: anyone can write a bundle that claims any guarantee.";
  if (m.contains("inference"))
    items << "The budget count lives in this file: a kept copy of an older version of it can answer again. The "
             "budget protects against accidental overuse, not against its holder.";
  return items;
}

}  // namespace

QString modelCard(const QJsonObject& m) {
  QString card = "# Model card: " + m["model"].toObject()["name"].toString() + " (dpstudio model bundle)\n\n";
  card += "## What this model is\n\n" + whatItIs(m) + "\n\n";
  card += "## Privacy guarantee\n\n" + guarantee(m) + "\n\n";
  card += "## What it was not protected against\n\n";
  for (const QString& item : limits(m)) card += "- " + item + "\n";
  card += "\n## How to use it\n\n";
  card += "- Predict: `dpstudio-cli predict --model THIS.dpmodel --data DATA [--out preds.csv] [--json]` applies the "
          "preprocessing and prints the labels";
  card += m.contains("inference") ? " (each row spends one answer of the budget; the file records it).\n"
                                  : " and the accuracy when DATA has labels.\n";
  card += "- Inspect: `dpstudio-cli inspect THIS.dpmodel` prints the manifest and the privacy statement.\n";
  card += "- NumPy: `numpy.load(\"THIS.dpmodel\")` reads the arrays; docs/formats/bundle-format.md has a NumPy-only "
          "predictor. Scores: " + m["model"].toObject()["score"].toString() + ".\n";
  return card;
}

}  // namespace dpstudio::bundle
