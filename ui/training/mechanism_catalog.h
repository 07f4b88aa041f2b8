#pragma once
// The mechanisms the Privacy group offers, for people, as core's catalogue describes them
// (core/experiment/mechanism_catalog.h): the grouped list (section headers that cannot be
// chosen; each entry with a tooltip naming its section of the algorithms reference), the
// one-line note under it, and the helpers for combo boxes whose entries core may refuse
// (greyed out with the reason). Texts only; what is allowed is decided by core's validate().

#include <QString>

#include <string>

#include "core/mechanisms/mechanism.h"

QT_BEGIN_NAMESPACE
class QComboBox;
QT_END_NAMESPACE

namespace dpstudio::ui {

// Baselines / Private training / Private prediction / Multiparty; an entry's data is its
// catalogue key (mech::mechanismName(), predictionKindName() or "multiparty").
void fillMechanismList(QComboBox* box);

// By catalogue key: the note under the list ("Noise on the trained parameters (§3 A)."), the
// tooltip ("A: Train exactly, … (Help → Algorithms §3 A)"), the title ("Output perturbation").
QString mechanismNote(const std::string& key);
QString mechanismHelp(const std::string& key);
QString mechanismTitle(const std::string& key);
QString mechanismNote(mech::MechanismKind kind);
QString predictionNote(const QString& choice);  // "prediction", "subsample" or "multiparty"

// Enables the entry, or greys it out with "Not available: <problem>" as its tooltip.
void setComboItemAllowed(QComboBox* box, int index, const QString& problem, const QString& help);
// Keeps the current entry if it is enabled, else moves to the first enabled one.
void keepComboOnEnabledItem(QComboBox* box);
bool isComboItemEnabled(QComboBox* box, int index);  // false for headers and refused entries

}  // namespace dpstudio::ui
