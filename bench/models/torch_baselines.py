#!/usr/bin/env python3
"""PyTorch baselines of the models benchmark (bench/models/run.sh).

Builds one model of utils/models/generate.py (bert, gpt2, resnet50, ...) with
generate.py's own builder and seeding (torch.manual_seed(seed) before it is
built, then randomize_constant_tensors), so that its weights are those of
the ONNX file generate.py exports, and measures it on the GPU in float16
(model.half(), floating inputs in float16), bfloat16 likewise, or float32
(TF32 off), as:

    eager         the module as it is;
    compile       torch.compile(model) (default mode);
    max-autotune  torch.compile(model, mode="max-autotune-no-cudagraphs"):
                  max-autotune's kernels without inductor's own CUDA graph
                  trees, so that it is captured like the others.

Every variant is measured the same way: 3 warm-up calls on a side stream (the
first one compiles; its wall time is the compile time), one plain forward
for the peak memory, then the forward captured once in a torch.cuda.CUDAGraph
(as the PyTorch docs show) whose output is checked against the float32 eager
output on the same inputs before the replays are timed. Timing follows
hidet-run: REPS replays, each behind a short GPU spin and bracketed by its own
pair of CUDA events, the median of the per-replay times (GPU time only). All
replays are queued behind one long GPU sleep first, so that the host, busy
or not, stays ahead of the GPU.

The inputs are those of the ONNX test data (--data DIR: test_data_set_0 of
that model and batch, read with onnx.numpy_helper); without --data,
generate.py's input generator with the same seed (the same values).

GPU lock (--gpu-lock FILE, shared with run.sh, which runs several of these
beside hidet-run): everything that times, tunes or measures on the GPU holds
FILE exclusively; only the first call of the default torch.compile (mostly
CPU work) holds it shared, beside other such calls.

Writes one JSON object per line (appended) to --out for each variant, also
for a variant that failed (status "error" and the message); a failure of one
variant does not stop the others. Prints a summary line per variant.

Usage:
    torch_baselines.py --model bert --batch 1 --dtype f16
        [--variants eager,compile,max-autotune] [--data DIR] --out FILE
        [--reps 200] [--warmup-replays 20] [--seq 128] [--seed 0]
        [--gpu-lock FILE] [--generate PATH] [--cudnn-benchmark]
"""
import argparse
import contextlib
import datetime
import fcntl
import gc
import glob
import importlib.util
import json
import math
import os
import re
import sys
import time
import traceback

import numpy as np

VARIANTS = ("eager", "compile", "max-autotune")
WARMUP_CALLS = 3
# GPU spins in clock cycles (about 2 GHz): before each replay, as hidet-run
# (~100 us), and once before the timed replays (~50 ms), which covers the
# time the host takes to queue all of them.
SPIN_CYCLES = 200000
LEAD_CYCLES = 100000000


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", required=True, help="a model of generate.py: bert, gpt2, resnet50")
    p.add_argument("--batch", type=int, required=True)
    p.add_argument("--dtype", required=True, choices=("f16", "bf16", "f32"))
    # A check that the variant computes the model, not a precision
    # criterion: the largest relative L2 error against the float32 eager
    # output on the same inputs that counts as correct. A variant beyond it
    # is recorded as "mismatch" and not counted as a baseline.
    p.add_argument("--rel-l2-bound", type=float, required=True,
                   help="the bound of --dtype on the relative L2 error against float32 eager "
                        "(run.sh gives bench/models/checks.sh's, hidet's own bound)")
    p.add_argument("--variants", default=",".join(VARIANTS),
                   help="comma-separated, of %s" % ",".join(VARIANTS))
    p.add_argument("--data", help="test_data_set_0 of this model and batch (generate.py "
                   "--reference): inputs and float32 CPU outputs")
    p.add_argument("--out", required=True, help="JSON lines, appended")
    p.add_argument("--reps", type=int, default=200, help="timed replays (default 200)")
    p.add_argument("--warmup-replays", type=int, default=20,
                   help="untimed replays before them (default 20)")
    p.add_argument("--seq", type=int, default=128, help="sequence length of bert and gpt2")
    p.add_argument("--seed", type=int, default=0, help="generate.py's seed (default 0)")
    p.add_argument("--gpu-lock", help="lock file shared with run.sh")
    p.add_argument("--generate", help="path of generate.py (default: beside this script, "
                   "else utils/models/generate.py of the checkout)")
    p.add_argument("--cudnn-benchmark", action="store_true",
                   help="torch.backends.cudnn.benchmark = True (default: PyTorch's "
                   "default, off)")
    args = p.parse_args(argv)
    args.variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    bad = [v for v in args.variants if v not in VARIANTS]
    if bad:
        p.error("unknown variant(s) %s; known: %s" % (",".join(bad), ",".join(VARIANTS)))
    if args.batch < 1 or args.reps < 1 or args.warmup_replays < 0:
        p.error("--batch and --reps must be positive")
    return args


def load_generate(path):
    """generate.py as a module (its model builders and input generators)."""
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [path] if path else [
        os.path.join(here, "generate.py"),
        os.path.join(here, "..", "..", "utils", "models", "generate.py")]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate):
            spec = importlib.util.spec_from_file_location("hidet_generate", candidate)
            module = importlib.util.module_from_spec(spec)
            # dataclasses look their module up in sys.modules.
            sys.modules[spec.name] = module
            spec.loader.exec_module(module)
            return module
    raise FileNotFoundError("generate.py not found (tried %s)" % ", ".join(candidates))


class GpuLock(object):
    """A readers-writer lock on FILE (flock), writers first: a taker goes
    through FILE.turnstile, which a waiting writer holds until it has FILE,
    so that new readers queue behind it. run.sh's gpu_exclusive does the
    same. No-op without a path. Not reentrant: never nest two holds."""

    def __init__(self, path):
        self.path = path

    @contextlib.contextmanager
    def hold(self, exclusive):
        import torch
        if not self.path:
            yield
            return
        with open(self.path + ".turnstile", "a") as gate, open(self.path, "a") as main:
            fcntl.flock(gate, fcntl.LOCK_EX)
            try:
                fcntl.flock(main, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
            finally:
                fcntl.flock(gate, fcntl.LOCK_UN)
            try:
                yield
            finally:
                # Nothing of this process runs on the GPU once it is let go.
                try:
                    torch.cuda.synchronize()
                finally:
                    fcntl.flock(main, fcntl.LOCK_UN)


def build(gen, args):
    """The model (eval, on the CPU) and its inputs as generate.py makes them."""
    import torch
    # MODEL_dynamo is MODEL's export by the dynamo exporter: the same module.
    name = args.model[:-len("_dynamo")] if args.model.endswith("_dynamo") else args.model
    if name not in gen.MODELS:
        raise ValueError("unknown model %s; generate.py has %s"
                         % (args.model, ", ".join(gen.MODELS)))
    spec = gen.MODELS[name]
    # generate.py's defaults for the options its builders read.
    gargs = argparse.Namespace(batch=args.batch, seq=args.seq, seed=args.seed, vocab=None,
                               layers=None, gpt2_lm_head="tied", opset=17)
    layers = spec.default_layers
    torch.manual_seed(args.seed)
    model = spec.build(gargs, layers).eval()
    gen.randomize_constant_tensors(model)
    inputs = spec.make_inputs(gargs, torch.Generator().manual_seed(args.seed))
    return model, inputs, list(spec.output_names)


def read_test_data(data, names, generated):
    """The inputs of test_data_set_0 (ONNX TensorProtos), in graph order,
    and the paths of its outputs; whether they equal the generator's."""
    import onnx
    import torch
    from onnx import numpy_helper
    inputs = []
    match = True
    for k, name in enumerate(names):
        path = os.path.join(data, "input_%d.pb" % k)
        proto = onnx.load_tensor(path)
        if proto.name and proto.name != name:
            raise ValueError("%s holds %s, not the input %s" % (path, proto.name, name))
        array = numpy_helper.to_array(proto)
        tensor = torch.from_numpy(np.array(array))  # a writable copy
        ref = generated[name]
        match = match and tuple(tensor.shape) == tuple(ref.shape) and \
            tensor.dtype == ref.dtype and bool(torch.equal(tensor, ref))
        inputs.append(tensor)
    outputs = sorted(glob.glob(os.path.join(data, "output_*.pb")),
                     key=lambda p: int(re.findall(r"\d+", os.path.basename(p))[0]))
    return inputs, outputs, match


def storage_bytes(tensors):
    """Bytes of the distinct storages of `tensors` (tied weights once)."""
    seen = {}
    for t in tensors:
        storage = t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()
        nbytes = storage.nbytes() if hasattr(storage, "nbytes") else \
            storage.size() * t.element_size()
        seen[(t.device.type, storage.data_ptr())] = nbytes
    return int(sum(seen.values()))


def first_output(result):
    if isinstance(result, (tuple, list)):
        return result[0]
    return result


def errors(out, ref):
    """Relative L2 error and max abs error of `out` against `ref` (float64
    on the GPU); non-finite elements counted apart."""
    import torch
    o = out.detach().to(torch.float64)
    r = ref.to(o.device, torch.float64)
    d = o - r
    finite = torch.isfinite(d)
    nonfinite = int((~finite).sum().item())
    d = torch.where(finite, d, torch.zeros_like(d))
    rel = float(torch.linalg.vector_norm(d).item() / torch.linalg.vector_norm(r).item())
    max_abs = float(d.abs().max().item()) if d.numel() else 0.0
    return rel, max_abs, nonfinite


def median(times):
    s = sorted(times)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def time_replays(graph, warmup, reps):
    """Per-replay GPU times (ms) of `graph`: one pair of CUDA events around
    each replay, each replay behind a ~100 us spin as in hidet-run, all queued
    behind a ~50 ms sleep so that host gaps stay out."""
    import torch
    for _ in range(warmup):
        graph.replay()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    torch.cuda._sleep(LEAD_CYCLES)
    for i in range(reps):
        torch.cuda._sleep(SPIN_CYCLES)
        starts[i].record()
        graph.replay()
        ends[i].record()
    torch.cuda.synchronize()
    return [s.elapsed_time(e) for s, e in zip(starts, ends)]


def make_fn(model, variant):
    import torch
    if variant == "eager":
        return model
    torch._dynamo.reset()
    if variant == "compile":
        return torch.compile(model)
    return torch.compile(model, mode="max-autotune-no-cudagraphs")


def measure(variant, model, inputs, ref_cpu, expected, precision, args, lock, rec):
    """Fills `rec` with the measures of one variant (raises on failure).
    `ref_cpu`: the float32 eager output; `expected`: the ONNX test data's
    output (PyTorch float32 on the CPU) or None; both on the host, moved to
    the GPU only after the memory has been measured."""
    import torch
    fn = make_fn(model, variant)
    side = torch.cuda.Stream()
    # 1. Warm-up on a side stream (the PyTorch docs' way before a capture);
    # the first call compiles. Only the default torch.compile's may share the
    # GPU: eager's (cuDNN/cuBLAS heuristics) and max-autotune's (it benchmarks
    # kernels) hold it alone.
    with lock.hold(exclusive=variant != "compile"):
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            begin = time.perf_counter()
            out = fn(*inputs)
            torch.cuda.synchronize()
            first = time.perf_counter() - begin
        torch.cuda.current_stream().wait_stream(side)
        del out
    rec["first_call_s"] = first
    rec["compile_s"] = first if variant != "eager" else None

    with lock.hold(exclusive=True):
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(WARMUP_CALLS - 1):
                fn(*inputs)
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()

        # 2. Peak memory of one plain forward.
        gc.collect()
        torch.cuda.empty_cache()
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        out = first_output(fn(*inputs))
        torch.cuda.synchronize()
        peak = torch.cuda.max_memory_allocated()
        rec["allocated_before_bytes"] = int(before)
        rec["peak_bytes"] = int(peak)
        rec["peak_minus_weights_bytes"] = int(peak - rec["weights_bytes"])
        rec["forward_bytes"] = int(peak - before)
        rec["output_bytes"] = int(out.numel() * out.element_size())
        ref = ref_cpu.to(out.device)
        rec["rel_l2_plain"] = errors(out, ref)[0]
        del out

        # 3. One capture; its output checked before the replays are timed.
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            static_out = first_output(fn(*inputs))
        graph.replay()
        torch.cuda.synchronize()
        rel, max_abs, nonfinite = errors(static_out, ref)
        del ref
        rec.update(rel_l2=rel, max_abs=max_abs, nonfinite=nonfinite)
        if expected is not None:
            rec["ref_rel_l2"], rec["ref_max_abs"], _ = errors(static_out, expected)
        ok = nonfinite == 0 and math.isfinite(rel) and rel <= args.rel_l2_bound
        rec["status"] = "ok" if ok else "mismatch"
        if not ok:
            rec["error"] = ("rel. L2 error %.3g against float32 eager (bound %g), "
                            "%d non-finite" % (rel, args.rel_l2_bound, nonfinite))

        # 4. Timing.
        times = time_replays(graph, args.warmup_replays, args.reps)
        rec.update(median_ms=median(times), min_ms=min(times),
                   mean_ms=sum(times) / len(times), reps=len(times),
                   warmup_replays=args.warmup_replays)
        del graph, static_out


def versions():
    import torch
    v = {"torch": torch.__version__, "cuda": torch.version.cuda,
         "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None}
    try:
        import triton
        v["triton"] = triton.__version__
    except Exception:  # noqa: BLE001 - optional
        v["triton"] = None
    return v


def write(path, rec):
    with open(path, "a") as f:
        f.write(json.dumps(rec) + "\n")
    summary = rec["status"]
    if rec.get("median_ms") is not None:
        summary += " %.4f ms" % rec["median_ms"]
    if rec.get("compile_s") is not None:
        summary += " (compile %.1f s)" % rec["compile_s"]
    if rec.get("rel_l2") is not None:
        summary += " rel_l2 %.2g" % rec["rel_l2"]
    if rec.get("error"):
        summary += ": " + rec["error"].splitlines()[0][:200]
    print("torch_baselines: %s_b%d_%s %s: %s" % (rec["model"], rec["batch"], rec["precision"],
                                                  rec["variant"], summary), flush=True)


def main(argv=None):
    args = parse_args(argv)
    base = {"model": args.model, "batch": args.batch, "precision": args.dtype}

    def fail_all(message, variants):
        for v in variants:
            write(args.out, dict(base, variant=v, status="error", error=message))
        return 1

    try:
        import torch
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        torch.set_float32_matmul_precision("highest")
        torch.backends.cudnn.benchmark = bool(args.cudnn_benchmark)
        if not torch.cuda.is_available():
            raise RuntimeError("no CUDA device")
        gen = load_generate(args.generate)
        model, generated, _ = build(gen, args)
        names = list(generated)
        expected = None
        source, match = "generator", None
        inputs = [generated[n] for n in names]
        if args.data:
            inputs, output_paths, match = read_test_data(args.data, names, generated)
            source = "onnx-test-data"
            if output_paths:
                import onnx
                from onnx import numpy_helper
                expected = torch.from_numpy(np.array(
                    numpy_helper.to_array(onnx.load_tensor(output_paths[0]))))
        base.update(device=torch.cuda.get_device_name(), inputs=source,
                    inputs_match_generator=match, seq=args.seq if args.model in ("bert", "gpt2")
                    else None, cudnn_benchmark=bool(args.cudnn_benchmark), tf32=False,
                    timing="CUDA graph replays: median of %d, one event pair per replay, "
                    "each behind a ~100 us GPU spin" % args.reps, **versions())
    except Exception as e:  # noqa: BLE001 - recorded
        traceback.print_exc()
        return fail_all("setup: %s: %s" % (type(e).__name__, e), args.variants)

    lock = GpuLock(args.gpu_lock)
    dev = torch.device("cuda")
    try:
        with torch.no_grad():
            # The float32 eager output on the GPU (TF32 off; cuDNN's
            # heuristics, not its benchmark, so that nothing is tuned here).
            cudnn_benchmark = torch.backends.cudnn.benchmark
            torch.backends.cudnn.benchmark = False
            with lock.hold(exclusive=False):
                model.to(dev)
                inputs = [t.to(dev) for t in inputs]
                ref = first_output(model(*inputs)).float()
                torch.cuda.synchronize()
                if expected is not None:
                    base["eager_f32_ref_rel_l2"], base["eager_f32_ref_max_abs"], _ = \
                        errors(ref, expected)
                ref_cpu = ref.cpu()
                del ref
            torch.backends.cudnn.benchmark = cudnn_benchmark
            if args.dtype in ("f16", "bf16"):
                half = torch.float16 if args.dtype == "f16" else torch.bfloat16
                model.to(half)
                inputs = [t.to(half) if t.is_floating_point() else t for t in inputs]
            base["weights_bytes"] = storage_bytes(list(model.parameters()) + list(model.buffers()))
            base["input_bytes"] = int(sum(t.numel() * t.element_size() for t in inputs))
    except Exception as e:  # noqa: BLE001 - recorded
        traceback.print_exc()
        return fail_all("reference forward: %s: %s" % (type(e).__name__, e), args.variants)

    failed = 0
    for variant in args.variants:
        rec = dict(base, variant=variant, status="error", error=None,
                   time=datetime.datetime.now().isoformat(timespec="seconds"))
        # Inductor benchmarks max-autotune's candidates on every visible GPU
        # at once with TORCHINDUCTOR_AUTOTUNE_IN_SUBPROC=1 and
        # TORCHINDUCTOR_AUTOTUNE_MULTI_DEVICE=1 (the timing stays on one).
        if (variant == "max-autotune"
                and os.environ.get("TORCHINDUCTOR_AUTOTUNE_MULTI_DEVICE") == "1"):
            rec["autotune_devices"] = torch.cuda.device_count()
        try:
            with torch.no_grad():
                measure(variant, model, inputs, ref_cpu, expected, args.dtype, args, lock, rec)
        except Exception as e:  # noqa: BLE001 - recorded
            traceback.print_exc()
            rec["status"] = "error"
            rec["error"] = ("%s: %s" % (type(e).__name__, e))[:2000]
            failed += 1
        finally:
            try:
                if variant != "eager":
                    torch._dynamo.reset()
                gc.collect()
                torch.cuda.empty_cache()
            except Exception:  # noqa: BLE001 - a broken context shows in the next variant
                pass
        write(args.out, rec)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
