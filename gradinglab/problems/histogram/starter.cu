// Starter for histogram (CUDA). Keep the extern "C" entry point; launch on the default stream.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void histogram_kernel(const int* data, int* hist, int n, int num_bins) {
    extern __shared__ int local[];  // num_bins ints: one private sub-histogram per block
    // TODO: clear `local`, __syncthreads(), count this block's elements into `local` with
    //       atomicAdd (grid-stride loop over data), __syncthreads(), then add `local` into
    //       `hist` with one atomicAdd per bin.
}

extern "C" void histogram(const int* data, int* hist, int n, int num_bins) {
    // TODO: hist arrives filled with -1: clear it first (cudaMemsetAsync).
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > 1024) blocks = 1024;
    histogram_kernel<<<blocks, THREADS, num_bins * sizeof(int)>>>(data, hist, n, num_bins);
}
