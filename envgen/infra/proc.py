"""The only module that starts subprocesses.

Every command is an argument list (never a shell). Output is captured; on failure the error names
the command and the tail of stderr, with credentials in URLs masked. This module must not know
about specs, matrices or variants.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import string
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NoReturn
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from envgen.errors import EnvgenError, ToolNotFoundError, ToolTimeoutError

if TYPE_CHECKING:
    import subprocess  # noqa: TID251 - this module is the one place allowed to use it

log = logging.getLogger(__name__)

# The userinfo of a URL runs to the *last* `@` of its authority (a password may hold an `@`), and
# may be empty on either side of its `:` (`https://:token@host`).
_USERINFO: Final = re.compile(r"(?P<scheme>[a-zA-Z][a-zA-Z0-9+.-]*://)(?P<auth>[^/\s?#]*)@")
# What redact masks with it, found in linear time (see redact).
_SCHEME_CHARS: Final = frozenset(string.ascii_letters + string.digits + "+.-")
_AUTHORITY: Final = re.compile(r"://[^/\s?#]*@")


# Environment variables whose values are secrets: credentials a tool's message must never show
# (`UV_INDEX_<NAME>_PASSWORD`, CI tokens, AWS keys, ...). Matched on the upper-cased name.
_SECRET_NAME: Final = re.compile(
    r"(TOKEN|PASSWORD|PASSWD|SECRET|CREDENTIAL|PRIVATE|_KEY|APIKEY|_AUTH|^AUTH)"
)
# A value shorter than this is not masked as a substring (it would mask ordinary words); it is
# still masked where it is a URL's userinfo.
MIN_SECRET_CHARS: Final = 6
_REMEMBERED: set[str] = set()
_REMEMBER_LOCK = threading.Lock()


def remember_secret(value: str | None) -> None:
    """Mask `value` (a token envgen read: an index URL's password, ...) in everything redacted."""
    if value and len(value) >= MIN_SECRET_CHARS:
        with _REMEMBER_LOCK:
            _REMEMBERED.update({value, quote(value, safe="")})


def known_secrets(environ: Mapping[str, str] | None = None) -> list[str]:
    """Every secret envgen knows of, longest first: the values of credential-named variables,
    the userinfo of URLs in any variable (ENVGEN_*_INDEX, ...), and the remembered ones."""
    found = set(_REMEMBERED)
    for name, value in (os.environ if environ is None else environ).items():
        if not value:
            continue
        if _SECRET_NAME.search(name.upper()) and len(value) >= MIN_SECRET_CHARS:
            found.add(value)
        if "@" in value:
            for m in _USERINFO.finditer(value):
                # The password; a lone user is a token (`https://TOKEN@host`), a named one is not.
                user, colon, password = m["auth"].partition(":")
                secret = password if colon else user
                if len(secret) >= MIN_SECRET_CHARS:
                    found.update({secret, unquote(secret)})
    return sorted(found, key=len, reverse=True)


def redact(text: str) -> str:
    """Mask user:password in every URL of `text`, and every secret envgen knows of.

    The one redactor: every message that quotes a tool's output or a command line goes through
    it. Secrets are the values of credential-named environment variables (see known_secrets) and
    the tokens envgen read from index URLs (remember_secret).

    What `[a-zA-Z][a-zA-Z0-9+.-]*://([^/\\s?#]*)@` masks, in linear time: that pattern, tried
    from every letter of a long word, took 28 s on a 100 KB lock line (and `check` quotes
    committed lines). Here the search starts at each `://`, and the scheme is looked for
    backwards from it; neither span reaches past the previous or the next `://`.

    >>> redact("uv --index-url https://bob:s3cret@mirror.example/simple x")
    'uv --index-url https://***@mirror.example/simple x'
    >>> redact("https://:s3cret@m.example/a https://bob:p@ss@m.example/b")
    'https://***@m.example/a https://***@m.example/b'
    >>> redact("9git+https://t@h/ x://no-at/ ://u@h")
    '9git+https://***@h/ x://no-at/ ://u@h'
    """
    out: list[str] = []
    done = 0
    for match in _AUTHORITY.finditer(text):
        scheme = start = match.start()
        while scheme > done and text[scheme - 1] in _SCHEME_CHARS:
            scheme -= 1
        if any(c.isalpha() for c in text[scheme:start]):
            out += [text[done : start + 3], "***"]
            done = match.end() - 1
    out.append(text[done:])
    text = "".join(out)
    for secret in known_secrets():
        if secret in text:
            text = text.replace(secret, "***")
    return text


class RedactingFormatter(logging.Formatter):
    """A log formatter that passes every record (tool output at -vv included) through redact."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def split_credentials(url: str) -> tuple[str, str | None, str | None]:
    """Split `user:token@` out of a URL: (url without it, user, token).

    The token (or a lone user, which is a token in `https://TOKEN@host`) is remembered for
    redact.

    >>> split_credentials("https://bob:s3cret@mirror.example:8443/whl/cu118")
    ('https://mirror.example:8443/whl/cu118', 'bob', 's3cret')
    >>> split_credentials("https://pypi.org/simple")
    ('https://pypi.org/simple', None, None)
    >>> split_credentials("http://tok@[::1]:8080/simple")
    ('http://[::1]:8080/simple', 'tok', None)
    """
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url, None, None
    # The host as written (no lower-casing, IPv6 brackets and port kept, never parsed).
    bare = urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))
    user = unquote(parts.username) if parts.username is not None else None
    token = unquote(parts.password) if parts.password is not None else None
    remember_secret(token if token is not None else user)
    return bare, user, token


def strip_credentials(url: str) -> str:
    """The URL without user:password and without a trailing slash.

    >>> strip_credentials("https://bob:s3cret@mirror.example:8443/whl/")
    'https://mirror.example:8443/whl'
    """
    return split_credentials(url.rstrip("/"))[0]


@dataclass(frozen=True, slots=True, kw_only=True)
class Completed:
    """The result of a finished command."""

    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    seconds: float


class CommandError(EnvgenError):
    """A command exited non-zero (wrapped by stages into their own error types)."""

    def __init__(self, result: Completed, what: str) -> None:
        self.result = result
        tail = "\n".join(result.stderr.strip().splitlines()[-25:]) or "(no stderr)"
        cmd = redact(" ".join(result.args))
        super().__init__(
            f"{what} failed (exit {result.returncode})\n  command: {cmd}\n{_indent(redact(tail))}"
        )


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


def which(tool: str) -> str | None:
    """Find a tool on PATH, or beside the running interpreter (a venv's bin/)."""
    import shutil  # noqa: PLC0415 - ~2 ms (bz2, lzma); only when a tool is looked up

    found = shutil.which(tool)
    if found:
        return found
    beside = Path(sys.executable).parent / tool
    return str(beside) if beside.exists() else None


def require(tool: str, *, why: str) -> str:
    """Return the path of `tool` or raise ToolNotFoundError naming how to get it."""
    found = which(tool)
    if found is None:
        msg = f"{tool} is not installed or not on PATH; it is needed to {why}"
        raise ToolNotFoundError(
            msg, hint=f"install it (e.g. `pip install {tool}`) or add it to PATH"
        )
    return found


# --- children and signals -------------------------------------------------------------------------
# Each child runs in its own process group, so a signal envgen forwards reaches the whole tree a
# tool starts (uv's own helpers too), and envgen decides when a terminal's Ctrl-C stops them.
_GRACE_S: Final = 5.0
_POLL_S: Final = 0.2
# Linux: a child gets SIGKILL when envgen dies, even by SIGKILL (which no handler sees), so an
# orphaned uv never keeps writing into a temp tree the next run is cleaning up.
_PR_SET_PDEATHSIG: Final = 1
# libc's prctl, resolved by `run` before its first fork (ctypes costs ~2.5 ms to import, which
# commands that start no process need not pay).
_LIBC: Final[dict[str, Any]] = {}


def _resolve_prctl() -> None:
    if "prctl" not in _LIBC:
        import ctypes  # noqa: PLC0415 - ~2.5 ms; only before a child is started

        _LIBC["prctl"] = (
            ctypes.CDLL(None, use_errno=True).prctl if os.uname().sysname == "Linux" else None
        )


def _die_with_parent() -> None:
    """Runs in the child between fork and exec: nothing here may allocate or take a lock."""
    prctl = _LIBC["prctl"]
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


_children: set[subprocess.Popen[str]] = set()
_detached: list[subprocess.Popen[str]] = []
_children_lock = threading.Lock()
_stopping = threading.Event()


class Terminated(BaseException):
    """envgen got SIGTERM. Like KeyboardInterrupt it unwinds every `finally` (temp trees are
    removed, locks released) and is no EnvgenError: `cli.main` exits 143."""


def _signal_group(proc: subprocess.Popen[str], sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)


def stop_children(sig: int = signal.SIGTERM) -> None:
    """Send `sig` to every running child's process group; no new command starts after this."""
    _stopping.set()
    with _children_lock:
        running = list(_children)
    for proc in running:
        _signal_group(proc, sig)


def _end(proc: subprocess.Popen[str]) -> None:
    """Stop a child's process group: SIGTERM, then SIGKILL after a grace period."""
    import subprocess  # noqa: PLC0415, TID251 - ~4 ms; imported where a child exists (this module is the one place allowed)

    if proc.poll() is None:
        _signal_group(proc, signal.SIGTERM)
        try:
            proc.wait(_GRACE_S)
        except subprocess.TimeoutExpired:
            _signal_group(proc, signal.SIGKILL)
            proc.wait()
    _signal_group(proc, signal.SIGKILL)  # a grandchild that ignored SIGTERM


def _stopped() -> BaseException:
    return KeyboardInterrupt("envgen is stopping: a signal arrived")


# The main thread is inside Popen: a signal handler that raises there can land in the fork's
# Python-level at-fork callbacks (logging's lock release), where the exception is printed as
# "Exception ignored ... Traceback" and lost. The handler keeps it here instead, and `run` raises
# it as soon as Popen returns (ending the child it just started).
_main_forking: list[bool] = [False]
_deferred: list[BaseException] = []


def _raise_unless_forking(exc: BaseException) -> None:
    if _main_forking[0]:
        _deferred.append(exc)
        return
    raise exc


@contextlib.contextmanager
def _forking() -> Iterator[None]:
    main = threading.current_thread() is threading.main_thread()
    if main:
        _main_forking[0] = True
    try:
        yield
    finally:
        if main:
            _main_forking[0] = False


def _take_deferred() -> BaseException | None:
    return _deferred.pop(0) if _deferred else None


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """While inside: SIGINT and SIGTERM stop every child at once (their process groups get the
    signal), no new command starts, and the main thread gets KeyboardInterrupt / Terminated.

    Installed once, by the CLI's entry point; a no-op outside the main thread.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_sigint(signum: int, _frame: object) -> None:
        stop_children(signum)
        _raise_unless_forking(KeyboardInterrupt())

    def on_sigterm(signum: int, _frame: object) -> None:
        stop_children(signum)
        _raise_unless_forking(Terminated())

    previous = {
        signal.SIGINT: signal.signal(signal.SIGINT, on_sigint),
        signal.SIGTERM: signal.signal(signal.SIGTERM, on_sigterm),
    }
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        _stopping.clear()


def run(
    args: Sequence[str | os.PathLike[str]],
    *,
    what: str,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = None,
    check: bool = True,
    input_text: str | None = None,
    on_stderr: Callable[[str], None] | None = None,
) -> Completed:
    """Run a command (argument list, no shell), capture its output, raise CommandError on failure.

    The child gets its own process group; an interruption (KeyboardInterrupt, Terminated, or a
    signal handled by `stop_on_signals`) ends that group before this returns or raises.

    Args:
        what: a few words for messages ("uv pip compile for cu118").
        env: the complete environment for the child (None: `clean_env()`, ours without
            envgen's settings and credentials).
        on_stderr: called with each line of the child's stderr as it is written (a progress
            display reads the tool's own messages); stderr is still captured whole.
    """
    import subprocess  # noqa: PLC0415, TID251 - ~4 ms; only when a command runs (this module is the one place allowed)

    argv = tuple(os.fspath(a) for a in args)
    if _stopping.is_set():
        raise _stopped()
    _resolve_prctl()
    log.debug("running: %s", redact(shown_command(argv)))
    start = time.perf_counter()
    try:
        with _forking():
            proc = subprocess.Popen(
                argv,
                cwd=cwd,
                env=dict(env) if env is not None else clean_env(),
                stdin=subprocess.PIPE if input_text is not None else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                process_group=0,
                preexec_fn=_die_with_parent,  # noqa: PLW1509 - prctl only; resolved before any fork
            )
    except FileNotFoundError:
        deferred = _take_deferred()
        if deferred is not None:
            raise deferred from None
        msg = f"{argv[0]} is not installed or not on PATH (needed for {what})"
        raise ToolNotFoundError(msg) from None
    with _children_lock:
        _children.add(proc)
    deferred = _take_deferred()
    if deferred is not None:  # a signal arrived while the child was being started
        with _children_lock:
            _children.discard(proc)
        _end(proc)
        raise deferred
    try:
        if on_stderr is None:
            stdout, stderr, timed_out = _communicate(proc, input_text, start, timeout)
        else:
            stdout, stderr, timed_out = _stream(proc, input_text, start, timeout, on_stderr)
    except BaseException:
        _end(proc)
        raise
    finally:
        with _children_lock:
            _children.discard(proc)
    if timed_out:
        msg = f"{what} timed out after {timeout:g} s\n  command: {redact(' '.join(argv))}"
        if stderr:
            msg += "\n" + _indent(redact("\n".join(stderr.splitlines()[-10:])))
        raise ToolTimeoutError(msg)
    result = Completed(
        args=argv,
        returncode=proc.returncode,
        stdout=stdout,
        stderr=stderr,
        seconds=time.perf_counter() - start,
    )
    log.debug("%s finished in %.2f s (exit %d)", what, result.seconds, result.returncode)
    if check and result.returncode != 0:
        raise CommandError(result, what)
    return result


def spawn_detached(
    args: Sequence[str | os.PathLike[str]],
    *,
    what: str,
    env: Mapping[str, str],
    input_text: str = "",
    pass_fds: Sequence[int] = (),
) -> int:
    """Start a command that outlives envgen (its own session, no output kept); its pid.

    For work that may finish after the command that started it (the bytecode store's
    compile job): it is not stopped on Ctrl-C or when envgen exits, and its stdout and stderr
    go to /dev/null. `input_text` is written to its stdin, which is then closed.

    Raises:
        OSError: it could not be started.
    """
    import subprocess  # noqa: PLC0415, TID251 - see run (this module is the one place allowed)

    argv = tuple(os.fspath(a) for a in args)
    log.debug("starting in the background: %s", redact(shown_command(argv)))
    proc = subprocess.Popen(
        argv,
        env=dict(env),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
        pass_fds=tuple(pass_fds),
    )
    assert proc.stdin is not None  # noqa: S101 - stdin=PIPE
    try:
        proc.stdin.write(input_text)
    except BrokenPipeError:
        log.debug("%s: exited before reading its input", what)
    finally:
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.close()
    log.debug("%s: pid %d", what, proc.pid)
    _detached.append(proc)  # never reaped here: kept so that no ResourceWarning fires mid-run
    return proc.pid


def shown_command(argv: Sequence[str]) -> str:
    """A command line for a log: an argument of several lines (an inline `python -c` script)
    is shown as its size, not its text.

    >>> shown_command(["python", "-c", "import sys\\nprint(sys.path)\\n"])
    'python -c <inline script: 2 lines>'
    """
    return " ".join(
        f"<inline script: {len(a.splitlines())} lines>" if "\n" in a else a for a in argv
    )


def _stream(
    proc: subprocess.Popen[str],
    input_text: str | None,
    start: float,
    timeout: float | None,
    on_line: Callable[[str], None],
) -> tuple[str, str, bool]:
    """As `_communicate`, calling `on_line` with each stderr line as it arrives.

    A failing `on_line` (a display's bug) is logged and ignored: it must never fail the work.
    """
    import subprocess  # noqa: PLC0415, TID251 - see run (this module is the one place allowed)

    chunks: dict[str, list[str]] = {"stdout": [], "stderr": []}

    def read_stdout() -> None:
        if proc.stdout is not None:
            with proc.stdout:
                chunks["stdout"].append(proc.stdout.read())

    def read_stderr() -> None:
        if proc.stderr is None:
            return
        broken = False
        with proc.stderr:
            for line in proc.stderr:
                chunks["stderr"].append(line)
                if broken:
                    continue
                try:
                    on_line(line.rstrip("\n"))
                except Exception:  # a display must never stop the work
                    log.debug("progress reader failed on %r", line, exc_info=True)
                    broken = True

    def write_stdin() -> None:
        if proc.stdin is not None:
            with contextlib.suppress(BrokenPipeError, OSError), proc.stdin:
                proc.stdin.write(input_text or "")

    readers = [threading.Thread(target=read_stdout), threading.Thread(target=read_stderr)]
    if input_text is not None:
        readers.append(threading.Thread(target=write_stdin))
    for t in readers:
        t.daemon = True
        t.start()
    timed_out = False
    while True:
        try:
            proc.wait(timeout=_POLL_S)
            break
        except subprocess.TimeoutExpired:
            pass
        if _stopping.is_set():
            raise _stopped()
        if timeout is not None and time.perf_counter() - start > timeout:
            _end(proc)
            timed_out = True
            break
    for t in readers:
        # The pipes end when the child and whatever inherited them exit; _end stopped its group.
        while t.is_alive():
            t.join(_POLL_S)
            if _stopping.is_set():
                raise _stopped()
    if _stopping.is_set() and proc.returncode != 0:
        raise _stopped()
    return "".join(chunks["stdout"]), "".join(chunks["stderr"]), timed_out


def _communicate(
    proc: subprocess.Popen[str], input_text: str | None, start: float, timeout: float | None
) -> tuple[str, str, bool]:
    """(stdout, stderr, timed out), polling so that a stop request is acted on at once."""
    import subprocess  # noqa: PLC0415, TID251 - see run (this module is the one place allowed)

    pending = input_text
    while True:
        try:
            stdout, stderr = proc.communicate(pending, timeout=_POLL_S)
        except subprocess.TimeoutExpired:
            pass
        else:
            if _stopping.is_set() and proc.returncode != 0:
                raise _stopped()  # it failed because it got the signal: not a tool failure
            return stdout, stderr, False
        pending = None  # communicate() keeps what it has not yet written
        if _stopping.is_set():
            raise _stopped()
        if timeout is not None and time.perf_counter() - start > timeout:
            _end(proc)
            stdout, stderr = proc.communicate()
            return stdout, stderr, True


# envgen's own settings (ENVGEN_*: index URLs with their credentials among them) are read once into
# envgen.infra.settings.Settings and passed to a child only as the values it needs (uv gets its
# index passwords in UV_INDEX_*, built for that one call): never as inherited variables.
PRIVATE_PREFIXES: Final = ("ENVGEN_",)


def clean_env(
    *, drop_prefixes: Sequence[str] = ("PIP_", "UV_", "CONDA_", "VIRTUAL_ENV")
) -> dict[str, str]:
    """A copy of os.environ without the variables that would change a resolver's answer, and
    without envgen's own settings and credentials (PRIVATE_PREFIXES, always dropped).

    Process plumbing, not a setting: a child tool gets the process's environment (HOME, PATH,
    proxies, certificates) minus these; envgen's own settings come from envgen.infra.settings.
    """
    drop = (*drop_prefixes, *PRIVATE_PREFIXES)
    return {k: v for k, v in os.environ.items() if not k.startswith(drop)}


def exec_command(argv: Sequence[str], *, env: Mapping[str, str]) -> NoReturn:
    """Replace this process with `argv` (PATH searched in `env`): `envgen run` and `shell`.

    Not a subprocess: the command gets the terminal, its signals and its exit status are the
    user's, and nothing of envgen stays behind it.
    """
    log.debug("exec: %s", redact(" ".join(argv)))
    try:
        os.execvpe(argv[0], list(argv), dict(env))  # noqa: S606 - the user's own command
    except FileNotFoundError:
        msg = f"{argv[0]}: command not found in the environment or on PATH"
        raise ToolNotFoundError(msg) from None
    except OSError as exc:
        msg = f"{argv[0]}: cannot be run: {exc.strerror or exc}"
        raise ToolNotFoundError(msg) from None
