# Measures cuBLAS f32 (TF32 off) for the shapes hidet-run timed, in the same
# run and with the same method (each repetition queued behind a GPU sleep,
# CUDA events, median), and writes matmul-simt-<gpu>.{json,md} (e.g.
# matmul-simt-h200).
#   report.py <artifact-dir> <out-dir> <commit> <date>
import glob
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from timing import geomean, median_ms, save_json  # noqa: E402

art, out, commit, date = sys.argv[1:5]
torch.backends.cuda.matmul.allow_tf32 = False

rows = []
for path in sorted(glob.glob(os.path.join(art, "mm_*.json"))):
    r = json.load(open(path))
    f = r["functions"][0]
    m, n, k = (int(x) for x in f["name"][3:].split("x"))
    a = torch.randn(m, k, device="cuda")
    b = torch.randn(k, n, device="cuda")
    c = torch.empty(m, n, device="cuda")
    base = median_ms(lambda: torch.matmul(a, b, out=c), warmup=5, reps=20)
    ms = f["time_ms"]["median"]
    rows.append({"shape": f"{m}x{n}x{k}", "status": f["status"],
                 "rel_l2": max(o["rel_l2"] for o in f["outputs"]),
                 "hidet_ms": ms, "hidet_TFLOPs": 2 * m * n * k / ms / 1e9,
                 "cublas_ms": base, "ratio": base / ms,
                 "schedule": open(path[:-5] + ".schedule").read().strip()})
geo = geomean(r["ratio"] for r in rows)
res = {"date": date, "commit": commit, "device": torch.cuda.get_device_name(),
       "torch": torch.__version__, "rows": rows, "geomean_ratio": geo}
md_path = save_json(out, "matmul-simt", res)
with open(md_path, "w") as md:
    md.write(f"# SIMT f32 matmul template vs cuBLAS, TF32 off ({date})\n\n")
    md.write(f"GPU: {res['device']}; commit {commit}; torch {res['torch']}. "
             "Each kernel checked against the CPU reference before timing; "
             "GPU times, median of 20, each queued behind a GPU sleep; "
             "default schedules (no tuning).\n\n")
    md.write(f"- geometric mean of the ratios: **{geo:.2f}x** cuBLAS\n\n")
    md.write("| M x N x K | check | rel. L2 | hidet ms | TFLOP/s | cuBLAS ms | "
             "ratio to cuBLAS | schedule |\n|---|---|---|---|---|---|---|---|\n")
    for r in rows:
        md.write(f"| {r['shape']} | {r['status']} | {r['rel_l2']:.1e} | "
                 f"{r['hidet_ms']:.4f} | {r['hidet_TFLOPs']:.1f} | "
                 f"{r['cublas_ms']:.4f} | {r['ratio']:.2f}x | "
                 f"`{r['schedule']}` |\n")
print(open(md_path).read())
