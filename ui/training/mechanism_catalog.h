#pragma once
// The mechanisms the Privacy group offers, for people: the grouped list (section headers
// that cannot be chosen; each entry with a tooltip naming its docs/algorithms.md section), the one-
// line note under it, and the helpers for combo boxes whose entries core may refuse (greyed
// out with the reason). Texts only; what is allowed is decided by core's validate().

#include <QString>

#include "core/mechanisms/mechanism.h"

QT_BEGIN_NAMESPACE
class QComboBox;
QT_END_NAMESPACE

namespace dpstudio::ui {

// Baselines / Private training / Private prediction / Multiparty; an entry's data is
// mech::mechanismName(), predictionKindName() or MechanismForm::multipartyChoice().
void fillMechanismList(QComboBox* box);

QString mechanismNote(mech::MechanismKind kind);
QString predictionNote(const QString& choice);  // "prediction", "subsample" or multiparty

// Enables the entry, or greys it out with "Not available: <problem>" as its tooltip.
void setComboItemAllowed(QComboBox* box, int index, const QString& problem, const QString& help);
// Keeps the current entry if it is enabled, else moves to the first enabled one.
void keepComboOnEnabledItem(QComboBox* box);
bool isComboItemEnabled(QComboBox* box, int index);  // false for headers and refused entries

}  // namespace dpstudio::ui
