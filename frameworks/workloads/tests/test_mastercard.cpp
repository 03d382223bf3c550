// MasterCard Affinity, both workloads (mastercard, mastercard-indexed): the
// hand-derived example, CPU-MT against the reference on every thread count
// (generated and tiny inputs, records cut between pieces), malformed records,
// the index, the access shares against table 4.1, the transactions
// generator.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>

#include "datasets/dataset.h"
#include "datasets/transactions.h"
#include "frameworks/workloads/mastercard/mastercard_format.h"
#include "frameworks/workloads/mastercard/mastercard_index.h"
#include "frameworks/workloads/outputs.h"
#include "frameworks/workloads/registry.h"
#include "harness/core/errors.h"

namespace harness::workloads {
namespace {

const char* const kApps[] = {"mastercard", "mastercard-indexed"};

const std::uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

std::string dump(const Output& o) {
  std::ostringstream s;
  o.dump(s);
  return s.str();
}

Params merchant(const std::string& id = "M0000001") { return {{"merchant", id}}; }

std::string generate(std::uint64_t size, std::uint64_t seed = 42) {
  std::ostringstream out;
  datasets::find_generator("transactions").generate(size, seed, out);
  return std::move(out).str();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// As a family runs it: check_input (untimed), then the run, then finish().
std::unique_ptr<Output> ref(const std::string& app, const std::string& text, const Params& p) {
  const Workload& w = find_workload(app);
  w.check_input(bytes(text), text.size());
  auto out = w.reference(p, bytes(text), text.size());
  out->finish();
  return out;
}

std::unique_ptr<Output> cpu(const std::string& app, const std::string& text, const Params& p,
                            unsigned threads) {
  const Workload& w = find_workload(app);
  w.check_input(bytes(text), text.size());
  auto out = w.run_cpu(p, bytes(text), text.size(), threads);
  out->finish();
  return out;
}

// Both workloads, every thread count: the reference's answer.
void expect_cpu_agrees(const std::string& text, const Params& p = merchant()) {
  for (const char* app : kApps) {
    const auto expected = ref(app, text, p);
    for (unsigned threads : {1u, 2u, 3u, 7u, 16u})
      EXPECT_EQ(cpu(app, text, p, threads)->compare_with(*expected, {}), "")
          << app << " threads " << threads;
  }
}

std::string record(const std::string& card, const std::string& merchant_id,
                   const std::string& rest = "2013-01-01 00:00:00|1.00|USD|5411|Oslo, NO|chip") {
  return card + "|" + merchant_id + "|" + rest + "\n";
}

// ------------------------------------------------------------ the answer
TEST(Mastercard, HandDerivedExample) {
  const std::string dir = std::string(HARNESS_SOURCE_DIR) + "/frameworks/workloads/mastercard/";
  const std::string text = read_file(dir + "examples/small.txt");
  const std::string expected = read_file(dir + "examples/small.expected");
  ASSERT_FALSE(expected.empty());
  for (const char* app : kApps) EXPECT_EQ(dump(*ref(app, text, merchant())), expected) << app;
  expect_cpu_agrees(text);
  // M0000002's customers: the ones that bought there, M0000001 among them.
  EXPECT_EQ(dump(*ref("mastercard", text, merchant("M0000002"))),
            "M0000001\t3\t2\nM00000012\t1\t1\nM0000002\t4\t3\nM0000004\t1\t1\n");
  // A merchant nobody bought at: no customers, no rows.
  EXPECT_EQ(dump(*ref("mastercard", text, merchant("M9999999"))), "");
}

TEST(Mastercard, CountsVisitsAndDistinctCustomers) {
  const std::string a = "5100000000000001", b = "5100000000000002", c = "5100000000000003";
  const std::string text = record(a, "X") + record(b, "Y") + record(a, "Y") + record(a, "Y") +
                           record(b, "X") + record(c, "Y") + record(a, "X") + record(c, "Z");
  EXPECT_EQ(dump(*ref("mastercard", text, merchant("X"))), "X\t3\t2\nY\t3\t2\n");
  expect_cpu_agrees(text, merchant("X"));
  expect_cpu_agrees(text, merchant("Z"));
}

TEST(Mastercard, GeneratedInputOnEveryThreadCount) {
  const std::string text = generate(3 << 20);
  expect_cpu_agrees(text);  // the most visited merchant
  expect_cpu_agrees(text, merchant(datasets::transaction_merchant_id(60)));
  expect_cpu_agrees(text, merchant(datasets::transaction_merchant_id(5000)));
  expect_cpu_agrees(text, merchant("M9999999"));  // absent
  const auto answer = ref("mastercard", text, merchant());
  const auto& table = dynamic_cast<const TableOutput&>(*answer);
  EXPECT_GT(table.rows(), 1000u);
  const std::size_t x = table.find("M0000001");
  ASSERT_LT(x, table.rows());
  EXPECT_GT(table.ints(x)[1], 100);  // the customers of X
}

TEST(Mastercard, TinyInputsAndRecordsCutBetweenPieces) {
  const std::string a = "5100000000000001", b = "5555555555555555";
  expect_cpu_agrees("");
  expect_cpu_agrees("\n\n\n");
  expect_cpu_agrees(record(a, "M0000001"));
  expect_cpu_agrees(a + "|M0000001|x");  // no final newline
  expect_cpu_agrees(a + "|M0000001|x\n\n" + b + "|M0000002|y");
  // Three records on 16 threads: most pieces empty, cuts inside records.
  const std::string three = record(a, "M0000001") + record(b, "M0000002") + record(a, "M0000002");
  expect_cpu_agrees(three);
  EXPECT_EQ(dump(*ref("mastercard-indexed", three, merchant())),
            "M0000001\t1\t1\nM0000002\t1\t1\n");
  // Long records on many threads.
  std::string long_records;
  for (int i = 0; i < 40; ++i)
    long_records += record(i % 3 ? a : b, i % 4 ? "M0000001" : "M0000002", std::string(500, 'z'));
  expect_cpu_agrees(long_records);
}

TEST(Mastercard, AllKeysEqualAndAllKeysDistinct) {
  std::string same;
  for (int i = 0; i < 100; ++i) same += record("5100000000000001", "M0000001");
  EXPECT_EQ(dump(*ref("mastercard", same, merchant())), "M0000001\t100\t1\n");
  expect_cpu_agrees(same);

  // Every record its own card and merchant: X's one customer bought only at X.
  std::string distinct;
  for (int i = 0; i < 300; ++i) {
    const std::string n = std::to_string(1000 + i);
    distinct += record("510000000000" + n, "M" + n);
  }
  EXPECT_EQ(dump(*ref("mastercard", distinct, merchant("M1007"))), "M1007\t1\t1\n");
  expect_cpu_agrees(distinct, merchant("M1007"));

  // Cards differing in one digit, merchants in one byte or by a prefix.
  const std::string near = record("5100000000000001", "M1") + record("5100000000000002", "M12") +
                           record("5100000000000001", "M12") + record("5100000000000002", "M1X") +
                           record("6100000000000001", "M1") + record("6100000000000001", "M");
  EXPECT_EQ(dump(*ref("mastercard", near, merchant("M1"))), "M\t1\t1\nM1\t2\t2\nM12\t1\t1\n");
  expect_cpu_agrees(near, merchant("M1"));
  expect_cpu_agrees(near, merchant("M12"));
}

TEST(Mastercard, CardNumberValueIsTheDigitsValue) {
  for (const std::string digits :
       {"0000000000000000", "9999999999999999", "5312345678901234", "1000000000000001"}) {
    EXPECT_EQ(mastercard::card_value(bytes(digits)), std::stoull(digits)) << digits;
  }
}

// scripts/mastercard_check.py on an input and a dump: its exit status.
int python_check(const std::string& input, const std::string& dump_text, const std::string& x) {
  const std::string dir = ::testing::TempDir();
  const std::string in = dir + "mastercard_check_input.txt", out = dir + "mastercard_check.tsv";
  std::ofstream(in, std::ios::binary) << input;
  std::ofstream(out, std::ios::binary) << dump_text;
  const std::string command = "python3 '" + std::string(HARNESS_SOURCE_DIR) +
                              "/scripts/mastercard_check.py' '" + in + "' '" + out +
                              "' merchant=" + x + " > /dev/null";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Mastercard, PythonCheckAgreesWithTheReference) {
  if (std::system("python3 -c '' 2> /dev/null") != 0) GTEST_SKIP() << "no python3";
  const std::string dir = std::string(HARNESS_SOURCE_DIR) + "/frameworks/workloads/mastercard/";
  EXPECT_EQ(python_check(read_file(dir + "examples/small.txt"),
                         read_file(dir + "examples/small.expected"), "M0000001"),
            0);
  const std::string text = generate(1 << 20, 3);
  for (const std::string x : {"M0000001", "M0000077"}) {
    const std::string answer = dump(*ref("mastercard", text, merchant(x)));
    EXPECT_EQ(python_check(text, answer, x), 0) << x;
    std::string wrong = answer;
    char& customers = wrong[wrong.find('\n') - 1];  // the first row's last digit
    customers = customers == '1' ? '2' : '1';
    EXPECT_EQ(python_check(text, wrong, x), 1) << x;
  }
}

// ------------------------------------------------------------ malformed
TEST(Mastercard, MalformedRecordsNameLineAndByte) {
  const std::string good = record("5100000000000001", "M0000001");
  ASSERT_EQ(good.size(), 74u);
  struct Case {
    std::string bad, what;
  };
  const Case cases[] = {
      {"5100000000000001|M0000001\n", "fewer than 3 '|'-separated fields"},
      {"5100000000000001\n", "fewer than 3"},
      {"\r\n", "fewer than 3"},
      {"|M0000001|x\n", "empty card number"},
      {"5100000000000001||x\n", "empty merchant id"},
      {"51000000000000x1|M0000001|x\n", "card number '51000000000000x1' is not 16 decimal digits"},
      {"510000000000001|M0000001|x\n", "is not 16 decimal digits"},
      {"51000000000000011|M0000001|x\n", "is not 16 decimal digits"},
      {"5100000000000001|M 1|x\n", "merchant id holds byte 0x20"},
      {"5100000000000001|" + std::string(33, 'M') + "|x\n", "merchant id of 33 bytes (at most 32)"},
  };
  for (const Case& c : cases) {
    // Line 3 (an empty line 2 counts), at byte 75.
    const std::string text = good + "\n" + c.bad + good;
    for (const char* app : kApps) {
      const Workload& w = find_workload(app);
      try {
        w.check_input(bytes(text), text.size());
        ADD_FAILURE() << app << " accepted " << c.bad;
      } catch (const RunError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(std::string(app) + ": line 3 (byte 75): "), std::string::npos)
            << message;
        EXPECT_NE(message.find(c.what), std::string::npos) << message;
      }
      EXPECT_THROW(w.reference(merchant(), bytes(text), text.size()), RunError) << app;
    }
  }
  // The first malformed record is named, whichever worker finds it.
  std::string many;
  for (int i = 0; i < 2000; ++i) many += good;
  const std::string text = many + "x|y|z\n" + many + "|||\n";
  try {
    build_mastercard_index(bytes(text), text.size(), 7);
    ADD_FAILURE() << "no error";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2001 (byte 148000)"), std::string::npos) << e.what();
  }
}

TEST(Mastercard, BadMerchantParameterIsAUsageError) {
  const std::string text = record("5100000000000001", "M0000001");
  for (const char* app : kApps) {
    const Workload& w = find_workload(app);
    for (const std::string& bad :
         {std::string(), std::string("M|1"), std::string("M 1"), std::string(33, 'M')}) {
      EXPECT_THROW(w.reference(merchant(bad), bytes(text), text.size()), UsageError) << bad;
      EXPECT_THROW(w.run_cpu(merchant(bad), bytes(text), text.size(), 2), UsageError) << bad;
    }
  }
}

// ------------------------------------------------------------ the index
TEST(Mastercard, IndexPointsAtTheCardAndMerchantFields) {
  const std::string text = "\n" + record("5100000000000001", "M7") + "\n\n" +
                           record("5200000000000002", std::string(32, 'Q'), "x") +
                           "5300000000000003|ab|";
  const MastercardIndex index = build_mastercard_index(bytes(text), text.size(), 3);
  ASSERT_EQ(index.size(), 3u);
  std::vector<std::string> cards, merchants;
  for (const MastercardIndexEntry& e : index) {
    cards.push_back(text.substr(e.card, 16));
    merchants.push_back(text.substr(e.card + e.merchant_offset, e.merchant_length));
  }
  EXPECT_EQ(cards,
            (std::vector<std::string>{"5100000000000001", "5200000000000002", "5300000000000003"}));
  EXPECT_EQ(merchants, (std::vector<std::string>{"M7", std::string(32, 'Q'), "ab"}));
  EXPECT_EQ(index[0].card, 1u);
  EXPECT_EQ(index[0].merchant_offset, 17u);
  // The same index on any thread count.
  const std::string generated = generate(1 << 20);
  const MastercardIndex one = build_mastercard_index(bytes(generated), generated.size(), 1);
  const MastercardIndex many = build_mastercard_index(bytes(generated), generated.size(), 16);
  ASSERT_EQ(one.size(), many.size());
  EXPECT_TRUE(std::equal(one.begin(), one.end(), many.begin(), [](const auto& a, const auto& b) {
    return a.card == b.card && a.merchant_offset == b.merchant_offset &&
           a.merchant_length == b.merchant_length;
  }));
}

TEST(Mastercard, CheckInputRebuildsTheKeptIndex) {
  // Same address and size, the fields elsewhere: the index kept for the first
  // input must not serve the second.
  const std::string c1 = "5100000000000001", c2 = "5100000000000002";
  std::string text = record(c1, "M0000001") + record(c2, "M2");
  EXPECT_EQ(dump(*cpu("mastercard-indexed", text, merchant(), 2)), "M0000001\t1\t1\n");
  const std::string other = record(c2, "M2") + record(c2, "M0000001");
  ASSERT_EQ(other.size(), text.size());
  std::copy(other.begin(), other.end(), text.begin());
  const Workload& w = find_workload("mastercard-indexed");
  w.check_input(bytes(text), text.size());
  auto out = w.run_cpu(merchant(), bytes(text), text.size(), 2);
  out->finish();
  EXPECT_EQ(dump(*out), "M0000001\t1\t1\nM2\t1\t1\n");
}

// ------------------------------------------------------------ access shares
TEST(Mastercard, AccessSharesMatchTable41) {
  const std::string text = generate(4 << 20, 7);
  const auto scanned = find_workload("mastercard").access_share({}, bytes(text), text.size());
  EXPECT_EQ(scanned.read_bytes, text.size());
  EXPECT_EQ(scanned.written_bytes, 0u);
  const auto indexed =
      find_workload("mastercard-indexed").access_share({}, bytes(text), text.size());
  EXPECT_EQ(indexed.records, scanned.records);
  EXPECT_GT(indexed.records, 40000u);
  EXPECT_EQ(indexed.written_bytes, 0u);
  EXPECT_NEAR(indexed.read_share(), 0.25, 0.0125);      // table 4.1: 25%, within 5% of it
  EXPECT_EQ(indexed.read_bytes, indexed.records * 24);  // 16 digits + "M" and 7 digits
  for (const char* app : kApps) {
    const PaperFacts facts = find_workload(app).paper();
    EXPECT_EQ(facts.table4_1_bytes, 6.4e9);
  }
  EXPECT_EQ(find_workload("mastercard").paper().read_share, 1.0);
  EXPECT_EQ(find_workload("mastercard-indexed").paper().read_share, 0.25);
}

// ------------------------------------------------------------ the generator
TEST(Transactions, ExactSizeDeterministicAndWellFormed) {
  const auto& g = datasets::find_generator("transactions");
  EXPECT_EQ(g.extension(), "txt");
  for (std::uint64_t size : {std::uint64_t{1}, std::uint64_t{50}, std::uint64_t{200},
                             std::uint64_t{5000}, (std::uint64_t{4} << 20) + 777}) {
    const std::string text = generate(size);
    ASSERT_EQ(text.size(), size);
    EXPECT_EQ(g.output_bytes(size), size);
    EXPECT_EQ(text.back(), '\n');
    EXPECT_NO_THROW(find_workload("mastercard").check_input(bytes(text), text.size())) << size;
  }
  const std::string a = generate(1 << 20, 1);
  EXPECT_EQ(generate(1 << 20, 1), a);
  EXPECT_NE(generate(1 << 20, 2), a);
  EXPECT_EQ(generate(50), std::string(50, '\n'));  // too small for a record
}

TEST(Transactions, RecordsCardsAndMerchantsAsDocumented) {
  const std::uint64_t size = 4 << 20;
  const std::string text = generate(size);
  std::unordered_map<std::string, std::int64_t> per_merchant, per_card;
  std::unordered_map<std::string, std::set<std::string>> merchants_of_card;
  std::size_t shortest = 1000, longest = 0;
  double records = 0;
  std::map<std::size_t, std::size_t> fields;  // records by field count
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t nl = text.find('\n', start);
    const std::string line = text.substr(start, nl - start);
    start = nl + 1;
    ++records;
    shortest = std::min(shortest, line.size() + 1);
    longest = std::max(longest, line.size() + 1);
    ++fields[static_cast<std::size_t>(std::count(line.begin(), line.end(), '|')) + 1];
    const std::string card = line.substr(0, 16), m = line.substr(17, 8);
    ++per_merchant[m];
    ++per_card[card];
    merchants_of_card[card].insert(m);
    // A Luhn-valid MasterCard number.
    ASSERT_EQ(card[0], '5') << line;
    ASSERT_TRUE(card[1] >= '1' && card[1] <= '5') << line;
    int sum = 0;
    for (int i = 15; i >= 0; --i) {
      int d = card[static_cast<std::size_t>(i)] - '0';
      if ((15 - i) % 2 == 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      sum += d;
    }
    ASSERT_EQ(sum % 10, 0) << line;
  }
  EXPECT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields.begin()->first, 9u);
  const double average = static_cast<double>(size) / records;
  EXPECT_GT(average, 90.0);
  EXPECT_LT(average, 100.0);
  EXPECT_LT(shortest, 90u);  // variable length
  EXPECT_GT(longest, 104u);
  // Merchant popularity: M0000001 the most visited (in expectation: at this
  // size the home merchants of the few most active cards shuffle the top
  // ranks, whose weights differ by a tenth), about 1.1%.
  std::vector<std::pair<std::int64_t, std::string>> by_visits;
  for (const auto& [m, n] : per_merchant) by_visits.emplace_back(n, m);
  std::sort(by_visits.rbegin(), by_visits.rend());
  EXPECT_TRUE(by_visits[0].second == "M0000001" || by_visits[1].second == "M0000001" ||
              by_visits[2].second == "M0000001");
  const double top_share = static_cast<double>(per_merchant["M0000001"]) / records;
  EXPECT_GT(top_share, 0.008);
  EXPECT_LT(top_share, 0.015);
  EXPECT_GT(by_visits[0].first, 50 * by_visits[1000].first);  // Zipf
  EXPECT_GT(per_merchant.size(), 5000u);  // of 40000 (most seen at larger sizes)
  // Cards: about transaction_cards(size) of them; Zipf activity.
  const std::uint32_t cards = datasets::transaction_cards(size);
  EXPECT_GT(merchants_of_card.size(), cards * 8 / 10);
  EXPECT_LE(merchants_of_card.size(), cards);
  std::vector<std::int64_t> purchases;
  for (const auto& [card, n] : per_card) purchases.push_back(n);
  std::size_t distinct_pairs = 0;
  for (const auto& [card, set] : merchants_of_card) distinct_pairs += set.size();
  std::sort(purchases.rbegin(), purchases.rend());
  std::int64_t top_tenth = 0;
  for (std::size_t i = 0; i < purchases.size() / 10; ++i) top_tenth += purchases[i];
  EXPECT_GT(static_cast<double>(top_tenth) / records, 0.35);  // about half
  EXPECT_LT(static_cast<double>(top_tenth) / records, 0.65);
  // Locality: customers return to their merchants, so a card's purchases go
  // to far fewer distinct merchants than purchases.
  EXPECT_LT(static_cast<double>(distinct_pairs) / records, 0.6);
}

}  // namespace
}  // namespace harness::workloads
