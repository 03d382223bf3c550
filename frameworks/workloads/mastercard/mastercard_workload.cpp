// MasterCard Affinity (thesis ch4/ch5, table 4.1): the merchants frequently
// visited by the customers of a target merchant X. Two workloads with one
// definition (mastercard_answer.h) and one input format
// (mastercard_format.h): `mastercard` finds each record's fields by scanning
// it (reads 100% of the input), `mastercard-indexed` through an index of
// their offsets that is not mapped (mastercard_index.h; reads the card and
// merchant fields only, about 25% of the input).
#include "frameworks/workloads/access.h"
#include "frameworks/workloads/all_workloads.h"
#include "frameworks/workloads/mastercard/mastercard_answer.h"
#include "frameworks/workloads/mastercard/mastercard_cpu.h"
#include "frameworks/workloads/mastercard/mastercard_format.h"
#include "frameworks/workloads/mastercard/mastercard_index.h"

namespace harness::workloads {
namespace {

constexpr double kPaperBytes = 6.4e9;  // table 4.1: 6.4 GB

// What the two workloads share: the answer, its parameter, the dataset.
class MastercardAffinity : public Workload {
 public:
  std::string default_dataset() const override { return "transactions"; }
  std::string chapters() const override { return "ch4 ch5"; }
  ParamDecls params() const override {
    return {string_param("merchant", mastercard::kDefaultMerchant,
                         "merchant X, whose customers' merchants are counted (1-32 visible "
                         "ASCII bytes, no '|')")};
  }
  std::unique_ptr<Output> reference(const Params& params, const std::uint8_t* data,
                                    std::size_t size) const override {
    return mastercard::reference_affinity(data, size, mastercard::merchant_param(params, name()),
                                          name());
  }

 protected:
  static PaperFacts paper_facts(double read_share) {
    PaperFacts facts;
    facts.read_share = read_share;
    facts.written_share = 0.0;
    facts.table4_1_bytes = kPaperBytes;
    return facts;
  }
};

class Mastercard final : public MastercardAffinity {
 public:
  std::string name() const override { return mastercard::kApp; }
  std::string description() const override {
    return "MasterCard Affinity: for the cards that bought at merchant X, the visits and distinct "
           "cards of every merchant they bought at; records scanned for their fields";
  }
  std::string record_type() const override { return "variable"; }
  PaperFacts paper() const override { return paper_facts(1.0); }

  void check_input(const std::uint8_t* data, std::size_t size) const override {
    mastercard::check_records(data, size, name());
  }
  std::unique_ptr<Output> run_cpu(const Params& params, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    return mastercard::affinity_from_lines(data, size, mastercard::merchant_param(params, name()),
                                           threads);
  }
  // Every byte: the kernel scans each record for its newline and separators.
  AccessShare access_share(const Params&, const std::uint8_t* data,
                           std::size_t size) const override {
    std::uint64_t records = 0;
    mastercard::for_each_record(data, 0, size, name(),
                                [&](const mastercard::RecordFields&) { ++records; });
    AccessMap map(size);
    map.read(0, size);
    return map.share(records);
  }
};

class MastercardIndexed final : public MastercardAffinity {
 public:
  std::string name() const override { return mastercard::kIndexedApp; }
  std::string description() const override {
    return "MasterCard Affinity (indexed): as mastercard, the card and merchant fields read "
           "through an index of their offsets (not mapped; built from the input, untimed)";
  }
  std::string record_type() const override { return "variable, indexed"; }
  PaperFacts paper() const override { return paper_facts(0.25); }

  // Checking the records builds the index, kept for the runs that follow.
  void check_input(const std::uint8_t* data, std::size_t size) const override {
    mastercard_index_of(data, size, /*rebuild=*/true);
  }
  // Uses the index check_input built (built here, timed, only when no
  // check_input preceded the run on this input).
  std::unique_ptr<Output> run_cpu(const Params& params, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    const std::string merchant = mastercard::merchant_param(params, name());
    return mastercard::affinity_from_index(data, *mastercard_index_of(data, size), merchant,
                                           threads);
  }
  // The two fields of each record.
  AccessShare access_share(const Params&, const std::uint8_t* data,
                           std::size_t size) const override {
    const auto index = mastercard_index_of(data, size);
    AccessMap map(size);
    for (const MastercardIndexEntry& e : *index) {
      map.read(e.card, mastercard::kCardDigits);
      map.read(e.card + e.merchant_offset, e.merchant_length);
    }
    return map.share(index->size());
  }
};

}  // namespace

const Workload& mastercard_workload() {
  static const Mastercard w;
  return w;
}

const Workload& mastercard_indexed_workload() {
  static const MastercardIndexed w;
  return w;
}

}  // namespace harness::workloads
