#include "core/prediction/aggregation.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

#include "core/privacy/release_granularity.h"

namespace dpstudio::multiparty {
namespace {

Status validateLocals(const std::vector<LocalModel>& locals, const MultipartyOptions& options) {
  auto bad = [](const std::string& message) { return Error{ErrorKind::InvalidPrivacy, message, {}, 0, "parties"}; };
  if (locals.empty()) return bad("aggregation needs at least one local model");
  if (static_cast<Index>(locals.size()) != options.partyCount())
    return bad("the options name " + std::to_string(options.partyCount()) + " parties, " +
               std::to_string(locals.size()) + " local models were given");
  for (std::size_t j = 0; j < locals.size(); ++j) {
    if (locals[j].w.size() != locals.front().w.size() || locals[j].w.size() < 1)
      return bad("the local models must all have the same, non-zero length (party " + std::to_string(j + 1) + ")");
    if (locals[j].rows < 1) return bad("party " + std::to_string(j + 1) + " has no rows");
    if (!locals[j].w.allFinite()) return bad("party " + std::to_string(j + 1) + "'s model is not finite");
  }
  return Ok{};
}

// The one-process transcript says, as the TLS participants' do, where the noise came from
// and the grid the release was rounded to (issue 30 bug 4); it was written before the grid.
void recordNoiseInTranscript(std::string& transcriptJson, const privacy::NoiseSource& noise, double grid) {
  QJsonObject root = QJsonDocument::fromJson(QByteArray::fromStdString(transcriptJson)).object();
  root["noise_source"] = QString::fromStdString(noise.provenance().describe());
  root["private"] = noise.kind() == privacy::NoiseKind::Release;
  root["release_granularity"] = grid;
  transcriptJson = QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

}  // namespace

Eigen::VectorXd plainAverage(const std::vector<LocalModel>& locals) {
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(locals.empty() ? 0 : locals.front().w.size());
  for (const LocalModel& local : locals) sum += local.w;  // in party order: same bits every run
  return sum / static_cast<double>(std::max<std::size_t>(1, locals.size()));
}

Result<AggregateRelease> TrustedCurator::release(const std::vector<LocalModel>& locals,
                                                 const MultipartyOptions& options, privacy::NoiseSource& noise,
                                                 const Progress&) const {
  Index smallest = locals.front().rows;
  for (const LocalModel& local : locals) smallest = std::min(smallest, local.rows);
  const Index d = locals.front().w.size();
  auto calibration = calibrateMultiparty(options, smallest, d);
  if (!calibration) return calibration.error();
  mech::enlargeNoiseForRelease(calibration.value(), noise);  // η is added to the released average
  auto eta = mech::drawReportedNoise(calibration.value(), noise);
  if (!eta) return eta.error();
  AggregateRelease out;
  out.released = plainAverage(locals) + eta.value().noise;
  out.report = std::move(calibration).value();
  out.report.noiseNorms.push_back(eta.value().norm);
  return out;
}

Result<AggregateRelease> aggregate(const std::vector<LocalModel>& locals, const MultipartyOptions& options,
                                   const AggregationProtocol& protocol, privacy::NoiseSource& noise,
                                   const Progress& progress) {
  if (auto status = validateLocals(locals, options); !status) return status.error();
  auto release = protocol.release(locals, options, noise, progress);
  if (!release) return release.error();
  AggregateRelease& out = release.value();
  auto grid = privacy::applyReleaseGranularity(noise, out.released, perCoordinateNoiseScale(out.report));
  if (!grid) return grid.error();
  out.report.releaseGranularity = grid.value();
  out.report.noiseSource = noise.provenance().describe();
  if (!out.transcriptJson.empty()) recordNoiseInTranscript(out.transcriptJson, noise, grid.value());
  out.report.statement += "; aggregated by a " + protocol.name();
  return release;
}

}  // namespace dpstudio::multiparty
