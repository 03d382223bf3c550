#include "datasets/dataset.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <vector>

#include "datasets/dna_fragments.h"
#include "datasets/geo_articles.h"
#include "datasets/html_zipf.h"
#include "datasets/keys_u64.h"
#include "datasets/kv_pairs.h"
#include "datasets/netflix_pairs.h"
#include "datasets/npy_generators.h"
#include "datasets/particles.h"
#include "datasets/patent_citations.h"
#include "datasets/strops.h"
#include "datasets/text_zipf.h"
#include "datasets/transactions.h"
#include "datasets/tweets.h"
#include "datasets/uniform_f32.h"
#include "datasets/weblog.h"
#include "datasets/xxhash.h"
#include "harness/core/errors.h"

namespace harness::datasets {
namespace fs = std::filesystem;

// ---------------------------------------------------------------- registry
const std::vector<const Generator*>& generators() {
  static const std::vector<const Generator*> all = [] {
    std::vector<const Generator*> list = {
        // One line per generator.
        &text_zipf_generator(),     &html_zipf_generator(),        &uniform_f32_generator(),
        &matrix_f32_generator(),    &features_f32_generator(),     &points_f32_generator(),
        &weblog_generator(),        &strops_generator(),           &transactions_generator(),
        &particles_generator(),     &netflix_pairs_generator(),    &tweets_generator(),
        &dna_fragments_generator(), &patent_citations_generator(), &geo_articles_generator(),
        &kv_pairs_generator(),      &keys_u64_generator(),
    };
    std::sort(list.begin(), list.end(),
              [](const Generator* a, const Generator* b) { return a->name() < b->name(); });
    return list;
  }();
  return all;
}

const Generator& find_generator(const std::string& name) {
  std::string known;
  for (const Generator* g : generators()) {
    if (g->name() == name) return *g;
    known += (known.empty() ? "" : ", ") + g->name();
  }
  throw UsageError(fmt::format("unknown dataset '{}' (known: {})", name, known));
}

std::unique_ptr<Generator> Generator::with_params(const Params&) const {
  throw std::logic_error("dataset '" + name() + "' has no parameters");
}

Params dataset_params(const Generator& generator, const Params& given) {
  const ParamDecls decls = generator.params();
  for (const auto& [name, value] : given) {
    if (find_param(decls, name)) continue;
    std::string known;
    for (const ParamDecl& d : decls) known += (known.empty() ? "" : ", ") + d.name;
    throw UsageError(fmt::format("dataset '{}' has no parameter '{}' ({})", generator.name(), name,
                                 known.empty() ? "it has none" : "its parameters: " + known));
  }
  return resolve_params(decls, given);
}

std::shared_ptr<const Generator> generator_for(const DatasetSpec& spec) {
  const Generator& named = find_generator(spec.generator);
  const Params params = dataset_params(named, spec.params);
  if (params.empty()) return std::shared_ptr<const Generator>(&named, [](const Generator*) {});
  return named.with_params(params);
}

// ---------------------------------------------------------------- sizes
// ---------------------------------------------------------------- files
namespace {

[[noreturn]] void throw_read_error(const std::string& path, const std::string& why) {
  throw RunError(fmt::format("cannot read input file '{}': {}", path, why));
}

[[noreturn]] void throw_read_errno(const std::string& path, int err) {
  throw_read_error(path, std::strerror(err));
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

// Opens a regular file for reading; returns the descriptor and its size.
Fd open_input(const std::string& path, std::uint64_t& size) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) throw_read_errno(path, errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw_read_errno(path, errno);
  if (S_ISDIR(st.st_mode)) throw_read_errno(path, EISDIR);
  if (!S_ISREG(st.st_mode)) throw_read_error(path, "not a regular file");
  size = static_cast<std::uint64_t>(st.st_size);
  return Fd(fd.release());
}

// read() that retries on EINTR; returns bytes read (0 at end of file) or -1.
ssize_t read_some(int fd, void* dst, std::size_t size) {
  const std::size_t kMaxRead = std::size_t{1} << 30;
  for (;;) {
    const ssize_t got = ::read(fd, dst, std::min(size, kMaxRead));
    if (got >= 0 || errno != EINTR) return got;
  }
}

std::string absolute_path(const std::string& path) {
  std::error_code ec;
  const fs::path abs = fs::absolute(path, ec);
  return ec ? path : abs.lexically_normal().string();
}

}  // namespace

std::string format_checksum(std::uint64_t hash) { return fmt::format("xxh64:{:016x}", hash); }

std::uint64_t file_size(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw_read_errno(path, errno);
  if (S_ISDIR(st.st_mode)) throw_read_errno(path, EISDIR);
  if (!S_ISREG(st.st_mode)) throw_read_error(path, "not a regular file");
  return static_cast<std::uint64_t>(st.st_size);
}

std::string checksum_file(const std::string& path) {
  std::uint64_t size = 0;
  const Fd fd = open_input(path, size);
#ifdef POSIX_FADV_SEQUENTIAL
  ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  std::vector<char> buffer(std::size_t{4} << 20);
  Xxh64Stream hash;
  for (;;) {
    const ssize_t got = read_some(fd.get(), buffer.data(), buffer.size());
    if (got < 0) throw_read_errno(path, errno);
    if (got == 0) break;
    hash.update(buffer.data(), static_cast<std::size_t>(got));
  }
  return format_checksum(hash.digest());
}

DatasetFile describe_user_file(const std::string& path) {
  DatasetFile file;
  file.path = absolute_path(path);
  file.size_bytes = file_size(path);
  file.checksum = checksum_file(path);
  return file;
}

void load_file(const std::string& path, void* dst, std::uint64_t dst_size) {
  std::uint64_t size = 0;
  const Fd fd = open_input(path, size);
  if (size != dst_size) {
    throw RunError(fmt::format("cannot load input file '{}': it has {} bytes, the buffer {}", path,
                               size, dst_size));
  }
  auto* p = static_cast<char*>(dst);
  std::uint64_t done = 0;
  while (done < size) {
    const ssize_t got = read_some(fd.get(), p + done, static_cast<std::size_t>(size - done));
    if (got < 0) throw_read_errno(path, errno);
    if (got == 0) {
      throw_read_error(path, fmt::format("short read: file ended at byte {} of {}", done, size));
    }
    done += static_cast<std::uint64_t>(got);
  }
}

// ---------------------------------------------------------------- cache
std::string default_cache_dir() {
  auto env = [](const char* name) {
    const char* value = std::getenv(name);
    return std::string(value ? value : "");
  };
  if (std::string dir = env("HARNESS_DATA_DIR"); !dir.empty()) return dir;
  const fs::path tail = fs::path("gpu-bigdata-harness") / "datasets";
  if (std::string xdg = env("XDG_CACHE_HOME"); !xdg.empty()) return (fs::path(xdg) / tail).string();
  std::string home = env("HOME");
  if (home.empty()) {
    if (const passwd* pw = ::getpwuid(::getuid()); pw != nullptr && pw->pw_dir != nullptr) {
      home = pw->pw_dir;
    }
  }
  if (home.empty()) {
    throw RunError("cannot find a folder for the dataset cache: set HARNESS_DATA_DIR");
  }
  return (fs::path(home) / ".cache" / tail).string();
}

std::string dataset_file_name(const DatasetSpec& spec) {
  const Generator& generator = find_generator(spec.generator);
  std::string params;
  for (const auto& [name, value] : dataset_params(generator, spec.params))
    params += fmt::format("-{}={}", name, value);
  return fmt::format("{}-v{}{}-seed{}-{}.{}", generator.name(), generator.version(), params,
                     spec.seed, format_size(spec.size_bytes), generator.extension());
}

namespace {

[[noreturn]] void throw_write_errno(const std::string& path, int err) {
  throw RunError(fmt::format("cannot write dataset file '{}': {}", path, std::strerror(err)));
}

// A write-only stream buffer on a file descriptor that hashes what it writes
// and remembers the first error (errno) instead of throwing.
class HashingFileBuf : public std::streambuf {
 public:
  explicit HashingFileBuf(int fd) : fd_(fd), buffer_(std::size_t{1} << 20) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }
  int error() const { return error_; }
  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t digest() const { return hash_.digest(); }

 protected:
  int_type overflow(int_type ch) override {
    if (!flush_buffer()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }

  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (static_cast<std::size_t>(n) < buffer_.size()) return std::streambuf::xsputn(s, n);
    if (!flush_buffer() || !write_all(s, static_cast<std::size_t>(n))) return 0;
    return n;
  }

  int sync() override { return flush_buffer() ? 0 : -1; }

 private:
  bool write_all(const char* p, std::size_t n) {
    if (error_ != 0) return false;
    hash_.update(p, n);
    bytes_ += n;
    while (n > 0) {
      const ssize_t put = ::write(fd_, p, std::min(n, std::size_t{1} << 30));
      if (put < 0) {
        if (errno == EINTR) continue;
        error_ = errno;
        return false;
      }
      p += put;
      n -= static_cast<std::size_t>(put);
    }
    return true;
  }

  bool flush_buffer() {
    const auto n = static_cast<std::size_t>(pptr() - pbase());
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return n == 0 || write_all(buffer_.data(), n);
  }

  int fd_;
  std::vector<char> buffer_;
  Xxh64Stream hash_;
  std::uint64_t bytes_ = 0;
  int error_ = 0;
};

std::string temporary_name(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return fmt::format("{}.tmp-{}-{}", path, ::getpid(), counter++);
}

// Writes `contents` to `path` through a temporary file and a rename.
void write_file_atomically(const std::string& path, const std::string& contents) {
  const std::string tmp = temporary_name(path);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw_write_errno(tmp, errno);
    out << contents;
    out.close();
    if (!out) {
      const int err = errno;
      std::remove(tmp.c_str());
      throw_write_errno(tmp, err ? err : EIO);
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw_write_errno(path, err);
  }
}

// The cached file's checksum when the file has the expected size and hashes
// to what its sidecar says; nothing otherwise.
std::optional<std::string> verified_checksum(const std::string& path, const std::string& sidecar,
                                             std::uint64_t size) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) != size || ec) return {};
  std::ifstream in(sidecar);
  std::string expected;
  if (!(in >> expected) || expected.rfind("xxh64:", 0) != 0) return {};
  try {
    if (checksum_file(path) == expected) return expected;
  } catch (const RunError&) {
    // unreadable: regenerate
  }
  return {};
}

}  // namespace

DatasetFile materialize(const DatasetSpec& spec, const std::string& cache_dir) {
  const std::shared_ptr<const Generator> made = generator_for(spec);
  const Generator& generator = *made;
  if (cache_dir.empty()) throw UsageError("the dataset cache folder is empty");
  std::error_code ec;
  fs::create_directories(cache_dir, ec);
  if (ec) {
    throw RunError(
        fmt::format("cannot create dataset cache folder '{}': {}", cache_dir, ec.message()));
  }
  const std::string name = dataset_file_name(spec);
  const std::string path = (fs::path(absolute_path(cache_dir)) / name).string();
  const std::string sidecar = path + ".xxh64";

  DatasetFile file;
  file.path = path;
  file.generator = generator.name();
  file.size_bytes = generator.output_bytes(spec.size_bytes);
  file.seed = spec.seed;
  file.params = dataset_params(generator, spec.params);
  if (std::optional<std::string> cached = verified_checksum(path, sidecar, file.size_bytes)) {
    file.checksum = *cached;
    file.from_cache = true;
    return file;
  }

  // A dataset the folder cannot hold fails before a byte is written, rather
  // than after filling the disk.
  const fs::space_info room = fs::space(cache_dir, ec);
  if (!ec && room.available < file.size_bytes) {
    throw RunError(fmt::format(
        "dataset {} of {} bytes does not fit the dataset cache folder '{}' ({} bytes free); give "
        "a folder with room (--data-dir or HARNESS_DATA_DIR)",
        generator.name(), file.size_bytes, absolute_path(cache_dir), room.available));
  }
  const auto start = std::chrono::steady_clock::now();
  const std::string tmp = temporary_name(path);
  Fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (fd.get() < 0) throw_write_errno(tmp, errno);
  HashingFileBuf buffer(fd.get());
  {
    std::ostream out(&buffer);
    try {
      generator.generate(spec.size_bytes, spec.seed, out);
      out.flush();
    } catch (...) {
      std::remove(tmp.c_str());
      throw;
    }
    if (buffer.error() != 0 || !out) {
      std::remove(tmp.c_str());
      throw_write_errno(tmp, buffer.error() != 0 ? buffer.error() : EIO);
    }
  }
  if (buffer.bytes() != file.size_bytes) {
    std::remove(tmp.c_str());
    throw RunError(fmt::format("dataset generator '{}' wrote {} bytes instead of {}",
                               generator.name(), buffer.bytes(), file.size_bytes));
  }
  if (::close(fd.release()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw_write_errno(tmp, err);
  }
  file.checksum = format_checksum(buffer.digest());
  // Data first, sidecar last: a run stopped in between leaves a file without
  // a matching sidecar, which the next run regenerates.
  fs::remove(sidecar, ec);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw_write_errno(path, err);
  }
  write_file_atomically(sidecar, fmt::format("{}  {}\n", file.checksum, name));
  file.generate_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return file;
}

}  // namespace harness::datasets
