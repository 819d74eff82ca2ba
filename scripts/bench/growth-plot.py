"""The plot of scripts/bench/bench-growth.sh: wall time and peak memory of each stage against the number
of scans, log-log, as one self-contained SVG (standard library only).

    python3 scripts/bench/growth-plot.py bench-out/growth/growth.tsv docs/img/growth.svg

Reads the TSV (scans, slices, stage, wall_s, peak_rss_mib, disk_mib); where a cohort was measured
more than once, the last row counts.
"""
import csv
import math
import sys

STAGES = ["preprocess", "extract", "fit-gp", "predict"]
COLOURS = {"preprocess": "#1b9e77", "extract": "#d95f02", "fit-gp": "#7570b3", "predict": "#e7298a"}


def read(path):
    rows = {}
    with open(path) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if r["stage"] in STAGES:
                rows[(r["stage"], int(r["scans"]))] = r
    return rows


def panel(rows, key, title, unit, x0, y0, w, h):
    pts = {s: sorted((n, float(r[key])) for (st, n), r in rows.items() if st == s) for s in STAGES}
    xs = [n for v in pts.values() for n, _ in v]
    ys = [y for v in pts.values() for _, y in v if y > 0]
    if not xs or not ys:
        return ""
    lx = (math.floor(math.log10(min(xs))), math.ceil(math.log10(max(xs))))
    ly = (math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys))))
    if lx[0] == lx[1]:
        lx = (lx[0], lx[0] + 1)
    if ly[0] == ly[1]:
        ly = (ly[0], ly[0] + 1)

    def px(n):
        return x0 + (math.log10(n) - lx[0]) / (lx[1] - lx[0]) * w

    def py(y):
        return y0 + h - (math.log10(y) - ly[0]) / (ly[1] - ly[0]) * h

    out = [f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#999"/>']
    out.append(f'<text x="{x0 + w / 2}" y="{y0 - 10}" text-anchor="middle" font-weight="bold">{title}</text>')
    for e in range(lx[0], lx[1] + 1):
        x = px(10**e)
        out.append(f'<line x1="{x:.1f}" y1="{y0}" x2="{x:.1f}" y2="{y0 + h}" stroke="#eee"/>')
        out.append(f'<text x="{x:.1f}" y="{y0 + h + 16}" text-anchor="middle">{10**e:,}</text>')
    for e in range(ly[0], ly[1] + 1):
        y = py(10**e)
        out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + w}" y2="{y:.1f}" stroke="#eee"/>')
        label = f"{10**e:g}"
        out.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
    out.append(f'<text x="{x0 + w / 2}" y="{y0 + h + 34}" text-anchor="middle">scans</text>')
    out.append(
        f'<text x="{x0 - 46}" y="{y0 + h / 2}" text-anchor="middle" '
        f'transform="rotate(-90 {x0 - 46} {y0 + h / 2})">{unit}</text>'
    )
    for s in STAGES:
        v = [(n, y) for n, y in pts[s] if y > 0]
        if not v:
            continue
        path = " ".join(f"{px(n):.1f},{py(y):.1f}" for n, y in v)
        out.append(f'<polyline points="{path}" fill="none" stroke="{COLOURS[s]}" stroke-width="2"/>')
        for n, y in v:
            out.append(f'<circle cx="{px(n):.1f}" cy="{py(y):.1f}" r="3" fill="{COLOURS[s]}"/>')
    return "\n".join(out)


def main():
    src, dst = sys.argv[1], sys.argv[2]
    rows = read(src)
    slices = sorted({r["slices"] for r in rows.values()})
    W, H = 900, 420
    body = [
        panel(rows, "wall_s", "Wall time per stage", "seconds", 80, 50, 330, 280),
        panel(rows, "peak_rss_mib", "Peak resident memory per stage", "MiB", 530, 50, 330, 280),
    ]
    legend = []
    for i, s in enumerate(STAGES):
        x = 120 + i * 170
        legend.append(f'<line x1="{x}" y1="{H - 30}" x2="{x + 24}" y2="{H - 30}" stroke="{COLOURS[s]}" stroke-width="3"/>')
        legend.append(f'<text x="{x + 30}" y="{H - 26}">ich {s}</text>')
    note = (
        f"Synthetic cohorts (ich synth, 64², {'/'.join(slices)} slices per scan), release build; "
        "scripts/bench/bench-growth.sh"
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
        f'font-family="sans-serif" font-size="12">\n'
        f'<rect width="{W}" height="{H}" fill="white"/>\n'
        + "\n".join(body + legend)
        + f'\n<text x="{W / 2}" y="{H - 6}" text-anchor="middle" fill="#555">{note}</text>\n</svg>\n'
    )
    with open(dst, "w") as f:
        f.write(svg)


if __name__ == "__main__":
    main()
