# Writes conv-stages-sweep-<gpu>.{json,md} (e.g. conv-stages-sweep-h100):
# per ResNet-50 3x3 layer, the heuristic's schedule, the same with the
# filter by cp.async (wgmma-tma-b=0) and the heuristic's tile at each stage
# count that fits, each checked before it was timed, against cuDNN timed in
# the same run.
#   report.py <artifact-dir> <out-dir> <commit> <date>
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from timing import cudnn_conv, save_json  # noqa: E402

import torch  # noqa: E402

art, out, commit, date = sys.argv[1:5]
layers = {}
for path in sorted(glob.glob(os.path.join(art, "conv_*.json"))):
    name = os.path.basename(path)[:-5]
    layer, variant = name.rsplit("_", 1)
    f = json.load(open(path))["functions"][0]
    layers.setdefault(layer, {})[variant] = {
        "status": f["status"], "rel_l2": max(o["rel_l2"] for o in f["outputs"]),
        "ms": f["time_ms"]["median"],
        "schedule": open(os.path.join(art, name + ".schedule")).read().strip()}
for path in sorted(glob.glob(os.path.join(art, "conv_*.skipped"))):
    layer, variant = os.path.basename(path)[:-8].rsplit("_", 1)
    # The verifier's reason, after its "does not fit the target (chip): ".
    lines = [ln.rsplit("): ", 1)[-1] for ln in open(path).read().splitlines() if "error" in ln]
    layers.setdefault(layer, {})[variant] = {"status": "skipped", "ms": None,
                                             "error": (lines or [""])[0][-200:]}
rows = []
for layer, variants in sorted(layers.items()):
    base, (c, h, k, r, s, n), flops = cudnn_conv(layer)
    default = variants.get("default", {}).get("ms")
    rows.append({"layer": layer, "shape": f"{c}x{h}x{h} -> {k}, {r}x{r}, s{s}", "batch": n,
                 "cudnn_ms": base, "variants": variants,
                 "best": min((v for v in variants.values() if v["ms"] and v["status"] == "PASS"),
                             key=lambda v: v["ms"], default=None),
                 "default_ms": default})
res = {"date": date, "commit": commit, "device": torch.cuda.get_device_name(),
       "torch": torch.__version__, "cudnn": torch.backends.cudnn.version(), "rows": rows}
md_path = save_json(out, "conv-stages-sweep", res)


def order(v):
    """default, cp-async-b, arrive, then s3..s8 and arrive-s3..arrive-s8."""
    for rank, prefix in ((1, "s"), (2, "arrive-s")):
        if v.startswith(prefix) and v[len(prefix):].isdigit():
            return (rank, int(v[len(prefix):]), v)
    return (0, ["default", "cp-async-b", "arrive"].index(v) if v in
            ("default", "cp-async-b", "arrive") else 9, v)


with open(md_path, "w") as md:
    md.write(f"# Hopper template: stages on the ResNet-50 3x3 convolutions, f16 ({date})\n\n"
             f"GPU: {res['device']}; commit {commit}; torch {res['torch']}, cuDNN "
             f"{res['cudnn']}. `bench/conv-stages/run.sh`: each layer of `bench/conv-mma` "
             "(batch 32, NHWC/HWCF, pre-padded input) with the heuristic's schedule "
             "(default), the same with the filter by cp.async too (`wgmma-tma-b=0`), and the "
             "heuristic's tile at every stage count from 3 to 8 that fits (sN), and those with "
             "the copies arriving on their stage by themselves (`wgmma-async-arrive=1`: arrive, "
             "arrive-sN); `hidet-run`, "
             "each kernel checked against a naive GPU kernel with f32 accumulation before "
             "timing, median of 30, each behind a GPU sleep; cuDNN (`conv2d`, channels_last, "
             "cudnn.benchmark, padding inside) timed again in the same run the same way.\n\n"
             "| layer | variant | schedule | check | ms | vs default | vs cuDNN |\n"
             "|---|---|---|---|---|---|---|\n")
    for row in rows:
        for v in sorted(row["variants"], key=order):
            x = row["variants"][v]
            if x["status"] == "skipped":
                md.write(f"| {row['shape']} | {v} | - | does not fit: {x['error']} | - | - | - |\n")
                continue
            vs_default = f"{row['default_ms'] / x['ms']:.3f}x" if row["default_ms"] else "-"
            md.write(f"| {row['shape']} | {v} | `{x['schedule']}` | {x['status']}, "
                     f"{x['rel_l2']:.1e} | {x['ms']:.4f} | {vs_default} | "
                     f"{row['cudnn_ms'] / x['ms']:.2f}x |\n")
        md.write(f"| {row['shape']} | cuDNN | | | {row['cudnn_ms']:.4f} | | |\n")
print(open(md_path).read())
