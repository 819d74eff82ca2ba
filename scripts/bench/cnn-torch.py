"""The attention CNN of MODELS.md §8 in PyTorch (CPU), for the training-step benchmark only.

Same layers as crates/attcnn/src/model.rs: Conv 16@5x5 same -> BN -> ReLU -> maxpool 2; blocks of
[Conv 32@3x3 valid -> BN -> ReLU -> maxpool 2] while they fit (at most 5); dropout 0.3 after
overall blocks 2, 5, 6; Dense(D); gated attention (hidden 64); dropout 0.25 -> Dense 128 -> Dense 1.
Prints seconds per training step (forward, backward, Adam) for one bag (the median of STEPS after
one warm-up step).
With MODE `infer`: the median of STEPS eval-mode forward passes under `torch.no_grad()` instead
(what `ich predict` does with a scan), after one warm-up pass.
With MODE `scan`: the CNN stage of `ich predict` for one scan, as ich's `Trained::scan` does it
(crates/attcnn/benches/infer.rs): uint8 pixels from the host, /255 on the device, the slices
encoded, attention and classifier on the bag, and every slice's probability as a bag of its own,
the results copied back to the host. Prints the median of STEPS scans and then the first scan's
seconds (cuDNN and kernel start-up included).
With MODE `profile`: STEPS training steps after two warm-up steps under torch.profiler, the 15
operators with the most device time (cuda) or CPU time.
Usage: python3 scripts/bench/cnn-torch.py SIZE SLICES STEPS [cpu|cuda] [train|infer|scan|profile]
(default cpu train)
"""
import sys
import time

import torch
import torch.nn as nn


def geometry(size, max_blocks=5):
    s, blocks = size // 2, 0
    while blocks < max_blocks and s >= 4:
        s = (s - 2) // 2
        blocks += 1
    return blocks, s


class AttCnn(nn.Module):
    def __init__(self, size, dim=32):
        super().__init__()
        blocks, s = geometry(size)
        layers = [nn.Conv2d(3, 16, 5, padding=2), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2)]
        for i in range(blocks):
            layers += [nn.Conv2d(16 if i == 0 else 32, 32, 3), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2)]
            if i + 2 in (2, 5, 6):
                layers.append(nn.Dropout(0.3))
        self.encoder = nn.Sequential(*layers, nn.Flatten(), nn.Linear(32 * s * s, dim))
        self.v = nn.Linear(dim, 64)
        self.u = nn.Linear(dim, 64)
        self.w = nn.Linear(64, 1)
        self.head = nn.Sequential(nn.Dropout(0.25), nn.Linear(dim, 128), nn.Linear(128, 1))

    def forward(self, bag):
        h = self.encoder(bag)
        a = torch.softmax(self.w(torch.tanh(self.v(h)) * torch.sigmoid(self.u(h))).squeeze(1), 0)
        return self.head((a.unsqueeze(1) * h).sum(0, keepdim=True)).squeeze()

    def scan(self, pixels, device):
        """Scan probability, attention and every slice alone as a bag (its attention is 1)."""
        x = pixels.to(device).float() / 255.0
        h = self.encoder(x)
        a = torch.softmax(self.w(torch.tanh(self.v(h)) * torch.sigmoid(self.u(h))).squeeze(1), 0)
        scan = torch.sigmoid(self.head((a.unsqueeze(1) * h).sum(0, keepdim=True)))
        slices = torch.sigmoid(self.head(h))
        return scan.cpu(), a.cpu(), slices.cpu(), h.cpu()


def main():
    size, slices, steps = (int(a) for a in sys.argv[1:4])
    device = torch.device(sys.argv[4] if len(sys.argv) > 4 else "cpu")
    mode = sys.argv[5] if len(sys.argv) > 5 else "train"
    torch.manual_seed(0)
    model = AttCnn(size).to(device)
    if mode == "scan":
        model.eval()
        pixels = torch.randint(0, 256, (slices, 3, size, size), dtype=torch.uint8)
        times = []
        with torch.no_grad():
            for step in range(steps + 1):
                t = time.perf_counter()
                model.scan(pixels, device)
                times.append(time.perf_counter() - t)
        first, rest = times[0], sorted(times[1:])
        print(f"{rest[len(rest) // 2]:.4f} {first:.4f}")
        return
    if mode == "infer":
        model.eval()
        x = torch.rand(slices, 3, size, size, device=device)
        times = []
        with torch.no_grad():
            for step in range(steps + 1):
                t = time.perf_counter()
                model(x).item()
                if step > 0:
                    times.append(time.perf_counter() - t)
        times.sort()
        print(f"{times[len(times) // 2]:.4f}")
        return
    opt = torch.optim.Adam(model.parameters(), lr=5e-5)
    x = torch.rand(slices, 3, size, size, device=device)
    y = torch.tensor(1.0, device=device)
    times = []

    def step():
        opt.zero_grad()
        loss = nn.functional.binary_cross_entropy_with_logits(model(x), y)
        loss.backward()
        opt.step()
        if device.type == "cuda":
            torch.cuda.synchronize()

    if mode == "profile":
        from torch.profiler import ProfilerActivity, profile

        step()
        step()
        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
        with profile(activities=acts) as prof:
            for _ in range(steps):
                step()
        key = "cuda_time_total" if device.type == "cuda" else "cpu_time_total"
        print(f"pytorch  {device.type} {size}² × {slices} slices, {steps} training steps:")
        print(prof.key_averages().table(sort_by=key, row_limit=15, max_name_column_width=60))
        return
    for step_no in range(steps + 1):
        t = time.perf_counter()
        step()
        if step_no > 0:
            times.append(time.perf_counter() - t)
    times.sort()
    print(f"{times[len(times) // 2]:.4f}")


if __name__ == "__main__":
    main()
