// Opinion Finder on host threads: each thread takes an even range of records.
// One SIMD pass over a tweet's text (opinion_text_scan.h) gives its letters
// and where each keyword's first two letters start; a keyword is looked for
// only at those of them that start a word, compared as two integers. Only
// the tweets that mention the subject (about a tenth) are scored: their words
// listed from the letter bits, looked up in a packed dictionary
// (opinion_word_table.h). No allocation per record.
#include "frameworks/workloads/opinion_finder/opinion_cpu.h"

#include <algorithm>

#include "frameworks/workloads/opinion_finder/opinion_text_scan.h"
#include "frameworks/workloads/opinion_finder/opinion_word_table.h"
#include "harness/core/cuts.h"
#include "harness/core/parallel.h"

namespace harness::workloads::opinion {
namespace {

struct Keyword {
  std::size_t letters;
  PackedWord word;
};

// Whether a keyword is a word of the text: at a word start where its prefix
// is, a word of its length and letters.
bool mentions(const std::uint8_t* text, const TextBits& letters,
              std::span<const TextBits> prefix_bits, std::span<const Keyword> keywords) {
  const TextBits starts = letters.run_starts();
  for (std::size_t k = 0; k < keywords.size(); ++k) {
    const TextBits candidates = prefix_bits[k] & starts;
    for (std::size_t at = candidates.next_set(0); at < kTextBytes;
         at = candidates.next_set(at + 1)) {
      const std::size_t letters_here = letters.next_clear(at) - at;
      if (letters_here == keywords[k].letters &&
          load_word(text + at, letters_here) == keywords[k].word)
        return true;
    }
  }
  return false;
}

// A tweet's words in order: where each starts and how many letters it has.
struct WordList {
  std::uint8_t start[kTextBytes];
  std::uint8_t letters[kTextBytes];
  std::size_t count = 0;
};

void list_words(const TextBits& letters, WordList& words) {
  std::size_t n = 0;
  letters.run_starts().for_each_set(
      [&](std::size_t bit) { words.start[n++] = static_cast<std::uint8_t>(bit); });
  n = 0;
  letters.run_ends().for_each_set([&](std::size_t last) {
    words.letters[n] = static_cast<std::uint8_t>(last + 1 - words.start[n]);
    ++n;
  });
  words.count = n;
}

// The dictionary lookups of a tweet's words are independent of each other;
// only the factor and the sums carry from word to word, updated without
// branches, so the lookups of successive words overlap.
void score(const std::uint8_t* text, const WordList& words, const WordTable& dict, Tally& t) {
  std::int64_t factor = 1;  // of the adverbs right before the current word
  for (std::size_t i = 0; i < words.count; ++i) {
    const std::size_t n = words.letters[i];
    const std::uint8_t classes =
        n <= kMaxWordLetters ? dict.classes(load_word(text + words.start[i], n)) : 0;
    const std::int64_t positive = classes & kPositive, negative = (classes & kNegative) != 0;
    t.score += (positive - negative) * factor;
    t.positive_words += positive;
    t.negative_words += negative;
    factor = classes & kAdverb ? std::min(2 * factor, kMaxAdverbFactor) : 1;
  }
}

}  // namespace

Tally tally_parallel(const std::vector<std::string>& keyword_list, const std::uint8_t* data,
                     std::size_t size, unsigned threads) {
  std::vector<Keyword> keywords;
  std::vector<KeywordPrefix> prefixes;
  for (const std::string& k : keyword_list) {
    keywords.push_back({k.size(), pack_word(k)});
    prefixes.push_back({k[0], k.size() > 1 ? k[1] : '\0'});
  }
  const WordTable dict = sentiment_dictionary();
  const std::size_t records = size / kRecordBytes;
  const auto cuts = even_cuts(records, threads);
  struct alignas(64) Partial {
    Tally tally;
  };
  std::vector<Partial> partial(threads);
  parallel_for(threads, [&](unsigned w) {
    Tally t;
    std::vector<TextBits> prefix_bits(prefixes.size());
    WordList words;
    for (std::size_t r = cuts[w]; r < cuts[w + 1]; ++r) {
      const std::uint8_t* text = data + r * kRecordBytes;
      const TextBits letters = scan_text(text, prefixes, prefix_bits);
      if (mentions(text, letters, prefix_bits, keywords)) {
        ++t.mentioning;
        list_words(letters, words);
        score(text, words, dict, t);
      }
    }
    t.tweets = static_cast<std::int64_t>(cuts[w + 1] - cuts[w]);
    partial[w].tally = t;
  });
  Tally total;
  for (const Partial& p : partial) total += p.tally;
  return total;
}

}  // namespace harness::workloads::opinion
