#include "core/experiment/audit_plan.h"

namespace dpstudio::experiment {

Result<audit::AuditOptions> auditOptionsFor(const PrivacyPlan& plan, long long trials, std::uint64_t seed) {
  audit::AuditOptions o;
  o.trials = trials;
  o.seed = seed;
  if (const auto* t = std::get_if<TrainingMechanism>(&plan.choice)) {
    if (t->selection)
      return Error{ErrorKind::Usage, "private selection is not audited: audit one of its candidate mechanisms", {}, 0,
                   "mechanism"};
    if (!t->tuneLambdas.empty())
      return Error{ErrorKind::Usage, "private lambda tuning is not audited: audit the mechanism with one lambda", {},
                   0, "tune-lambdas"};
    o.target = audit::AuditTarget::Training;
    o.training = t->options;
  } else if (const auto* p = std::get_if<PrivatePrediction>(&plan.choice)) {
    o.target = audit::AuditTarget::Prediction;
    o.prediction = p->options;
  } else if (const auto* m = std::get_if<Multiparty>(&plan.choice)) {
    o.target = audit::AuditTarget::Multiparty;
    o.multiparty = m->options;
  } else {
    return Error{ErrorKind::Usage, "a non-private run has no privacy claim to audit: choose a mechanism", {}, 0,
                 "mechanism"};
  }
  if (auto status = o.validate(); !status) return status.error();
  return o;
}

}  // namespace dpstudio::experiment
