#!/usr/bin/env python3
"""Makes room in a cargo build folder kept between CI runs (.ci/run), before a run fills the disk.

A kept build folder grows with every change of features, lock file or profile: each change gives
the test binaries new hashes and the old ones stay. CI's disk once filled up in the middle of a
run this way (No space left on device while building the wgpu test).

    python3 scripts/ci/prune-target.py TARGET_DIR --min-free-gb N
    python3 scripts/ci/prune-target.py --self-test

1. In every profile's deps/ folder, the executables (test binaries: `name-<16 hex>`, no
   extension) of the same name are pruned to the newest one, with their `.d` files. Nothing links
   against them; cargo rebuilds one that is missing.
2. `incremental/` is removed when CARGO_INCREMENTAL=0 (.ci/run sets it): nothing reads it then.
3. If the disk still has less than N GiB free, the whole build folder is removed and the run
   builds from an empty cache, which .ci/run is made to pass within its time too.
It prints what it freed and the disk's free space before and after, so CI's log tells.
"""

import contextlib
import io
import os
import re
import shutil
import sys
import tempfile

HASHED = re.compile(r"^(?P<name>.+)-(?P<hash>[0-9a-f]{16})$")
GIB = 1024**3


def free_bytes(path):
    probe = path
    while not os.path.exists(probe):
        probe = os.path.dirname(probe) or "."
    return shutil.disk_usage(probe).free


def size_of(path):
    if os.path.islink(path) or not os.path.isdir(path):
        return os.lstat(path).st_size
    total = 0
    for root, _dirs, files in os.walk(path):
        for f in files:
            try:
                total += os.lstat(os.path.join(root, f)).st_blocks * 512
            except OSError:
                pass
    return total


def stale_executables(deps):
    """The test binaries in `deps` that a newer one of the same name replaced."""
    newest = {}
    groups = {}
    for entry in os.scandir(deps):
        m = HASHED.match(entry.name)
        if not m or not entry.is_file(follow_symlinks=False):
            continue
        if not os.access(entry.path, os.X_OK):
            continue
        mtime = entry.stat(follow_symlinks=False).st_mtime
        name = m.group("name")
        groups.setdefault(name, []).append((mtime, entry.path))
        if name not in newest or mtime > newest[name][0]:
            newest[name] = (mtime, entry.path)
    stale = []
    for name, items in groups.items():
        for mtime, path in items:
            if path != newest[name][1]:
                stale.append(path)
    return sorted(stale)


def prune(target, min_free_gb, incremental_off):
    freed = 0
    if not os.path.isdir(target):
        print(f"prune-target: {target} does not exist yet (an empty cache)")
        return 0
    before = free_bytes(target)
    for profile in sorted(os.listdir(target)):
        deps = os.path.join(target, profile, "deps")
        if os.path.isdir(deps) and not os.path.islink(deps):
            for path in stale_executables(deps):
                for victim in (path, path + ".d"):
                    if os.path.lexists(victim):
                        freed += size_of(victim)
                        os.remove(victim)
        inc = os.path.join(target, profile, "incremental")
        if incremental_off and os.path.isdir(inc) and not os.path.islink(inc):
            freed += size_of(inc)
            shutil.rmtree(inc)
    after = free_bytes(target)
    print(
        f"prune-target: freed {freed / GIB:.1f} GiB of stale test binaries"
        f"{' and incremental state' if incremental_off else ''} in {target}; "
        f"disk free {before / GIB:.1f} -> {after / GIB:.1f} GiB"
    )
    if after < min_free_gb * GIB:
        size = size_of(target)
        shutil.rmtree(target)
        print(
            f"prune-target: WARNING: still under {min_free_gb} GiB free; removed the whole build "
            f"folder ({size / GIB:.1f} GiB), this run builds from an empty cache; "
            f"disk free now {free_bytes(target) / GIB:.1f} GiB"
        )
    return 0


def self_test():
    """A stale binary goes, the newest of each name and every library stays; the fallback fires."""
    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, "target")
        deps = os.path.join(target, "debug", "deps")
        os.makedirs(deps)
        os.makedirs(os.path.join(target, "debug", "incremental", "x-0"))

        def make(name, mtime, exe=True):
            p = os.path.join(deps, name)
            with open(p, "wb") as f:
                f.write(b"x" * 4096)
            os.chmod(p, 0o755 if exe else 0o644)
            os.utime(p, (mtime, mtime))
            return p

        old = make("hostile-0123456789abcdef", 100)
        make("hostile-0123456789abcdef.d", 100, exe=False)
        new = make("hostile-fedcba9876543210", 200)
        other = make("serve-1111111111111111", 50)
        lib_a = make("librand-2222222222222222.rlib", 10, exe=False)
        lib_b = make("librand-3333333333333333.rlib", 20, exe=False)
        # what prune prints of the planted folder stays out of CI's log, which must not read
        # as if the real build folder were removed
        quiet = io.StringIO()
        with contextlib.redirect_stdout(quiet):
            prune(target, 0, incremental_off=True)
        problems = []
        if os.path.exists(old) or os.path.exists(old + ".d"):
            problems.append("the stale test binary (or its .d) was kept")
        for kept in (new, other, lib_a, lib_b):
            if not os.path.exists(kept):
                problems.append(f"{os.path.basename(kept)} was removed")
        if os.path.exists(os.path.join(target, "debug", "incremental")):
            problems.append("incremental/ was kept with CARGO_INCREMENTAL=0")
        # a disk that can never have enough room: the whole folder goes
        with contextlib.redirect_stdout(quiet):
            prune(target, 10**9, incremental_off=True)
        if os.path.exists(target):
            problems.append("the build folder was kept although the disk is short")
    if problems:
        for p in problems:
            print(f"prune-target self-test FAILED: {p}", file=sys.stderr)
        return 1
    print("prune-target self-test: ok")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 4 or argv[2] != "--min-free-gb":
        print(__doc__, file=sys.stderr)
        return 2
    try:
        min_free = float(argv[3])
    except ValueError:
        print(f"prune-target: --min-free-gb wants a number, not {argv[3]!r}", file=sys.stderr)
        return 2
    return prune(argv[1], min_free, os.environ.get("CARGO_INCREMENTAL") == "0")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
