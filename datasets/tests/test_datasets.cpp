#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "datasets/dataset.h"
#include "datasets/html_zipf.h"
#include "datasets/text_zipf.h"
#include "datasets/xxhash.h"
#include "harness/core/errors.h"

namespace harness::datasets {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

std::string text(std::uint64_t size, std::uint64_t seed, unsigned threads = 0,
                 std::uint64_t chunk = kTextZipfChunkBytes) {
  std::ostringstream out;
  generate_text_zipf(size, seed, out, threads, chunk);
  return std::move(out).str();
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(const fs::path& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
}

// A fresh folder under the system temp folder, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() /
            fmt::format("harness-datasets-test-{}-{}", ::getpid(), counter++);
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Sets (or unsets, with nullopt) an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

template <typename F>
std::string run_error_message(F&& f) {
  try {
    f();
  } catch (const RunError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected harness::RunError";
  return "";
}

// ---------------------------------------------------------------- sizes
TEST(ParseSize, AcceptsBinaryDecimalAndPlainSizes) {
  EXPECT_EQ(parse_size("4MiB"), 4ULL << 20);
  EXPECT_EQ(parse_size("1GiB"), 1ULL << 30);
  EXPECT_EQ(parse_size("512KiB"), 512ULL << 10);
  EXPECT_EQ(parse_size("2TiB"), 2ULL << 40);
  EXPECT_EQ(parse_size("100MB"), 100000000ULL);
  EXPECT_EQ(parse_size("1.5GB"), 1500000000ULL);
  EXPECT_EQ(parse_size("3KB"), 3000ULL);
  EXPECT_EQ(parse_size("2TB"), 2000000000000ULL);
  EXPECT_EQ(parse_size("4096"), 4096ULL);
  EXPECT_EQ(parse_size("4096B"), 4096ULL);
  EXPECT_EQ(parse_size("0"), 0ULL);
  EXPECT_EQ(parse_size("1.5KiB"), 1536ULL);
  EXPECT_EQ(parse_size("0.5MiB"), 512ULL << 10);
  EXPECT_EQ(parse_size("0.1KiB"), 102ULL);  // 102.4 rounds to the nearest byte
  EXPECT_EQ(parse_size("0.0006KB"), 1ULL);  // 0.6 rounds up
  EXPECT_EQ(parse_size("4 MiB"), 4ULL << 20);
  EXPECT_EQ(parse_size("4mib"), 4ULL << 20);  // units are case-insensitive
  EXPECT_EQ(parse_size("1gb"), 1000000000ULL);
  EXPECT_EQ(parse_size("18446744073709551615"), ~std::uint64_t{0});
  EXPECT_EQ(parse_size("16777215TiB"), 16777215ULL << 40);
}

TEST(ParseSize, RejectsBadInputWithUsageError) {
  for (const std::string bad : {"",
                                "-1",
                                "-4MiB",
                                "abc",
                                "MiB",
                                "4XB",
                                "4MiBs",
                                "4MiB ",
                                " 4MiB",
                                "4 MiB junk",
                                "1.5",
                                "1.",
                                ".5GB",
                                "1.2345678GB",
                                "1e9",
                                "0x10",
                                "+4",
                                "4K",
                                "18446744073709551616",
                                "16777216TiB",
                                "17179869184GiB",
                                "99999999999999999999999MiB"}) {
    try {
      parse_size(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("invalid size '" + bad + "': "), std::string::npos)
          << e.what();
    }
  }
}

TEST(FormatSize, UsesTheLargestUnitThatDividesExactly) {
  EXPECT_EQ(format_size(0), "0B");
  EXPECT_EQ(format_size(1), "1B");
  EXPECT_EQ(format_size(1023), "1023B");
  EXPECT_EQ(format_size(1024), "1KiB");
  EXPECT_EQ(format_size(1536), "1536B");
  EXPECT_EQ(format_size(1000), "1KB");
  EXPECT_EQ(format_size(4ULL << 20), "4MiB");
  EXPECT_EQ(format_size(1ULL << 30), "1GiB");
  EXPECT_EQ(format_size(3ULL << 40), "3TiB");
  EXPECT_EQ(format_size(100000000), "100MB");
  EXPECT_EQ(format_size(1500000000), "1500MB");
  EXPECT_EQ(format_size(2048000), "2000KiB");  // also 2048KB: the larger unit wins
  EXPECT_EQ(format_size(5ULL * 1000000000000ULL), "5TB");
  EXPECT_EQ(format_size(~std::uint64_t{0}), "18446744073709551615B");
}

TEST(FormatSize, RoundTripsThroughParseSize) {
  std::uint64_t x = 0x9E3779B97F4A7C15ULL;
  std::vector<std::uint64_t> values = {0,
                                       1,
                                       999,
                                       1000,
                                       1024,
                                       4096,
                                       1ULL << 20,
                                       1000000,
                                       12345678,
                                       1ULL << 40,
                                       7000000000000ULL,
                                       ~std::uint64_t{0}};
  for (int i = 0; i < 200; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    values.push_back(x >> (i % 64));
    values.push_back((x >> 40) << (10 * (i % 4)));
  }
  for (std::uint64_t v : values) EXPECT_EQ(parse_size(format_size(v)), v) << format_size(v);
}

// ---------------------------------------------------------------- xxh64
std::uint64_t xxh64_of(const std::string& s, std::uint64_t seed = 0) {
  return xxh64(s.data(), s.size(), seed);
}

std::string pattern_1027() {
  std::string s;
  for (int r = 0; r < 4; ++r) {
    for (int b = 0; b < 256; ++b) s += static_cast<char>(b);
  }
  return s + "xyz";
}

TEST(Xxh64, MatchesPublishedAndReferenceVectors) {
  // Published: the empty input with seed 0 (xxHash's own test suite and spec).
  EXPECT_EQ(xxh64_of(""), 0xEF46DB3751D8E999ULL);
  // Published in the python-xxhash README: xxh64('Nobody inspects the spammish
  // repetition') and xxh64('xxhash', seed=20141025).
  EXPECT_EQ(xxh64_of("Nobody inspects the spammish repetition"), 0xFBCEA83C8A378BF1ULL);
  EXPECT_EQ(xxh64_of("xxhash", 20141025), 0xB559B98D844E0635ULL);
  // The rest were computed with the reference implementation, Debian's
  // libxxhash 0.8.1 (XXH64() called through python3 ctypes); "a" and "abc"
  // also agree with widely published values.
  EXPECT_EQ(xxh64_of("a"), 0xD24EC4F1A98C6E5BULL);
  EXPECT_EQ(xxh64_of("abc"), 0x44BC2CF5AD770999ULL);
  EXPECT_EQ(xxh64_of("The quick brown fox jumps over the lazy dog"), 0x0B242D361FDA71BCULL);
  EXPECT_EQ(xxh64_of(""), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(xxh64_of("", 1), 0xD5AFBA1336A3BE4BULL);
  EXPECT_EQ(xxh64_of("Nobody inspects the spammish repetition", 20141025), 0xCE06936136852706ULL);
  EXPECT_EQ(xxh64_of(pattern_1027()), 0xE146CB31B65BC21AULL);
}

TEST(Xxh64, StreamingEqualsOneShotForAnySplit) {
  const std::string data = pattern_1027() + text(5000, 3);
  const std::uint64_t expected = xxh64_of(data, 7);
  for (std::size_t step : {1, 3, 7, 8, 31, 32, 33, 64, 100, 1000, 6027}) {
    Xxh64Stream stream(7);
    for (std::size_t at = 0; at < data.size(); at += step) {
      stream.update(data.data() + at, std::min(step, data.size() - at));
    }
    EXPECT_EQ(stream.digest(), expected) << "step " << step;
  }
}

TEST(Xxh64, ChecksumFileStreamsLargeFiles) {
  TempDir dir;
  const std::string data = text(9 * kMiB + 7, 11);  // spans several read buffers
  write_all(dir.path() / "f.txt", data);
  EXPECT_EQ(checksum_file((dir.path() / "f.txt").string()),
            fmt::format("xxh64:{:016x}", xxh64_of(data)));
  write_all(dir.path() / "empty", "");
  EXPECT_EQ(checksum_file((dir.path() / "empty").string()), "xxh64:ef46db3751d8e999");
}

// ---------------------------------------------------------------- registry
TEST(Registry, FindsTextZipfAndNamesTheKnownOnes) {
  EXPECT_EQ(find_generator("text-zipf").name(), "text-zipf");
  EXPECT_EQ(find_generator("text-zipf").extension(), "txt");
  EXPECT_FALSE(find_generator("text-zipf").description().empty());
  bool found = false;
  for (const Generator* g : generators()) found |= g == &text_zipf_generator();
  EXPECT_TRUE(found);
  try {
    find_generator("nope");
    ADD_FAILURE() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown dataset 'nope' (known: "), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("text-zipf"), std::string::npos);
  }
}

TEST(Registry, FileNameHasGeneratorVersionSeedAndSize) {
  EXPECT_EQ(dataset_file_name({"text-zipf", 4 * kMiB, 42}), "text-zipf-v1-seed42-4MiB.txt");
  EXPECT_EQ(dataset_file_name({"text-zipf", 1000, 7}), "text-zipf-v1-seed7-1KB.txt");
  EXPECT_THROW(dataset_file_name({"nope", 1, 1}), UsageError);
}

TEST(Registry, ParametersAreCheckedCompletedAndNamedInTheFile) {
  const Generator& kv = find_generator("kv-pairs");
  EXPECT_EQ(dataset_params(kv, {}),
            (Params{{"duplicates", "2"}, {"key_bytes", "16"}, {"value_bytes", "16"}}));
  EXPECT_EQ(dataset_params(kv, {{"key_bytes", "64"}}).at("key_bytes"), "64");
  EXPECT_EQ(dataset_file_name({"kv-pairs", 4 * kMiB, 42, {{"value_bytes", "4"}}}),
            "kv-pairs-v1-duplicates=2-key_bytes=16-value_bytes=4-seed42-4MiB.bin");
  try {
    dataset_params(kv, {{"keys", "4"}});
    ADD_FAILURE() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "dataset 'kv-pairs' has no parameter 'keys' (its parameters: key_bytes, "
              "value_bytes, duplicates)");
  }
  EXPECT_THROW(dataset_params(kv, {{"key_bytes", "2048"}}), UsageError);  // out of range
  EXPECT_THROW(generator_for({"kv-pairs", 1, 1, {{"key_bytes", "6"}}}), UsageError);
  // A generator without parameters takes none, and its file name has none.
  EXPECT_THROW(dataset_params(find_generator("text-zipf"), {{"key_bytes", "4"}}), UsageError);
  EXPECT_EQ(generator_for({"text-zipf", 1, 1}).get(), &find_generator("text-zipf"));
  EXPECT_THROW(find_generator("text-zipf").with_params({}), std::logic_error);
}

TEST(Cache, ParametersPickTheirOwnFile) {
  TempDir dir;
  const std::string cache = dir.path().string();
  const DatasetFile small = materialize({"kv-pairs", 4096, 7, {{"key_bytes", "4"}}}, cache);
  EXPECT_EQ(fs::path(small.path).filename(),
            "kv-pairs-v1-duplicates=2-key_bytes=4-value_bytes=16-seed7-4KiB.bin");
  EXPECT_EQ(small.params.at("key_bytes"), "4");
  EXPECT_EQ(small.params.at("duplicates"), "2");
  EXPECT_EQ(small.size_bytes, 16 + (4096 - 16) / 20 * 20u);
  EXPECT_EQ(fs::file_size(small.path), small.size_bytes);
  const DatasetFile large = materialize({"kv-pairs", 4096, 7, {{"key_bytes", "64"}}}, cache);
  EXPECT_NE(large.path, small.path);
  EXPECT_NE(large.checksum, small.checksum);
  EXPECT_TRUE(materialize({"kv-pairs", 4096, 7, {{"key_bytes", "4"}}}, cache).from_cache);
  // Defaults given or left out name the same file.
  EXPECT_EQ(materialize({"kv-pairs", 4096, 7, {{"duplicates", "2"}}}, cache).path,
            materialize({"kv-pairs", 4096, 7}, cache).path);
  EXPECT_TRUE(materialize({"text-zipf", 1000, 7}, cache).params.empty());
}

// ---------------------------------------------------------------- text-zipf
TEST(TextZipf, WritesExactlyTheRequestedSize) {
  for (std::uint64_t size :
       std::vector<std::uint64_t>{0, 1, 2, 79, 1000, 65536, 5 * kMiB, 5 * kMiB + 3}) {
    const std::string t = text(size, 42);
    ASSERT_EQ(t.size(), size);
    if (size > 0) {
      EXPECT_EQ(t.back(), '\n');
    }
  }
  // Through the Generator interface, too.
  std::ostringstream out;
  text_zipf_generator().generate(12345, 1, out);
  EXPECT_EQ(out.str().size(), 12345u);
}

TEST(TextZipf, IsDeterministicInSizeAndSeed) {
  const std::string a = text(300000, 42);
  EXPECT_EQ(a, text(300000, 42));
  EXPECT_NE(a, text(300000, 43));
  // A shorter request is not a prefix in general (the last line is cut), but
  // whole chunks are: chunk i depends only on (seed, i).
  const std::string small_chunks = text(100000, 5, 1, 4096);
  EXPECT_EQ(text(50000, 5, 1, 4096).substr(0, 49152), small_chunks.substr(0, 49152));
}

TEST(TextZipf, IsIndependentOfTheThreadCount) {
  const std::uint64_t size = 5 * kMiB + 123;  // two chunks of the real chunk size
  const std::string one = text(size, 9, 1);
  EXPECT_EQ(one, text(size, 9, 2));
  EXPECT_EQ(one, text(size, 9, 8));
  EXPECT_EQ(one, text(size, 9, 0));
  // Many small chunks, more chunks than the window of slots.
  const std::string small = text(kMiB + 17, 9, 1, 16384);
  for (unsigned threads : {2u, 3u, 8u, 16u}) {
    EXPECT_EQ(small, text(kMiB + 17, 9, threads, 16384)) << threads << " threads";
  }
}

TEST(TextZipf, ChunksEndInNewlineAndNeverSplitUtf8) {
  const std::uint64_t chunk = 997;  // odd size: cuts land everywhere
  const std::string t = text(400 * chunk, 21, 2, chunk);
  for (std::uint64_t end = chunk; end <= t.size(); end += chunk) {
    ASSERT_EQ(t[end - 1], '\n') << end;
  }
  // Valid UTF-8 throughout.
  std::size_t i = 0;
  while (i < t.size()) {
    const auto b = static_cast<unsigned char>(t[i]);
    const std::size_t len = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0;
    ASSERT_NE(len, 0u) << "stray continuation byte at " << i;
    ASSERT_LE(i + len, t.size());
    for (std::size_t k = 1; k < len; ++k) {
      ASSERT_EQ(static_cast<unsigned char>(t[i + k]) & 0xC0, 0x80) << "at " << i;
    }
    i += len;
  }
}

TEST(TextZipf, LooksLikeEnglishText) {
  const std::string t = text(4 * kMiB, 42);
  // Words: maximal runs of ASCII letters, lower-cased.
  std::unordered_map<std::string, std::uint64_t> counts;
  std::uint64_t words = 0, letters = 0;
  std::string word;
  auto end_word = [&] {
    if (word.empty()) return;
    ++counts[word];
    ++words;
    letters += word.size();
    word.clear();
  };
  for (char c : t) {
    if (c >= 'a' && c <= 'z') {
      word += c;
    } else if (c >= 'A' && c <= 'Z') {
      word += static_cast<char>(c - 'A' + 'a');
    } else {
      end_word();
    }
  }
  end_word();
  std::uint64_t top = 0;
  for (const auto& [w, n] : counts) top = std::max(top, n);
  const double top_share = static_cast<double>(top) / static_cast<double>(words);
  const double mean_length = static_cast<double>(letters) / static_cast<double>(words);
  EXPECT_GE(top_share, 0.03);
  EXPECT_LE(top_share, 0.12);
  EXPECT_GT(counts.size(), 5000u);
  EXPECT_GE(mean_length, 3.5);
  EXPECT_LE(mean_length, 6.5);
  EXPECT_TRUE(std::any_of(t.begin(), t.end(),
                          [](char c) { return static_cast<unsigned char>(c) >= 0x80; }));
  EXPECT_NE(t.find('\n'), std::string::npos);
  EXPECT_NE(t.find("\n\n"), std::string::npos);  // paragraphs
  for (char c : std::string(".,?!\"()-0123456789")) {
    EXPECT_NE(t.find(c), std::string::npos) << "no '" << c << "'";
  }

  // Lines are wrapped at 60-80 bytes (a line can only be longer when one
  // token is); sentences start with a capital letter.
  std::size_t lines = 0, long_lines = 0, start = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] != '\n') continue;
    ++lines;
    if (i - start > 80) ++long_lines;
    start = i + 1;
  }
  EXPECT_GT(lines, 40000u);
  EXPECT_LT(long_lines, lines / 1000 + 1);
  std::size_t sentence_ends = 0, capitalized = 0;
  for (std::size_t i = 0; i + 2 < t.size(); ++i) {
    if (t[i] == '.' && t[i + 1] == ' ' && t[i + 2] >= 'A') {
      ++sentence_ends;
      capitalized += (t[i + 2] >= 'A' && t[i + 2] <= 'Z') || t[i + 2] == '"';
    }
  }
  EXPECT_GT(sentence_ends, 10000u);
  EXPECT_GT(static_cast<double>(capitalized), 0.95 * static_cast<double>(sentence_ends));

  // Non-ASCII: about 0.5% of the space-separated tokens carry a byte >= 0x80.
  std::uint64_t tokens = 0, non_ascii = 0;
  bool in_token = false, has_high = false;
  for (char c : t) {
    if (c == ' ' || c == '\n') {
      if (in_token) {
        ++tokens;
        non_ascii += has_high;
      }
      in_token = has_high = false;
    } else {
      in_token = true;
      has_high |= static_cast<unsigned char>(c) >= 0x80;
    }
  }
  const double non_ascii_share = static_cast<double>(non_ascii) / static_cast<double>(tokens);
  EXPECT_GT(non_ascii_share, 0.002);
  EXPECT_LT(non_ascii_share, 0.012);
}

TEST(TextZipf, VocabularyIsUniqueWithShortPopularWords) {
  const std::vector<std::string> vocab = text_zipf_vocabulary(42);
  ASSERT_EQ(vocab.size(), kTextZipfVocabulary);
  EXPECT_EQ(std::unordered_set<std::string>(vocab.begin(), vocab.end()).size(), vocab.size());
  auto mean_length = [&](std::size_t from, std::size_t to) {
    std::size_t sum = 0;
    for (std::size_t i = from; i < to; ++i) sum += vocab[i].size();
    return static_cast<double>(sum) / static_cast<double>(to - from);
  };
  EXPECT_LE(mean_length(0, 10), 3.5);
  EXPECT_LT(mean_length(0, 100), mean_length(1000, 2000));
  EXPECT_LT(mean_length(1000, 2000), mean_length(50000, 100000));
  std::size_t longest = 0;
  for (const std::string& w : vocab) longest = std::max(longest, w.size());
  EXPECT_GE(longest, 15u);
  EXPECT_NE(vocab, text_zipf_vocabulary(43));
}

// ---------------------------------------------------------------- cache
TEST(Cache, DefaultFolderFollowsTheEnvironment) {
  {
    ScopedEnv data("HARNESS_DATA_DIR", "/data/here");
    EXPECT_EQ(default_cache_dir(), "/data/here");
  }
  ScopedEnv data("HARNESS_DATA_DIR", std::nullopt);
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(default_cache_dir(), "/xdg/gpu-bigdata-harness/datasets");
  }
  ScopedEnv xdg("XDG_CACHE_HOME", "");  // empty counts as unset
  ScopedEnv home("HOME", "/home/someone");
  EXPECT_EQ(default_cache_dir(), "/home/someone/.cache/gpu-bigdata-harness/datasets");
}

TEST(Cache, GeneratesThenReusesThenRepairs) {
  TempDir dir;
  const std::string cache = (dir.path() / "nested" / "cache").string();
  const DatasetSpec spec{"text-zipf", 300000, 7};

  const DatasetFile first = materialize(spec, cache);
  EXPECT_FALSE(first.from_cache);
  EXPECT_EQ(first.path,
            (dir.path() / "nested" / "cache" / "text-zipf-v1-seed7-300KB.txt").string());
  EXPECT_TRUE(fs::path(first.path).is_absolute());
  EXPECT_EQ(first.generator, "text-zipf");
  EXPECT_EQ(first.size_bytes, 300000u);
  EXPECT_EQ(first.seed, 7u);
  EXPECT_GE(first.generate_seconds, 0.0);
  EXPECT_EQ(fs::file_size(first.path), 300000u);
  EXPECT_EQ(read_all(first.path), text(300000, 7));
  EXPECT_EQ(first.checksum, checksum_file(first.path));
  EXPECT_EQ(read_all(first.path + ".xxh64").substr(0, 22), first.checksum);

  const DatasetFile second = materialize(spec, cache);
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.checksum, first.checksum);
  EXPECT_EQ(second.path, first.path);

  // A flipped byte: regenerated.
  {
    std::fstream f(first.path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(1234);
    f.put('#');
  }
  ASSERT_NE(checksum_file(first.path), first.checksum);
  const DatasetFile repaired = materialize(spec, cache);
  EXPECT_FALSE(repaired.from_cache);
  EXPECT_EQ(repaired.checksum, first.checksum);
  EXPECT_EQ(checksum_file(first.path), first.checksum);

  // Truncated: regenerated.
  fs::resize_file(first.path, 1000);
  const DatasetFile regrown = materialize(spec, cache);
  EXPECT_FALSE(regrown.from_cache);
  EXPECT_EQ(fs::file_size(first.path), 300000u);
  EXPECT_EQ(regrown.checksum, first.checksum);

  // No sidecar (a run stopped between the data file and its sidecar): regenerated.
  fs::remove(first.path + ".xxh64");
  EXPECT_FALSE(materialize(spec, cache).from_cache);
  EXPECT_TRUE(materialize(spec, cache).from_cache);

  // Other sizes and seeds are other files; nothing temporary is left behind.
  EXPECT_FALSE(materialize({"text-zipf", 300000, 8}, cache).from_cache);
  EXPECT_FALSE(materialize({"text-zipf", 0, 7}, cache).from_cache);
  EXPECT_TRUE(materialize({"text-zipf", 0, 7}, cache).from_cache);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(cache)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{
                       "text-zipf-v1-seed7-0B.txt", "text-zipf-v1-seed7-0B.txt.xxh64",
                       "text-zipf-v1-seed7-300KB.txt", "text-zipf-v1-seed7-300KB.txt.xxh64",
                       "text-zipf-v1-seed8-300KB.txt", "text-zipf-v1-seed8-300KB.txt.xxh64"}));
}

TEST(Cache, UnknownGeneratorIsAUsageError) {
  TempDir dir;
  EXPECT_THROW(materialize({"nope", 10, 1}, dir.path().string()), UsageError);
}

TEST(Cache, UnwritableFolderIsARunErrorWithThePath) {
  TempDir dir;
  write_all(dir.path() / "a-file", "x");
  // A folder below a regular file cannot be created, even by root.
  const std::string below_file = (dir.path() / "a-file" / "cache").string();
  std::string message = run_error_message([&] { materialize({"text-zipf", 1000, 1}, below_file); });
  EXPECT_NE(message.find(below_file), std::string::npos) << message;
  EXPECT_NE(message.find("Not a directory"), std::string::npos) << message;

  // A read-only folder (root ignores permissions, so only as another user).
  if (::geteuid() != 0) {
    const fs::path read_only = dir.path() / "read-only";
    fs::create_directories(read_only);
    fs::permissions(read_only, fs::perms::owner_read | fs::perms::owner_exec);
    message = run_error_message([&] { materialize({"text-zipf", 1000, 1}, read_only.string()); });
    EXPECT_NE(message.find(read_only.string()), std::string::npos) << message;
    EXPECT_NE(message.find("Permission denied"), std::string::npos) << message;
  }
}

// A dataset larger than the folder's free space fails at once, naming the
// folder and its room, and writes nothing (1 PiB: more than any test disk).
TEST(Cache, DatasetLargerThanTheFreeSpaceIsARunErrorBeforeWriting) {
  TempDir dir;
  const std::string message = run_error_message([&] {
    materialize({"text-zipf", std::uint64_t{1} << 50, 1}, dir.path().string());
  });
  EXPECT_NE(message.find("does not fit the dataset cache folder"), std::string::npos) << message;
  EXPECT_NE(message.find(dir.path().string()), std::string::npos) << message;
  EXPECT_NE(message.find("bytes free"), std::string::npos) << message;
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

// ---------------------------------------------------------------- user files
TEST(UserFile, DescribesAndLoadsAnExistingFile) {
  TempDir dir;
  const std::string path = (dir.path() / "input.txt").string();
  const std::string data = text(100000, 3);
  write_all(path, data);

  const DatasetFile file = describe_user_file(path);
  EXPECT_EQ(file.path, path);
  EXPECT_TRUE(file.generator.empty());
  EXPECT_EQ(file.size_bytes, data.size());
  EXPECT_EQ(file.checksum, fmt::format("xxh64:{:016x}", xxh64_of(data)));
  EXPECT_FALSE(file.from_cache);
  EXPECT_EQ(file_size(path), data.size());

  std::vector<char> buffer(data.size());
  load_file(path, buffer.data(), buffer.size());
  EXPECT_EQ(std::string(buffer.begin(), buffer.end()), data);

  std::vector<char> wrong(data.size() + 1);
  const std::string message =
      run_error_message([&] { load_file(path, wrong.data(), wrong.size()); });
  EXPECT_NE(message.find(path), std::string::npos) << message;
}

TEST(UserFile, MissingFileIsARunErrorWithThePath) {
  TempDir dir;
  const std::string path = (dir.path() / "missing.txt").string();
  const std::string expected = "cannot read input file '" + path + "': No such file or directory";
  EXPECT_EQ(run_error_message([&] { describe_user_file(path); }), expected);
  EXPECT_EQ(run_error_message([&] { file_size(path); }), expected);
  EXPECT_EQ(run_error_message([&] { checksum_file(path); }), expected);
  char byte = 0;
  EXPECT_EQ(run_error_message([&] { load_file(path, &byte, 1); }), expected);
}

TEST(UserFile, FolderIsARunError) {
  TempDir dir;
  const std::string path = dir.path().string();
  const std::string message = run_error_message([&] { describe_user_file(path); });
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("Is a directory"), std::string::npos) << message;
}

}  // namespace
}  // namespace harness::datasets

// ---------------------------------------------------------------- html-zipf
namespace harness::datasets {
namespace {

std::string html(std::uint64_t size, std::uint64_t seed, unsigned threads = 0,
                 std::uint64_t chunk = kHtmlZipfChunkBytes) {
  std::ostringstream out;
  generate_html_zipf(size, seed, out, threads, chunk);
  return std::move(out).str();
}

std::size_t count(const std::string& s, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

TEST(HtmlZipf, IsRegisteredWithItsExtension) {
  EXPECT_EQ(&find_generator("html-zipf"), &html_zipf_generator());
  EXPECT_EQ(dataset_file_name({"html-zipf", 4 * kMiB, 42}), "html-zipf-v1-seed42-4MiB.html");
  EXPECT_FALSE(html_zipf_generator().description().empty());
}

TEST(HtmlZipf, WritesExactlyTheRequestedSizeEndingInNewline) {
  for (std::uint64_t size : std::vector<std::uint64_t>{0, 1, 2, 79, 1000, 65536, 4 * kMiB + 3}) {
    const std::string h = html(size, 42);
    ASSERT_EQ(h.size(), size);
    if (size > 0) {
      EXPECT_EQ(h.back(), '\n');
    }
  }
  std::ostringstream out;
  html_zipf_generator().generate(12345, 1, out);
  EXPECT_EQ(out.str().size(), 12345u);
}

TEST(HtmlZipf, IsDeterministicAndIndependentOfTheThreadCount) {
  const std::string a = html(300000, 42, 0, 65536);
  EXPECT_EQ(a, html(300000, 42, 1, 65536));
  EXPECT_EQ(a, html(300000, 42, 3, 65536));
  EXPECT_NE(a, html(300000, 43, 0, 65536));
  // Whole chunks depend only on (seed, chunk index).
  EXPECT_EQ(html(200000, 42, 2, 65536).substr(0, 196608), a.substr(0, 196608));
}

TEST(HtmlZipf, ChunksEndInNewlineAndNeverSplitUtf8) {
  const std::uint64_t chunk = 4093;
  const std::string t = html(300 * chunk, 21, 2, chunk);
  for (std::uint64_t end = chunk; end <= t.size(); end += chunk) ASSERT_EQ(t[end - 1], '\n') << end;
  std::size_t i = 0;
  while (i < t.size()) {
    const auto b = static_cast<unsigned char>(t[i]);
    const std::size_t len = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0;
    ASSERT_NE(len, 0u) << "stray continuation byte at " << i;
    ASSERT_LE(i + len, t.size());
    i += len;
  }
}

TEST(HtmlZipf, PagesHaveTheLinkVariantsAndDecoys) {
  const std::string h = html(2 * kMiB, 42);
  EXPECT_EQ(h.rfind("<!-- page: /site/0/", 0), 0u);  // the first line is a page marker
  const std::size_t pages = count(h, "\n<!-- page: ") + 1;
  EXPECT_GT(pages, 200u);  // pages of about 7 KB
  EXPECT_LT(pages, 800u);
  const std::size_t anchors = count(h, "<a ") + count(h, "<a\t") + count(h, "<A ");
  EXPECT_GT(anchors, h.size() / 250);  // about one link per 150 bytes
  for (std::string_view variant :
       {"<A ", "HREF=", "href='", "href=\"", "<a\thref", " = '", "data-href=", "<area ",
        "<link rel", "&lt;a href=", "<a name=", "&amp;lang=", "https://", "mailto:", "../", "\r\n",
        "<abbr ", "%20"}) {
    EXPECT_GT(count(h, variant), 0u) << variant;
  }
  // An <a start tag never spans two lines (except where a chunk cuts the last page).
  std::size_t broken = 0;
  std::size_t line = 0;
  while (line < h.size()) {
    const std::size_t nl = h.find('\n', line);
    const std::string_view s(h.data() + line, nl - line);
    for (std::size_t at = s.find("<a"); at != std::string_view::npos; at = s.find("<a", at + 1)) {
      if (at + 2 < s.size() && (s[at + 2] == ' ' || s[at + 2] == '\t') &&
          s.find('>', at) == std::string_view::npos)
        ++broken;
    }
    line = nl + 1;
  }
  EXPECT_LE(broken, 1u);
  // Some pages are minified: a line longer than 4 KiB.
  bool long_line = false;
  for (std::size_t at = 0, nl; (nl = h.find('\n', at)) != std::string::npos; at = nl + 1)
    long_line |= nl - at > 4096;
  EXPECT_TRUE(long_line);
}

TEST(HtmlZipf, UrlsAreUniqueAndMixed) {
  const std::vector<std::string> urls = html_zipf_urls(42);
  ASSERT_EQ(urls.size(), kHtmlZipfUrls);
  EXPECT_EQ(urls[0], "index.html");
  EXPECT_EQ(std::unordered_set<std::string>(urls.begin(), urls.end()).size(), urls.size());
  std::size_t absolute = 0, relative = 0;
  for (const auto& u : urls) {
    EXPECT_EQ(u.find_first_of(" \t\r\n\"'<>"), std::string::npos) << u;
    if (u.rfind("http", 0) == 0) ++absolute;
    if (u.find("://") == std::string::npos && u.rfind("mailto:", 0) != 0) ++relative;
  }
  EXPECT_GT(absolute, urls.size() / 5);
  EXPECT_GT(relative, urls.size() / 2);
  EXPECT_NE(urls, html_zipf_urls(43));
}

}  // namespace
}  // namespace harness::datasets
