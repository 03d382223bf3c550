/* Line records found on the device (line_split.h): a line starts at byte 0 and
 * after every '\n' (the last line may lack one; nothing starts at the end).
 * Work-item s owns bytes [s * segment, (s + 1) * segment): line_split_count
 * counts the lines starting there, the host scans the counts (scan.cl), and
 * line_split_write writes their starts (u32, or u64 with `wide`) from the
 * scanned position on; the last work-item also writes the end (`size`)
 * after the last start. With skip_empty, a line that is empty
 * ("\n", "\r\n", or a last "\r") makes no record. */
#include "harness/dialect/dialect.h"

DEVICE_FN u32 line_split_record_at(GLOBAL const uchar* in, u32 size, u32 i, u32 skip_empty) {
  if (i != 0u && in[i - 1u] != (uchar)'\n') return 0u;
  if (!skip_empty) return 1u;
  uchar c = in[i];
  u32 crlf = c == (uchar)'\r' && (i + 1u == size || in[i + 1u] == (uchar)'\n');
  return !(c == (uchar)'\n' || crlf);
}

/* The end of segment s's bytes. */
DEVICE_FN u32 line_split_segment_end(u32 size, u32 segment, u32 s) {
  u32 begin = s * segment;
  return size - begin > segment ? begin + segment : size; /* no wrap near 4 GiB */
}

KERNEL line_split_count(GLOBAL const uchar* in, u32 size, u32 segment, u32 segments,
                        u32 skip_empty, GLOBAL u32* counts) {
  u32 s = GLOBAL_ID;
  if (s >= segments) return;
  u32 end = line_split_segment_end(size, segment, s);
  u32 n = 0;
  for (u32 i = s * segment; i < end; ++i) n += line_split_record_at(in, size, i, skip_empty);
  counts[s] = n;
}

/* Record `at`'s start `i`: a u32 or, with wide, a u64 (the hash table's
 * index). */
DEVICE_FN void line_split_put(GLOBAL uchar* starts, u32 wide, u32 at, u32 i) {
  if (wide)
    ((GLOBAL u64*)starts)[at] = i;
  else
    ((GLOBAL u32*)starts)[at] = i;
}

KERNEL line_split_write(GLOBAL const uchar* in, u32 size, u32 segment, u32 segments,
                        u32 skip_empty, GLOBAL const u32* positions, u32 lines, u32 wide,
                        GLOBAL uchar* starts) {
  u32 s = GLOBAL_ID;
  if (s >= segments) return;
  u32 end = line_split_segment_end(size, segment, s);
  u32 at = positions[s];
  for (u32 i = s * segment; i < end; ++i)
    if (line_split_record_at(in, size, i, skip_empty)) line_split_put(starts, wide, at++, i);
  if (s == segments - 1u) line_split_put(starts, wide, lines, size);
}
