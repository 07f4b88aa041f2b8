"""Runs one paper preset's sweep and reports its time per mechanism (bench/sweep_fig1a.sh,
bench/sweep_preset.sh).

Usage: sweep_timing.py CLI PRESET DATA_DIR REPEATS OUT_PREFIX [SWEEP OPTION...]
(the options go to `sweep` after the preset's and override them: --threads N, --mechanisms …)
"""
import collections
import csv
import os
import resource
import statistics
import subprocess
import sys
import time


def main():
    cli, preset, data, repeats, out = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    extra = sys.argv[6:]
    start = time.monotonic()
    with open(out + ".json", "w") as json_out, open(out + ".log", "w") as log:
        code = subprocess.call([cli, "sweep", "--preset", preset, "--data-dir", data,
                                "--repeats", str(repeats), *extra, "--json", "--out", out + ".csv",
                                "--plot", out + ".png"], stdout=json_out, stderr=log)
    wall = time.monotonic() - start
    if code != 0:
        sys.exit(f"dpstudio-cli failed ({code}): see {out}.log and {out}.json")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    cores = len(os.sched_getaffinity(0))
    rows = list(csv.DictReader(line for line in open(out + ".csv") if not line.startswith("#")))
    by = collections.defaultdict(list)
    for row in rows:
        by[row["mechanism"]].append(float(row["seconds"]))
    busy = sum(sum(v) for v in by.values())
    name = " ".join([preset, *extra])
    print(f"{name}, {repeats} repetitions, {len(rows)} trials: {wall:.1f} s wall ({wall / 60:.1f} min), "
          f"{cpu:.1f} s CPU, load average {os.getloadavg()[0]:.1f}; "
          f"idle {cores}-core machine: {cpu / cores:.1f} s ({cpu / cores / 60:.1f} min)")
    print(f"{'mechanism':12s} {'trials':>6s} {'seconds':>9s} {'share':>6s} {'median/trial':>12s} {'one-off':>8s}")
    projected = 0.0
    for name, secs in by.items():
        median = statistics.median(secs)
        oneoff = max(0.0, sum(secs) - median * len(secs))
        per_repeat = len(secs) / repeats  # trials per repetition: one per axis value
        projected += oneoff + median * per_repeat * 100
        print(f"{name:12s} {len(secs):6d} {sum(secs):9.1f} {100 * sum(secs) / busy:5.1f}% "
              f"{median:12.3f} {oneoff:8.1f}")
    if repeats != 100 and busy > 0:
        # The trials' seconds are wall-clock under this run's load: CPU per busy second turns
        # them into an idle machine's.
        idle = projected * (cpu / busy) / cores
        print(f"extrapolated to 100 repetitions: {projected * wall / busy:.0f} s at this run's load; "
              f"{idle:.0f} s ({idle / 60:.1f} min) on an idle {cores}-core machine")


if __name__ == "__main__":
    main()
