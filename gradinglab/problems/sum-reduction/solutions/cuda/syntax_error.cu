// Expected CPU-path status: compile_error.
// Mistake: missing semicolon after the shared-memory store (nvcc reports the line).
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void block_sum(const float* x, float* out, int n) {
    __shared__ float sdata[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * BLOCK + tid;
    sdata[tid] = (i < n) ? x[i] : 0.0f
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, sdata[0]);
}

extern "C" void sum_reduction(const float* x, float* out, int n) {
    cudaMemsetAsync(out, 0, sizeof(float), 0);
    block_sum<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, out, n);
}
