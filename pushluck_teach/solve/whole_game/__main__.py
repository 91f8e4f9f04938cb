"""``python -m pushluck_teach.solve.whole_game``: rebuild the shipped precomputed solutions."""

from __future__ import annotations

import time

from pushluck_teach.solve.whole_game import build_all_shipped


def main() -> None:
    start = time.perf_counter()
    paths = build_all_shipped()
    total = 0
    for path in paths:
        size = path.stat().st_size
        total += size
        print(f"{path.name:<48} {size / 1024:8.1f} KiB")
    print(f"{len(paths)} files, {total / 1024:.1f} KiB, {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
