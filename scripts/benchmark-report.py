#!/usr/bin/env python3
"""Prints the JMH reports of one scripts/benchmarks.sh run as tables of ratios to the bare AtomicLong of the same run
(then the absolute figures), the start-up and many-keys reports as ratios to their bare baselines, and checks the
performance targets that the reports cover. The client-mode runs (client-mode-t<threads>-r<round>-<mode>.json,
client-failover.json) get tables of their own: medians over the rounds.

Ratios, not raw figures, are what hold across machines of one kind: their raw speed differs by up to 2.5x.

Usage: scripts/benchmark-report.py <results directory>
"""
import json
import pathlib
import re
import statistics
import sys

# The row every other row of a table is divided by: the bare AtomicLong of the same run.
BASELINES = ("ATOMIC_LONG_SHARED", "ATOMIC_LONG", "atomicLong")


def load(entries):
    rows = []
    for entry in entries:
        params = dict(entry.get("params", {}))
        method = entry["benchmark"].rsplit(".", 1)[1]
        metric = entry["primaryMetric"]
        rows.append({
            "method": method,
            "params": params,
            "threads": entry["threads"],
            "name": params.pop("generator", method),
            "score": metric["score"],
            # JMH writes "NaN" (a string) when one iteration gives no error estimate.
            "error": float(metric["scoreError"]),
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


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def print_startup(name, report):
    """StartupBenchmark: each application's median start against the bare application's, run the same way."""
    print(f"\n{name}: start-up to ApplicationReadyEvent, median of {report['runs']} fresh JVMs per application, "
          f"interleaved; ratio and added milliseconds against the application without id-starter\n")
    print("| application | run | ready (ms) | x bare | added (ms) | main thread CPU (ms) | classes loaded | first ID (ms) |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    bare = {v["aot"]: median(v["readyMs"]) for v in report["variants"] if v["mode"] == "bare"}
    added = {}
    for v in report["variants"]:
        ready = median(v["readyMs"])
        base = bare.get(v["aot"])
        ratio = f"{ready / base:.2f}x" if base else ""
        plus = f"{ready - base:+.0f}" if base and v["mode"] != "bare" else ""
        if base and v["mode"] != "bare":
            added[(v["mode"], v["aot"])] = ready - base
        first = f"{v['firstIdMs']:.1f}" if v["mode"] != "bare" else ""
        print(f"| {v['mode']} | {'AOT' if v['aot'] else 'JIT'} | {ready:.0f} | {ratio} | {plus} | {v['mainCpuMs']:.0f} "
              f"| {v['classes']} | {first} |")
    return added


def print_many_keys(name, report):
    """ManyKeys: heap per key, one refresh of the key list against a full read, the first ID of a key never used."""
    print(f"\n{name}: {report['keys']:,} keys in the store; refresh and first ID as ratios to the bare store calls "
          f"of the same run (a full read of the key list; one allocate)\n")
    print("| store | heap per key known (B) | used once, idle (B) | refresh, nothing changed (ms) | rows | x full read "
          "| full read (ms) | refresh after a change (ms) | first ID of a key never used (ms) | x bare allocate |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    def ratio(value, base, digits):
        return f"{value / base:.{digits}f}x" if base > 0 else ""

    for r in report["stores"]:
        print(f"| {r['store']} | {r['knownBytesPerKey']:.0f} | {r['usedBytesPerKey']:.0f} | {r['refreshUnchangedMs']:.2f} "
              f"| {r['refreshUnchangedRows']:.0f} | {ratio(r['refreshUnchangedMs'], r['fullReadMs'], 3)} "
              f"| {r['fullReadMs']:.1f} | {r['refreshAddedMs']:.1f} | {r['firstIdMs']:.2f} "
              f"| {ratio(r['firstIdMs'], r['bareAllocateMs'], 2)} |")
    return report["stores"]


def check_startup_and_keys(added, stores):
    def verdict(ok):
        return "met" if ok else "**missed**"

    for (mode, aot), ms in sorted(added.items()):
        if mode in ("segment", "db"):
            print(f"| start-up, {mode} ({'AOT' if aot else 'JIT'}), embedded database: ≤ 100 ms added | {ms:+.0f} ms "
                  f"| {verdict(ms <= 100)} |")
    for r in stores:
        worst = max(r["knownBytesPerKey"], r["usedBytesPerKey"])
        print(f"| heap per idle key ≤ 1 KB, {r['store']} | known {r['knownBytesPerKey']:.0f} B, used once "
              f"{r['usedBytesPerKey']:.0f} B | {verdict(worst <= 1024)} |")
        print(f"| a refresh that finds nothing changed reads no key, {r['store']} | {r['refreshUnchangedRows']:.0f} "
              f"rows | {verdict(r['refreshUnchangedRows'] == 0)} |")


# Client mode against in-process (issue 27): at least this ratio at every number of threads.
MIN_CLIENT_VS_IN_PROCESS = 0.95


def report_client_mode(directory):
    runs = {}
    loads = []
    for path in sorted(directory.glob("client-mode-t*-m*-r*-*.json")):
        match = re.fullmatch(r"client-mode-t(\d+)-m(\d+)-r(\d+)-(\w+)", path.stem)
        try:
            rows = load(json.loads(path.read_text()))
        except json.JSONDecodeError:
            print(f"\n## {path.stem}: no complete JMH report (see {path.stem}.txt)")
            continue
        if match and rows:
            group = (int(match.group(1)), int(match.group(2)))
            runs.setdefault(group, {}).setdefault(match.group(4), []).append((int(match.group(3)), rows[0]))
            loads += [float(x) for x in re.findall(r"^# (?:start|end) \S+ load (\S+)", path.with_suffix(".txt").read_text(), re.M)]
    if not runs:
        return None
    print(f"\n## client-mode (load average {min(loads):.2f} to {max(loads):.2f})\n")
    print("Segment IDs of one key, M/s (JMH ops/µs), median over the rounds; one fork per mode and round, modes "
          "interleaved. Per million IDs: ranges drawn from the segment store and calls to the ID servers (ranges and "
          "leases); waits: calls of nextId that waited for a range, per range, and their share of the callers' time.\n")
    print("| threads | max step | mode | M IDs/s | x AtomicLong | per round | ranges per 1M IDs "
          "| server calls per 1M IDs | mean range call ms | waits per range | callers' time waiting |")
    print("| ---: | ---: | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    verdicts = []
    for threads, max_step in sorted(runs):
        modes = runs[(threads, max_step)]
        median = {mode: statistics.median(r["score"] for _, r in rows) for mode, rows in modes.items()}
        for mode in ("ATOMIC_LONG", "IN_PROCESS", "CLIENT"):
            if mode not in modes:
                continue
            rows = [r for _, r in sorted(modes[mode], key=lambda x: x[0])]
            ratio = f"{median[mode] / median['ATOMIC_LONG']:.2f}x" if "ATOMIC_LONG" in median else ""
            sums = {k: sum(r["secondary"].get(k, 0) for r in rows) for k in
                    ("storeCalls", "serverCalls", "storeMicros", "waits", "waitMicros")}
            score = sum(r["score"] for r in rows)
            rounds = ", ".join(f"{r['score']:.1f}" for r in rows)
            line = f"| {threads} | {max_step:,} | {mode} | {median[mode]:.1f} | {ratio} | {rounds} |"
            calls = sums["storeCalls"]
            if mode == "ATOMIC_LONG" or not calls:
                line += " | | | | |"
            else:
                # The counters are rates like the score (AuxCounters OPERATIONS): their ratio is a count per ID.
                line += (f" {calls / score * 1e6:.2f} | {sums['serverCalls'] / score * 1e6:.2f}"
                         f" | {sums['storeMicros'] / calls / 1000:.2f} | {sums['waits'] / calls:.2f}"
                         f" | {sums['waitMicros'] / len(rows) / threads:.1%} |")
            print(line)
        if "CLIENT" in median and "IN_PROCESS" in median:
            ratio = median["CLIENT"] / median["IN_PROCESS"]
            verdicts.append((threads, max_step, ratio, median["CLIENT"], median["IN_PROCESS"]))
    return verdicts


def report_client_failover(directory):
    result, floor = directory / "client-failover.json", directory / "client-failover-floor.json"
    if not result.exists() or not floor.exists():
        return None
    data, base = json.loads(result.read_text()), json.loads(floor.read_text())
    print(f"\n## client-failover (load average {load_average(result)})\n")
    print("Latency of every nextId of one thread at full speed, µs; the floor is the same timed loop over a bare "
          "AtomicLong in a JVM of its own.\n")
    print("| phase | calls | p50 | p99 | p99.9 | p99.9 x floor | p99.99 | max |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, row in (("bare AtomicLong (floor)", base), ("client mode, both servers up", data["before"]),
                      ("client mode, one server killed (SIGKILL)", data["during"])):
        print(f"| {name} | {row['calls']:,} | {row['p50'] / 1e3:.3f} | {row['p99'] / 1e3:.3f} | {row['p99.9'] / 1e3:.3f} "
              f"| {row['p99.9'] / base['p99.9']:.2f}x | {row['p99.99'] / 1e3:.3f} | {row['max'] / 1e3:,.1f} |")
    print(f"\nCalls to the killed server in the phase before the kill: {data['callsKilledServerBefore']}; to the other "
          f"after the kill: {data['callsOtherServerAfter']}; failed nextId calls: {data['failures']}; server killed: "
          f"{data['killed']}.")
    return data


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
    added, stores = {}, []
    for path in sorted(directory.glob("*.json")):
        if path.stem.startswith("client-"):
            continue
        try:
            data = json.loads(path.read_text())
        except json.JSONDecodeError:
            print(f"\n## {path.stem}: no complete report (still running, or it failed; see {path.stem}.txt)")
            continue
        if isinstance(data, dict):
            # The reports of the main classes (not JMH): their kind says which.
            print(f"\n## {path.stem} (load average {data.get('loadAtStart', '?')} to {data.get('loadAtEnd', '?')})")
            if data.get("kind") == "startup":
                added = print_startup(path.stem, data)
            elif data.get("kind") == "many-keys":
                stores = print_many_keys(path.stem, data)
            continue
        rows = load(data)
        if not rows:
            continue
        runs[path.stem] = rows
        print(f"\n## {path.stem} (load average {load_average(path)})")
        if rows[0]["mode"] == "sample":
            print_latency(path.stem, rows)
        else:
            print_throughput(path.stem, rows, higher_is_better=rows[0]["mode"] == "thrpt")
    client = report_client_mode(directory)
    failover = report_client_failover(directory)
    sequence = directory / "sequence-inserts.tsv"
    if sequence.exists():
        print_sequence_inserts(sequence)
    check_targets(runs)
    check_single_call(runs)
    for threads, max_step, ratio, ours, local in client or []:
        print(f"| client mode ≥ {MIN_CLIENT_VS_IN_PROCESS}x in-process, {threads} thread(s), max step {max_step:,} "
              f"| {ours:.1f} against "
              f"{local:.1f} M/s ({ratio:.2f}x) | {'met' if ratio >= MIN_CLIENT_VS_IN_PROCESS else '**missed**'} |")
    if failover:
        ok = failover["failures"] == 0 and failover["callsOtherServerAfter"] > 0
        print(f"| client mode keeps issuing while a server is killed | {failover['failures']} failed calls, max "
              f"{failover['during']['max'] / 1e3:,.1f} µs, p99.9 {failover['during']['p99.9'] / 1e3:.3f} µs | "
              f"{'met' if ok else '**missed**'} |")
    check_startup_and_keys(added, stores)


if __name__ == "__main__":
    main()
