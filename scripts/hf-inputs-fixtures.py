#!/usr/bin/env python3
"""Writes tests/fixtures/hf-inputs.json: attention as Hugging Face hands it over, computed in torch.

Run with Debian's python3-torch (`/usr/bin/python3 scripts/hf-inputs-fixtures.py`); npm test reads
only the committed JSON. Provenance and what each case checks: docs/reference-fixtures.md,
"Inputs as Hugging Face hands them over".

The two references are written out in plain torch ops, in float32 as upstream runs them:
- eager(): transformers' eager_attention_forward (repeat_kv, matmul times scaling, plus the
  additive mask that masking_utils builds with torch.finfo(float32).min where a pair is masked,
  softmax in float32, matmul with v);
- sdpa(): the reference implementation that PyTorch's documentation gives for
  torch.nn.functional.scaled_dot_product_attention (is_causal=True: a lower-triangular mask of
  ones(L, S).tril(diagonal=0), -inf above it), with enable_gqa's repeat_interleave of k and v.
  torch 1.13 has no scaled_dot_product_attention, so its documented math is what runs here.
- rope(): transformers' Llama rotary embedding (inv_freq from an int64 arange as float32,
  float32 angles, cos/sin of cat(freqs, freqs), rotate_half).
"""
import json
import sys

import torch


def inputs(count, seed):
    """The formula tests/node/attention-hf-inputs.test.js evaluates too (exact in float32)."""
    t = torch.arange(count, dtype=torch.int64)
    return (((t * 7919 + seed * 104729) % 2001) - 1000).to(torch.float32) / 1000


def heads_first(x, heads):
    """[batch, n, heads*d] -> [batch, heads, n, d]."""
    b, n, w = x.shape
    return x.reshape(b, n, heads, w // heads).transpose(1, 2)


def rows_last(x):
    """[batch, heads, n, d] -> [batch, n, heads*d]."""
    b, h, n, d = x.shape
    return x.transpose(1, 2).reshape(b, n, h * d)


def repeat_kv(x, group):
    """transformers' repeat_kv: each kv head repeated for the group of query heads it serves."""
    b, h, m, d = x.shape
    if group == 1:
        return x
    return x[:, :, None, :, :].expand(b, h, group, m, d).reshape(b, h * group, m, d)


def eager(q, k, v, keep, scaling):
    """keep: bool [batch, 1, n, m] (True: attend). Returns output [b, n, h*d], weights [b, h, n, m]."""
    group = q.shape[1] // k.shape[1]
    ks, vs = repeat_kv(k, group), repeat_kv(v, group)
    w = torch.matmul(q, ks.transpose(2, 3)) * scaling
    mask = torch.where(keep, torch.tensor(0.0), torch.tensor(torch.finfo(torch.float32).min))
    w = w + mask
    w = torch.nn.functional.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
    return rows_last(torch.matmul(w, vs)), w


def sdpa(q, k, v, scaling):
    """scaled_dot_product_attention(q, k, v, is_causal=True, scale=scaling, enable_gqa=True)."""
    group = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(group, dim=-3)
    v = v.repeat_interleave(group, dim=-3)
    L, S = q.shape[-2], k.shape[-2]
    bias = torch.zeros(L, S, dtype=q.dtype)
    temp = torch.ones(L, S, dtype=torch.bool).tril(diagonal=0)
    bias.masked_fill_(temp.logical_not(), float("-inf"))
    w = q @ k.transpose(-2, -1) * scaling
    w = w + bias
    w = torch.softmax(w, dim=-1)
    return rows_last(w @ v), w


def rope(x, positions, base):
    """LlamaRotaryEmbedding + apply_rotary_pos_emb on [b, h, n, d] at positions [b, n]."""
    d = x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.int64).to(torch.float32) / d))
    freqs = (inv_freq[None, :, None].float() @ positions[:, None, :].float()).transpose(1, 2)
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos()[:, None], emb.sin()[:, None]
    half = d // 2
    rotated_half = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos + rotated_half * sin


def floats(x):
    return [float(v) for v in x.reshape(-1).tolist()]


def tensor(x):
    return {"shape": list(x.shape), "data": floats(x)}


def case_inputs(batch, n, m, heads, kv_heads, d, seeds):
    shapes = {"q": [batch, n, heads * d], "k": [batch, m, kv_heads * d], "v": [batch, m, kv_heads * d]}
    made = {}
    for name, shape in shapes.items():
        count = shape[0] * shape[1] * shape[2]
        made[name] = inputs(count, seeds[name]).reshape(shape)
    given = {name: {"shape": shape, "seed": seeds[name]} for name, shape in shapes.items()}
    return made, given


def main():
    torch.set_num_threads(1)
    cases = []
    tol = {"abs": 2e-6, "rel": 1e-5}

    # HF eager, left padding: sequence 0 has two pad tokens on the left, so its query rows 0 and 1
    # see only padded keys: finfo.min everywhere, a uniform row.
    batch, n, heads, kv_heads, d = 2, 6, 2, 1, 8
    made, given = case_inputs(batch, n, n, heads, kv_heads, d, {"q": 1, "k": 2, "v": 3})
    padding = torch.tensor([[0, 0, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]], dtype=torch.bool)
    causal = torch.ones(n, n, dtype=torch.bool).tril()
    keep = causal[None, None] & padding[:, None, None, :]
    out, w = eager(heads_first(made["q"], heads), heads_first(made["k"], kv_heads), heads_first(made["v"], kv_heads),
                   keep, d ** -0.5)
    cases.append({
        "id": "eager-left-padding-uniform",
        "reference": "eager",
        "title": "HF eager, a left-padded batch: the pad queries see only pad keys and get weights 1/m",
        "inputs": given,
        "options": {"heads": heads, "kvHeads": kv_heads, "causal": True,
                    "mask": {"shape": [2, 6], "data": [0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], "kind": "boolean"},
                    "fullyMaskedRows": "uniform"},
        "uniformRows": [[0, 0], [0, 1]],
        "expected": {"weights": tensor(w), "output": tensor(out)},
        "tol": tol,
    })

    # SDPA is_causal with n < m (top-left: query i sees keys 0 .. i), grouped heads.
    for (n, m, seeds) in ((3, 7, {"q": 4, "k": 5, "v": 6}), (7, 3, {"q": 7, "k": 8, "v": 9})):
        batch, heads, kv_heads, d = 1, 4, 2, 8
        made, given = case_inputs(batch, n, m, heads, kv_heads, d, seeds)
        out, w = sdpa(heads_first(made["q"], heads), heads_first(made["k"], kv_heads),
                      heads_first(made["v"], kv_heads), d ** -0.5)
        cases.append({
            "id": f"sdpa-is-causal-n{n}-m{m}",
            "reference": "sdpa",
            "title": f"SDPA is_causal with n = {n}, m = {m}: the causal mask aligned top-left",
            "inputs": given,
            "options": {"heads": heads, "kvHeads": kv_heads, "causal": True, "causalAlign": "topLeft"},
            "expected": {"weights": tensor(w), "output": tensor(out)},
            "tol": tol,
        })

    # HF eager with q and k rotated by Llama's rotary embedding before the attention interface.
    batch, n, heads, kv_heads, d, base = 2, 5, 2, 2, 8, 10000.0
    made, given = case_inputs(batch, n, n, heads, kv_heads, d, {"q": 10, "k": 11, "v": 12})
    positions = torch.tensor([[0, 1, 2, 3, 4], [3, 4, 5, 6, 7]], dtype=torch.int64)
    q_rot = rope(heads_first(made["q"], heads), positions, base)
    k_rot = rope(heads_first(made["k"], kv_heads), positions, base)
    keep = torch.ones(n, n, dtype=torch.bool).tril()[None, None].expand(batch, 1, n, n)
    out, w = eager(q_rot, k_rot, heads_first(made["v"], kv_heads), keep, d ** -0.5)
    given["q"] = tensor(rows_last(q_rot))
    given["k"] = tensor(rows_last(k_rot))
    cases.append({
        "id": "eager-rotated-llama",
        "reference": "eager",
        "title": "HF eager after Llama's rotary embedding: q and k arrive rotated (positions 0-4 and 3-7)",
        "inputs": given,
        "unrotated": {"q": {"shape": [batch, n, heads * d], "seed": 10},
                      "k": {"shape": [batch, n, kv_heads * d], "seed": 11},
                      "positions": positions.tolist()},
        "options": {"heads": heads, "causal": True, "scheme": "rope", "params": {"base": base}, "rotated": True},
        "expected": {"weights": tensor(w), "output": tensor(out)},
        "tol": tol,
    })

    doc = {
        "generatedWith": f"torch {torch.__version__} (Debian python3-torch), CPU, float32; "
                         "scripts/hf-inputs-fixtures.py",
        "inputs": "x[t] = float32(((t * 7919 + seed * 104729) mod 2001 - 1000) / 1000) for a { shape, seed }",
        "cases": cases,
    }
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
