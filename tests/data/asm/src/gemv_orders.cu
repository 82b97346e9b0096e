// The validation GEMV kernel in both orders, instantiated alone, to produce real compiler output for
// `gpumemsim order-from-asm` tests (see tests/data/asm/README.md for the commands).
#include "../../../../validate/kernels/gemv_kernel.cuh"

template __global__ void gmsv::gemv_splitk_kernel<256, 64, 128, gmsv::kLLCC>(const __half*, const __half*, float*, int, int);
template __global__ void gmsv::gemv_splitk_kernel<256, 64, 128, gmsv::kLCLC>(const __half*, const __half*, float*, int, int);
