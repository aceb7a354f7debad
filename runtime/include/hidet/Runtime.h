//===- Runtime.h - Hidet GPU runtime C API ----------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// libhidet_runtime.so: the host functions that MLIR 22's GPU lowering
// (gpu-to-llvm plus the gpu.binary/launch_func translation to LLVM IR) calls,
// implemented over the CUDA driver API, plus a few helpers for runners. The
// header is valid C and C++.
//
// The driver (libcuda.so.1) is opened with dlopen on first use, so the
// library and the programs linked to it load on machines without a driver;
// every entry point then fails with HIDET_RUNTIME_ERROR_NO_DRIVER.
//
// Errors. No function aborts or exits. Each failure is printed to stderr
// (unless printing is turned off) naming the failing call and the CUDA error
// name and string, and is recorded: hidetRuntimeLastError() returns the first
// error recorded since the last hidetRuntimeClearError(). The first one is
// kept because later failures are usually its consequences (a module that
// failed to load makes every later launch fail).
//
// Contexts. Every call makes the primary context of the calling thread's
// default device (mgpuSetDefaultDevice, 0 unless set) current for its
// duration and restores the previous one, as MLIR's own wrappers do, so the
// functions can be called from any thread.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUNTIME_H
#define HIDET_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define HIDET_RUNTIME_EXPORT __declspec(dllexport)
#else
#define HIDET_RUNTIME_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque handles. The struct tags are those of cuda.h, so these are the very
   CUstream, CUevent, CUmodule and CUfunction types and both headers can be
   included together. */
typedef struct CUstream_st *hidetStream_t;
typedef struct CUevent_st *hidetEvent_t;
typedef struct CUmod_st *hidetModule_t;
typedef struct CUfunc_st *hidetFunction_t;

/*===----------------------------------------------------------------------===*
 * Status codes
 *===----------------------------------------------------------------------===*/

/* 0 is success; positive values are CUresult codes from the driver; negative
   values are the runtime's own. */
enum {
  HIDET_RUNTIME_OK = 0,
  /* libcuda.so.1 could not be opened: no NVIDIA driver on this machine. */
  HIDET_RUNTIME_ERROR_NO_DRIVER = -1,
  /* The driver lacks an entry point the call needs (driver too old). */
  HIDET_RUNTIME_ERROR_DRIVER_TOO_OLD = -2,
  /* A caller passed something unusable: a null module or function, a
     non-contiguous memref where a contiguous one is needed, a TMA rank > 5. */
  HIDET_RUNTIME_ERROR_INVALID_ARGUMENT = -3
};

/*===----------------------------------------------------------------------===*
 * Runtime state and errors
 *===----------------------------------------------------------------------===*/

/* Opens the driver, initializes it and retains the primary context of the
   calling thread's default device. Optional (every entry point does it on
   first use) but lets a runner find out whether a GPU is usable before doing
   anything else. Returns a status code; on failure hidetRuntimeLastError()
   has the reason. */
HIDET_RUNTIME_EXPORT int hidetRuntimeInit(void);

/* The first error recorded since the last hidetRuntimeClearError(), or 0.
   When `message` is not null it receives a description ("" when there is no
   error) that stays valid until the next hidetRuntimeClearError(). */
HIDET_RUNTIME_EXPORT int hidetRuntimeLastError(const char **message);

/* Forgets the recorded error. */
HIDET_RUNTIME_EXPORT void hidetRuntimeClearError(void);

/* Whether errors are also printed to stderr as they happen (default: yes).
   Recording is unaffected. Returns the previous setting. */
HIDET_RUNTIME_EXPORT int hidetRuntimeSetErrorPrinting(int enabled);

/* Writes the name of the default device into buf (NUL-terminated, truncated
   to size). Returns a status code. */
HIDET_RUNTIME_EXPORT int hidetRuntimeDeviceName(char *buf, size_t size);

/* When `stream` is not null, mgpuStreamCreate returns it instead of creating
   a stream, and mgpuStreamDestroy leaves it alone: all work of a compiled
   function then goes to one stream that the runner can bracket with events.
   Pass null to restore normal behavior. The setting is process-wide. */
HIDET_RUNTIME_EXPORT void hidetRuntimeSetStream(hidetStream_t stream);
HIDET_RUNTIME_EXPORT hidetStream_t hidetRuntimeGetStream(void);

/// Records `event` on the override stream at every mgpuStreamSynchronize of
/// that stream until it is replaced, just before waiting: the last record is
/// the end of the GPU work of a compiled function, without the host's
/// wake-up after the wait (a function that allocates temporaries waits more
/// than once). Returns the previous event if no wait recorded it, else 0;
/// passing 0 clears it.
HIDET_RUNTIME_EXPORT hidetEvent_t
hidetRuntimeRecordBeforeSync(hidetEvent_t event);

/*===----------------------------------------------------------------------===*
 * Helpers for runners. All return a status code unless noted.
 *===----------------------------------------------------------------------===*/

/* A blocking stream (CU_STREAM_DEFAULT): it synchronizes with the legacy
   default stream, so events recorded on it also order work that compiled
   code issues on the null stream. Returns null on failure. */
HIDET_RUNTIME_EXPORT hidetStream_t hidetStreamCreate(void);
HIDET_RUNTIME_EXPORT int hidetStreamDestroy(hidetStream_t stream);
HIDET_RUNTIME_EXPORT int hidetStreamSynchronize(hidetStream_t stream);

/* Events with timing enabled (mgpuEventCreate's have it disabled). Returns
   null on failure. */
HIDET_RUNTIME_EXPORT hidetEvent_t hidetEventCreate(void);
HIDET_RUNTIME_EXPORT int hidetEventDestroy(hidetEvent_t event);
HIDET_RUNTIME_EXPORT int hidetEventRecord(hidetEvent_t event,
                                          hidetStream_t stream);
HIDET_RUNTIME_EXPORT int hidetEventSynchronize(hidetEvent_t event);
/* Milliseconds between two completed events. */
HIDET_RUNTIME_EXPORT int hidetEventElapsedMs(hidetEvent_t start,
                                             hidetEvent_t end, float *ms);

/* Device memory. hidetMalloc returns null on failure, and for 0 bytes. */
HIDET_RUNTIME_EXPORT void *hidetMalloc(size_t sizeBytes);
HIDET_RUNTIME_EXPORT int hidetFree(void *devicePtr);
HIDET_RUNTIME_EXPORT int hidetMemcpyHtoD(void *dst, const void *src,
                                         size_t sizeBytes);
HIDET_RUNTIME_EXPORT int hidetMemcpyDtoH(void *dst, const void *src,
                                         size_t sizeBytes);
HIDET_RUNTIME_EXPORT int hidetMemsetD8(void *dst, unsigned char value,
                                       size_t sizeBytes);
/* Waits for all work on the default device's primary context. */
HIDET_RUNTIME_EXPORT int hidetDeviceSynchronize(void);

/// Frees the device blocks that mgpuMemFree kept for reuse (the runtime
/// caches freed blocks by size; HIDET_RUNTIME_NO_CACHE=1 disables that).
HIDET_RUNTIME_EXPORT void hidetRuntimeReleaseCachedMemory(void);

/*===----------------------------------------------------------------------===*
 * Functions called by MLIR 22.1 generated host code
 *
 * The signatures are those of the declarations MLIR emits (read from
 * mlir-opt --gpu-lower-to-nvvm-pipeline / --gpu-to-llvm and mlir-translate
 * output); LLVM types are given on the right. `index` arguments are i64.
 *===----------------------------------------------------------------------===*/

/* Emitted from the gpu.binary's global constructor/destructor. */
/* ptr (ptr, i64): a cubin or fatbin image. */
HIDET_RUNTIME_EXPORT hidetModule_t mgpuModuleLoad(const void *data,
                                                  uint64_t sizeBytes);
/* ptr (ptr, i32): NUL-terminated PTX, JIT-compiled at this opt level. */
HIDET_RUNTIME_EXPORT hidetModule_t mgpuModuleLoadJIT(const void *ptx,
                                                     int32_t optLevel);
/* void (ptr) */
HIDET_RUNTIME_EXPORT void mgpuModuleUnload(hidetModule_t module);
/* ptr (ptr, ptr) */
HIDET_RUNTIME_EXPORT hidetFunction_t mgpuModuleGetFunction(hidetModule_t module,
                                                           const char *name);

/* void (ptr, i64 x6, i32, ptr, ptr, ptr, i64). `params` points to
   `paramsCount` pointers to the kernel arguments. */
HIDET_RUNTIME_EXPORT void
mgpuLaunchKernel(hidetFunction_t function, int64_t gridX, int64_t gridY,
                 int64_t gridZ, int64_t blockX, int64_t blockY, int64_t blockZ,
                 int32_t smemBytes, hidetStream_t stream, void **params,
                 void **extra, int64_t paramsCount);
/* void (ptr, i64 x9, i32, ptr, ptr, ptr): gpu.launch_func with clusters. */
HIDET_RUNTIME_EXPORT void
mgpuLaunchClusterKernel(hidetFunction_t function, int64_t clusterX,
                        int64_t clusterY, int64_t clusterZ, int64_t gridX,
                        int64_t gridY, int64_t gridZ, int64_t blockX,
                        int64_t blockY, int64_t blockZ, int32_t smemBytes,
                        hidetStream_t stream, void **params, void **extra);

/* ptr () / void (ptr) / void (ptr) / void (ptr, ptr) */
HIDET_RUNTIME_EXPORT hidetStream_t mgpuStreamCreate(void);
HIDET_RUNTIME_EXPORT void mgpuStreamDestroy(hidetStream_t stream);
HIDET_RUNTIME_EXPORT void mgpuStreamSynchronize(hidetStream_t stream);
HIDET_RUNTIME_EXPORT void mgpuStreamWaitEvent(hidetStream_t stream,
                                              hidetEvent_t event);

/* ptr () / void (ptr) / void (ptr) / void (ptr event, ptr stream) */
HIDET_RUNTIME_EXPORT hidetEvent_t mgpuEventCreate(void);
HIDET_RUNTIME_EXPORT void mgpuEventDestroy(hidetEvent_t event);
HIDET_RUNTIME_EXPORT void mgpuEventSynchronize(hidetEvent_t event);
HIDET_RUNTIME_EXPORT void mgpuEventRecord(hidetEvent_t event,
                                          hidetStream_t stream);

/* ptr (i64, ptr, i8): managed memory when isHostShared (gpu.alloc
   host_shared), device memory otherwise. */
HIDET_RUNTIME_EXPORT void *
mgpuMemAlloc(uint64_t sizeBytes, hidetStream_t stream, bool isHostShared);
/* void (ptr, ptr) */
HIDET_RUNTIME_EXPORT void mgpuMemFree(void *ptr, hidetStream_t stream);
/* void (ptr dst, ptr src, i64, ptr) */
HIDET_RUNTIME_EXPORT void mgpuMemcpy(void *dst, void *src, uint64_t sizeBytes,
                                     hidetStream_t stream);
/* void (ptr, i32, i64 count, ptr) / void (ptr, i16, i64 count, ptr) */
HIDET_RUNTIME_EXPORT void mgpuMemset32(void *dst, uint32_t value,
                                       uint64_t count, hidetStream_t stream);
HIDET_RUNTIME_EXPORT void mgpuMemset16(void *dst, uint16_t value,
                                       uint64_t count, hidetStream_t stream);

/* void (i64 rank, ptr descriptor, i64 elementSizeBytes): gpu.host_register
   and gpu.host_unregister on a ranked memref descriptor. */
HIDET_RUNTIME_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank,
                                                    void *descriptor,
                                                    int64_t elementSizeBytes);
HIDET_RUNTIME_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                                      void *descriptor,
                                                      int64_t elementSizeBytes);
/* Byte-range variants; MLIR 22 does not emit them, hand-written code may. */
HIDET_RUNTIME_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
HIDET_RUNTIME_EXPORT void mgpuMemHostUnregister(void *ptr);

/* void (i32): gpu.set_default_device, per thread. */
HIDET_RUNTIME_EXPORT void mgpuSetDefaultDevice(int32_t device);

/* ptr (i64, ptr, i64, i64, i64, i64, i64, ptr): nvgpu.tma.create.descriptor.
   `descriptor` is a ranked memref descriptor of rank `rank` (1..5) holding a
   device pointer; the enums are CUtensorMapDataType, CUtensorMapInterleave,
   CUtensorMapSwizzle, CUtensorMapL2promotion and CUtensorMapFloatOOBfill
   values; `boxDims` has `rank` entries, outermost first. Returns a device
   pointer to the encoded CUtensorMap, or null on failure. Identical
   descriptors share one device copy, which lives until the process ends. */
HIDET_RUNTIME_EXPORT void *mgpuTensorMapEncodeTiledMemref(
    int64_t rank, void *descriptor, int64_t dataType, int64_t interleave,
    int64_t swizzle, int64_t l2Promotion, int64_t oobFill, int64_t *boxDims);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HIDET_RUNTIME_H */
