// Patent Citation (thesis chapter 6): a reverse patent citation directory,
// "cited by" as Google Scholar offers it. Each citation record
// (patent_citation_format.h) gives the key-value pair <cited patent, citing
// patent>; MAP_GROUP groups the citing patents of each cited patent.
#include <map>
#include <string>

#include "frameworks/workloads/access.h"
#include "frameworks/workloads/all_workloads.h"
#include "frameworks/workloads/group_by_key.h"
#include "frameworks/workloads/patent_citation/patent_citation_cpu.h"
#include "frameworks/workloads/patent_citation/patent_citation_format.h"

namespace harness::workloads {
namespace {

using namespace patent_citation;

class PatentCitation final : public Workload {
 public:
  std::string name() const override { return "patent-citation"; }
  std::string description() const override {
    return "reverse citation directory: for each cited patent, its citing patents (MAP_GROUP of "
           "fixed 18-byte CITING,CITED records)";
  }
  std::string default_dataset() const override { return "patent-citations"; }
  std::string record_type() const override { return "fixed"; }
  std::string chapters() const override { return "ch6"; }
  PaperFacts paper() const override {
    PaperFacts f;
    const double gb = 1e9;  // table 6.1's sizes, GB taken as 10^9 bytes
    f.table6_1_bytes[0] = 0.2 * gb;
    f.table6_1_bytes[1] = 2.0 * gb;
    f.table6_1_bytes[2] = 3.4 * gb;
    f.table6_1_bytes[3] = 4.8 * gb;
    return f;
  }

  void check_input(const std::uint8_t* data, std::size_t size) const override {
    check_records(data, size);
  }

  // Every record is one value (a citation repeated in the input is listed
  // twice); rows keyed by the cited number's 8 digits.
  std::unique_ptr<Output> reference(const Params&, const std::uint8_t* data,
                                    std::size_t size) const override {
    check_records(data, size);
    std::map<std::string, std::vector<std::int64_t>> citing_of;  // by the cited number's text
    for (std::size_t at = 0; at < size; at += kRecordBytes) {
      const std::string cited(reinterpret_cast<const char*>(data + at + kCitedAt), kIdDigits);
      citing_of[cited].push_back(id_value(data + at + kCitingAt));
    }
    return std::make_unique<TableOutput>(group_by_key::table_of_groups(citing_of));
  }

  std::unique_ptr<Output> run_cpu(const Params&, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    return group_citations(data, size, threads);
  }

  // The kernel reads each record's two numbers; the ',' and '\n' lie at
  // fixed offsets and are never read.
  AccessShare access_share(const Params&, const std::uint8_t*, std::size_t size) const override {
    AccessMap map(size);
    const std::size_t records = size / kRecordBytes;
    for (std::size_t r = 0; r < records; ++r) {
      map.read(r * kRecordBytes + kCitingAt, kIdDigits);
      map.read(r * kRecordBytes + kCitedAt, kIdDigits);
    }
    return map.share(records);
  }
};

}  // namespace

const Workload& patent_citation_workload() {
  static const PatentCitation w;
  return w;
}

}  // namespace harness::workloads
