# The report of bench/models/ab.sh: per variant its check, its medians in
# each round and its time against the first variant's.
#   ab_report.py OUT CFG COMMIT DATE GPU ROUNDS VARIANT...
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from timing import save_json  # noqa: E402

out, cfg, commit, date, device, rounds = sys.argv[1:7]
variants = sys.argv[7:]
rows = []
for v in variants:
    name, _, args = v.partition("=")
    row = {"variant": name, "args": args, "rounds": []}
    for r in range(1, int(rounds) + 1):
        try:
            f = json.load(open(os.path.join(out, "ab-raw", f"{name}.{r}.json")))["functions"][0]
        except (OSError, ValueError, KeyError, IndexError):
            row["rounds"].append({"status": "error", "median_ms": None})
            continue
        worst = max((o.get("expected", {}).get("max_abs") or 0.0 for o in f.get("outputs", [])),
                    default=None)
        row["rounds"].append({"status": f.get("status"), "max_abs": worst,
                              "median_ms": (f.get("time_ms") or {}).get("median")})
    ok = [x["median_ms"] for x in row["rounds"] if x["status"] == "pass" and x["median_ms"]]
    row["status"] = "pass" if len(ok) == len(row["rounds"]) else "fail"
    # The last round's median: the earlier ones warm the GPU's clocks too.
    row["ms"] = row["rounds"][-1]["median_ms"] if row["status"] == "pass" else None
    rows.append(row)
res = {"date": date, "commit": commit, "device": device, "config": cfg, "rows": rows}
os.makedirs(out, exist_ok=True)
md_path = save_json(out, f"ab-{cfg}", res)
base = rows[0]["ms"]
with open(md_path, "w") as md:
    md.write(f"# {cfg}: hidet compiled {len(rows)} ways ({date})\n\n"
             f"GPU: {device}; commit {commit}. `bench/models/ab.sh`: each variant compiled "
             "by hidet-compile with its arguments, checked against PyTorch's float32 output "
             "and timed as a CUDA graph replay (median of 200), the variants in turns for "
             f"{rounds} rounds; the last round's median is compared with the first "
             "variant's.\n\n| variant | hidet-compile arguments | check | ms per round | "
             f"against {rows[0]['variant']} |\n|---|---|---|---|---|\n")
    for row in rows:
        per = ", ".join(f"{x['median_ms']:.4f}" if x["median_ms"] else "-" for x in row["rounds"])
        vs = f"{base / row['ms']:.3f}x" if base and row["ms"] else "-"
        md.write(f"| {row['variant']} | `{row['args'] or '-'}` | {row['status']} | {per} | {vs} |\n")
print(open(md_path).read())
