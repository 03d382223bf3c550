/* Kernels of the backend tests (test_backend_features.cpp), in the portable
 * dialect: the OpenCL tests build this file at run time, the CUDA tests compile
 * it with nvcc (test_backend_kernels.cu). */

/* data[i] += value for i < n (mapped host memory: read and written in place). */
KERNEL add_u32(GLOBAL u32* data, u32 n, u32 value) {
  const u32 i = GLOBAL_ID;
  if (i < n) data[i] += value;
}

/* out[i] = in[i] + value for i < n: reads `in` only (mapped host memory). */
KERNEL add_to_u32(GLOBAL const u32* in, GLOBAL u32* out, u32 n, u32 value) {
  const u32 i = GLOBAL_ID;
  if (i < n) out[i] = in[i] + value;
}

/* out[i] = spin_value(i, spins, seed) (test_backend_events.cpp): slow on
 * purpose, the producer that a queue waiting for its event must not overtake. */
KERNEL spin_write_u32(GLOBAL u32* out, u32 n, u32 spins, u32 seed) {
  const u32 i = GLOBAL_ID;
  if (i >= n) return;
  u32 x = seed ^ (i * 2654435761u);
  for (u32 k = 0u; k < spins; ++k) x = x * 1664525u + 1013904223u;
  out[i] = x;
}

/* Per work-group sum of `in` through dynamic local memory of LOCAL_SIZE u32
 * (LOCAL_SIZE a power of two). */
KERNEL group_sum_u32(GLOBAL const u32* in, GLOBAL u32* out, u32 n,
                     LOCAL_DYNAMIC_PARAM(u32, scratch)) {
  LOCAL_DYNAMIC(u32, scratch);
  const u32 i = GLOBAL_ID;
  scratch[LOCAL_ID] = i < n ? in[i] : 0u;
  BARRIER_LOCAL();
  for (u32 stride = LOCAL_SIZE / 2u; stride > 0u; stride /= 2u) {
    if (LOCAL_ID < stride) scratch[LOCAL_ID] += scratch[LOCAL_ID + stride];
    BARRIER_LOCAL();
  }
  if (LOCAL_ID == 0u) out[GROUP_ID] = scratch[0];
}

/* The same with the dynamic argument first and another element type: per
 * work-group maximum of u64 values. */
KERNEL group_max_u64(LOCAL_DYNAMIC_PARAM(u64, scratch), GLOBAL const u64* in, GLOBAL u64* out,
                     u32 n) {
  LOCAL_DYNAMIC(u64, scratch);
  const u32 i = GLOBAL_ID;
  scratch[LOCAL_ID] = i < n ? in[i] : (u64)0;
  BARRIER_LOCAL();
  for (u32 stride = LOCAL_SIZE / 2u; stride > 0u; stride /= 2u) {
    if (LOCAL_ID < stride && scratch[LOCAL_ID + stride] > scratch[LOCAL_ID])
      scratch[LOCAL_ID] = scratch[LOCAL_ID + stride];
    BARRIER_LOCAL();
  }
  if (LOCAL_ID == 0u) out[GROUP_ID] = scratch[0];
}

/* Touches all `words` u32 of the dynamic local memory: word j holds j * 3 + GROUP_ID;
 * out[GROUP_ID] is the sum (mod 2^32) of every word, read back by each work-item
 * from words other work-items wrote. */
KERNEL fill_local_u32(GLOBAL u32* out, u32 words, LOCAL_DYNAMIC_PARAM(u32, scratch)) {
  LOCAL_DYNAMIC(u32, scratch);
  for (u32 j = LOCAL_ID; j < words; j += LOCAL_SIZE) scratch[j] = j * 3u + GROUP_ID;
  BARRIER_LOCAL();
  u32 sum = 0u;
  for (u32 j = (LOCAL_ID + 1u) % LOCAL_SIZE; j < words; j += LOCAL_SIZE) sum += scratch[j];
  ATOMIC_ADD_U32(&out[GROUP_ID], sum);
}

/* out[y * width + x] = texel (x, y) of the image, read through the texture path
 * (OpenCL devices without images leave it out; the test skips them). */
#if defined(IMAGE2D_F32)
KERNEL copy_image_f32(IMAGE2D_F32 image, GLOBAL float* out, u32 width, u32 height) {
  const u32 i = GLOBAL_ID;
  if (i >= width * height) return;
  out[i] = READ_IMAGE_F32(image, i % width, i / width);
}
#endif
