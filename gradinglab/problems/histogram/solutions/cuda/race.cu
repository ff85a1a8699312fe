// Expected CPU-path status: needs_gpu (it compiles). On a GPU: wrong_answer.
// Mistake: `local[data[i]]++` without atomics: threads of a block that hit the same bin
// overwrite each other's increments (lecture 5.11's data race), so counts come out too low.
#include <cuda_runtime.h>

#define THREADS 256
#define MAX_BLOCKS 1024

__global__ void histogram_kernel(const int* data, int* hist, int n, int num_bins) {
    extern __shared__ int local[];
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        local[data[i]]++;
    }
    __syncthreads();
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) {
        if (local[b] != 0) atomicAdd(&hist[b], local[b]);
    }
}

extern "C" void histogram(const int* data, int* hist, int n, int num_bins) {
    cudaMemsetAsync(hist, 0, num_bins * sizeof(int), 0);  // the harness fills hist with -1
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
    histogram_kernel<<<blocks, THREADS, num_bins * sizeof(int)>>>(data, hist, n, num_bins);
}
