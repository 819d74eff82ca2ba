"""Sums the per-kernel times of a cubecl profiling log (`[profiling.logger] level = "basic"`: one
line `| DURATION | KERNEL` per kernel launch) by kernel, and prints the TOP kernels by total time
with their launch count and share, then the total and the number of launches.
With STEPS (the number of identical timed steps that end the log, at least 2), only those steps
are summed, divided by STEPS: a step's launches are found as the shortest sequence of at least
50 launches that the log ends with STEPS times over, so compilation, autotuning and the check
before the timing are left out.
Usage: python3 scripts/bench/kernel-profile.py LABEL LOG [TOP] [STEPS]
"""
import re
import sys
from collections import defaultdict

UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
LINE = re.compile(r"^\|\s*([0-9.]+)(ns|µs|us|ms|s)\s*\|\s*(.+?)\s*$")


def step_length(names, steps, shortest=50):
    """The number of launches p >= shortest such that the log ends with `steps` repeats of its
    last p launches, or None."""
    for p in range(shortest, len(names) // steps + 1):
        tail = names[-p:]
        if all(names[-(i + 1) * p:len(names) - i * p] == tail for i in range(1, steps)):
            return p
    return None


def main():
    label, path = sys.argv[1], sys.argv[2]
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    steps = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    launches_all = []
    unmeasured = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if m:
                launches_all.append((m.group(3), float(m.group(1)) * UNITS[m.group(2)]))
            elif "not measured" in line:
                unmeasured += 1
    launches, per = launches_all, 1
    scope = "in all"
    if steps >= 2:
        p = step_length([n for n, _ in launches_all], steps)
        if p is None:
            print(f"kernels  {label}: the log does not end with {steps} identical steps; summing every launch")
        else:
            launches, per = launches_all[-steps * p:], steps
            scope = f"per step (the last {steps} steps, {p} launches each)"
    total, count = defaultdict(float), defaultdict(int)
    for name, secs in launches:
        total[name] += secs / per
        count[name] += 1
    whole = sum(total.values())
    n = len(launches) // per
    print(f"kernels  {label}: {n} launches, {whole * 1e3:.2f} ms of kernel time {scope}"
          f"{f', {unmeasured} not measured' if unmeasured else ''}")
    for name, secs in sorted(total.items(), key=lambda kv: -kv[1])[:top]:
        # a matmul's name is long and alike up to its strategy and hash at the end
        short = name if len(name) <= 110 else name[:40] + " ... " + name[-65:]
        print(f"  {secs * 1e3:9.3f} ms {100 * secs / whole:5.1f} % {count[name] // per:6d}×  {short}")


if __name__ == "__main__":
    main()
