// BigKernel's persistent kernel (thesis figures 4.1, 4.2 and 4.9), CUDA only:
// one launch a pass whose blocks each hold address-generation warps and
// computation warps, synchronized among themselves by named barriers and with
// the host by flags, while host threads assemble the values and send them.
// This header is the host's view of the device code (persistent_cuda.cu and
// one persistent_<app>.cu a supported app, or one for several:
// persistent_chunk_table_apps.cu); without CUDA the functions throw.
//
// One block's life (kernels/persistent_pipeline.cuh): block b runs rounds
// b, b + P, b + 2P, ... (P = `blocks`, every one resident: the host sizes P
// from the occupancy); round g is records [g x R, g x R + R) of the pass.
// For its k-th round, slot s = k mod kPersistentSlots:
//  - the address warps wait until the host has read what they sent for
//    round k - kPersistentSlots (`addr_free`), run the ADDRGEN build of the
//    app's kernel over the round (a virtual work-group of 256 work-items a
//    step), find the round's pattern (kernels/pattern.clh) and write the
//    descriptor (variable-length records: a record pattern, and the counts),
//    or the raw list and counts, into slot s of the mapped host buffers, then
//    fence and raise `addr_ready`;
//  - a host thread sees it, waits until the block computed round k -
//    kPersistentSlots (`compute_done`: its value slot is free), gathers the
//    values into its pinned buffer, sets `addr_free`, and copies the values
//    and then the round number into the block's device slot on its own
//    stream (the copy engine keeps their order: the flag arrives last);
//  - the compute warps spin on that flag in device memory, run the COMPUTE
//    build over the slot's values, fence and raise `compute_done`.
// Mapped writes (K-means' cluster id) go straight into the app's pinned write
// buffer over the link, one i64 a record, from the compute warps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace harness::bigkernel {

constexpr std::uint32_t kPersistentSlots = 2;          // per block: value and address slots
constexpr std::uint32_t kPersistentRoleThreads = 256;  // address or compute threads a block
constexpr std::uint32_t kPersistentFlagStride = 8;     // u64 between two blocks' flags (64 B)

// One pass's launch: the geometry and where everything is. Device pointers;
// the host buffers are mapped pinned memory seen through their device
// pointers.
struct PersistentLaunch {
  std::uint32_t blocks = 0;            // P
  std::uint64_t records = 0;           // the pass's records
  std::uint32_t round_records = 0;     // R
  std::uint32_t groups_per_round = 0;  // ceil(R / kPersistentRoleThreads): virtual work-groups
  std::uint64_t rounds = 0;            // ceil(records / R)
  std::uint32_t capacity = 0;          // mapped reads a record makes at most
  std::uint32_t layout = 0;            // BK_LAYOUT_* of the values (coalesced)
  std::uint32_t patterns = 1;          // 0: always send the raw list
  std::uint32_t record_bytes = 0;
  std::uint32_t descriptor_words = 0;
  // device memory
  std::uint8_t* values = nullptr;  // [P][slots] of value_slot_bytes
  std::uint64_t value_slot_bytes = 0;
  std::uint64_t* list = nullptr;        // [P][R x capacity]: address generation's own list
  std::uint32_t* counts = nullptr;      // [P][R]
  std::uint64_t* descriptor = nullptr;  // [P][descriptor_words]
  std::uint64_t* data_ready = nullptr;  // [P][slots]: the round's number + 1, copied after it
  // [P][4] ns (the GPU's global timer, from each role's first thread): the
  // address role's time working and waiting for the host, the compute
  // role's working and waiting for its values.
  std::uint64_t* role_ns = nullptr;
  const std::uint8_t* stand_in = nullptr;  // 8 B of zeros: ADDRGEN's mapped value
  // mapped host memory
  std::uint64_t* host_list = nullptr;        // [P][slots][R x capacity]: the raw fallback
  std::uint32_t* host_counts = nullptr;      // [P][slots][R]
  std::uint64_t* host_descriptor = nullptr;  // [P][slots][descriptor_words]
  std::uint64_t* addr_ready = nullptr;       // [P x stride]: rounds whose addresses are out
  std::uint64_t* addr_free = nullptr;        // [P x stride]: rounds the host has read
  std::uint64_t* compute_done = nullptr;     // [P x stride]: rounds computed
  std::int64_t* writes = nullptr;            // one i64 a record of the pass (null: none)
  // Variable-length records (records.h): the pass's record table, record i's
  // entry at i x record_words (null and 0 for fixed-length records).
  const std::uint64_t* records_table = nullptr;
  std::uint32_t record_words = 0;
};

// A pass's shape, for an app's persistent arguments (buffers a block).
struct PersistentShape {
  std::uint32_t blocks = 0;
  std::uint64_t round_records = 0;
};

// The app's own arguments after BK_MAPPED_PARAMS (pointers on the device),
// as the app's persistent_<app>.cu reads them.
struct PersistentAppArgs {
  const void* pointers[4] = {};
  std::uint64_t values[4] = {};
};

// The apps the persistent kernel runs (each has a persistent_<app>.cu), in
// every build.
std::vector<std::string> persistent_app_names();
// Blocks of the app's persistent kernel one SM of the current device holds at
// once (the occupancy query), and the device's SMs.
std::uint32_t persistent_blocks_per_sm(const std::string& app);
std::uint32_t persistent_sm_count();
// Launches the app's persistent kernel on `stream` (a cudaStream_t).
void persistent_launch(const std::string& app, const PersistentLaunch& launch,
                       const PersistentAppArgs& args, void* stream);
// Host to device copy on `stream`, ordered after the stream's earlier copies.
void persistent_send(void* device, const void* host, std::size_t bytes, void* stream);
// The device pointer of pinned host memory (cudaHostGetDevicePointer).
void* persistent_device_pointer(void* host);
// Waits for `stream` and throws a RunError naming `what` on a CUDA error.
void persistent_finish(void* stream, const std::string& what);

}  // namespace harness::bigkernel
