# Reads what bench/tuning-kernels/run.sh measured (per kernel: the default
# and the tuned library timed twice alternately, the tuning's phases and
# picks), times cuBLAS (torch.matmul) and cuDNN (torch conv2d, channels_last,
# cudnn.benchmark, padding inside) again for the same shapes with the method
# of bench/common/timing.py, and writes NAME-<gpu>.{json,md} (NAME:
# tuning-kernels unless given).
#   report.py <artifact-dir> <out-dir> <commit> <date> [NAME]
import glob
import json
import os
import re
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from timing import cudnn_conv, geomean, median_ms, save_json  # noqa: E402

art, out, commit, date = sys.argv[1:5]
name_of_report = sys.argv[5] if len(sys.argv) > 5 else "tuning-kernels"
dtypes = {"f16": torch.float16, "bf16": torch.bfloat16}


def baseline(name):
    """cuBLAS or cuDNN time (ms) and the FLOPs of kernel `name`."""
    m = re.match(r"mm_(f16|bf16)_(\d+)x(\d+)x(\d+)$", name)
    if m:
        ty = dtypes[m.group(1)]
        mm, n, k = (int(x) for x in m.groups()[1:])
        a = torch.randn(mm, k, device="cuda", dtype=ty)
        b = torch.randn(k, n, device="cuda", dtype=ty)
        c = torch.empty(mm, n, device="cuda", dtype=ty)
        return "cuBLAS", median_ms(lambda: torch.matmul(a, b, out=c), warmup=20, reps=200), 2 * mm * n * k
    ms, _, flops = cudnn_conv(name, warmup=20, reps=200)
    return "cuDNN", ms, flops


def phase_seconds(log, phase):
    m = re.search(rf"^{phase}: .*?([0-9.]+) s", log, re.M)
    return float(m.group(1)) if m else None


rows = []
for done in sorted(glob.glob(os.path.join(art, "*", "done"))):
    d = os.path.dirname(done)
    name = os.path.basename(d)
    runs = {v: json.load(open(os.path.join(d, f"{v}.json")))["functions"][0]
            for v in ("default", "tuned")}
    summary = json.load(open(os.path.join(d, "tune", "summary.json")))
    log = open(os.path.join(d, "tune.log")).read()
    lib, base, flops = baseline(name)
    dms, tms = runs["default"]["time_ms"]["median"], runs["tuned"]["time_ms"]["median"]
    sig = summary["anchors"][0] if summary.get("anchors") else {}
    rows.append({
        "kernel": name, "kind": "gemm" if name.startswith("mm_") else "conv",
        "is_3x3": "_r3_" in name,
        "candidates": sig.get("candidates"), "timed": sig.get("timed"),
        "plan_s": phase_seconds(log, "plan"), "compile_s": phase_seconds(log, "compile"),
        "measure_s": phase_seconds(log, "measure"),
        "default_schedule": sig.get("default_schedule"),
        "tuned_schedule": sig.get("schedule"),
        "default_status": runs["default"]["status"], "tuned_status": runs["tuned"]["status"],
        "default_ms": dms, "tuned_ms": tms, "speedup": dms / tms,
        "baseline": lib, "baseline_ms": base,
        "tuned_TFLOPs": flops / tms / 1e9,
        "default_vs_baseline": base / dms, "tuned_vs_baseline": base / tms})
    # The tuner kept the default: both libraries run the same kernel, and
    # their ratio is the timing's own spread.
    rows[-1]["same_schedule"] = (rows[-1]["tuned_schedule"] is not None and
                                 rows[-1]["tuned_schedule"] == rows[-1]["default_schedule"])

gemms = [r for r in rows if r["kind"] == "gemm"]
convs3 = [r for r in rows if r["is_3x3"]]
res = {"date": date, "commit": commit, "device": torch.cuda.get_device_name(),
       "torch": torch.__version__, "cudnn": torch.backends.cudnn.version(),
       "rows": rows,
       "geomean_speedup_gemm": geomean(r["speedup"] for r in gemms),
       "geomean_speedup_all": geomean(r["speedup"] for r in rows),
       "geomean_default_vs_cudnn_3x3": geomean(r["default_vs_baseline"] for r in convs3),
       "geomean_tuned_vs_cudnn_3x3": geomean(r["tuned_vs_baseline"] for r in convs3),
       "slower_than_default": [r["kernel"] for r in rows if r["speedup"] < 1.0],
       "slower_than_default_other_schedule": [r["kernel"] for r in rows
                                              if r["speedup"] < 1.0 and not r["same_schedule"]]}
md_path = save_json(out, name_of_report, res)


def fmt(x, f="{:.4f}"):
    return "" if x is None else f.format(x)


with open(md_path, "w") as md:
    md.write(f"# Tuned against default schedules, kernel by kernel ({date})\n\n")
    md.write(f"GPU: {res['device']}; commit {commit}; torch {res['torch']}, cuDNN {res['cudnn']}. "
             "`bench/tuning-kernels/run.sh`: " +
             ("each GEMM of `bench/matmul-mma` and " if gemms else "") +
             "each ResNet-50 convolution of `bench/conv-mma` (batch 32, f16, NHWC, pre-padded "
             "input) tuned by "
             "`utils/tune-model.sh --space small` on the GPU machine (rounds compiled 16 at a time "
             "and profiled 10 times each; the rounds whose candidates would win checked against "
             "a naive GPU kernel with f32 accumulation), compiled again with its records, and timed against its default "
             "library in the same run: `hidet-run`, median of 200, each behind a GPU sleep, twice "
             "alternately, the second pair shown; both checked against the same reference. cuBLAS "
             "(`torch.matmul`) and cuDNN (`conv2d`, channels_last, cudnn.benchmark, padding inside) "
             "timed again in the same run the same way.\n\n")
    # A run over part of the set (--only) may hold no GEMM.
    if gemms:
        md.write(f"- tuned over default, geometric mean over the {len(gemms)} GEMMs: "
                 f"**{fmt(res['geomean_speedup_gemm'], '{:.3f}')}x**; over all {len(rows)} "
                 f"kernels: {fmt(res['geomean_speedup_all'], '{:.3f}')}x\n")
    else:
        md.write(f"- tuned over default, geometric mean over the {len(rows)} kernels: "
                 f"**{fmt(res['geomean_speedup_all'], '{:.3f}')}x**\n")
    md.write(f"- the {len(convs3)} 3x3 convolutions against cuDNN (geometric mean): default "
             f"{fmt(res['geomean_default_vs_cudnn_3x3'], '{:.2f}')}x, tuned "
             f"**{fmt(res['geomean_tuned_vs_cudnn_3x3'], '{:.2f}')}x**\n")
    slower = res["slower_than_default"]
    md.write(f"- tuned slower than default: {', '.join(slower) if slower else 'none'}\n")
    same = [r for r in rows if r["same_schedule"]]
    if same:
        other = res["slower_than_default_other_schedule"]
        md.write(f"- {len(same)} of the {len(rows)} kept the default's schedule (the same kernel "
                 f"timed twice: its ratio is the timing's spread, here "
                 f"{min(r['speedup'] for r in same):.3f}x to {max(r['speedup'] for r in same):.3f}x); "
                 f"of those with another schedule, slower than default: "
                 f"{', '.join(other) if other else 'none'}\n")
    md.write("\n")
    md.write("| kernel | candidates (timed) | plan s | compile s | measure s | default ms | tuned ms "
             "| tuned / default | baseline ms | default vs baseline | tuned vs baseline | checks "
             "| tuned schedule |\n")
    md.write("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    for r in rows:
        md.write(f"| {r['kernel']} | {r['candidates']} ({r['timed']}) | {fmt(r['plan_s'], '{:.1f}')} "
                 f"| {fmt(r['compile_s'], '{:.1f}')} | {fmt(r['measure_s'], '{:.1f}')} "
                 f"| {r['default_ms']:.4f} | {r['tuned_ms']:.4f} | **{r['speedup']:.3f}x** "
                 f"| {r['baseline_ms']:.4f} ({r['baseline']}) | {r['default_vs_baseline']:.2f}x "
                 f"| {r['tuned_vs_baseline']:.2f}x | {r['default_status']}, {r['tuned_status']} "
                 f"| `{r['tuned_schedule']}`{' (the default)' if r['same_schedule'] else ''} |\n")
# The whole report on standard output too, for the run's log.
print(open(md_path).read())


def ratio(x, f):
    return "-" if x is None else f.format(x) + "x"


print(f"tuning-kernels: {len(rows)} kernels, GEMM geomean "
      f"{ratio(res['geomean_speedup_gemm'], '{:.3f}')}, 3x3 conv vs cuDNN "
      f"{ratio(res['geomean_default_vs_cudnn_3x3'], '{:.2f}')} -> "
      f"{ratio(res['geomean_tuned_vs_cudnn_3x3'], '{:.2f}')}")
