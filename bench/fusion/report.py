# Measures the baselines of the fusion benchmark in the same run and with
# the same method as hidet-run (each repetition queued behind a GPU sleep,
# CUDA events, median): the GEMM alone in cuBLAS (torch.matmul), and
# gelu(x @ w + b) and relu(x @ w + b) in PyTorch eager (addmm + gelu / relu)
# and torch.compile; then
# writes fusion-<gpu>.{json,md} (e.g. fusion-h200) with the ratios to the
# bare GEMM and to torch.compile and the kernel counts prepare recorded.
#   report.py <artifact-dir> <out-dir> <commit> <date>
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from timing import median_ms, save_json  # noqa: E402

art, out, commit, date = sys.argv[1:5]
m, n, k = 4096, 3072, 768


def hidet(name):
    f = json.load(open(os.path.join(art, name + ".json")))["functions"][0]
    return {"status": f["status"],
            "rel_l2": max(o["rel_l2"] for o in f["outputs"]),
            "ms": f["time_ms"]["median"],
            "schedule": open(os.path.join(art, name + ".schedule")).read().strip()}


fused = hidet("gelu_bias_f16_4096x3072x768")
unfused = hidet("gelu_bias_f16_4096x3072x768_unfused")
fast = hidet("gelu_bias_f16_4096x3072x768_fastmath")
exp2 = hidet("gelu_bias_f16_4096x3072x768_exp2tanh")
bare = hidet("mm_f16_4096x3072x768")
relu = hidet("bias_relu_f16_4096x3072x768")

x = torch.randn(m, k, device="cuda", dtype=torch.float16)
w = torch.randn(k, n, device="cuda", dtype=torch.float16)
b = torch.randn(n, device="cuda", dtype=torch.float16)
c = torch.empty(m, n, device="cuda", dtype=torch.float16)


def model(x, w, b):
    return F.gelu(torch.addmm(b, x, w), approximate="tanh")


def relu_model(x, w, b):
    return F.relu(torch.addmm(b, x, w))


compiled = torch.compile(model)
compiled_relu = torch.compile(relu_model)
base = {
    "cublas_gemm_ms": median_ms(lambda: torch.matmul(x, w, out=c), warmup=5, reps=50),
    "eager_ms": median_ms(lambda: model(x, w, b), warmup=5, reps=50),
    "compile_ms": median_ms(lambda: compiled(x, w, b), warmup=5, reps=50),
    "relu_eager_ms": median_ms(lambda: relu_model(x, w, b), warmup=5, reps=50),
    "relu_compile_ms": median_ms(lambda: compiled_relu(x, w, b), warmup=5, reps=50),
}
counts = json.load(open(os.path.join(art, "kernel-counts.json")))
res = {"date": date, "commit": commit, "device": torch.cuda.get_device_name(),
       "torch": torch.__version__, "shape": f"{m}x{n}x{k}",
       "fused": fused, "fused_exp2_tanh": exp2, "fused_fast_math": fast,
       "unfused": unfused,
       "bare_gemm": bare, "bias_relu": relu, "baselines": base,
       "bias_relu_over_bare_gemm": relu["ms"] / bare["ms"],
       "relu_compile_over_fused": base["relu_compile_ms"] / relu["ms"],
       "fused_over_bare_gemm": fused["ms"] / bare["ms"],
       "compile_over_fused": base["compile_ms"] / fused["ms"],
       "unfused_over_fused": unfused["ms"] / fused["ms"],
       "exp2_tanh_over_bare_gemm": exp2["ms"] / bare["ms"],
       "compile_over_exp2_tanh": base["compile_ms"] / exp2["ms"],
       "fast_math_over_bare_gemm": fast["ms"] / bare["ms"],
       "compile_over_fast_math": base["compile_ms"] / fast["ms"],
       "kernel_counts": counts}
md_path = save_json(out, "fusion", res)
with open(md_path, "w") as md:
    md.write(f"# Post-scheduling fusion: gelu(x @ w + b), f16 ({date})\n\n")
    md.write(f"GPU: {res['device']}; commit {commit}; torch {res['torch']}. "
             f"M x N x K = {m} x {n} x {k}; GELU in its tanh form. Each "
             "kernel checked against naive GPU kernels with f32 accumulation "
             "before timing; median of 50, each queued behind a GPU sleep; "
             "the PyTorch baselines measured in the same run the same way.\n\n")
    md.write("| variant | check | rel. L2 | ms | schedule |\n|---|---|---|---|---|\n")
    for label, r in [("hidet fused (1 kernel)", fused),
                     ("hidet fused, exp2-tanh=1 (tanh from exp2 and a reciprocal)", exp2),
                     ("hidet fused, fast-math=1 (arcp, afn, contract)", fast),
                     ("hidet unfused (fuse=0, 3 kernels)", unfused),
                     ("hidet bare GEMM", bare),
                     ("hidet fused relu(x @ w + b) (1 kernel)", relu)]:
        md.write(f"| {label} | {r['status']} | {r['rel_l2']:.1e} | "
                 f"{r['ms']:.4f} | `{r['schedule']}` |\n")
    md.write(f"| cuBLAS GEMM alone (torch.matmul) | | | {base['cublas_gemm_ms']:.4f} | |\n")
    md.write(f"| PyTorch eager (addmm + gelu) | | | {base['eager_ms']:.4f} | |\n")
    md.write(f"| torch.compile | | | {base['compile_ms']:.4f} | |\n")
    md.write(f"| PyTorch eager relu(addmm) | | | {base['relu_eager_ms']:.4f} | |\n")
    md.write(f"| torch.compile relu(addmm) | | | {base['relu_compile_ms']:.4f} | |\n\n")
    md.write(f"- fused / bare GEMM: **{res['fused_over_bare_gemm']:.3f}x**\n")
    md.write(f"- torch.compile / fused: **{res['compile_over_fused']:.2f}x**\n")
    md.write(f"- with exp2-tanh=1: fused / bare GEMM "
             f"{res['exp2_tanh_over_bare_gemm']:.3f}x, torch.compile / fused "
             f"{res['compile_over_exp2_tanh']:.2f}x\n")
    md.write(f"- with fast-math=1: fused / bare GEMM "
             f"{res['fast_math_over_bare_gemm']:.3f}x, torch.compile / fused "
             f"{res['compile_over_fast_math']:.2f}x\n")
    md.write(f"- unfused / fused: {res['unfused_over_fused']:.2f}x\n")
    md.write(f"- relu(x @ w + b): fused / bare GEMM "
             f"{res['bias_relu_over_bare_gemm']:.3f}x, torch.compile / fused "
             f"{res['relu_compile_over_fused']:.2f}x\n\n")
    md.write("Kernel counts (gpu.launch_func in the compiled module) against "
             "the models' linalg ops:\n\n| model | linalg ops | kernels fused | "
             "kernels unfused |\n|---|---|---|---|\n")
    for name, cnt in counts.items():
        md.write(f"| {name} | {cnt['linalg_ops']} | {cnt['kernels_fused']} | "
                 f"{cnt['kernels_unfused']} |\n")
print(open(md_path).read())
