# Baselines for the rule-based kernels, measured on the device in the same
# run as hidet-run: the copy ceiling, PyTorch eager for add and transpose,
# torch.compile for the last-axis sum, softmax and layer norm. Timing matches
# hidet-run: each repetition is queued behind a ~100 us GPU sleep (so host
# launch gaps stay out), bracketed by CUDA events, on the same buffers;
# median.
# Writes baselines.json in the directory given as argv[1].
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from timing import median_ms  # noqa: E402
import torch.nn.functional as F




def main(out_dir):
    dev = torch.device("cuda")
    res = {"device": torch.cuda.get_device_name(), "torch": torch.__version__}
    # Copy ceiling: 2 GiB -> 2 GiB, bytes read + written.
    n = (2 << 30) // 4
    src = torch.randn(n, device=dev)
    dst = torch.empty_like(src)
    t = median_ms(lambda: dst.copy_(src), reps=50)
    res["copy_2GiB_ms"] = t
    res["copy_TBps"] = 2 * n * 4 / (t * 1e-3) / 1e12
    del src, dst
    a = torch.randn(8192, 8192, device=dev)
    b = torch.randn(8192, 8192, device=dev)
    c = torch.empty_like(a)
    res["add_f32_8192x8192_eager_ms"] = median_ms(lambda: torch.add(a, b, out=c))
    res["transpose_f32_8192x8192_eager_ms"] = median_ms(
        lambda: c.copy_(a.t()))
    x = torch.randn(4096, 768, device=dev, dtype=torch.float16)
    g = torch.randn(768, device=dev, dtype=torch.float16)
    bb = torch.randn(768, device=dev, dtype=torch.float16)
    eager = {
        "rowsum": lambda x: x.float().sum(-1).half(),
        "softmax": lambda x: torch.softmax(x.float(), -1).half(),
        "layernorm": lambda x: F.layer_norm(x.float(), (768,), g.float(),
                                            bb.float(), 1e-5).half(),
    }
    for name, fn in eager.items():
        compiled = torch.compile(fn)
        res[f"{name}_f16_4096x768_compile_ms"] = median_ms(lambda: compiled(x))
        res[f"{name}_f16_4096x768_eager_ms"] = median_ms(lambda: fn(x))
    with open(f"{out_dir}/baselines.json", "w") as f:
        json.dump(res, f, indent=2)
    print(json.dumps(res, indent=2))


if __name__ == "__main__":
    main(sys.argv[1])
