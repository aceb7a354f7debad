"""The project's own definitions of the models utils/models/generate.py
exports: BERT and GPT-2 as plain torch.nn.Modules written as Hugging Face's
eager code computes them (transformers is not needed), a tiny ResNet and
torchvision's ViT at any depth."""

import argparse
import math
from dataclasses import dataclass
from typing import Optional

import torch
import torchvision
from torch import nn


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
