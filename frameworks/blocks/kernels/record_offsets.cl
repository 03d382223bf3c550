/* Record offsets of fixed-size records, written on the device
 * (frameworks/blocks/record_offsets.h): record i of `count` starts at byte
 * first + i * stride, and entry `count` is the end. */
#include "harness/dialect/dialect.h"

KERNEL record_offsets_strided(u32 first, u32 stride, u32 count, GLOBAL u32* offsets) {
  const u32 i = GLOBAL_ID;
  if (i <= count) offsets[i] = first + i * stride;
}
