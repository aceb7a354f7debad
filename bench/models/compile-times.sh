#!/usr/bin/env bash
# hidet-compile's time on the models of bench/models, one compilation at a
# time on this (CPU) machine: the compile-time half of the models benchmark
# that belongs to the machine without a GPU.
#
#   bench/models/compile-times.sh OUT [options]
#
# For each model and batch, exports the model with utils/models/generate.py
# (random weights, seed 0; PyTorch, torchvision and onnx on this machine:
# utils/install-deps.sh --models) unless W already holds it; then compiles each
# configuration with hidet-compile as bench/models/run.sh does (f16 with
# --precision=f16, --external-weights, a configuration's tuning records
# where --tuning-records has them), one after the other with nothing else of
# this script running, and measures its wall time and peak memory (GNU
# time). Writes OUT/models-compile-cpu.json and OUT/models-compile-cpu.md.
#
# Options (defaults in brackets):
#   --models bert,gpt2,resnet50,vit,mobilenetv2,efficientnet_b0
#   --batches 1,32   --precisions f16,f32
#   --tools DIR [build]   bin/hidet-compile and lib/ (a build directory or
#                         utils/static-tools.sh's output)
#   --tuning-records D    D/<model>-b<batch>-<precision>.json where present
#   --work W [/tmp/hidet-compile-times]  exported models and libraries
#   --commit C [git rev-parse --short HEAD]  the commit of the tools
# PYTHON (default python3) runs generate.py and writes the report: one with
# torch, torchvision and onnx (Debian: PYTHON=/usr/bin/python3).
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
PYTHON="${PYTHON:-python3}"

die() {
  echo "compile-times.sh: $*" >&2
  exit 2
}

out="${1:-}"
[ -n "$out" ] && [ "${out#--}" = "$out" ] ||
  die "usage: compile-times.sh OUT [--models L] [--batches L] [--precisions L] [--tools DIR] [--tuning-records D] [--work W] [--commit C]"
shift
models=bert,gpt2,resnet50,vit,mobilenetv2,efficientnet_b0
batches=1,32 precisions=f16,f32 tools="$src/build" records="" work=/tmp/hidet-compile-times
commit=""
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || die "$1 needs a value"
  case "$1" in
  --models) models="$2" ;;
  --batches) batches="$2" ;;
  --precisions) precisions="$2" ;;
  --tools) tools="$2" ;;
  --tuning-records) records="$(cd "$2" && pwd)" || die "no directory $2" ;;
  --work) work="$2" ;;
  --commit) commit="$2" ;;
  *) die "unknown option $1" ;;
  esac
  shift 2
done
[ -x "$tools/bin/hidet-compile" ] || die "no $tools/bin/hidet-compile"
[ -x /usr/bin/time ] || die "needs GNU time (/usr/bin/time; Debian: time)"
commit="${commit:-$(git -C "$src" rev-parse --short HEAD)}"
IFS=, read -r -a model_list <<<"$models"
IFS=, read -r -a batch_list <<<"$batches"
IFS=, read -r -a precision_list <<<"$precisions"
for x in "${model_list[@]}"; do [[ "$x" =~ ^[a-z0-9_]+$ ]] || die "bad model '$x'"; done
for x in "${batch_list[@]}"; do [[ "$x" =~ ^[1-9][0-9]*$ ]] || die "bad batch '$x'"; done
for x in "${precision_list[@]}"; do [[ "$x" =~ ^(f16|f32)$ ]] || die "bad precision '$x'"; done
mkdir -p "$work" "$out" || die "cannot create $work or $out"
work="$(cd "$work" && pwd)"
res="$work/results"
rm -rf "$res"
mkdir -p "$res"

# Export every model first, so that no export runs beside a compilation.
for m in "${model_list[@]}"; do
  for b in "${batch_list[@]}"; do
    d="$work/models/${m}_b$b"
    [ -f "$d/gen.ok" ] && continue
    rm -rf "$d" && mkdir -p "$d"
    echo "export $m b$b"
    if "$PYTHON" "$src/utils/models/generate.py" --out "$d" --models "$m" --batch "$b" \
      --seed 0 --threads "$(nproc)" >"$d/gen.log" 2>&1; then
      touch "$d/gen.ok"
    else
      echo "compile-times.sh: export of $m b$b failed: $(tail -n 2 "$d/gen.log")" >&2
    fi
  done
done
"$PYTHON" -c 'import torch, onnx; print("torch %s, onnx %s" % (torch.__version__, onnx.__version__))' \
  >"$res/exporter" 2>/dev/null || echo "unknown" >"$res/exporter"

for m in "${model_list[@]}"; do
  for b in "${batch_list[@]}"; do
    d="$work/models/${m}_b$b"
    for p in "${precision_list[@]}"; do
      cfg="${m}_b${b}_$p"
      if [ ! -f "$d/gen.ok" ]; then
        echo "no-model" >"$res/$cfg.status"
        tail -n 3 "$d/gen.log" >"$res/$cfg.log" 2>/dev/null
        continue
      fi
      opts=()
      [ "$p" = f16 ] && opts+=(--precision=f16)
      if [ -n "$records" ] && [ -f "$records/$m-b$b-$p.json" ]; then
        opts+=(--tuning-records="$records/$m-b$b-$p.json")
        echo "$m-b$b-$p.json" >"$res/$cfg.records"
      fi
      /usr/bin/time -f "%e %M" -o "$res/$cfg.time" "$tools/bin/hidet-compile" "$d/$m.onnx" \
        "${opts[@]}" --external-weights="$work/$cfg.weights" --runtime-dir="$tools/lib" \
        -o "$work/$cfg.so" >"$res/$cfg.log" 2>&1
      rc=$?
      if [ "$rc" = 0 ]; then
        echo ok >"$res/$cfg.status"
        stat -c %s "$work/$cfg.so" >"$res/$cfg.size"
      else
        echo "error $rc" >"$res/$cfg.status"
      fi
      echo "compile $cfg: $(cat "$res/$cfg.status"), $(cut -d' ' -f1 "$res/$cfg.time" | tail -n 1) s"
    done
  done
done

"$PYTHON" - "$res" "$out" "$commit" "$(date -u +%F)" "$(nproc)" \
  "$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')" \
  "${model_list[*]}" "${batch_list[*]}" "${precision_list[*]}" <<'EOF'
import json, os, sys
res, out, commit, date, cpus, cpu, models, batches, precisions = sys.argv[1:]
LABELS = {"bert": "BERT-base", "gpt2": "GPT-2 small", "resnet50": "ResNet-50",
          "vit": "ViT-B/16", "mobilenetv2": "MobileNetV2", "efficientnet_b0": "EfficientNet-B0"}

def read(name):
    try:
        with open(os.path.join(res, name)) as f:
            return f.read().strip()
    except OSError:
        return None

rows = []
for m in models.split():
    for b in batches.split():
        for p in precisions.split():
            cfg = "%s_b%s_%s" % (m, b, p)
            status = read(cfg + ".status") or "not-run"
            row = {"model": m, "batch": int(b), "precision": p, "status": status,
                   "seconds": None, "peak_rss_mib": None, "library_mib": None,
                   "tuning_records": read(cfg + ".records")}
            t = (read(cfg + ".time") or "").splitlines()
            if t and len(t[-1].split()) == 2:
                secs, kb = t[-1].split()
                row["seconds"] = float(secs)
                row["peak_rss_mib"] = int(kb) / 1024.0
            size = read(cfg + ".size")
            if size:
                row["library_mib"] = int(size) / 2.0**20
            if status != "ok":
                log = (read(cfg + ".log") or "").splitlines()
                row["error"] = " | ".join(log[-3:])[-300:]
            rows.append(row)
doc = {"date": date, "commit": commit, "cpus": int(cpus), "cpu": cpu,
       "exporter": read("exporter"), "results": rows}
with open(os.path.join(out, "models-compile-cpu.json"), "w") as f:
    json.dump(doc, f, indent=2)
lines = [
    "# hidet-compile on the models, on a CPU machine (%s)" % date, "",
    "Commit %s; %s CPUs (%s). `bench/models/compile-times.sh`: each model of `bench/models` "
    "exported by `utils/models/generate.py` on this machine (random weights, seed 0; %s)"
    ", then compiled one configuration at a time as `bench/models/run.sh` compiles it "
    "(`hidet-compile model.onnx [--precision=f16] --external-weights`, with a configuration's "
    "tuning records where marked), nothing else running: wall seconds and peak resident memory "
    "(GNU time). The kernels of each library and their times on the GPU are in `models.md`."
    % (commit, cpus, cpu, doc["exporter"]), "",
    "| model | batch | precision | compile s | peak MiB | library MiB | status |",
    "|---|---|---|---|---|---|---|"]
for r in rows:
    f = lambda x, spec: "-" if x is None else spec % x
    lines.append("| %s | %d | %s | %s | %s | %s | %s |" % (
        LABELS.get(r["model"], r["model"]), r["batch"], r["precision"] +
        (" (tuned)" if r["tuning_records"] else ""), f(r["seconds"], "%.1f"),
        f(r["peak_rss_mib"], "%.0f"), f(r["library_mib"], "%.1f"),
        r["status"] if r["status"] == "ok" else "%s: %s" % (r["status"], r.get("error", ""))))
ok = [r["seconds"] for r in rows if r["status"] == "ok" and r["seconds"] is not None]
if ok:
    lines += ["", "Total: %.0f s for %d compilations; the longest %.1f s." % (
        sum(ok), len(ok), max(ok))]
with open(os.path.join(out, "models-compile-cpu.md"), "w") as f:
    f.write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
