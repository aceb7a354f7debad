# Writes wgmma-pingpong-sweep-<gpu>.{json,md} (e.g.
# wgmma-pingpong-sweep-h200): per shape and function, the heuristic's
# schedule, cooperative 128 x 256 tiles (persistent) and pingpong 64 x 256
# tiles, each checked before it was timed.
#   report.py <artifact-dir> <out-dir> <commit> <date>
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from timing import save_json  # noqa: E402

import torch  # noqa: E402

art, out, commit, date = sys.argv[1:5]
rows = {}
for path in sorted(glob.glob(os.path.join(art, "*.json"))):
    name = os.path.basename(path)[:-5]
    kind_shape, variant = name.rsplit("_", 1)
    kind, shape = kind_shape.rsplit("_", 1)
    f = json.load(open(path))["functions"][0]
    rows.setdefault((kind, shape), {})[variant] = {
        "status": f["status"], "rel_l2": max(o["rel_l2"] for o in f["outputs"]),
        "ms": f["time_ms"]["median"],
        "schedule": open(os.path.join(art, name + ".schedule")).read().strip()}
res = {"date": date, "commit": commit, "device": torch.cuda.get_device_name(),
       "rows": [{"function": k, "shape": s, **v} for (k, s), v in sorted(rows.items())]}
md_path = save_json(out, "wgmma-pingpong-sweep", res)
with open(md_path, "w") as md:
    md.write(f"# Hopper template: pingpong vs the heuristic's tiles, f16 ({date})\n\n"
             f"GPU: {res['device']}; commit {commit}. `hidet-run`, each kernel checked "
             "against naive GPU kernels with f32 accumulation before timing; median "
             "of 30, each behind a GPU sleep. Cooperative: `block = [128, 256], stages = 4, "
             "swizzle = 8, persistent = true`; pingpong: `block = [64, 256], stages = 4, "
             "swizzle = 8, persistent = true, pingpong = true`.\n\n"
             "| function | M x N x K | default ms | cooperative ms | pingpong ms | checks | default schedule |\n"
             "|---|---|---|---|---|---|---|\n")
    for (kind, shape), v in sorted(rows.items()):
        d, c, p = v["default"], v["cooperative"], v["pingpong"]
        checks = "/".join(x["status"] for x in (d, c, p))
        md.write(f"| {kind} | {shape} | {d['ms']:.4f} | {c['ms']:.4f} | {p['ms']:.4f} | "
                 f"{checks} | `{d['schedule']}` |\n")
print(open(md_path).read())
