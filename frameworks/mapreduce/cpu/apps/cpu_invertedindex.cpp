// The CPU MapReduce runtime specialized for invertedindex.
#define CPU_APP invertedindex
#include "frameworks/mapreduce/cpu/cpu_app.inc"
