/* Line records found on the device (line_split.h): a line starts at byte 0 and
 * after every '\n' (the last line may lack one; nothing starts at the end).
 * Work-item s owns bytes [s * segment, (s + 1) * segment): line_split_count
 * counts the lines starting there, the host scans the counts (scan.cl), and
 * line_split_write writes their starts from the scanned position on; the last
 * work-item also writes the end (`size`) after the last start. */
#include "harness/dialect/dialect.h"

DEVICE_FN u32 line_split_starts_at(GLOBAL const uchar* in, u32 i) {
  return i == 0u || in[i - 1u] == (uchar)'\n';
}

KERNEL line_split_count(GLOBAL const uchar* in, u32 size, u32 segment, u32 segments,
                        GLOBAL u32* counts) {
  u32 s = GLOBAL_ID;
  if (s >= segments) return;
  u32 begin = s * segment;
  u32 end = size - begin > segment ? begin + segment : size; /* no wrap near 4 GiB */
  u32 n = 0;
  for (u32 i = begin; i < end; ++i) n += line_split_starts_at(in, i);
  counts[s] = n;
}

KERNEL line_split_write(GLOBAL const uchar* in, u32 size, u32 segment, u32 segments,
                        GLOBAL const u32* positions, u32 lines, GLOBAL u32* starts) {
  u32 s = GLOBAL_ID;
  if (s >= segments) return;
  u32 begin = s * segment;
  u32 end = size - begin > segment ? begin + segment : size; /* no wrap near 4 GiB */
  u32 at = positions[s];
  for (u32 i = begin; i < end; ++i) {
    if (line_split_starts_at(in, i)) starts[at++] = i;
  }
  if (s == segments - 1u) starts[lines] = size;
}
