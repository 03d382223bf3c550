// BigKernel (thesis chapter 4): one plain kernel per app over mapped arrays
// larger than GPU memory (kernels/bigkernel.clh), run by the single- and
// double-buffer baselines so far (README.md says what is next).
#pragma once

namespace harness::bigkernel {

// Registers bigkernel/single-buffer and bigkernel/double-buffer.
void register_family();

}  // namespace harness::bigkernel
