"""The schema of project.yaml as pydantic models: which keys exist, their types, patterns, choices.

The same split as matrix_schema.py / matrix.py and targets_schema.py / targets.py: these models
are the definition, and never run on the command path (pydantic costs ~100 ms of imports).
`scripts/gen_schema.py` (`make schema`) writes two things from them:

- `docs/reference/project-yaml.schema.json`, the JSON Schema an editor can check a project.yaml
  against (yaml-language-server's `# yaml-language-server: $schema=...`);
- `envgen/model/spec_rules.py`, the keys, choices and patterns as plain constants, which the
  runtime reader (envgen.model.spec: `parse_spec`) imports, so every structural rule is written
  once, here.

The runtime reader adds what a schema does not say, each with its own message (where, what, the
valid choices, the fix): PEP 508 and specifier syntax, duplicates, index URL policy, control
characters.
tests/unit/model/test_spec_schema.py checks that both accept every spec in the repository and both
refuse each structural mistake, and that the generated files are current.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Final, Literal, TypeAlias, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    StrictStr,
    WithJsonSchema,
)

from envgen.model.types import CondaSource, Manager, Platform, Resolver

# Every pattern is matched whole (the runtime uses re.fullmatch): `$` alone would accept a
# trailing newline, which then ends a YAML scalar or a requirements line early (issue 16 item 3).
NAME_PATTERN: Final = r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}"
ACCELERATOR_PATTERN: Final = r"(cpu|xpu|cu\d{2,3}|rocm\d+(\.\d+){1,2})"
PYTHON_PATTERN: Final = r"2\.7|3\.\d{1,2}(\.\d{1,3})?"
CHANNEL_PATTERN: Final = r"[A-Za-z0-9][A-Za-z0-9_.-]*(/[A-Za-z0-9_.-]+)*"
# A name, then a version / build part on the same line: spaces only (`\s` would take a newline),
# no shell metacharacters and no control characters.
CONDA_DEP_PATTERN: Final = r"[A-Za-z0-9_][A-Za-z0-9_.-]*( *[=<>!~\[ ][^;|&`$\\\x00-\x1f\x7f#:]*)?"
HOST_PATTERN: Final = r"[A-Za-z0-9]([A-Za-z0-9.-]{0,252})"
CI_LABEL_PATTERN: Final = r"[A-Za-z0-9][A-Za-z0-9_.,-]*"
# ci.install is written into a CI workflow inside double quotes: no quote, space, `$` or backtick
# can reach it (envgen.model.spec.ci_install says which forms within these characters).
CI_INSTALL_PATTERN: Final = r"[A-Za-z0-9][A-Za-z0-9_.:/@+=<>!,~#%-]{0,299}"
DATE_PATTERN: Final = r"\d{4}-\d{2}-\d{2}"

WriteIndex = Literal["official", "mirror"]
# Where torch comes from: as published, or PyPI's identical build (envgen.model.pypi_routes).
TorchFrom = Literal["published", "pypi"]


def _whole(pattern: str) -> str:
    """`pattern` anchored for pydantic, which searches (as re.search) where envgen fullmatches."""
    return rf"^(?:{pattern})$"


Name: TypeAlias = Annotated[
    StrictStr, Field(pattern=_whole(NAME_PATTERN), description="1-64 letters, digits, . _ -")
]
Accelerator: TypeAlias = Annotated[
    StrictStr,
    Field(
        pattern=_whole(ACCELERATOR_PATTERN),
        description="cpu, cuXYZ (cu118), rocmX.Y (rocm6.1) or xpu",
    ),
]
PythonVersion: TypeAlias = Annotated[
    StrictStr,
    Field(
        pattern=_whole(PYTHON_PATTERN),
        description='major.minor ("3.10") or a patch release ("3.6.12"), quoted',
    ),
]
Channel: TypeAlias = Annotated[
    StrictStr, Field(pattern=_whole(CHANNEL_PATTERN), description="a channel name")
]
CondaDependency: TypeAlias = Annotated[
    StrictStr,
    Field(pattern=_whole(CONDA_DEP_PATTERN), description='a match spec such as "ffmpeg>=6"'),
]
Host: TypeAlias = Annotated[
    StrictStr, Field(pattern=_whole(HOST_PATTERN), description="a host name, no scheme or port")
]
RunnerLabel: TypeAlias = Annotated[
    StrictStr, Field(pattern=_whole(CI_LABEL_PATTERN), description="runner label(s)")
]
CiInstall: TypeAlias = Annotated[StrictStr, Field(pattern=_whole(CI_INSTALL_PATTERN))]
DateText: TypeAlias = Annotated[StrictStr, Field(pattern=_whole(DATE_PATTERN))]
# YAML reads an unquoted 2021-06-30 as a date (and a time stamp as a datetime); never a number.
StrictDate: TypeAlias = Annotated[dt.date, Strict()]
StrictDatetime: TypeAlias = Annotated[dt.datetime, Strict()]


T = TypeVar("T")
# A list of at least one item (the minimum on the list itself: JSON Schema's minItems).
NonEmpty: TypeAlias = Annotated[T, Field(min_length=1)]

_DEFAULT_PLATFORMS: Final[tuple[Platform, ...]] = ("linux-64",)
_DEFAULT_MANAGERS: Final[tuple[Manager, ...]] = ("pip", "conda")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CondaSchema(_Strict):
    """`conda:`: extra channels and packages for the conda side."""

    channels: list[Channel] = Field(
        default_factory=list, description="Channels after the ones torch needs."
    )
    dependencies: list[CondaDependency] = Field(
        default_factory=list,
        description="Conda packages besides torch, its companions and python (which envgen sets).",
    )
    source: CondaSource | None = Field(
        default=None,
        description="pytorch (PyTorch's own channels) or conda-forge; default: the release's.",
    )


class LockSchema(_Strict):
    """`lock:`: how full locks are resolved."""

    # In a document (what the JSON Schema describes) a date is text: YYYY-MM-DD, or null.
    exclude_newer: Annotated[
        StrictDatetime | StrictDate | DateText | None,
        WithJsonSchema(
            {"anyOf": [{"type": "string", "pattern": _whole(DATE_PATTERN)}, {"type": "null"}]}
        ),
    ] = Field(default=None, description="Resolve everything as it stood that day (YYYY-MM-DD).")
    resolver: Resolver = Field(default="uv", description="The pip resolver.")


class CiSchema(_Strict):
    """`ci:`: what `envgen ci github|gitlab` writes into the workflow."""

    gpu_runner: RunnerLabel = Field(
        default="gpu", description="Runner label(s) for variants that need a GPU."
    )
    cpu_runner: RunnerLabel = Field(
        default="ubuntu-latest", description="Runner label(s) for cpu variants."
    )
    # Unset means this envgen's release; an explicit null is refused, as the runtime does.
    install: CiInstall = Field(  # type: ignore[assignment]  # see above
        default=None,
        description=(
            "How CI installs envgen: a version, a requirement of envgen-torch, a git URL with a "
            "tag, or a wheel; default: this envgen's release."
        ),
    )


class ProjectSchema(_Strict):
    """A project.yaml (every key: docs/reference/project-yaml.md)."""

    name: Name = Field(description="The project name: it names environments and files.")
    python: PythonVersion | NonEmpty[list[PythonVersion]] | None = Field(
        default=None,
        description='Python version(s), quoted ("3.10"); default: the newest the release has.',
    )
    torch: StrictStr = Field(
        min_length=1,
        description='A release ("2.1.0"), a range (">=2.1,<2.3": the newest match) or "latest".',
    )
    torchvision: StrictBool | StrictStr = Field(
        default=True, description="true (the matching release), false, or an exact version."
    )
    torchaudio: StrictBool | StrictStr = Field(
        default=True, description="true (the matching release), false, or an exact version."
    )
    accelerators: Literal["all"] | Accelerator | NonEmpty[list[Accelerator]] = Field(
        default_factory=lambda: ["cpu"],
        description='Compute platforms, one variant each, or "all".',
    )
    platforms: Platform | NonEmpty[list[Platform]] = Field(
        default_factory=lambda: list(_DEFAULT_PLATFORMS),
        description="Target platforms.",
    )
    managers: Manager | NonEmpty[list[Manager]] = Field(
        default_factory=lambda: list(_DEFAULT_MANAGERS),
        description="Which files to write: requirements.txt (pip), environment.yml (conda).",
    )
    pip: list[StrictStr] = Field(
        default_factory=list, description="Extra PEP 508 requirements (never torch's family)."
    )
    conda: CondaSchema | None = None
    lock: LockSchema | None = None
    pytorch_index: StrictStr | None = Field(
        default=None, description="A mirror of https://download.pytorch.org/whl."
    )
    pypi_index: StrictStr | None = Field(default=None, description="A PyPI mirror (PEP 503).")
    write_index: WriteIndex = Field(
        default="official", description="Which indexes written files name: official or mirror."
    )
    ci: CiSchema | None = None
    trusted_hosts: list[Host] = Field(
        default_factory=list, description="Hosts whose plain-http index is allowed."
    )
    torch_from: TorchFrom = Field(
        default="published",
        description="published (PyTorch's own route) or pypi (PyPI's identical build).",
    )


def spec_json_schema() -> dict[str, Any]:
    """The JSON Schema of project.yaml (docs/reference/project-yaml.schema.json)."""
    schema = ProjectSchema.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "envgen project.yaml"
    return schema


def first_problem(data: object) -> str | None:
    """`where: what` of the first rule `data` breaks, or None when the schema accepts it."""
    from pydantic import ValidationError  # noqa: PLC0415 - with the models

    try:
        ProjectSchema.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"{where}: {first['msg']}"
    return None


def runtime_rules() -> str:
    """The text of envgen/model/spec_rules.py: the keys, choices and patterns as constants."""
    from typing import get_args  # noqa: PLC0415 - generation only

    def keys(model: type[BaseModel]) -> tuple[str, ...]:
        return tuple(model.model_fields)

    constants: list[tuple[str, object, str]] = [
        ("KNOWN_KEYS", keys(ProjectSchema), "the top-level keys, in the documented order"),
        ("CONDA_KEYS", keys(CondaSchema), "`conda:`"),
        ("LOCK_KEYS", keys(LockSchema), "`lock:`"),
        ("CI_KEYS", keys(CiSchema), "`ci:`"),
        ("WRITE_INDEX_CHOICES", get_args(WriteIndex), "`write_index:`"),
        ("TORCH_FROM_CHOICES", get_args(TorchFrom), "`torch_from:`"),
        ("NAME_PATTERN", NAME_PATTERN, "`name:`"),
        ("ACCELERATOR_PATTERN", ACCELERATOR_PATTERN, "each of `accelerators:`"),
        ("PYTHON_PATTERN", PYTHON_PATTERN, "each of `python:`"),
        ("CHANNEL_PATTERN", CHANNEL_PATTERN, "each of `conda.channels`"),
        ("CONDA_DEP_PATTERN", CONDA_DEP_PATTERN, "each of `conda.dependencies`"),
        ("HOST_PATTERN", HOST_PATTERN, "each of `trusted_hosts`"),
        ("CI_LABEL_PATTERN", CI_LABEL_PATTERN, "`ci.gpu_runner`, `ci.cpu_runner`"),
        ("CI_INSTALL_PATTERN", CI_INSTALL_PATTERN, "`ci.install`"),
        ("DATE_PATTERN", DATE_PATTERN, "`lock.exclude_newer` written as a string"),
    ]
    lines = [
        '"""project.yaml keys, choices and patterns, for the runtime reader (envgen.model.spec).',
        "",
        "Generated by `make schema` (scripts/gen_schema.py) from envgen/model/spec_schema.py, the",
        "definition; do not edit. Patterns are matched whole (re.fullmatch).",
        "tests/unit/model/test_spec_schema.py fails when this file is stale.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
    ]
    for name, value, what in constants:
        lines.append(f"# {what}")
        if isinstance(value, tuple):
            lines.append(f"{name}: Final = (")
            lines += [f'    "{v}",' for v in value]
            lines.append(")")
        else:
            lines.append(f"{name}: Final = r{_raw(str(value))}")
    return "\n".join(lines) + "\n"


def _raw(pattern: str) -> str:
    """`pattern` as a raw string literal (the patterns hold no quote of this kind)."""
    quote = '"' if '"' not in pattern else "'"
    if quote in pattern:
        msg = f"pattern {pattern!r} holds both quote characters"
        raise ValueError(msg)
    return f"{quote}{pattern}{quote}"
