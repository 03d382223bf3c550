// dna-assembly on the SePo table (combining, the thesis' use in ch6): key =
// the fragment's 32-base part as text (8 words), value = (1 fragment, left
// edge bit, right edge bit), combined by adding the count and OR-ing the
// edge masks (apps/dna_assembly.clh; the workload's definition,
// frameworks/workloads/dna_assembly).
#include <string_view>
#include <unordered_map>

#include "frameworks/hashtable/sepo_app.h"
#include "frameworks/workloads/dna_assembly/dna_format.h"

namespace harness::hashtable {
namespace {

namespace dna = workloads::dna;

class DnaAssemblyApp final : public SepoApp {
 public:
  std::string name() const override { return dna::kName; }
  std::string kernel_file() const override { return "frameworks/hashtable/apps/dna_assembly.clh"; }
  RecordShape shape(const std::uint8_t*, std::size_t size) const override {
    return {size / dna::kRecordBytes, dna::kPartBases, 12};
  }
  std::unique_ptr<workloads::Output> collect(std::span<const std::uint64_t> heads, Organization org,
                                             std::uint64_t& entries) const override {
    struct Part {
      std::int64_t count = 0, left = 0, right = 0;
    };
    // Keys point into the host arenas, which outlive the output's finish().
    std::unordered_map<std::string_view, Part> parts;
    entries = walk_host_table(
        heads,
        [&parts](const HostEntry& e) {
          Part& p = parts[std::string_view(reinterpret_cast<const char*>(e.key), e.key_bytes)];
          p.count += e.value[0];
          p.left |= e.value[1];
          p.right |= e.value[2];
        },
        org);
    auto table = dna::parts_table();
    table->reserve(parts.size(), parts.size() * dna::kPartBases);
    for (const auto& [key, p] : parts) {
      const std::int64_t ints[3] = {p.count, p.left, p.right};
      table->add(key, ints);
    }
    return table;
  }
};

}  // namespace

const SepoApp& dna_assembly_app() {
  static const DnaAssemblyApp app;
  return app;
}

}  // namespace harness::hashtable
