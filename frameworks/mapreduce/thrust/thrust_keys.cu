// thrust/default's maps (thrust_keys.h): the keys of word count, the page view
// jobs and inverted index found on the device as byte ranges of the input.
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/remove.h>
#include <thrust/scan.h>
#include <thrust/tuple.h>

#include "frameworks/mapreduce/thrust/thrust_device.cuh"
#include "frameworks/mapreduce/thrust/thrust_keys.h"

// After thrust's headers: the dialect's macros (GLOBAL, KERNEL, ...) are for
// the link rule's dialect code only.
#include "frameworks/workloads/inverted_index/html_links.clh"

namespace harness::thrustmr::cuda {
namespace {

// ---- word count (frameworks/mapreduce/apps/wordcount): words are runs of ASCII letters

__host__ __device__ inline bool is_letter(std::uint8_t c) {
  return static_cast<unsigned>((c | 0x20) - 'a') < 26u;
}

struct IsWordStart {
  const std::uint8_t* in;
  __host__ __device__ bool operator()(std::uint32_t i) const {
    return is_letter(in[i]) && (i == 0 || !is_letter(in[i - 1]));
  }
};

// One thread per word: its length and the FNV-1a 64 hash of its lower-cased
// bytes in one walk (thrust_group.h's hash of the same key), low bits `mask`.
__global__ void word_lengths_and_hashes(const std::uint8_t* in, std::uint32_t end,
                                        const std::uint32_t* starts, std::uint32_t words,
                                        std::uint64_t mask, std::uint32_t* lengths,
                                        std::uint64_t* hashes) {
  const std::uint64_t w = thread_index();
  if (w >= words) return;
  std::uint32_t i = starts[w];
  std::uint64_t h = kFnvOffset;
  for (std::uint8_t c; i < end && is_letter(c = in[i]); ++i) {
    h = fnv1a_step(h, static_cast<std::uint8_t>(c | 0x20u));  // a letter lower-cased
  }
  lengths[w] = i - starts[w];
  hashes[w] = h & mask;
}

// ---- line records (apps::split_lines): a line starts at 0 and after every '\n'

struct IsLineStart {
  const std::uint8_t* in;
  __host__ __device__ bool operator()(std::uint32_t i) const { return i == 0 || in[i - 1] == '\n'; }
};

// ---- page view jobs (frameworks/mapreduce/apps/pvc_dedup, pvc_count, pvr_rank)

__global__ void line_key_kernel(const std::uint8_t* in, const std::uint32_t* records,
                                std::uint32_t n_records, LineKey kind, std::uint32_t* starts,
                                std::uint32_t* lengths, std::uint32_t* values) {
  const std::uint64_t r = thread_index();
  if (r >= n_records) return;
  const std::uint32_t begin = records[r];
  std::uint32_t end = records[r + 1];
  std::uint32_t length = 0, value = 0;
  if (kind == LineKey::entry) {
    if (end > begin && in[end - 1] == '\n') --end;
    if (end > begin && in[end - 1] == '\r') --end;
    length = end - begin;
    value = length;
  } else if (kind == LineKey::url) {
    std::uint32_t tab = begin;
    while (tab < end && in[tab] != '\t') ++tab;
    if (tab < end) length = tab - begin;  // 0 when the URL is empty: no key
  } else {
    if (end > begin && in[end - 1] == '\n') --end;
    if (end - begin >= 8) {
      length = end - begin;
      std::uint32_t inverted = 0;
      for (std::uint32_t i = begin; i < begin + 8; ++i) {
        const std::uint8_t c = in[i];
        inverted = (inverted << 4) | static_cast<std::uint32_t>(c <= '9' ? c - '0' : c - 'a' + 10);
      }
      value = 0xffffffffu - inverted;
    }
  }
  starts[r] = begin;
  lengths[r] = length;
  values[r] = value;
}

using StartLengthValue = thrust::tuple<std::uint32_t, std::uint32_t, std::uint32_t>;

struct NoKey {
  __host__ __device__ bool operator()(const StartLengthValue& t) const {
    return thrust::get<1>(t) == 0;
  }
};

// ---- inverted index (the workload's link rule, shared with the app's map
// function: frameworks/workloads/inverted_index/html_links.clh)

// Calls emit(value start, value length) for the href of every anchor of the
// line input[begin, end), as the app's app_map does.
template <class Emit>
__device__ void for_each_link(const std::uint8_t* in, std::uint32_t begin, std::uint32_t end,
                              Emit& emit) {
  if (end > begin && in[end - 1] == '\n') --end;  // a record is one line
  ii_links links;
  ii_links_start(&links);
  for (std::uint32_t at = begin; ii_next_link(&links, in, &at, end);)
    emit(static_cast<std::uint32_t>(links.value),
         static_cast<std::uint32_t>(links.value_end - links.value));
}

struct CountLinks {
  std::uint32_t links = 0;
  __device__ void operator()(std::uint32_t, std::uint32_t) { ++links; }
};

struct WriteLinks {
  std::uint32_t at;
  std::uint32_t page;
  std::uint32_t* starts;
  std::uint32_t* lengths;
  std::uint32_t* values;
  __device__ void operator()(std::uint32_t start, std::uint32_t length) {
    starts[at] = start;
    lengths[at] = length;
    values[at] = page;
    ++at;
  }
};

// counts[r] = links of record r; counts[n_records] = 0 (the scan's total).
__global__ void count_links_kernel(const std::uint8_t* in, const std::uint32_t* records,
                                   std::uint32_t n_records, std::uint32_t* counts) {
  const std::uint64_t r = thread_index();
  if (r > n_records) return;
  if (r == n_records) {
    counts[r] = 0;
    return;
  }
  CountLinks c;
  for_each_link(in, records[r], records[r + 1], c);
  counts[r] = c.links;
}

// The last of the ascending page starts at or before pos (page_starts[0] == 0).
__device__ std::uint32_t page_of(const std::uint32_t* page_starts, std::uint32_t pages,
                                 std::uint32_t pos) {
  std::uint32_t lo = 0, hi = pages;
  while (hi - lo > 1) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (page_starts[mid] <= pos) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return page_starts[lo];
}

__global__ void write_links_kernel(const std::uint8_t* in, const std::uint32_t* records,
                                   std::uint32_t n_records, const std::uint32_t* link_offsets,
                                   const std::uint32_t* page_starts, std::uint32_t pages,
                                   std::uint32_t base, std::uint32_t* starts,
                                   std::uint32_t* lengths, std::uint32_t* values) {
  const std::uint64_t r = thread_index();
  if (r >= n_records) return;
  if (link_offsets[r + 1] == link_offsets[r]) return;  // no links
  WriteLinks w{link_offsets[r], page_of(page_starts, pages, base + records[r]), starts, lengths,
               values};
  for_each_link(in, records[r], records[r + 1], w);
}

}  // namespace

std::uint32_t find_words(const std::uint8_t* input, std::uint32_t bytes, unsigned hash_bits,
                         std::uint32_t* starts, std::uint32_t* lengths, std::uint64_t* hashes,
                         const Exec& exec) {
  if (bytes == 0) return 0;
  const cudaStream_t st = as_stream(exec);
  std::uint32_t* last =
      thrust::copy_if(on_queue(exec), thrust::counting_iterator<std::uint32_t>(0),
                      thrust::counting_iterator<std::uint32_t>(bytes), starts, IsWordStart{input});
  const auto words = static_cast<std::uint32_t>(last - starts);
  if (words == 0) return 0;
  word_lengths_and_hashes<<<blocks(words), kBlock, 0, st>>>(input, bytes, starts, words,
                                                            hash_mask(hash_bits), lengths, hashes);
  check(cudaGetLastError(), "word_lengths_and_hashes");
  return words;
}

std::uint32_t count_lines(const std::uint8_t* input, std::uint32_t bytes, const Exec& exec) {
  if (bytes == 0) return 0;
  return static_cast<std::uint32_t>(
      thrust::count_if(on_queue(exec), thrust::counting_iterator<std::uint32_t>(0),
                       thrust::counting_iterator<std::uint32_t>(bytes), IsLineStart{input}));
}

void write_line_starts(const std::uint8_t* input, std::uint32_t bytes, std::uint32_t lines,
                       std::uint32_t* starts, const Exec& exec) {
  const auto policy = on_queue(exec);
  if (lines > 0) {
    thrust::copy_if(policy, thrust::counting_iterator<std::uint32_t>(0),
                    thrust::counting_iterator<std::uint32_t>(bytes), starts, IsLineStart{input});
  }
  thrust::fill_n(policy, starts + lines, 1, bytes);
}

std::uint32_t line_keys(const std::uint8_t* input, const std::uint32_t* records,
                        std::uint32_t n_records, LineKey kind, std::uint32_t* starts,
                        std::uint32_t* lengths, std::uint32_t* values, const Exec& exec) {
  if (n_records == 0) return 0;
  const cudaStream_t st = as_stream(exec);
  line_key_kernel<<<blocks(n_records), kBlock, 0, st>>>(input, records, n_records, kind, starts,
                                                        lengths, values);
  check(cudaGetLastError(), "line_keys");
  auto first = thrust::make_zip_iterator(thrust::make_tuple(starts, lengths, values));
  auto last = thrust::remove_if(on_queue(exec), first, first + n_records, NoKey{});
  return static_cast<std::uint32_t>(last - first);
}

std::uint32_t count_links(const std::uint8_t* input, const std::uint32_t* records,
                          std::uint32_t n_records, std::uint32_t* link_offsets, const Exec& exec) {
  if (n_records == 0) return 0;
  const cudaStream_t st = as_stream(exec);
  count_links_kernel<<<blocks(std::uint64_t{n_records} + 1), kBlock, 0, st>>>(
      input, records, n_records, link_offsets);
  check(cudaGetLastError(), "count_links");
  thrust::exclusive_scan(on_queue(exec), link_offsets, link_offsets + n_records + 1, link_offsets);
  std::uint32_t total = 0;
  check(
      cudaMemcpyAsync(&total, link_offsets + n_records, sizeof(total), cudaMemcpyDeviceToHost, st),
      "read the link count");
  check(cudaStreamSynchronize(st), "count links");
  return total;
}

void write_links(const std::uint8_t* input, const std::uint32_t* records, std::uint32_t n_records,
                 const std::uint32_t* link_offsets, const std::uint32_t* page_starts,
                 std::uint32_t pages, std::uint32_t base, std::uint32_t* starts,
                 std::uint32_t* lengths, std::uint32_t* values, const Exec& exec) {
  if (n_records == 0) return;
  write_links_kernel<<<blocks(n_records), kBlock, 0, as_stream(exec)>>>(
      input, records, n_records, link_offsets, page_starts, pages, base, starts, lengths, values);
  check(cudaGetLastError(), "write_links");
}

}  // namespace harness::thrustmr::cuda
