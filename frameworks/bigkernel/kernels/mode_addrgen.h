/* Builds the app kernels that follow in BigKernel's addrgen mode (CUDA programs:
 * OpenCL passes -DBK_MODE_ADDRGEN=1). */
#define BK_MODE_ADDRGEN 1
