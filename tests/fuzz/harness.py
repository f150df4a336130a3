"""The fuzzing harness's shared parts: budgets, bounds, canaries and the hostile vocabulary.

Each property runs twice: a short, derandomized budget in `make test` (no example database, so
CI is deterministic) and a long one under the `fuzzlong` marker (`make fuzz`; set
FUZZ_EXAMPLES to change it, FUZZ_SEED to vary it). Every example runs under `bounded()`: an
address-space limit a little above what the process uses (a MemoryError is a finding) and a
wall-clock alarm (a hang is a finding). The secret canaries (an environment variable, index
credentials in ENVGEN_*, a file outside the project) must never appear in any output or file.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Final

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

SECRET_ENV: Final = "FUZZ_SECRET_TOKEN"  # noqa: S105 - a variable name, not a secret
CANARY_ENV: Final = "CANARY-ENV-5d1e88c0"  # the value of SECRET_ENV
CANARY_INDEX: Final = "CANARY-INDEX-0b7f31aa"  # a password in ENVGEN_*_INDEX URLs
CANARY_FILE: Final = "CANARY-FILE-93c4e6d2"  # in a file outside the project
CANARIES: Final = (CANARY_ENV, CANARY_INDEX, CANARY_FILE)

EXAMPLE_SECONDS: Final = 20.0  # per example, generous for a 2-core machine shared by 8
MEMORY_HEADROOM: Final = 2 << 30  # bytes of address space an example may add

_CHECKS: Final = [
    HealthCheck.too_slow,
    HealthCheck.function_scoped_fixture,
    HealthCheck.data_too_large,
    HealthCheck.large_base_example,
    HealthCheck.filter_too_much,
]


def short(examples: int) -> settings:
    """The `make test` budget: `examples` derandomized examples, no database, no deadline (the
    alarm in `bounded` is the time bound; hypothesis's deadline would flake on a busy CI)."""
    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=_CHECKS,
        print_blob=True,
    )


def long() -> settings:
    """The `make fuzz` budget: FUZZ_EXAMPLES (default 2000) random examples per property."""
    return settings(
        max_examples=int(os.environ.get("FUZZ_EXAMPLES", "2000")),
        derandomize=False,
        database=None,
        deadline=None,
        suppress_health_check=_CHECKS,
        print_blob=True,
    )


class ExampleTimeoutError(BaseException):
    """An example ran past EXAMPLE_SECONDS (BaseException: no `except Exception` swallows it)."""


def _address_space() -> int:
    with Path("/proc/self/statm").open() as fh:
        return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


@contextlib.contextmanager
def bounded(seconds: float = EXAMPLE_SECONDS) -> Iterator[None]:
    """Run the body under an address-space limit and a wall-clock alarm; restore both after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = _address_space() + MEMORY_HEADROOM
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)

    def alarm(_signum: int, _frame: FrameType | None) -> None:
        msg = f"the example ran past {seconds} s"
        raise ExampleTimeoutError(msg)

    previous = signal.signal(signal.SIGALRM, alarm)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    signal.setitimer(signal.ITIMER_REAL, seconds)
    start = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    assert time.monotonic() - start < seconds


def assert_no_canary(*texts: str, files: Path | None = None) -> None:
    """No canary in `texts`, nor in any regular file under `files`."""
    for text in texts:
        for canary in CANARIES:
            assert canary not in text, (canary, text[:2000])
    if files is not None:
        for path in files.rglob("*"):
            if path.is_file() and not path.is_symlink():
                data = path.read_bytes()
                for canary in CANARIES:
                    assert canary.encode() not in data, (canary, path)


def plant_secrets(root: Path) -> Path:
    """`root/outside/secret.txt` (holding CANARY_FILE) beside the project; returns the file."""
    outside = root / "outside"
    outside.mkdir(exist_ok=True)
    secret = outside / "secret.txt"
    secret.write_text(f"{CANARY_FILE}==1.0\n--index-url http://x:{CANARY_FILE}@127.0.0.1:9/\n")
    return secret


def secret_environ(index: str = "http://127.0.0.1:9/simple") -> dict[str, str]:
    """The variables to set: an unrelated secret and a credential-bearing ENVGEN_PYPI_INDEX."""
    with_auth = index.replace("://", f"://fuzz:{CANARY_INDEX}@", 1)
    return {SECRET_ENV: CANARY_ENV, "ENVGEN_PYPI_INDEX": with_auth}


# --- the vocabulary: what an attacker who read the code would write ------------------------------
def attacks(secret: Path) -> list[str]:
    """Tokens that reach for a secret, a device, a resolver option or a parser's corner."""
    return [
        "-r ../outside/secret.txt",
        f"-r {secret}",
        f"-c {secret}",
        "-r /proc/self/environ",
        "-r /dev/zero",
        f"--requirement={secret}",
        f"file://{secret}",
        f"@ file://{secret}",
        "${" + SECRET_ENV + "}",
        "$" + SECRET_ENV,
        "%(" + SECRET_ENV + ")s",
        "--index-url http://127.0.0.1:9/simple",
        "--extra-index-url https://download.pytorch.org/whl/cu118",
        "-f https://download.pytorch.org/whl/torch_stable.html",
        "--trusted-host evil.example",
        "-e .",
        "-e git+https://github.com/x/y#egg=y",
        "git+https://github.com/x/y@v1",
        "https://download.pytorch.org/whl/cu118/torch-2.1.0%2Bcu118-cp311-cp311-linux_x86_64.whl",
        "--hash=sha256:" + "0" * 64,
        "\\",
        "\u2028",
        "\u2029",
        "\x85",
        "\x00",
        "\r",
        "\t",
        "\x0b",
        "\ufeff",
        "\u202e",
        " #",
        "&a [x, *a]",
        "*a",
        "!!python/object/apply:os.system ['id']",
        "{{",
        "(" * 40,
        "[" * 40,
        "'",
        '"',
        "x" * 300,
        "9" * 30,
        ",,",
    ]


PACKAGES: Final = [
    "torch",
    "torchvision",
    "torchaudio",
    "pytorch",
    "pytorch-cuda",
    "cudatoolkit",
    "cpuonly",
    "numpy",
    "python",
    "pip",
    "torch-scatter",
    "mmcv-full",
    "Torch_Vision",
]
VERSIONS: Final = [
    "2.1.0",
    "1.13.1+cu117",
    "0.4.1",
    "1.0",
    "2.1.0a0",
    "3.8",
    "11.8",
    "10.2",
    "99.99.99",
    "1..2",
    "*",
    "",
]
OPERATORS: Final = ["==", ">=", "<=", "~=", "!=", "===", "=", ">", "<", " ", "@", "", "==="]
MARKERS: Final = [
    "",
    "; python_version < '3.8'",
    '; sys_platform == "linux"',
    '; platform_machine == "x86_64\u2028"',
    "; extra == 'x'",
    "; (",
]


def requirement() -> st.SearchStrategy[str]:
    """A requirement-like string: package, operator, version, marker, sometimes extras."""
    return st.builds(
        lambda name, extras, op, ver, clause, marker: f"{name}{extras}{op}{ver}{clause}{marker}",
        st.sampled_from(PACKAGES),
        st.sampled_from(["", "[cuda]", "[", "[a,b]"]),
        st.sampled_from(OPERATORS),
        st.sampled_from(VERSIONS),
        st.sampled_from(["", ",<3", ",,<3", ",", ", !=2.0.1"]),
        st.sampled_from(MARKERS),
    )


def fragment(secret: Path) -> st.SearchStrategy[str]:
    """One piece of a line: a requirement, an attack token or free text."""
    return st.one_of(
        requirement(),
        st.sampled_from(attacks(secret)),
        st.text(max_size=12),
        st.sampled_from(["pip install", "conda install -c pytorch", "python -m pip install -U"]),
    )


def lines(secret: Path, *, max_lines: int = 12) -> st.SearchStrategy[list[str]]:
    """Lines of 1-4 fragments joined by a space."""
    line = st.lists(fragment(secret), min_size=1, max_size=4).map(" ".join)
    return st.lists(line, max_size=max_lines)
