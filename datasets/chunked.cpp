#include "datasets/chunked.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "harness/core/errors.h"
#include "harness/core/host_cores.h"

namespace harness::datasets {

void end_chunk_with_newline(std::string& out) {
  const std::size_t size = out.size();
  if (size == 0) return;
  out[size - 1] = '\n';
  // Do not leave a UTF-8 character cut in half before the final '\n'.
  std::size_t lead = size - 1;
  while (lead > 0 && (static_cast<unsigned char>(out[lead - 1]) & 0xC0) == 0x80) --lead;
  if (lead > 0 && static_cast<unsigned char>(out[lead - 1]) >= 0xC0) {
    --lead;
    const auto b = static_cast<unsigned char>(out[lead]);
    const std::size_t need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
    if (size - 1 - lead < need) {
      std::fill(out.begin() + static_cast<std::ptrdiff_t>(lead), out.end() - 1, ' ');
    }
  }
}

void write_chunks(const std::string& generator, std::uint64_t size_bytes, std::uint64_t chunk_bytes,
                  unsigned threads, std::ostream& out, const ChunkMaker& make_chunk) {
  if (chunk_bytes == 0 || chunk_bytes > (std::uint64_t{1} << 30)) {
    throw UsageError(generator + ": chunk size must be between 1 byte and 1 GiB");
  }
  if (size_bytes == 0) return;
  const std::uint64_t chunks = (size_bytes + chunk_bytes - 1) / chunk_bytes;
  auto chunk_size = [&](std::uint64_t c) {
    return static_cast<std::size_t>(std::min(chunk_bytes, size_bytes - c * chunk_bytes));
  };
  if (threads == 0) threads = harness::usable_cores();
  if (threads > chunks) threads = static_cast<unsigned>(chunks);

  if (threads == 1) {
    std::string buffer;
    for (std::uint64_t c = 0; c < chunks && out; ++c) {
      make_chunk(c, chunk_size(c), buffer);
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
        make_chunk(c, chunk_size(c), slot[c % window]);
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
