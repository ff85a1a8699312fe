// Expected CPU-path status: compile_error.
// Mistake: uses `blockDim` as if it were a number (`blockDim / 2`) instead of `blockDim.x`;
// nvcc reports "no operator / matches these operands" on that line.
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void block_sum(const float* x, float* out, int n) {
    __shared__ float sdata[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * BLOCK + tid;
    sdata[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, sdata[0]);
}

extern "C" void sum_reduction(const float* x, float* out, int n) {
    cudaMemsetAsync(out, 0, sizeof(float), 0);
    block_sum<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, out, n);
}
