// The CPU MapReduce runtime specialized for stringmatch.
#define CPU_APP stringmatch
#include "frameworks/cpu/cpu_app.inc"
