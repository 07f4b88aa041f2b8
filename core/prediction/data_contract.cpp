#include "core/prediction/data_contract.h"

namespace dpstudio::predict {

Result<mech::detail::UnitBallRows> unitRows(const Dataset& data) { return mech::detail::unitBallRows(data); }

}  // namespace dpstudio::predict
