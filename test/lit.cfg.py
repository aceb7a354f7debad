# lit configuration for Hidet-MLIR (lit requires its configuration in Python;
# the tests themselves are MLIR files with RUN lines).
import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "HIDET"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".onnxtxt"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hidet_obj_root, "test")

# %shlibext must be defined before lit expands %s inside it.
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))
config.substitutions.append(("%hidet_libs", config.hidet_libs_dir))
config.substitutions.append(("%hidet_src", config.hidet_src_root))
config.substitutions.append(("%hidet_obj", config.hidet_obj_root))
config.substitutions.append(("%hidet_tools", config.hidet_tools_dir))
config.substitutions.append(
    ("%fixtures", os.path.join(config.hidet_obj_root, "runtime", "test")))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# The CUDA toolkit of GPU compilations (hidet-compile --cuda-path).
llvm_config.with_system_environment(["CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"])

tool_dirs = [config.hidet_tools_dir, config.llvm_tools_dir]
tools = [
    "hidet-opt",
    "hidet-compile",
    ToolSubst("hidet-run", unresolved="ignore"),
    ToolSubst("hidet-import-onnx", unresolved="ignore"),
    ToolSubst("hidet-tune", unresolved="ignore"),
    ToolSubst("hidet-random-graph", unresolved="ignore"),
    ToolSubst("hidet-mlir-fuzzer", unresolved="ignore"),
    ToolSubst("hidet-pass-fuzzer", unresolved="ignore"),
    ToolSubst("hidet-onnx-fuzzer", unresolved="ignore"),
    # A configuration for a machine with the GPU but without MLIR
    # (utils/gpu-lit.sh) has the tools hidet-compile and hidet-run only.
    ToolSubst("mlir-opt",
              unresolved="ignore" if getattr(config, "hidet_without_mlir", False)
              else "fatal"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

if os.path.exists(os.path.join(config.hidet_tools_dir, "hidet-import-onnx")) or \
        getattr(config, "hidet_compile_has_onnx", False):
    config.available_features.add("onnx")
# The ONNX backend test data (Debian's libonnx-testdata).
onnx_node_data = "/usr/share/libonnx-testdata/data/node"
if os.path.isdir(onnx_node_data):
    config.available_features.add("onnx-testdata")
    config.substitutions.append(("%onnx_node_data", onnx_node_data))

# The fuzz targets as replay tools (tools/fuzzers); the GPU machine's copy
# of the tools has none.
if os.path.exists(os.path.join(config.hidet_tools_dir, "hidet-pass-fuzzer")):
    config.available_features.add("fuzz-tools")

# hidet-opt, which the GPU machine's copy of the tools lacks.
if os.path.exists(os.path.join(config.hidet_tools_dir, "hidet-opt")):
    config.available_features.add("hidet-opt")

if os.path.exists(os.path.join(config.hidet_tools_dir, "hidet-run")):
    config.available_features.add("hidet-runtime")
    # hidet-run reads ONNX TensorProto (.pb) files when built with protobuf;
    # the build's protoc, where there is one, writes them from text for the
    # tests.
    if config.hidet_run_has_protobuf:
        config.available_features.add("hidet-run-onnx")
    if config.hidet_run_has_protobuf and config.protoc:
        config.available_features.add("protoc")
        config.substitutions.append(
            ("%encode_tensor_proto",
             f"{config.protoc} --encode=onnx.TensorProto "
             f"-I{config.onnx_proto_dir} onnx/onnx.proto"))

# A CUDA toolkit as hidet-compile finds one (--cuda-path says how): the
# ptxas that GPU libraries in cubin form need, and the libdevice that NVVM
# serialization links (without one it reports an error for every module).
def find_cuda_toolkit():
    for name in ("CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(name):
            return os.environ[name]
    ptxas = shutil.which("ptxas")
    candidates = [os.path.dirname(os.path.dirname(ptxas))] if ptxas else []
    for path in candidates + ["/usr/local/cuda"]:
        if os.path.exists(os.path.join(path, "nvvm", "libdevice",
                                       "libdevice.10.bc")):
            return path
    return None


if find_cuda_toolkit():
    config.available_features.add("cuda-toolkit")

# The runtime built without cuda.h, which a build with CUDA makes too
# (runtime/lib/NoCuda.cpp).
if os.path.exists(os.path.join(config.hidet_libs_dir,
                               "libhidet_runtime_nocuda.so")):
    config.available_features.add("hidet-runtime-nocuda")

# GPU tests run only where a CUDA driver and device are present.
if os.path.exists("/dev/nvidia0") or os.environ.get("HIDET_TEST_CUDA") == "1":
    config.available_features.add("cuda")
