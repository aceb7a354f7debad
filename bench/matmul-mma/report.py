# Measures cuBLAS (torch.matmul, f16/bf16 with f32 accumulation) for the
# shapes hidet-run timed, in the same run and with the same method (each
# repetition queued behind a GPU sleep, CUDA events, median), and writes
# matmul-mma-<gpu>.{json,md} (e.g. matmul-mma-h200): time, TFLOP/s, ratio and schedule per shape, and the
# geometric mean of the ratios per dtype.
#   report.py <artifact-dir> <out-dir> <commit> <date>
import glob
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from timing import geomean, median_ms, save_json  # noqa: E402

art, out, commit, date = sys.argv[1:5]
dtypes = {"f16": torch.float16, "bf16": torch.bfloat16}

rows = []
for path in sorted(glob.glob(os.path.join(art, "mm_*.json"))):
    r = json.load(open(path))
    f = r["functions"][0]
    _, ty, shape = f["name"].split("_")
    m, n, k = (int(x) for x in shape.split("x"))
    a = torch.randn(m, k, device="cuda", dtype=dtypes[ty])
    b = torch.randn(k, n, device="cuda", dtype=dtypes[ty])
    c = torch.empty(m, n, device="cuda", dtype=dtypes[ty])
    base = median_ms(lambda: torch.matmul(a, b, out=c), warmup=5, reps=30)
    ms = f["time_ms"]["median"]
    sched = open(path[:-5] + ".schedule").read().strip()
    rows.append({"dtype": ty, "shape": shape, "status": f["status"],
                 "rel_l2": max(o["rel_l2"] for o in f["outputs"]),
                 "hidet_ms": ms, "hidet_TFLOPs": 2 * m * n * k / ms / 1e9,
                 "cublas_ms": base, "cublas_TFLOPs": 2 * m * n * k / base / 1e9,
                 "ratio": base / ms, "schedule": sched})
geo = {}
for ty in dtypes:
    ratios = [r["ratio"] for r in rows if r["dtype"] == ty]
    if ratios:
        geo[ty] = geomean(ratios)
res = {"date": date, "commit": commit, "device": torch.cuda.get_device_name(),
       "torch": torch.__version__, "rows": rows, "geomean_ratio": geo}
md_path = save_json(out, "matmul-mma", res)
with open(md_path, "w") as md:
    md.write(f"# Tensor-core matmul templates vs cuBLAS, f16/bf16 ({date})\n\n")
    md.write(f"GPU: {res['device']}; commit {commit}; torch {res['torch']}. "
             "Default schedules (no tuning; the last column): "
             "`#hidet.wgmma_matmul` is the Hopper template (TMA, mbarriers, "
             "wgmma m64nNk16, warp-specialized), `#hidet.mma_matmul` the "
             "mma.sync m16n8k16 one (`stages = N`: an N-stage cp.async "
             "pipeline); f32 accumulation. "
             "Each kernel checked against a naive GPU kernel with f32 "
             "accumulation before timing; GPU times, median of 30, each "
             "queued behind a GPU sleep; cuBLAS measured in the same run "
             "the same way.\n\n")
    for ty, g in geo.items():
        md.write(f"- geometric mean of the ratios, {ty}: **{g:.2f}x** cuBLAS\n")
    md.write("\n| dtype | M x N x K | check | rel. L2 | hidet ms | TFLOP/s | "
             "cuBLAS ms | cuBLAS TFLOP/s | ratio | schedule |\n"
             "|---|---|---|---|---|---|---|---|---|---|\n")
    for r in rows:
        md.write(f"| {r['dtype']} | {r['shape']} | {r['status']} | "
                 f"{r['rel_l2']:.1e} | {r['hidet_ms']:.4f} | "
                 f"{r['hidet_TFLOPs']:.1f} | {r['cublas_ms']:.4f} | "
                 f"{r['cublas_TFLOPs']:.1f} | {r['ratio']:.2f}x | "
                 f"`{r['schedule']}` |\n")
print(open(md_path).read())
