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
import math
import os
import re
import sys

PRECISIONS = ("f16", "f32")
VARIANTS = ("eager", "compile", "max-autotune")
MODEL_ORDER = ("bert", "gpt2", "resnet50", "vit", "mobilenetv2", "efficientnet_b0")
# The models whose speed-ups the geometric means are taken over.
HEADLINE_MODELS = ("bert", "gpt2", "resnet50")
MODEL_LABELS = {
    "bert": "BERT-base",
    "gpt2": "GPT-2 small",
    "resnet50": "ResNet-50",
    "vit": "ViT-B/16",
    "mobilenetv2": "MobileNetV2",
    "efficientnet_b0": "EfficientNet-B0",
}
MODEL_DESCRIPTIONS = {
    "bert": "BERT-base encoder (12 layers, hidden 768, seq 128, vocabulary 30522; "
            "output last_hidden_state)",
    "gpt2": "GPT-2 small (12 layers, seq 128, tied lm_head; output logits over 50257)",
    "resnet50": "torchvision ResNet-50 (224x224, 1000 classes)",
    "vit": "torchvision ViT-B/16 (224x224, patch 16, 12 layers, hidden 768)",
    "mobilenetv2": "torchvision MobileNetV2 (224x224)",
    "efficientnet_b0": "torchvision EfficientNet-B0 (224x224)",
}
CFG = re.compile(r"^(?P<model>[a-z0-9_]+?)_b(?P<batch>\d+)_(?P<precision>f16|f32)\.(?P<kind>.+)$")
GEN = re.compile(r"^(?P<model>[a-z0-9_]+?)_b(?P<batch>\d+)\.gen\.log$")
MiB = float(1 << 20)


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------

def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def log_tail(path, lines=4, width=300):
    """The last non-empty lines of a log, joined (None without the file)."""
    try:
        with open(path, errors="replace") as f:
            text = [ln.rstrip() for ln in f.read().splitlines() if ln.strip()]
    except OSError:
        return None
    return " | ".join(text[-lines:])[-width:] or None


def check_lines(path, width=400):
    """hidet-run's lines about a failed check or an error (not its profile)."""
    try:
        with open(path, errors="replace") as f:
            found = [ln.strip() for ln in f if re.search(r"MISMATCH|FAIL|error", ln)]
    except OSError:
        return None
    return " | ".join(found)[:width] or None


def gpu_name(device):
    """"NVIDIA H100 80GB HBM3" -> "h100" (as bench/common/timing.py)."""
    m = re.search(r"\b([A-Z]{1,2}[0-9]{2,4}[A-Z]?)\b", device or "")
    if m:
        return m.group(1).lower()
    return re.sub(r"[^a-z0-9]+", "-", (device or "unknown").lower()).strip("-")


def hidet_record(res, cfg):
    """hidet's side of one configuration, or None when it was not run."""
    base = os.path.join(res, cfg)
    compile_line = None
    try:
        with open(base + ".compile") as f:
            compile_line = f.read().split()
    except OSError:
        pass
    report = read_json(base + ".hidet.json")
    if compile_line is None and report is None:
        return None
    rec = {"status": None, "median_ms": None, "min_ms": None, "mean_ms": None, "reps": None,
           "timing": None, "max_abs": None, "mismatches": None, "rel_l2": None,
           "max_abs_rel": None, "rtol": None, "atol": None, "compile_status": None,
           "compile_s": None, "kernels": None, "memory": None, "device": None, "error": None,
           "profile": None, "commit": None, "tuning_records": None, "gpu": None}
    if compile_line:
        rec["compile_status"] = compile_line[0]
        try:
            rec["compile_s"] = float(compile_line[1])
        except (IndexError, ValueError):
            pass
    cstatus = rec["compile_status"]
    if cstatus == "no-model":
        rec["status"] = "no-model"
        model_batch = cfg.rsplit("_", 1)[0]
        rec["error"] = "export failed: " + (log_tail(os.path.join(res, model_batch + ".gen.log"))
                                            or "see generate.py's log")
        return rec
    if cstatus == "not-run":
        rec["status"] = "not-run"
        rec["error"] = "not compiled: the run stopped before (run.sh --deadline)"
        return rec
    if cstatus is not None and cstatus != "ok":
        rec["status"] = "compile-" + cstatus
        rec["error"] = log_tail(base + ".compile.log")
        return rec
    try:
        with open(base + ".run.mode") as f:
            rec["timing"] = f.read().strip() or None
    except OSError:
        pass
    rc = None
    try:
        with open(base + ".run.rc") as f:
            rc = int(f.read().strip())
    except (OSError, ValueError):
        pass
    if report is None:
        rec["status"] = {None: "not-run", 124: "timeout", 137: "timeout"}.get(rc, "error")
        rec["error"] = log_tail(base + ".run.log") or \
            "no hidet-run result (the run stopped before: run.sh --deadline)"
        return rec
    rec["device"] = report.get("device")
    try:
        with open(base + ".records") as f:
            rec["tuning_records"] = f.read().strip() or None
    except OSError:
        pass
    try:
        with open(base + ".commit") as f:
            rec["commit"] = f.read().strip() or None
    except OSError:
        rec["commit"] = None
    # The GPU of a run.sh --gpu run (None: the run saw all of them).
    try:
        with open(base + ".gpu") as f:
            rec["gpu"] = int(f.read().strip())
    except (OSError, ValueError):
        pass
    funcs = report.get("functions", report.get("funcs")) or []
    func = funcs[0] if funcs else {}
    status = func.get("status") or report.get("status") or "error"
    rec["status"] = status
    times = func.get("time_ms") or {}
    rec["median_ms"] = times.get("median")
    rec["min_ms"] = times.get("min")
    rec["mean_ms"] = times.get("mean")
    rec["reps"] = times.get("reps")
    # Elementwise closeness to the expected outputs (the worst output).
    for out in func.get("outputs") or []:
        exp = out.get("expected") or {}
        if exp.get("max_abs") is not None:
            rec["max_abs"] = max(rec["max_abs"] or 0.0, exp["max_abs"])
        if exp.get("mismatches") is not None:
            rec["mismatches"] = (rec["mismatches"] or 0) + exp["mismatches"]
        rec["rtol"] = exp.get("rtol", rec["rtol"])
        rec["atol"] = exp.get("atol", rec["atol"])
    # Added to hidet-run's JSON per function (older ones: absent, null).
    kernels = func.get("kernels", report.get("kernels"))
    rec["kernels"] = kernels
    rec["profile"] = profile_summary(func.get("profile"))
    memory = func.get("memory", report.get("memory"))
    if isinstance(memory, dict):
        rec["memory"] = {k: memory.get(k) for k in
                         ("weights_bytes", "workspace_bytes", "intermediates_bytes")}
    errors = read_json(base + ".error.json")
    if errors and errors.get("outputs"):
        outs = errors["outputs"]
        rels = [o.get("rel_l2") for o in outs if o.get("rel_l2") is not None]
        mars = [o.get("max_abs_rel") for o in outs if o.get("max_abs_rel") is not None]
        rec["rel_l2"] = max(rels) if rels else None
        rec["max_abs_rel"] = max(mars) if mars else None
    if status != "pass":
        reason = report.get("reason")
        rec["error"] = reason or check_lines(base + ".run.log") or log_tail(base + ".run.log")
    return rec


# The kinds of kernel hidet-compile names its kernels by (<kind>_<ONNX node>):
# the template or rule that built it. Longer first, so that a prefix match
# finds the most specific.
KERNEL_KINDS = ("splitk_reduce", "reduce_rows", "row_group", "injective", "transpose",
                "attention", "reduce", "wgmma", "simt", "mma")


def kernel_kind(name):
    for kind in KERNEL_KINDS:
        if name == kind or name.startswith(kind + "_"):
            return kind
    return "other"


def profile_summary(profile):
    """hidet-run --profile's launches (median ms each over its runs) summed by
    kernel kind and by kernel, largest first; None without a profile."""
    if not isinstance(profile, dict) or not profile.get("launches"):
        return None
    launches = profile["launches"]
    total = sum(l.get("ms") or 0.0 for l in launches)
    by_kind, by_kernel = {}, {}
    for l in launches:
        name, ms = l.get("kernel") or "", l.get("ms") or 0.0
        k = by_kind.setdefault(kernel_kind(name), [0.0, 0])
        k[0] += ms
        k[1] += 1
        n = by_kernel.setdefault(name, [0.0, 0])
        n[0] += ms
        n[1] += 1
    return {"runs": profile.get("runs"), "launches": len(launches), "total_ms": total,
            "by_kind": [{"kind": k, "ms": v[0], "launches": v[1]} for k, v in
                        sorted(by_kind.items(), key=lambda kv: -kv[1][0])],
            "top_kernels": [{"kernel": k, "ms": v[0], "launches": v[1]} for k, v in
                            sorted(by_kernel.items(), key=lambda kv: -kv[1][0])[:8]]}


def torch_records(res, cfg):
    """PyTorch's variants of one configuration (the latest line of each)."""
    path = os.path.join(res, cfg + ".torch.jsonl")
    out = {}
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError:
        return out
    for line in lines:
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if rec.get("variant"):
            out[rec["variant"]] = rec
    return out


TORCH_KEYS = ("status", "median_ms", "min_ms", "mean_ms", "reps", "compile_s", "first_call_s",
              "peak_bytes", "peak_minus_weights_bytes", "forward_bytes", "weights_bytes",
              "input_bytes", "output_bytes", "rel_l2", "max_abs", "ref_rel_l2", "ref_max_abs",
              "error", "time", "gpu", "autotune_devices")


def model_key(model):
    return (MODEL_ORDER.index(model) if model in MODEL_ORDER else len(MODEL_ORDER), model)


def collect(res, settings):
    names = os.listdir(res)
    cfgs = set()
    for name in names:
        m = CFG.match(name)
        if m and m.group("kind") in ("compile", "hidet.json", "torch.jsonl"):
            cfgs.add((m.group("model"), int(m.group("batch")), m.group("precision")))
    rows = []
    for model, batch, precision in sorted(cfgs, key=lambda c: (model_key(c[0]), c[1],
                                                                PRECISIONS.index(c[2]))):
        cfg = "%s_b%d_%s" % (model, batch, precision)
        hidet = hidet_record(res, cfg)
        bound = (settings.get("rel_l2_bound") or {}).get(precision)
        if hidet and hidet["status"] == "pass" and bound is not None and \
                (hidet["rel_l2"] is None or hidet["rel_l2"] > bound):
            hidet["status"] = "fail"
            hidet["error"] = "relative L2 error %s against PyTorch's float32 output, bound %g" % (
                fmt(hidet["rel_l2"], "%.3g"), bound)
        torch_all = torch_records(res, cfg)
        row = {"model": model, "batch": batch, "precision": precision, "hidet": hidet,
               "torch": {v: {k: r.get(k) for k in TORCH_KEYS} for v, r in torch_all.items()},
               "_torch_meta": next(iter(torch_all.values()), {})}
        rows.append(score(row))
    return rows


def score(row):
    """Sets the row's best PyTorch variant and hidet's speed-ups over it and
    over each variant, from its hidet and torch records."""
    hidet = row["hidet"]
    ok = {v: r for v, r in row["torch"].items() if r.get("status") == "ok" and r.get("median_ms")}
    best = None
    if ok:
        v = min(ok, key=lambda k: ok[k]["median_ms"])
        best = {"variant": v, "median_ms": ok[v]["median_ms"]}
    hidet_ms = hidet["median_ms"] if hidet and hidet["status"] == "pass" else None
    row["best_torch"] = best
    row["speedup"] = best["median_ms"] / hidet_ms if best and hidet_ms else None
    row["speedup_over"] = {v: r["median_ms"] / hidet_ms for v, r in ok.items()} if hidet_ms else {}
    return row


def geomeans(rows):
    """The geometric mean of the speed-ups of the headline models (the others
    are there for coverage), per precision."""
    geo = {}
    for p in PRECISIONS:
        prow = [r for r in rows if r["precision"] == p and r["model"] in HEADLINE_MODELS]
        if prow:
            sp = [r["speedup"] for r in prow if r["speedup"]]
            geo[p] = {"value": geomean(sp), "pairs": len(sp), "of": len(prow)}
    return geo


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------

def fmt(x, spec="%.4g", none="-"):
    return none if x is None else spec % x


def fmt_mib(n):
    return "-" if n is None else "%.1f" % (n / MiB)


def label(row):
    return MODEL_LABELS.get(row["model"], row["model"])


def hidet_cell(h):
    """hidet's time, or why there is none."""
    if h is None:
        return "not run"
    if h["status"] == "pass":
        return fmt(h["median_ms"]) + (" (tuned)" if h.get("tuning_records") else "")
    if h["median_ms"] is not None:
        return "%s (%s)" % (fmt(h["median_ms"]), h["status"])
    return h["status"]


def check_cell(h):
    if h is None or h["status"] in (None, "not-run"):
        return ""
    parts = [h["status"]]
    if h.get("rel_l2") is not None:
        parts.append("rel. L2 %.1e" % h["rel_l2"])
    if h.get("max_abs") is not None:
        parts.append("max abs %.2g" % h["max_abs"])
    return ", ".join(parts)


def torch_cell(r):
    if r is None or r.get("status") == "not-run":
        return ""
    if r.get("status") == "ok":
        return fmt(r.get("median_ms"))
    if r.get("median_ms") is not None:
        return "%s (%s)" % (fmt(r["median_ms"]), r.get("status"))
    return str(r.get("status"))


def gpu_assignment(rows):
    """The GPUs of run.sh --gpu runs: {gpu: [model labels]}, and the
    configurations whose measurements (hidet's, PyTorch's variants') ran on
    more than one GPU."""
    by_gpu, mixed = {}, []
    for r in rows:
        gpus = set()
        if (r["hidet"] or {}).get("gpu") is not None:
            gpus.add(r["hidet"]["gpu"])
        for t in (r["torch"] or {}).values():
            if t.get("gpu") is not None:
                gpus.add(t["gpu"])
        for g in gpus:
            labels = by_gpu.setdefault(g, [])
            if label(r) not in labels:
                labels.append(label(r))
        if len(gpus) > 1:
            mixed.append("%s b%d %s" % (label(r), r["batch"], r["precision"]))
    return by_gpu, mixed


def write_md(path, doc, rows):
    lines = []
    w = lines.append
    s = doc["settings"] or {}
    w("# Whole models on the %s: hidet against PyTorch (%s)" % (doc["gpu"].upper(), doc["date"]))
    w("")
    w("GPU: %s; commit %s; torch %s (CUDA %s, Triton %s)." % (
        doc["device"], doc["commit"], doc["torch"], doc["cuda"], doc["triton"]))
    # Results accumulated over calls of run.sh may come from several commits.
    by_commit = {}
    for r in rows:
        c = (r["hidet"] or {}).get("commit")
        if c:
            by_commit.setdefault(c, []).append("%s b%d %s" % (r["model"], r["batch"],
                                                              r["precision"]))
    if len(by_commit) > 1:
        w("")
        w("hidet measured at several commits: " + "; ".join(
            "%s for %s" % (c, ", ".join(cfgs)) for c, cfgs in sorted(by_commit.items())) + ".")
    by_gpu, mixed = gpu_assignment(rows)
    if len(by_gpu) > 1:
        w("")
        w("Measured by %d runs of `bench/models/run.sh` at once, one per GPU of this host "
          "(`--gpu`), each holding its GPU's lock while it times: %s.%s" % (
              len(by_gpu), "; ".join("GPU %d: %s" % (g, ", ".join(m))
                                     for g, m in sorted(by_gpu.items())),
              " Each configuration's hidet and PyTorch measurements ran on the same GPU."
              if not mixed else " Measured on more than one GPU: %s." % ", ".join(mixed)))
    w("")
    w("Models from `utils/models/generate.py` (random weights, seed 0; the same weights and "
      "inputs on both sides): " + "; ".join(
          MODEL_DESCRIPTIONS.get(m, m) for m in sorted({r["model"] for r in rows}, key=model_key))
      + ". hidet: `hidet-compile model.onnx [--precision=f16] --external-weights`, run by "
      "`hidet-run --weights` on the test inputs, each output checked against PyTorch's float32 "
      "CPU output before it is timed: elementwise (f32: rtol %s, atol %s; f16: rtol %s, "
      "atol %s) and by its relative L2 error (f32: at most %s; f16: at most %s). PyTorch: "
      "eager, `torch.compile` (default mode) and `torch.compile(mode="
      "\"max-autotune-no-cudagraphs\")`, f16 as `model.half()`, f32 with TF32 off; each "
      "checked against float32 eager on the same inputs by the same relative L2 bounds. The "
      "f16 bounds leave room for PyTorch's own f16 error on these models (relative L2 1e-3 to "
      "2e-3, elementwise up to 0.18 on ResNet-50's logits) and no more than 5x its L2 error. "
      "Both sides time "
      "the whole forward as one CUDA graph replay: median of %s replays, one pair of CUDA "
      "events each, each behind a short GPU spin (GPU time, host launch overhead excluded)."
      % (fmt(s.get("rtol", {}).get("f32"), "%g"), fmt(s.get("atol", {}).get("f32"), "%g"),
         fmt(s.get("rtol", {}).get("f16"), "%g"), fmt(s.get("atol", {}).get("f16"), "%g"),
         fmt(s.get("rel_l2_bound", {}).get("f32"), "%g"),
         fmt(s.get("rel_l2_bound", {}).get("f16"), "%g"),
         s.get("reps", "200")))
    if any(r["hidet"] and r["hidet"].get("timing") == "per-call" for r in rows):
        w("")
        w("**Note:** the hidet-run used had no `--cuda-graph`; rows marked per-call below time "
          "each call of the library instead (host launch gaps kept out by a GPU spin, but "
          "not captured in a graph).")
    w("")
    # Variants may come from different calls of run.sh on the same work
    # directory (max-autotune takes minutes per model): say when each ran.
    spans = {}
    for r in rows:
        for v, t in r["torch"].items():
            if t.get("time"):
                spans.setdefault(v, []).append(t["time"])
    if spans:
        w("PyTorch measured: " + "; ".join(
            "%s %s to %s" % (v, min(spans[v]), max(spans[v]))
            for v in VARIANTS if v in spans) + " (hidet in the same calls as eager and compile).")
        # A variant measured for some configurations only (max-autotune takes
        # minutes each): which, so that a blank cell reads as not measured.
        for v in VARIANTS:
            tried = [r for r in rows if v in (r["torch"] or {})
                     and r["torch"][v].get("status") != "not-run"]
            if tried and len(tried) < len(rows):
                w("")
                w("%s was measured for %d of the %d configurations (a blank cell: not measured): "
                  "%s." % (v, len(tried), len(rows), ", ".join(
                      "%s b%d %s%s" % (label(r), r["batch"], r["precision"],
                                       "" if r["torch"][v].get("status") == "ok"
                                       else " (%s)" % r["torch"][v].get("status"))
                      for r in tried)))
        spread = [r for r in rows if (r["torch"].get("max-autotune") or {}).get("autotune_devices")]
        if spread:
            w("")
            w("max-autotune of %s benchmarked its candidates on several GPUs of the host at once "
              "(inductor's TORCHINDUCTOR_AUTOTUNE_IN_SUBPROC=1 and "
              "TORCHINDUCTOR_AUTOTUNE_MULTI_DEVICE=1; %s), so that its compile time is not "
              "comparable; it was timed on one GPU like the others." % (
                  ", ".join("%s b%d %s" % (label(r), r["batch"], r["precision"]) for r in spread),
                  ", ".join(sorted({"%d GPUs" % r["torch"]["max-autotune"]["autotune_devices"]
                                    for r in spread}))))
        w("")
    tuned = sorted({"%s (%s b%d %s)" % (r["hidet"]["tuning_records"], r["model"], r["batch"],
                                        r["precision"])
                    for r in rows if r["hidet"] and r["hidet"].get("tuning_records")})
    if tuned:
        w("hidet rows marked tuned were compiled with the tuning records of `bench/tuning-models` "
          "(`--tuning-records`, `bench/results/tuning.md` and `tuning-f32.md`): " + ", ".join(tuned) + ".")
        w("")
    w("Speed-up: the best PyTorch variant's time over hidet's (above 1: hidet is faster); "
      "only for a hidet result that passed its check, and only over PyTorch variants that "
      "passed theirs.")
    for precision in PRECISIONS:
        prow = [r for r in rows if r["precision"] == precision]
        if not prow:
            continue
        w("")
        w("## %s" % precision)
        w("")
        w("| model | batch | hidet ms | hidet check | eager | compile | max-autotune "
          "| best PyTorch | speed-up |")
        w("|---|---|---|---|---|---|---|---|---|")
        for r in prow:
            best = r["best_torch"]
            w("| %s | %d | %s | %s | %s | %s | %s | %s | %s |" % (
                label(r), r["batch"], hidet_cell(r["hidet"]), check_cell(r["hidet"]),
                torch_cell(r["torch"].get("eager")), torch_cell(r["torch"].get("compile")),
                torch_cell(r["torch"].get("max-autotune")),
                "%s (%s)" % (fmt(best["median_ms"]), best["variant"]) if best else "-",
                "**%.2fx**" % r["speedup"] if r["speedup"] else "-"))
        g = doc["geomean_speedup"].get(precision)
        w("")
        if g and g["value"]:
            w("Geometric mean of the %s speed-ups of BERT-base, GPT-2 small and ResNet-50: "
              "**%.2fx** over %d of %d (model, batch) "
              "pairs%s." % (precision, g["value"], g["pairs"], g["of"],
                            "" if g["pairs"] == g["of"] else " (the others have no speed-up)"))
        else:
            w("Geometric mean of the %s speed-ups: none (no pair has one)." % precision)
    w("")
    w("## Memory (MiB)")
    w("")
    w("hidet: its arena (the planned workspace of one forward) and the sum of the sizes of "
      "all its intermediate buffers (what the arena would take without reuse), from "
      "hidet-run's JSON. PyTorch: the peak memory allocated during one plain forward "
      "minus the weights (so with the inputs, the output and cuBLAS's workspace), per variant.")
    w("")
    w("| model | batch | precision | hidet arena | hidet intermediates (sum) | PyTorch eager "
      "| compile | max-autotune | output | weights hidet | weights PyTorch |")
    w("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        mem = (r["hidet"] or {}).get("memory") or {}
        t = r["torch"]
        some = next((v for v in t.values() if v.get("weights_bytes") is not None), {})
        out_b = next((v.get("output_bytes") for v in t.values()
                      if v.get("output_bytes") is not None), None)
        w("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            label(r), r["batch"], r["precision"], fmt_mib(mem.get("workspace_bytes")),
            fmt_mib(mem.get("intermediates_bytes")),
            fmt_mib((t.get("eager") or {}).get("peak_minus_weights_bytes")),
            fmt_mib((t.get("compile") or {}).get("peak_minus_weights_bytes")),
            fmt_mib((t.get("max-autotune") or {}).get("peak_minus_weights_bytes")),
            fmt_mib(out_b), fmt_mib(mem.get("weights_bytes")), fmt_mib(some.get("weights_bytes"))))
    w("")
    w("## Compile time and kernels")
    w("")
    seq = s.get("sequential")
    w("Wall seconds of one compilation%s. Kernels: launches per forward of hidet's library. "
      "PyTorch's compile time is the first call's (compilation and one forward), with "
      "inductor's caches cold. hidet's compile times on a CPU machine, one compilation at a "
      "time: `models-compile-cpu.md` (`bench/models/compile-times.sh`)." % (
          " (run one at a time)" if seq else
          ", measured while up to %s hidet compilations%s, the model exports and PyTorch's "
          "compilations ran beside it on %s CPUs: compare them within a run" % (
              s.get("jobs", "?"),
              " in each of %d runs at once" % len(by_gpu) if len(by_gpu) > 1 else "",
              s.get("cpus", "?"))))
    w("")
    w("| model | batch | precision | hidet compile s | kernels | torch.compile s "
      "| max-autotune s |")
    w("|---|---|---|---|---|---|---|")
    for r in rows:
        h = r["hidet"] or {}
        w("| %s | %d | %s | %s | %s | %s | %s |" % (
            label(r), r["batch"], r["precision"],
            fmt(h.get("compile_s"), "%.1f") if h.get("compile_status") == "ok"
            else (h.get("compile_status") or "-"),
            fmt(h.get("kernels"), "%d"),
            fmt((r["torch"].get("compile") or {}).get("compile_s"), "%.1f"),
            fmt((r["torch"].get("max-autotune") or {}).get("compile_s"), "%.1f")))
    profiled = [r for r in rows if (r["hidet"] or {}).get("profile")]
    if profiled:
        w("")
        w("## Where hidet's time goes")
        w("")
        w("`hidet-run --profile`: the forward run directly (not as a graph) with CUDA events "
          "around each kernel, the median of each launch over %s runs, summed by the kind of "
          "kernel (the template or rule that built it: `wgmma`/`mma`/`simt` GEMMs and "
          "convolutions with their fused prologues and epilogues, `attention` for the fused "
          "attentions (Q K^T, softmax and P V in one kernel), `splitk_reduce`, "
          "`row_group` for softmax and normalization rows, `reduce`/`reduce_rows`, "
          "`injective`, `transpose`). The events add a little time to each launch: the sum "
          "is above the graph replay's time." % (
              profiled[0]["hidet"]["profile"].get("runs") or "?"))
        w("")
        w("| model | batch | precision | graph ms | kernels sum ms | by kind (ms, launches) "
          "| largest kernels (ms) |")
        w("|---|---|---|---|---|---|---|")
        for r in profiled:
            p = r["hidet"]["profile"]
            w("| %s | %d | %s | %s | %s | %s | %s |" % (
                label(r), r["batch"], r["precision"], fmt(r["hidet"].get("median_ms")),
                fmt(p["total_ms"]),
                ", ".join("%s %s (%d)" % (k["kind"], fmt(k["ms"], "%.3f"), k["launches"])
                          for k in p["by_kind"]),
                ", ".join("`%s` %s%s" % (k["kernel"], fmt(k["ms"], "%.3f"),
                                         " (x%d)" % k["launches"] if k["launches"] > 1 else "")
                          for k in p["top_kernels"][:4])))
    problems = []
    for r in rows:
        name = "%s b%d %s" % (r["model"], r["batch"], r["precision"])
        h = r["hidet"]
        if h and h["status"] != "pass":
            problems.append("- %s, hidet: %s%s" % (name, h["status"],
                                                  ": " + h["error"] if h.get("error") else ""))
        for v in VARIANTS:
            t = r["torch"].get(v)
            if t and t.get("status") != "ok":
                problems.append("- %s, PyTorch %s: %s%s" % (
                    name, v, t.get("status"), ": " + t["error"] if t.get("error") else ""))
    if problems:
        w("")
        w("## Failures")
        w("")
        lines.extend(p.replace("\n", " ") for p in problems)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def plot(doc, path):
    """Speed-up bars: one group per precision, one bar per (model, batch)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report.py: warning: matplotlib is not installed; %s not written (run "
              "report.py --plot models.json PNG where it is)" % path, file=sys.stderr)
        return False
    rows = doc["results"]
    precisions = [p for p in PRECISIONS if any(r["precision"] == p for r in rows)]
    pairs = []
    for r in rows:
        key = (r["model"], r["batch"])
        if key not in pairs:
            pairs.append(key)
    if not precisions or not pairs:
        print("report.py: warning: no results; %s not written" % path, file=sys.stderr)
        return False
    speed = {(r["model"], r["batch"], r["precision"]): r["speedup"] for r in rows}
    width = 0.8 / len(pairs)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 + 0.55 * len(pairs) * len(precisions)), 4.5))
    colors = plt.get_cmap("tab10")
    for i, (model, batch) in enumerate(pairs):
        xs, ys, missing = [], [], []
        for g, p in enumerate(precisions):
            x = g - 0.4 + width * (i + 0.5)
            s = speed.get((model, batch, p))
            if s:
                xs.append(x)
                ys.append(s)
            else:
                missing.append(x)
        bars = ax.bar(xs, ys, width * 0.9, color=colors(i % 10),
                      label="%s, batch %d" % (MODEL_LABELS.get(model, model), batch))
        for bar, y in zip(bars, ys):
            ax.annotate("%.2f" % y, (bar.get_x() + bar.get_width() / 2, y),
                        ha="center", va="bottom", fontsize=7)
        for x in missing:
            ax.annotate("n/a", (x, 0), ha="center", va="bottom", fontsize=7, rotation=90)
    ax.axhline(1.0, color="black", linewidth=1, linestyle="--")
    ax.set_xticks(range(len(precisions)))
    ax.set_xticklabels(precisions)
    ax.set_ylabel("speed-up (best PyTorch time / hidet time)")
    ax.set_title("hidet vs best PyTorch, %s, %s (commit %s)"
                 % (doc.get("device"), doc.get("date"), doc.get("commit")), fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


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
        "(`hidet-compile model.onnx [--precision=f16] --external-weights`, with a configuration's "
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
