#include "core/prediction/data_contract.h"

#include "core/mechanisms/mechanism_internal.h"

namespace dpstudio::predict {

Status requireUnitRows(const Dataset& data) { return mech::detail::requireUnitBall(data); }

}  // namespace dpstudio::predict
