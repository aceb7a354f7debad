# Shared by the benchmark reports: the geometric mean of ratios, the names
# and JSON of the results files, and GPU timing by the same method as
# hidet-run: each repetition bracketed by CUDA events and queued behind a
# ~100 us GPU spin, with no host synchronization between repetitions, and
# the median. All repetitions are queued behind one more spin, as long as
# the host takes to queue them (measured on the warm-up), so that neither
# launch gaps nor the host's own time (torch.compile's guards can take
# longer than 100 us) count as GPU time. The GPU is as busy between
# repetitions as under hidet-run: a GEMM that the power limit slows down
# (8192^3 on an H200 runs at ~1.45 GHz at 700 W when back to back) is timed
# under the same limit as hidet's.
import json
import math
import os
import re
import time

import torch


def geomean(xs):
    """Geometric mean of the positive numbers `xs` (None when empty)."""
    xs = list(xs)
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


# GPU spins in clock cycles (about 2 GHz): before each repetition, as
# hidet-run's (~100 us); the lead spin's bound (~1 s).
SPIN_CYCLES = 200000
CYCLES_PER_SECOND = 2e9
MAX_LEAD_CYCLES = 2000000000


def median_ms(fn, warmup=10, reps=100):
    """The median GPU time (ms) of `reps` calls of `fn`, after one call (it
    may compile) and `warmup` more."""
    fn()
    torch.cuda.synchronize()
    warmup = max(warmup, 1)
    begin = time.perf_counter()
    for _ in range(warmup):
        torch.cuda._sleep(SPIN_CYCLES)
        fn()
    host_s = (time.perf_counter() - begin) / warmup
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    torch.cuda._sleep(min(MAX_LEAD_CYCLES,
                          int(1.25 * reps * host_s * CYCLES_PER_SECOND) + SPIN_CYCLES))
    for start, end in zip(starts, ends):
        torch.cuda._sleep(SPIN_CYCLES)
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    times = sorted(s.elapsed_time(e) for s, e in zip(starts, ends))
    return times[len(times) // 2]


def gpu_name(device):
    """The GPU part of a results file name: the model of `device` in lower
    case ("NVIDIA H100 80GB HBM3" -> "h100"), else the whole name with runs
    of other characters as "-"."""
    m = re.search(r"\b([A-Z]{1,2}[0-9]{2,4}[A-Z]?)\b", device)
    if m:
        return m.group(1).lower()
    return re.sub(r"[^a-z0-9]+", "-", device.lower()).strip("-")


def save_json(out, name, result):
    """Writes `result` to OUT/NAME-GPU.json (creating OUT; GPU from
    result["device"], see gpu_name) and returns the path of its Markdown
    report, OUT/NAME-GPU.md. A run on the same GPU replaces both."""
    os.makedirs(out, exist_ok=True)
    base = os.path.join(out, f"{name}-{gpu_name(result['device'])}")
    with open(base + ".json", "w") as f:
        json.dump(result, f, indent=2)
    return base + ".md"


def cudnn_conv(name, warmup=10, reps=30):
    """cuDNN's time (ms, the median of `reps`) for the f16 convolution a
    kernel name such as conv_c64_h56_f64_r3_s1_b32 describes (channels_last,
    cudnn.benchmark, the padding r // 2 inside the convolution), with its
    parameters (c, h, k, r, s, n) and FLOPs."""
    import torch.nn.functional as F

    c, h, k, r, s, n = (int(x) for x in re.match(
        r"conv_c(\d+)_h(\d+)_f(\d+)_r(\d+)_s(\d+)_b(\d+)", name).groups())
    torch.backends.cudnn.benchmark = True
    p = r // 2
    oh = (h + 2 * p - r) // s + 1
    x = torch.randn(n, c, h, h, device="cuda", dtype=torch.float16).to(
        memory_format=torch.channels_last)
    w = torch.randn(k, c, r, r, device="cuda", dtype=torch.float16).to(
        memory_format=torch.channels_last)
    ms = median_ms(lambda: F.conv2d(x, w, stride=s, padding=p), warmup=warmup, reps=reps)
    return ms, (c, h, k, r, s, n), 2 * n * oh * oh * k * c * r * r
