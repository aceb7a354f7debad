# Shared by the benchmark reports: the geometric mean of ratios, the names
# and JSON of the results files, and GPU timing by the same method as hidet-run (each
# repetition queued behind a GPU sleep so that host launch gaps stay out,
# bracketed by CUDA events, median). The sleep is ~1 ms rather than
# hidet-run's ~100 us: torch.compile's Python dispatch (its guards) can take
# longer than 100 us, which would then count as GPU time.
import json
import math
import os
import re

import torch


def geomean(xs):
    """Geometric mean of the positive numbers `xs` (None when empty)."""
    xs = list(xs)
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def median_ms(fn, warmup=10, reps=100):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(2000000)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
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
