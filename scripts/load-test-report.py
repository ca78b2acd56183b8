#!/usr/bin/env python3
"""Prints the tables of one scripts/load-test.sh run: per endpoint and number of connections, each server's median
requests/s, p50, p99 and CPU per request over the rounds, the ratios of ours to the bare server (the limit of the
stack), to Leaf and to a base build, and the targets those ratios are held to. With profiles (PROFILER), also where
ours spends CPU per request that the bare server does not. Exits 1 when a timed run got answers other than 2xx.

Ratios within one run, not raw figures, are what compare across machines and runs.

Usage: scripts/load-test-report.py <directory of the run (OUT)>
"""
import collections
import pathlib
import re
import statistics
import sys

# Targets (issue 27 and docs/server.md): ours against the bare servlet, and against Leaf.
MIN_REQUESTS_VS_BARE = 0.9
MAX_CPU_VS_BARE = 1.15
MIN_REQUESTS_VS_LEAF = 2.0
MAX_P99_MS_AT_50 = 5.0

FIELDS = ("name", "endpoint", "connections", "round", "rps", "p50", "p99", "cpu", "load", "non2xx")


def load_rows(directory):
    rows = []
    for line in (directory / "results.txt").read_text().splitlines():
        if line.strip():
            row = dict(zip(FIELDS, line.split()))
            for field in ("rps", "p50", "p99", "cpu", "load"):
                row[field] = float(row[field])
            row["connections"] = int(row["connections"])
            rows.append(row)
    return rows


def median(rows, name, field):
    values = [r[field] for r in rows if r["name"] == name]
    return statistics.median(values) if values else None


def per_round(rows, name, other, field):
    """The ratio ours/other of each round, in round order: how much the ratio moves is the run's noise."""
    mine = {r["round"]: r[field] for r in rows if r["name"] == name}
    theirs = {r["round"]: r[field] for r in rows if r["name"] == other}
    return [mine[k] / theirs[k] for k in sorted(mine, key=int) if k in theirs and theirs[k]]


def verdict(ok):
    return "met" if ok else "**missed**"


def report(directory):
    rows = load_rows(directory)
    run = directory / "run.txt"
    if run.exists():
        print(run.read_text().strip())
    loads = [r["load"] for r in rows]
    print(f"load average (1 min) before the timed runs: {min(loads):.2f} to {max(loads):.2f}")
    names = list(dict.fromkeys(r["name"] for r in rows))
    groups = collections.OrderedDict()
    for r in rows:
        groups.setdefault((r["endpoint"], r["connections"]), []).append(r)
    targets = []
    for (endpoint, connections), members in groups.items():
        rounds = len({r["round"] for r in members})
        print(f"\n### GET /api/{endpoint}/get/{{key}}, {connections} connections: medians of {rounds} round(s)\n")
        has_bare = "bare" in names
        print("| server | requests/s | p50 ms | p99 ms | CPU µs/request |"
              + (" requests/s x bare | CPU/request x bare |" if has_bare else ""))
        print("| --- | --: | --: | --: | --: |" + (" --: | --: |" if has_bare else ""))
        for name in names:
            rps, cpu = median(members, name, "rps"), median(members, name, "cpu")
            line = (f"| {name} | {rps:,.0f} | {median(members, name, 'p50'):.2f} | {median(members, name, 'p99'):.2f}"
                    f" | {cpu:.1f} |")
            if has_bare:
                line += (f" {rps / median(members, 'bare', 'rps'):.2f}x | {cpu / median(members, 'bare', 'cpu'):.2f}x |")
            print(line)
        print()
        for other in ("bare", "leaf", "base"):
            if other not in names:
                continue
            rps = median(members, "ours", "rps") / median(members, other, "rps")
            cpu = median(members, "ours", "cpu") / median(members, other, "cpu")
            rounds_rps = ", ".join(f"{x:.2f}" for x in per_round(members, "ours", other, "rps"))
            rounds_cpu = ", ".join(f"{x:.2f}" for x in per_round(members, "ours", other, "cpu"))
            print(f"ours/{other}: requests/s **{rps:.2f}x** (rounds: {rounds_rps}), CPU per request **{cpu:.2f}x**"
                  f" (rounds: {rounds_cpu})  ")
            if other == "bare":
                targets.append((f"{endpoint}, c{connections}: requests/s ≥ {MIN_REQUESTS_VS_BARE}x the bare servlet's",
                                f"{rps:.2f}x", rps >= MIN_REQUESTS_VS_BARE))
                targets.append((f"{endpoint}, c{connections}: CPU per request ≤ {MAX_CPU_VS_BARE}x the bare servlet's",
                                f"{cpu:.2f}x", cpu <= MAX_CPU_VS_BARE))
            if other == "leaf":
                targets.append((f"{endpoint}, c{connections}: requests/s ≥ {MIN_REQUESTS_VS_LEAF}x Leaf's",
                                f"{rps:.2f}x", rps >= MIN_REQUESTS_VS_LEAF))
        if connections == 50:
            p99 = median(members, "ours", "p99")
            targets.append((f"{endpoint}, c50: p99 ≤ {MAX_P99_MS_AT_50:g} ms", f"{p99:.2f} ms", p99 <= MAX_P99_MS_AT_50))
    if targets:
        print("\n### Targets (ratios of medians within this run)\n")
        print("| target | figure | verdict |")
        print("| --- | --: | --- |")
        for target, figure, ok in targets:
            print(f"| {target} | {figure} | {verdict(ok)} |")
    profiles(directory)
    bad = [r for r in rows if r["non2xx"] != "0"]
    if bad:
        print("[load-test] ERROR: answers not 2xx in "
              + ", ".join(f"{r['name']} {r['endpoint']} c{r['connections']} round {r['round']}" for r in bad))
        return 1
    return 0


def load_profile(directory, name, endpoint):
    stacks = directory / f"profile-{name}-{endpoint}.collapsed"
    wrk = directory / f"profile-{name}-{endpoint}.wrk"
    if not stacks.exists() or not wrk.exists():
        return None
    requests = int(re.search(r"(\d+) requests in", wrk.read_text()).group(1))
    result = []
    for line in stacks.read_text().splitlines():
        frames, _, count = line.rpartition(" ")
        result.append((frames.split(";"), int(count)))
    return result, requests


def profiles(directory):
    """Per endpoint: CPU µs per request in the profile of each server, and the frames whose own time (self) differs
    most between ours and bare, in µs per request."""
    interval = re.search(r"profile interval: (\d+) ns", (directory / "run.txt").read_text()) \
        if (directory / "run.txt").exists() else None
    for endpoint in ("segment", "snowflake"):
        ours, bare = load_profile(directory, "ours", endpoint), load_profile(directory, "bare", endpoint)
        if not ours or not bare or not interval:
            continue
        micros = int(interval.group(1)) / 1000

        def self_time(profile):
            stacks, requests = profile
            totals = collections.Counter()
            for frames, count in stacks:
                totals[frames[-1]] += count
            return {frame: count * micros / requests for frame, count in totals.items()}

        def total(profile):
            stacks, requests = profile
            return sum(count for _, count in stacks) * micros / requests

        mine, theirs = self_time(ours), self_time(bare)
        print(f"\n### Profile, {endpoint}: CPU µs per request sampled, ours {total(ours):.2f}, bare {total(bare):.2f}\n")
        print("Frames whose own CPU time per request differs most (ours − bare, µs):\n")
        print("| ours − bare | ours | bare | frame |")
        print("| --: | --: | --: | --- |")
        frames = sorted(set(mine) | set(theirs), key=lambda f: -(mine.get(f, 0) - theirs.get(f, 0)))
        for frame in frames[:15]:
            print(f"| {mine.get(frame, 0) - theirs.get(frame, 0):.3f} | {mine.get(frame, 0):.3f} "
                  f"| {theirs.get(frame, 0):.3f} | `{frame[:110]}` |")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(report(pathlib.Path(sys.argv[1])))


if __name__ == "__main__":
    main()
