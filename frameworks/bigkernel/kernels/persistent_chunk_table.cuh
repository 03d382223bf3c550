/* The persistent kernel's round work for the apps that add their records
 * into a per-chunk hash table (kernels/chunk_table.clh: Netflix's user
 * pairs, DNA Assembly's parts), CUDA only. Each block's compute warps keep
 * one table: zeroed when a round's values arrive (round_begin), filled by the
 * round's steps, then compacted (bk_table_compact over the table's slots as
 * virtual work-items) straight into the round's region of the app's pinned
 * rows, its row count after them (round_end): what the launch-based pipeline
 * does with a launch, a compaction launch and two copies a chunk
 * (apps/chunk_table_kernel.h). A persistent_<app>.cu includes this after
 * kernels/persistent_pipeline.cuh.
 *
 * App arguments: pointers[0] the blocks' tables (block b's at b x (2 x
 * values[0] + 2) u64: its slots, then its u32 row counter), [1] the rows
 * region (round g's at g x values[1] rows of 16 B), [2] the row counts (a
 * u32 a round), [3] the table-full flag; values[0] a table's slots (mask +
 * 2), values[1] the rows a round's region holds. */
#ifndef BK_PERSISTENT_CHUNK_TABLE_CUH
#define BK_PERSISTENT_CHUNK_TABLE_CUH

struct BkPChunkTableRounds {
  /* Block b's table (its row counter after the slots). */
  static __device__ u64* table(const PersistentAppArgs& a, u32 b) {
    return (u64*)a.pointers[0] + (u64)b * (2 * a.values[0] + 2);
  }
  static __device__ u32 mask(const PersistentAppArgs& a) { return (u32)(a.values[0] - 2); }
  static __device__ void round_begin(const PersistentAppArgs& a, u32 b, u64, u32, u32 tid) {
    u64* t = table(a, b);
    for (u64 i = tid; i < 2 * a.values[0] + 2; i += BK_P_ROLE_THREADS) t[i] = 0;
  }
  static __device__ void round_end(const PersistentAppArgs& a, u32 b, u64 round, u32, u32 tid) {
    u64* t = table(a, b);
    const u32 slots = (u32)a.values[0];
    u32* count = (u32*)(t + 2 * (u64)slots);
    u64* rows = (u64*)a.pointers[1] + round * a.values[1] * 2;
    bk_p_steps(1, 0, slots, [&] { bk_p_compute::bk_table_compact(t, slots, rows, count); });
    if (tid == 0) ((u32*)a.pointers[2])[round] = *(volatile u32*)count;
  }
};

#endif /* BK_PERSISTENT_CHUNK_TABLE_CUH */
