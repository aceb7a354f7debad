/*===- Model.h - Loading and running compiled models -------------*- C -*-===*
 *
 * Part of the Hidet-MLIR project.
 *
 *===----------------------------------------------------------------------===*
 *
 * The model runtime of libhidet_runtime: a library that hidet-compile wrote
 * is loaded once, with its weights uploaded to the device once and its
 * workspace (the arena of its temporaries) allocated once; each run then
 * only enqueues the forward pass on the caller's stream, by default as the
 * replay of a CUDA graph captured at the second run. Valid C and C++.
 *
 *   hidetModel_t model;
 *   if (hidetModelLoad("bert.so", NULL, NULL, &model) != HIDET_RUNTIME_OK) {
 *     const char *message;
 *     hidetRuntimeLastError(&message);
 *     fprintf(stderr, "%s\n", message);
 *     return 1;
 *   }
 *   hidetTensorInfo info;
 *   hidetModelInput(model, 0, &info);   // name, dtype, shape, bytes
 *   ...                                 // device buffers for the tensors
 *   hidetModelRun(model, inputs, outputs, stream);  // asynchronous
 *   cuStreamSynchronize(stream);
 *   hidetModelUnload(model);
 *
 * runtime/examples/run-model.c is a complete program over this API.
 *
 * Errors. Every function returns a status (hidet/Runtime.h): 0 on success,
 * else an error whose description hidetRuntimeLastError() gives. They clear
 * the recorded error on entry, so that error is theirs. None aborts.
 *
 * Libraries of `target cpu` (hidet-compile --target=cpu) load and run the
 * same way with host buffers and without a driver; the stream is ignored.
 *
 * Index checks. A model whose indices into tensors come from its inputs (a
 * gather's, an embedding lookup's token ids) checks them on every run
 * (hidet-compile --check-indices, on by default): no read leaves its
 * tensor, and a run that met an index out of range fails with
 * HIDET_RUNTIME_ERROR_CHECK and a message that names the input, the
 * element and its value ("input 'input_ids' (input 0) holds 100000 at
 * [0, 5], an index out of range for the dimension of 512 it reads"); the
 * outputs
 * of that run are not meaningful. By default hidetModelRun of such a model
 * (hidetModelNumChecks > 0) waits for its run to finish to report this, so
 * on the GPU it is synchronous. hidetModelSetChecks(model,
 * HIDET_CHECKS_DEFERRED) keeps runs asynchronous for loops that queue many
 * (timing): hidetModelSynchronize then waits and reports the check of the
 * latest run, whose statuses every run overwrites: earlier runs of a loop
 * on other inputs go unchecked.
 *
 *===----------------------------------------------------------------------===*/

#ifndef HIDET_MODEL_H
#define HIDET_MODEL_H

#include "hidet/Runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hidetModel_st *hidetModel_t;

/* Element types, in the manifest's spelling (hidet/Manifest.h). */
enum {
  HIDET_DTYPE_F32 = 0,
  HIDET_DTYPE_F16 = 1,
  HIDET_DTYPE_BF16 = 2,
  HIDET_DTYPE_F64 = 3,
  HIDET_DTYPE_I32 = 4,
  HIDET_DTYPE_I64 = 5,
  HIDET_DTYPE_I8 = 6,
  HIDET_DTYPE_I1 = 7
};

/* Status codes of the model runtime, beside those of hidet/Runtime.h. */
enum {
  /* A library, weights file or manifest that cannot be read or is
     malformed, or weights that do not match the model. */
  HIDET_RUNTIME_ERROR_LOAD = -4,
  /* A run met an index out of range in its inputs (see Index checks). */
  HIDET_RUNTIME_ERROR_CHECK = -5
};

/* When hidetModelRun reports the index checks of a run. */
enum {
  /* Each run waits for its work and reports its checks (the default). */
  HIDET_CHECKS_EACH_RUN = 0,
  /* Runs do not wait; hidetModelSynchronize reports the latest run's. */
  HIDET_CHECKS_DEFERRED = 1
};

/* A graph input or output: row-major and contiguous. The pointers stay valid
   until the model is unloaded. */
typedef struct {
  const char *name; /* The tensor's name, or "" when it has none. */
  int dtype;        /* HIDET_DTYPE_* */
  int rank;
  const int64_t *shape; /* rank extents, outermost first */
  size_t bytes;
} hidetTensorInfo;

typedef struct {
  size_t weightBytes;       /* device (or host) memory of the weights */
  size_t workspaceBytes;    /* the arena of the temporaries */
  size_t intermediateBytes; /* what the temporaries would take apart */
  int kernelLaunches;       /* per run, counted at the first run; -1 before */
  int cudaGraph;            /* whether runs replay a captured graph now */
} hidetModelStats;

/* Loads `libraryPath`, its function `function` (NULL: the library's only
   function) and its weights: from `weightsPath` when not NULL, else from the
   weights file its manifest names (beside the library), else from the
   library's own weights image. On success *model is set; on failure it is
   NULL and nothing stays allocated. */
HIDET_RUNTIME_EXPORT int hidetModelLoad(const char *libraryPath,
                                        const char *function,
                                        const char *weightsPath,
                                        hidetModel_t *model);

/* Frees the model's device memory and graphs (after waiting for its runs)
   and unloads the library. NULL is allowed. */
HIDET_RUNTIME_EXPORT int hidetModelUnload(hidetModel_t model);

/* 1 for a GPU library, 0 for a CPU one. */
HIDET_RUNTIME_EXPORT int hidetModelIsGpu(hidetModel_t model);

HIDET_RUNTIME_EXPORT int hidetModelNumInputs(hidetModel_t model);
HIDET_RUNTIME_EXPORT int hidetModelNumOutputs(hidetModel_t model);
HIDET_RUNTIME_EXPORT int hidetModelInput(hidetModel_t model, int index,
                                         hidetTensorInfo *info);
HIDET_RUNTIME_EXPORT int hidetModelOutput(hidetModel_t model, int index,
                                          hidetTensorInfo *info);
HIDET_RUNTIME_EXPORT int hidetModelGetStats(hidetModel_t model,
                                            hidetModelStats *stats);

/* Whether runs use a CUDA graph (default 1). With it, the first run executes
   the function directly (which also warms the runtime's caches), the next
   one captures it in a graph and launches that, and later runs with the
   same buffers and stream replay it; other buffers or another stream are
   captured anew. A function that allocates or copies from the host while
   it runs (none that hidet-compile plans fully) is never captured. Graphs
   need a stream other than the legacy default stream (NULL). */
HIDET_RUNTIME_EXPORT int hidetModelSetCudaGraph(hidetModel_t model,
                                                int enabled);

/* Enqueues one forward pass on `stream`: `inputs` and `outputs` hold
   hidetModelNumInputs and hidetModelNumOutputs device pointers (host
   pointers for a CPU model), each to a buffer of the tensor's bytes.
   Returns without waiting for the GPU, unless the model has index checks
   and they are not deferred: then it waits for the run and returns
   HIDET_RUNTIME_ERROR_CHECK if an index was out of range. Runs of one model
   share its workspace (and the statuses of its checks): runs on different
   streams must be ordered by the caller. */
HIDET_RUNTIME_EXPORT int hidetModelRun(hidetModel_t model, void *const *inputs,
                                       void *const *outputs,
                                       hidetStream_t stream);

/* The number of index checks each run of the model makes (0: runs never
   wait for the GPU). */
HIDET_RUNTIME_EXPORT int hidetModelNumChecks(hidetModel_t model);

/* HIDET_CHECKS_EACH_RUN (default) or HIDET_CHECKS_DEFERRED. */
HIDET_RUNTIME_EXPORT int hidetModelSetChecks(hidetModel_t model, int mode);

/* Waits for the model's latest run (on the stream it was given) and, if
   its checks were deferred and not reported yet, reports them: returns
   HIDET_RUNTIME_ERROR_CHECK if that run met an index out of range. A model
   that has not run returns 0. */
HIDET_RUNTIME_EXPORT int hidetModelSynchronize(hidetModel_t model);

/* One kernel launch of a profiled run. */
typedef struct {
  const char *kernel; /* the kernel's name (hidet-compile names kernels by
                         template and ONNX node), or "" when the driver
                         cannot tell (before CUDA 12.3) */
  float milliseconds; /* GPU time between events just before and just
                         after the launch */
} hidetKernelTime;

/* Runs one forward pass of a GPU model directly (never as a graph replay)
   with a pair of CUDA events around each kernel launch, waits for it, and
   reports the launches in order: the first `capacity` into `times` (which
   may be NULL when capacity is 0) and their number into *count, which may
   exceed capacity (call again with more room). Inputs, outputs and stream
   are those of hidetModelRun; the outputs are computed as by a run, and
   its index checks are reported whatever hidetModelSetChecks says. The
   names stay valid until the next hidetModelProfile on the model or its
   unload. The events add a little time between kernels: the sum of the
   launches is close to a direct run's time, not to a graph replay's. */
HIDET_RUNTIME_EXPORT int hidetModelProfile(hidetModel_t model,
                                           void *const *inputs,
                                           void *const *outputs,
                                           hidetStream_t stream,
                                           hidetKernelTime *times,
                                           int capacity, int *count);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HIDET_MODEL_H */
