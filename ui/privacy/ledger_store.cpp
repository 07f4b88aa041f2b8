#include "ui/privacy/ledger_store.h"

#include <QDir>
#include <QMetaObject>

#include <mutex>

namespace dpstudio::ui {

// The keeper runs on recording threads and may outlive the store (a copy of it is being
// called when the store goes): it reaches the store only through this, under its mutex.
struct LedgerStore::Shared {
  std::shared_ptr<privacy::LedgerFile> file;
  std::mutex mutex;
  LedgerStore* store = nullptr;
  QString problem;
  QString notice;

  // Under `mutex`: tells the store, on its thread, that problem or notice changed.
  void announce() {
    if (store) QMetaObject::invokeMethod(store, &LedgerStore::changed, Qt::QueuedConnection);
  }
};

LedgerStore::LedgerStore(std::shared_ptr<privacy::PrivacyLedger> ledger, const QString& path, QObject* parent)
    : QObject(parent), ledger_(std::move(ledger)), shared_(std::make_shared<Shared>()) {
  shared_->file = std::make_shared<privacy::LedgerFile>(path);
  shared_->store = this;
  ledger_->setSession(privacy::sessionLabel("dpstudio"));
  ledger_->setKeeper([shared = shared_](const std::vector<privacy::LedgerEntry>& session)
                         -> Result<std::vector<privacy::LedgerEntry>> {
    auto merged = shared->file->merge(session);
    std::lock_guard lock(shared->mutex);
    // A budget spent is the file refusing answers, not a problem of the file.
    const bool refused = !merged && merged.error().kind == ErrorKind::InvalidPrivacy;
    const QString problem = merged || refused ? QString() : QString::fromStdString(merged.error().toString());
    const bool setAside = merged && merged.value().setAside;
    if (setAside) shared->notice = QString::fromStdString(*merged.value().setAside);
    if (problem != shared->problem || setAside) {
      shared->problem = problem;
      shared->announce();
    }
    if (!merged) return merged.error();
    return std::move(merged).value().entries;
  });
  reload();
}

LedgerStore::~LedgerStore() {
  {
    std::lock_guard lock(shared_->mutex);
    shared_->store = nullptr;
  }
  ledger_->setKeeper({});
}

QString LedgerStore::path() const { return shared_->file->path(); }

QString LedgerStore::problem() const {
  std::lock_guard lock(shared_->mutex);
  return shared_->problem;
}

QString LedgerStore::notice() const {
  std::lock_guard lock(shared_->mutex);
  return shared_->notice;
}

void LedgerStore::reload() {
  auto loaded = shared_->file->load();
  {
    std::lock_guard lock(shared_->mutex);
    if (!loaded) {
      // The history shown stays as last read; the problem says why it cannot be trusted.
      shared_->problem = QString::fromStdString(loaded.error().toString());
    } else {
      shared_->problem.clear();
      if (loaded.value().setAside) shared_->notice = QString::fromStdString(*loaded.value().setAside);
    }
  }
  if (loaded) {
    const std::string session = ledger_->session();
    history_.clear();
    for (privacy::LedgerEntry& entry : loaded.value().entries)
      if (entry.session != session) history_.push_back(std::move(entry));
  }
  emit changed();
}

Result<QString> LedgerStore::archive() {
  auto archived = shared_->file->archive();
  if (!archived) return archived.error();
  ledger_->clear();
  history_.clear();
  {
    std::lock_guard lock(shared_->mutex);
    shared_->problem.clear();
    shared_->notice.clear();
  }
  emit changed();
  return archived;
}

}  // namespace dpstudio::ui
