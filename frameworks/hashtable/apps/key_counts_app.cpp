// key-counts on the SePo table (combining): key = the 8-byte key, value = 1,
// added (apps/key_counts.clh); the same records as hashtable/open-addressing.
#include <cstring>

#include "frameworks/hashtable/apps/keyed_rows.h"
#include "frameworks/hashtable/sepo_app.h"
#include "frameworks/workloads/key_counts/key_counts_format.h"
#include "frameworks/workloads/key_counts/key_counts_output.h"

namespace harness::hashtable {
namespace {

using workloads::key_counts::KeyCount;

class KeyCountsApp final : public SepoApp {
 public:
  std::string name() const override { return workloads::key_counts::kApp; }
  std::string kernel_file() const override { return "frameworks/hashtable/apps/key_counts.clh"; }
  RecordShape shape(const std::uint8_t* data, std::size_t size) const override {
    return {workloads::key_counts::read_keys(data, size).count, 8, 4};
  }
  // A key's entries of several iterations added up (apps/keyed_rows.h).
  std::unique_ptr<workloads::Output> collect(std::span<const std::uint64_t> heads, Organization org,
                                             std::uint64_t& entries) const override {
    return collect_keyed_rows<workloads::key_counts::KeyCountsOutput>(
        heads, org, entries,
        [](const HostEntry& e) {
          KeyCount r;
          std::memcpy(&r.key, e.key, 8);
          r.count = e.value[0];
          return r;
        },
        [](const KeyCount& r) { return r.key; },
        [](KeyCount& into, const KeyCount& more) { into.count += more.count; });
  }
};

}  // namespace

const SepoApp& key_counts_app() {
  static const KeyCountsApp app;
  return app;
}

}  // namespace harness::hashtable
