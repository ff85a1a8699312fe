// Expected CPU-path status: needs_gpu (compiles; on a GPU: accepted).
// Tiled transpose through shared memory (lecture 2.28): a 32x32 block reads a tile of x with
// threadIdx.x along a row (coalesced), then writes the transposed tile with threadIdx.x along a
// row of out (coalesced again). The +1 padding column removes bank conflicts (lecture 3.4).
#include <cuda_runtime.h>

#define TILE 32

__global__ void transpose_kernel(const float* x, float* out, int rows, int cols) {
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols) tile[threadIdx.y][threadIdx.x] = x[(long long)r * cols + c];
    __syncthreads();
    int out_r = blockIdx.x * TILE + threadIdx.y;  // a column index of x = a row of out
    int out_c = blockIdx.y * TILE + threadIdx.x;  // a row index of x = a column of out
    if (out_r < cols && out_c < rows) out[(long long)out_r * rows + out_c] = tile[threadIdx.x][threadIdx.y];
}

extern "C" void transpose(const float* x, float* out, int rows, int cols) {
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<grid, block>>>(x, out, rows, cols);
}
