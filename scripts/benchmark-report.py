#!/usr/bin/env python3
"""Prints the JMH reports of one scripts/benchmarks.sh run as tables of ratios to the bare AtomicLong of the same run
(then the absolute figures), and checks the performance targets that the reports cover.

Ratios, not raw figures, are what hold across machines of one kind: their raw speed differs by up to 2.5x.

Usage: scripts/benchmark-report.py <results directory>
"""
import json
import pathlib
import re
import sys

# The row every other row of a table is divided by: the bare AtomicLong of the same run.
BASELINES = ("ATOMIC_LONG_SHARED", "ATOMIC_LONG", "atomicLong")


def load(path):
    rows = []
    for entry in json.loads(path.read_text()):
        params = dict(entry.get("params", {}))
        method = entry["benchmark"].rsplit(".", 1)[1]
        metric = entry["primaryMetric"]
        rows.append({
            "method": method,
            "params": params,
            "threads": entry["threads"],
            "name": params.pop("generator", method),
            "score": metric["score"],
            "error": metric["scoreError"],
            "unit": metric["scoreUnit"],
            "percentiles": metric.get("scorePercentiles", {}),
            "mode": entry["mode"],
            "secondary": {k: v["score"] for k, v in entry.get("secondaryMetrics", {}).items()},
        })
    return rows


def load_average(path):
    text = path.with_suffix(".txt")
    if not text.exists():
        return "?"
    loads = re.findall(r"^# (?:start|end) \S+ load (\S+)", text.read_text(), re.M)
    return " to ".join(loads) if loads else "?"


def group_key(row, without=()):
    return tuple(sorted((k, v) for k, v in row["params"].items() if k not in without)), row["threads"]


def print_throughput(name, rows, higher_is_better):
    groups = {}
    for row in rows:
        groups.setdefault(group_key(row), []).append(row)
    for (params, threads), members in groups.items():
        base = next((r for r in members if r["name"] in BASELINES), None)
        label = ", ".join(f"{k}={v}" for k, v in params) or "-"
        print(f"\n{name}: {threads} thread(s), {label}\n")
        measure = "speed" if higher_is_better else "time"
        cpu = any("processCpuNanos" in r["secondary"] for r in members)
        print(f"| generator | x AtomicLong ({measure}) | score | unit |" + (" process CPU ms per 1M IDs |" if cpu else ""))
        print("| --- | ---: | ---: | --- |" + (" ---: |" if cpu else ""))
        for r in members:
            ratio = ""
            if base:
                ratio = f"{r['score'] / base['score']:.2f}x"
            line = f"| {r['name']} | {ratio} | {r['score']:.2f} ± {r['error']:.2f} | {r['unit']} |"
            if cpu:
                ids = r["secondary"].get("ids") or 0
                # ns per ID is ms per million IDs
                line += f" {r['secondary'].get('processCpuNanos', 0) / ids:.1f} |" if ids else " |"
            print(line)


def print_latency(name, rows):
    base = {}
    for r in rows:
        if r["name"] in BASELINES:
            base[r["params"].get("storeMillis")] = r
    print(f"\n{name}: percentiles in µs; ratio of p99.9 to the bare AtomicLong's p99.9 in the same run\n")
    print("| generator | store ms | p99.9 x AtomicLong | p50 | p99 | p99.9 | p99.99 | max |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        p = r["percentiles"]
        b = base.get(r["params"].get("storeMillis"))
        ratio = f"{p['99.9'] / b['percentiles']['99.9']:.2f}x" if b else ""
        print(f"| {r['name']} | {r['params'].get('storeMillis')} | {ratio} | {p['50.0']:.2f} | {p['99.0']:.2f} "
              f"| {p['99.9']:.2f} | {p['99.99']:.2f} | {p['100.0']:.0f} |")


def find(rows, name, **params):
    for r in rows:
        if r["name"] == name and all(r["params"].get(k) == v for k, v in params.items()):
            return r
    return None


def check_targets(runs):
    print("\nTargets (each a ratio within one run)\n")
    print("| target | figure | verdict |")
    print("| --- | --- | --- |")

    def verdict(ok):
        return "met" if ok else "**missed**"

    latency = runs.get("latency")
    if latency:
        for store in ("0", "200"):
            ours = find(latency, "ID_STARTER", storeMillis=store)
            chain = find(latency, "COSID_SEGMENT_CHAIN", storeMillis=store)
            if ours and chain:
                a, b = ours["percentiles"]["99.9"], chain["percentiles"]["99.9"]
                print(f"| segment p99.9 ≤ CosId SegmentChainId, store {store} ms | {a:.2f} against {b:.2f} µs "
                      f"({a / b:.2f}x; p99.99 {ours['percentiles']['99.99']:.1f} against "
                      f"{chain['percentiles']['99.99']:.1f}) | {verdict(a <= b)} |")
    for run, threads, need in (("segment-t1", 1, 1.1), ("segment-t2", 2, 1.5)):
        rows = runs.get(run)
        if not rows:
            continue
        ours = find(rows, "ID_STARTER_FIXED_STEP", step="1000")
        peer = find(rows, "COSID_DEFAULT_SEGMENT", step="1000")
        if ours and peer:
            ratio = ours["score"] / peer["score"]
            print(f"| fixed step 1,000, {threads} thread(s): ≥ {need}x CosId DefaultSegmentId | {ours['score']:.1f} "
                  f"against {peer['score']:.1f} M/s ({ratio:.2f}x) | {verdict(ratio >= need)} |")
    rows = runs.get("segment-t1")
    if rows:
        for step in ("1000", "100000"):
            ours = find(rows, "ID_STARTER", step=step)
            base = find(rows, "ATOMIC_LONG_SHARED", step=step)
            if ours and base:
                ratio = ours["score"] / base["score"]
                print(f"| strict, 1 thread, step {step}: ≥ 0.95x AtomicLong | {ours['score']:.1f} against "
                      f"{base['score']:.1f} M/s ({ratio:.2f}x) | {verdict(ratio >= 0.95)} |")


def check_single_call(runs):
    rows = runs.get("batch")
    single = find(rows or [], "single")
    base = find(rows or [], "atomicLong")
    if single and base:
        ratio = base["score"] / single["score"]
        print(f"| strict, 1 thread, one `nextId(key)` against one `getAndIncrement()` (SegmentBatchBenchmark): "
              f"≥ 0.95x AtomicLong | {single['score']:.2f} against {base['score']:.2f} ns per call "
              f"({ratio:.2f}x the speed) | {'met' if ratio >= 0.95 else '**missed**'} |")


def print_sequence_inserts(path):
    """SequenceInsertLoad's rows (sequence-inserts.tsv): per commit mode, step and number of threads, each source's
    inserts per second and p99 as ratios to `pooled` of the same round (median of the rounds; the rounds' range of the
    throughput ratio in brackets), pooled's own figures, and what id-starter's generator did (store calls per 1,000
    inserts, callers' waits for a range per store call, mean wait)."""
    import csv
    import statistics
    with path.open() as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    if not rows:
        return
    print(f"\n## {path.stem} (load average {load_average(path)})")
    print("\nJPA inserts, one transaction each; ratios to `pooled` in the same round: throughput / p99 (median of the "
          "rounds, the throughput ratio's range in brackets); id-starter's counts: store calls per 1,000 inserts · waits "
          "per store call · mean wait µs\n")
    sources = list(dict.fromkeys(r["source"] for r in rows))
    others = [s for s in sources if s != "pooled"]
    segment = [s for s in sources if s.startswith("id-starter")]
    print("| commit | step | threads | `pooled` inserts/s · p99 µs | " + " | ".join(f"`{s}`" for s in others)
          + " | " + " | ".join(f"`{s}` counts" for s in segment) + " | load |")
    print("| --- | ---: | ---: | ---: |" + " ---: |" * (len(others) + len(segment)) + " ---: |")
    cells = {}
    for r in rows:
        cells.setdefault((r["commit"], int(r["step"]), int(r["threads"])), []).append(r)
    for (commit, step, threads), members in cells.items():
        rounds = {}
        for r in members:
            rounds.setdefault(r["round"], {})[r["source"]] = r
        pooled = [by["pooled"] for by in rounds.values() if "pooled" in by]
        if not pooled:
            continue
        line = (f"| {commit} | {step} | {threads} | {statistics.median(float(p['inserts_per_s']) for p in pooled):,.0f} · "
                f"{statistics.median(float(p['p99_us']) for p in pooled):,.0f} |")
        for source in others:
            speed, p99 = [], []
            for by in rounds.values():
                if source in by and "pooled" in by:
                    speed.append(float(by[source]["inserts_per_s"]) / float(by["pooled"]["inserts_per_s"]))
                    p99.append(float(by[source]["p99_us"]) / float(by["pooled"]["p99_us"]))
            line += (f" {statistics.median(speed):.2f} [{min(speed):.2f}–{max(speed):.2f}] / {statistics.median(p99):.2f} |"
                     if speed else " |")
        for source in segment:
            mine = [r for r in members if r["source"] == source]
            inserts = sum(int(r["inserts"]) for r in mine)
            calls = sum(int(r["store_calls"]) for r in mine)
            waits = sum(int(r["waits"]) for r in mine)
            wait_us = sum(int(r["waits"]) * float(r["wait_mean_us"]) for r in mine)
            line += (f" {1000 * calls / inserts:.1f} · {waits / calls:.2f} · {wait_us / waits if waits else 0:,.0f} |"
                     if inserts and calls else " |")
        loads = [float(r["load1"]) for r in members]
        print(line + f" {min(loads):.1f}–{max(loads):.1f} |")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    directory = pathlib.Path(sys.argv[1])
    runs = {}
    for path in sorted(directory.glob("*.json")):
        try:
            rows = load(path)
        except json.JSONDecodeError:
            print(f"\n## {path.stem}: no complete JMH report (still running, or it failed; see {path.stem}.txt)")
            continue
        if not rows:
            continue
        runs[path.stem] = rows
        print(f"\n## {path.stem} (load average {load_average(path)})")
        if rows[0]["mode"] == "sample":
            print_latency(path.stem, rows)
        else:
            print_throughput(path.stem, rows, higher_is_better=rows[0]["mode"] == "thrpt")
    sequence = directory / "sequence-inserts.tsv"
    if sequence.exists():
        print_sequence_inserts(sequence)
    check_targets(runs)
    check_single_call(runs)


if __name__ == "__main__":
    main()
