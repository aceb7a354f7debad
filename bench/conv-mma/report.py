# Measures cuDNN (torch conv2d, f16, channels_last, cudnn.benchmark, the
# padding inside the convolution) for the ResNet-50 layers hidet-run timed,
# in the same run and with the same method, and writes
# conv-mma-<gpu>.{json,md} (e.g. conv-mma-h200). The hidet kernel reads a pre-padded input.
#   report.py <artifact-dir> <out-dir> <commit> <date>
import glob
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from timing import cudnn_conv, geomean, save_json  # noqa: E402

art, out, commit, date = sys.argv[1:5]

rows = []
for path in sorted(glob.glob(os.path.join(art, "conv_*.json"))):
    r = json.load(open(path))
    f = r["functions"][0]
    base, (c, h, k, rr, s, n), flops = cudnn_conv(f["name"])
    ms = f["time_ms"]["median"]
    sched = open(path[:-5] + ".schedule").read().strip()
    rows.append({"layer": f"{c}x{h}x{h} -> {k}, {rr}x{rr}, s{s}", "batch": n,
                 "status": f["status"],
                 "rel_l2": max(o["rel_l2"] for o in f["outputs"]),
                 "hidet_ms": ms, "hidet_TFLOPs": flops / ms / 1e9,
                 "cudnn_ms": base, "cudnn_TFLOPs": flops / base / 1e9,
                 "ratio": base / ms, "schedule": sched, "is_3x3": rr == 3})
three = [r["ratio"] for r in rows if r["is_3x3"]]
geo = geomean(three)
res = {"date": date, "commit": commit, "device": torch.cuda.get_device_name(),
       "torch": torch.__version__, "cudnn": torch.backends.cudnn.version(),
       "rows": rows, "geomean_ratio_3x3": geo}
md_path = save_json(out, "conv-mma", res)
with open(md_path, "w") as md:
    md.write(f"# Implicit-GEMM convolution vs cuDNN, f16, ResNet-50 layers ({date})\n\n")
    md.write(f"GPU: {res['device']}; commit {commit}; torch {res['torch']}, "
             f"cuDNN {res['cudnn']}. NHWC/HWCF, default schedules (no "
             "tuning), the tensor-core template with the im2col indexing in "
             "its loads; the hidet kernel reads a pre-padded input, cuDNN "
             "(channels_last, cudnn.benchmark) pads inside the convolution. "
             "Each kernel checked against a naive GPU kernel with f32 "
             "accumulation before timing; median of 30, each queued behind a "
             "GPU sleep; cuDNN measured in the same run the same way.\n\n")
    if geo:
        md.write(f"- geometric mean of the ratios over the 3x3 layers: **{geo:.2f}x** cuDNN\n\n")
    md.write("| layer | batch | check | rel. L2 | hidet ms | TFLOP/s | cuDNN ms | "
             "cuDNN TFLOP/s | ratio | schedule |\n|---|---|---|---|---|---|---|---|---|---|\n")
    for r in rows:
        md.write(f"| {r['layer']} | {r['batch']} | {r['status']} | {r['rel_l2']:.1e} | "
                 f"{r['hidet_ms']:.4f} | {r['hidet_TFLOPs']:.1f} | {r['cudnn_ms']:.4f} | "
                 f"{r['cudnn_TFLOPs']:.1f} | {r['ratio']:.2f}x | `{r['schedule']}` |\n")
print(open(md_path).read())
