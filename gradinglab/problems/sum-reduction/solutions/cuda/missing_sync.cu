// Expected CPU-path status: needs_gpu (it compiles). On a GPU: wrong_answer.
// Mistake: no __syncthreads() inside the reduction loop, so threads read sdata[tid + s] before
// the other warps wrote it (a race, lecture 3.2 step 2); also forgets to clear `out`.
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void block_sum(const float* x, float* out, int n) {
    __shared__ float sdata[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * BLOCK + tid;
    sdata[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
    }
    if (tid == 0) atomicAdd(out, sdata[0]);
}

extern "C" void sum_reduction(const float* x, float* out, int n) {
    block_sum<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, out, n);
}
