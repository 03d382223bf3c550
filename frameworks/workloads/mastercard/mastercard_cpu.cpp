// Two parallel passes over pieces of the records, one piece per worker:
//  1. each worker collects its piece's distinct customers of X;
//  2. each worker tests every record's card against a bitmap of the
//     customers' hashes and, for the few that pass, numbers the merchant in
//     its own merchant table and files (card, merchant) under the card's
//     shard.
// What is merged is sharded by hash so that worker p alone merges shard p and
// the merges run in parallel: the customers of X (gathered from every
// worker's list), the merchant tables, and the filed records of shard p,
// which worker p checks against its shard of the customers (a table that
// stays in its cache, rather than every worker's looking up all customers
// during the pass) and counts.
//
// Measured on 16 cores of an H100 host at the paper's 6.4 GB (seed 42,
// X = M0000001): pass 1 reads at about the memory's bandwidth; pass 2 takes
// about three times as long (its per-record work: parsing and hashing every
// card, the filter, numbering the candidates' merchants) and scales with the
// cores; the merges take about a sixth of the total.
#include "frameworks/workloads/mastercard/mastercard_cpu.h"

#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include "frameworks/workloads/mastercard/mastercard_answer.h"
#include "frameworks/workloads/mastercard/mastercard_format.h"
#include "frameworks/workloads/mastercard/mastercard_tables.h"
#include "harness/core/cuts.h"
#include "harness/core/parallel.h"

namespace harness::workloads::mastercard {
namespace {

// A record found by scanning: its merchant id ends at the next '|'.
struct ScannedRecord {
  const std::uint8_t* card;  // 16 digits
  const std::uint8_t* merchant;
  const std::uint8_t* end;  // of the line
  bool merchant_is(std::string_view x) const {
    return static_cast<std::size_t>(end - merchant) > x.size() &&
           merchant[x.size()] == kSeparator &&
           same_bytes(merchant, reinterpret_cast<const std::uint8_t*>(x.data()), x.size());
  }
  std::uint32_t merchant_length() const {  // at most kMaxMerchantBytes
    const std::uint8_t* at = merchant;
    const std::uint8_t* limit = end - merchant > static_cast<std::ptrdiff_t>(kMaxMerchantBytes)
                                    ? merchant + kMaxMerchantBytes
                                    : end;
    while (at < limit && *at != kSeparator) ++at;
    return static_cast<std::uint32_t>(at - merchant);
  }
};

// A piece's records, found by scanning every line for its end and its
// merchant id for its separator.
class LineRecords {
 public:
  using Record = ScannedRecord;
  LineRecords(const std::uint8_t* data, std::size_t size, unsigned pieces)
      : data_(data), cuts_(line_cuts(data, size, pieces)) {}

  template <typename Visit>
  void for_each(unsigned piece, Visit&& visit) const {
    const std::uint8_t* at = data_ + cuts_[piece];
    const std::uint8_t* const end = data_ + cuts_[piece + 1];
    constexpr std::ptrdiff_t kMerchantAt = kCardDigits + 1;  // after the digits and '|'
    while (at < end) {
      if (*at == '\n') {  // an empty line
        ++at;
        continue;
      }
      // A well-formed line holds no '\n' before its merchant id.
      const std::uint8_t* merchant = end - at > kMerchantAt ? at + kMerchantAt : end;
      const auto* nl = static_cast<const std::uint8_t*>(
          std::memchr(merchant, '\n', static_cast<std::size_t>(end - merchant)));
      const std::uint8_t* line_end = nl ? nl : end;
      if (merchant < line_end) visit(ScannedRecord{at, merchant, line_end});
      at = line_end + 1;
    }
  }

 private:
  const std::uint8_t* data_;
  std::vector<std::size_t> cuts_;
};

// A record from the index.
struct IndexedRecord {
  const std::uint8_t* card;
  const std::uint8_t* merchant;
  std::uint32_t length;
  bool merchant_is(std::string_view x) const {
    return length == x.size() &&
           same_bytes(merchant, reinterpret_cast<const std::uint8_t*>(x.data()), length);
  }
  std::uint32_t merchant_length() const { return length; }
};

// A piece's records from the index: reads the two fields and nothing else.
class IndexedRecords {
 public:
  using Record = IndexedRecord;
  IndexedRecords(const std::uint8_t* data, std::span<const MastercardIndexEntry> index,
                 unsigned pieces)
      : data_(data), index_(index), cuts_(even_cuts(index.size(), pieces)) {}

  template <typename Visit>
  void for_each(unsigned piece, Visit&& visit) const {
    for (std::size_t i = cuts_[piece]; i < cuts_[piece + 1]; ++i) {
      const MastercardIndexEntry& e = index_[i];
      visit(IndexedRecord{data_ + e.card, data_ + e.card + e.merchant_offset, e.merchant_length});
    }
  }

 private:
  const std::uint8_t* data_;
  std::span<const MastercardIndexEntry> index_;
  std::vector<std::size_t> cuts_;
};

// Which of `parts` shards a hash falls in: by its high half (a table's slot
// comes from the low half).
std::size_t shard_of(std::uint64_t hash, std::size_t parts) {
  return static_cast<std::size_t>(((hash >> 32) * parts) >> 32);
}

// A shard of the customers of X: their cards, and a bitmap of their hashes
// (16 bits per card: about 1 in 16 other cards passes it) that turns most
// other cards away without the table.
class CustomerShard {
 public:
  CustomerShard() = default;
  explicit CustomerShard(KeySet cards) : cards_(std::move(cards)) {
    std::size_t bits = 4096;
    while (bits < 16 * cards_.size()) bits *= 2;
    filter_.assign(bits / 64, 0);
    filter_mask_ = bits - 1;
    cards_.for_each([&](std::uint64_t card) {
      const std::uint64_t bit = filter_bit(mix64(card));
      filter_[bit / 64] |= std::uint64_t{1} << (bit % 64);
    });
  }
  // False: the card of this hash (mix64) is not a customer of X.
  bool may_hold(std::uint64_t hash) const {
    const std::uint64_t bit = filter_bit(hash);
    return filter_[bit / 64] >> (bit % 64) & 1;
  }
  // The card's number in the shard (its slot, below slots()), or KeySet::kAbsent.
  std::size_t find(std::uint64_t card) const { return cards_.find(card); }
  std::size_t slots() const { return cards_.slots(); }

 private:
  // Bits 16 and up: independent of the shard (the high half's product) and
  // of most of the slot (the low bits).
  std::uint64_t filter_bit(std::uint64_t hash) const { return (hash >> 16) & filter_mask_; }
  KeySet cards_;
  std::vector<std::uint64_t> filter_;
  std::uint64_t filter_mask_ = 0;
};

// A pass-2 record whose card passed its shard's filter.
struct Candidate {
  std::uint64_t card;
  std::uint32_t merchant;  // its number in the worker's table, then among all merchants
};

// What worker p counts of shard p, indexed by merchant number.
struct Counts {
  std::vector<std::int64_t> visits, customers;
};

// Shard p's candidates of every worker (their merchants numbered among all
// `merchant_count`): those whose card is a customer of X (the others passed
// the filter by chance) count a visit; grouped by customer (a counting sort),
// they count each merchant's distinct customers with one mark per merchant
// (the last customer counted there), no set of (customer, merchant) pairs
// needed.
Counts count_shard(const CustomerShard& customers,
                   const std::vector<const std::vector<Candidate>*>& candidates,
                   std::size_t merchant_count) {
  Counts counts{std::vector<std::int64_t>(merchant_count, 0),
                std::vector<std::int64_t>(merchant_count, 0)};
  std::vector<std::uint32_t> customer_of, merchant_visited;  // of each visit
  std::vector<std::size_t> group_end(customers.slots() + 1, 0);
  for (const std::vector<Candidate>* filed : candidates) {
    for (const Candidate& c : *filed) {
      const std::size_t customer = customers.find(c.card);
      if (customer == KeySet::kAbsent) continue;
      ++counts.visits[c.merchant];
      customer_of.push_back(static_cast<std::uint32_t>(customer));
      merchant_visited.push_back(c.merchant);
      ++group_end[customer + 1];
    }
  }
  for (std::size_t c = 1; c < group_end.size(); ++c) group_end[c] += group_end[c - 1];
  std::vector<std::size_t> next = group_end;
  std::vector<std::uint32_t> grouped(customer_of.size());
  for (std::size_t i = 0; i < customer_of.size(); ++i)
    grouped[next[customer_of[i]]++] = merchant_visited[i];
  constexpr std::uint32_t kNobody = ~std::uint32_t{0};
  std::vector<std::uint32_t> last_customer(merchant_count, kNobody);
  for (std::uint32_t c = 0; c + 1 < group_end.size(); ++c) {
    for (std::size_t i = group_end[c]; i < group_end[c + 1]; ++i) {
      if (last_customer[grouped[i]] == c) continue;
      last_customer[grouped[i]] = c;
      ++counts.customers[grouped[i]];
    }
  }
  return counts;
}

template <typename Records>
std::unique_ptr<Output> affinity(const Records& records, std::string_view x, unsigned workers) {
  // Pass 1.
  std::vector<KeySet> customers_seen(workers);
  parallel_for(workers, [&](unsigned w) {
    KeySet mine;  // allocated by its worker
    records.for_each(w, [&](const auto& record) {
      if (record.merchant_is(x)) mine.insert(card_value(record.card));
    });
    customers_seen[w] = std::move(mine);
  });
  std::vector<CustomerShard> customers(workers);
  parallel_for(workers, [&](unsigned p) {
    KeySet shard;
    for (const KeySet& seen : customers_seen)
      seen.for_each([&](std::uint64_t card) {
        if (shard_of(mix64(card), workers) == p) shard.insert(card);
      });
    customers[p] = CustomerShard(std::move(shard));
  });

  // Pass 2. candidates[w][p]: worker w's records whose card passed shard p's
  // filter.
  std::vector<MerchantTable> merchants(workers);
  std::vector<std::vector<std::vector<Candidate>>> candidates(workers);
  parallel_for(workers, [&](unsigned w) {
    MerchantTable mine;
    std::vector<std::vector<Candidate>> my_candidates(workers);
    records.for_each(w, [&](const auto& record) {
      const std::uint64_t card = card_value(record.card), hash = mix64(card);
      const std::size_t p = shard_of(hash, workers);
      if (!customers[p].may_hold(hash)) return;
      const auto merchant = MerchantTable::key(record.merchant, record.merchant_length());
      my_candidates[p].push_back({card, mine.insert(merchant)});
    });
    merchants[w] = std::move(mine);
    candidates[w] = std::move(my_candidates);
  });

  // Merge the merchant tables, shard q of the merchant hashes by worker q:
  // merged[q] holds them, and found[q][w] lists worker w's merchants in
  // shard q as (m, its number in merged[q]), written by worker q alone. (One
  // array per worker w written by every q had neighbouring entries written
  // by different threads.)
  std::vector<MerchantTable> merged(workers);
  using Found = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
  std::vector<std::vector<Found>> found(workers);
  parallel_for(workers, [&](unsigned q) {
    MerchantTable mine;
    std::vector<Found> lists(workers);
    for (unsigned w = 0; w < workers; ++w) {
      const auto& theirs = merchants[w].merchants();
      for (std::size_t m = 0; m < theirs.size(); ++m) {
        const MerchantTable::Key k = MerchantTable::key(theirs[m].id, theirs[m].length);
        if (shard_of(k.hash, workers) == q)
          lists[w].push_back({static_cast<std::uint32_t>(m), mine.insert(k)});
      }
    }
    merged[q] = std::move(mine);
    found[q] = std::move(lists);
  });
  // Merchant (q, g) is number first_of[q] + g of all; each worker renumbers
  // its candidates' merchants so.
  std::vector<std::uint32_t> first_of(workers + 1, 0);
  for (unsigned q = 0; q < workers; ++q)
    first_of[q + 1] = first_of[q] + static_cast<std::uint32_t>(merged[q].merchants().size());
  const std::size_t merchant_count = first_of[workers];
  parallel_for(workers, [&](unsigned w) {
    std::vector<std::uint32_t> number(merchants[w].merchants().size());
    for (unsigned q = 0; q < workers; ++q)
      for (const auto& [m, g] : found[q][w]) number[m] = first_of[q] + g;
    for (auto& filed : candidates[w]) {
      for (Candidate& c : filed) c.merchant = number[c.merchant];
    }
  });

  std::vector<Counts> shard_counts(workers);
  parallel_for(workers, [&](unsigned p) {
    std::vector<const std::vector<Candidate>*> filed(workers);
    for (unsigned w = 0; w < workers; ++w) filed[w] = &candidates[w][p];
    shard_counts[p] = count_shard(customers[p], filed, merchant_count);
  });

  // The merchants the customers of X visited (not those that only cards
  // passing a filter by chance did).
  auto table = affinity_table();
  table->reserve(merchant_count, merchant_count * (x.size() + 1));
  for (unsigned q = 0; q < workers; ++q) {
    const auto& ours = merged[q].merchants();
    for (std::size_t g = 0; g < ours.size(); ++g) {
      std::int64_t values[2] = {0, 0};  // visits, customers
      for (const Counts& counts : shard_counts) {
        values[0] += counts.visits[first_of[q] + g];
        values[1] += counts.customers[first_of[q] + g];
      }
      if (values[0] > 0)
        table->add(std::string_view(reinterpret_cast<const char*>(ours[g].id), ours[g].length),
                   values);
    }
  }
  return table;
}

}  // namespace

std::unique_ptr<Output> affinity_from_lines(const std::uint8_t* data, std::size_t size,
                                            const std::string& merchant, unsigned threads) {
  return affinity(LineRecords(data, size, threads), merchant, threads);
}

std::unique_ptr<Output> affinity_from_index(const std::uint8_t* data,
                                            std::span<const MastercardIndexEntry> index,
                                            const std::string& merchant, unsigned threads) {
  return affinity(IndexedRecords(data, index, threads), merchant, threads);
}

}  // namespace harness::workloads::mastercard
