// Starter for matrix transpose (CUDA). Keep the extern "C" entry point.
#include <cuda_runtime.h>

#define TILE 32

__global__ void transpose_kernel(const float* x, float* out, int rows, int cols) {
    __shared__ float tile[TILE][TILE + 1];  // why + 1? see lecture 3.4
    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    // TODO: read x[r][c] into the tile (coalesced: threadIdx.x walks along a row of x),
    //       __syncthreads(), then write the tile transposed so that threadIdx.x again walks
    //       along a row of out (out is cols x rows). Guard every access with bounds checks.
}

extern "C" void transpose(const float* x, float* out, int rows, int cols) {
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<grid, block>>>(x, out, rows, cols);
}
