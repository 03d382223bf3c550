#include "frameworks/workloads/opinion_finder/opinion_format.h"

#include <fmt/format.h>

#include "frameworks/workloads/fixed_text_records.h"
#include "harness/core/errors.h"

namespace harness::workloads::opinion {

std::vector<std::string> parse_subject(const std::string& subject) {
  std::vector<std::string> keywords;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = std::min(subject.find(',', start), subject.size());
    std::size_t first = start, last = comma;
    while (first < last && subject[first] == ' ') ++first;
    while (last > first && subject[last - 1] == ' ') --last;
    const std::string keyword = subject.substr(first, last - first);
    bool letters = !keyword.empty() && keyword.size() <= kMaxWordLetters;
    std::string lowered;
    for (char c : keyword) {
      letters = letters && is_letter(static_cast<std::uint8_t>(c));
      lowered += lower(static_cast<std::uint8_t>(c));
    }
    if (!letters)
      throw UsageError(fmt::format(
          "{}: subject '{}': the keyword '{}' is not 1 to {} ASCII letters (the subject is "
          "keywords separated by commas, e.g. '{}')",
          kName, subject, keyword, kMaxWordLetters, kDefaultSubject));
    keywords.push_back(std::move(lowered));
    if (comma == subject.size()) return keywords;
    start = comma + 1;
  }
}

Tally& Tally::operator+=(const Tally& t) {
  tweets += t.tweets;
  mentioning += t.mentioning;
  positive_words += t.positive_words;
  negative_words += t.negative_words;
  score += t.score;
  return *this;
}

std::unique_ptr<CountsOutput> tally_output(const Tally& t) {
  return std::make_unique<CountsOutput>(CountsOutput({{"tweets", t.tweets},
                                                      {"mentioning", t.mentioning},
                                                      {"positive_words", t.positive_words},
                                                      {"negative_words", t.negative_words},
                                                      {"score", t.score}}));
}

void check_input(const std::uint8_t* data, std::size_t size) {
  check_fixed_lines(kName, data, size, kRecordBytes);
}

}  // namespace harness::workloads::opinion
