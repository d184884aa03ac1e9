#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs `placescope job import`'s map tasks on a Dask cluster: one task per rank file, each running
`placescope job map FILE -o JOB` on a worker (a process of its own: no GIL held by C++, its own memory, a crash kills
one task), so the C++ stays engine-agnostic. The cluster is an existing one (--scheduler tcp://host:8786, or
--scheduler-file F as `dask scheduler --scheduler-file F` writes it under Slurm) or a LocalCluster of single-threaded
processes (--local-workers N). Workers must see the same paths (the job folder on a shared file system).

A task that fails is submitted once more; each input's outcome (its rank, or its last error line) is written as JSON
to --results for `placescope job import`, which builds the job's manifest from it exactly as from its own engine.
Run by `placescope job import --dask ...`; Debian's python3-distributed is the one dependency.
"""
import argparse
import json
import subprocess
import sys

MAP_PREFIX = "placescope job map: "


def run_map(placescope, job, path):
    """One map task, on a worker. Returns {"rank": int or None, "error": str}."""
    done = subprocess.run([placescope, "job", "map", path, "-o", job, "--quiet"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if done.returncode == 0:
        try:
            return {"rank": int(done.stdout.strip()), "error": ""}
        except ValueError:
            return {"rank": None, "error": "the map process printed no rank"}
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    error = lines[-1] if lines else "the map process failed (exit status %d)" % done.returncode
    if error.startswith(MAP_PREFIX):
        error = error[len(MAP_PREFIX):]
    return {"rank": None, "error": error}


def connect(args):
    """A client on the cluster the arguments name, and the LocalCluster to close (or None)."""
    from distributed import Client, LocalCluster
    if args.scheduler:
        return Client(args.scheduler, timeout=args.connect_timeout), None
    if args.scheduler_file:
        return Client(scheduler_file=args.scheduler_file, timeout=args.connect_timeout), None
    cluster = LocalCluster(n_workers=args.local_workers, threads_per_worker=1, processes=True,
                           dashboard_address=None)
    return Client(cluster), cluster


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--placescope", required=True, help="the placescope binary (same path on every worker)")
    parser.add_argument("--job", required=True, help="the job folder")
    parser.add_argument("--results", required=True, help="where to write the outcomes (JSON)")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", help="address of a running scheduler")
    where.add_argument("--scheduler-file", help="scheduler file of a running cluster")
    where.add_argument("--local-workers", type=int, help="start a LocalCluster of this many processes")
    parser.add_argument("--connect-timeout", default="60s", help="how long to wait for the scheduler")
    parser.add_argument("inputs", nargs="+", help="one trace file per rank")
    args = parser.parse_args()
    try:
        from distributed import as_completed
    except ImportError:
        print("placescope_dask: Dask is not installed (Debian: apt-get install python3-distributed)", file=sys.stderr)
        return 1
    try:
        client, cluster = connect(args)
    except Exception as error:  # an unreachable scheduler, a bad scheduler file: one line, not a traceback
        print("placescope_dask: cannot reach the Dask cluster: %s" % error, file=sys.stderr)
        return 1
    try:
        outcomes = [None] * len(args.inputs)
        attempt_of = {}
        for index, path in enumerate(args.inputs):
            future = client.submit(run_map, args.placescope, args.job, path, pure=False)
            attempt_of[future] = (index, 1)
        pending = as_completed(list(attempt_of))
        for future in pending:
            index, attempt = attempt_of.pop(future)
            try:
                result = future.result()
            except Exception as error:  # the worker died under the task
                result = {"rank": None, "error": "the task failed on its worker: %s" % error}
            if result["rank"] is None and attempt < 2:
                retry = client.submit(run_map, args.placescope, args.job, args.inputs[index], pure=False)
                attempt_of[retry] = (index, attempt + 1)
                pending.add(retry)
                continue
            outcomes[index] = {"input": args.inputs[index], "rank": result["rank"], "error": result["error"],
                               "attempts": attempt}
        with open(args.results, "w", encoding="utf-8") as out:
            json.dump(outcomes, out)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
