// The CPU MapReduce runtime specialized for pvc_dedup.
#define CPU_APP pvc_dedup
#include "frameworks/cpu/cpu_app.inc"
