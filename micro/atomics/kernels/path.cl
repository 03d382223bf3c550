/* The path effect (paper figures 1, 3 and 4): does the mere presence of an
 * atomic slow a kernel's other memory accesses down? On the Radeon HD 5870 a
 * kernel that contains an atomic is compiled to send every global access
 * through the slow CompletePath.
 *
 * Copy kernels (figure 1): out[i] = in[i] over n words with a grid-stride loop,
 * with no atomic, with an atomic whose condition is never true at run time (the
 * compiler cannot know: `never` is a kernel argument no input word equals), with
 * an atomic executed for every element, and with one atomic per wavefront per
 * step (its first lane adds the number of active lanes).
 *
 * Figure 3's kernel: an atomic add to one global word, then that word written
 * to an array element, in three versions: atomic only, memory only, both. The
 * increment of work-item g is 1 + (g mod 1024) (nonzero, and small enough that
 * the sum stays below 2^32 for up to 4M work-items). */
#include "harness/dialect/dialect.h"

/* in[i] = i * 2654435761 mod 2^32: an odd multiplier, so a bijection; the value of
 * index n is in no word of in[0, n), and the host passes it as `never`. */
KERNEL atomics_fill_hash(GLOBAL u32* data, u32 n) {
  for (u32 i = GLOBAL_ID; i < n; i += GLOBAL_SIZE) data[i] = i * 2654435761u;
}

KERNEL atomics_copy_plain(GLOBAL const u32* in, GLOBAL u32* out, u32 n) {
  for (u32 i = GLOBAL_ID; i < n; i += GLOBAL_SIZE) out[i] = in[i];
}

KERNEL atomics_copy_atomic_never(GLOBAL const u32* in, GLOBAL u32* out, u32 n, u32 never,
                                 GLOBAL u32* counter) {
  for (u32 i = GLOBAL_ID; i < n; i += GLOBAL_SIZE) {
    const u32 v = in[i];
    out[i] = v;
    if (v == never) ATOMIC_ADD_U32(counter, 1u);
  }
}

KERNEL atomics_copy_atomic_thread(GLOBAL const u32* in, GLOBAL u32* out, u32 n,
                                  GLOBAL u32* counter) {
  for (u32 i = GLOBAL_ID; i < n; i += GLOBAL_SIZE) {
    const u32 v = in[i];
    out[i] = v;
    ATOMIC_ADD_U32(counter, v);
  }
}

/* The group size is a multiple of `wave`; lane 0 of each wavefront adds the
 * number of its lanes that copied an element in this step. */
KERNEL atomics_copy_atomic_wave(GLOBAL const u32* in, GLOBAL u32* out, u32 n, u32 wave,
                                GLOBAL u32* counter) {
  for (u32 i = GLOBAL_ID; i < n; i += GLOBAL_SIZE) {
    out[i] = in[i];
    if (LOCAL_ID % wave == 0u) ATOMIC_ADD_U32(counter, (n - i < wave) ? n - i : wave);
  }
}

/* Figure 3, the three versions. */
KERNEL atomics_fig3_atomic(GLOBAL u32* out, GLOBAL u32* out_array) {
  (void)out_array;
  ATOMIC_ADD_U32(out, 1u + (GLOBAL_ID & 1023u));
}

KERNEL atomics_fig3_memory(GLOBAL u32* out, GLOBAL u32* out_array) {
  out_array[GLOBAL_ID] = *out;
}

KERNEL atomics_fig3_both(GLOBAL u32* out, GLOBAL u32* out_array) {
  ATOMIC_ADD_U32(out, 1u + (GLOBAL_ID & 1023u));
  out_array[GLOBAL_ID] = *out;
}
