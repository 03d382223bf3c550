#include "datasets/text_zipf.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <string_view>
#include <thread>
#include <unordered_set>

#include "datasets/random.h"
#include "harness/core/errors.h"

namespace harness::datasets {
namespace {

// ---------------------------------------------------------------- vocabulary
// Pseudo-English words are syllables (onset + nucleus + coda) plus, for longer
// words, an English suffix. Lists repeat entries to weight them.
constexpr std::array kStartOnsets = {
    "",   "",   "",   "",   "",   "",   "b",  "c",   "d",   "f",  "g",  "h",  "h",
    "j",  "k",  "l",  "l",  "m",  "m",  "n",  "p",   "p",   "r",  "r",  "s",  "s",
    "s",  "t",  "t",  "t",  "v",  "w",  "w",  "y",   "th",  "th", "sh", "ch", "wh",
    "st", "tr", "pr", "br", "gr", "cr", "dr", "fr",  "pl",  "bl", "cl", "gl", "fl",
    "sl", "sp", "sc", "sm", "sn", "sw", "qu", "ph",  "wr",  "kn", "z",  "str", "spr"};
constexpr std::array kInnerOnsets = {"b",  "c",  "d",  "f",  "g",  "h",  "k",  "l",  "l",  "m",
                                     "m",  "n",  "n",  "p",  "r",  "r",  "s",  "s",  "t",  "t",
                                     "t",  "v",  "w",  "th", "sh", "ch", "st", "tr", "pr", "gr",
                                     "cr", "dr", "pl", "bl", "cl", "ct", "nd", "nt", "rt", "ll",
                                     "ss", "tt", "pp", "mm", "rr", "x",  "z"};
constexpr std::array kSingleOnsets = {"b", "c", "d", "f", "g", "h", "l", "m", "n",
                                      "p", "r", "s", "t", "t", "v", "w"};
constexpr std::array kNuclei = {"a",  "a",  "a",  "e",  "e",  "e",  "e",  "i",  "i",
                                "i",  "o",  "o",  "o",  "u",  "u",  "y",  "ea", "ee",
                                "oo", "ou", "ai", "ie", "oa", "au", "ei", "io"};
constexpr std::array kCodas = {"n",  "n",  "r",  "r",  "s",  "t",  "l",  "d",  "m",  "st",
                               "nd", "ng", "nt", "ck", "ll", "ss", "rt", "rn", "rd", "sh",
                               "th", "ch", "x",  "ct", "ft", "mp", "lt", "ld", "rs", "ts",
                               "k",  "p",  "ght"};
constexpr std::array kSuffixes = {"ing", "ed",  "er",  "ly",   "tion", "ness", "ment", "able", "ous",
                                  "es",  "s",   "al",  "ity",  "ive",  "ful",  "less", "ism",  "ist",
                                  "ize", "ure", "ance", "ence", "y",   "ic",   "ate"};

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
    "caf\xC3\xA9",                   // café
    "na\xC3\xAF" "ve",               // naïve
    "Z\xC3\xBC" "rich",              // Zürich
    "fa\xC3\xA7" "ade",              // façade
    "r\xC3\xA9" "sum\xC3\xA9",       // résumé
    "jalape\xC3\xB1" "o",            // jalapeño
    "\xC3\x85" "ngstr\xC3\xB6" "m",  // Ångström
    "Malm\xC3\xB6",                  // Malmö
    "Krak\xC3\xB3" "w",              // Kraków
    "Bogot\xC3\xA1",                 // Bogotá
    "cr\xC3\xA8" "me",               // crème
    "d\xC3\xA9" "j\xC3\xA0",         // déjà
    "fianc\xC3\xA9" "e",             // fiancée
    "M\xC3\xBC" "ller",              // Müller
    "se\xC3\xB1" "or",               // señor
    "pi\xC3\xB1" "ata",              // piñata
    "G\xC3\xB6" "del",               // Gödel
    "Qu\xC3\xA9" "bec",              // Québec
    "\xC5\x8C" "saka",               // Ōsaka
    "\xC3\xBC" "ber",                // über
    "Nguy\xE1\xBB\x85" "n",          // Nguyễn (a three-byte letter)
};

template <std::size_t N>
const char* pick(Rng& rng, const std::array<const char*, N>& list) {
  return list[rng.below(static_cast<std::uint32_t>(N))];
}

// A pseudo-English word of exactly `length` bytes (all lower-case ASCII).
std::string make_word(Rng& rng, int length) {
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
    if (word.size() == stem) break;
  }
  word.resize(stem);  // rare: no attempt hit the length exactly
  return word + suffix;
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

// Word length by popularity rank: grows with log(rank) as in English (the top
// words have 1-3 letters, the rare ones 8-10), spread by a triangular noise of
// +-1.6 and, past the top 100, a geometric tail up to 10 more letters. All in
// exactly rounded double arithmetic (no libm), hence the same everywhere.
// The lengths of English's 20 most frequent words: the of and to a in is it
// you that he was for on are with as I his they.
constexpr std::array<int, 20> kTopLengths = {3, 2, 3, 2, 1, 2, 2, 2, 3, 4,
                                             2, 3, 3, 2, 3, 4, 2, 1, 3, 4};
#ifndef TZ_BASE
#define TZ_BASE 1.8
#define TZ_SLOPE 0.5
#define TZ_NOISE 1.6
#define TZ_TAIL 12
#endif
constexpr double kBase = TZ_BASE, kSlope = TZ_SLOPE, kNoise = TZ_NOISE;
constexpr std::uint32_t kTail = TZ_TAIL;
int target_length(Rng& rng, std::uint32_t rank) {
  if (rank < kTopLengths.size()) return kTopLengths[rank];
  const std::uint64_t x = std::uint64_t{rank} + 1;
  const int k = static_cast<int>(std::bit_width(x)) - 1;
  const double log2_x =
      k + (static_cast<double>(x) / static_cast<double>(std::uint64_t{1} << k) - 1.0);
  const double base = kBase + kSlope * 0.6931471805599453 * log2_x;
  const double noise = kNoise * ((rng.below(1000) + rng.below(1000)) / 1000.0 - 1.0);
  int tail = 0;
  if (rng.below(100) < kTail) {
    while (tail < 10 && rng.below(100) < TZ_GEO) ++tail;
  }
  const int length = static_cast<int>(std::max(1.0, base + noise + tail + 0.5));
  return std::min(length, 22);
}

struct Vocabulary {
  std::string chars;                  // all words, concatenated
  std::vector<std::uint32_t> offset;  // word i is chars[offset[i], offset[i + 1])
  // Alias table (Walker/Vose) in 32-bit fixed point: slot i keeps i with
  // probability cut[i] / 2^32, else gives alias[i].
  std::vector<std::uint32_t> cut;
  std::vector<std::uint32_t> alias;

  std::uint32_t size() const { return static_cast<std::uint32_t>(cut.size()); }
  std::string_view word(std::uint32_t i) const {
    return {chars.data() + offset[i], offset[i + 1] - offset[i]};
  }
  std::uint32_t sample(Rng& rng) const {
    const std::uint64_t r = rng.next();
    const auto slot = static_cast<std::uint32_t>(((r & 0xFFFFFFFFu) * size()) >> 32);
    return static_cast<std::uint32_t>(r >> 32) < cut[slot] ? slot : alias[slot];
  }
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
        fresh = !seen.contains(word);
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
  for (const char* loanword : kLoanwords) {
    words[300 + rng.below(30000)] = loanword;
  }
  return words;
}

// Zipf-Mandelbrot weights 1 / (rank + 1 + q) scaled to integers that sum to
// exactly V * 2^32, then Vose's alias construction in integers.
void build_alias(Vocabulary& vocab) {
  const std::uint32_t n = kTextZipfVocabulary;
  std::vector<double> p(n);
  double sum = 0;
  for (std::uint32_t r = 0; r < n; ++r) {
    p[r] = 1.0 / (r + 1 + kTextZipfOffset);
    sum += p[r];
  }
  constexpr std::uint64_t kOne = std::uint64_t{1} << 32;
  const std::uint64_t total = std::uint64_t{n} * kOne;
  std::vector<std::uint64_t> weight(n);
  std::uint64_t assigned = 0;
  for (std::uint32_t r = 0; r < n; ++r) {
    weight[r] = static_cast<std::uint64_t>(p[r] / sum * static_cast<double>(total));
    assigned += weight[r];
  }
  weight[0] += total - assigned;  // rounding remainder (tiny) to the top word
  vocab.cut.assign(n, 0xFFFFFFFFu);
  vocab.alias.resize(n);
  std::vector<std::uint32_t> small, large;
  for (std::uint32_t r = 0; r < n; ++r) {
    vocab.alias[r] = r;
    (weight[r] < kOne ? small : large).push_back(r);
  }
  while (!small.empty() && !large.empty()) {
    const std::uint32_t s = small.back();
    small.pop_back();
    const std::uint32_t l = large.back();
    vocab.cut[s] = static_cast<std::uint32_t>(weight[s]);
    vocab.alias[s] = l;
    weight[l] -= kOne - weight[s];
    if (weight[l] < kOne) {
      large.pop_back();
      small.push_back(l);
    }
  }
  // Whatever is left holds (up to rounding) exactly one slot: keeps itself.
}

Vocabulary build_vocabulary(std::uint64_t seed) {
  Vocabulary vocab;
  const std::vector<std::string> words = build_words(seed);
  vocab.offset.reserve(words.size() + 1);
  for (const std::string& w : words) {
    vocab.offset.push_back(static_cast<std::uint32_t>(vocab.chars.size()));
    vocab.chars += w;
  }
  vocab.offset.push_back(static_cast<std::uint32_t>(vocab.chars.size()));
  build_alias(vocab);
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

class ChunkWriter {
 public:
  ChunkWriter(const Vocabulary& vocab, Rng& rng, std::string& out)
      : vocab_(vocab), rng_(rng), out_(out) {}

  void run(std::size_t target) {
    while (out_.size() < target) {
      if (sentences_left_ == 0) {
        if (!out_.empty()) out_ += "\n\n";
        line_ = 0;
        width_ = 60 + rng_.below(21);
        sentences_left_ = 1 + rng_.below(5) + rng_.below(5);
      }
      sentence();
      --sentences_left_;
    }
  }

 private:
  static constexpr std::size_t kTokenMax = 192;

  void emit(const char* s, std::size_t n) {
    if (line_ > 0) {
      if (line_ + 1 + n > width_) {
        out_ += '\n';
        line_ = 0;
      } else {
        out_ += ' ';
        ++line_;
      }
    }
    out_.append(s, n);
    line_ += n;
  }

  std::size_t put(char* tok, std::size_t len, std::string_view s) {
    std::memcpy(tok + len, s.data(), s.size());
    return len + s.size();
  }

  std::size_t put_number(char* tok, std::size_t len) {
    char* p = tok + len;
    char* end = tok + kTokenMax;
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
    } else if (kind < 90) {  // thousands
      p = std::to_chars(p, end, 1 + rng_.below(999)).ptr;
      *p++ = ',';
      const std::uint32_t hundreds = rng_.below(10);  // "12,500": round-ish
      *p++ = static_cast<char>('0' + hundreds);
      *p++ = '0';
      *p++ = '0';
    } else {  // percentage
      p = std::to_chars(p, end, 1 + rng_.below(99)).ptr;
      *p++ = '%';
    }
    return static_cast<std::size_t>(p - tok);
  }

  // A word, number, hyphenated pair or ALL-CAPS word appended to tok.
  std::size_t put_word(char* tok, std::size_t len, bool capitalize) {
    const std::uint32_t k = rng_.below(65536);
    if (k < kNumber16) return put_number(tok, len);
    const std::size_t start = len;
    len = put(tok, len, vocab_.word(vocab_.sample(rng_)));
    if (k < kNumber16 + kHyphen16) {
      tok[len++] = '-';
      len = put(tok, len, vocab_.word(vocab_.sample(rng_)));
    } else if (k < kNumber16 + kHyphen16 + kAllCaps16) {
      for (std::size_t i = start; i < len; ++i) tok[i] = upper(tok[i]);
    }
    if (capitalize) tok[start] = upper(tok[start]);
    return len;
  }

  void sentence() {
    const std::uint32_t n = 3 + rng_.below(9) + rng_.below(9) + rng_.below(7);
    const bool quoted = rng_.below(100) < 4;
    std::uint32_t paren_open = n, paren_close = n;
    if (n >= 5 && rng_.below(100) < 6) {
      paren_open = 1 + rng_.below(n - 3);
      paren_close = std::min(paren_open + rng_.below(4), n - 2);
    }
    char tok[kTokenMax];
    for (std::uint32_t i = 0; i < n; ++i) {
      std::size_t len = 0;
      if (i == 0 && quoted) tok[len++] = '"';
      if (i == paren_open) tok[len++] = '(';
      len = put_word(tok, len, i == 0);
      if (i == paren_close) tok[len++] = ')';
      bool dash = false;
      if (i + 1 == n) {
        const std::uint32_t end = rng_.below(100);
        len = put(tok, len, end < 84 ? "." : end < 91 ? "?" : end < 97 ? "!" : "...");
        if (quoted) tok[len++] = '"';
      } else {
        const std::uint32_t p = rng_.below(65536);
        if (p < kComma16) {
          tok[len++] = ',';
        } else if (p < kComma16 + kSemicolon16) {
          tok[len++] = ';';
        } else if (p < kComma16 + kSemicolon16 + kColon16) {
          tok[len++] = ':';
        } else if (p < kComma16 + kSemicolon16 + kColon16 + kDash16) {
          dash = true;
        }
      }
      emit(tok, len);
      if (dash) emit(kEmDash, std::strlen(kEmDash));
    }
  }

  const Vocabulary& vocab_;
  Rng& rng_;
  std::string& out_;
  std::size_t line_ = 0;
  std::size_t width_ = 72;
  std::uint32_t sentences_left_ = 0;
};

// Chunk `index` of the text, exactly `size` bytes, ending in '\n'.
void generate_chunk(const Vocabulary& vocab, std::uint64_t seed, std::uint64_t index,
                    std::size_t size, std::string& out) {
  out.clear();
  if (size == 0) return;
  out.reserve(size + 4096);
  Rng rng(mix_seed(seed, index));
  ChunkWriter writer(vocab, rng, out);
  writer.run(size);
  out.resize(size);
  out[size - 1] = '\n';
  // Do not leave a UTF-8 character cut in half before the final '\n'.
  std::size_t lead = size - 1;
  while (lead > 0 && (static_cast<unsigned char>(out[lead - 1]) & 0xC0) == 0x80) --lead;
  if (lead > 0 && static_cast<unsigned char>(out[lead - 1]) >= 0xC0) {
    --lead;
    const auto b = static_cast<unsigned char>(out[lead]);
    const std::size_t need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
    if (size - 1 - lead < need) std::fill(out.begin() + static_cast<std::ptrdiff_t>(lead), out.end() - 1, ' ');
  }
}

class TextZipf final : public Generator {
 public:
  std::string name() const override { return "text-zipf"; }
  std::string description() const override {
    return "English-like text: pseudo-words, Zipf(1) over 100k words, sentences, numbers, "
           "0.5% non-ASCII UTF-8 words, 60-80 byte lines";
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
  if (chunk_bytes == 0 || chunk_bytes > (std::uint64_t{1} << 30)) {
    throw UsageError("text-zipf: chunk size must be between 1 byte and 1 GiB");
  }
  if (size_bytes == 0) return;
  const Vocabulary vocab = build_vocabulary(seed);
  const std::uint64_t chunks = (size_bytes + chunk_bytes - 1) / chunk_bytes;
  auto chunk_size = [&](std::uint64_t c) {
    return static_cast<std::size_t>(std::min(chunk_bytes, size_bytes - c * chunk_bytes));
  };
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  if (threads > chunks) threads = static_cast<unsigned>(chunks);

  if (threads == 1) {
    std::string buffer;
    for (std::uint64_t c = 0; c < chunks && out; ++c) {
      generate_chunk(vocab, seed, c, chunk_size(c), buffer);
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    }
    return;
  }

  // Workers fill a window of slots (chunk c in slot c % window) while this
  // thread writes the chunks in order.
  const std::uint64_t window = 2 * std::uint64_t{threads};
  std::vector<std::string> slot(window);
  std::vector<char> ready(window, 0);
  std::mutex mutex;
  std::condition_variable changed;
  std::uint64_t next = 0;     // next chunk to claim
  std::uint64_t written = 0;  // chunks written so far
  bool stop = false;
  std::exception_ptr failure;

  auto worker = [&] {
    for (;;) {
      std::uint64_t c;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return stop || next >= chunks || next < written + window; });
        if (stop || next >= chunks) return;
        c = next++;
      }
      try {
        generate_chunk(vocab, seed, c, chunk_size(c), slot[c % window]);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        stop = true;
        changed.notify_all();
        return;
      }
      {
        std::lock_guard lock(mutex);
        ready[c % window] = 1;
      }
      changed.notify_all();
    }
  };

  std::vector<std::thread> pool;
  pool.reserve(threads);
  auto finish = [&] {
    {
      std::lock_guard lock(mutex);
      stop = true;
    }
    changed.notify_all();
    for (std::thread& t : pool) t.join();
  };
  try {
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (std::uint64_t c = 0; c < chunks; ++c) {
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return stop || ready[c % window] != 0; });
        if (stop) break;
      }
      const std::string& data = slot[c % window];
      out.write(data.data(), static_cast<std::streamsize>(data.size()));
      if (!out) break;
      {
        std::lock_guard lock(mutex);
        ready[c % window] = 0;
        written = c + 1;
      }
      changed.notify_all();
    }
  } catch (...) {
    finish();
    throw;
  }
  finish();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace harness::datasets
