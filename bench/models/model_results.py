"""What bench/models/run.sh measured, read into records: per configuration
hidet's compile status, check and times (with its profile summed by kind of
kernel) and each PyTorch variant's; the speed-up of hidet over the best
PyTorch variant, and the geometric means. report.py writes them (with
model_tables.py)."""
import json
import math
import os
import re

PRECISIONS = ("f16", "bf16", "f32")
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
CFG = re.compile(r"^(?P<model>[a-z0-9_]+?)_b(?P<batch>\d+)_(?P<precision>f16|bf16|f32)\.(?P<kind>.+)$")
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
        # hidet-run --expected-rel-l2 reports it (older ones: absent).
        if exp.get("rel_l2") is not None:
            rec["rel_l2"] = max(rec["rel_l2"] or 0.0, exp["rel_l2"])
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
        if rec["rel_l2"] is None:
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


def fmt(x, spec="%.4g", none="-"):
    return none if x is None else spec % x
