#!/usr/bin/env python3
"""Module import graph of every crate under crates/: prints each import circle (modules of one
crate that reach each other through `crate::`, `super::` or `self::` paths) and each arrow that
points up between the rooms of a crate that has them (ROOMS below), and each product crate that
depends on a test-only crate (TEST_ONLY: `testkit`) other than as a dev-dependency, and exits 1
if there is one.
A module and its own submodules are not a circle (a parent declares its children; a child may
use its parent's items). Test modules are left out: a test may reach anywhere. `--edges CRATE`
prints that crate's edges instead.

    python3 scripts/ci/module-graph.py            # every crate; exit 1 on a circle
    python3 scripts/ci/module-graph.py --edges detect
    python3 scripts/ci/module-graph.py --self-test  # the checker on planted circles (CI runs it)
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "crates")


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
    """The code of a Rust file with every comment removed and every string, byte string, raw
    string and char literal emptied, read token by token as rustc lexes them: a string may run
    over lines (a backslash continues it), a raw string holds quotes (`r#"a " b"#`), a char may be
    a quote (`'"'`), a lifetime (`'a`) is no char, block comments nest, and doc comments (their
    intra-doc links too) are comments."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
            out.append(" ")
            continue
        # raw strings: r"…", r#"…"#, br"…", cr"…" (no escapes; closed by a quote and as many #)
        m = re.match(r'(?:b|c)?r(#*)"', text[i:i + 260])
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = '"' + m.group(1)
            j = text.find(close, i + m.end())
            i = n if j < 0 else j + len(close)
            out.append('""')
            continue
        # strings and byte strings: escapes, and lines joined by a backslash, are inside
        if c == '"' or (c in "bc" and text.startswith('"', i + 1)
                        and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"))):
            i += 1 if c == '"' else 2
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
            continue
        # char and byte literals ('x', '\'', '"', '\u{1F600}', b'x'); a lifetime is none
        if c == "'":
            m = re.match(r"'(?:\\(?:u\{[0-9a-fA-F]{1,6}\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'", text[i:i + 12])
            if m:
                i += m.end()
                out.append("' '")
                continue
        out.append(c)
        i += 1
    return "".join(out)


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
        "features": 0,
        "bundle": 1,
        "report": 2,
        "pipeline": 3,
        "site": 4,
        "node": 4,
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


def graph(crate, root=ROOT):
    src = os.path.join(root, crate, "src")
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


# Crates that only tests, benchmarks and fuzz targets may use: a product crate lists them under
# [dev-dependencies] only, never under [dependencies] (docs/ARCHITECTURE.md).
TEST_ONLY = {"testkit"}


def product_deps_on_test_crates(cargo_toml_text):
    """The test-only crates a Cargo.toml lists as normal dependencies (in [dependencies] or a
    target's [target.'…'.dependencies]; [dev-dependencies] is allowed)."""
    bad, section = [], None
    for line in cargo_toml_text.splitlines():
        t = line.strip()
        if t.startswith("["):
            section = t.strip("[]").strip()
            continue
        if not t or t.startswith("#") or section is None:
            continue
        normal = section == "dependencies" or (
            section.startswith("target.") and section.endswith(".dependencies")
        )
        key = t.split("=", 1)[0].strip().strip('"').split(".")[0]
        if normal and key in TEST_ONLY:
            bad.append(key)
    return bad


def name(m):
    return "::".join(m) or "(root)"


# The checker's own cases: each a crate of two modules `a` and `b` where `b` uses `a`, and `a`
# holds the text below; `circle` says whether that text makes `a` use `b` (a circle) or only
# seems to (inside a string, a comment, a doc link).
SELF_TEST = [
    # each `use` sits between two strings: a reader that loses step inside the first string
    # pairs its closing quote with the next string's opening one and reads the use as text
    ("a use after a string continued on the next line by a backslash",
     'pub const S: &str = "a bomb \\\n    in two lines";\nuse crate::b::B;\npub const T: &str = "t";\n', True),
    ("a use after a string holding an escaped quote",
     'pub const S: &str = "say \\"hi\\"";\nuse crate::b::B;\npub const T: &str = "t";\n', True),
    ("a use after a raw string holding a quote",
     'pub const S: &str = r#"a " b"#;\nuse crate::b::B;\npub const T: &str = "t";\n', True),
    ("a use after the char \'\"\'",
     "pub const Q: char = '\"';\nuse crate::b::B;\npub const T: &str = \"t\";\n", True),
    ("a use after a lifetime (no char)",
     "pub fn f<'a>(x: &'a str) -> &'a str { x }\nuse crate::b::B;\npub const C: char = 'c';\n", True),
    ("a use after a nested block comment",
     "/* outer /* inner */ still comment */\nuse crate::b::B;\n", True),
    ("a path inside a string only", 'pub const S: &str = "crate::b::B";\n', False),
    ("a path inside a raw string only", 'pub const S: &str = r"crate::b::B";\n', False),
    ("a doc link only", "/// See [`crate::b::B`].\npub struct A;\n", False),
    ("a path inside a block comment only", "/* crate::b::B */\npub struct A;\n", False),
]


CARGO_SELF_TEST = [
    ("a product crate depending on testkit", "[dependencies]\ntestkit.workspace = true\n", ["testkit"]),
    ("a target dependency on testkit",
     "[target.'cfg(unix)'.dependencies]\ntestkit = { path = \"../testkit\" }\n", ["testkit"]),
    ("testkit as a dev-dependency only",
     "[dependencies]\nmilbase.workspace = true\n\n[dev-dependencies]\ntestkit.workspace = true\n", []),
]


def self_test():
    """Plants each SELF_TEST case in a crate of its own and checks that the circle is found, or
    that none is; 0 when every case holds."""
    import tempfile
    failed = 0
    for what, a_text, circle in SELF_TEST:
        with tempfile.TemporaryDirectory() as root:
            src = os.path.join(root, "t", "src")
            os.makedirs(src)
            with open(os.path.join(src, "lib.rs"), "w") as f:
                f.write("pub mod a;\npub mod b;\n")
            with open(os.path.join(src, "a.rs"), "w") as f:
                f.write(a_text)
            with open(os.path.join(src, "b.rs"), "w") as f:
                f.write("use crate::a::A;\npub struct B;\n")
            found = bool(circles(graph("t", root)))
            if found != circle:
                failed += 1
                print(f"self-test FAILED: {what}: circle {'missed' if circle else 'seen where there is none'}")
    print(f"self-test: {len(SELF_TEST) - failed} of {len(SELF_TEST)} planted cases read right")
    for what, toml, want in CARGO_SELF_TEST:
        if product_deps_on_test_crates(toml) != want:
            failed += 1
            print(f"self-test FAILED: {what}: test crates found {product_deps_on_test_crates(toml)}")
    print(f"self-test: the {len(CARGO_SELF_TEST)} planted Cargo.toml cases checked")
    return 1 if failed else 0


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        return self_test()
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
        if crate not in TEST_ONLY:
            with open(os.path.join(ROOT, crate, "Cargo.toml")) as f:
                for dep in product_deps_on_test_crates(f.read()):
                    bad += 1
                    print(f"{crate}: depends on the test-only crate {dep} (a dev-dependency only)")
    if bad == 0:
        print("no import circle in crates/, no arrow up between rooms, no test crate in the product")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
