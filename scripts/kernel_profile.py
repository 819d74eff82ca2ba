"""Sums the per-kernel times of a cubecl profiling log (`[profiling.logger] level = "basic"`: one
line `| DURATION | KERNEL` per kernel launch) by kernel, and prints the TOP kernels by total time
with their launch count and share, then the total and the number of launches.
Usage: python3 scripts/kernel_profile.py LABEL LOG [TOP]
"""
import re
import sys
from collections import defaultdict

UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
LINE = re.compile(r"^\|\s*([0-9.]+)(ns|µs|us|ms|s)\s*\|\s*(.+?)\s*$")


def main():
    label, path = sys.argv[1], sys.argv[2]
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    total, count = defaultdict(float), defaultdict(int)
    unmeasured = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if m:
                secs = float(m.group(1)) * UNITS[m.group(2)]
                name = m.group(3)
                total[name] += secs
                count[name] += 1
            elif "not measured" in line:
                unmeasured += 1
    whole = sum(total.values())
    launches = sum(count.values())
    print(f"kernels  {label}: {launches} launches, {whole * 1e3:.1f} ms of kernel time in all"
          f"{f', {unmeasured} not measured' if unmeasured else ''}")
    for name, secs in sorted(total.items(), key=lambda kv: -kv[1])[:top]:
        short = name if len(name) <= 110 else name[:107] + "..."
        print(f"  {secs * 1e3:9.2f} ms {100 * secs / whole:5.1f} % {count[name]:6d}×  {short}")


if __name__ == "__main__":
    main()
