// Word Count (thesis chapter 6, table 6.2; the MapReduce wordcount's words):
// every line's words, each a (word, 1) pair, summed per word. The answer is a
// TableOutput of one integer column: `word<TAB>count` rows sorted by word.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/workloads/access.h"
#include "frameworks/workloads/all_workloads.h"
#include "frameworks/workloads/group_by_key.h"
#include "frameworks/workloads/outputs.h"
#include "frameworks/workloads/word_count/word_count_format.h"
#include "harness/core/cuts.h"

namespace harness::workloads {
namespace {

using namespace word_count;

// A word where it lies in the input (any case), with the hash of its
// lower-cased letters: keys are compared while their line is in the cache,
// in a thread-local table (a Zipf text has few distinct words).
struct WordKeys {
  struct Key {
    const std::uint8_t* bytes = nullptr;
    std::uint64_t hash = 0;
    std::uint32_t length = 0;
  };
  static Key key(const std::uint8_t* bytes, std::size_t length) {
    std::uint8_t low[kMaxWordBytes];
    std::string longer;  // only past check_words' limit
    std::uint8_t* to = low;
    if (length > kMaxWordBytes) {
      longer.resize(length);
      to = reinterpret_cast<std::uint8_t*>(longer.data());
    }
    for (std::size_t i = 0; i < length; ++i) to[i] = bytes[i] | 0x20u;
    return {bytes, group_by_key::hash_bytes(to, length), static_cast<std::uint32_t>(length)};
  }
  std::uint64_t hash(const Key& k) const { return k.hash; }
  // Letters only: OR 0x20 lower-cases both sides.
  bool equal(const Key& a, const Key& b) const {
    if (a.hash != b.hash || a.length != b.length) return false;
    for (std::uint32_t i = 0; i < a.length; ++i)
      if ((a.bytes[i] | 0x20u) != (b.bytes[i] | 0x20u)) return false;
    return true;
  }
  void prefetch(const Key& k) const { __builtin_prefetch(k.bytes); }
  // The word as the answer has it: lower-cased.
  std::string text(const Key& k) const {
    std::string word(k.length, '\0');
    for (std::uint32_t i = 0; i < k.length; ++i) word[i] = lower(k.bytes[i]);
    return word;
  }
};

// The words of data[begin, end) counted into `counts` (pieces start at a line
// start, so no word is cut).
void count_words(const std::uint8_t* data, std::size_t begin, std::size_t end,
                 group_by_key::KeyCounts<WordKeys>& counts) {
  for (std::size_t at = begin; at < end;) {
    if (!is_letter(data[at])) {
      ++at;
      continue;
    }
    const std::size_t start = at;
    while (at < end && is_letter(data[at])) ++at;
    counts.add(WordKeys::key(data + start, at - start));
  }
}

class WordCount final : public Workload {
 public:
  std::string name() const override { return kApp; }
  std::string description() const override {
    return "Word Count on the SePo hash table (table 6.2): each line's words (maximal runs of "
           "ASCII letters, lower-cased) as (word, 1) pairs, summed per word";
  }
  std::string default_dataset() const override { return "text-zipf"; }
  std::string record_type() const override { return "variable"; }
  std::string chapters() const override { return "ch6"; }

  void check_input(const std::uint8_t* data, std::size_t size) const override {
    check_words(data, size);
  }

  std::unique_ptr<Output> reference(const Params&, const std::uint8_t* data,
                                    std::size_t size) const override {
    check_words(data, size);
    std::map<std::string, std::int64_t> counts;
    std::string word;
    for (std::size_t i = 0; i <= size; ++i) {
      if (i < size && is_letter(data[i])) {
        word += lower(data[i]);
      } else if (!word.empty()) {
        ++counts[word];
        word.clear();
      }
    }
    return std::make_unique<TableOutput>(group_by_key::table_of_counts(counts));
  }

  // Each thread counts the words of its own whole lines (line_cuts) in a
  // thread-local table; the tables are merged by partitions of the words'
  // hashes (group_by_key::count_in_parallel), the rows sorted by finish()
  // (untimed).
  std::unique_ptr<Output> run_cpu(const Params&, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    const auto cuts = line_cuts(data, size, threads);
    return group_by_key::count_in_parallel(
        WordKeys{}, threads, [&](unsigned t, group_by_key::KeyCounts<WordKeys>& counts) {
          count_words(data, cuts[t], cuts[t + 1], counts);
        });
  }

  // The table's kernel reads every byte of its lines (the words and what
  // separates them) and writes nothing; a record is a line.
  AccessShare access_share(const Params&, const std::uint8_t* data,
                           std::size_t size) const override {
    return every_byte_read_by_lines(data, size);
  }
};

}  // namespace

const Workload& word_count_workload() {
  static const WordCount w;
  return w;
}

}  // namespace harness::workloads
