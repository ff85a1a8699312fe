// Expected CPU-path status: needs_gpu (compiles; on a GPU: accepted).
// Tiled 2-D convolution (lectures 3.6-3.10): the filter lives in constant memory; each 16x16
// block loads its (16 + 2r)^2 input tile with halo into shared memory (ghost cells as 0),
// synchronises, and every thread computes one output element from shared memory.
#include <cuda_runtime.h>

#define TILE 16
#define MAX_RADIUS 4
#define MAX_K (2 * MAX_RADIUS + 1)

__constant__ float Mc[MAX_K * MAX_K];

__global__ void conv2d_kernel(const float* x, float* out, int h, int w, int r) {
    extern __shared__ float tile[];
    int span = TILE + 2 * r;
    int k = 2 * r + 1;
    int row0 = blockIdx.y * TILE - r;
    int col0 = blockIdx.x * TILE - r;
    for (int idx = threadIdx.y * TILE + threadIdx.x; idx < span * span; idx += TILE * TILE) {
        int ir = row0 + idx / span;
        int ic = col0 + idx % span;
        tile[idx] = (ir >= 0 && ir < h && ic >= 0 && ic < w) ? x[(long long)ir * w + ic] : 0.0f;
    }
    __syncthreads();
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    if (row < h && col < w) {
        float acc = 0.0f;
        for (int a = 0; a < k; ++a)
            for (int b = 0; b < k; ++b)
                acc += Mc[a * k + b] * tile[(threadIdx.y + a) * span + threadIdx.x + b];
        out[(long long)row * w + col] = acc;
    }
}

extern "C" void conv2d(const float* x, const float* weight, float* out, int height, int width, int radius) {
    int k = 2 * radius + 1;
    cudaMemcpyToSymbolAsync(Mc, weight, k * k * sizeof(float), 0, cudaMemcpyDeviceToDevice, 0);
    dim3 block(TILE, TILE);
    dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
    size_t shmem = (TILE + 2 * radius) * (TILE + 2 * radius) * sizeof(float);
    conv2d_kernel<<<grid, block, shmem>>>(x, out, height, width, radius);
}
