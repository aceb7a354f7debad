#!/usr/bin/env python3
"""Generate ONNX models (random weights) and reference data for Hidet-MLIR.

Writes float32 ONNX models of a few well-known networks, exported with
PyTorch's ONNX exporter, and optionally one random input set with PyTorch's
own float32 outputs for it, in the ONNX backend-test layout, so that the
compiler's results can be checked against PyTorch's.

Nothing is downloaded: weights are random (torch.manual_seed(--seed) before
each model is built), torchvision models are built with weights=None, and
BERT and GPT-2 are written here as plain torch.nn.Modules (transformers is not
needed). Tensors that initialization leaves constant (zero biases, unit norm
scales, BatchNorm statistics, ViT's zero head) get small random values, so
every weight is distinct and the reference data exercises all of them.

Usage (Debian's python3-torch; on machines where `python3` on PATH is another
interpreter without torch, run /usr/bin/python3 explicitly):

    python3 utils/models/generate.py --out DIR
        [--models bert,gpt2,resnet50,vit,mobilenetv2,efficientnet_b0]
        [--batch 1] [--seq 128] [--opset 17] [--exporter torchscript] [--seed 0]
        [--layers N] [--vocab N] [--gpt2-lm-head tied|separate]
        [--dynamic-batch] [--external-data] [--reference] [--threads 1]

Models (--models, comma-separated; default all):
    bert             BERT-base encoder: word, position and token-type
                     embeddings + LayerNorm, 12 post-LayerNorm layers, hidden
                     768, 12 heads, FFN 3072 with GELU (erf). Inputs input_ids
                     and attention_mask (int64 [B, S]); the mask becomes the
                     additive attention bias (1 - mask) * lowest, lowest the
                     float dtype's lowest finite value (float32: -3.4e38), as
                     Hugging Face's BERT writes it. Output last_hidden_state
                     float32 [B, S, 768].
    gpt2             GPT-2 small: learned positions, 12 pre-LayerNorm layers,
                     hidden 768, 12 heads, fused qkv Linear then split, causal
                     mask from a tril buffer (masked scores set to the dtype's
                     lowest value), GELU (tanh), final LayerNorm, lm_head
                     (tied to the token embedding by default). Inputs
                     input_ids and attention_mask (int64 [B, S]; the mask
                     added to the causally masked scores as BERT's bias, as
                     Hugging Face's GPT2Model does); output logits float32
                     [B, S, 50257].
    resnet50, mobilenetv2, efficientnet_b0, vit (vit_b_16)
                     torchvision, eval mode. Input `input` float32
                     [B, 3, 224, 224]; output `output` float32 [B, 1000].
    hf_bert, hf_gpt2, hf_llama, hf_vit, timm_resnet50, timm_convnext_tiny,
    timm_efficientnet_b0 (and hf_bert_tiny, hf_gpt2_tiny, hf_llama_tiny)
                     the classes people export, built from their
                     configurations (hub_models.py; transformers with its
                     default SDPA attention, timm): BertModel (base, no
                     pooler), GPT2LMHeadModel (small), LlamaModel at
                     Llama-3.2-1B's shape with 8 layers, ViTModel (base);
                     the same inputs as the models above, outputs
                     last_hidden_state or logits (timm: `output`). They
                     need transformers and timm (the GPU machine has them)
                     and are not in the default --models.

Options:
    --layers N       number of transformer layers of bert, gpt2 and vit
                     (default: the model's own, 12). A model built with
                     another count is written as <model>_l<N>, e.g. bert_l2.
    --exporter E     torchscript (default; opset 17) or dynamo (PyTorch
                     2.x's default exporter, torch.onnx.export(dynamo=True);
                     opset 18), whose files are named <stem>_dynamo.
    --dynamic-batch  marks dim 0 of every graph input and output symbolic
                     ("batch", through dynamic_axes); importers must
                     specialize it. The outputs' other dims are declared
                     static. Reference data still uses --batch.
    --external-data  saves the weights next to the model, in
                     <stem>.onnx.data (onnx.save_model with
                     save_as_external_data=True), instead of inside it.
    --reference      also writes one random input set and PyTorch's outputs
                     for it (see below).
    --threads N      torch intra-op threads (default 1, to stay light on
                     shared machines).

Writes, for each model (stem = model name, plus _l<N> for --layers):
    DIR/<stem>.onnx                  the model (opset --opset, constant-folded)
    DIR/<stem>.onnx.data             its weights, with --external-data
    DIR/<stem>/test_data_set_0/input_<k>.pb, output_<k>.pb
                                     with --reference: ONNX TensorProtos
                                     named after the graph inputs/outputs
    DIR/<stem>/test_data_set_0/input_<k>.npy, output_<k>.npy
                                     the same arrays as .npy
and prints for each model the export wall time, file size, node count and
the census of node op types.

The token models' inputs are a padded batch, as batched inference feeds
them: row b holds length[b] random token ids, then the pad id (BERT's [PAD],
0; GPT-2's <|endoftext|>, the last id) up to the sequence length, with
attention_mask 1 on the tokens and 0 on the padding. With one row it has 3/4
of the sequence's tokens; with more, the first row is full, the last has
1/16 of them (at least 1) and the others a random length from 1 to the
sequence length. Padded positions are computed like the others (their
outputs are defined and compared too).

The reference outputs come from PyTorch's eager kernels; another correct
float32 evaluation of the exported graph differs from them by up to ~1e-5
absolute on the transformers (accumulation order over 768/3072-long dot
products), so compare with an absolute tolerance of about 1e-5 or more
(rtol 1e-3, atol 1e-5), not the ONNX backend suite's atol 1e-7.
"""

import argparse
import collections
import gc
import inspect
import os
import resource
import sys
import time
import warnings
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional

try:
    import numpy as np
    import onnx
    import torch
    import torchvision
    from onnx import numpy_helper
    from torch import nn
    # The sibling modules, also when this file is loaded by path
    # (bench/models/torch_baselines.py).
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import hub_models as hub
    from own_models import (Bert, BertConfig, GPT2, GPT2Config, build_vit,
                            tiny_resnet)
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"generate.py: {error}; this needs torch, torchvision and onnx "
             "(Debian: python3-torch, python3-torchvision, python3-onnx); "
             "if `python3` is not /usr/bin/python3, run /usr/bin/python3 "
             "utils/models/generate.py ...")


def randomize_constant_tensors(model: nn.Module) -> None:
    """Give small random values to the float tensors that initialization leaves
    constant: zero biases, unit LayerNorm/BatchNorm scales, BatchNorm running
    statistics, ViT's zero classifier head and class token. Zeros become
    normal(0, 0.02) and a constant c becomes c * uniform(0.8, 1.2) (so running
    variances stay positive). Otherwise the exporter merges equal tensors into
    one initializer (adding Identity nodes), batch norm folds to an identity,
    and reference data could not tell a dropped or swapped bias or scale."""
    with torch.no_grad():
        tensors = list(model.parameters()) + list(model.buffers())
        for t in tensors:
            if not t.is_floating_point() or t.numel() < 2:
                continue
            flat = t.reshape(-1)
            if not bool((flat == flat[0]).all()):
                continue
            value = float(flat[0])
            if value == 0.0:
                t.normal_(0.0, 0.02)
            else:
                t.mul_(torch.empty_like(t).uniform_(0.8, 1.2))


Inputs = Dict[str, torch.Tensor]  # graph input name -> example/reference value


@dataclass
class ModelSpec:
    description: str
    build: Callable[[argparse.Namespace, Optional[int]], nn.Module]  # (args, layers)
    make_inputs: Callable[[argparse.Namespace, torch.Generator], Inputs]
    output_names: List[str]
    default_layers: Optional[int] = None  # None: --layers does not apply


def padded_lengths(batch: int, seq: int, gen: torch.Generator) -> List[int]:
    """The tokens of each row of a padded batch (see the module's help): one
    row 3/4 full; several, the first full, the last 1/16 full (at least one
    token), the others of random lengths from 1 to `seq`."""
    if batch == 1:
        return [max(1, (3 * seq) // 4)]
    middle = torch.randint(1, seq + 1, (batch - 2,), generator=gen).tolist()
    return [seq] + middle + [max(1, seq // 16)]


def padded_token_inputs(batch: int, seq: int, vocab: int, pad_id: int,
                        gen: torch.Generator) -> Inputs:
    """input_ids and attention_mask of a right-padded batch: each row's
    tokens, then `pad_id` where the mask is 0."""
    ids = torch.randint(0, vocab, (batch, seq), generator=gen, dtype=torch.long)
    lengths = torch.tensor(padded_lengths(batch, seq, gen))
    mask = (torch.arange(seq)[None, :] < lengths[:, None]).to(torch.long)
    ids = torch.where(mask.bool(), ids, torch.full_like(ids, pad_id))
    return {"input_ids": ids, "attention_mask": mask}


# The pad ids: BERT's [PAD] is 0, GPT-2 pads with <|endoftext|>, its last id.
def bert_pad(vocab: int) -> int:
    return 0


def gpt2_pad(vocab: int) -> int:
    return vocab - 1


def token_inputs(vocab_size: int, pad: Callable[[int], int]):
    def make(args: argparse.Namespace, gen: torch.Generator) -> Inputs:
        vocab = args.vocab if args.vocab else vocab_size
        return padded_token_inputs(args.batch, args.seq, vocab, pad(vocab), gen)
    return make


def vocab_of(args: argparse.Namespace) -> Dict[str, int]:
    """The --vocab override of the token models' configs, if any."""
    return {"vocab_size": args.vocab} if args.vocab else {}


def image_inputs(args: argparse.Namespace, gen: torch.Generator) -> Inputs:
    return {"input": torch.randn(args.batch, 3, 224, 224, generator=gen)}


# Tiny members of the same families, a few MB or less with their reference
# data, small enough to commit as test inputs (test/Models/).
TINY_SEQ = 32
TINY_IMAGE = 96


def tiny_token_inputs(vocab_size: int, pad: Callable[[int], int]):
    def make(args: argparse.Namespace, gen: torch.Generator) -> Inputs:
        return padded_token_inputs(args.batch, TINY_SEQ, vocab_size, pad(vocab_size), gen)
    return make


def tiny_image_inputs(args: argparse.Namespace, gen: torch.Generator) -> Inputs:
    return {"input": torch.randn(args.batch, 3, TINY_IMAGE, TINY_IMAGE, generator=gen)}


MODELS: Dict[str, ModelSpec] = {
    "bert": ModelSpec(
        "BERT-base encoder (post-LN, GELU erf, hidden 768, 12 heads, FFN 3072)",
        lambda args, layers: Bert(BertConfig(layers=layers, **vocab_of(args))),
        token_inputs(BertConfig.vocab_size, bert_pad),
        ["last_hidden_state"], default_layers=12),
    "gpt2": ModelSpec(
        "GPT-2 small (pre-LN, causal, GELU tanh, hidden 768, 12 heads, vocab 50257)",
        lambda args, layers: GPT2(GPT2Config(layers=layers,
                                             tied_lm_head=args.gpt2_lm_head == "tied",
                                             **vocab_of(args))),
        token_inputs(GPT2Config.vocab_size, gpt2_pad),
        ["logits"], default_layers=12),
    "resnet50": ModelSpec(
        "torchvision resnet50",
        lambda args, layers: torchvision.models.resnet50(weights=None),
        image_inputs, ["output"]),
    "vit": ModelSpec(
        "torchvision vit_b_16 (patch 16, hidden 768, 12 heads, MLP 3072)",
        build_vit, image_inputs, ["output"], default_layers=12),
    "mobilenetv2": ModelSpec(
        "torchvision mobilenet_v2",
        lambda args, layers: torchvision.models.mobilenet_v2(weights=None),
        image_inputs, ["output"]),
    "bert_tiny": ModelSpec(
        "BERT encoder, 2 layers, hidden 64, 4 heads, FFN 128, vocab 512, seq 32",
        lambda args, layers: Bert(BertConfig(vocab_size=512, hidden=64, layers=2, heads=4,
                                             intermediate=128, max_positions=64)),
        tiny_token_inputs(512, bert_pad), ["last_hidden_state"]),
    "gpt2_tiny": ModelSpec(
        "GPT-2 (causal), 2 layers, hidden 64, 4 heads, vocab 512, seq 32",
        lambda args, layers: GPT2(GPT2Config(vocab_size=512, hidden=64, layers=2, heads=4,
                                             max_positions=64)),
        tiny_token_inputs(512, gpt2_pad), ["logits"]),
    "resnet_tiny": ModelSpec(
        "ResNet of two BasicBlock stages (16, 32 channels), 96x96, 10 classes",
        lambda args, layers: tiny_resnet(), tiny_image_inputs, ["output"]),
    "mobilenetv2_tiny": ModelSpec(
        "torchvision mobilenet_v2(width_mult=0.25), 96x96, 10 classes",
        lambda args, layers: torchvision.models.mobilenet_v2(weights=None, width_mult=0.25,
                                                             num_classes=10),
        tiny_image_inputs, ["output"]),
    "efficientnet_b0": ModelSpec(
        "torchvision efficientnet_b0",
        lambda args, layers: torchvision.models.efficientnet_b0(weights=None),
        image_inputs, ["output"]),
    # Off-the-shelf definitions (hub_models.py: transformers with SDPA
    # attention, timm), as users export them.
    "hf_bert": ModelSpec(
        "transformers BertModel, base (no pooler)",
        lambda args, layers: hub.hf_bert(layers),
        token_inputs(30522, bert_pad), ["last_hidden_state"], default_layers=12),
    "hf_gpt2": ModelSpec(
        "transformers GPT2LMHeadModel, small",
        lambda args, layers: hub.hf_gpt2(layers),
        token_inputs(50257, gpt2_pad), ["logits"], default_layers=12),
    "hf_llama": ModelSpec(
        "transformers LlamaModel at Llama-3.2-1B's shape (GQA 32/8 heads, RoPE, RMSNorm, SwiGLU)",
        lambda args, layers: hub.hf_llama(layers),
        token_inputs(128256, bert_pad), ["last_hidden_state"], default_layers=8),
    "hf_vit": ModelSpec(
        "transformers ViTModel, base (patch 16, no pooler)",
        lambda args, layers: hub.hf_vit(layers),
        image_inputs, ["last_hidden_state"], default_layers=12),
    "timm_resnet50": ModelSpec(
        "timm resnet50", lambda args, layers: hub.timm_model("resnet50"),
        image_inputs, ["output"]),
    "timm_convnext_tiny": ModelSpec(
        "timm convnext_tiny", lambda args, layers: hub.timm_model("convnext_tiny"),
        image_inputs, ["output"]),
    "timm_efficientnet_b0": ModelSpec(
        "timm efficientnet_b0", lambda args, layers: hub.timm_model("efficientnet_b0"),
        image_inputs, ["output"]),
    "hf_bert_tiny": ModelSpec(
        "transformers BertModel, 2 layers, hidden 64, 4 heads, vocab 512, seq 32",
        lambda args, layers: hub.hf_bert(2, tiny=True),
        tiny_token_inputs(512, bert_pad), ["last_hidden_state"]),
    "hf_gpt2_tiny": ModelSpec(
        "transformers GPT2LMHeadModel, 2 layers, hidden 64, 4 heads, vocab 512, seq 32",
        lambda args, layers: hub.hf_gpt2(2, tiny=True),
        tiny_token_inputs(512, gpt2_pad), ["logits"]),
    "hf_llama_tiny": ModelSpec(
        "transformers LlamaModel, 2 layers, hidden 64, 4 heads of 16, 2 KV heads, vocab 512, seq 32",
        lambda args, layers: hub.hf_llama(2, tiny=True),
        tiny_token_inputs(512, bert_pad), ["last_hidden_state"]),
}
# What the project's own definitions need; the others import transformers
# or timm when built.
OWN_MODELS = [name for name in MODELS if not name.startswith(("hf_", "timm_"))]


# --------------------------------------------------------------------------
# Export, reference data, reporting.
# --------------------------------------------------------------------------

def mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


def peak_rss() -> str:
    return mib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)  # Linux: KiB


def np_dtype(elem_type: int) -> np.dtype:
    if hasattr(onnx.helper, "tensor_dtype_to_np_dtype"):  # onnx >= 1.13
        return onnx.helper.tensor_dtype_to_np_dtype(elem_type)
    return onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[elem_type]


def describe_values(values) -> str:
    """'name dtype [d0, d1, ...]' for graph inputs/outputs (symbolic dims by name)."""
    out = []
    for v in values:
        t = v.type.tensor_type
        dims = [d.dim_param if d.dim_param else str(d.dim_value) for d in t.shape.dim]
        dtype = np_dtype(t.elem_type).name
        out.append(f"{v.name} {dtype} [{', '.join(dims)}]")
    return "; ".join(out)


def write_reference(directory: str, inputs: Dict[str, np.ndarray],
                    outputs: Dict[str, np.ndarray]) -> None:
    """One test_data_set_0 in the ONNX backend-test layout, plus .npy copies."""
    os.makedirs(directory, exist_ok=True)
    for kind, arrays in (("input", inputs), ("output", outputs)):
        for k, (name, array) in enumerate(arrays.items()):
            base = os.path.join(directory, f"{kind}_{k}")
            with open(base + ".pb", "wb") as f:
                f.write(numpy_helper.from_array(array, name).SerializeToString())
            np.save(base + ".npy", array)


def generate(name: str, args: argparse.Namespace) -> None:
    spec = MODELS[name]
    layers = None
    stem = name
    if spec.default_layers is not None:
        layers = args.layers if args.layers is not None else spec.default_layers
        if layers != spec.default_layers:
            stem = f"{name}_l{layers}"
        if args.vocab:
            stem += f"_v{args.vocab}"
    if args.exporter == "dynamo":
        stem += "_dynamo"
    path = os.path.join(args.out, stem + ".onnx")
    data_name = stem + ".onnx.data"
    data_path = os.path.join(args.out, data_name)
    print(f"== {stem}: {spec.description}" + (f", {layers} layers" if layers else ""), flush=True)

    torch.manual_seed(args.seed)
    model = spec.build(args, layers).eval()
    randomize_constant_tensors(model)
    inputs = spec.make_inputs(args, torch.Generator().manual_seed(args.seed))
    input_names = list(inputs)
    output_names = spec.output_names

    # PyTorch's outputs: the reference data, and with --dynamic-batch the
    # output shapes, which the exporter's shape inference partly loses. Run,
    # like the export below, with grad enabled: under no_grad,
    # nn.MultiheadAttention (vit) takes a fused fast path that has no ONNX
    # export, and the reference should come from the code that is exported.
    reference_outputs = None
    if args.reference or args.dynamic_batch:
        start = time.perf_counter()
        result = model(*inputs.values())
        if isinstance(result, torch.Tensor):
            result = (result,)
        assert len(result) == len(output_names), (name, len(result))
        reference_outputs = {n: t.detach().numpy() for n, t in zip(output_names, result)}
        stats = ", ".join(f"{n} mean|x| {np.abs(a).mean():.3g} max|x| {np.abs(a).max():.3g}"
                          for n, a in reference_outputs.items())
        print(f"   pytorch forward {time.perf_counter() - start:.1f} s: {stats}", flush=True)
        for n, a in reference_outputs.items():
            if not np.isfinite(a).all():
                sys.exit(f"generate.py: {stem}: output {n} is not finite")

    dynamic_axes = None
    if args.dynamic_batch:
        dynamic_axes = {n: {0: "batch"} for n in input_names + output_names}
    for stale in (path, data_path):
        if os.path.exists(stale):
            os.remove(stale)  # onnx appends to an existing external-data file
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        # PyTorch 2.x exports through dynamo by default (opset 18 and
        # another graph); dynamo=False keeps the TorchScript exporter that
        # PyTorch 1.13 has, so both write the same graphs.
        parameters = inspect.signature(torch.onnx.export).parameters
        extra = {}
        if args.exporter == "dynamo":
            extra["dynamo"] = True
            if "external_data" in parameters:
                extra["external_data"] = args.external_data
        else:
            if "dynamo" in parameters:
                extra["dynamo"] = False
            extra.update(dynamic_axes=dynamic_axes, do_constant_folding=True)
        torch.onnx.export(model, tuple(inputs.values()), path,
                          opset_version=args.opset,
                          input_names=input_names,
                          output_names=output_names, **extra)
    export_seconds = time.perf_counter() - start
    del model
    gc.collect()

    proto = onnx.load(path)
    graph = proto.graph
    rewrite = args.external_data
    if args.dynamic_batch:
        # Declare the outputs' other dims (e.g. the sequence) as the static
        # values they are, so that "batch" is the only symbolic dim.
        for value in graph.output:
            dims = value.type.tensor_type.shape.dim
            for d, extent in list(zip(dims, reference_outputs[value.name].shape))[1:]:
                d.Clear()
                d.dim_value = extent
        rewrite = True
    onnx.checker.check_model(proto)
    got_inputs = [i.name for i in graph.input]
    got_outputs = [o.name for o in graph.output]
    assert got_inputs == input_names, f"{name}: graph inputs {got_inputs} != {input_names}"
    assert got_outputs == output_names, f"{name}: graph outputs {got_outputs} != {output_names}"
    census = collections.Counter(node.op_type for node in graph.node)
    node_count, initializer_count = len(graph.node), len(graph.initializer)
    weight_bytes = sum(len(t.raw_data) for t in graph.initializer)
    signature = (describe_values(graph.input), describe_values(graph.output))
    if rewrite:
        onnx.save_model(proto, path, save_as_external_data=args.external_data,
                        all_tensors_to_one_file=True, location=data_name, size_threshold=1024)
    del proto, graph
    gc.collect()

    size = os.path.getsize(path)
    print(f"   export {export_seconds:.1f} s -> {path} {mib(size)}"
          + (f" + {data_name} {mib(os.path.getsize(data_path))}" if args.external_data else ""))
    print(f"   {node_count} nodes, {initializer_count} initializers "
          f"({mib(weight_bytes)}), opset {args.opset}")
    print(f"   inputs:  {signature[0]}")
    print(f"   outputs: {signature[1]}")
    print("   ops: " + ", ".join(f"{op} {n}" for op, n in census.most_common()))

    if args.reference:
        directory = os.path.join(args.out, stem, "test_data_set_0")
        write_reference(directory, {n: t.numpy() for n, t in inputs.items()}, reference_outputs)
        ref_bytes = sum(os.path.getsize(os.path.join(directory, f)) for f in os.listdir(directory))
        print(f"   reference: {directory} ({len(inputs)} inputs, {len(reference_outputs)} outputs, "
              f"{mib(ref_bytes)})")
    print(f"   peak RSS so far {peak_rss()}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Generate ONNX models with random weights (and reference data).",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--models", default=",".join(OWN_MODELS),
                        help=f"comma-separated, from {','.join(MODELS)} (default: the "
                             "project's own definitions, those without hf_ or timm_)")
    parser.add_argument("--batch", type=int, default=1, help="batch size (default 1)")
    parser.add_argument("--seq", type=int, default=128,
                        help="sequence length of bert and gpt2 (default 128)")
    parser.add_argument("--opset", type=int, default=None,
                        help="ONNX opset (default 17, with --exporter=dynamo 18)")
    parser.add_argument("--exporter", choices=("torchscript", "dynamo"), default="torchscript",
                        help="torch.onnx.export's TorchScript exporter (default) or, as "
                             "PyTorch 2.x exports by default, dynamo (files named ..._dynamo)")
    parser.add_argument("--seed", type=int, default=0, help="weights and inputs seed (default 0)")
    parser.add_argument("--layers", type=int, default=None,
                        help="transformer layers of bert, gpt2, vit (default 12); "
                             "files are named <model>_l<N> when not the default")
    parser.add_argument("--vocab", type=int, default=None,
                        help="vocabulary of bert and gpt2 (default 30522 and 50257); a small "
                             "one keeps the embedding small for tests; files are named "
                             "..._v<N>")
    parser.add_argument("--gpt2-lm-head", choices=("tied", "separate"), default="tied",
                        help="GPT-2's lm_head shares the token embedding (default) or not")
    parser.add_argument("--dynamic-batch", action="store_true",
                        help="make dim 0 of the graph inputs and outputs symbolic ('batch')")
    parser.add_argument("--external-data", action="store_true",
                        help="save weights in <model>.onnx.data next to the model")
    parser.add_argument("--reference", action="store_true",
                        help="write test_data_set_0 with random inputs and PyTorch's outputs")
    parser.add_argument("--threads", type=int, default=1,
                        help="torch intra-op threads (default 1)")
    args = parser.parse_args()

    names = [m.strip() for m in args.models.split(",") if m.strip()]
    unknown = [m for m in names if m not in MODELS]
    if unknown:
        parser.error(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(MODELS)}")
    if args.batch < 1 or args.seq < 1 or (args.layers is not None and args.layers < 1):
        parser.error("--batch, --seq and --layers must be positive")
    if "bert" in names and args.seq > BertConfig.max_positions:
        parser.error(f"bert: --seq at most {BertConfig.max_positions}")
    if "gpt2" in names and args.seq > GPT2Config.max_positions:
        parser.error(f"gpt2: --seq at most {GPT2Config.max_positions}")

    if args.exporter == "dynamo":
        if "dynamo" not in inspect.signature(torch.onnx.export).parameters:
            parser.error("--exporter=dynamo needs PyTorch 2.x")
        if args.dynamic_batch:
            parser.error("--dynamic-batch takes the TorchScript exporter's dynamic_axes")
    if args.opset is None:
        args.opset = 18 if args.exporter == "dynamo" else 17
    torch.set_num_threads(args.threads)
    os.makedirs(args.out, exist_ok=True)
    print(f"torch {torch.__version__}, torchvision {torchvision.__version__}, "
          f"onnx {onnx.__version__}; batch {args.batch}, seq {args.seq}, opset {args.opset}, "
          f"seed {args.seed}" + (", dynamic batch" if args.dynamic_batch else ""), flush=True)
    for name in names:
        generate(name, args)


if __name__ == "__main__":
    main()
