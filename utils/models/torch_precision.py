#!/usr/bin/env python3
"""How far PyTorch's own 16-bit inference is from its float32 outputs.

Runs an ONNX model written by generate.py with PyTorch (torch.nn.functional,
one op at a time, on CUDA when there is a GPU) in float16, bfloat16 or
float32, on the inputs of its test_data_set_0, and prints, for each output,
the largest absolute difference from the float32 outputs stored there, that
difference over the largest |expected|, and the relative L2 error
||out - expected|| / ||expected||. These are the yardsticks for the
compiler's own --precision=f16|bf16 results on the same model: random
weights give logits of magnitude 10 to 100, where an elementwise atol of
1e-2 says little.

Usage:
    python3 utils/models/torch_precision.py MODEL_DIR [--dtype float16]
MODEL_DIR holds model.onnx and test_data_set_0/ (the layout of
onnx-conformance.sh's --data and of the generator's --reference). Only the
ops of the generator's models are interpreted; another op is an error.
"""
import argparse
import glob
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper
import torch
import torch.nn.functional as F


def attrs(node):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def conv(x, w, b=None, dilations=(1, 1), group=1, pads=(0, 0, 0, 0),
         strides=(1, 1), **_):
    n = len(strides)
    if list(pads[:n]) != list(pads[n:]):
        raise ValueError("asymmetric Conv padding")
    return F.conv2d(x, w, b, tuple(strides), tuple(pads[:n]), tuple(dilations),
                    group)


def maxpool(x, kernel_shape, pads=(0, 0, 0, 0), strides=None, ceil_mode=0,
            **_):
    n = len(kernel_shape)
    return F.max_pool2d(x, tuple(kernel_shape), tuple(strides or kernel_shape),
                        tuple(pads[:n]), ceil_mode=bool(ceil_mode))


def gemm(a, b, c=None, alpha=1.0, beta=1.0, transA=0, transB=0):
    a = a.t() if transA else a
    b = b.t() if transB else b
    y = alpha * (a @ b)
    return y if c is None else y + beta * c


def layernorm(x, w, b=None, axis=-1, epsilon=1e-5, **_):
    axis = axis % x.dim()
    shape = tuple(x.shape[axis:])
    # Statistics in float32, as the compiler's --precision keeps them.
    return F.layer_norm(x.float(), shape, w.float(),
                        None if b is None else b.float(),
                        epsilon).to(x.dtype)


def softmax(x, axis=-1):
    return torch.softmax(x.float(), axis).to(x.dtype)


def split(x, sizes=None, axis=0, num_outputs=None):
    if sizes is None:
        return torch.chunk(x, num_outputs, axis)
    return torch.split(x, [int(s) for s in sizes.tolist()], axis)


def reshape(x, shape, allowzero=0):
    shape = [int(s) for s in shape.tolist()]
    shape = [x.shape[i] if s == 0 and not allowzero else s
             for i, s in enumerate(shape)]
    return x.reshape(shape)


def unsqueeze(x, axes):
    for a in sorted(int(a) for a in axes.tolist()):
        x = x.unsqueeze(a)
    return x


def cast(x, to):
    float_type = {1: None, 10: None, 16: None}
    if to in float_type:
        return x.to(RUN_DTYPE)
    return x.to({6: torch.int32, 7: torch.int64, 9: torch.bool}[to])


OPS = {
    "Add": lambda a, b: a + b,
    "Sub": lambda a, b: a - b,
    "Mul": lambda a, b: a * b,
    "Div": lambda a, b: a / b,
    "Pow": lambda a, b: torch.pow(a, b),
    "Sqrt": torch.sqrt,
    "Relu": F.relu,
    "Tanh": torch.tanh,
    "Erf": torch.erf,
    "Sigmoid": torch.sigmoid,
    "MatMul": torch.matmul,
    "Gemm": gemm,
    "Conv": conv,
    "MaxPool": maxpool,
    "GlobalAveragePool": lambda x: x.mean(dim=(2, 3), keepdim=True),
    "Flatten": lambda x, axis=1: x.flatten(axis),
    "Gather": lambda x, i, axis=0: torch.index_select(
        x, axis, i.reshape(-1).long()).reshape(
            x.shape[:axis] + i.shape + x.shape[axis + 1:]),
    "LayerNormalization": layernorm,
    "Softmax": softmax,
    "Split": split,
    "Reshape": reshape,
    "Transpose": lambda x, perm: x.permute(perm),
    "Unsqueeze": unsqueeze,
    "Where": lambda c, a, b: torch.where(c, a, b),
    "Cast": cast,
    "Identity": lambda x: x,
}

RUN_DTYPE = torch.float32


def tensor(array, device):
    t = torch.from_numpy(np.array(array))
    if t.is_floating_point():
        t = t.to(RUN_DTYPE)
    return t.to(device)


def main():
    global RUN_DTYPE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model_dir")
    parser.add_argument("--dtype", default="float16",
                        choices=["float16", "bfloat16", "float32"])
    args = parser.parse_args()
    RUN_DTYPE = getattr(torch, args.dtype)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = onnx.load(os.path.join(args.model_dir, "model.onnx"))
    data = os.path.join(args.model_dir, "test_data_set_0")
    values = {i.name: tensor(numpy_helper.to_array(i), device)
              for i in model.graph.initializer}
    inputs = [i.name for i in model.graph.input if i.name not in values]
    for name, path in zip(inputs, sorted(glob.glob(data + "/input_*.pb"))):
        values[name] = tensor(numpy_helper.to_array(onnx.load_tensor(path)),
                              device)
    values[""] = None
    with torch.no_grad():
        for node in model.graph.node:
            a = attrs(node)
            if node.op_type == "Constant":
                values[node.output[0]] = tensor(
                    numpy_helper.to_array(a["value"]), device)
                continue
            if node.op_type not in OPS:
                sys.exit(f"torch_precision: op {node.op_type} is not "
                         f"interpreted")
            args_in = [values[i] for i in node.input]
            out = OPS[node.op_type](*args_in, **a)
            outs = out if isinstance(out, (tuple, list)) else [out]
            for name, v in zip(node.output, outs):
                values[name] = v
    for k, (o, path) in enumerate(zip(model.graph.output, sorted(
            glob.glob(data + "/output_*.pb")))):
        expected = numpy_helper.to_array(onnx.load_tensor(path)).astype(
            np.float64)
        got = values[o.name].double().cpu().numpy()
        diff = np.abs(got - expected)
        print(f"{o.name}: torch {args.dtype} on {device}: max_abs="
              f"{diff.max():.3g} max_abs/max|expected|="
              f"{diff.max() / np.abs(expected).max():.3g} rel_l2="
              f"{np.linalg.norm(got - expected) / np.linalg.norm(expected):.3g}")


if __name__ == "__main__":
    main()
