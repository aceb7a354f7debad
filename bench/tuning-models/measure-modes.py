# The comparison of bench/tuning-models/measure-modes.sh: per mode, the
# measuring phase's seconds, the rounds early elimination left out, the
# checks, the picks (and whether they are the per-round mode's) and the
# tuned model against its default, from each mode's run.sh report
# (DIR/report-<mode>/tuning*.json). Writes
# OUT/tuning-measure-modes-<gpu>.{json,md}.
#   measure-modes.py DIR OUT COMMIT DATE FIRST-PASS
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from timing import save_json  # noqa: E402

art, out, commit, date, first_pass = sys.argv[1:6]
MODES = ("per-round", "one-process", "first-pass")
rows = []
for mode in MODES:
    paths = sorted(glob.glob(os.path.join(art, "report-" + mode, "tuning*.json")))
    if not paths:
        rows.append({"mode": mode, "status": "no report"})
        continue
    doc = json.load(open(paths[0]))
    model = doc["models"][0] if doc.get("models") else None
    if model is None:
        rows.append({"mode": mode, "status": "no model"})
        continue
    rows.append({"mode": mode, "status": "ok", "device": doc.get("gpu"),
                 "model": model["model"], "rounds": model["rounds"],
                 "measure_s": model["measure_s"], "check_s": model["check_s"],
                 "eliminated": model["eliminated"], "one_process": model["one_process"],
                 "default_ms": model["default"]["median_ms"],
                 "tuned_ms": model["tuned"]["median_ms"], "speedup": model["speedup"],
                 "picks": {"|".join(a["kernels"]): a["schedule"] for a in model["anchors"]}})
base = next((r for r in rows if r["mode"] == "per-round" and r["status"] == "ok"), None)
for r in rows:
    if r["status"] == "ok" and base:
        r["picks_as_per_round"] = sum(1 for k, v in r["picks"].items()
                                      if base["picks"].get(k) == v)
device = next((r["device"] for r in rows if r.get("device")), "unknown GPU")
res = {"date": date, "commit": commit, "device": device, "first_pass_runs": int(first_pass),
       "modes": rows}
md_path = save_json(out, "tuning-measure-modes", res)


def fmt(x, spec):
    return "-" if x is None else spec.format(x)


with open(md_path, "w") as md:
    md.write(f"# Measuring the tuning rounds: per round, in one process, with early "
             f"elimination ({date})\n\nGPU: {device}; commit {commit}. "
             "`bench/tuning-models/measure-modes.sh`: one model's rounds compiled once "
             "(`run.sh --compile-only`), then measured, checked and recorded three ways in "
             "copies of that directory: one `hidet-run` process per round, all rounds in one "
             "process (`--one-process`), and one process with early elimination "
             f"(`--one-process --first-pass {first_pass}`); each tuned model timed against "
             "its default as `run.sh` does (CUDA graph replays, median of 200, the second of "
             "two alternating pairs).\n\n"
             "| mode | rounds | measure s | eliminated | check s | picks as per round | "
             "default ms | tuned ms | tuned / default |\n|---|---|---|---|---|---|---|---|---|\n")
    for r in rows:
        if r["status"] != "ok":
            md.write(f"| {r['mode']} | {r['status']} | | | | | | | |\n")
            continue
        el = r["eliminated"]
        md.write(f"| {r['mode']} | {r['rounds']} | {fmt(r['measure_s'], '{:.1f}')} | "
                 f"{'%d of %d' % (el['rounds'], el['of']) if el else '-'} | "
                 f"{fmt(r['check_s'], '{:.1f}')} | "
                 f"{r.get('picks_as_per_round', '-')} of {len(r['picks'])} | "
                 f"{r['default_ms']:.4g} | {r['tuned_ms']:.4g} | {r['speedup']:.3f}x |\n")
print(open(md_path).read())
