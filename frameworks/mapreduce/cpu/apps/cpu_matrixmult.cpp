// The CPU MapReduce runtime specialized for matrixmult.
#define CPU_APP matrixmult
#include "frameworks/mapreduce/cpu/cpu_app.inc"
