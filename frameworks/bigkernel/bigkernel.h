// BigKernel (thesis chapter 4): one plain kernel per app over mapped arrays
// larger than GPU memory (kernels/bigkernel.clh), run by the single- and
// double-buffer and zero-copy baselines and by the four-stage pipeline.
#pragma once

namespace harness::bigkernel {

// Registers bigkernel/single-buffer, double-buffer, zero-copy, overlap-only,
// reduced-volume and full.
void register_family();

}  // namespace harness::bigkernel
