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
        [--batch 1] [--seq 128] [--opset 17] [--seed 0]
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

Options:
    --layers N       number of transformer layers of bert, gpt2 and vit
                     (default: the model's own, 12). A model built with
                     another count is written as <model>_l<N>, e.g. bert_l2.
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
import math
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
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"generate.py: {error}; this needs torch, torchvision and onnx "
             "(Debian: python3-torch, python3-torchvision, python3-onnx); "
             "if `python3` is not /usr/bin/python3, run /usr/bin/python3 "
             "utils/models/generate.py ...")


# --------------------------------------------------------------------------
# Weight initialization shared by BERT and GPT-2: the Hugging Face scheme
# (normal(0, 0.02) weights, zero biases, unit LayerNorm), so that random
# models have activations of realistic magnitude (PyTorch's default Linear
# init would give larger, softmax-saturating attention scores).
# --------------------------------------------------------------------------

def init_transformer_weights(module: nn.Module, std: float = 0.02) -> None:
    for m in module.modules():
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, mean=0.0, std=std)
            if isinstance(m, nn.Linear) and m.bias is not None:
                nn.init.zeros_(m.bias)
        elif isinstance(m, nn.LayerNorm):
            nn.init.ones_(m.weight)
            nn.init.zeros_(m.bias)


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


# Head split/merge as Hugging Face writes them: the head sizes are Python
# ints, batch and sequence come from the traced shape.

def split_heads(x: torch.Tensor, heads: int, head_dim: int) -> torch.Tensor:
    """[B, S, H*D] -> [B, H, S, D]."""
    return x.view(x.shape[:-1] + (heads, head_dim)).permute(0, 2, 1, 3)


def merge_heads(x: torch.Tensor, heads: int, head_dim: int) -> torch.Tensor:
    """[B, H, S, D] -> [B, S, H*D]."""
    x = x.permute(0, 2, 1, 3)
    return x.reshape(x.shape[:-2] + (heads * head_dim,))


def attention_bias(attention_mask: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """[B, S] mask of 1 (attend) and 0 (padding) -> the additive bias [B, 1,
    1, S] on the scores: 0 where attended, the dtype's lowest finite value
    where masked, as Hugging Face's get_extended_attention_mask writes it."""
    mask = attention_mask[:, None, None, :].to(dtype)
    return (1.0 - mask) * torch.finfo(dtype).min


# --------------------------------------------------------------------------
# BERT-base encoder (no pooler), post-LayerNorm.
# --------------------------------------------------------------------------

@dataclass
class BertConfig:
    vocab_size: int = 30522
    hidden: int = 768
    layers: int = 12
    heads: int = 12
    intermediate: int = 3072
    max_positions: int = 512
    type_vocab_size: int = 2
    eps: float = 1e-12


class BertSelfAttention(nn.Module):
    def __init__(self, c: BertConfig):
        super().__init__()
        self.heads = c.heads
        self.head_dim = c.hidden // c.heads
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.query = nn.Linear(c.hidden, c.hidden)
        self.key = nn.Linear(c.hidden, c.hidden)
        self.value = nn.Linear(c.hidden, c.hidden)

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        q = split_heads(self.query(x), self.heads, self.head_dim)
        k = split_heads(self.key(x), self.heads, self.head_dim)
        v = split_heads(self.value(x), self.heads, self.head_dim)
        scores = torch.matmul(q, k.transpose(-1, -2)) * self.scale + bias
        probs = torch.softmax(scores, dim=-1)
        return merge_heads(torch.matmul(probs, v), self.heads, self.head_dim)


class BertLayer(nn.Module):
    def __init__(self, c: BertConfig):
        super().__init__()
        self.attention = BertSelfAttention(c)
        self.attention_output = nn.Linear(c.hidden, c.hidden)
        self.attention_norm = nn.LayerNorm(c.hidden, eps=c.eps)
        self.intermediate = nn.Linear(c.hidden, c.intermediate)
        self.activation = nn.GELU()  # erf form
        self.output = nn.Linear(c.intermediate, c.hidden)
        self.output_norm = nn.LayerNorm(c.hidden, eps=c.eps)

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        x = self.attention_norm(x + self.attention_output(self.attention(x, bias)))
        return self.output_norm(x + self.output(self.activation(self.intermediate(x))))


class Bert(nn.Module):
    """BERT encoder: (input_ids, attention_mask) -> last_hidden_state."""

    def __init__(self, c: BertConfig):
        super().__init__()
        self.word_embeddings = nn.Embedding(c.vocab_size, c.hidden)
        self.position_embeddings = nn.Embedding(c.max_positions, c.hidden)
        self.token_type_embeddings = nn.Embedding(c.type_vocab_size, c.hidden)
        self.embedding_norm = nn.LayerNorm(c.hidden, eps=c.eps)
        self.layers = nn.ModuleList(BertLayer(c) for _ in range(c.layers))
        # Like Hugging Face: positions and (all-zero) token types are buffers
        # sliced to the sequence length, not inputs.
        self.register_buffer("position_ids", torch.arange(c.max_positions).unsqueeze(0),
                             persistent=False)
        self.register_buffer("token_type_ids",
                             torch.zeros(1, c.max_positions, dtype=torch.long),
                             persistent=False)
        init_transformer_weights(self)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        s = input_ids.shape[1]
        x = (self.word_embeddings(input_ids)
             + self.token_type_embeddings(self.token_type_ids[:, :s])
             + self.position_embeddings(self.position_ids[:, :s]))
        x = self.embedding_norm(x)
        bias = attention_bias(attention_mask, x.dtype)
        for layer in self.layers:
            x = layer(x, bias)
        return x


# --------------------------------------------------------------------------
# GPT-2 small, pre-LayerNorm, causal.
# --------------------------------------------------------------------------

@dataclass
class GPT2Config:
    vocab_size: int = 50257
    hidden: int = 768
    layers: int = 12
    heads: int = 12
    max_positions: int = 1024
    eps: float = 1e-5
    tied_lm_head: bool = True


class GPT2Attention(nn.Module):
    def __init__(self, c: GPT2Config):
        super().__init__()
        self.heads = c.heads
        self.hidden = c.hidden
        self.head_dim = c.hidden // c.heads
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.c_attn = nn.Linear(c.hidden, 3 * c.hidden)
        self.c_proj = nn.Linear(c.hidden, c.hidden)
        n = c.max_positions
        self.register_buffer("bias", torch.tril(torch.ones(n, n, dtype=torch.bool)).view(1, 1, n, n),
                             persistent=False)

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        s = x.shape[1]
        q, k, v = self.c_attn(x).split(self.hidden, dim=2)
        q, k, v = (split_heads(t, self.heads, self.head_dim) for t in (q, k, v))
        scores = torch.matmul(q, k.transpose(-1, -2)) * self.scale
        causal = self.bias[:, :, :s, :s]
        # On the scores' device, so that the forward can be captured in a
        # CUDA graph (no host-to-device copy).
        masked = torch.full((), torch.finfo(scores.dtype).min, dtype=scores.dtype,
                            device=scores.device)
        # Then the padding, as Hugging Face's GPT2Attention adds it: a
        # position both masked sums to -inf, whose weight is 0 all the same.
        scores = torch.where(causal, scores, masked) + bias
        probs = torch.softmax(scores, dim=-1)
        return self.c_proj(merge_heads(torch.matmul(probs, v), self.heads, self.head_dim))


class GPT2Block(nn.Module):
    def __init__(self, c: GPT2Config):
        super().__init__()
        self.ln_1 = nn.LayerNorm(c.hidden, eps=c.eps)
        self.attn = GPT2Attention(c)
        self.ln_2 = nn.LayerNorm(c.hidden, eps=c.eps)
        self.c_fc = nn.Linear(c.hidden, 4 * c.hidden)
        self.act = nn.GELU(approximate="tanh")
        self.c_proj = nn.Linear(4 * c.hidden, c.hidden)

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln_1(x), bias)
        return x + self.c_proj(self.act(self.c_fc(self.ln_2(x))))


class GPT2(nn.Module):
    """GPT-2 language model: (input_ids, attention_mask) -> logits."""

    def __init__(self, c: GPT2Config):
        super().__init__()
        self.wte = nn.Embedding(c.vocab_size, c.hidden)
        self.wpe = nn.Embedding(c.max_positions, c.hidden)
        self.h = nn.ModuleList(GPT2Block(c) for _ in range(c.layers))
        self.ln_f = nn.LayerNorm(c.hidden, eps=c.eps)
        self.lm_head = nn.Linear(c.hidden, c.vocab_size, bias=False)
        self.register_buffer("position_ids", torch.arange(c.max_positions).unsqueeze(0),
                             persistent=False)
        init_transformer_weights(self)
        # GPT-2's scaled init of the residual projections.
        for block in self.h:
            for proj in (block.attn.c_proj, block.c_proj):
                nn.init.normal_(proj.weight, mean=0.0, std=0.02 / math.sqrt(2 * c.layers))
        if c.tied_lm_head:
            self.lm_head.weight = self.wte.weight

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        s = input_ids.shape[1]
        x = self.wte(input_ids) + self.wpe(self.position_ids[:, :s])
        bias = attention_bias(attention_mask, x.dtype)
        for block in self.h:
            x = block(x, bias)
        return self.lm_head(self.ln_f(x))


# --------------------------------------------------------------------------
# The model registry.
# --------------------------------------------------------------------------

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


def tiny_resnet() -> nn.Module:
    """A ResNet of torchvision's BasicBlocks: stem, two stages (16 and 32
    channels, the second strided with a 1x1 projection), pooling, 10 classes."""
    from torchvision.models.resnet import BasicBlock
    down = nn.Sequential(nn.Conv2d(16, 32, 1, stride=2, bias=False), nn.BatchNorm2d(32))
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(16),
        nn.ReLU(inplace=True), nn.MaxPool2d(3, stride=2, padding=1),
        BasicBlock(16, 16), BasicBlock(16, 32, stride=2, downsample=down),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10))


def build_vit(args: argparse.Namespace, layers: Optional[int]) -> nn.Module:
    if layers == 12:
        return torchvision.models.vit_b_16(weights=None)
    from torchvision.models.vision_transformer import VisionTransformer
    return VisionTransformer(image_size=224, patch_size=16, num_layers=layers, num_heads=12,
                             hidden_dim=768, mlp_dim=3072)


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
}


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
        extra = {}
        if "dynamo" in inspect.signature(torch.onnx.export).parameters:
            extra["dynamo"] = False
        torch.onnx.export(model, tuple(inputs.values()), path,
                          opset_version=args.opset,
                          input_names=input_names,
                          output_names=output_names,
                          dynamic_axes=dynamic_axes,
                          do_constant_folding=True, **extra)
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
    parser.add_argument("--models", default=",".join(MODELS),
                        help=f"comma-separated, from {','.join(MODELS)} (default all)")
    parser.add_argument("--batch", type=int, default=1, help="batch size (default 1)")
    parser.add_argument("--seq", type=int, default=128,
                        help="sequence length of bert and gpt2 (default 128)")
    parser.add_argument("--opset", type=int, default=17, help="ONNX opset (default 17)")
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

    torch.set_num_threads(args.threads)
    os.makedirs(args.out, exist_ok=True)
    print(f"torch {torch.__version__}, torchvision {torchvision.__version__}, "
          f"onnx {onnx.__version__}; batch {args.batch}, seq {args.seq}, opset {args.opset}, "
          f"seed {args.seed}" + (", dynamic batch" if args.dynamic_batch else ""), flush=True)
    for name in names:
        generate(name, args)


if __name__ == "__main__":
    main()
