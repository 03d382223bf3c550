/* Segmented float32 sum: out[s] = sum of in[s*segment .. (s+1)*segment).
 * A work-group takes one segment at a time: each work-item adds a strided
 * slice (consecutive work-items read consecutive floats: coalesced) into four
 * independent accumulators, so four loads per work-item are in flight rather
 * than one dependent chain, then a tree in local memory combines the
 * work-items' partial sums. The loop over
 * segments has the same bounds for every work-item of a group, so its
 * barriers are legal (dialect rules). LOCAL_SIZE: a power of two, at most
 * SEGMENT_SUM_MAX_GROUP. */
#include "harness/dialect/dialect.h"

#define SEGMENT_SUM_MAX_GROUP 1024

KERNEL segment_sum(GLOBAL const float* in, u32 segment, u32 segments, GLOBAL float* out) {
  LOCAL_ARRAY(float, partial, SEGMENT_SUM_MAX_GROUP);
  for (u32 s = GROUP_ID; s < segments; s += NUM_GROUPS) {
    GLOBAL const float* seg = in + (u64)s * segment;
    const u32 step = LOCAL_SIZE;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    u32 i = LOCAL_ID;
    for (; i + 3 * step < segment; i += 4 * step) {
      a0 += seg[i];
      a1 += seg[i + step];
      a2 += seg[i + 2 * step];
      a3 += seg[i + 3 * step];
    }
    for (; i < segment; i += step) a0 += seg[i];
    partial[LOCAL_ID] = (a0 + a1) + (a2 + a3);
    BARRIER_LOCAL();
    for (u32 stride = LOCAL_SIZE / 2; stride > 0; stride >>= 1) {
      if (LOCAL_ID < stride) partial[LOCAL_ID] += partial[LOCAL_ID + stride];
      BARRIER_LOCAL();
    }
    if (LOCAL_ID == 0) out[s] = partial[0];
    BARRIER_LOCAL();
  }
}
