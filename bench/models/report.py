#!/usr/bin/env python3
"""Report of the models benchmark (bench/models/run.sh).

Reads what run.sh left in RESULTS (W/results: for each configuration
<model>_b<batch>_<precision>, the compile status and seconds, hidet-run's
JSON, the relative L2 error of hidet's outputs, PyTorch's JSON lines and the
logs) and writes:

    OUT/models.json  date, GPU, commit; per model, batch and precision:
                     hidet's median ms, check status and errors, compile
                     seconds, kernels per forward and memory; each PyTorch
                     variant's median ms, compile seconds and peak memory;
                     the speed-up of hidet over the best PyTorch variant
    OUT/models.md    tables per precision, the geometric mean of the f16
                     speed-ups, memory, compile times and kernels, failures
    OUT/models.png   the speed-ups as bars (matplotlib; skipped without it)

Usage:
    report.py RESULTS OUT COMMIT DATE
    report.py --plot OUT/models.json PNG   # the chart again, from the JSON
    report.py --add-torch MODELS.json RESULTS OUT
        # MODELS.json with the PyTorch variants measured later in RESULTS
        # (run.sh run --no-hidet) in place of its own: OUT/models.{json,md,png}
    report.py --keep-torch OLD.json NEW.json OUT
        # NEW's report with the PyTorch variants it did not measure (a run
        # with --torch eager,compile) taken from OLD where OLD measured them
        # on the same kind of GPU and PyTorch: OUT/models.{json,md,png}
    report.py --compile-times RESULTS OUT COMMIT DATE MODELS BATCHES PRECISIONS
        # compile-times.sh's results (comma-separated lists) as
        # OUT/models-compile-cpu.{json,md}
"""
import json
import os
import sys

from model_tables import label, plot, write_md
from model_results import (TORCH_KEYS, MiB, collect, fmt, geomeans, gpu_name, read_json, score,
                     torch_records)

def report(res, out, commit, date):
    settings = read_json(os.path.join(res, "settings.json")) or {}
    rows = collect(res, settings)
    devices = [r["hidet"]["device"] for r in rows if r["hidet"] and r["hidet"].get("device")]
    devices += [r["_torch_meta"].get("device") for r in rows if r["_torch_meta"].get("device")]
    device = max(set(devices), key=devices.count) if devices else "unknown GPU"
    meta = next((r["_torch_meta"] for r in rows if r["_torch_meta"].get("torch")), {})
    for r in rows:
        del r["_torch_meta"]
    doc = {"date": date, "commit": commit, "device": device, "gpu": gpu_name(device),
           "torch": meta.get("torch"), "cuda": meta.get("cuda"), "triton": meta.get("triton"),
           "settings": settings, "geomean_speedup": geomeans(rows), "results": rows}
    write_report(doc, out)


def add_torch(models_json, res, out):
    """An earlier report with the PyTorch variants that a later run.sh call
    (--no-hidet, e.g. max-autotune, minutes per configuration) measured in
    RESULTS on the same kind of GPU: those replace the report's records of
    the same variants; hidet's side stays as it was measured."""
    with open(models_json) as f:
        doc = json.load(f)
    added = []
    for r in doc["results"]:
        cfg = "%s_b%d_%s" % (r["model"], r["batch"], r["precision"])
        new = torch_records(res, cfg)
        for v, rec in new.items():
            for key in ("device", "torch"):
                if rec.get(key) and rec[key] != doc[key]:
                    raise SystemExit("report.py: %s %s was measured with %s %s, the report "
                                     "with %s" % (cfg, v, key, rec[key], doc[key]))
            r["torch"][v] = {k: rec.get(k) for k in TORCH_KEYS}
            added.append("%s %s" % (cfg, v))
        score(r)
    if not added:
        raise SystemExit("report.py: no PyTorch records for the report's configurations in " + res)
    doc["geomean_speedup"] = geomeans(doc["results"])
    write_report(doc, out)
    print("report.py: added %s" % ", ".join(added), file=sys.stderr)


def keep_torch(old_json, new_json, out):
    """A new report (hidet, eager and compile measured again) with the
    variants it did not measure (max-autotune, minutes per configuration)
    kept from an earlier report of the same GPU and PyTorch. The records
    keep their own times, which models.md lists per variant."""
    docs = []
    for path in (old_json, new_json):
        with open(path) as f:
            docs.append(json.load(f))
    old, doc = docs
    for key in ("device", "torch"):
        if old.get(key) != doc.get(key):
            raise SystemExit("report.py: %s was measured with %s %s, %s with %s" % (
                old_json, key, old.get(key), new_json, doc.get(key)))
    earlier = {(r["model"], r["batch"], r["precision"]): r for r in old["results"]}
    kept = []
    for r in doc["results"]:
        prev = earlier.get((r["model"], r["batch"], r["precision"]))
        if not prev:
            continue
        for v, rec in (prev["torch"] or {}).items():
            mine = (r["torch"] or {}).get(v)
            if rec.get("status") in (None, "not-run") or (
                    mine and mine.get("status") not in (None, "not-run")):
                continue
            r["torch"][v] = rec
            kept.append("%s_b%d_%s %s" % (r["model"], r["batch"], r["precision"], v))
        score(r)
    if not kept:
        raise SystemExit("report.py: %s has no PyTorch variant that %s lacks" % (old_json, new_json))
    doc["geomean_speedup"] = geomeans(doc["results"])
    write_report(doc, out)
    print("report.py: kept from %s: %s" % (old_json, ", ".join(kept)), file=sys.stderr)


def write_report(doc, out):
    rows = doc["results"]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "models.json"), "w") as f:
        json.dump(doc, f, indent=2)
    write_md(os.path.join(out, "models.md"), doc, rows)
    plot(doc, os.path.join(out, "models.png"))
    with open(os.path.join(out, "models.md")) as f:
        print(f.read())


def compile_times_report(res, out, commit, date, models, batches, precisions):
    """compile-times.sh's results (per configuration: .status, GNU time's
    "seconds KiB" in .time, .size, .records, .log; the exporter's versions
    in `exporter`) as OUT/models-compile-cpu.{json,md}."""
    def read(name):
        try:
            with open(os.path.join(res, name)) as f:
                return f.read().strip()
        except OSError:
            return None

    cpu = None
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f
                        if ln.startswith("model name")), None)
    except OSError:
        pass
    rows = []
    for m in models.split(","):
        for b in batches.split(","):
            for p in precisions.split(","):
                cfg = "%s_b%s_%s" % (m, b, p)
                row = {"model": m, "batch": int(b), "precision": p,
                       "status": read(cfg + ".status") or "not-run", "seconds": None,
                       "peak_rss_mib": None, "library_mib": None,
                       "tuning_records": read(cfg + ".records")}
                t = (read(cfg + ".time") or "").splitlines()
                if t and len(t[-1].split()) == 2:
                    row["seconds"] = float(t[-1].split()[0])
                    row["peak_rss_mib"] = int(t[-1].split()[1]) / 1024.0
                size = read(cfg + ".size")
                if size:
                    row["library_mib"] = int(size) / MiB
                if row["status"] != "ok":
                    row["error"] = " | ".join((read(cfg + ".log") or "").splitlines()[-3:])[-300:]
                rows.append(row)
    doc = {"date": date, "commit": commit, "cpus": os.cpu_count(), "cpu": cpu,
           "exporter": read("exporter"), "results": rows}
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "models-compile-cpu.json"), "w") as f:
        json.dump(doc, f, indent=2)
    lines = [
        "# hidet-compile on the models, on a CPU machine (%s)" % date, "",
        "Commit %s; %s CPUs (%s). `bench/models/compile-times.sh`: each model of `bench/models` "
        "exported by `utils/models/generate.py` on this machine (random weights, seed 0; %s), "
        "then compiled one configuration at a time as `bench/models/run.sh` compiles it "
        "(`hidet-compile model.onnx [--precision=f16|bf16] --external-weights`, with a configuration's "
        "tuning records where marked), nothing else running: wall seconds and peak resident "
        "memory (GNU time). The kernels of each library and their times on the GPU are in "
        "`models.md`." % (commit, doc["cpus"], cpu, doc["exporter"]), "",
        "| model | batch | precision | compile s | peak MiB | library MiB | status |",
        "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %d | %s | %s | %s | %s | %s |" % (
            label(r), r["batch"], r["precision"] + (" (tuned)" if r["tuning_records"] else ""),
            fmt(r["seconds"], "%.1f"), fmt(r["peak_rss_mib"], "%.0f"),
            fmt(r["library_mib"], "%.1f"),
            r["status"] if r["status"] == "ok" else "%s: %s" % (r["status"], r.get("error", ""))))
    ok = [r["seconds"] for r in rows if r["status"] == "ok" and r["seconds"] is not None]
    if ok:
        lines += ["", "Total: %.0f s for %d compilations; the longest %.1f s." % (
            sum(ok), len(ok), max(ok))]
    with open(os.path.join(out, "models-compile-cpu.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def main(argv):
    if len(argv) == 8 and argv[0] == "--compile-times":
        compile_times_report(*argv[1:])
        return 0
    if len(argv) == 4 and argv[0] == "--add-torch":
        add_torch(*argv[1:])
        return 0
    if len(argv) == 4 and argv[0] == "--keep-torch":
        keep_torch(*argv[1:])
        return 0
    if len(argv) == 3 and argv[0] == "--plot":
        with open(argv[1]) as f:
            return 0 if plot(json.load(f), argv[2]) else 1
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    report(*argv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
