"""models.md and models.png from the records of model_results.py."""
import sys

from model_results import MODEL_DESCRIPTIONS, MODEL_LABELS, PRECISIONS, VARIANTS, MiB, fmt, model_key


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


def padding_text(rows):
    """How the token models' inputs are padded, when there are such rows."""
    if not any(r["model"] in ("bert", "gpt2") for r in rows):
        return ""
    return ("BERT's and GPT-2's inputs are a padded batch, attention_mask 0 on the padding "
            "(the first row full, the last 1/16 full, the others of random lengths; a batch "
            "of one 3/4 full). ")


def elementwise_text(s):
    """The elementwise check of the settings `s` (run.sh's settings.json), in
    words: with an absolute tolerance scaled to each output (atol_rms), or,
    in settings without atol_rms, a fixed one (atol)."""
    rtol, k = s.get("rtol", {}), s.get("atol_rms")
    if k is not None:
        per = "; ".join("%s: rtol %s, k %s" % (p, fmt(rtol.get(p), "%g"), fmt(k.get(p), "%g"))
                        for p in ("f32", "f16", "bf16") if p in rtol)
        return ("each element within k * rms(expected) + rtol * |expected|, rms(expected) "
                "the output's root mean square (%s)" % per)
    atol = s.get("atol", {})
    return ("elementwise (f32: rtol %s, atol %s; f16: rtol %s, atol %s)"
            % (fmt(rtol.get("f32"), "%g"), fmt(atol.get("f32"), "%g"),
               fmt(rtol.get("f16"), "%g"), fmt(atol.get("f16"), "%g")))


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
      + ". " + padding_text(rows)
      + "hidet: `hidet-compile model.onnx [--precision=f16|bf16] --external-weights`, run by "
      "`hidet-run --weights` on the test inputs, each output checked against PyTorch's float32 "
      "CPU output before it is timed: %s and by its relative L2 error (%s). PyTorch: "
      "eager, `torch.compile` (default mode) and `torch.compile(mode="
      "\"max-autotune-no-cudagraphs\")`, f16 and bf16 as the model converted to them, f32 "
      "with TF32 off; each "
      "checked against float32 eager on the same inputs by the same relative L2 bounds. The "
      "bounds and their derivation: `bench/models/checks.sh`. Both sides time "
      "the whole forward as one CUDA graph replay: median of %s replays, one pair of CUDA "
      "events each, each behind a short GPU spin (GPU time, host launch overhead excluded)."
      % (elementwise_text(s),
         "; ".join("%s: at most %s" % (p, fmt(b, "%g"))
                   for p, b in s.get("rel_l2_bound", {}).items()),
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
          "(`--tuning-records`, from `bench/tuning-models`): " + ", ".join(tuned) + ".")
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
