// Opinion Finder's input and definitions (README.md): 200-byte tweet records
// (datasets/tweets.h's layout) whose first 146 bytes are the text the kernel
// reads; words are maximal runs of ASCII letters, compared lower-cased; the
// dictionaries are datasets/sentiment_lexicon.h's; the subject is a list of
// keywords.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "datasets/tweets.h"
#include "frameworks/workloads/outputs.h"

namespace harness::workloads::opinion {

inline constexpr const char* kName = "opinion-finder";
inline constexpr std::size_t kRecordBytes = datasets::kTweetRecordBytes;  // 200
inline constexpr std::size_t kTextBytes = datasets::kTweetTextBytes;      // 146: 73%
// Keywords and dictionary words have at most this many letters, so the fast
// implementation holds each in two 64-bit integers.
inline constexpr std::size_t kMaxWordLetters = 16;
// Adverbs right before a sentiment word multiply its +1 or -1 by 2 each, up
// to this factor (three adverbs).
inline constexpr std::int64_t kMaxAdverbFactor = 8;
inline constexpr const char* kDefaultSubject = "phone,battery";

inline bool is_letter(std::uint8_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline char lower(std::uint8_t c) {
  return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
}

// The subject parameter: keywords separated by commas, spaces around them
// ignored, each 1 to kMaxWordLetters ASCII letters; returned lower-cased.
// Throws UsageError naming the bad keyword.
std::vector<std::string> parse_subject(const std::string& subject);

// The answer. Sentiment words are counted in the tweets that mention the
// subject only; score is the sum of those tweets' scores.
struct Tally {
  std::int64_t tweets = 0, mentioning = 0, positive_words = 0, negative_words = 0, score = 0;
  Tally& operator+=(const Tally& t);
};
// CountsOutput {tweets, mentioning, positive_words, negative_words, score}.
std::unique_ptr<CountsOutput> tally_output(const Tally& t);

// Throws RunError naming the first malformed record (fixed_text_records.h):
// not a whole number of records, a record not ending in '\n', a '\n' inside.
void check_input(const std::uint8_t* data, std::size_t size);

}  // namespace harness::workloads::opinion
