#!/usr/bin/env python3
"""Module import graph of every crate under crates/: prints each import circle (modules of one
crate that reach each other through `crate::`, `super::` or `self::` paths) and each arrow that
points up between the rooms of a crate that has them (ROOMS below), and exits 1 if there is one.
A module and its own submodules are not a circle (a parent declares its children; a child may
use its parent's items). Test modules are left out: a test may reach anywhere. `--edges CRATE`
prints that crate's edges instead.

    python3 scripts/module-graph.py            # every crate; exit 1 on a circle
    python3 scripts/module-graph.py --edges detect
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates")


def modules(src):
    """module path (tuple) -> file, for every .rs file under src (lib.rs/main.rs is the root)."""
    out = {}
    for dirpath, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), src)
            parts = rel[:-3].split(os.sep)
            if parts[-1] in ("mod", "lib", "main"):
                parts = parts[:-1]
            if parts and parts[0] == "bin":
                continue
            out[tuple(parts)] = os.path.join(dirpath, f)
    return out


def strip(text):
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def test_free(text):
    """The text before a `#[cfg(test)]` module: tests may reach anywhere."""
    m = re.search(r"#\[cfg\(test\)\]\s*(pub\s+)?mod\s+\w+\s*\{", text)
    return text[: m.start()] if m else text


PATH = re.compile(r"\b(crate|super|self)((?:::\w+|::\{[^;]*?\})+)")


def targets(mod, text, mods):
    """The modules `mod` names through crate/super/self paths."""
    found = set()
    for kind, rest in PATH.findall(text):
        base = () if kind == "crate" else (mod[:-1] if kind == "super" else mod)
        # expand one level of braces: crate::{a, b::c}
        heads = []
        m = re.match(r"((?:::\w+)*)::\{(.*)\}$", rest, flags=re.S)
        if m:
            pre = [p for p in m.group(1).split("::") if p]
            for item in m.group(2).split(","):
                item = item.strip()
                if item:
                    heads.append(pre + [p for p in re.split(r"::|\s|\{", item) if p and p != "as"])
        else:
            heads.append([p for p in rest.split("::") if p])
        for parts in heads:
            path = list(base)
            for p in parts:
                if p == "super":
                    path = path[:-1]
                    continue
                path.append(p)
            # longest prefix that is a module
            for n in range(len(path), 0, -1):
                if tuple(path[:n]) in mods:
                    found.add(tuple(path[:n]))
                    break
    return found


# The rooms of a crate, lowest first: a module may use its own room and the rooms below it, never
# one above it or a sibling of the same level (docs/ARCHITECTURE.md). Level 0 is the shared
# pieces every room uses.
ROOMS = {
    "detect": {
        "error": 0,
        "progress": 0,
        "runmark": 0,
        "bundle": 1,
        "report": 2,
        "pipeline": 3,
        "site": 4,
        "node": 4,
        "summary": 5,
        "fuzzing": 5,
    },
}


def upward(crate, edges):
    """Edges from a room to a room above it or to a sibling room: (from, to)."""
    rooms = ROOMS.get(crate)
    if not rooms:
        return []
    bad = []
    for m, ts in sorted(edges.items()):
        if not m:
            continue
        for t in sorted(ts):
            a, b = m[0], t[0]
            if a == b:
                continue
            if a not in rooms or b not in rooms:
                bad.append((m, t))
            elif rooms[b] > rooms[a] or (rooms[b] == rooms[a] and rooms[a] > 0):
                # the shared pieces (level 0) may use each other; circles are caught apart
                bad.append((m, t))
    return bad


def related(a, b):
    return a[: len(b)] == b or b[: len(a)] == a


def graph(crate):
    src = os.path.join(ROOT, crate, "src")
    mods = modules(src)
    edges = {m: set() for m in mods}
    for m, f in mods.items():
        with open(f, encoding="utf-8") as fh:
            text = test_free(strip(fh.read()))
        for t in targets(m, text, mods):
            if not related(m, t):
                edges[m].add(t)
    return edges


def circles(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def name(m):
    return "::".join(m) or "(root)"


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--edges":
        for m, ts in sorted(graph(sys.argv[2]).items()):
            print(f"{name(m)} -> {', '.join(name(t) for t in sorted(ts))}")
        return 0
    bad = 0
    for crate in sorted(os.listdir(ROOT)):
        if not os.path.isdir(os.path.join(ROOT, crate, "src")):
            continue
        edges = graph(crate)
        for comp in circles(edges):
            bad += 1
            print(f"{crate}: import circle among {', '.join(name(m) for m in comp)}")
            for m in comp:
                inner = sorted(t for t in edges[m] if t in comp)
                print(f"    {name(m)} -> {', '.join(name(t) for t in inner)}")
        for m, t in upward(crate, edges):
            bad += 1
            print(f"{crate}: {name(m)} -> {name(t)} points up or sideways between rooms")
    if bad == 0:
        print("no import circle in crates/, no arrow up between rooms")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
