#include "datasets/tweets.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "datasets/chunked.h"
#include "datasets/random.h"
#include "datasets/sentiment_lexicon.h"
#include "datasets/text_zipf.h"
#include "datasets/zipf_table.h"

namespace harness::datasets {
namespace {

constexpr std::uint64_t kRecordsPerChunk = 20000;                // 4,000,000 bytes
constexpr std::uint64_t kStartSeconds = 1262304000;              // 2010-01-01 00:00:00 UTC
constexpr std::uint64_t kChunkWindowMs = kRecordsPerChunk * 50;  // 50 ms per tweet on average
constexpr std::uint32_t kUsers = 1000000;

// Per 10,000 tokens of a tweet (a token: a word, hashtag, mention, emoticon
// or a sentiment phrase).
constexpr std::uint32_t kPositivePer10k = 300;  // doubled in topic tweets
constexpr std::uint32_t kNegativePer10k = 200;  // doubled in topic tweets
constexpr std::uint32_t kLoneAdverbPer10k = 100;
constexpr std::uint32_t kHashtagPer10k = 150;
constexpr std::uint32_t kMentionPer10k = 200;
constexpr std::uint32_t kEmoticonPer10k = 60;

constexpr std::uint32_t kTopicTweetPercent = 20;
// A keyword token's most bytes with its space: "#weather!!!".
constexpr std::size_t kKeywordRoom = 12;
constexpr std::size_t kLinkRoom = 21;              // " http://t.co/12345678"
constexpr std::uint32_t kSecondTopicPercent = 25;  // of topic tweets

// The fields after the text (tweets.h's table).
constexpr std::size_t kTimestampAt = 147, kUserAt = 158, kLanguageAt = 169, kRetweetsAt = 172,
                      kLikesAt = 180, kClientAt = 188, kClientBytes = 11;
static_assert(kClientAt + kClientBytes + 1 == kTweetRecordBytes);

struct Weighted {
  std::string_view value;
  std::uint32_t percent;
};
constexpr std::array kLanguages = {Weighted{"en", 85}, Weighted{"es", 5}, Weighted{"pt", 3},
                                   Weighted{"fr", 2},  Weighted{"de", 2}, Weighted{"ja", 1},
                                   Weighted{"it", 1},  Weighted{"nl", 1}};
constexpr std::array kClients = {Weighted{"android", 35},  Weighted{"iphone", 35},
                                 Weighted{"web", 15},      Weighted{"ipad", 5},
                                 Weighted{"tweetdeck", 5}, Weighted{"blackberry", 5}};
constexpr std::array<std::string_view, 8> kEmoticons = {":)", ":(",  ":D", ";)",
                                                        "<3", ":-)", ":/", ":P"};

std::string_view pick_weighted(Rng& rng, std::span<const Weighted> list) {
  std::uint32_t u = rng.below(100);
  for (const Weighted& w : list) {
    if (u < w.percent) return w.value;
    u -= w.percent;
  }
  return list.back().value;
}

// Everything chunks share: the vocabulary packed into one buffer and the Zipf
// tables.
struct Tables {
  std::string vocab_bytes;
  std::vector<std::uint32_t> vocab_end;  // word r is vocab_bytes[vocab_end[r-1], vocab_end[r])
  ZipfTable vocab{kTextZipfVocabulary, kTextZipfOffset};
  ZipfTable positive{kPositiveWords.size(), 1.0};
  ZipfTable negative{kNegativeWords.size(), 1.0};
  ZipfTable adverbs{kAdverbs.size(), 1.0};
  ZipfTable topics{kTopicKeywords.size(), 0.0};
  ZipfTable users{kUsers, 2.0};

  explicit Tables(std::uint64_t seed) {
    const std::vector<std::string> words = text_zipf_vocabulary(seed);
    vocab_end.reserve(words.size());
    for (const std::string& w : words) {
      vocab_bytes += w;
      vocab_end.push_back(static_cast<std::uint32_t>(vocab_bytes.size()));
    }
  }
  std::string_view word(std::uint32_t rank) const {
    const std::uint32_t begin = rank == 0 ? 0 : vocab_end[rank - 1];
    return std::string_view(vocab_bytes).substr(begin, vocab_end[rank] - begin);
  }
};

// A token being built (at most a few adverbs, a word and punctuation).
class Token {
 public:
  void clear() { size_ = 0; }
  void add(std::string_view s) {
    const std::size_t n = std::min(s.size(), sizeof bytes_ - size_);
    std::memcpy(bytes_ + size_, s.data(), n);
    size_ += n;
  }
  void add(char c) {
    if (size_ < sizeof bytes_) bytes_[size_++] = c;
  }
  // Upper-cases the ASCII letters of bytes [from, size()).
  void upper_from(std::size_t from, bool whole_word) {
    for (std::size_t i = from; i < size_; ++i) {
      if (bytes_[i] >= 'a' && bytes_[i] <= 'z') bytes_[i] = static_cast<char>(bytes_[i] - 32);
      if (!whole_word) return;
    }
  }
  std::size_t size() const { return size_; }
  std::string_view view() const { return {bytes_, size_}; }

 private:
  char bytes_[96];
  std::size_t size_ = 0;
};

// Writes one tweet's text into a record's text field, token by token,
// separated by single spaces, then pads it with spaces.
class TweetWriter {
 public:
  TweetWriter(const Tables& t, Rng& rng) : t_(t), rng_(rng) {}

  void write(char* text) {
    text_ = text;
    length_ = 0;
    tokens_ = 0;
    const std::size_t target = 30 + rng_.below(kTweetTextBytes - 30 + 1);
    const bool topic_tweet = rng_.below(100) < kTopicTweetPercent;
    std::uint32_t keywords = 0;  // still to write
    std::uint32_t keyword_at = 0;
    if (topic_tweet) {
      keywords = rng_.below(100) < kSecondTopicPercent ? 2 : 1;
      keyword_at = rng_.below(4);
    }
    if (rng_.below(100) < 8) retweet_prefix();
    const bool link = rng_.below(100) < 15;
    while (length_ < target || keywords > 0) {
      if (keywords > 0 && tokens_ >= keyword_at) {
        keyword();
        --keywords;
        keyword_at = tokens_ + rng_.below(6);
        continue;
      }
      next_token(topic_tweet);
      // Room is kept for the keywords still to come and the link, so they fit.
      if (!append(token_, keywords * kKeywordRoom + (link ? kLinkRoom : 0))) {
        for (; keywords > 0; --keywords) keyword();
        break;
      }
    }
    if (link) {
      token_.clear();
      token_.add("http://t.co/");
      for (int i = 0; i < 8; ++i) {
        constexpr std::string_view kAlnum =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        token_.add(kAlnum[rng_.below(static_cast<std::uint32_t>(kAlnum.size()))]);
      }
      append(token_, 0);
    }
    std::memset(text_ + length_, ' ', kTweetTextBytes - length_);
  }

 private:
  // Appends a token (and the space before it) when it fits with `reserve`
  // bytes to spare.
  bool append(const Token& token, std::size_t reserve) {
    const std::size_t space = length_ > 0 ? 1 : 0;
    if (token.size() == 0 || length_ + space + token.size() + reserve > kTweetTextBytes)
      return false;
    if (space) text_[length_++] = ' ';
    if (length_ == 0 && token.view()[0] >= 'a' && token.view()[0] <= 'z') {
      std::memcpy(text_, token.view().data(), token.size());
      text_[0] = static_cast<char>(text_[0] - 32);  // a tweet starts with a capital
    } else {
      std::memcpy(text_ + length_, token.view().data(), token.size());
    }
    length_ += token.size();
    ++tokens_;
    return true;
  }

  std::string_view vocab_word() { return t_.word(t_.vocab.sample(rng_)); }

  void handle() {
    token_.add('@');
    token_.add(vocab_word());
    if (rng_.below(2)) {
      const std::uint32_t n = rng_.below(100);
      token_.add(static_cast<char>('0' + n / 10));
      token_.add(static_cast<char>('0' + n % 10));
    }
  }

  void retweet_prefix() {
    token_.clear();
    token_.add("RT ");
    handle();
    token_.add(':');
    append(token_, 0);
  }

  void keyword() {
    token_.clear();
    const std::uint32_t style = rng_.below(100);
    if (style < 20) token_.add('#');
    const std::size_t start = token_.size();
    token_.add(kTopicKeywords[t_.topics.sample(rng_)]);
    if (style >= 20 && style < 35) token_.upper_from(start, false);  // "Phone"
    if (style >= 35 && style < 38) token_.upper_from(start, true);   // "PHONE"
    punctuation(false);
    append(token_, 0);
  }

  void punctuation(bool sentiment) {
    const std::uint32_t p = rng_.below(100);
    if (p < 6) {
      token_.add(',');
    } else if (p < 10) {
      token_.add('.');
    } else if (p < (sentiment ? 16u : 12u)) {
      token_.add('!');
      if (rng_.below(3) == 0) token_.add("!!");
    } else if (p < (sentiment ? 17u : 13u)) {
      token_.add('?');
    }
  }

  // An adverb (or two) and a positive or negative word: "so good", "really
  // very BAD!".
  void sentiment_phrase(bool positive) {
    const std::uint32_t adverbs = rng_.below(100) < 25 ? (rng_.below(100) < 20 ? 2 : 1) : 0;
    for (std::uint32_t i = 0; i < adverbs; ++i) {
      token_.add(kAdverbs[t_.adverbs.sample(rng_)]);
      token_.add(' ');
    }
    const std::size_t start = token_.size();
    token_.add(positive ? kPositiveWords[t_.positive.sample(rng_)]
                        : kNegativeWords[t_.negative.sample(rng_)]);
    if (rng_.below(100) < 4) token_.upper_from(start, true);
    punctuation(true);
  }

  void next_token(bool topic_tweet) {
    token_.clear();
    const std::uint32_t scale = topic_tweet ? 2 : 1;
    std::uint32_t u = rng_.below(10000);
    auto take = [&u](std::uint32_t per10k) {
      if (u < per10k) return true;
      u -= per10k;
      return false;
    };
    if (take(kPositivePer10k * scale)) {
      sentiment_phrase(true);
    } else if (take(kNegativePer10k * scale)) {
      sentiment_phrase(false);
    } else if (take(kLoneAdverbPer10k)) {
      token_.add(kAdverbs[t_.adverbs.sample(rng_)]);
    } else if (take(kHashtagPer10k)) {
      token_.add('#');
      token_.add(vocab_word());
    } else if (take(kMentionPer10k)) {
      handle();
    } else if (take(kEmoticonPer10k)) {
      token_.add(kEmoticons[rng_.below(static_cast<std::uint32_t>(kEmoticons.size()))]);
    } else {
      token_.add(vocab_word());
      punctuation(false);
    }
  }

  const Tables& t_;
  Rng& rng_;
  Token token_;
  char* text_ = nullptr;
  std::size_t length_ = 0;
  std::uint32_t tokens_ = 0;
};

// `digits` decimal digits of `value`, zero-padded (value < 10^digits).
void put_digits(char* at, std::size_t digits, std::uint64_t value) {
  for (std::size_t i = digits; i-- > 0;) {
    at[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
}

void put_padded(char* at, std::size_t width, std::string_view s) {
  std::memset(at, ' ', width);
  std::memcpy(at, s.data(), std::min(width, s.size()));
}

// A heavy-tailed count: P(count >= x) ~ 1 / (x + 1), about half zeros.
std::uint64_t popularity(Rng& rng) {
  constexpr std::uint64_t kScale = std::uint64_t{1} << 20;
  return kScale / (rng.below(static_cast<std::uint32_t>(kScale)) + 1) - 1;
}

// A fixed bijection of [0, 2^32 - 5) (multiplication modulo a prime): user
// ranks to ids that do not reveal the rank.
std::uint64_t user_id(std::uint32_t rank) {
  constexpr std::uint64_t kPrime = 4294967291;
  return (std::uint64_t{rank} + 1) * 2654435761ULL % kPrime;
}

void make_chunk(const Tables& t, std::uint64_t seed, std::uint64_t index, std::size_t size,
                std::string& out) {
  Rng rng(mix_seed(seed, index));
  out.resize(size);
  TweetWriter writer(t, rng);
  const std::uint64_t window_start_ms = index * kChunkWindowMs;
  std::uint64_t ms = window_start_ms;
  for (std::size_t at = 0; at < size; at += kTweetRecordBytes) {
    char* r = out.data() + at;
    writer.write(r);
    ms = std::min(ms + rng.below(100), window_start_ms + kChunkWindowMs - 1);
    r[kTweetTextBytes] = '|';
    put_digits(r + kTimestampAt, 10, kStartSeconds + ms / 1000);
    r[kUserAt - 1] = '|';
    put_digits(r + kUserAt, 10, user_id(t.users.sample(rng)));
    r[kLanguageAt - 1] = '|';
    put_padded(r + kLanguageAt, 2, pick_weighted(rng, kLanguages));
    r[kRetweetsAt - 1] = '|';
    put_digits(r + kRetweetsAt, 7, popularity(rng));
    r[kLikesAt - 1] = '|';
    put_digits(r + kLikesAt, 7, 2 * popularity(rng));
    r[kClientAt - 1] = '|';
    put_padded(r + kClientAt, kClientBytes, pick_weighted(rng, kClients));
    r[kTweetRecordBytes - 1] = '\n';
  }
}

class Tweets final : public Generator {
 public:
  std::string name() const override { return "tweets"; }
  std::string description() const override {
    return "200-byte tweet records (146-byte text, time stamp, user, language, counts, client), "
           "Zipf words with sentiment words, adverbs and topic keywords";
  }
  int version() const override { return 1; }
  std::string extension() const override { return "txt"; }
  std::uint64_t output_bytes(std::uint64_t size_bytes) const override {
    return size_bytes / kTweetRecordBytes * kTweetRecordBytes;
  }
  void generate(std::uint64_t size_bytes, std::uint64_t seed, std::ostream& out) const override {
    const std::uint64_t bytes = output_bytes(size_bytes);
    if (bytes == 0) return;
    const Tables t(seed);
    write_chunks("tweets", bytes, kRecordsPerChunk * kTweetRecordBytes, 0, out,
                 [&](std::uint64_t index, std::size_t size, std::string& buffer) {
                   make_chunk(t, seed, index, size, buffer);
                 });
  }
};

}  // namespace

const Generator& tweets_generator() {
  static const Tweets g;
  return g;
}

}  // namespace harness::datasets
