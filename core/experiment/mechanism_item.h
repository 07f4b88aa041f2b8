#pragma once
// One item of a sweep's mechanism list as the CLI writes it (`sweep --mechanisms`) and the
// paper presets store it (paper_presets.h): a mechanism name, then ":"-separated modifiers —
// a calibration (corrected, published), a noise family (l2-laplace, gaussian) and, for
// multiparty only, parties=K or split=f1/f2/…; e.g. "output:gaussian",
// "multiparty:split=0.15/0.2/0.2/0.2/0.25:published". Parsed here once so that the CLI and
// the GUI read an item alike; what the name and the modifiers then mean is the front end's
// (the CLI's options, a preset's settings).

#include <optional>
#include <string>
#include <vector>

#include "core/mechanisms/mechanism.h"

namespace dpstudio::experiment {

struct MechanismItem {
  std::string name;  // "output", "multiparty", … (not checked here)
  std::optional<mech::Calibration> calibration;
  std::optional<mech::NoiseFamily> family;
  std::optional<Index> parties;  // multiparty: parties=K
  std::vector<double> split;     // multiparty: split=f1/f2/…
};

// Usage errors name the item and the field "mechanisms": an unknown modifier, parties= or
// split= on another mechanism, a K or a fraction that is not a number.
Result<MechanismItem> parseMechanismItem(const std::string& item);

}  // namespace dpstudio::experiment
