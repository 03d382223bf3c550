#include "datasets/text_zipf.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#include <unordered_set>

#include "datasets/chunked.h"
#include "datasets/random.h"
#include "datasets/zipf_table.h"
#include "harness/core/errors.h"

namespace harness::datasets {
namespace {

// ---------------------------------------------------------------- vocabulary
// Pseudo-English words are syllables (onset + nucleus + coda) plus, for longer
// words, an English suffix. Lists repeat entries to weight them.
constexpr std::array kStartOnsets = {
    "",   "",   "",   "",   "",   "",   "b",  "c",  "d",  "f",  "g",  "h",   "h",
    "j",  "k",  "l",  "l",  "m",  "m",  "n",  "p",  "p",  "r",  "r",  "s",   "s",
    "s",  "t",  "t",  "t",  "v",  "w",  "w",  "y",  "th", "th", "sh", "ch",  "wh",
    "st", "tr", "pr", "br", "gr", "cr", "dr", "fr", "pl", "bl", "cl", "gl",  "fl",
    "sl", "sp", "sc", "sm", "sn", "sw", "qu", "ph", "wr", "kn", "z",  "str", "spr"};
constexpr std::array kInnerOnsets = {
    "b",  "c",  "d",  "f",  "g",  "h",  "k",  "l",  "l",  "m",  "m",  "n",  "n",  "p",  "r",  "r",
    "s",  "s",  "t",  "t",  "t",  "v",  "w",  "th", "sh", "ch", "st", "tr", "pr", "gr", "cr", "dr",
    "pl", "bl", "cl", "ct", "nd", "nt", "rt", "ll", "ss", "tt", "pp", "mm", "rr", "x",  "z"};
constexpr std::array kSingleOnsets = {"b", "c", "d", "f", "g", "h", "l", "m",
                                      "n", "p", "r", "s", "t", "t", "v", "w"};
constexpr std::array kNuclei = {"a",  "a",  "a",  "e",  "e",  "e",  "e",  "i",  "i",
                                "i",  "o",  "o",  "o",  "u",  "u",  "y",  "ea", "ee",
                                "oo", "ou", "ai", "ie", "oa", "au", "ei", "io"};
constexpr std::array kCodas = {"n",  "n",  "r",  "r",  "s",  "t",  "l",  "d",  "m",  "st", "nd",
                               "ng", "nt", "ck", "ll", "ss", "rt", "rn", "rd", "sh", "th", "ch",
                               "x",  "ct", "ft", "mp", "lt", "ld", "rs", "ts", "k",  "p",  "ght"};
constexpr std::array kSuffixes = {
    "ing", "ed",  "er",   "ly",  "tion", "ness", "ment", "able", "ous",  "es", "s",  "al", "ity",
    "ive", "ful", "less", "ism", "ist",  "ize",  "ure",  "ance", "ence", "y",  "ic", "ate"};

// Accented forms (UTF-8, two bytes each) of the letters they replace.
struct Accent {
  char letter;
  const char* utf8;
};
constexpr std::array kAccents = {
    Accent{'a', "\xC3\xA0"}, Accent{'a', "\xC3\xA1"}, Accent{'a', "\xC3\xA2"},
    Accent{'a', "\xC3\xA4"}, Accent{'a', "\xC3\xA5"}, Accent{'e', "\xC3\xA9"},
    Accent{'e', "\xC3\xA8"}, Accent{'e', "\xC3\xAA"}, Accent{'e', "\xC3\xAB"},
    Accent{'i', "\xC3\xAD"}, Accent{'i', "\xC3\xAF"}, Accent{'i', "\xC3\xAE"},
    Accent{'o', "\xC3\xB3"}, Accent{'o', "\xC3\xB6"}, Accent{'o', "\xC3\xB4"},
    Accent{'o', "\xC3\xB8"}, Accent{'u', "\xC3\xBA"}, Accent{'u', "\xC3\xBC"},
    Accent{'u', "\xC3\xBB"}, Accent{'n', "\xC3\xB1"}, Accent{'c', "\xC3\xA7"}};

// Real loanwords and names, placed at random mid ranks. Literals are split
// after each escape so that a following letter is not read as a hex digit.
constexpr std::array kLoanwords = {
    "caf\xC3\xA9",  // café
    "na\xC3\xAF"
    "ve",  // naïve
    "Z\xC3\xBC"
    "rich",  // Zürich
    "fa\xC3\xA7"
    "ade",  // façade
    "r\xC3\xA9"
    "sum\xC3\xA9",  // résumé
    "jalape\xC3\xB1"
    "o",  // jalapeño
    "\xC3\x85"
    "ngstr\xC3\xB6"
    "m",             // Ångström
    "Malm\xC3\xB6",  // Malmö
    "Krak\xC3\xB3"
    "w",              // Kraków
    "Bogot\xC3\xA1",  // Bogotá
    "cr\xC3\xA8"
    "me",  // crème
    "d\xC3\xA9"
    "j\xC3\xA0",  // déjà
    "fianc\xC3\xA9"
    "e",  // fiancée
    "M\xC3\xBC"
    "ller",  // Müller
    "se\xC3\xB1"
    "or",  // señor
    "pi\xC3\xB1"
    "ata",  // piñata
    "G\xC3\xB6"
    "del",  // Gödel
    "Qu\xC3\xA9"
    "bec",  // Québec
    "\xC5\x8C"
    "saka",  // Ōsaka
    "\xC3\xBC"
    "ber",  // über
    "Nguy\xE1\xBB\x85"
    "n",  // Nguyễn (a three-byte letter)
};

template <std::size_t N>
const char* pick(Rng& rng, const std::array<const char*, N>& list) {
  return list[rng.below(static_cast<std::uint32_t>(N))];
}

constexpr std::array kVowels = {"a", "e", "i", "o", "u"};
constexpr std::array kFinals = {"n", "r", "s", "t", "l", "d", "m", "x", "f", "p", "b", "g", "k"};

// A pseudo-English word of exactly `length` bytes (all lower-case ASCII), or
// an empty string when this draw missed the length.
std::string make_word(Rng& rng, int length) {
  if (length <= 1) return pick(rng, std::array{"a", "i", "o", "e", "u", "y"});
  if (length == 2) {  // "bu", "at", "oh"
    const std::uint32_t shape = rng.below(10);
    if (shape < 6) return std::string(pick(rng, kSingleOnsets)) + pick(rng, kVowels);
    if (shape < 9) return std::string(pick(rng, kVowels)) + pick(rng, kFinals);
    return std::string(pick(rng, kVowels)) + "h";
  }
  std::string suffix;
  if (length >= 6 && rng.below(100) < 35) {
    suffix = pick(rng, kSuffixes);
    if (static_cast<int>(suffix.size()) > length - 3) suffix.clear();
  }
  const std::size_t stem = static_cast<std::size_t>(length) - suffix.size();
  std::string word;
  for (int attempt = 0; attempt < 24; ++attempt) {
    word.clear();
    bool vowel_end = false;
    while (word.size() < stem) {
      if (word.empty()) {
        word += pick(rng, kStartOnsets);
      } else if (vowel_end) {
        word += pick(rng, kInnerOnsets);
      } else if (rng.below(2) == 0) {
        word += pick(rng, kSingleOnsets);
      }
      word += pick(rng, kNuclei);
      vowel_end = rng.below(100) >= 55;
      if (!vowel_end) word += pick(rng, kCodas);
    }
    if (word.size() == stem && word.find("yy") == std::string::npos) return word + suffix;
  }
  return {};
}

// Replaces one ASCII letter after the first with an accented UTF-8 form.
void accent_word(Rng& rng, std::string& word) {
  std::vector<std::pair<std::size_t, std::size_t>> options;  // (position, accent)
  for (std::size_t i = 1; i < word.size(); ++i) {
    for (std::size_t a = 0; a < kAccents.size(); ++a) {
      if (kAccents[a].letter == word[i]) options.emplace_back(i, a);
    }
  }
  if (options.empty()) return;
  const auto [pos, a] = options[rng.below(static_cast<std::uint32_t>(options.size()))];
  word.replace(pos, 1, kAccents[a].utf8);
}

// Word length by popularity rank, as in English: the most frequent words are
// the shortest and the length grows with log(rank). The 20 most frequent
// words have the lengths of English's: the of and to a in is it you that he
// was for on are with as I his they.
constexpr std::array<int, 20> kTopLengths = {3, 2, 3, 2, 1, 2, 2, 2, 3, 4,
                                             2, 3, 3, 2, 3, 4, 2, 1, 3, 4};
// Other ranks: base + slope * ln(rank + 1), a triangular noise of +-kNoise,
// and with kTailPercent% probability a geometric tail (continue with
// kTailContinuePercent%) of up to 10 more letters. Tuned so that the running
// text's word lengths follow English (mean ~4.8; 2-3 letters most common; ~7%
// of 9 letters and more). ln is approximated from the bit width so that only
// exactly rounded double arithmetic is used (no libm): the same everywhere.
constexpr double kBase = 1.2, kSlope = 0.55, kNoise = 2.6;
constexpr std::uint32_t kTailPercent = 30, kTailContinuePercent = 65;

int target_length(Rng& rng, std::uint32_t rank) {
  if (rank < kTopLengths.size()) return kTopLengths[rank];
  const std::uint64_t x = std::uint64_t{rank} + 1;
  const int k = static_cast<int>(std::bit_width(x)) - 1;
  const double log2_x =
      k + (static_cast<double>(x) / static_cast<double>(std::uint64_t{1} << k) - 1.0);
  const double base = kBase + kSlope * 0.6931471805599453 * log2_x;
  const double noise = kNoise * ((rng.below(1000) + rng.below(1000)) / 1000.0 - 1.0);
  int tail = 0;
  if (rng.below(100) < kTailPercent) {
    while (tail < 10 && rng.below(100) < kTailContinuePercent) ++tail;
  }
  const int length = static_cast<int>(std::max(1.0, base + noise + tail + 0.5));
  return std::min(length, 22);
}

// A word padded to 32 bytes, so that copying one is a fixed-size copy.
struct alignas(32) WordRecord {
  char bytes[31];
  std::uint8_t length;
};

struct Vocabulary {
  std::vector<WordRecord> words;  // by rank
  ZipfTable ranks;                // Zipf-Mandelbrot sampling of ranks

  // u: 31 random bits.
  std::uint32_t sample(std::uint32_t u) const { return ranks.rank_of(u); }
};

std::vector<std::string> build_words(std::uint64_t seed) {
  Rng rng(mix_seed(seed, 0x766F636162756C61ULL));  // "vocabula"
  std::unordered_set<std::string> seen;
  seen.reserve(2 * kTextZipfVocabulary);
  for (const char* loanword : kLoanwords) seen.insert(loanword);
  std::vector<std::string> words;
  words.reserve(kTextZipfVocabulary);
  for (std::uint32_t rank = 0; rank < kTextZipfVocabulary; ++rank) {
    int length = target_length(rng, rank);
    std::string word;
    for (;;) {
      bool fresh = false;
      for (int attempt = 0; attempt < 64 && !fresh; ++attempt) {
        word = make_word(rng, length);
        fresh = !word.empty() && !seen.contains(word);
      }
      if (fresh) break;
      ++length;  // this length's short words are used up
    }
    seen.insert(word);
    if (rank >= 40 && rng.below(1000) < 40) {
      word[0] = static_cast<char>(word[0] - 'a' + 'A');  // a proper noun
    } else if (rank >= 150 && rng.below(1000) < 11) {
      accent_word(rng, word);
    }
    words.push_back(std::move(word));
  }
  std::unordered_set<std::uint32_t> placed;
  for (const char* loanword : kLoanwords) {
    std::uint32_t rank;
    do {
      rank = 300 + rng.below(30000);
    } while (!placed.insert(rank).second);
    words[rank] = loanword;
  }
  return words;
}

// The words, padded, and their Zipf-Mandelbrot ranks (zipf_table.h).
Vocabulary build_vocabulary(std::uint64_t seed) {
  Vocabulary vocab;
  const std::vector<std::string> words = build_words(seed);
  const std::uint32_t n = kTextZipfVocabulary;
  vocab.words.resize(n);
  for (std::uint32_t r = 0; r < n; ++r) {
    WordRecord& rec = vocab.words[r];
    std::memset(rec.bytes, ' ', sizeof rec.bytes);
    std::memcpy(rec.bytes, words[r].data(), words[r].size());
    rec.length = static_cast<std::uint8_t>(words[r].size());
  }
  vocab.ranks = ZipfTable(n, kTextZipfOffset);
  return vocab;
}

// ---------------------------------------------------------------- text
// Probabilities per token, in 1/65536.
constexpr std::uint32_t kNumber16 = 780;   // 1.2%
constexpr std::uint32_t kHyphen16 = 520;   // 0.8%
constexpr std::uint32_t kAllCaps16 = 200;  // 0.3%
constexpr std::uint32_t kComma16 = 5200;   // 7.9%
constexpr std::uint32_t kSemicolon16 = 400;
constexpr std::uint32_t kColon16 = 260;
constexpr std::uint32_t kDash16 = 170;
constexpr const char* kEmDash = "\xE2\x80\x94";  // "—"

char upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

// Writes paragraphs of sentences into a buffer until it holds at least
// `target` bytes, stopping after the token that reaches it (the buffer has
// kSlack bytes more). A token is written first and then the
// byte before it becomes ' ' or, when the line would pass its width, '\n'.
class ChunkWriter {
 public:
  static constexpr std::size_t kSlack = 1024;

  ChunkWriter(const Vocabulary& vocab, Rng& rng, char* buffer, std::size_t target)
      : vocab_(vocab), rng_(rng), buf_(buffer), target_(target) {}

  void run() {
    while (pos_ < target_) {
      if (sentences_left_ == 0) {  // a new paragraph
        if (pos_ > 0) {
          put_char('\n');
          put_char('\n');
        }
        line_ = 0;
        width_ = 60 + rng_.below(21);
        sentences_left_ = 1 + rng_.below(5) + rng_.below(5);
      }
      sentence();
      --sentences_left_;
    }
  }

 private:
  void begin_token() {
    if (line_ > 0) separator_ = pos_++;
    start_ = pos_;
  }

  void end_token() {
    const std::size_t n = pos_ - start_;
    if (line_ == 0) {
      line_ = n;
    } else if (line_ + 1 + n > width_) {
      buf_[separator_] = '\n';
      line_ = n;
    } else {
      buf_[separator_] = ' ';
      line_ += 1 + n;
    }
  }

  void put_char(char c) { buf_[pos_++] = c; }

  void put_word(std::uint32_t rank) {
    const WordRecord& word = vocab_.words[rank];
    std::memcpy(buf_ + pos_, word.bytes, sizeof(WordRecord));  // fixed size: fast
    pos_ += word.length;
  }

  void put_number() {
    char* p = buf_ + pos_;
    char* end = p + 32;
    const std::uint32_t kind = rng_.below(100);
    if (kind < 40) {  // small count
      p = std::to_chars(p, end, 1 + rng_.below(100)).ptr;
    } else if (kind < 60) {  // year
      p = std::to_chars(p, end, 1850 + rng_.below(175)).ptr;
    } else if (kind < 75) {  // decimal
      p = std::to_chars(p, end, rng_.below(100)).ptr;
      *p++ = '.';
      const std::uint32_t frac = rng_.below(100);
      *p++ = static_cast<char>('0' + frac / 10);
      *p++ = static_cast<char>('0' + frac % 10);
    } else if (kind < 90) {  // thousands, round-ish: "12,500"
      p = std::to_chars(p, end, 1 + rng_.below(999)).ptr;
      *p++ = ',';
      *p++ = static_cast<char>('0' + rng_.below(10));
      *p++ = '0';
      *p++ = '0';
    } else {  // percentage
      p = std::to_chars(p, end, 1 + rng_.below(99)).ptr;
      *p++ = '%';
    }
    pos_ = static_cast<std::size_t>(p - buf_);
  }

  // A word, number, hyphenated pair or ALL-CAPS word. r: a fresh draw (bits
  // 0-31 pick the word, 32-47 the kind).
  void put_word_token(std::uint64_t r, bool capitalize) {
    const auto kind = static_cast<std::uint32_t>((r >> 32) & 0xFFFF);
    if (kind < kNumber16) {
      put_number();
      return;
    }
    const std::size_t start = pos_;
    put_word(vocab_.sample(static_cast<std::uint32_t>(r) >> 1));
    if (kind < kNumber16 + kHyphen16) {
      put_char('-');
      put_word(vocab_.sample(static_cast<std::uint32_t>(rng_.next()) >> 1));
    } else if (kind < kNumber16 + kHyphen16 + kAllCaps16) {
      for (std::size_t i = start; i < pos_; ++i) buf_[i] = upper(buf_[i]);
    }
    if (capitalize) buf_[start] = upper(buf_[start]);
  }

  void sentence() {
    const std::uint32_t n = 3 + rng_.below(9) + rng_.below(9) + rng_.below(7);
    const bool quoted = rng_.below(100) < 4;
    std::uint32_t paren_open = n, paren_close = n;
    if (n >= 5 && rng_.below(100) < 6) {
      paren_open = 1 + rng_.below(n - 3);
      paren_close = std::min(paren_open + rng_.below(4), n - 2);
    }
    for (std::uint32_t i = 0; i < n && pos_ < target_; ++i) {
      const std::uint64_t r = rng_.next();
      begin_token();
      if (i == 0 && quoted) put_char('"');
      if (i == paren_open) put_char('(');
      put_word_token(r, i == 0);
      if (i == paren_close) put_char(')');
      bool dash = false;
      if (i + 1 == n) {
        const std::uint32_t end = rng_.below(100);
        if (end < 84) {
          put_char('.');
        } else if (end < 91) {
          put_char('?');
        } else if (end < 97) {
          put_char('!');
        } else {
          put_char('.');
          put_char('.');
          put_char('.');
        }
        if (quoted) put_char('"');
      } else {
        const auto p = static_cast<std::uint32_t>(r >> 48);  // bits 48-63
        if (p < kComma16) {
          put_char(',');
        } else if (p < kComma16 + kSemicolon16) {
          put_char(';');
        } else if (p < kComma16 + kSemicolon16 + kColon16) {
          put_char(':');
        } else if (p < kComma16 + kSemicolon16 + kColon16 + kDash16) {
          dash = true;
        }
      }
      end_token();
      if (dash) {
        begin_token();
        for (const char* c = kEmDash; *c != 0; ++c) put_char(*c);
        end_token();
      }
    }
  }

  const Vocabulary& vocab_;
  Rng& rng_;
  char* buf_;
  std::size_t target_;
  std::size_t pos_ = 0;
  std::size_t start_ = 0;      // of the current token
  std::size_t separator_ = 0;  // the byte before it, when the line is not empty
  std::size_t line_ = 0;       // bytes on the current line
  std::size_t width_ = 72;
  std::uint32_t sentences_left_ = 0;
};

// Chunk `index` of the text, exactly `size` bytes, ending in '\n'.
void generate_chunk(const Vocabulary& vocab, std::uint64_t seed, std::uint64_t index,
                    std::size_t size, std::string& out) {
  out.resize(size + ChunkWriter::kSlack);
  if (size == 0) {
    out.clear();
    return;
  }
  Rng rng(mix_seed(seed, index));
  ChunkWriter(vocab, rng, out.data(), size).run();
  out.resize(size);
  end_chunk_with_newline(out);
}

class TextZipf final : public Generator {
 public:
  std::string name() const override { return "text-zipf"; }
  std::string description() const override {
    return "English-like text: Zipf(1) pseudo-words, sentences, numbers, 0.5% non-ASCII words";
  }
  int version() const override { return 1; }
  std::string extension() const override { return "txt"; }
  void generate(std::uint64_t size_bytes, std::uint64_t seed, std::ostream& out) const override {
    generate_text_zipf(size_bytes, seed, out, 0);
  }
};

}  // namespace

const Generator& text_zipf_generator() {
  static const TextZipf generator;
  return generator;
}

std::vector<std::string> text_zipf_vocabulary(std::uint64_t seed) { return build_words(seed); }

void generate_text_zipf(std::uint64_t size_bytes, std::uint64_t seed, std::ostream& out,
                        unsigned threads, std::uint64_t chunk_bytes) {
  const Vocabulary vocab = size_bytes ? build_vocabulary(seed) : Vocabulary{};
  write_chunks("text-zipf", size_bytes, chunk_bytes, threads, out,
               [&](std::uint64_t index, std::size_t size, std::string& buffer) {
                 generate_chunk(vocab, seed, index, size, buffer);
               });
}

}  // namespace harness::datasets
