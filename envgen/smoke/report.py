"""Smoke tests of a built environment: run _smoke_check.py in its interpreter, parse the report.

`run_smoke` runs the script with the environment's own python (through `envgen.infra.proc`), parses
its JSON, and turns a crash, a timeout or garbage on stdout into failing checks, never a
traceback. The renderers turn a report into a table, JSON or JUnit XML; `raise_for_failures`
raises SmokeTestError. This module must not build or lock environments, must not import torch,
and must not print (the CLI owns stdout).
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import re
import signal
import threading
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal, get_args

from envgen.errors import EnvgenError, SmokeTestError
from envgen.infra import proc as _proc
from envgen.infra import progress
from envgen.infra.resources import SMOKE_SCRIPT, SMOKE_SCRIPT_27
from envgen.model.types import ComputeKind

log = logging.getLogger(__name__)

Tier = Literal["cpu", "gpu", "project"]
TIERS: Final[tuple[Tier, ...]] = get_args(Tier)
Status = Literal["pass", "fail", "skip"]
STATUSES: Final[tuple[Status, ...]] = get_args(Status)
COMPANIONS: Final = ("torchvision", "torchaudio")
DEFAULT_TIMEOUT: Final = 600.0
# The name of the check that stands for the script itself (crash, timeout, garbage output).
SCRIPT_CHECK: Final = "smoke-script"

_RUNNING: Final = re.compile(r"^envgen-smoke: running (\S+)$", re.MULTILINE)


@dataclass(frozen=True, slots=True, kw_only=True)
class SmokeExpectation:
    """What a variant's lock promises about its environment.

    Args:
        kind: the accelerator kind of the variant.
        version: the CUDA or ROCm version ("11.8", "6.1"); None for cpu and xpu.
        distributions: distribution name -> the exact locked version, local label included
            ("torch": "2.1.0+cu118"); compared with importlib.metadata, not torch.__version__.
        companions: which of torchvision/torchaudio the variant has.
        require_gpu: fail (instead of skip) the GPU tier when no device is visible.
        archs: the compiled CUDA architectures matrices/gpu-archs.yaml records for the build
            (torch.cuda.get_arch_list() names); empty when the matrix has no row for it.
        ptx_jit: False when the host driver runs this CUDA only through minor-version
            compatibility, so PTX cannot be JIT-compiled (the script also detects it).
        extensions: import names of the compiled extensions the variant pins (torch_scatter,
            mmcv, ...): each gets an import-and-op check, skipped when not installed.
    """

    kind: ComputeKind
    version: str | None = None
    distributions: Mapping[str, str] = field(default_factory=dict)
    companions: frozenset[str] = frozenset()
    require_gpu: bool = False
    archs: tuple[str, ...] = ()
    ptx_jit: bool = True
    extensions: frozenset[str] = frozenset()

    @property
    def accelerator(self) -> str:
        """The accelerator id: 'cpu', 'cu118', 'rocm6.1', 'xpu'."""
        if self.kind == "cuda" and self.version:
            return "cu" + self.version.replace(".", "")
        if self.kind == "rocm" and self.version:
            return "rocm" + self.version
        return self.kind

    def to_json(self) -> str:
        """The expectation as the script reads it (keys sorted, so the command line is stable)."""
        data: dict[str, object] = {
            "kind": self.kind,
            "version": self.version,
            "accelerator": self.accelerator,
            "distributions": dict(sorted(self.distributions.items())),
            "companions": sorted(self.companions),
            "require_gpu": self.require_gpu,
        }
        # Only when set, so expectations without GPU facts keep their bytes.
        if self.archs:
            data["archs"] = list(self.archs)
        if not self.ptx_jit:
            data["ptx_jit"] = False
        if self.extensions:  # only when present: a variant without extensions keeps its bytes
            data["extensions"] = sorted(self.extensions)
        return json.dumps(data, sort_keys=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class SmokeCheck:
    """One check's outcome."""

    tier: Tier
    name: str
    status: Status
    detail: str
    seconds: float = 0.0

    @property
    def label(self) -> str:
        return f"{self.tier}/{self.name}"


@dataclass(frozen=True, slots=True, kw_only=True)
class SmokeReport:
    """Every check run in one environment, in the script's order."""

    checks: tuple[SmokeCheck, ...]
    python: str = ""

    @property
    def failed(self) -> tuple[SmokeCheck, ...]:
        return tuple(c for c in self.checks if c.status == "fail")

    @property
    def passed(self) -> tuple[SmokeCheck, ...]:
        return tuple(c for c in self.checks if c.status == "pass")

    @property
    def skipped(self) -> tuple[SmokeCheck, ...]:
        return tuple(c for c in self.checks if c.status == "skip")

    @property
    def ok(self) -> bool:
        return not self.failed

    @property
    def seconds(self) -> float:
        return sum(c.seconds for c in self.checks)


# --- running ---------------------------------------------------------------------------------
def run_smoke(
    python: Path, expect: SmokeExpectation, *, timeout: float = DEFAULT_TIMEOUT
) -> SmokeReport:
    """Run the smoke checks inside the environment whose interpreter is `python`.

    Never raises for a broken environment: a missing interpreter, a crash, a timeout or output
    that is not a report all become a failing `cpu/smoke-script` check.
    """
    # -I: ignore PYTHON* variables and user site-packages, and keep the script's directory
    # (envgen/) off sys.path so its modules cannot shadow the environment's.
    # -X faulthandler: a crash in native code (SIGSEGV) prints the Python frames it happened
    # in, which the report names (_fault_frames).
    args = [
        str(python),
        "-I",
        "-X",
        "faulthandler",
        str(SMOKE_SCRIPT),
        "--expect",
        expect.to_json(),
    ]
    if legacy_python(python):
        # 2.7 has no -I: -E -s, and the twin takes its own folder off sys.path itself.
        args = [str(python), "-E", "-s", str(SMOKE_SCRIPT_27), "--expect", expect.to_json()]
    _warm_table_imports()
    try:
        result = _proc.run(
            args,
            what="smoke test",
            env=_proc.clean_env(),
            timeout=timeout,
            check=False,
            on_stderr=progress.smoke_lines(),  # each check as it starts
        )
    except EnvgenError as exc:
        return SmokeReport(checks=(_script_failure(exc.message),), python=str(python))
    report = parse_report(result.stdout, result.returncode, result.stderr)
    return SmokeReport(checks=report.checks, python=str(python))


def _warm_table_imports() -> None:
    """Import what `render_table` needs (rich: ~30 ms idle, ~0.1 s loaded) in a thread while
    the script runs in its own process, where this process only waits: the table is printed
    right after the script ends, and the import no longer adds to the run (issue 27: smoke
    <= 1.1x a one-line import). A JSON or JUnit report never uses it; the import then costs
    that time on the other core, once."""

    def load() -> None:
        with contextlib.suppress(ImportError):
            import rich.console  # noqa: PLC0415 - warmed for render_table
            import rich.table  # noqa: PLC0415 - as above
            import rich.text  # noqa: PLC0415, F401 - as above

    threading.Thread(target=load, name="envgen-warm-rich", daemon=True).start()


def legacy_python(python: Path) -> bool:
    """True for the interpreter of a Python 2.7 / 3.5 environment (`<prefix>/bin/python` with a
    `<prefix>/lib/python2.7` or `python3.5`), which runs script27.py."""
    lib = python.parent.parent / "lib"
    return any((lib / f"python{v}").is_dir() for v in ("2.7", "3.5"))


def parse_report(stdout: str, returncode: int, stderr: str = "") -> SmokeReport:
    """Turn the script's output into a report; anything unexpected becomes a failing check."""
    checks: list[SmokeCheck] = []
    problem: str | None = None
    try:
        entries = _load_json_list(stdout)
        checks = [_parse_check(e) for e in entries]
    except ValueError as exc:
        problem = str(exc)
    if returncode != 0:
        running = _RUNNING.findall(stderr)
        during = f" while running {running[-1]}" if running and not checks else ""
        problem = f"the interpreter {_describe_exit(returncode)}{during}"
        frames = _fault_frames(stderr)
        if frames:
            problem += f"; {frames}"
    if problem is not None:
        tail = _tail(stderr)
        checks.append(_script_failure(problem + (f"\n{tail}" if tail else "")))
    return SmokeReport(checks=tuple(checks))


def _load_json_list(stdout: str) -> list[object]:
    text = stdout.strip()
    if not text:
        msg = "the smoke script printed nothing on stdout"
        raise ValueError(msg)
    # The report is the last line; anything before it is noise written before the redirect.
    for candidate in (text, text.splitlines()[-1]):
        try:
            data = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        if isinstance(data, list):
            return data
    snippet = text if len(text) <= 200 else text[:200] + "..."
    msg = f"the smoke script printed something that is not a report: {snippet!r}"
    raise ValueError(msg)


def _parse_check(entry: object) -> SmokeCheck:
    if not isinstance(entry, dict):
        msg = f"malformed check entry: {entry!r}"
        raise ValueError(msg)
    tier, status = entry.get("tier"), entry.get("status")
    name, detail, seconds = entry.get("name"), entry.get("detail", ""), entry.get("seconds", 0.0)
    if (
        tier not in TIERS
        or status not in STATUSES
        or not isinstance(name, str)
        or not isinstance(detail, str)
        or not isinstance(seconds, int | float)
    ):
        msg = f"malformed check entry: {entry!r}"
        raise ValueError(msg)
    return SmokeCheck(tier=tier, name=name, status=status, detail=detail, seconds=float(seconds))


_FATAL: Final = re.compile(r"^Fatal Python error: (.+)$", re.MULTILINE)
_FRAME: Final = re.compile(r'^\s+File "([^"]+)", line (\d+) in (\S+)$')
_MAX_FRAMES: Final = 6


def _fault_frames(stderr: str) -> str:
    """What faulthandler printed for a fatal error: the error and the innermost Python frames of
    the thread that crashed (most recent first), or "" when it printed no frame.

    >>> _fault_frames('Fatal Python error: Segmentation fault\\n\\nCurrent thread 0x1 (most '
    ...     'recent call first):\\n  File "/x/a.py", line 3 in f\\n'
    ...     '  File "<string>", line 5 in <module>\\n')
    'Fatal Python error: Segmentation fault; in f (/x/a.py:3) < <module> (<string>:5)'
    """
    fatal = _FATAL.search(stderr)
    if fatal is None:
        return ""
    frames: list[str] = []
    for line in stderr[fatal.end() :].splitlines():
        found = _FRAME.match(line)
        if found:
            frames.append(f"{found[3]} ({found[1]}:{found[2]})")
        elif frames:
            break  # the crashing thread's stack ends; other threads follow
    if not frames:
        return ""  # the error line alone is in the stderr tail already
    shown = " < ".join(frames[:_MAX_FRAMES]) + (" < ..." if len(frames) > _MAX_FRAMES else "")
    return _proc.redact(f"Fatal Python error: {fatal[1]}; in {shown}")


def _describe_exit(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with status {returncode}"


def _tail(text: str, lines: int = 15) -> str:
    kept = [ln for ln in text.strip().splitlines() if not _RUNNING.match(ln)]
    # Tool output reaches a report, a --json file and a JUnit file: no known secret may.
    return _proc.redact("\n".join(kept[-lines:]))


def _script_failure(detail: str) -> SmokeCheck:
    return SmokeCheck(tier="cpu", name=SCRIPT_CHECK, status="fail", detail=detail)


def raise_for_failures(report: SmokeReport, variant_id: str) -> None:
    """Raise SmokeTestError naming every failing check; return quietly when none failed."""
    failed = report.failed
    if not failed:
        return
    lines = [f"{variant_id}: {len(failed)} of {len(report.checks)} smoke checks failed"]
    lines += [f"  - {c.label}: {c.detail.splitlines()[0] if c.detail else ''}" for c in failed]
    raise SmokeTestError("\n".join(lines))


# --- rendering -------------------------------------------------------------------------------
_STATUS_MARK: Final[dict[Status, str]] = {"pass": "PASS", "fail": "FAIL", "skip": "skip"}


def render_table(report: SmokeReport) -> str:
    """A fixed-width (100 columns), colourless table, then a one-line summary."""
    # Function-local: rich takes ~0.1 s to import, and only printing a table needs it.
    from rich.console import Console  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415
    from rich.text import Text  # noqa: PLC0415

    table = Table(show_lines=False, box=None, pad_edge=False)
    for column in ("tier", "check", "status", "seconds", "detail"):
        table.add_column(column, justify="right" if column == "seconds" else "left")
    for c in report.checks:
        # Text(), not str: a detail such as "[bold]" must not be read as rich markup.
        cells = (c.tier, c.name, _STATUS_MARK[c.status], f"{c.seconds:.2f}", c.detail)
        table.add_row(*(Text(cell) for cell in cells))
    console = Console(
        record=True,
        width=100,
        file=io.StringIO(),
        color_system=None,
        force_terminal=False,
        legacy_windows=False,
        soft_wrap=False,
    )
    console.print(table)
    console.print(_summary(report))
    lines = console.export_text(clear=True, styles=False).splitlines()
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _summary(report: SmokeReport) -> str:
    return (
        f"{len(report.passed)} passed, {len(report.failed)} failed, {len(report.skipped)} skipped"
    )


def _json_data(report: SmokeReport) -> dict[str, object]:
    return {
        "ok": report.ok,
        "passed": len(report.passed),
        "failed": len(report.failed),
        "skipped": len(report.skipped),
        "checks": [
            {
                "tier": c.tier,
                "name": c.name,
                "status": c.status,
                "detail": c.detail,
                "seconds": c.seconds,
            }
            for c in report.checks
        ],
    }


def render_json(report: SmokeReport) -> str:
    """The report as JSON: a summary plus every check (keys sorted, one final newline)."""
    return json.dumps(_json_data(report), indent=2, sort_keys=True) + "\n"


def report_data(report: SmokeReport) -> dict[str, object]:
    """One report as the JSON outputs carry it: counts, then every check (tier, name, status...)."""
    return _json_data(report)


def render_json_many(reports: Sequence[tuple[str, SmokeReport]]) -> str:
    """Several variants' reports as one JSON list of `{"variant": id, "checks": <render_json>}`."""
    data = [{"variant": variant, "checks": _json_data(r)} for variant, r in reports]
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def render_junit(report: SmokeReport, *, name: str = "envgen-smoke") -> str:
    """JUnit XML: one <testsuite> per tier (named `<name>.<tier>`), one <testcase> per check."""
    return _junit_document(name, [(name, report)])


def render_junit_many(
    reports: Sequence[tuple[str, SmokeReport]], *, prefix: str = "envgen-smoke"
) -> str:
    """One JUnit document for several variants: each variant's suites are named
    `<prefix>-<variant>.<tier>`, all under one <testsuites> root named `prefix`."""
    return _junit_document(prefix, [(f"{prefix}-{variant}", r) for variant, r in reports])


def _junit_document(root_name: str, reports: Sequence[tuple[str, SmokeReport]]) -> str:
    checks = [c for _, r in reports for c in r.checks]
    root = ET.Element("testsuites", _totals(root_name, checks))
    for name, report in reports:
        _add_suites(root, name, report)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _totals(name: str, checks: Sequence[SmokeCheck]) -> dict[str, str]:
    return {
        "name": name,
        "tests": str(len(checks)),
        "failures": str(sum(c.status == "fail" for c in checks)),
        "skipped": str(sum(c.status == "skip" for c in checks)),
        "errors": "0",
        "time": f"{sum(c.seconds for c in checks):.3f}",
    }


def _add_suites(root: ET.Element, name: str, report: SmokeReport) -> None:
    for tier in TIERS:
        checks = [c for c in report.checks if c.tier == tier]
        if not checks:
            continue
        suite = ET.SubElement(root, "testsuite", _totals(f"{name}.{tier}", checks))
        for c in checks:
            case = ET.SubElement(
                suite,
                "testcase",
                {"classname": f"{name}.{tier}", "name": c.name, "time": f"{c.seconds:.3f}"},
            )
            if c.status == "fail":
                ET.SubElement(case, "failure", {"message": c.detail}).text = c.detail
            elif c.status == "skip":
                ET.SubElement(case, "skipped", {"message": c.detail})
            elif c.detail:
                ET.SubElement(case, "system-out").text = c.detail
