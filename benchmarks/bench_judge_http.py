"""Judge calls per second through the OpenAI-compatible judge at ``-j 32`` against a 200 ms server.

An LLM server's latency, not qcgrade, should bound an audit. This benchmark
starts the scripted Chat Completions server of ``tests/chat_server.py`` in its
own process, answering every request after a fixed delay, and drives the
audit's runner (``judge_all``) with the real ``OpenAIJudge`` over HTTP:
rubric rendering, JSON bodies, pooled keep-alive connections, strict answer
parsing, all of it. Requests are fixture sections with their slices.

Reported, as the median over rounds:

* HTTP judge calls per second, and its ratio to the ideal ``jobs / delay``
  (32 / 0.2 s = 160/s: every slot always busy, zero overhead);
* a baseline measured in the same run: the same runner and jobs with an
  in-process ``async`` judge that only sleeps the same delay, so the ratio
  HTTP / baseline is what HTTP and the judge's own work cost.

The target is at least 25 calls/s at ``-j 32``.

    python benchmarks/bench_judge_http.py [--jobs 32] [--delay 0.2] [--calls 640] [--rounds 3] [--check]

``--check`` exits 1 when the HTTP rate is under the target.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from qcgrade.auditing.judges import CallableJudge, Judge
from qcgrade.auditing.openai_judge import OpenAIJudge
from qcgrade.auditing.runner import Request, judge_all

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "chat_server.py"
TARGET = 25.0


def requests(count: int) -> list[Request]:
    """``count`` fixture sections with their slices (cycled; the sample index keeps them distinct)."""
    import json

    pairs = [
        (md.read_text(encoding="utf-8"), json.loads(md.with_suffix(".json").read_text(encoding="utf-8")))
        for md in sorted((ROOT / "fixtures").glob("*/*.md"))
    ]
    return [Request(pairs[i % len(pairs)][0], pairs[i % len(pairs)][1], i) for i in range(count)]


async def rate(judge: Judge, batch: list[Request], jobs: int) -> tuple[float, float]:
    """Calls per second (wall clock) and this process's CPU seconds per call."""
    await judge.start(jobs)
    try:
        began, cpu = time.perf_counter(), time.process_time()
        outcomes = await judge_all(judge, batch, jobs=jobs)
        took, cpu = time.perf_counter() - began, time.process_time() - cpu
    finally:
        await judge.stop()
    errors = [o.error for o in outcomes if o.verdict is None]
    if errors:
        raise SystemExit(f"bench: {len(errors)} judge errors, first: {errors[0]}")
    return len(batch) / took, cpu / len(batch)


def sleeper(delay: float) -> Judge:
    async def judge(section: str, slice_: dict[str, Any]) -> bool:
        await asyncio.sleep(delay)
        return True

    return CallableJudge(judge, "sleep")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=32)
    parser.add_argument("--delay", type=float, default=0.2, help="server answer delay, seconds")
    parser.add_argument("--calls", type=int, default=640, help="judge calls per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--check", action="store_true", help=f"exit 1 under {TARGET:g} calls/s")
    args = parser.parse_args()

    server = subprocess.Popen(
        [sys.executable, str(SERVER), "--delay", str(args.delay)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        base_url = server.stdout.readline().strip()
        if not base_url.startswith("http://127.0.0.1:"):
            raise SystemExit(f"bench: the server did not start (said {base_url!r})")
        batch = requests(args.calls)
        http_rates, base_rates, client_cpu = [], [], []
        for _ in range(args.rounds):  # alternate, so load on the machine hits both alike
            calls_per_s, cpu = asyncio.run(rate(OpenAIJudge("test-model", base_url=base_url), batch, args.jobs))
            http_rates.append(calls_per_s)
            client_cpu.append(cpu)
            base_rates.append(asyncio.run(rate(sleeper(args.delay), batch, args.jobs))[0])
    finally:
        assert server.stdin is not None
        server.stdin.close()
        server.wait(timeout=10)
    # CPU is steadier than wall time on a shared machine: the server's, per HTTP call, from its rusage.
    server_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    server_ms = 1000 * (server_cpu.ru_utime + server_cpu.ru_stime) / (args.calls * args.rounds)

    ideal = args.jobs / args.delay
    http, base = statistics.median(http_rates), statistics.median(base_rates)
    print(
        f"OpenAI judge over HTTP, -j {args.jobs}, server delay {args.delay * 1000:g} ms, "
        f"{args.calls} calls x {args.rounds} rounds"
    )
    print(f"  HTTP judge:        {http:7.1f} calls/s  (rounds: {', '.join(f'{r:.1f}' for r in http_rates)})")
    print(f"  in-process sleep:  {base:7.1f} calls/s  (same runner and jobs, no HTTP)")
    print(f"  ideal jobs/delay:  {ideal:7.1f} calls/s")
    print(f"  CPU per HTTP call: client {1000 * statistics.median(client_cpu):.2f} ms, scripted server {server_ms:.2f} ms")
    print(f"  HTTP / ideal = {http / ideal:.2f}; HTTP / in-process = {http / base:.2f}; target >= {TARGET:g} calls/s: ", end="")
    print("met" if http >= TARGET else "MISSED")
    return 1 if args.check and http < TARGET else 0


if __name__ == "__main__":
    sys.exit(main())
