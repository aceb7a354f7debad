/*===- run-model.c - Running a compiled model through the C API -----------===*
 *
 * Part of the Hidet-MLIR project.
 *
 *===----------------------------------------------------------------------===*
 *
 * A complete C program over hidet/Model.h, built with the runtime and used
 * by its tests:
 *
 *   run-model LIBRARY [-w WEIGHTS] [-g 0|1] [-n RUNS] [-o PREFIX] INPUT...
 *
 * loads LIBRARY (a GPU or CPU library that hidet-compile wrote), prints its
 * inputs, outputs and memory, reads input i from the last bytes of the i-th
 * INPUT file (raw data, or a NumPy .npy file of the right dtype and shape),
 * runs the model RUNS times (default 1) on one stream, with CUDA graphs
 * unless -g 0, and writes output i as raw bytes to PREFIX<i>.bin. Link with
 * -lhidet_runtime; the CUDA driver is needed only to run a GPU library.
 *
 *===----------------------------------------------------------------------===*/

#include "hidet/Model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kDTypes[] = {"f32", "f16", "bf16", "f64",
                                      "i32", "i64", "i8",   "i1"};

/* Prints the last error of the runtime after `what` and returns 1. */
static int report(const char *what) {
  const char *message = "";
  hidetRuntimeLastError(&message);
  fprintf(stderr, "run-model: %s: %s\n", what, message);
  return 1;
}

static void printTensor(const char *kind, int index,
                        const hidetTensorInfo *info) {
  printf("%s %d %s %s ", kind, index, info->name[0] ? info->name : "-",
         kDTypes[info->dtype]);
  for (int d = 0; d < info->rank; ++d)
    printf(d ? "x%lld" : "%lld", (long long)info->shape[d]);
  printf("%s (%zu bytes)\n", info->rank ? "" : "scalar", info->bytes);
}

/* Reads the last `bytes` bytes of `path` into `data`. */
static int readTail(const char *path, void *data, size_t bytes) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "run-model: cannot open %s\n", path);
    return 1;
  }
  int ok = fseek(file, 0, SEEK_END) == 0 && ftell(file) >= (long)bytes &&
           fseek(file, -(long)bytes, SEEK_END) == 0 &&
           fread(data, 1, bytes, file) == bytes;
  fclose(file);
  if (!ok)
    fprintf(stderr, "run-model: %s holds fewer than %zu bytes\n", path, bytes);
  return !ok;
}

static int writeFile(const char *path, const void *data, size_t bytes) {
  FILE *file = fopen(path, "wb");
  int ok = file && fwrite(data, 1, bytes, file) == bytes;
  if (file && fclose(file) != 0)
    ok = 0;
  if (!ok) {
    fprintf(stderr, "run-model: cannot write %s\n", path);
    remove(path);
  }
  return !ok;
}

int main(int argc, char **argv) {
  const char *library = NULL, *weights = NULL, *prefix = NULL;
  int graphs = 1, runs = 1, numFiles = 0;
  const char **files = calloc((size_t)argc, sizeof(char *));
  for (int i = 1; i < argc; ++i) {
    if (i + 1 < argc && !strcmp(argv[i], "-w"))
      weights = argv[++i];
    else if (i + 1 < argc && !strcmp(argv[i], "-g"))
      graphs = atoi(argv[++i]);
    else if (i + 1 < argc && !strcmp(argv[i], "-n"))
      runs = atoi(argv[++i]);
    else if (i + 1 < argc && !strcmp(argv[i], "-o"))
      prefix = argv[++i];
    else if (!library)
      library = argv[i];
    else
      files[numFiles++] = argv[i];
  }
  if (!library || runs < 1) {
    fprintf(stderr, "usage: run-model LIBRARY [-w WEIGHTS] [-g 0|1] "
                    "[-n RUNS] [-o PREFIX] INPUT...\n");
    return 2;
  }
  hidetRuntimeSetErrorPrinting(0);

  /* Load: kernels, weights (uploaded once) and the workspace. */
  hidetModel_t model;
  if (hidetModelLoad(library, NULL, weights, &model) != HIDET_RUNTIME_OK)
    return report("loading the model");
  int gpu = hidetModelIsGpu(model);
  int numInputs = hidetModelNumInputs(model);
  int numOutputs = hidetModelNumOutputs(model);
  if (numFiles != numInputs) {
    fprintf(stderr, "run-model: %s takes %d inputs; %d files given\n", library,
            numInputs, numFiles);
    hidetModelUnload(model);
    return 2;
  }

  /* Buffers: device memory for a GPU model, host memory for a CPU one. */
  void **inputs = calloc((size_t)numInputs + 1, sizeof(void *));
  void **outputs = calloc((size_t)numOutputs + 1, sizeof(void *));
  void *host = NULL;
  int status = 0;
  for (int i = 0; i < numInputs && !status; ++i) {
    hidetTensorInfo info;
    hidetModelInput(model, i, &info);
    printTensor("input", i, &info);
    free(host);
    host = malloc(info.bytes + 1);
    status = readTail(files[i], host, info.bytes);
    if (status)
      break;
    if (!gpu) {
      inputs[i] = host;
      host = NULL;
    } else if ((!(inputs[i] = hidetMalloc(info.bytes)) && info.bytes) ||
               hidetMemcpyHtoD(inputs[i], host, info.bytes)) {
      status = report("copying an input to the device");
    }
  }
  for (int o = 0; o < numOutputs && !status; ++o) {
    hidetTensorInfo info;
    hidetModelOutput(model, o, &info);
    printTensor("output", o, &info);
    outputs[o] = gpu ? hidetMalloc(info.bytes) : malloc(info.bytes + 1);
    if (!outputs[o] && info.bytes)
      status = report("allocating an output");
  }

  /* Runs: the second one captures a CUDA graph, later ones replay it. */
  hidetStream_t stream = gpu ? hidetStreamCreate() : NULL;
  if (!status && gpu && !stream)
    status = report("creating a stream");
  if (!status)
    hidetModelSetCudaGraph(model, graphs);
  for (int r = 0; r < runs && !status; ++r)
    if (hidetModelRun(model, inputs, outputs, stream) != HIDET_RUNTIME_OK)
      status = report("running the model");
  if (!status && gpu && hidetStreamSynchronize(stream))
    status = report("waiting for the stream");

  hidetModelStats stats;
  if (!status && hidetModelGetStats(model, &stats) == HIDET_RUNTIME_OK)
    printf("weights %zu bytes, workspace %zu bytes (intermediates %zu), "
           "%d kernel launches, cuda graph %s\n",
           stats.weightBytes, stats.workspaceBytes, stats.intermediateBytes,
           stats.kernelLaunches, stats.cudaGraph ? "yes" : "no");

  /* Outputs, back on the host and into files. */
  for (int o = 0; o < numOutputs && !status && prefix; ++o) {
    hidetTensorInfo info;
    hidetModelOutput(model, o, &info);
    free(host);
    host = malloc(info.bytes + 1);
    if (gpu && hidetMemcpyDtoH(host, outputs[o], info.bytes)) {
      status = report("copying an output to the host");
      break;
    }
    char path[4096];
    snprintf(path, sizeof(path), "%s%d.bin", prefix, o);
    status = writeFile(path, gpu ? host : outputs[o], info.bytes);
  }

  for (int i = 0; i < numInputs; ++i)
    gpu ? (void)hidetFree(inputs[i]) : free(inputs[i]);
  for (int o = 0; o < numOutputs; ++o)
    gpu ? (void)hidetFree(outputs[o]) : free(outputs[o]);
  if (stream)
    hidetStreamDestroy(stream);
  free(host);
  free(inputs);
  free(outputs);
  free(files);
  if (hidetModelUnload(model) != HIDET_RUNTIME_OK && !status)
    status = report("unloading the model");
  return status;
}
