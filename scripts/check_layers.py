#!/usr/bin/env python3
"""Checks that every #include points down the layer order (docs/architecture.md):
common -> power -> modules/interfaces -> modules (blocks) -> designs -> platforms ->
stimuli (with designs/*/compiler) -> apps. Exits 1 listing each back edge."""
import pathlib
import re
import sys

ORDER = ["common", "power", "interfaces", "blocks", "designs", "platforms", "stimuli", "apps"]


def layer_of(path: str) -> str:
    parts = path.split("/")
    if parts[0] == "modules":
        return "interfaces" if len(parts) > 1 and parts[1] == "interfaces" else "blocks"
    if parts[0] == "designs":
        return "stimuli" if "compiler" in parts[:-1] else "designs"
    return parts[0] if parts[0] in ORDER else ""


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    include = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    bad = []
    for source in sorted(root.rglob("*")):
        if source.suffix not in (".h", ".cpp"):
            continue
        rel = source.relative_to(root).as_posix()
        own = layer_of(rel)
        if not own:
            continue
        for number, line in enumerate(source.read_text(errors="replace").splitlines(), 1):
            m = include.match(line)
            if not m:
                continue
            target = layer_of(m.group(1))
            if target and ORDER.index(target) > ORDER.index(own):
                bad.append(f"{rel}:{number}: {own} includes {m.group(1)} ({target})")
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
