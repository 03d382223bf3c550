#include "frameworks/workloads/word_count/word_count_format.h"

#include <fmt/format.h>

#include "harness/core/errors.h"

namespace harness::workloads::word_count {

void check_words(const std::uint8_t* data, std::size_t size) {
  std::size_t line = 1;
  for (std::size_t at = 0; at < size;) {
    if (!is_letter(data[at])) {
      line += data[at] == '\n';
      ++at;
      continue;
    }
    const std::size_t start = at;
    while (at < size && is_letter(data[at])) ++at;
    if (at - start > kMaxWordBytes)
      throw RunError(fmt::format(
          "word-count: line {} at byte {}: a word of {} letters, more than the {} a word may "
          "have (the hash table's keys)",
          line, start, at - start, kMaxWordBytes));
  }
}

}  // namespace harness::workloads::word_count
