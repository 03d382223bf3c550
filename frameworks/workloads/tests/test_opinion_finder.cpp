// opinion-finder: the hand-written example's answer, the scoring rules on
// single tweets, run_cpu against the reference on every thread count, the
// input checks, the subject parameter, the lexicon, the fast path's pieces,
// the "tweets" generator and the access share.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <unordered_set>

#include "datasets/sentiment_lexicon.h"
#include "datasets/tweets.h"
#include "frameworks/workloads/opinion_finder/opinion_format.h"
#include "frameworks/workloads/opinion_finder/opinion_text_scan.h"
#include "frameworks/workloads/opinion_finder/opinion_word_table.h"
#include "frameworks/workloads/tests/fixed_text_test_support.h"
#include "harness/core/errors.h"

namespace harness::workloads {
namespace {

using namespace test_support;
using opinion::kRecordBytes;
using opinion::kTextBytes;

constexpr const char* kApp = "opinion-finder";

// A record with `text` (at most 146 bytes) and plausible other fields.
std::string record(const std::string& text) {
  std::string r = text + std::string(kTextBytes - text.size(), ' ');
  r += "|1262304000|0000004711|en|0000000|0000000|android    \n";
  EXPECT_EQ(r.size(), kRecordBytes);
  return r;
}

std::string records(std::initializer_list<std::string> texts) {
  std::string all;
  for (const std::string& t : texts) all += record(t);
  return all;
}

std::string answer(std::int64_t tweets, std::int64_t mentioning, std::int64_t positive,
                   std::int64_t negative, std::int64_t score) {
  return "tweets\t" + std::to_string(tweets) + "\nmentioning\t" + std::to_string(mentioning) +
         "\npositive_words\t" + std::to_string(positive) + "\nnegative_words\t" +
         std::to_string(negative) + "\nscore\t" + std::to_string(score) + "\n";
}

Params subject(const std::string& s) { return {{"subject", s}}; }

std::filesystem::path example(const char* file) {
  return source_dir() / "frameworks/workloads/opinion_finder/examples" / file;
}

TEST(OpinionFinder, HandWrittenExample) {
  const std::string input = read_file(example("small.txt"));
  ASSERT_EQ(input.size(), 12 * kRecordBytes);
  EXPECT_EQ(dump(*reference(kApp, input)), read_file(example("small.expected")));
  expect_cpu_agrees(kApp, input);
  // Another subject: only "the weather is great but traffic is awful".
  EXPECT_EQ(dump(*reference(kApp, input, subject(" Weather,TRAFFIC "))), answer(12, 1, 1, 1, 0));
  expect_cpu_agrees(kApp, input, subject("weather,traffic"));
}

TEST(OpinionFinder, PythonCheckAcceptsTheExampleAndRejectsAnotherAnswer) {
  if (!have_python()) GTEST_SKIP() << "no python3";
  EXPECT_EQ(run_check("opinion_finder_check.py", example("small.txt"), example("small.expected")),
            0);
  const TempFile wrong(answer(12, 9, 8, 6, 11));
  EXPECT_EQ(run_check("opinion_finder_check.py", example("small.txt"), wrong.path()), 1);
  const TempFile other(answer(12, 1, 1, 1, 0));
  EXPECT_EQ(run_check("opinion_finder_check.py", example("small.txt"), other.path(),
                      "subject=weather,traffic"),
            0);
}

TEST(OpinionFinder, AdverbsMultiplyUpToEightAndOtherWordsReset) {
  auto score = [](const std::string& text) {
    const auto out = reference(kApp, record(text), subject("phone"));
    return dynamic_cast<const CountsOutput&>(*out).get("score");
  };
  EXPECT_EQ(score("phone good"), 1);
  EXPECT_EQ(score("phone bad"), -1);
  EXPECT_EQ(score("phone very good"), 2);
  EXPECT_EQ(score("phone very very bad"), -4);
  EXPECT_EQ(score("phone so really very good"), 8);
  EXPECT_EQ(score("phone so really very truly totally good"), 8);  // capped
  EXPECT_EQ(score("phone very nice bad"), 2 - 1);                  // the factor applies once
  EXPECT_EQ(score("phone very the good"), 1);                      // a non-dictionary word resets
  EXPECT_EQ(score("phone very, ... !good"), 2);                    // punctuation does not
  EXPECT_EQ(score("very phone good"), 1);      // nor does a keyword in between: it resets
  EXPECT_EQ(score("phone VERY GoOd"), 2);      // any case
  EXPECT_EQ(score("phone goodvery good"), 1);  // words are whole runs of letters
  EXPECT_EQ(score("phone very"), 0);
  EXPECT_EQ(score("phone caf\xc3\xa9 very\xc3\xa9good"), 2);  // non-ASCII bytes separate words
  EXPECT_EQ(score("very good"), 0);                           // no mention: not scored
  EXPECT_EQ(score("phones good"), 0);
  EXPECT_EQ(score("#phone's good"), 1);
  EXPECT_EQ(score(std::string(141, ' ') + "phone"), 0);  // a keyword ending the text field
  expect_cpu_agrees(kApp, record(std::string(141, ' ') + "phone"), subject("phone"));
}

TEST(OpinionFinder, OnlyTheTextFieldIsRead) {
  std::string r = record("phone");
  r.replace(188, 7, "awesome");  // the client field
  EXPECT_EQ(dump(*reference(kApp, r)), answer(1, 1, 0, 0, 0));
  expect_cpu_agrees(kApp, r);
  // A word that the text field's end cuts: "goo" of "good" is no word of the lexicon.
  std::string cut = record(std::string(140, ' ') + "phone");
  cut.replace(kTextBytes - 1, 1, "g");
  EXPECT_EQ(dump(*reference(kApp, cut)), answer(1, 0, 0, 0, 0));
}

TEST(OpinionFinder, TinyAndDegenerateInputsAgree) {
  EXPECT_EQ(dump(*reference(kApp, "")), answer(0, 0, 0, 0, 0));
  expect_cpu_agrees(kApp, "");
  expect_cpu_agrees(kApp, record("Battery so good"));
  // Every tweet mentions the subject, and none does.
  std::string all, none;
  for (int i = 0; i < 37; ++i) {
    all += record("phone really " + std::string(i % 3 ? "great" : "awful") + " battery");
    none += record("nothing to see " + std::to_string(i) + " so bad");
  }
  EXPECT_EQ(dump(*reference(kApp, all)), answer(37, 37, 24, 13, 2 * 24 - 2 * 13));
  expect_cpu_agrees(kApp, all);
  EXPECT_EQ(dump(*reference(kApp, none)), answer(37, 0, 0, 0, 0));
  expect_cpu_agrees(kApp, none);
  // Threads split 13 records unevenly (some get none with 16 threads).
  std::string thirteen;
  for (int i = 0; i < 13; ++i) thirteen += record(i % 2 ? "phone so bad" : "battery good");
  expect_cpu_agrees(kApp, thirteen);
}

TEST(OpinionFinder, ThreadsAgreeWithTheReferenceOnGeneratedTweets) {
  const std::string input = generate("tweets", 2 << 20);
  for (const char* s : {"phone,battery", "coffee", "phone,battery,camera", "the", "good,so"})
    expect_cpu_agrees(kApp, input, subject(s));
}

TEST(OpinionFinder, MalformedRecordsNameTheirIndexAndOffset) {
  const Workload& w = find_workload(kApp);
  auto error = [&](const std::string& input) -> std::string {
    try {
      w.check_input(bytes(input), input.size());
    } catch (const RunError& e) {
      EXPECT_THROW(w.reference(params_of(kApp), bytes(input), input.size()), RunError);
      return e.what();
    }
    return "no error";
  };
  const std::string good = records({"a", "b", "c"});
  EXPECT_EQ(error(good), "no error");
  EXPECT_EQ(error(good.substr(0, 450)),
            "opinion-finder: record 2 (bytes 400-599), byte 450: the input ends after 50 of the "
            "record's 200 bytes (records are 200 bytes: 450 bytes are not a whole number of "
            "records)");
  std::string inner = good;
  inner[200 + 17] = '\n';
  EXPECT_EQ(error(inner),
            "opinion-finder: record 1 (bytes 200-399), byte 217: a '\\n' 17 bytes into the record "
            "(a 200-byte record has its only '\\n' as its last byte)");
  std::string last = good;
  last[599] = 'x';
  EXPECT_EQ(error(last),
            "opinion-finder: record 2 (bytes 400-599), byte 599: the record's last byte is 0x78, "
            "not '\\n'");
  EXPECT_EQ(error(good + "\n"),
            "opinion-finder: record 3 (bytes 600-799), byte 601: the input ends after 1 of the "
            "record's 200 bytes (records are 200 bytes: 601 bytes are not a whole number of "
            "records)");
}

TEST(OpinionFinder, SubjectIsCommaSeparatedLetterKeywords) {
  using opinion::parse_subject;
  EXPECT_EQ(parse_subject("phone,battery"), (std::vector<std::string>{"phone", "battery"}));
  EXPECT_EQ(parse_subject(" Phone , BATTERY "), (std::vector<std::string>{"phone", "battery"}));
  EXPECT_EQ(parse_subject("abcdefghijklmnop"), (std::vector<std::string>{"abcdefghijklmnop"}));
  for (const char* bad : {"", " ", "phone,", ",phone", "phone,,battery", "ph one", "phone1",
                          "ph\xc3\xb6ne", "abcdefghijklmnopq", "phone;battery"})
    EXPECT_THROW(parse_subject(bad), UsageError) << bad;
  try {
    parse_subject("phone,4g");
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("'4g'"), std::string::npos) << e.what();
  }
}

TEST(OpinionFinder, LexiconListsAreDisjointShortLowerCaseWords) {
  std::set<std::string_view> seen;
  auto add_all = [&](auto list, std::size_t size) {
    EXPECT_EQ(list.size(), size);
    for (std::string_view w : list) {
      EXPECT_TRUE(seen.insert(w).second) << "repeated: " << w;
      EXPECT_TRUE(!w.empty() && w.size() <= opinion::kMaxWordLetters) << w;
      for (char c : w) EXPECT_TRUE(c >= 'a' && c <= 'z') << w;
    }
  };
  add_all(datasets::kPositiveWords, 120);
  add_all(datasets::kNegativeWords, 120);
  add_all(datasets::kAdverbs, 40);
  add_all(datasets::kTopicKeywords, 12);
  EXPECT_EQ(datasets::kTopicKeywords[0], "phone");
  EXPECT_EQ(datasets::kTopicKeywords[1], "battery");
}

TEST(OpinionFinder, TextScanPathsAgreeAndWordTableFindsEveryWord) {
  using namespace opinion;
  std::mt19937 rng(7);
  const std::string alphabet = "aZ{`@[ \xc3\xa9.-09pPhHoOqQzA";
  const std::vector<KeywordPrefix> prefixes = {{'p', 'h'}, {'o', 0}, {'z', 'a'}, {'a', 'a'}};
  std::vector<TextBits> sse(prefixes.size()), plain(prefixes.size());
  for (int i = 0; i < 3000; ++i) {
    std::string r(kRecordBytes, ' ');
    for (char& c : r) c = alphabet[rng() % alphabet.size()];
    if (i % 3 == 0) {
      for (char& c : r) c = static_cast<char>(rng() % 256);
    }
    const auto* p = bytes(r);
    ASSERT_EQ(scan_text(p, prefixes, sse), scan_text_bytes(p, prefixes, plain)) << i;
    ASSERT_EQ(sse, plain) << i;
  }
  const KeywordPrefix ph{'p', 'h'};
  TextBits at_ph;
  const std::string text = record("  ab1C PHone" + std::string(129, ' ') + "xyzph");
  const TextBits m = scan_text(bytes(text), std::span(&ph, 1), std::span(&at_ph, 1));
  EXPECT_EQ(m.next_set(0), 2u);
  EXPECT_EQ(m.next_clear(2), 4u);
  EXPECT_EQ(m.next_set(4), 5u);
  EXPECT_EQ(m.next_set(6), 7u);
  EXPECT_EQ(m.next_set(12), 141u);
  EXPECT_EQ(m.next_clear(141), 146u);  // the text field ends the word
  EXPECT_EQ(m.next_set(146), TextBits::kNone);
  EXPECT_EQ(at_ph.next_set(0), 7u);
  EXPECT_EQ(at_ph.next_set(8), 144u);  // inside a word: no word start
  EXPECT_EQ(at_ph.next_set(145), TextBits::kNone);
  EXPECT_EQ((at_ph & m.run_starts()).next_set(8), TextBits::kNone);
  EXPECT_EQ(m.run_starts().next_set(3), 5u);

  using namespace opinion;
  WordTable t(3);
  t.add("good", kPositive);
  t.add("abcdefghijklmnop", kNegative);
  t.add("so", kAdverb);
  auto classes = [&](const std::string& word) {
    std::string padded = word + std::string(32, ' ');
    return t.classes(load_word(bytes(padded), word.size()));
  };
  EXPECT_EQ(classes("GOOD"), kPositive);
  EXPECT_EQ(classes("abcdefghijklmnoP"), kNegative);
  EXPECT_EQ(classes("So"), kAdverb);
  EXPECT_EQ(classes("goo"), 0);
  EXPECT_EQ(classes("goods"), 0);
  EXPECT_EQ(classes("abcdefghijklmno"), 0);
  EXPECT_EQ(load_word(bytes(std::string("goodbye          ")), 4), pack_word("good"));
}

// ---------------------------------------------------------------- generator
TEST(TweetsGenerator, DeterministicWholeRecordsOfTheExactSize) {
  const auto& g = datasets::find_generator("tweets");
  EXPECT_EQ(g.extension(), "txt");
  EXPECT_EQ(g.output_bytes(1000), 1000u);
  EXPECT_EQ(g.output_bytes(1199), 1000u);
  EXPECT_EQ(g.output_bytes(199), 0u);
  EXPECT_EQ(generate("tweets", 199), "");
  for (std::uint64_t size : {std::uint64_t{200}, std::uint64_t{12345}, std::uint64_t{4100000}}) {
    const std::string t = generate("tweets", size);
    EXPECT_EQ(t.size(), g.output_bytes(size));
    EXPECT_NO_THROW(find_workload(kApp).check_input(bytes(t), t.size()));
    EXPECT_EQ(generate("tweets", size), t) << "same seed, same bytes";
    EXPECT_NE(generate("tweets", size, 43), t) << "another seed";
  }
}

TEST(TweetsGenerator, FieldsHaveTheDocumentedLayoutAndDistributions) {
  const std::string t = generate("tweets", 4100000);  // two chunks
  const std::size_t n = t.size() / kRecordBytes;
  std::uint64_t previous_time = 0;
  std::map<std::string, std::size_t> languages, users;
  std::size_t phone = 0, battery = 0, links = 0, hashtags = 0, zero_retweets = 0;
  std::unordered_set<std::string> positive;
  for (std::string_view w : datasets::kPositiveWords) positive.emplace(w);
  std::size_t words = 0, positive_words = 0;
  for (std::size_t r = 0; r < n; ++r) {
    const std::string rec = t.substr(r * kRecordBytes, kRecordBytes);
    const std::string text = rec.substr(0, kTextBytes);
    ASSERT_EQ(text.find('|'), std::string::npos) << r;
    ASSERT_NE(text[0], ' ') << r;
    for (std::size_t at : {146u, 157u, 168u, 171u, 179u, 187u}) ASSERT_EQ(rec[at], '|') << r;
    const std::uint64_t time = std::stoull(rec.substr(147, 10));
    ASSERT_GE(time, previous_time) << r;
    ASSERT_GE(time, 1262304000u);
    previous_time = time;
    ++languages[rec.substr(169, 2)];
    ++users[rec.substr(158, 10)];
    zero_retweets += rec.substr(172, 7) == "0000000";
    links += text.find("http://t.co/") != std::string::npos;
    hashtags += text.find('#') != std::string::npos;
    std::string word;
    bool has_phone = false, has_battery = false;
    for (std::size_t i = 0; i <= text.size(); ++i) {
      if (i < text.size() && opinion::is_letter(static_cast<std::uint8_t>(text[i]))) {
        word += opinion::lower(static_cast<std::uint8_t>(text[i]));
        continue;
      }
      if (word.empty()) continue;
      ++words;
      positive_words += positive.contains(word);
      has_phone = has_phone || word == "phone";
      has_battery = has_battery || word == "battery";
      word.clear();
    }
    phone += has_phone;
    battery += has_battery;
  }
  EXPECT_LT(previous_time - 1262304000u, 2 * 1000u + 1) << "two 1000-second windows";
  auto share = [n](std::size_t k) { return static_cast<double>(k) / static_cast<double>(n); };
  EXPECT_NEAR(share(languages["en"]), 0.85, 0.02);
  EXPECT_NEAR(share(phone), 0.08, 0.015);
  EXPECT_NEAR(share(battery), 0.04, 0.01);
  EXPECT_NEAR(share(links), 0.15, 0.02);
  EXPECT_NEAR(share(zero_retweets), 0.5, 0.03);
  EXPECT_GT(share(hashtags), 0.05);
  // Positive words: 3% of the tokens (6% in topic tweets), a token ~1.1 words.
  const double positive_rate = static_cast<double>(positive_words) / static_cast<double>(words);
  EXPECT_GT(positive_rate, 0.02);
  EXPECT_LT(positive_rate, 0.045);
  // Zipf users: the most active posts far more than the average one.
  std::size_t top = 0;
  for (const auto& [id, k] : users) top = std::max(top, k);
  EXPECT_GT(share(top), 0.02);
  EXPECT_GT(users.size(), n / 10);
}

TEST(OpinionFinder, AccessShareIsTheTextField) {
  const std::string t = generate("tweets", 1 << 20);
  const AccessShare s = find_workload(kApp).access_share(params_of(kApp), bytes(t), t.size());
  EXPECT_EQ(s.records, t.size() / kRecordBytes);
  EXPECT_EQ(s.read_bytes, s.records * kTextBytes);
  EXPECT_EQ(s.written_bytes, 0u);
  const PaperFacts p = find_workload(kApp).paper();
  EXPECT_NEAR(s.read_share(), *p.read_share, 0.005);
  EXPECT_EQ(*p.table4_1_bytes, 6.2e9);
  EXPECT_EQ(find_workload(kApp).record_type(), "fixed");
  EXPECT_EQ(find_workload(kApp).default_dataset(), "tweets");
}

}  // namespace
}  // namespace harness::workloads
