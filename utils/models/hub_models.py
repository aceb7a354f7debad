"""Off-the-shelf model definitions for utils/models/generate.py: the classes
people export, from transformers and timm, built from their configurations
with random weights (nothing is downloaded). The modules are imported only
when such a model is built, so the project's own models need neither.

Each builder returns a module whose forward takes the graph inputs of
generate.py's input makers (input_ids and attention_mask, or input) and
returns one tensor.
"""

import importlib
from typing import Optional

from torch import nn


def require(module: str):
    """The module, or an exit that says which package this model needs."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise SystemExit(f"generate.py: this model needs {module} ({error})")


class TokenModel(nn.Module):
    """input_ids, attention_mask -> the output `field` of a transformers
    model (last_hidden_state of an encoder, logits of a language model)."""

    def __init__(self, model: nn.Module, field: str, **call):
        super().__init__()
        self.model, self.field, self.call = model, field, call

    def forward(self, input_ids, attention_mask):
        out = self.model(input_ids=input_ids, attention_mask=attention_mask, **self.call)
        return getattr(out, self.field)


class ImageModel(nn.Module):
    """input -> the output `field` of a transformers vision model."""

    def __init__(self, model: nn.Module, field: str):
        super().__init__()
        self.model, self.field = model, field

    def forward(self, input):
        return getattr(self.model(pixel_values=input), self.field)


# The attention users get: transformers' default, scaled_dot_product_attention.
ATTENTION = "sdpa"


def hf_bert(layers: int, tiny: bool = False) -> nn.Module:
    """transformers BertModel (no pooler): base, or a tiny one for tests
    (hidden 64, 4 heads, FFN 128, vocab 512)."""
    t = require("transformers")
    size = dict(vocab_size=512, hidden_size=64, num_attention_heads=4,
                intermediate_size=128, max_position_embeddings=64) if tiny else {}
    config = t.BertConfig(num_hidden_layers=layers, attn_implementation=ATTENTION, **size)
    return TokenModel(t.BertModel(config, add_pooling_layer=False), "last_hidden_state")


def hf_gpt2(layers: int, tiny: bool = False) -> nn.Module:
    """transformers GPT2LMHeadModel: small, or a tiny one (hidden 64, 4
    heads, vocab 512)."""
    t = require("transformers")
    size = dict(vocab_size=512, n_embd=64, n_head=4, n_positions=64) if tiny else {}
    config = t.GPT2Config(n_layer=layers, attn_implementation=ATTENTION, **size)
    return TokenModel(t.GPT2LMHeadModel(config), "logits", use_cache=False)


# Llama-3.2-1B's shape (its config.json): hidden 2048, 32 heads of 64, 8 KV
# heads (GQA), SwiGLU of 8192, RMSNorm, RoPE with theta 500000, vocabulary
# 128256, tied embeddings; 16 layers, of which the benchmark builds 8.
LLAMA_1B = dict(hidden_size=2048, intermediate_size=8192, num_attention_heads=32,
                num_key_value_heads=8, head_dim=64, vocab_size=128256,
                rms_norm_eps=1e-5, rope_theta=500000.0, max_position_embeddings=8192,
                tie_word_embeddings=True)
LLAMA_TINY = dict(hidden_size=64, intermediate_size=128, num_attention_heads=4,
                  num_key_value_heads=2, head_dim=16, vocab_size=512,
                  rms_norm_eps=1e-5, rope_theta=10000.0, max_position_embeddings=64,
                  tie_word_embeddings=True)


def hf_llama(layers: int, tiny: bool = False) -> nn.Module:
    """transformers LlamaModel (no LM head) at Llama-3.2-1B's shape, or a
    tiny one with GQA (4 heads of 16, 2 KV heads)."""
    t = require("transformers")
    config = t.LlamaConfig(num_hidden_layers=layers, attn_implementation=ATTENTION,
                           **(LLAMA_TINY if tiny else LLAMA_1B))
    return TokenModel(t.LlamaModel(config), "last_hidden_state", use_cache=False)


def hf_vit(layers: int) -> nn.Module:
    """transformers ViTModel (base, patch 16, 224x224, no pooler)."""
    t = require("transformers")
    config = t.ViTConfig(num_hidden_layers=layers, attn_implementation=ATTENTION)
    return ImageModel(t.ViTModel(config, add_pooling_layer=False), "last_hidden_state")


def timm_model(name: str, num_classes: Optional[int] = None) -> nn.Module:
    """A timm model by name, pretrained=False."""
    timm = require("timm")
    extra = {"num_classes": num_classes} if num_classes else {}
    return timm.create_model(name, pretrained=False, **extra)
