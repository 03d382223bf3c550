#include "datasets/transactions.h"

#include <algorithm>
#include <cstring>
#include <ostream>
#include <string_view>

#include "datasets/chunked.h"
#include "datasets/random.h"
#include "datasets/zipf_table.h"

namespace harness::datasets {
namespace {

constexpr std::uint64_t kChunkBytes = std::uint64_t{4} << 20;
constexpr std::uint32_t kMaxCards = std::uint32_t{1} << 26;

// A card's 13-digit body is (rank * stride + offset) mod 10^13; the stride is
// coprime with 10, so distinct ranks get distinct numbers.
constexpr std::uint64_t kCardBodies = 10'000'000'000'000;
constexpr std::uint64_t kCardBodyStride = 3'870'112'529;

struct City {
  const char* name;
  const char* currency;
};

constexpr City kCities[] = {
    {"New York, US", "USD"},
    {"Los Angeles, US", "USD"},
    {"Chicago, US", "USD"},
    {"Houston, US", "USD"},
    {"San Francisco, US", "USD"},
    {"Seattle, US", "USD"},
    {"Boston, US", "USD"},
    {"Miami, US", "USD"},
    {"Toronto, CA", "CAD"},
    {"Vancouver, CA", "CAD"},
    {"Montreal, CA", "CAD"},
    {"Mexico City, MX", "MXN"},
    {"Sao Paulo, BR", "BRL"},
    {"Rio de Janeiro, BR", "BRL"},
    {"Buenos Aires, AR", "ARS"},
    {"Lima, PE", "PEN"},
    {"Bogota, CO", "COP"},
    {"London, GB", "GBP"},
    {"Manchester, GB", "GBP"},
    {"Edinburgh, GB", "GBP"},
    {"Dublin, IE", "EUR"},
    {"Paris, FR", "EUR"},
    {"Lyon, FR", "EUR"},
    {"Berlin, DE", "EUR"},
    {"Munich, DE", "EUR"},
    {"Frankfurt am Main, DE", "EUR"},
    {"Madrid, ES", "EUR"},
    {"Barcelona, ES", "EUR"},
    {"Rome, IT", "EUR"},
    {"Milan, IT", "EUR"},
    {"Amsterdam, NL", "EUR"},
    {"Brussels, BE", "EUR"},
    {"Vienna, AT", "EUR"},
    {"Zurich, CH", "CHF"},
    {"Bern, CH", "CHF"},
    {"Stockholm, SE", "SEK"},
    {"Oslo, NO", "NOK"},
    {"Copenhagen, DK", "DKK"},
    {"Warsaw, PL", "PLN"},
    {"Prague, CZ", "CZK"},
    {"Saint Petersburg, RU", "RUB"},
    {"Istanbul, TR", "TRY"},
    {"Dubai, AE", "AED"},
    {"Mumbai, IN", "INR"},
    {"New Delhi, IN", "INR"},
    {"Singapore, SG", "SGD"},
    {"Hong Kong, HK", "HKD"},
    {"Ho Chi Minh City, VN", "VND"},
    {"Bangkok, TH", "THB"},
    {"Kuala Lumpur, MY", "MYR"},
    {"Tokyo, JP", "JPY"},
    {"Osaka, JP", "JPY"},
    {"Seoul, KR", "KRW"},
    {"Sydney, AU", "AUD"},
    {"Melbourne, AU", "AUD"},
    {"Auckland, NZ", "NZD"},
    {"Johannesburg, ZA", "ZAR"},
    {"Cape Town, ZA", "ZAR"},
    {"Nairobi, KE", "KES"},
    {"Cairo, EG", "EGP"},
};
constexpr std::uint32_t kCityCount = sizeof(kCities) / sizeof(kCities[0]);

// Merchant category codes (ISO 18245): grocery, restaurants, fuel, department
// stores, drug stores, transit, fast food, misc. retail, hotels, taxis,
// electronics, clothing, book stores, telecom, misc. food, cinemas.
constexpr const char* kMccs[] = {"5411", "5812", "5541", "5311", "5912", "4111", "5814", "5999",
                                 "7011", "4121", "5732", "5651", "5942", "4814", "5499", "7832"};

// Percent of purchases by entry mode, cumulative.
struct EntryMode {
  const char* name;
  std::uint32_t below_percent;
};
constexpr EntryMode kEntryModes[] = {
    {"chip", 40}, {"contactless", 70}, {"online", 85}, {"swipe", 95}, {"manual", 100}};

// Days before each month of 2013 (not a leap year).
constexpr std::uint32_t kDaysBeforeMonth[] = {0,   31,  59,  90,  120, 151, 181,
                                              212, 243, 273, 304, 334, 365};

// Which of a purchase's 16 equally likely draws goes where: 6 to the first
// home merchant, 2 to each other one, 4 (a quarter) to a merchant drawn afresh.
constexpr std::uint32_t kHomeDraws[kHomeMerchants] = {6, 2, 2, 2};
constexpr std::uint32_t kFreshDraws = 4;
static_assert(6 + 2 + 2 + 2 + kFreshDraws == 16);

// One record's text, built before it is known to fit its chunk.
class Line {
 public:
  void text(std::string_view s) {
    std::memcpy(bytes_ + size_, s.data(), s.size());
    size_ += s.size();
  }
  void byte(char c) { bytes_[size_++] = c; }
  // `value` in exactly `width` decimal digits, zero-padded.
  void digits(std::uint64_t value, unsigned width) {
    for (unsigned i = width; i-- > 0;) {
      bytes_[size_ + i] = static_cast<char>('0' + value % 10);
      value /= 10;
    }
    size_ += width;
  }
  std::string_view view() const { return {bytes_, size_}; }

 private:
  char bytes_[192];
  std::size_t size_ = 0;
};

struct Tables {
  explicit Tables(std::uint64_t size_bytes, std::uint64_t seed)
      : cards(transaction_cards(size_bytes)),
        card_zipf(cards, std::max(1.0, cards / 100.0)),
        merchant_zipf(kTransactionMerchants, kTransactionMerchantOffset),
        card_body_offset(mix_seed(seed, 0x6361726473) % kCardBodies),
        home_seed(mix_seed(seed, 0x686f6d65)),
        merchant_seed(mix_seed(seed, 0x6d657263)) {}

  // The card of activity rank `rank`: 5, 1-5, the body, the Luhn check digit.
  void card_number(std::uint32_t rank, Line& line) const {
    char payload[15];
    payload[0] = '5';
    payload[1] = static_cast<char>('1' + rank % 5);
    std::uint64_t body = (rank * kCardBodyStride + card_body_offset) % kCardBodies;
    for (int i = 14; i >= 2; --i) {
      payload[i] = static_cast<char>('0' + body % 10);
      body /= 10;
    }
    // Luhn: from the right of the payload, every other digit doubled.
    std::uint32_t sum = 0;
    for (int i = 14; i >= 0; --i) {
      std::uint32_t d = static_cast<std::uint32_t>(payload[i] - '0');
      if ((14 - i) % 2 == 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      sum += d;
    }
    line.text({payload, 15});
    line.byte(static_cast<char>('0' + (10 - sum % 10) % 10));
  }

  std::uint32_t home_merchant(std::uint32_t card, std::uint32_t j) const {
    const std::uint64_t bits = mix_seed(home_seed, std::uint64_t{card} * kHomeMerchants + j);
    return merchant_zipf.rank_of(static_cast<std::uint32_t>(bits >> 33));
  }

  std::uint32_t cards;
  ZipfTable card_zipf, merchant_zipf;
  std::uint64_t card_body_offset, home_seed, merchant_seed;
};

std::uint32_t pick_merchant(const Tables& t, std::uint32_t card, Rng& rng) {
  std::uint32_t draw = rng.below(16);
  for (std::uint32_t j = 0; j < kHomeMerchants; ++j) {
    if (draw < kHomeDraws[j]) return t.home_merchant(card, j);
    draw -= kHomeDraws[j];
  }
  return t.merchant_zipf.sample(rng);
}

void append_record(const Tables& t, Rng& rng, std::string& out) {
  Line line;
  const std::uint32_t card = t.card_zipf.sample(rng);
  const std::uint32_t merchant = pick_merchant(t, card, rng);
  const std::uint64_t traits = mix_seed(t.merchant_seed, merchant);
  const City& city = kCities[traits % kCityCount];

  t.card_number(card, line);
  line.byte('|');
  line.byte('M');
  line.digits(merchant + 1, 7);
  line.byte('|');

  const std::uint32_t day = rng.below(365), second = rng.below(86400);
  std::uint32_t month = 0;
  while (kDaysBeforeMonth[month + 1] <= day) ++month;
  line.text("2013-");
  line.digits(month + 1, 2);
  line.byte('-');
  line.digits(day - kDaysBeforeMonth[month] + 1, 2);
  line.byte(' ');
  line.digits(second / 3600, 2);
  line.byte(':');
  line.digits(second / 60 % 60, 2);
  line.byte(':');
  line.digits(second % 60, 2);
  line.byte('|');

  // 1-4 digits before the point: 20%, 45%, 28%, 7%.
  const std::uint32_t size_draw = rng.below(100);
  const unsigned whole_digits = size_draw < 20 ? 1 : size_draw < 65 ? 2 : size_draw < 93 ? 3 : 4;
  std::uint32_t lowest = 1;
  for (unsigned i = 1; i < whole_digits; ++i) lowest *= 10;
  line.digits(lowest + rng.below(9 * lowest), whole_digits);
  line.byte('.');
  line.digits(rng.below(100), 2);
  line.byte('|');

  line.text(city.currency);
  line.byte('|');
  line.text(kMccs[(traits >> 32) % 16]);
  line.byte('|');
  line.text(city.name);
  line.byte('|');
  const std::uint32_t mode_draw = rng.below(100);
  const EntryMode* mode = kEntryModes;
  while (mode->below_percent <= mode_draw) ++mode;
  line.text(mode->name);
  line.byte('|');
  line.digits(rng.next() % 1'000'000'000'000, 12);
  line.byte('\n');
  out += line.view();
}

// Whole records up to `size` bytes; the last one's reference grows to end the
// chunk exactly, and a chunk too small for any record holds empty lines.
void make_chunk(const Tables& t, std::uint64_t seed, std::uint64_t index, std::size_t size,
                std::string& out) {
  Rng rng(mix_seed(seed, index));
  out.clear();
  out.reserve(size + 256);
  for (;;) {
    const std::size_t before = out.size();
    append_record(t, rng, out);
    if (out.size() <= size) continue;
    out.resize(before);
    if (before == 0) {
      out.assign(size, '\n');
      return;
    }
    out.pop_back();  // the last record's '\n'
    for (std::size_t left = size - before; left > 0; --left)
      out += static_cast<char>('0' + rng.below(10));
    out += '\n';
    return;
  }
}

class Transactions final : public Generator {
 public:
  std::string name() const override { return "transactions"; }
  std::string description() const override {
    return "credit-card purchases (card|merchant|timestamp|amount|...|reference lines), Zipf "
           "card activity and merchant popularity, customers returning to their merchants";
  }
  int version() const override { return 1; }
  std::string extension() const override { return "txt"; }
  void generate(std::uint64_t size_bytes, std::uint64_t seed, std::ostream& out) const override {
    const Tables t(size_bytes, seed);
    write_chunks("transactions", size_bytes, kChunkBytes, 0, out,
                 [&](std::uint64_t index, std::size_t size, std::string& buffer) {
                   make_chunk(t, seed, index, size, buffer);
                 });
  }
};

}  // namespace

const Generator& transactions_generator() {
  static const Transactions g;
  return g;
}

std::uint32_t transaction_cards(std::uint64_t size_bytes) {
  return static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(size_bytes / kTransactionBytesPerCard, 64, kMaxCards));
}

std::string transaction_merchant_id(std::uint32_t rank) {
  Line line;
  line.byte('M');
  line.digits(rank + 1, 7);
  return std::string(line.view());
}

}  // namespace harness::datasets
