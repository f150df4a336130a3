"""Unit tests of envgen.smoke.report (parsing, renderers, errors) and of _smoke_check's logic in-process.

No processes: run_smoke is tested with _proc.run replaced, and the checks with fake torch modules.
"""

from __future__ import annotations

import ast
import functools
import json
import sys
import types
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from envgen.errors import EnvgenError, SmokeTestError, ToolNotFoundError
from envgen.infra import proc as _proc
from envgen.infra.resources import SMOKE_SCRIPT
from envgen.smoke import report as smoke
from envgen.smoke import script as sc
from envgen.smoke.report import (
    SmokeCheck,
    SmokeExpectation,
    SmokeReport,
    parse_report,
    raise_for_failures,
    render_json,
    render_json_many,
    render_junit,
    render_junit_many,
    render_table,
)

CPU_SLIPPED_IN = (
    "torch is a CPU-only build (torch.version.cuda is None) but the variant is cu118: "
    "a +cpu wheel slipped in"
)
NMS_MISMATCH = "torchvision does not match torch (operator torchvision::nms does not exist)"

REPORT = SmokeReport(
    checks=(
        SmokeCheck(tier="cpu", name="import:torch", status="pass", detail="torch 2.1.0", seconds=2),
        SmokeCheck(tier="cpu", name="build", status="fail", detail=CPU_SLIPPED_IN, seconds=0.001),
        SmokeCheck(tier="cpu", name="torchvision:nms", status="fail", detail=NMS_MISMATCH),
        SmokeCheck(
            tier="cpu", name="import:torchaudio", status="skip", detail="not in this variant"
        ),
        SmokeCheck(tier="gpu", name="available", status="skip", detail="CPU build", seconds=0.5),
    )
)


# --- SmokeExpectation ------------------------------------------------------------------------
def test_expectation_json_is_sorted_and_complete() -> None:
    expect = SmokeExpectation(
        kind="cuda",
        version="11.8",
        distributions={"torchvision": "0.16.0+cu118", "torch": "2.1.0+cu118"},
        companions=frozenset({"torchvision"}),
    )
    assert expect.accelerator == "cu118"
    assert expect.to_json() == (
        '{"accelerator": "cu118", "companions": ["torchvision"], "distributions": '
        '{"torch": "2.1.0+cu118", "torchvision": "0.16.0+cu118"}, "kind": "cuda", '
        '"require_gpu": false, "version": "11.8"}'
    )
    assert SmokeExpectation(kind="rocm", version="6.1").accelerator == "rocm6.1"
    assert SmokeExpectation(kind="cpu").accelerator == "cpu"


# --- parse_report ----------------------------------------------------------------------------
def _entry(**changes: object) -> dict[str, object]:
    entry: dict[str, object] = {
        "tier": "cpu",
        "name": "tensor-math",
        "status": "pass",
        "detail": "ok",
        "seconds": 0.25,
    }
    entry.update(changes)
    return entry


def test_parse_report_reads_the_last_line() -> None:
    stdout = "noise printed before the redirect\n" + json.dumps([_entry()]) + "\n"
    assert parse_report(stdout, 0) == SmokeReport(
        checks=(
            SmokeCheck(tier="cpu", name="tensor-math", status="pass", detail="ok", seconds=0.25),
        )
    )


def _script_failure(detail: str) -> SmokeCheck:
    return SmokeCheck(tier="cpu", name="smoke-script", status="fail", detail=detail)


@pytest.mark.parametrize(
    ("stdout", "returncode", "stderr", "expected"),
    [
        pytest.param(
            "Hello from a sitecustomize\n",
            0,
            "",
            [
                _script_failure(
                    "the smoke script printed something that is not a report: "
                    "'Hello from a sitecustomize'"
                )
            ],
            id="garbage",
        ),
        pytest.param(
            "",
            0,
            "",
            [_script_failure("the smoke script printed nothing on stdout")],
            id="empty",
        ),
        pytest.param(
            "",
            -11,
            (
                "envgen-smoke: running cpu/import:torch\n"
                "envgen-smoke: running cpu/import:torchvision\n"
                "Fatal Python error: Segmentation fault\n"
            ),
            [
                _script_failure(
                    "the interpreter was killed by SIGSEGV while running cpu/import:torchvision\n"
                    "Fatal Python error: Segmentation fault"
                )
            ],
            id="crash-names-the-running-check",
        ),
        pytest.param(
            json.dumps([_entry()]),
            3,
            "Traceback ...\nSystemExit: 3\n",
            [
                SmokeCheck(
                    tier="cpu", name="tensor-math", status="pass", detail="ok", seconds=0.25
                ),
                _script_failure(
                    "the interpreter exited with status 3\nTraceback ...\nSystemExit: 3"
                ),
            ],
            id="bad-exit-keeps-the-checks",
        ),
        pytest.param(
            "",
            -999,
            "",
            [_script_failure("the interpreter was killed by signal 999")],
            id="unknown-signal",
        ),
    ],
)
def test_parse_report_problems_become_a_failing_check(
    stdout: str, returncode: int, stderr: str, expected: list[SmokeCheck]
) -> None:
    assert parse_report(stdout, returncode, stderr).checks == tuple(expected)


@pytest.mark.parametrize(
    "entry",
    [
        _entry(status="ok"),
        _entry(tier="tpu"),
        _entry(name=3),
        _entry(seconds="fast"),
        ["cpu", "x"],
    ],
)
def test_parse_report_malformed_entry(entry: object) -> None:
    report = parse_report(json.dumps([entry]), 0)
    assert report.checks == (
        SmokeCheck(
            tier="cpu",
            name="smoke-script",
            status="fail",
            detail=f"malformed check entry: {entry!r}",
        ),
    )


# --- run_smoke (with _proc.run replaced) -----------------------------------------------------
def test_run_smoke_runs_the_script_isolated(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, object] = {}

    def fake_run(args: list[str], **kwargs: object) -> _proc.Completed:
        seen["args"], seen["kwargs"] = args, kwargs
        return _proc.Completed(
            args=tuple(args),
            returncode=0,
            stdout=json.dumps([_entry()]) + "\n",
            stderr="",
            seconds=1.0,
        )

    monkeypatch.setattr(_proc, "run", fake_run)
    monkeypatch.setattr(_proc, "clean_env", lambda: {"PATH": "/usr/bin"})
    expect = SmokeExpectation(kind="cpu", distributions={"torch": "2.13.0+cpu"})
    report = smoke.run_smoke(Path("/envs/cpu/bin/python"), expect, timeout=30)
    assert seen == {
        "args": [
            "/envs/cpu/bin/python",
            "-I",
            "-X",
            "faulthandler",
            str(SMOKE_SCRIPT),
            "--expect",
            expect.to_json(),
        ],
        "kwargs": {
            "what": "smoke test",
            "env": {"PATH": "/usr/bin"},
            "timeout": 30,
            "check": False,
            "on_stderr": None,  # nobody shows progress here (envgen.infra.progress)
        },
    }
    assert report == SmokeReport(
        checks=(
            SmokeCheck(tier="cpu", name="tensor-math", status="pass", detail="ok", seconds=0.25),
        ),
        python="/envs/cpu/bin/python",
    )


@pytest.mark.parametrize(
    "error",
    [
        EnvgenError("smoke test timed out after 30 s\n  command: /envs/cpu/bin/python -I x"),
        ToolNotFoundError("/envs/cpu/bin/python is not installed or not on PATH (needed for x)"),
    ],
)
def test_run_smoke_turns_run_errors_into_a_failing_check(
    monkeypatch: pytest.MonkeyPatch, error: EnvgenError
) -> None:
    def fake_run(*_args: object, **_kwargs: object) -> _proc.Completed:
        raise error

    monkeypatch.setattr(_proc, "run", fake_run)
    report = smoke.run_smoke(Path("/envs/cpu/bin/python"), SmokeExpectation(kind="cpu"))
    assert report.checks == (
        SmokeCheck(tier="cpu", name="smoke-script", status="fail", detail=error.message),
    )


# --- renderers -------------------------------------------------------------------------------
def test_render_table() -> None:
    assert render_table(REPORT) == (
        "tier  check              status  seconds  detail\n"
        "cpu   import:torch       PASS       2.00  torch 2.1.0\n"
        "cpu   build              FAIL       0.00  torch is a CPU-only build "
        "(torch.version.cuda is None) but\n"
        "                                          the variant is cu118: a +cpu wheel slipped in\n"
        "cpu   torchvision:nms    FAIL       0.00  torchvision does not match torch (operator\n"
        "                                          torchvision::nms does not exist)\n"
        "cpu   import:torchaudio  skip       0.00  not in this variant\n"
        "gpu   available          skip       0.50  CPU build\n"
        "1 passed, 2 failed, 2 skipped\n"
    )


def test_render_table_does_not_read_markup() -> None:
    check = SmokeCheck(tier="gpu", name="m", status="fail", detail="[bold]kept[/] [0, 2]")
    assert render_table(SmokeReport(checks=(check,))) == (
        "tier  check  status  seconds  detail\n"
        "gpu   m      FAIL       0.00  [bold]kept[/] [0, 2]\n"
        "0 passed, 1 failed, 0 skipped\n"
    )


def test_render_json() -> None:
    data = json.loads(render_json(REPORT))
    assert data == {
        "ok": False,
        "passed": 1,
        "failed": 2,
        "skipped": 2,
        "checks": [
            {
                "tier": "cpu",
                "name": "import:torch",
                "status": "pass",
                "detail": "torch 2.1.0",
                "seconds": 2.0,
            },
            {
                "tier": "cpu",
                "name": "build",
                "status": "fail",
                "detail": CPU_SLIPPED_IN,
                "seconds": 0.001,
            },
            {
                "tier": "cpu",
                "name": "torchvision:nms",
                "status": "fail",
                "detail": NMS_MISMATCH,
                "seconds": 0.0,
            },
            {
                "tier": "cpu",
                "name": "import:torchaudio",
                "status": "skip",
                "detail": "not in this variant",
                "seconds": 0.0,
            },
            {
                "tier": "gpu",
                "name": "available",
                "status": "skip",
                "detail": "CPU build",
                "seconds": 0.5,
            },
        ],
    }
    assert render_json(REPORT).endswith("}\n")


def _element(e: ET.Element) -> tuple[str, dict[str, str], str | None, list[object]]:
    text = e.text.strip() if e.text and e.text.strip() else None
    return (e.tag, dict(e.attrib), text, [_element(c) for c in e])


def test_render_junit_parses_back() -> None:
    xml = render_junit(REPORT, name="cu118")
    assert xml.startswith("<?xml version='1.0' encoding='utf-8'?>\n<testsuites ")
    root = ET.fromstring(xml)  # noqa: S314 - our own output
    case = "testcase"
    assert _element(root) == (
        "testsuites",
        {
            "name": "cu118",
            "tests": "5",
            "failures": "2",
            "skipped": "2",
            "errors": "0",
            "time": "2.501",
        },
        None,
        [
            (
                "testsuite",
                {
                    "name": "cu118.cpu",
                    "tests": "4",
                    "failures": "2",
                    "skipped": "1",
                    "errors": "0",
                    "time": "2.001",
                },
                None,
                [
                    (
                        case,
                        {"classname": "cu118.cpu", "name": "import:torch", "time": "2.000"},
                        None,
                        [("system-out", {}, "torch 2.1.0", [])],
                    ),
                    (
                        case,
                        {"classname": "cu118.cpu", "name": "build", "time": "0.001"},
                        None,
                        [("failure", {"message": CPU_SLIPPED_IN}, CPU_SLIPPED_IN, [])],
                    ),
                    (
                        case,
                        {"classname": "cu118.cpu", "name": "torchvision:nms", "time": "0.000"},
                        None,
                        [("failure", {"message": NMS_MISMATCH}, NMS_MISMATCH, [])],
                    ),
                    (
                        case,
                        {"classname": "cu118.cpu", "name": "import:torchaudio", "time": "0.000"},
                        None,
                        [("skipped", {"message": "not in this variant"}, None, [])],
                    ),
                ],
            ),
            (
                "testsuite",
                {
                    "name": "cu118.gpu",
                    "tests": "1",
                    "failures": "0",
                    "skipped": "1",
                    "errors": "0",
                    "time": "0.500",
                },
                None,
                [
                    (
                        case,
                        {"classname": "cu118.gpu", "name": "available", "time": "0.500"},
                        None,
                        [("skipped", {"message": "CPU build"}, None, [])],
                    )
                ],
            ),
        ],
    )


def test_render_junit_escapes_markup() -> None:
    detail = 'expected <1, 10> & got "x"'
    report = SmokeReport(checks=(SmokeCheck(tier="gpu", name="m", status="fail", detail=detail),))
    root = ET.fromstring(render_junit(report))  # noqa: S314 - our own output
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None
    assert (failure.get("message"), failure.text) == (detail, detail)


def test_render_junit_many_holds_every_variants_suites() -> None:
    ok = SmokeReport(checks=REPORT.passed)
    root = ET.fromstring(render_junit_many([("cu118", REPORT), ("cpu", ok)]))  # noqa: S314
    assert (root.tag, root.get("name"), root.get("tests"), root.get("failures")) == (
        "testsuites",
        "envgen-smoke",
        "6",
        "2",
    )
    assert [s.get("name") for s in root] == [
        "envgen-smoke-cu118.cpu",
        "envgen-smoke-cu118.gpu",
        "envgen-smoke-cpu.cpu",
    ]
    # Each variant's suites are exactly what render_junit writes for it alone.
    alone = ET.fromstring(render_junit(REPORT, name="envgen-smoke-cu118"))  # noqa: S314
    assert [_element(s) for s in root][:2] == [_element(s) for s in alone]


def test_render_junit_many_of_one_variant_matches_render_junit() -> None:
    assert render_junit_many([("cu118", REPORT)], prefix="x") == render_junit(
        REPORT, name="x-cu118"
    ).replace('<testsuites name="x-cu118"', '<testsuites name="x"', 1)


def test_render_json_many() -> None:
    data = json.loads(render_json_many([("cu118", REPORT), ("cpu", SmokeReport(checks=()))]))
    assert data == [
        {"variant": "cu118", "checks": json.loads(render_json(REPORT))},
        {
            "variant": "cpu",
            "checks": {"ok": True, "passed": 0, "failed": 0, "skipped": 0, "checks": []},
        },
    ]


# --- raise_for_failures ----------------------------------------------------------------------
def test_raise_for_failures_names_each_failing_check() -> None:
    with pytest.raises(SmokeTestError) as info:
        raise_for_failures(REPORT, "cu118")
    assert str(info.value) == (
        "cu118: 2 of 5 smoke checks failed\n"
        f"  - cpu/build: {CPU_SLIPPED_IN}\n"
        f"  - cpu/torchvision:nms: {NMS_MISMATCH}"
    )
    assert info.value.exit_code == 8


def test_raise_for_failures_quiet_when_ok() -> None:
    ok = SmokeReport(checks=REPORT.passed + REPORT.skipped)
    raise_for_failures(ok, "cpu")
    assert ok.ok


# --- _smoke_check, in-process with fake modules ----------------------------------------------
def fake_torch(
    *, cuda: str | None = None, hip: str | None = None, available: bool = False
) -> types.ModuleType:
    torch = types.ModuleType("torch")
    torch.__dict__.update(
        version=types.SimpleNamespace(cuda=cuda, hip=hip),
        cuda=types.SimpleNamespace(
            is_available=lambda: available, get_arch_list=lambda: ["sm_80", "sm_90"]
        ),
    )
    return torch


def context(torch: types.ModuleType | None, **expect: object) -> sc.Context:
    ctx = sc.Context(expect)
    if torch is not None:
        ctx.modules["torch"] = torch
    return ctx


def outcome(ctx: sc.Context, tier: str, check: object) -> tuple[object, object]:
    entry = sc.run_check(ctx, tier, "x", check)  # type: ignore[arg-type]
    return entry["status"], entry["detail"]


@pytest.mark.parametrize(
    ("build", "expect", "expected"),
    [
        ({}, {"kind": "cpu"}, ("pass", "CPU-only build (torch.version.cuda is None)")),
        ({}, {"kind": "cuda", "version": "11.8"}, ("fail", CPU_SLIPPED_IN)),
        ({"cuda": "11.8"}, {"kind": "cuda", "version": "11.8"}, ("pass", "CUDA 11.8 build")),
        (
            {"cuda": "12.1"},
            {"kind": "cuda", "version": "11.8"},
            ("fail", "torch is built for CUDA 12.1 (torch.version.cuda) but the variant is cu118"),
        ),
        (
            {"hip": "6.1.40091-a8dbc0c19"},
            {"kind": "cuda", "version": "11.8"},
            (
                "fail",
                (
                    "torch is a ROCm 6.1.40091-a8dbc0c19 build (torch.version.hip) but the "
                    "variant is cu118"
                ),
            ),
        ),
        (
            {"hip": "6.1.40091-a8dbc0c19"},
            {"kind": "rocm", "version": "6.1"},
            ("pass", "ROCm 6.1.40091-a8dbc0c19 build"),
        ),
        (
            {"cuda": "12.1"},
            {"kind": "rocm", "version": "6.1"},
            (
                "fail",
                "torch is a CUDA 12.1 build (torch.version.hip is None) but the variant is rocm6.1",
            ),
        ),
        (
            {"cuda": "13.0"},
            {"kind": "cpu"},
            (
                "fail",
                "torch is a CUDA 13.0 build but the variant is cpu: a GPU wheel was installed",
            ),
        ),
    ],
)
def test_check_build(
    build: dict[str, Any], expect: dict[str, object], expected: tuple[str, str]
) -> None:
    assert outcome(context(fake_torch(**build), **expect), "cpu", sc.check_build) == expected


@pytest.mark.parametrize(
    ("build", "expect", "expected"),
    [
        ({}, {"kind": "cpu"}, ("skip", "CPU build")),
        (
            {"cuda": "11.8"},
            {"kind": "cuda", "version": "11.8"},
            ("skip", "no CUDA device visible (torch.cuda.is_available() is False)"),
        ),
        (
            {"cuda": "11.8"},
            {"kind": "cuda", "version": "11.8", "require_gpu": True},
            ("fail", "no CUDA device visible (torch.cuda.is_available() is False)"),
        ),
        ({"cuda": "11.8", "available": True}, {"kind": "cuda"}, ("pass", "2 device(s)")),
    ],
)
def test_gpu_tier_gate(
    build: dict[str, Any], expect: dict[str, object], expected: tuple[str, str]
) -> None:
    torch = fake_torch(**build)
    torch.cuda.device_count = lambda: 2
    assert outcome(context(torch, **expect), "gpu", sc.check_gpu_available) == expected


def test_nms_mismatch_is_reported_as_such() -> None:
    def nms(*_args: object) -> object:
        msg = "operator torchvision::nms does not exist"
        raise RuntimeError(msg)

    torch = fake_torch()
    torch.__dict__["tensor"] = lambda data: data
    ctx = context(torch, kind="cpu", companions=["torchvision"])
    ctx.modules["torchvision"] = types.SimpleNamespace(ops=types.SimpleNamespace(nms=nms))  # type: ignore[assignment]
    assert outcome(ctx, "cpu", sc.check_nms) == ("fail", NMS_MISMATCH)


def test_companion_checks_skip_when_not_in_variant() -> None:
    ctx = context(fake_torch(), kind="cpu", companions=["torchvision"])
    assert outcome(ctx, "cpu", sc.check_audio_resample) == ("skip", "not in this variant")
    assert outcome(ctx, "cpu", sc.check_nms) == (
        "skip",
        "torchvision did not import (see cpu/import:torchvision)",
    )


def test_check_distribution(monkeypatch: pytest.MonkeyPatch) -> None:
    installed = {"torch": "2.1.0+cpu"}
    monkeypatch.setattr(sc, "_distribution_version", installed.get)
    ctx = context(
        None, kind="cuda", distributions={"torch": "2.1.0+cu118", "torchvision": "0.16.0"}
    )
    check = functools.partial(sc.check_distribution, name="torch")
    assert outcome(ctx, "cpu", check) == (
        "fail",
        "torch 2.1.0+cpu is installed but the lock says 2.1.0+cu118",
    )
    check = functools.partial(sc.check_distribution, name="torchvision")
    assert outcome(ctx, "cpu", check) == (
        "fail",
        "torchvision is not installed (the lock says 0.16.0)",
    )


def test_each_check_is_isolated_when_torch_does_not_import(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # makes `import torch` raise ImportError
    results = sc.run_checks({"kind": "cuda", "version": "11.8", "companions": ["torchvision"]})
    assert [(r["tier"], r["name"], r["status"], r["detail"]) for r in results] == [
        (
            "cpu",
            "import:torch",
            "fail",
            "ModuleNotFoundError: import of torch halted; None in sys.modules",
        ),
        ("cpu", "import:torchvision", "skip", "torch did not import (see cpu/import:torch)"),
        ("cpu", "import:torchaudio", "skip", "not in this variant"),
        *[
            ("cpu", name, "skip", "torch did not import (see cpu/import:torch)")
            for name in (
                "build",
                "arch-list",
                "cuda-libraries",
                "tensor-math",
                "autograd",
                "convnet-forward",
                "torchvision:nms",
                "torchvision:resnet18",
                "torchvision:image-decode",
            )
        ],
        ("cpu", "torchaudio:resample", "skip", "torch did not import (see cpu/import:torch)"),
        ("cpu", "torchaudio:save-load", "skip", "torch did not import (see cpu/import:torch)"),
        *[
            ("gpu", name, "skip", "torch did not import (see cpu/import:torch)")
            for name in (
                "available",
                "device",
                "arch-supported",
                "matmul",
                "cudnn-conv",
                "autocast",
                "pinned-copy",
                "memory",
            )
        ],
    ]


def test_main_prints_only_the_report(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    assert sc.main(["--expect", '{"kind": "cpu"}']) == 0
    out, err = capfd.readouterr()
    report = parse_report(out, 0, err)
    assert (len(report.checks), len(report.failed)) == (22, 1)
    assert err.splitlines()[0] == "envgen-smoke: running cpu/import:torch"


def test_smoke_script_parses_as_python_3_7() -> None:
    # It runs inside old environments: no walrus, positional-only parameters, match, etc.
    ast.parse(SMOKE_SCRIPT.read_text(encoding="utf-8"), feature_version=(3, 7))


@pytest.mark.parametrize(
    ("found", "expected", "same"),
    [
        ("11.8", "11.8", True),
        ("11.8.89", "11.8", True),
        ("6.1.40091-a8dbc0c19", "6.1", True),
        ("12.1", "11.8", False),
        ("11", "11.8", False),
    ],
)
def test_version_prefix_equal(found: str, expected: str, same: bool) -> None:
    assert sc._version_prefix_equal(found, expected) is same
