// The CPU MapReduce runtime specialized for wordcount.
#define CPU_APP wordcount
#include "frameworks/cpu/cpu_app.inc"
