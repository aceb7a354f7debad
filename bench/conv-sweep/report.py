# Writes conv-sweep-<gpu>.{json,md} (e.g. conv-sweep-h200): per ResNet-50
# 3x3 layer, the variants of bench/conv-sweep/run.sh (the heuristic's
# schedule, its producer forms, stage counts, tiles and split-K factors),
# each checked before it was timed, against cuDNN timed in the same run.
#   report.py <artifact-dir> <out-dir> <commit> <date>
#   report.py --markdown <conv-sweep-gpu.json> <out.md>   # again, from the JSON
import glob
import json
import math
import os
import sys


def passed(v):
    return v["ms"] is not None and v["status"].lower() == "pass"


def measure(art, out, commit, date):
    """The report's record from the artifacts of `run.sh run`, cuDNN timed
    now; written to OUT/conv-sweep-<gpu>.json. Returns it and the path of
    its Markdown."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                    "common"))
    from timing import cudnn_conv, save_json
    import torch

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
        lines = [ln.rsplit("): ", 1)[-1] for ln in open(path).read().splitlines()
                 if "error" in ln]
        layers.setdefault(layer, {})[variant] = {"status": "skipped", "ms": None,
                                                 "error": (lines or [""])[0][-200:]}
    rows = []
    for layer, variants in sorted(layers.items()):
        base, (c, h, k, r, s, n), flops = cudnn_conv(layer)
        rows.append({"layer": layer, "shape": f"{c}x{h}x{h} -> {k}, {r}x{r}, s{s}",
                     "batch": n, "cudnn_ms": base, "variants": variants,
                     "default_ms": variants.get("default", {}).get("ms")})
    res = {"date": date, "commit": commit, "device": torch.cuda.get_device_name(),
           "torch": torch.__version__, "cudnn": torch.backends.cudnn.version(),
           "rows": rows}
    return res, save_json(out, "conv-sweep", res)


def order(v):
    """default, cp-async-b, wait; s3..s8; wait-s3..wait-s8; the tiles by tile
    and split."""
    for rank, prefix in ((1, "s"), (2, "wait-s")):
        if v.startswith(prefix) and v[len(prefix):].isdigit():
            return (rank, 0, int(v[len(prefix):]), v)
    if v.startswith("t") and "-k" in v:
        tile, split = v[1:].split("-k")
        m, n = tile.split("x")
        return (3, int(m) * 1000 + int(n), int(split), v)
    first = ("default", "cp-async-b", "wait")
    return (0, 0, first.index(v) if v in first else 9, v)


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def fastest(row):
    """The name of the row's fastest passing variant, or None."""
    ok = [v for v, x in row["variants"].items() if passed(x)]
    return min(ok, key=lambda v: row["variants"][v]["ms"], default=None)


def summary(rows):
    """The default's and the sweep's fastest passing variant against cuDNN,
    per layer and as geometric means (the fastest of many noisy timings is an
    optimistic estimate of what tuning finds)."""
    lines, ds, bs = [], [], []
    for row in rows:
        d, b = row["variants"].get("default"), fastest(row)
        text = f"- {row['shape']}:"
        if d and passed(d):
            ds.append(row["cudnn_ms"] / d["ms"])
            text += f" default {ds[-1]:.2f}x cuDNN,"
        if b:
            bs.append(row["cudnn_ms"] / row["variants"][b]["ms"])
            text += f" fastest {b} {bs[-1]:.2f}x"
        lines.append(text.rstrip(","))
    g = geomean(ds)
    head = (f"- geometric mean against cuDNN: default **{g:.2f}x** over {len(ds)} layers"
            if g else "- geometric mean against cuDNN: no default passed")
    if bs:
        head += f", the sweep's fastest per layer {geomean(bs):.2f}x"
    return "\n".join([head] + lines) + "\n"


def write_markdown(res, md_path):
    rows, date, commit = res["rows"], res["date"], res["commit"]
    with open(md_path, "w") as md:
        md.write(f"# Hopper template on the ResNet-50 3x3 convolutions: producer forms, "
                 f"stages, tiles and split-K, f16 ({date})\n\n"
                 f"GPU: {res['device']}; commit {commit}; torch {res['torch']}, cuDNN "
                 f"{res['cudnn']}. `bench/conv-sweep/run.sh`: each layer of `bench/conv-mma` "
                 "(batch 32, NHWC/HWCF, pre-padded input) with the heuristic's schedule "
                 "(default), the same with the filter by cp.async too (`wgmma-tma-b=0`) and "
                 "with the producer waiting for its copies instead of their arriving on their "
                 "stage by themselves (`wgmma-async-arrive=0`: wait), the heuristic's tile at "
                 "every stage count from 3 to 8 (sN, wait-sN), and 128 x 128, 128 x 256, "
                 "192 x 128 and pingpong 64 x 256 tiles at split-K 1 to 6 (tMxN-kS), or those "
                 "of them the run prepared; a schedule that does not fit is listed with the "
                 "verifier's reason. `hidet-run`, each kernel checked against a naive GPU "
                 "kernel with f32 accumulation before timing, median of 30, each behind a GPU "
                 "sleep; cuDNN (`conv2d`, channels_last, cudnn.benchmark, padding inside) "
                 "timed again in the same run the same way.\n\n")
        md.write(summary(rows) + "\n")
        md.write("| layer | variant | schedule | check | ms | vs default | vs cuDNN |\n"
                 "|---|---|---|---|---|---|---|\n")
        for row in rows:
            for v in sorted(row["variants"], key=order):
                x = row["variants"][v]
                if x["status"] == "skipped":
                    md.write(f"| {row['shape']} | {v} | - | does not fit: {x['error']} "
                             "| - | - | - |\n")
                    continue
                vs_default = (f"{row['default_ms'] / x['ms']:.3f}x" if row["default_ms"]
                              else "-")
                md.write(f"| {row['shape']} | {v} | `{x['schedule']}` | {x['status']}, "
                         f"{x['rel_l2']:.1e} | {x['ms']:.4f} | {vs_default} | "
                         f"{row['cudnn_ms'] / x['ms']:.2f}x |\n")
            md.write(f"| {row['shape']} | cuDNN | | | {row['cudnn_ms']:.4f} | | |\n")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--markdown":
        res, md_path = json.load(open(sys.argv[2])), sys.argv[3]
    elif len(sys.argv) == 5:
        res, md_path = measure(*sys.argv[1:5])
    else:
        sys.exit("usage: report.py ART OUT COMMIT DATE | report.py --markdown JSON OUT.md")
    write_markdown(res, md_path)
    print(open(md_path).read())
