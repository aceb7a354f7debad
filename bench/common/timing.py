# GPU timing shared by the benchmark drivers: the same method as hidet-run
# (each repetition queued behind a ~100 us GPU sleep so that host launch
# gaps stay out, bracketed by CUDA events, median).
import torch


def median_ms(fn, warmup=10, reps=100):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(200000)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]
