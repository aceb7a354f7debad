# Reads what bench/tuning-models/run.sh measured (per model: the tuning's
# phases and picks, the default and the tuned library timed twice
# alternately) and writes OUT/tuning.{json,md} (f16 models) or
# OUT/tuning-<precisions>.{json,md}.
#   report.py <artifact-dir> <out-dir> <commit> <date> [<cpu-dir> <cpu-commit>]
# <cpu-dir>, where given, holds <name>/tune.log of the same models planned
# and compiled on the CPU machine (utils/tune-model.sh --phase plan, then
# --phase compile) at <cpu-commit>: its compile times are reported beside
# the GPU machine's.
import glob
import json
import math
import os
import re
import sys

art, out, commit, date = sys.argv[1:5]
cpu_dir = sys.argv[5] if len(sys.argv) > 5 else None
cpu_commit = sys.argv[6] if len(sys.argv) > 6 else "?"


def phase(log, name):
    """Seconds of a tune-model.sh phase from its summary line."""
    m = re.search(rf"^{name}: .*?([0-9.]+) s", log, re.M)
    return float(m.group(1)) if m else None


def checked_rounds(log):
    m = re.search(r"^check: (\d+) rounds", log, re.M)
    return int(m.group(1)) if m else None


def eliminated(log):
    """Early elimination's line in a tune.log, or None without --first-pass."""
    m = re.search(r"^(\d+) of (\d+) rounds eliminated after (\d+) runs", log, re.M)
    return {"rounds": int(m.group(1)), "of": int(m.group(2)),
            "first_pass_runs": int(m.group(3))} if m else None


def read(path):
    with open(path) as f:
        return f.read()


rows, device = [], None
for done in sorted(glob.glob(os.path.join(art, "*", "done"))):
    d = os.path.dirname(done)
    name = os.path.basename(d)
    runs = {v: json.load(open(os.path.join(d, f"{v}.json"))) for v in ("default", "tuned")}
    device = device or runs["default"].get("device")
    funcs = {v: r["functions"][0] for v, r in runs.items()}
    summary = json.load(open(os.path.join(d, "tune", "summary.json")))
    log = read(os.path.join(d, "tune.log"))
    rounds = re.search(r"^plan: (\d+) rounds", log, re.M)
    anchors = summary.get("anchors", [])
    dms, tms = funcs["default"]["time_ms"]["median"], funcs["tuned"]["time_ms"]["median"]
    row = {
        "model": name, "rounds": int(rounds.group(1)) if rounds else None,
        "signatures": len(anchors),
        "signatures_faster_than_default": sum(
            1 for a in anchors if a.get("schedule") != a.get("default_schedule")),
        "plan_s": phase(log, "plan"), "compile_s": phase(log, "compile"),
        "measure_s": phase(log, "measure"), "check_s": phase(log, "check"),
        "checked_rounds": checked_rounds(log),
        "eliminated": eliminated(log),
        "one_process": re.search(r"^measure: .* s in one process$", log, re.M) is not None,
        "default": {"status": funcs["default"]["status"], "median_ms": dms,
                    "cuda_graph": funcs["default"].get("cuda_graph")},
        "tuned": {"status": funcs["tuned"]["status"], "median_ms": tms,
                  "cuda_graph": funcs["tuned"].get("cuda_graph")},
        "speedup": dms / tms,
        "skipped_rounds": summary.get("skipped_rounds", []),
        "anchors": [{k: a.get(k) for k in ("kernels", "candidates", "timed", "schedule",
                                           "default_schedule", "time_ms", "default_time_ms",
                                           "speedup")} for a in anchors],
    }
    row["measure_and_check_s"] = (row["measure_s"] or 0) + (row["check_s"] or 0)
    # The hidet-run arguments of its checks (bench/models/checks.sh), None
    # where the model's directory has no checks file.
    checks = os.path.join(d, "checks")
    row["checks"] = read(checks).strip() if os.path.exists(checks) else None
    if cpu_dir and os.path.exists(os.path.join(cpu_dir, name, "tune.log")):
        cpu_log = read(os.path.join(cpu_dir, name, "tune.log"))
        cpu_rounds = re.search(r"^plan: (\d+) rounds", cpu_log, re.M)
        row["cpu_rounds"] = int(cpu_rounds.group(1)) if cpu_rounds else None
        row["cpu_plan_s"] = phase(cpu_log, "plan")
        row["cpu_compile_s"] = phase(cpu_log, "compile")
        jobs = re.search(r"^compile: .* with (\d+) at a time", cpu_log, re.M)
        row["cpu_jobs"] = int(jobs.group(1)) if jobs else None
    rows.append(row)

speedups = [r["speedup"] for r in rows]
res = {"date": date, "commit": commit, "gpu": device,
       "tool": "bench/tuning-models/run.sh (utils/tune-model.sh --space small: hidet-compile "
               "--tuning-plan, hidet-run --profile 10, hidet-tune to-check and records)",
       "models": rows,
       "geomean_speedup": math.exp(sum(math.log(s) for s in speedups) / len(speedups))
       if speedups else None}
# f16 models report as tuning.{json,md}, others by their precisions
# (tuning-f32.{json,md}), so that one precision's results do not replace
# another's.
precisions = sorted({r["model"].rsplit("-", 1)[-1] for r in rows})
stem = "tuning" if precisions in ([], ["f16"]) else "tuning-" + "-".join(precisions)
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, stem + ".json"), "w") as f:
    json.dump(res, f, indent=1)
    f.write("\n")


def fmt(x, f="{:.1f}"):
    return "-" if x is None else f.format(x)


with open(os.path.join(out, stem + ".md"), "w") as md:
    md.write(f"# Tuning whole models on the {device} ({date})\n\n")
    md.write(
        f"Commit {commit}. `bench/tuning-models/run.sh`: each model from "
        "`utils/models/generate.py` (random weights, seed 0) tuned by `utils/tune-model.sh "
        "--space small` on the GPU machine (one work directory, which a later call resumes):\n\n"
        "- **plan**: `hidet-compile --tuning-plan` lists each distinct anchor signature, its "
        "small-space candidates (the heuristic's first) and one records file per round;\n"
        "- **compile**: one library per round, as many at a time as the machine has cores;\n"
        "- **measure**: `hidet-run --profile 10` of each round on the test inputs, outputs not "
        "read back;\n"
        "- **check**: the rounds whose candidates would win (`hidet-tune to-check`) run again "
        "with their outputs checked against PyTorch's float32 output (the checks of "
        "`bench/models`, `bench/models/checks.sh`: each element and the relative L2 error, "
        "bounds scaled to the output); a round that fails drops out and the next winners are "
        "checked;\n"
        "- **records**: `hidet-tune records`.\n\n"
        "The tuned library (`--tuning-records`) and the default are then timed in the same "
        "call: whole forwards as CUDA graph replays, median of 200, twice alternately, the "
        "second pair shown; both checked against the same outputs.\n\n")
    md.write("| model | rounds | signatures (tuned) | plan s | compile s | measure s | check s "
             "(rounds) | measure + check s | default ms | tuned ms | speed-up |\n")
    md.write("|---|---|---|---|---|---|---|---|---|---|---|\n")
    for r in rows:
        md.write(f"| {r['model']} | {r['rounds']} | {r['signatures']} "
                 f"({r['signatures_faster_than_default']}) | {fmt(r['plan_s'])} "
                 f"| {fmt(r['compile_s'])} | {fmt(r['measure_s'])} | {fmt(r['check_s'])} "
                 f"({fmt(r['checked_rounds'], '{}')}) | {fmt(r['measure_and_check_s'])} "
                 f"| {r['default']['median_ms']:.4f} ({r['default']['status']}) "
                 f"| {r['tuned']['median_ms']:.4f} ({r['tuned']['status']}) "
                 f"| **{r['speedup']:.3f}x** |\n")
    if res["geomean_speedup"]:
        md.write(f"\nGeometric mean of the speed-ups: **{res['geomean_speedup']:.3f}x**.\n")
    early = [r for r in rows if r.get("eliminated")]
    if early:
        md.write("\nEarly elimination (`--first-pass`: every round profiled that many times, "
                 "then the rounds `hidet-tune survivors` keeps profiled again; the measure "
                 "column includes both passes): " + "; ".join(
                     f"{r['model']} {r['eliminated']['rounds']} of {r['eliminated']['of']} "
                     f"rounds eliminated after {r['eliminated']['first_pass_runs']} runs"
                     for r in early) + ".\n")
    together = [r["model"] for r in rows if r.get("one_process")]
    if together:
        md.write("\nMeasured in one process (`--one-process`: one `hidet-run` for all rounds, a "
                 "new one after a round that fails with an error): " + ", ".join(together) + ".\n")
    cpu = [r for r in rows if r.get("cpu_compile_s") is not None]
    if cpu:
        md.write("\n## Compiling on the CPU machine\n\nThe same models planned and compiled "
                 "(`utils/tune-model.sh --phase plan`, then `--phase compile`, f16, external "
                 f"weights) on this project's 2-core CPU machine at commit {cpu_commit}, "
                 "nothing else running (its rounds are its own space's):\n\n"
                 "| model | rounds | plan s | compile s | at a time |\n|---|---|---|---|---|\n")
        for r in cpu:
            md.write(f"| {r['model']} | {fmt(r['cpu_rounds'], '{}')} | {fmt(r['cpu_plan_s'])} "
                     f"| {fmt(r['cpu_compile_s'])} | {fmt(r['cpu_jobs'], '{}')} |\n")
    for r in rows:
        md.write(f"\n## {r['model']}\n\n")
        if r["checks"]:
            md.write(f"Checked by `hidet-run {r['checks']}`.\n\n")
        if r["skipped_rounds"]:
            md.write("Skipped rounds: " + "; ".join(r["skipped_rounds"]) + "\n\n")
        md.write("| anchor | candidates (timed) | tuned schedule | ms | default ms | speed-up |\n"
                 "|---|---|---|---|---|---|\n")
        # Signatures whose kernels share their names are timed together (the
        # same sum in every round): one row for them.
        groups = {}
        for a in r["anchors"]:
            groups.setdefault(tuple(a["kernels"] or ["-"]), []).append(a)
        for kernels, same in groups.items():
            a = same[0]
            more = f" (+{len(kernels) - 1})" if len(kernels) > 1 else ""
            if len(same) > 1:
                more += f", {len(same)} signatures timed together"
            md.write(f"| `{kernels[0]}`{more} | {a['candidates']} ({a['timed']}) "
                     f"| `{a['schedule']}` | {fmt(a['time_ms'], '{:.4f}')} "
                     f"| {fmt(a['default_time_ms'], '{:.4f}')} "
                     f"| {fmt(a['speedup'], '{:.2f}x')} |\n")
print(f"tuning: {len(rows)} models, geomean {fmt(res['geomean_speedup'], '{:.3f}')}x")
