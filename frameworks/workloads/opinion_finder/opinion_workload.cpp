// Opinion Finder (thesis ch4/ch5): the sentiment of the tweets that mention a
// subject, from three dictionaries of positive words, negative words and
// adverbs (README.md has the exact rule).
#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "datasets/sentiment_lexicon.h"
#include "frameworks/workloads/access.h"
#include "frameworks/workloads/all_workloads.h"
#include "frameworks/workloads/opinion_finder/opinion_cpu.h"
#include "frameworks/workloads/opinion_finder/opinion_format.h"

namespace harness::workloads {
namespace {

using namespace opinion;

template <std::size_t N>
std::unordered_set<std::string> word_set(const std::array<std::string_view, N>& words) {
  std::unordered_set<std::string> set;
  for (std::string_view w : words) set.emplace(w);
  return set;
}

// The lower-cased maximal runs of ASCII letters of a record's text field.
std::vector<std::string> words_of(const std::uint8_t* text) {
  std::vector<std::string> words;
  std::string word;
  for (std::size_t i = 0; i <= kTextBytes; ++i) {
    if (i < kTextBytes && is_letter(text[i])) {
      word += lower(text[i]);
    } else if (!word.empty()) {
      words.push_back(word);
      word.clear();
    }
  }
  return words;
}

class OpinionFinder final : public Workload {
 public:
  std::string name() const override { return kName; }
  std::string description() const override {
    return "sentiment of the tweets mentioning a subject: positive and negative dictionary "
           "words, doubled by each adverb right before them";
  }
  std::string default_dataset() const override { return "tweets"; }
  std::string record_type() const override { return "fixed"; }
  std::string chapters() const override { return "ch4 ch5"; }
  ParamDecls params() const override {
    ParamDecl subject = string_param(
        "subject", kDefaultSubject,
        "keywords separated by commas (1-16 ASCII letters each, any case): a tweet mentions the "
        "subject when one of its words is a keyword");
    subject.non_empty = true;
    return {subject};
  }
  PaperFacts paper() const override {
    PaperFacts p;
    p.read_share = 0.73;  // table 4.1
    p.written_share = 0.0;
    p.table4_1_bytes = 6.2e9;
    return p;
  }

  void check_input(const std::uint8_t* data, std::size_t size) const override {
    opinion::check_input(data, size);
  }

  // Word by word, as the definition reads: a tweet mentions the subject when
  // a word is a keyword; then each positive word adds and each negative word
  // subtracts the factor of the adverbs right before it (2 per adverb, at
  // most kMaxAdverbFactor), any other word clearing that factor.
  std::unique_ptr<Output> reference(const Params& params, const std::uint8_t* data,
                                    std::size_t size) const override {
    opinion::check_input(data, size);
    const std::vector<std::string> keyword_list = parse_subject(param_string(params, "subject"));
    const std::unordered_set<std::string> keywords(keyword_list.begin(), keyword_list.end());
    const auto positive = word_set(datasets::kPositiveWords);
    const auto negative = word_set(datasets::kNegativeWords);
    const auto adverbs = word_set(datasets::kAdverbs);
    Tally t;
    for (std::size_t at = 0; at < size; at += kRecordBytes) {
      ++t.tweets;
      const std::vector<std::string> words = words_of(data + at);
      bool mentioned = false;
      for (const std::string& w : words) mentioned = mentioned || keywords.contains(w);
      if (!mentioned) continue;
      ++t.mentioning;
      std::int64_t factor = 1;
      for (const std::string& w : words) {
        if (positive.contains(w)) {
          t.score += factor;
          ++t.positive_words;
          factor = 1;
        } else if (negative.contains(w)) {
          t.score -= factor;
          ++t.negative_words;
          factor = 1;
        } else if (adverbs.contains(w)) {
          factor = std::min(factor * 2, kMaxAdverbFactor);
        } else {
          factor = 1;
        }
      }
    }
    return tally_output(t);
  }

  std::unique_ptr<Output> run_cpu(const Params& params, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    const std::vector<std::string> keywords = parse_subject(param_string(params, "subject"));
    return tally_output(tally_parallel(keywords, data, size, threads));
  }

  // The kernel reads each record's text field, nothing else.
  AccessShare access_share(const Params&, const std::uint8_t*, std::size_t size) const override {
    AccessMap map(size);
    const std::size_t records = size / kRecordBytes;
    for (std::size_t r = 0; r < records; ++r) map.read(r * kRecordBytes, kTextBytes);
    return map.share(records);
  }
};

}  // namespace

const Workload& opinion_finder_workload() {
  static const OpinionFinder w;
  return w;
}

}  // namespace harness::workloads
