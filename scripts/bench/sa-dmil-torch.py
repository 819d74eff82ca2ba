"""The SA-DMIL network (published weights of Wu et al., MICCAI 2023) in PyTorch, CPU, for the
side-by-side inference benchmark of scripts/bench-sa-dmil.sh.

Same network as crates/attcnn (architecture `sa-dmil`): six blocks Conv -> ReLU -> BatchNorm
(eps 0.001, moving statistics) -> MaxPool 2; features flattened in height, width, channel order
(1152); gated attention without biases over the slices of the bag plus the all-zero padding
slices (bags padded to 57 as the authors did; the zero slices share one feature vector, so one
is computed); pooled sum; Dense 128; Dense 1; sigmoid.

Weights: the .npy files of `ich checkpoint PREFIX --export-npy DIR` (read from the TensorFlow
checkpoint by ich's reader). Input: array `x` (uint8 [slices, 3, 512, 512]) of a scan of an
`ich preprocess --preset sa-dmil` dataset, divided by 255 as ich does.
Runs each scan once (no warm-up, as one `ich predict` process) and prints, per scan, its file,
the seconds the network took and the probability, then the mean seconds per scan.
Usage: python3 scripts/bench/sa-dmil-torch.py WEIGHTS_DIR PAD_TO SCAN.npz...   (PAD_TO 0: no padding)
TORCH_DEVICE=cuda runs it on the GPU (timings synchronised).
"""
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F


DEVICE = torch.device(os.environ.get("TORCH_DEVICE", "cpu"))


def load(d, n, field):
    return torch.from_numpy(np.load(os.path.join(d, f"layer_with_weights-{n}__{field}.npy"))).to(
        DEVICE
    )


def main():
    wdir, pad_to, scans = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    blocks = []
    for k in range(6):
        kern = load(wdir, 2 * k, "kernel").permute(3, 2, 0, 1).contiguous()  # HWIO -> OIHW
        blocks.append(
            dict(
                w=kern,
                b=load(wdir, 2 * k, "bias"),
                pad=2 if k == 0 else 0,
                gamma=load(wdir, 2 * k + 1, "gamma"),
                beta=load(wdir, 2 * k + 1, "beta"),
                mean=load(wdir, 2 * k + 1, "moving_mean"),
                var=load(wdir, 2 * k + 1, "moving_variance"),
            )
        )
    V, U, w = load(wdir, 12, "v"), load(wdir, 12, "u"), load(wdir, 12, "w")
    k1, b1 = load(wdir, 13, "kernel"), load(wdir, 13, "bias")
    k2, b2 = load(wdir, 14, "kernel"), load(wdir, 14, "bias")

    def encode(t):
        for b in blocks:
            t = F.conv2d(t, b["w"], b["b"], padding=b["pad"])
            t = F.relu(t)
            t = F.batch_norm(t, b["mean"], b["var"], b["gamma"], b["beta"], False, 0.0, 0.001)
            t = F.max_pool2d(t, 2)
        return t.permute(0, 2, 3, 1).reshape(t.shape[0], -1)

    def network(x):
        n = x.shape[0]
        pad = max(pad_to - n, 0)
        inp = torch.cat([x, torch.zeros(1, 3, x.shape[2], x.shape[3], device=DEVICE)]) if pad else x
        h = encode(inp)
        if pad:
            h = torch.cat([h[:n], h[n:].expand(pad, -1)])
        s = (torch.tanh(h @ V) * torch.sigmoid(h @ U)) @ w
        a = torch.softmax(s[:, 0], 0)
        z = (a[:, None] * h).sum(0, keepdim=True)
        return torch.sigmoid((z @ k1 + b1) @ k2 + b2).item()

    total = 0.0
    with torch.no_grad():
        for scan in scans:
            x = torch.from_numpy(np.load(scan)["x"].astype(np.float32) / 255.0)
            t = time.perf_counter()
            p = network(x.to(DEVICE))  # the copy to the GPU is part of the job, as in ich
            if DEVICE.type == "cuda":
                torch.cuda.synchronize()
            dt = time.perf_counter() - t
            total += dt
            print(f"{os.path.basename(scan)} {dt:.4f} {p:.8f}")
    print(f"mean {total / len(scans):.4f}")


if __name__ == "__main__":
    main()
