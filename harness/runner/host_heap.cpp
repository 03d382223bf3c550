#include "harness/runner/host_heap.h"

#include <cstdlib>  // defines __GLIBC__ on glibc (through features.h)

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace harness {

void settle_host_heap() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace harness
