// Events between queues, the host's waits on them, and asynchronous copies of
// host memory handed off by host threads (the CPU assembly stage of a CPU-GPU
// pipeline). Every kernel backend with a device (PoCL counts); the cpu
// backend's queue on its own.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "harness/backend/tests/device_fixture.h"
#include "harness/backend/tests/test_program.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

using backend::Buffer;
using backend::Event;
using backend::HostBuffer;
using backend::HostMemory;
using backend::LaunchShape;

// spin_write_u32's loop, x -> x * 1664525 + 1013904223 done `spins` times,
// is x -> mul * x + add: computed once, so the host checks each value fast.
struct SpinMap {
  std::uint32_t mul = 1, add = 0;
  explicit SpinMap(std::uint32_t spins) {
    for (std::uint32_t k = 0; k < spins; ++k) {
      mul *= 1664525u;
      add = add * 1664525u + 1013904223u;
    }
  }
  std::uint32_t operator()(std::uint32_t i, std::uint32_t seed) const {
    return mul * (seed ^ (i * 2654435761u)) + add;
  }
};

// Enough work for the producer that a consumer that did not wait would read
// its output before it is written: about a millisecond on a GPU, tens on PoCL.
struct SpinWork {
  std::uint32_t n = 0, spins = 0;
};
SpinWork spin_work(const backend::DeviceInfo& info) {
  if (info.type == "gpu") return {1u << 16, 1u << 17};
  return {1u << 12, 1u << 14};
}

// The first index where `got` differs from the producer's values, or n.
std::uint32_t first_wrong(const std::uint32_t* got, const SpinWork& work, std::uint32_t seed) {
  const SpinMap map(work.spins);
  for (std::uint32_t i = 0; i < work.n; ++i) {
    if (got[i] != map(i, seed)) return i;
  }
  return work.n;
}

using QueueEvents = DeviceTest;

// Queue A's kernel writes x; queue B waits for A's event (no host join), then
// copies x and reads it back. Every round writes new values, so a copy that
// ran before the kernel finished would see the last round's.
TEST_P(QueueEvents, ConsumerQueueWaitsForProducerEvent) {
  backend::Kernel spin = backend_test_program(*device_)->kernel("spin_write_u32");
  const SpinWork work = spin_work(device_->info());
  const std::size_t bytes = std::size_t{work.n} * sizeof(std::uint32_t);
  auto producer = device_->create_queue();
  auto consumer = device_->create_queue();
  Buffer x = device_->allocate(bytes);
  Buffer y = device_->allocate(bytes);
  HostBuffer got = device_->allocate_host(bytes, HostMemory::pinned);
  producer->fill_zero(x, 0, bytes);
  producer->finish();
  for (std::uint32_t round = 0; round < 6; ++round) {
    const std::uint32_t seed = 0x9e3779b9u * (round + 1);
    producer->launch(spin, LaunchShape::cover(work.n, 64), x, work.n, work.spins, seed);
    const Event produced = producer->record();
    ASSERT_TRUE(produced.valid());
    consumer->wait_for(produced);
    consumer->copy(y, 0, x, 0, bytes);
    const Event copied = consumer->read_async(got, 0, y, 0, bytes);
    copied.wait();
    EXPECT_TRUE(copied.done());
    EXPECT_TRUE(produced.done()) << "the consumer's commands finished before the producer's";
    const std::uint32_t wrong = first_wrong(static_cast<std::uint32_t*>(got.data()), work, seed);
    ASSERT_EQ(wrong, work.n) << "round " << round
                             << ": the waiting queue read x before the producer's kernel wrote "
                                "it (first wrong element "
                             << wrong << ")";
  }
}

// The host side: done() without blocking, wait() from another thread, an
// empty event, and copies of an event sharing one backend event.
TEST_P(QueueEvents, HostWaitsAndQueries) {
  const Event empty;
  EXPECT_FALSE(empty.valid());
  EXPECT_TRUE(empty.done());
  empty.wait();
  EXPECT_EQ(empty.native_handle(), nullptr);
  device_->queue().wait_for(empty);  // asks for nothing

  backend::Kernel spin = backend_test_program(*device_)->kernel("spin_write_u32");
  const SpinWork work = spin_work(device_->info());
  const std::size_t bytes = std::size_t{work.n} * sizeof(std::uint32_t);
  auto q = device_->create_queue();
  Buffer x = device_->allocate(bytes);
  q->launch(spin, LaunchShape::cover(work.n, 64), x, work.n, work.spins, 5u);
  const Event e = q->record();
  const Event copy = e;
  EXPECT_NE(e.native_handle(), nullptr);
  EXPECT_EQ(copy.native_handle(), e.native_handle());
  (void)e.done();  // may be either; must not block or throw
  bool waited = false;
  std::thread waiter([&] {
    copy.wait();
    waited = true;
  });
  waiter.join();
  EXPECT_TRUE(waited);
  EXPECT_TRUE(e.done());
  // The kernel is done: a read on a queue that never waited sees its values.
  std::vector<std::uint32_t> got(work.n);
  device_->queue().read(got.data(), x, 0, bytes);
  device_->queue().finish();
  EXPECT_EQ(first_wrong(got.data(), work, 5u), work.n);
  // An event recorded on an idle queue is done once waited for.
  const Event idle = q->record();
  idle.wait();
  EXPECT_TRUE(idle.done());
}

// The CPU assembly stage: two host threads (neither created the queue) each
// fill their own pinned buffer, hand it to the queue with write_async, and
// refill it once the copy's event is done; rounds alternate between them.
// A refill before the copy had read the buffer would corrupt the device copy.
TEST_P(QueueEvents, HostThreadsHandOffPinnedBuffers) {
  constexpr std::uint32_t kRounds = 64;
  constexpr std::size_t kWords = 16 * 1024;  // 64 KiB a round
  constexpr std::size_t kChunk = kWords * sizeof(std::uint32_t);
  auto word = [](std::uint32_t round, std::size_t i) {
    return (round * 0x01000193u) ^ static_cast<std::uint32_t>(i * 2654435761u) ^ (round << 24);
  };
  Buffer d = device_->allocate(kChunk * kRounds);
  auto q = device_->create_queue();
  q->fill_zero(d, 0, d.size());
  q->finish();
  HostBuffer pinned[2] = {device_->allocate_host(kChunk, HostMemory::pinned),
                          device_->allocate_host(kChunk, HostMemory::pinned)};
  std::mutex mutex;
  std::vector<Event> last;  // each thread's last event, waited for here
  std::string error;
  auto assemble = [&](std::uint32_t t) {
    try {
      Event in_flight;
      for (std::uint32_t round = t; round < kRounds; round += 2) {
        in_flight.wait();  // the last copy out of pinned[t] has finished: refill it
        auto* words = static_cast<std::uint32_t*>(pinned[t].data());
        for (std::size_t i = 0; i < kWords; ++i) words[i] = word(round, i);
        in_flight = q->write_async(d, round * kChunk, pinned[t], 0, kChunk);
      }
      std::lock_guard<std::mutex> lock(mutex);
      last.push_back(in_flight);
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(mutex);
      error = e.what();
    }
  };
  std::thread first(assemble, 0u);
  std::thread second(assemble, 1u);
  first.join();
  second.join();
  ASSERT_EQ(error, "");
  ASSERT_EQ(last.size(), 2u);
  for (const Event& e : last) e.wait();  // events made on other threads
  std::vector<std::uint32_t> back(kWords * kRounds);
  q->read(back.data(), d, 0, d.size());
  q->finish();
  for (std::uint32_t round = 0; round < kRounds; ++round) {
    for (std::size_t i = 0; i < kWords; ++i) {
      ASSERT_EQ(back[round * kWords + i], word(round, i)) << "round " << round << ", word " << i;
    }
  }
}

// Offsets on both sides, a pageable source, and ranges past the host memory.
TEST_P(QueueEvents, AsyncCopiesAtOffsets) {
  auto& q = device_->queue();
  HostBuffer src = device_->allocate_host(4096, HostMemory::pinned);
  HostBuffer pageable = device_->allocate_host(4096, HostMemory::pageable);
  HostBuffer dst = device_->allocate_host(4096, HostMemory::pinned);
  auto* s = static_cast<unsigned char*>(src.data());
  for (std::size_t i = 0; i < 4096; ++i) s[i] = static_cast<unsigned char>(i * 7 + 3);
  std::memset(pageable.data(), 0x5c, 4096);
  std::memset(dst.data(), 0, 4096);
  Buffer d = device_->allocate(8192);
  q.fill_zero(d, 0, d.size());
  q.write_async(d, 100, src, 200, 1000);
  q.write_async(d, 5000, pageable, 0, 64);
  q.read_async(dst, 10, d, 100, 1000);
  const Event tail = q.read_async(dst, 2000, d, 5000, 64);
  tail.wait();
  auto* got = static_cast<unsigned char*>(dst.data());
  EXPECT_EQ(got[9], 0);
  for (std::size_t i = 0; i < 1000; ++i) ASSERT_EQ(got[10 + i], s[200 + i]) << i;
  EXPECT_EQ(got[1010], 0);
  for (std::size_t i = 0; i < 64; ++i) ASSERT_EQ(got[2000 + i], 0x5c) << i;
  EXPECT_TRUE(q.write_async(d, 0, src, 0, 0).valid());  // nothing to copy: still an event
  EXPECT_THROW(q.write_async(d, 0, src, 4000, 100), RunError);
  EXPECT_THROW(q.read_async(dst, 4090, d, 0, 7), RunError);
  EXPECT_THROW(q.write_async(d, 8190, src, 0, 4), RunError);
  q.finish();
}

// OpenCL: a queue cannot wait for an event of another context (another
// opened device); it says so and points at the host wait.
TEST_P(QueueEvents, EventOfAnotherContextIsRefused) {
  if (GetParam() != backend::Kind::opencl) GTEST_SKIP() << "CUDA queues wait for any CUDA event";
  std::unique_ptr<backend::Device> other = backend::open_device(GetParam(), device_->info().index);
  const Event e = other->queue().record();
  try {
    device_->queue().wait_for(e);
    FAIL() << "expected RunError";
  } catch (const RunError& err) {
    EXPECT_NE(std::string(err.what()).find("another OpenCL context"), std::string::npos)
        << err.what();
  }
  e.wait();
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(QueueEvents);
INSTANTIATE_TEST_SUITE_P(Backends, QueueEvents, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

// The cpu queue runs each command in its call: its events are empty.
TEST(CpuQueueEvents, CommandsAreDoneOnReturn) {
  auto cpu = backend::open_device(backend::Kind::cpu, 0);
  HostBuffer h = cpu->allocate_host(64, HostMemory::pinned);
  std::memset(h.data(), 3, 64);
  Buffer d = cpu->allocate(64);
  const Event e = cpu->queue().write_async(d, 0, h, 0, 64);
  EXPECT_FALSE(e.valid());
  EXPECT_TRUE(e.done());
  EXPECT_EQ(static_cast<unsigned char*>(d.handle())[63], 3);
  EXPECT_FALSE(cpu->queue().record().valid());
  cpu->queue().wait_for(e);
  EXPECT_THROW(cpu->queue().write_async(d, 0, h, 1, 64), RunError);
}

}  // namespace
}  // namespace harness::testing
