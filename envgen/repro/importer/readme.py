"""README files (Markdown, reStructuredText): their shell blocks (fenced, rST code-block, <pre>,
inline code that installs) and Windows batch blocks, each read as an install script, and fenced
package lists (`pytorch=1.7.0` a line) that the prose before them introduces as what to install;
where none names torch, the versions its prose names (`PyTorch v1.0.1`, `PyTorch 1.0 or higher`
in a Requirements section), and the python its prose names where nothing else does. Where its
blocks offer a torch install per GPU or CUDA, the first is taken, the others are alternatives.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Final

from packaging.utils import canonicalize_name

from envgen.errors import excerpt
from envgen.model.pypi_names import load_names
from envgen.repro.importer.conda_env import conda_spec
from envgen.repro.importer.evidence import Evidence, run_from_root, set_python
from envgen.repro.importer.install_script import MAX_ALTERNATIVE_CHARS, parse_shell
from envgen.repro.importer.requirements import PIP_VALUE_FLAGS, pip_requirement
from envgen.repro.reading import root_holding

_FENCE: Final = re.compile(r"^(\s*)(```+|~~~+)\s*([A-Za-z0-9_+-]*)")


def _opens_fence(line: str) -> bool:
    """Whether a line opens or closes a fenced block: a fence marker that the line does not close
    again (```` ```python setup.py install``` ```` on one line is inline code, not a fence).

    >>> _opens_fence("```bash"), _opens_fence("```python setup.py install```")
    (True, False)
    """
    fence = _FENCE.match(line)
    return fence is not None and line.count(fence.group(2)) == 1


# A heading's underline: Markdown's setext (`===`, `---`) and reStructuredText's common ones
# (`^^^`, `:::`, `...`, quotes); not a code fence, nor `***`, `+++` or `###`, which under a
# Markdown paragraph are a rule or text.
_UNDERLINE: Final = re.compile(r"^([=\-^\"':.])\1{2,}\s*$")


def prose_headings(lines: list[str]) -> list[str]:
    """`lines` with each underlined title (Markdown's setext `Dependencies` over `====`, or
    reStructuredText's, any punctuation) written as a `#` heading, its underline blank, so the
    prose readers see its sections; the line numbers stay. Levels follow the order the
    underlines first appear (reStructuredText's rule; setext's `=` then `-` agree). Fenced
    blocks are left as they are.

    >>> prose_headings(["Dependencies", "============", "", "- Python **3.7**"])
    ['# Dependencies', '', '', '- Python **3.7**']
    >>> prose_headings(["Text", "", "----"]), prose_headings(["- item", "---"])
    (['Text', '', '----'], ['- item', '---'])
    """
    out = list(lines)
    levels: dict[str, int] = {}
    fenced = False
    for i, title in enumerate(lines[:-1]):
        if _opens_fence(title):
            fenced = not fenced
        under = _UNDERLINE.match(lines[i + 1])
        if (
            fenced
            or _opens_fence(lines[i + 1])
            or under is None
            or not title.strip()
            or title[:1].isspace()
            or _UNDERLINE.match(title)
            or _LIST_ITEM.match(title)
            or title.lstrip().startswith(("#", "|", ">", "..", "```", "~~~"))
        ):
            continue
        level = levels.setdefault(under.group(1), len(levels) + 1)
        out[i], out[i + 1] = f"{'#' * min(level, 6)} {title.strip()}", ""
    return out


_SHELL_LANGS: Final = frozenset({"", "bash", "sh", "shell", "console", "zsh", "shell-session"})


_BATCH_LANGS: Final = frozenset({"bat", "batch", "cmd", "dosbatch", "winbatch"})


# Fence labels that are never a shell session (their `pip install` is Python or data).
_NOT_SHELL: Final = frozenset(
    {"python", "py", "python3", "ipython", "yaml", "yml", "json", "toml", "ini", "cfg",
     "dockerfile", "docker", "c", "cpp", "cuda", "latex", "tex", "bibtex", "powershell", "ps1"}
)  # fmt: skip


_INLINE: Final = re.compile(r"(`{1,3})([^`]+)\1")

# An install (`conda env create -f environment.yml` too: the file names what it installs).
_INSTALLS: Final = re.compile(
    r"\b(pip3?|conda|mamba|micromamba)\s+(install|create|env\s+(?:create|update))\b"
)
# An install command quoted in prose ('...', "...", or typographic quotes), read as inline code.
_QUOTED: Final = re.compile(
    r"""(['"\u2018\u201c])((?:sudo\s+)?(?:pip3?|conda|mamba|python3?\s+-m\s+pip)\s+"""
    r"""(?:install|create)\s[^'"\u2018\u2019\u201c\u201d`]*)['"\u2019\u201d]"""
)


# A prose line that is itself an install command, unformatted (`pip install torch==1.7.1+cu101
# -f ...` as a paragraph under a heading): the reader copies it as it stands.
_BARE_COMMAND: Final = re.compile(
    r"^\s*(sudo\s+)?(pip3?|conda|mamba|python[\d.]*\s+-m\s+pip)\s+(install|create|env\s+create)\s"
)
# A word of a venv step: an option, its value or the folder (`-p`, `python3.6`, `venv3`).
_VENV_WORD: Final = re.compile(r"[\w./~=-]+")


def _bare_venv(line: str) -> bool:
    """A code line of Markdown's indented form that makes a virtual environment, options and
    folder words only (`        python3.6 -m venv venv3`, `    virtualenv -p python3.6 env`), not
    a sentence that mentions one (`python3.6 -m venv is what we used`). Linear in the line.

    >>> _bare_venv("        python3.6 -m venv venv3"), _bare_venv("python3.6 -m venv env")
    (True, False)
    >>> _bare_venv("    virtualenv -p python3.6 myenv"), _bare_venv("    virtualenv is ok")
    (True, False)
    """
    if not line.startswith(("    ", "\t")):
        return False
    words = line.split()
    if words[:1] == ["virtualenv"]:
        rest = words[1:]
    elif (
        len(words) > 2 and re.fullmatch(r"python[\d.]*", words[0]) and words[1:3] == ["-m", "venv"]
    ):
        rest = words[3:]
    else:
        return False
    folders: list[str] = []
    value = False  # the word after -p / --python / --prompt is its value
    for word in rest:
        if not _VENV_WORD.fullmatch(word):
            return False
        if not value and not word.startswith("-"):
            folders.append(word)
        value = not value and word in {"-p", "--python", "--prompt"}
    return len(folders) == 1  # a sentence has more words than one folder


# A whole line in emphasis (`*pip3 install torch==1.7.1+cu110 -f ...*`, `**...**`, `_..._`):
# the markup is no part of the command it shows.
_EMPHASIS: Final = re.compile(r"^(\s*)(\*{1,2}|_{1,2})(\S(?:(?:(?!\2).)*\S)?)\2\s*$")
# A prose line that ends in an install command after a colon (`2. install torch, e.g. with
# cuda=10.2: conda install pytorch==1.7.1 ... -c pytorch`): the command is the rest of the line,
# read only where it names torch's family with a version, a channel / index, or a requirements
# file (`3. Install dependencies: pip install -r requirements.txt`), and nothing but those (so
# `Note: pip install may fail` is never a command). Possessive, so a long line is scanned once.
_COLON_COMMAND: Final = re.compile(
    r":\s++((?:sudo\s+)?(?:pip3?|conda|mamba|python3?\s+-m\s+pip)\s+install\s[^`]*+)$"
)
_NAMES_TORCH: Final = re.compile(
    r"\b(?:py)?torch(?:vision|audio)?\s*(?:==?|>=|<=|~=)\s*\d|\s(?:-c|--channel|-f|--find-links"
    r"|--index-url|--extra-index-url)\s|\s(?:-r|--requirement)\s++[\w./-]+\.(?:txt|in)\s*+$"
)

# Possessive: `::\s*(\w*)\s*$` split a run of spaces every way before failing, quadratic in a
# 100 kB line (`.. code-block::` + spaces + `x x`).
_RST_BLOCK: Final = re.compile(r"^\s*+\.\.\s++(code-block|code|sourcecode)::\s*+(\w*+)\s*+$")

_TAG: Final = re.compile(r"</?\w+[^<>]*>")  # [^>]* rescanned the line from every `<`: quadratic

_PROMPT: Final = re.compile(r"^\s*(\(\S+\)\s*)?[$%>]\s+")


def shell_blocks(text: str) -> list[tuple[int, str]]:
    """(first line, text) of each shell block in Markdown or reStructuredText, `$ ` prompts
    removed: fenced blocks (``` or ~~~) labeled as shell, rST `.. code-block:: bash` blocks, and,
    where they run pip or conda, fences with no or another label (`commandline`, `text`), HTML
    `<pre>` blocks, inline code (`` `pip install torch==1.7.1` ``) in the prose, and prose lines
    that are themselves an install command.

    >>> shell_blocks("Run `pip install torch==1.7.1`.\\n<pre>\\nconda create -n x\\n</pre>\\n")
    [(1, 'pip install torch==1.7.1'), (3, 'conda create -n x')]
    >>> shell_blocks("### Setup\\npip install torch==1.7.1\\nThen pip install the rest.\\n")
    [(2, 'pip install torch==1.7.1')]
    >>> shell_blocks("2. cuda 10.2: conda install pytorch==1.7 -c pytorch\\nNote: pip install x")
    [(1, 'conda install pytorch==1.7 -c pytorch')]
    """
    blocks: list[tuple[int, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        rst = _RST_BLOCK.match(lines[i])
        if fence and lines[i].count(fence.group(2)) == 1:
            marker, lang = fence.group(2), fence.group(3).lower()
            body: list[str] = []
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith(marker[:3]):
                body.append(lines[j])
                j += 1
            if lang in _SHELL_LANGS:
                _keep(blocks, i + 2, body, labeled=bool(lang))
            elif (lang not in _NOT_SHELL and lang not in _BATCH_LANGS) or (
                lang in _DATA_LANGS and _all_commands(body)
            ):
                # `commandline`, `text`, or a shell session under another label (```yaml over
                # `conda create` and `pip install -r`): kept if it installs
                _keep(blocks, i + 2, body, labeled=False)
            i = j + 1
            continue
        if rst and rst.group(2).lower() in _SHELL_LANGS - {""}:
            body = []
            j = i + 1
            while j < len(lines) and (not lines[j].strip() or lines[j][:1].isspace()):
                body.append(lines[j])
                j += 1
            _keep(blocks, i + 2, body, labeled=True)
            i = j
            continue
        if re.match(r"^\s*<pre\b[^>]*>\s*$", lines[i], re.IGNORECASE):
            j = i + 1
            while j < len(lines) and not re.match(r"^\s*</pre>", lines[j], re.IGNORECASE):
                j += 1
            _keep(blocks, i + 2, [_TAG.sub("", ln) for ln in lines[i + 1 : j]], labeled=False)
            i = j + 1
            continue
        blocks.extend((i + 1, command) for command in _inline_commands(lines[i]))
        bare = _PROMPT.sub("", _EMPHASIS.sub(r"\1\3", lines[i]))
        if "`" not in lines[i] and (_BARE_COMMAND.match(bare) or _bare_venv(lines[i])):
            blocks.append((i + 1, bare.strip()))
        elif (
            "`" not in lines[i]
            and (colon := _COLON_COMMAND.search(lines[i])) is not None
            and _NAMES_TORCH.search(colon.group(1))
            and _only_pins(colon.group(1))
        ):
            blocks.append((i + 1, colon.group(1).strip()))
        i += 1
    return blocks


def _only_pins(command: str) -> bool:
    """Whether every word after `install` is an option, an option's value, a URL or a pinned
    package (`pytorch==1.7.1`, `cudatoolkit=10.2`): a command, not a sentence that quotes one
    (`pip install torch==1.13.0 breaks CUDA 11.6 setups`).

    >>> _only_pins("conda install pytorch==1.7.1 cudatoolkit=10.2 -c pytorch")
    True
    >>> _only_pins("pip install torch==1.13.0 breaks CUDA 11.6 setups")
    False
    """
    words = command.split()
    rest = words[words.index("install") + 1 :] if "install" in words else []
    previous = ""
    for word in rest:
        value_of = previous in PIP_VALUE_FLAGS or previous in {"--channel", "-n", "--name"}
        previous = word
        if word.startswith("-") or value_of or "://" in word or re.search(r"[=<>~]=?\d", word):
            continue
        return False
    return bool(rest)


def _inline_commands(line: str) -> list[str]:
    """The install commands a prose line gives as inline code, or in quotes where it has none
    (`the command was 'conda install pytorch cudatoolkit=10.2 -c pytorch'`), `$ ` prompts
    removed; of two joined by `or` (`` `pip install torchvision` or `conda install torchvision
    -c pytorch` ``) the first is the default route, the other an alternative.

    >>> _inline_commands("- torchvision: `pip install torchvision` or `conda install torchvision`")
    ['pip install torchvision']
    >>> _inline_commands("Run `pip install a` and `pip install b`.")
    ['pip install a', 'pip install b']
    >>> _inline_commands("the command was 'conda install pytorch -c pytorch', then “pip install x”")
    ['conda install pytorch -c pytorch', 'pip install x']
    """
    out: list[str] = []
    end = 0
    for span in _INLINE.finditer(line) if "`" in line else _QUOTED.finditer(line):
        if not _INSTALLS.search(span.group(2)):
            continue
        if out and re.search(r"(?i)\bor\b", line[end : span.start()]):
            end = span.end()
            continue
        out.append(_PROMPT.sub("", span.group(2).strip()))
        end = span.end()
    return out


def batch_blocks(text: str) -> list[tuple[int, str]]:
    """(first line, text) of each fenced Windows batch block (```bat, ```cmd) in Markdown.

    >>> batch_blocks("x\\n```bat\\nset A=1\\ncall pip install torch\\n```\\n")
    [(3, 'set A=1\\ncall pip install torch')]
    """
    blocks: list[tuple[int, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        marker, lang = fence.group(2), fence.group(3).lower()
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(marker[:3]):
            j += 1
        if lang in _BATCH_LANGS:
            body = [re.sub(r"^\s*[A-Za-z]:\\[^>]*>\s*", "", ln) for ln in lines[i + 1 : j]]
            blocks.append((i + 2, "\n".join(body)))
        i = j + 1
    return blocks


# Data labels an author may put over a shell session by mistake (```yaml over `conda create`);
# never a program's (python, powershell) or batch's, whose lines another reader owns.
_DATA_LANGS: Final = frozenset({"yaml", "yml", "json", "toml", "ini", "cfg"})
# The programs a shell session runs; a fenced block whose every line starts with one is a shell
# session whatever its label says.
_SHELL_WORD: Final = re.compile(
    r"^(sudo\s+)?(pip3?|conda|mamba|micromamba|git|cd|source|export|bash|sh|wget|curl|mkdir|"
    r"python3?(\.\d+)?\s+-m\s+(pip|venv)|virtualenv|uv)\b"
)


def _all_commands(body: list[str]) -> bool:
    """Every line of a block (comments and blank lines aside) is a shell command.

    >>> _all_commands(["# make an env", "conda create -n x python=3.9", "pip install -r r.txt"])
    True
    >>> _all_commands(["name: x", "dependencies:", "  - pip install"])
    False
    """
    lines = [_PROMPT.sub("", ln).strip() for ln in body]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    return bool(lines) and all(_SHELL_WORD.match(ln) for ln in lines)


# A block line that runs make (`make dep`, `cd tools && make`): its Makefile may install.
_MAKE_LINE: Final = re.compile(r"(?m)(?:^|&&|;)\s*+(?:sudo\s++)?g?make(?:\s++[\w.=/-]++)*+\s*+$")


def _keep(blocks: list[tuple[int, str]], first: int, body: list[str], *, labeled: bool) -> None:
    text = "\n".join(_PROMPT.sub("", ln) for ln in body)
    if labeled or _INSTALLS.search(text) or _MAKE_LINE.search(text) or _runs_install_script(text):
        blocks.append((first, text))


def _runs_install_script(text: str) -> bool:
    """An unlabeled block that runs an install script of the checkout (`bash INSTALL.sh`,
    `./setup_env.sh`, `source install.sh`): a command, as `pip install` is.

    >>> _runs_install_script("bash INSTALL.sh"), _runs_install_script("bash EXPERIMENT.sh")
    (True, False)
    """
    for line in text.splitlines():
        words = line.split(maxsplit=2)[:2]
        script = words[1] if len(words) > 1 and words[0] in {"bash", "sh", "source", "."} else ""
        name = (script or (words[0] if words else "")).rsplit("/", 1)[-1].lower()
        if name.endswith(".sh") and any(k in name for k in ("install", "setup", "env")):
            return True
    return False


# One package spec a line: `pytorch=1.7.0`, `torch==1.7.1`, `opencv`, `scipy>=1.5`.
_SPEC_LINE: Final = re.compile(
    r"^[A-Za-z0-9_][A-Za-z0-9_.-]*+\s*+((==?|>=|<=|~=|!=)\s*+[\w.*+!]++,?+\s*+)*+$"
)
# The prose that introduces a block as what to install.
# `Our_Environment`, `**Pytorch Version**`: a word of a heading joined by `_` counts too.
_INTRODUCED: Final = re.compile(
    r"(?i)(?<![a-z])(conda|pip|install\w*|requirements?|pre-?requisites?|dependenc\w*|environments?"
    r"|packages?|versions?)(?![a-z])"
)
# Names only conda has (the project's own name, `pytorch`, is how prose writes it too).
_CONDA_ONLY: Final = frozenset({"cudatoolkit", "pytorch-cuda", "cpuonly"})
# A table of versions, one package a line: `PyTorch       0.4.1`, `numpy: 1.15.0`, `torch v1.7.1`.
# Possessive: `\s*(?::\s*|\s+)` split a run of spaces every way before failing (quadratic).
_COLUMNS: Final = re.compile(r"^([A-Za-z][A-Za-z0-9_.-]*+)(?:\s*+:\s*+|\s++)v?(\d+(?:\.\d+)+)$")


def _columns(line: str) -> str | None:
    """A `name  version` line as the pin it names; the project PyTorch is the distribution torch.

    >>> _columns("PyTorch       0.4.1"), _columns("numpy: 1.15.0"), _columns("torch==1.7.1")
    ('torch==0.4.1', 'numpy==1.15.0', None)
    """
    m = _COLUMNS.match(line)
    if m is None:
        return None
    name = "torch" if m.group(1).lower() in {"pytorch", "torch"} else m.group(1)
    return f"{name}=={m.group(2)}"


def _joined_specs(line: str) -> list[str]:
    """A line of specs joined by `;` as its specs, where every part is one (else the line).

    >>> _joined_specs("torch==1.8.1+cu111;  torchvision==0.9.1+cu111"), _joined_specs("a; b c")
    (['torch==1.8.1+cu111', 'torchvision==0.9.1+cu111'], ['a; b c'])
    """
    parts = [p.strip() for p in line.split(";") if p.strip()]
    if len(parts) > 1 and all(_SPEC_LINE.match(p) for p in parts):
        return parts
    return [line]


def package_lists(text: str) -> list[tuple[int, list[str], str]]:
    """(first line, specs, "conda" or "pip") of each fenced block that is only package specs,
    names torch, and is introduced by the lines before it as what to install. A conda name
    (pytorch, cudatoolkit), a single `=` or prose naming conda but not pip makes it conda's.

    >>> package_lists("With conda:\\n```\\npytorch=1.7.0\\ncudatoolkit=11.0\\nscipy\\n```")
    [(3, ['pytorch=1.7.0', 'cudatoolkit=11.0', 'scipy'], 'conda')]
    >>> package_lists("Requirements:\\n```\\ntorch==1.7.1\\nnumpy\\n```\\n")
    [(3, ['torch==1.7.1', 'numpy'], 'pip')]
    >>> package_lists("Output:\\n```\\ntorch==1.7.1\\n```\\n"), package_lists("```\\ntorch\\n```")
    ([], [])

    A table of versions (`PyTorch  0.4.1` a line) lists pins with no route: pip's.

    >>> package_lists("## Requirements\\n```\\nNumPy   1.15.0\\nPyTorch 0.4.1\\n```\\n")
    [(3, ['NumPy==1.15.0', 'torch==0.4.1'], 'pip')]

    List markers are dropped, and the project's name alone (`Pytorch`, `pytorch == 1.4.0`) names
    no route: prose writes the project so.

    >>> package_lists("The required packages:\\n```\\n* pytorch == 1.4.0\\n* numpy\\n```\\n")
    [(3, ['pytorch == 1.4.0', 'numpy'], 'pip')]
    """
    out: list[tuple[int, list[str], str]] = []
    lines = text.splitlines()
    headed = prose_headings(lines)
    section = ""  # the heading of the section the line is in (`Dependencies` over `----`)
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if not fence or lines[i].count(fence.group(2)) != 1:
            if _HEADING.match(headed[i]):
                section = headed[i]
            i += 1
            continue
        marker, lang = fence.group(2), fence.group(3).lower()
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(marker[:3]):
            j += 1
        # a list item's marker (`* pytorch == 1.4.0`) is not part of the spec; pins a line
        # joins with `;` (`torch==1.8.1+cu111;  torchvision==0.9.1+cu111`) are each a spec
        listed = _quoted_list(lines[i + 1 : j]) if lang in {"", "python", "py"} else None
        quoted = listed is not None
        if listed is not None:
            specs, lang = listed, ""
        else:
            specs = [
                part
                for ln in lines[i + 1 : j]
                if ln.strip()
                for part in _joined_specs(_LIST_ITEM.sub("", ln).strip())
            ]
        table = [_columns(s) for s in specs]
        if specs and all(table):
            specs = [t for t in table if t is not None]
        prose = " ".join(ln for ln in lines[max(0, i - 3) : i] if ln.strip())
        if quoted:  # a setup.py's list quoted under `Dependencies`: the section introduces it
            prose = f"{section} {prose}"
        names = {re.split(r"[\s=<>~!]", s, maxsplit=1)[0].lower() for s in specs}
        if (
            lang in {"", "text", "txt"}
            and specs
            and all(_SPEC_LINE.match(s) for s in specs)
            and names & {"torch", "pytorch"}
            and _INTRODUCED.search(prose)
        ):
            said = prose.lower()
            conda = (
                bool(names & _CONDA_ONLY)
                or any(re.search(r"[^=<>!~]=[^=]", s) for s in specs)
                or ("conda" in said and "pip" not in said)
            )
            out.append((i + 2, specs, "conda" if conda else "pip"))
        i = j + 1
    return out


_QUOTED_ITEM: Final = re.compile(r"""^\s*+(["'])([A-Za-z0-9][^"'\n]{0,200}+)\1\s*+,?\s*+$""")
_HEADING: Final = re.compile(r"^\s{0,3}#{1,6}\s")
_LIST_OPEN: Final = re.compile(r"^\s*+(?:[A-Za-z_]\w*+\s*+=\s*+)?\[\s*+$")


def _quoted_list(body: list[str]) -> list[str] | None:
    """A block that quotes a setup.py's list of requirements (`INSTALL_REQUIRES = [`,
    `'torch>=0.4.1',`, `]`): its strings; None for any other block.

    >>> _quoted_list(["INSTALL_REQUIRES = [", "    'numpy>=1.15.0',", '    "torch>=0.4.1"', "]"])
    ['numpy>=1.15.0', 'torch>=0.4.1']
    >>> _quoted_list(["x = ['a'] + ['b']"]) is None, _quoted_list(["'torch'"]) is None
    (True, True)
    """
    rows = [ln for ln in body if ln.strip()]
    if len(rows) < 3 or not _LIST_OPEN.match(rows[0]) or rows[-1].strip() not in {"]", "],"}:
        return None
    items = [_QUOTED_ITEM.match(ln) for ln in rows[1:-1]]
    if not all(items):
        return None
    return [m.group(2).strip() for m in items if m is not None]


# An exact pin of the torch family written in prose: `pytorch==1.4.0`, `torchvision == 0.5.0`.
_PROSE_PIN: Final = re.compile(
    r"(?<![\w.-])(py)?(torch(?:vision|audio)?)\s*==\s*(\d+(?:\.\d+)+(?:\.post\d+)?)(?!\w|\.\d)",
    re.IGNORECASE,
)


_LIST_ITEM: Final = re.compile(r"^\s*([-*+]|\d+[.)])\s+")
# A list item that is one exact pin and nothing else: `- numpy==1.22.4`.
_ITEM_PIN: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*+\s*+==\s*+\d[\w.+!]*+\s*+$")
_INSTALL_WORDS: Final = re.compile(
    r"(?i)^(install\w*|requires?|requirements?|dependenc\w*|pre-?requisites?)\b"
)


def prose_pins(text: str) -> list[tuple[int, str]]:
    """(line, requirement) of each exact torch-family pin a prose line outside code blocks
    names, where the line says it is what to install (with the list's other exact pins, one an
    item: `- numpy==1.22.4`): it starts with the word (`Install
    pytorch==1.4.0 and torchvision==0.5.0 following the official instructions`, `Requirements:
    torch==1.7.1`), or it is a list item under a Requirements / Installation / Dependencies /
    Prerequisites heading. A sentence that mentions a pin (`You can pip install torch==1.7.1 if
    you like`) is not read. The project `pytorch` is the distribution torch.

    >>> prose_pins("## Requirements\\n1. Install pytorch==1.4.0 and torchvision==0.5.0.\\n")
    [(2, 'torch==1.4.0'), (2, 'torchvision==0.5.0')]
    >>> prose_pins("## Installation\\n- torch==1.8.1\\n- CUDA 11.1\\n")
    [(2, 'torch==1.8.1')]
    >>> prose_pins("## Dependencies\\n- numpy==1.22.4\\n- torch==2.0.0\\n- d3rlpy==1.1.1\\n")
    [(2, 'numpy==1.22.4'), (3, 'torch==2.0.0'), (4, 'd3rlpy==1.1.1')]
    >>> prose_pins("Tested with torch==1.4.0.\\n"), prose_pins("```\\nInstall torch==1.4\\n```\\n")
    ([], [])
    """
    out: list[tuple[int, str]] = []
    others: list[tuple[int, str]] = []
    heading = ""
    fenced = False
    needed = False  # the list under the current lead is what the project needs
    lines = prose_headings(text.splitlines())
    leads = _list_leads(lines)
    for number, line in enumerate(lines, start=1):
        if _opens_fence(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        if re.match(r"^\s*#{1,6}\s", line):
            heading = line
            needed = False
            continue
        if number in leads:
            needed = _NEEDS_WORDS.search(line) is not None
        if "==" not in line:
            continue
        item = _LIST_ITEM.match(line)
        body = line[item.end() :] if item else line.strip()
        said = _INSTALL_WORDS.match(body) is not None or (
            item is not None and (_INSTALL_WORDS.search(heading.lstrip("# ")) is not None or needed)
        )
        if not said:
            continue
        family = [
            (number, f"{m.group(2).lower()}=={m.group(3)}") for m in _PROSE_PIN.finditer(line)
        ]
        out.extend(family)
        if (
            item is not None
            and not family
            and _ITEM_PIN.match(body)
            and not re.match(r"(?i)python3?\s*+==", body)  # the interpreter: no package
        ):
            others.append((number, re.sub(r"\s+", "", body)))  # `- numpy==1.22.4`
    # the list's other pins come with its torch (they rule out pythons their wheels lack)
    return sorted(out + others) if out else []


# A section whose prose says what the project needs: `## Requirements`, `### Prerequisites`,
# `Dependencies`, `Installation`, `Environment`, `Setup` (`Reqirements` misspelt too), as a
# heading or as a line of its own (`Requirements:` before a list).
_NEEDS_SECTION: Final = re.compile(
    r"(?i)\b(re?qu?i?rements?|pre-?requisites?|dependenc\w*|install\w*|environments?|setup)\b"
)
_NEEDS_LINE: Final = re.compile(
    r"(?i)^\s*+(?:[-*+]\s++)?(\*\*)?(software\s++)?(re?qu?i?rements?|pre-?requisites?|dependenc\w*)(\*\*)?\s*+:?\s*+$"
)
# The same label with its first item after the colon (`Requirements: Ubuntu 16.0.4;`).
_NEEDS_LEAD: Final = re.compile(
    r"(?i)^\s*+(\*\*)?(software\s++)?(re?qu?i?rements?|pre-?requisites?|dependenc\w*)(\*\*)?\s*+:\s*+\S"
)
# Neither part runs past a bracket or parenthesis, so a line of `[` or `[a](` is read in linear time
# (an image inside a link, `[![PyTorch 1.8](badge)](url)`, takes two passes).
_LINK: Final = re.compile(r"!?\[([^\[\]]*)\]\([^()]*\)")
# The words after `or` / `and` that make a version a floor: `1.0 or above`, `1.1 or Up`, `3.6 or
# further`.
_FLOOR_WORDS: Final = r"(?:above|higher|later|newer|greater|up(?:wards?)?\b|further|beyond)"
# `PyTorch v1.0.1`, `Pytorch>=0.4.1`, `pytorch (>= 0.4.1)`, `PyTorch = 1.0.0`, `PyTorch: 1.12.1`,
# `PyTorch-1.5`, `PyTorch 1.0+`, `PyTorch 0.4.0 or above`, `PyTorch version >= 0.4.0`: the project,
# a version, and whether it is a floor; `PyTorch 1.2-1.4` (`1.2 to 1.4`, an en dash too) is a span,
# through its upper end, and so are two versions either of which does (`PyTorch 0.4 or 0.5`).
_PROSE_TORCH: Final = re.compile(
    r"(?<![\w./-])(py)?(torch(?:vision|audio)?)(?:,?\s++(?:tested\s++)?(?:with\s++)?(?:version|install))?"
    r"(?:\s*+:|-(?=v?\d))?\s*+(\(\s*+)?"
    r"(>=|≥|==?)?\s*+['\"]?v?"
    r"(\d+\.\d+(?:\.\d+)?(?:\.post\d+)?)(\+(?:cu\d{2,3}|cpu)(?![\w.]))?"
    r"(?![\w.]*\d)(\+(?!\w)|\s*+\)?,?\s*+(?:or|and)\s++" + _FLOOR_WORDS + r")?"
    r"(?:\s*+(?:[-\u2013~]|to\b|or\b)\s*+v?(\d+\.\d+(?:\.\d+)?)(?![\w.]*\d))?"
    r"(?:\s*+,?\s*+(<=?|≤)\s*+v?(\d+\.\d+(?:\.\d+)?)(?![\w.]*\d))?",
    re.IGNORECASE,
)
# What follows a version that the prose rules out: `Python 2.7 is not supported`, `(no longer
# supported)`, `PyTorch 0.4 is deprecated`.
_RULED_OUT: Final = re.compile(
    r"[^\S\n]*+[)(]?[^\S\n]*+(?:(?:is|are)[^\S\n]++)?(?:not[^\S\n]++supported|no[^\S\n]++longer"
    r"|unsupported|deprecated|breaks|(?:is[^\S\n]++)?broken|has[^\S\n]++a[^\S\n]++bug|buggy)",
    re.IGNORECASE,
)
# Sections that tell a story about the project rather than what it needs: what their prose names
# (`## News: updated for PyTorch 2.0`, a citation `PyTorch 1.0: ...`, a results table's `PyTorch
# 1.6` column) is never read as the torch to install.
_ASIDE_SECTION: Final = re.compile(
    r"(?i)\b(news|updates?|change\s*log|changes|release\s+notes|history|citations?|citing|cite"
    r"|bibtex|references?|acknowledge?ments?|thanks|results?|performance|benchmarks?|license)\b"
)
# `Python 3.6`, `python 3.6.8`, `Python = 3.6.8`, `Python: 3.8.6`, `python3.7`; a floor (`Python
# 3.6+`, `>= 3.6`, `3.6 or higher`) or a span (`Python 3.10-3.12`, an en dash too, `Python 2.7 or
# 3.6`) names no python.
_PROSE_PYTHON: Final = re.compile(
    r"(?<![\w./-])python(?:\s++(?:[a-z]{2,15}+\s++)?version)?(?:\s*+:|-(?=\d)|\s*+\((?=\s*+\d))?"
    r"\s*+(>=|≥|==?)?"
    r"\s*+(\d\.\d+)(?:\.\d+)?(?![\w.]*\d)"
    r"(\+(?!\w)|\s*+(?:or|and)\s++" + _FLOOR_WORDS + r"|\s*+(?:[-\u2013~/]|to|or\b)\s*+\d)?",
    re.IGNORECASE,
)


# A sentence that says what it introduces is needed: `You must have pre-installed PyTorch`,
# `This code requires the following:`, `You need:`.
_NEEDS_WORDS: Final = re.compile(
    r"(?i)\b(must\s+have|needs?|needed|requires?|required|pre-?installed|pre-?requisites?"
    r"|depends\s+on|dependenc\w*)\b"
)


def _list_leads(lines: list[str]) -> set[int]:
    """The line numbers (1-based) of the prose lines a list opens under: the last non-blank
    line before a list's first item, itself no item.

    >>> sorted(_list_leads(["You need:", "", "* torch", "* numpy", "Text", "1. a"]))
    [1, 5]
    """
    out: set[int] = set()
    previous: tuple[int, bool] | None = None  # (line number, is an item) of the last non-blank
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        item = _LIST_ITEM.match(line) is not None
        if item and previous is not None and not previous[1]:
            out.add(previous[0])
        previous = (number, item)
    return out


# A heading or a line that introduces what follows as the authors' machine: `## Tested
# Configurations`, `Models released in this work is trained and tested on:` above a list.
_MACHINE: Final = re.compile(r"(?i)\b(tested|verified|developed|trained)\b")

ProseLine = tuple[int, str, bool, bool, bool]


@functools.lru_cache(maxsize=2)  # prose_torch and prose_python read the same README
def _prose_lines(text: str) -> tuple[ProseLine, ...]:
    """(line, text, in a section that says what the project needs, introduces a code block,
    describes the authors' machine) of each prose line outside code blocks and headings, links
    reduced to their text and inline code to its content. A line introduces the block that opens
    on the next non-blank line (`Installation (using python 3.9 virtual env):` above its
    commands); a line describes the authors' machine where it says so (`tested on Python 3.7`),
    or its heading does (`## Tested Configurations`), or it is a list item under such a line."""
    out: list[ProseLine] = []
    # (level, says needs, aside, the authors' machine) of open headings
    headings: list[tuple[int, bool, bool, bool]] = []
    seen = False  # a heading before this one
    intro = False
    lead = False  # the last prose line before the current list describes the authors' machine
    fenced = False
    lines = prose_headings(text.splitlines())
    # the line number (1-based) of the next non-blank line after each line opens a fence
    opens: set[int] = set()
    following = False
    for index in range(len(lines) - 1, -1, -1):
        if following:
            opens.add(index + 1)
        if lines[index].strip():
            following = _opens_fence(lines[index])
    list_leads = _list_leads(lines)
    plain_fence = False  # the open fence names no language (or text): a list, perhaps
    for number, raw in enumerate(lines, start=1):
        line = raw
        if _opens_fence(line):
            fenced = not fenced
            opened = _FENCE.match(line)
            plain_fence = opened is not None and opened.group(3).lower() in {"", "text", "txt"}
            continue
        # a plain fence in a needs section may hold a table of versions (`Python 3.6` a line,
        # under `### Requirements`): those lines are read as the section's list
        listed = (
            fenced
            and plain_fence
            and _COLUMNS.match(line.strip()) is not None
            and (intro or any(h[1] for h in headings))
        )
        if listed:
            line = f"- {line.strip()}"  # one item of the list the fence holds
        if (fenced and not listed) or (
            # an indented block is code, but a `PyTorch: 1.0` line in it is a table of versions
            line.startswith(("    ", "\t"))
            and not _LIST_ITEM.match(line)
            and not _COLUMNS.match(line.strip())
        ):
            continue
        heading = re.match(r"^\s*(#{1,6})\s+(.*)$", line)
        if heading:
            level = len(heading.group(1))
            headings = [h for h in headings if h[0] < level]
            title = heading.group(2)
            says = _NEEDS_SECTION.search(title) is not None
            # the file's first heading is its title (`# Sequence Modeling Benchmarks and ...`)
            aside = seen and not says and _ASIDE_SECTION.search(title) is not None
            headings.append((level, says, aside, _MACHINE.search(title) is not None))
            seen = True
            intro = lead = False
            continue
        if _NEEDS_LINE.match(line):
            intro = True
            lead = False
            continue
        if _NEEDS_LEAD.match(line) or (
            number in list_leads and _NEEDS_WORDS.search(line) is not None
        ):
            # `Requirements: Ubuntu 16.04;` then one item a line, or a sentence saying that the
            # list under it is needed (`You must have pre-installed PyTorch library.`): a needs
            # section
            intro = True
            lead = False
        says = intro or any(h[1] for h in headings)
        if not says and (any(h[2] for h in headings) or line.lstrip().startswith("|")):
            continue  # a News, citation or results section, or a table row: no prose to read
        # links reduced to their text, inline code and strong emphasis to their content
        # (`Python **3.7**`)
        plain = _LINK.sub(r"\1", _LINK.sub(r"\1", line)).replace("`", "").replace("**", "")
        if line.strip() and not _LIST_ITEM.match(line):
            lead = _MACHINE.search(plain) is not None
        # a list item's own `(tested on 3.8.5)` qualifies the item; it still names a requirement
        item = _LIST_ITEM.match(line) is not None
        machine = any(h[3] for h in headings) or (
            lead if item else _MACHINE.search(plain) is not None
        )
        out.append((number, plain, says, number in opens, machine))
    return tuple(out)


def prose_torch(text: str) -> list[tuple[int, str]]:
    """(line, requirement) of the torch family a README's prose names with a version, where
    no command does: the first of each name in a section that says what the project needs
    (Requirements, Prerequisites, Dependencies, Installation, Environment, Setup, or a
    `Requirements:` line), else the first in any prose line when that is all there is. A floor
    (`>=`, `+`, `or above`) is a range; a version alone is that release. The project PyTorch is
    the distribution torch; outside such a section only its prose form is read (`PyTorch 0.4.1`,
    not the pin `torch==0.4.1`, which prose_pins reads where the line installs it).

    >>> prose_torch("## Prerequisites\\n- [PyTorch](https://pytorch.org/) 1.0 or higher\\n")
    [(2, 'torch>=1.0')]
    >>> prose_torch("### News\\nNow PyTorch v1.0.1.\\n## Requirements\\n* Pytorch = 1.0.0\\n")
    [(4, 'torch==1.0.0')]
    >>> prose_torch("Runs with pytorch 1.0.0+.\\n"), prose_torch("Tested with torch==1.4.0.\\n")
    ([(1, 'torch>=1.0.0')], [])
    >>> prose_torch("## Requirements\\n* pytorch (>= 0.4.1)\\n* torchvision>=0.2.0\\n")
    [(2, 'torch>=0.4.1'), (3, 'torchvision>=0.2.0')]
    >>> prose_torch("## Requirements\\n* CUDA == 11.1\\n* Pytorch == '1.7.0+cu110'\\n")
    [(3, 'torch==1.7.0+cu110')]

    A version outside the section that describes the authors' machine (`## Tested
    Configurations`, `tested on:` above a list) does not pin an unversioned requirement item.

    >>> prose_torch("## Requirements\\n- PyTorch\\n## Tested Configurations\\n- PyTorch 2.0\\n")
    [(2, 'torch')]
    """
    lines = _prose_lines(text)
    unpinned = _unpinned_items(lines)
    for in_section in (True, False):
        out: dict[str, tuple[int, str]] = {}
        for number, line, says, _, machine in lines:
            if in_section and not says:
                continue
            if not in_section and machine and "torch" in unpinned:
                continue  # `## Tested Configurations`: the authors' machine, not a requirement
            for m in _PROSE_TORCH.finditer(line):
                name = m.group(2).lower()
                if not in_section and (m.group(4) or name != "torch"):
                    continue
                if _RULED_OUT.match(line, m.end()):
                    continue  # `PyTorch 0.4 is no longer supported`
                floor = m.group(4) in {">=", "≥"} or m.group(7) is not None
                if m.group(8) and not floor:  # `PyTorch 1.2-1.4`: through 1.4's releases
                    spec = f"{name}>={m.group(5)},{_through(m.group(8))}"
                elif floor and m.group(9):  # `PyTorch >= 1.2, < 1.5`: the range it names
                    upper = "<=" if m.group(9) in {"<=", "≤"} else "<"
                    spec = f"{name}>={m.group(5)},{upper}{m.group(10)}"
                else:
                    # `Pytorch == '1.7.0+cu110'`: the local label names the wheel's build
                    label = "" if floor else m.group(6) or ""  # a floor takes no label
                    spec = f"{name}{'>=' if floor else '=='}{m.group(5)}{label}"
                out.setdefault(name, (number, spec))
        if "torch" in out:
            return sorted({**unpinned, **out}.values())
    return sorted(unpinned.values()) if "torch" in unpinned else []


# A list item that is a package and one version: `- numpy (1.14.3)`, `* tqdm 4.19.7`, `- scipy:
# 1.5.2`, `- numpy==1.16` (links reduced to their text first).
_ITEM_VERSION: Final = re.compile(
    r"^\s*+[-*+]\s++([A-Za-z][\w.-]*+)\s*+(?:\(\s*+v?(\d+(?:\.\d+)++)\s*+\)|(?:==?|:)?\s*+v?"
    r"(\d+(?:\.\d+)++))\s*+$"
)
# What such a list names that pip installs, never a system part: a name among PyPI's most
# downloaded projects (matrices/pypi-top-names.txt), not pip or a build tool.
_NOT_PINNED: Final = frozenset({"pip", "cmake", "setuptools", "wheel", "torch"})


def list_pins(text: str, torch_line: int) -> list[tuple[int, str]]:
    """(line, `name==version`) of the other items of the list a README's torch version stands
    in (the list's contiguous items around `torch_line`), each a package and one exact version,
    where the name is one of PyPI's most downloaded projects (matrices/pypi-top-names.txt): not
    the system's parts (Python, CUDA, Ubuntu, gcc) nor a name PyPI gives another project.

    >>> list_pins("### Required\\n- [numpy](x) (1.14.3)\\n- PyTorch (1.0.1)\\n- Ubuntu 16.04\\n"
    ...           "- tqdm 4.19.7\\n\\n### Optional\\n- pandas (0.22.0)\\n", 3)
    [(2, 'numpy==1.14.3'), (5, 'tqdm==4.19.7')]
    """
    lines = text.splitlines()
    if not 1 <= torch_line <= len(lines) or not _LIST_ITEM.match(lines[torch_line - 1]):
        return []
    start = end = torch_line - 1
    while start > 0 and _LIST_ITEM.match(lines[start - 1]):
        start -= 1
    while end + 1 < len(lines) and _LIST_ITEM.match(lines[end + 1]):
        end += 1
    out: list[tuple[int, str]] = []
    for index in range(start, end + 1):
        plain = _LINK.sub(r"\1", lines[index]).replace("`", "").replace("**", "")
        m = _ITEM_VERSION.match(plain)
        name = canonicalize_name(m.group(1)) if m is not None else ""
        if m is not None and name in _top_names() and name not in _NOT_PINNED:
            out.append((index + 1, f"{m.group(1)}=={m.group(2) or m.group(3)}"))
    return out[:_MAX_LIST_PINS]


_MAX_LIST_PINS: Final = 32


@functools.cache
def _top_names() -> frozenset[str]:
    return frozenset(canonicalize_name(n) for n in load_names())


def _through(version: str) -> str:
    """The upper bound of a span that ends at `version`: all of X.Y's releases, or X.Y.Z itself.

    >>> _through("1.4"), _through("1.4.0")
    ('<1.5', '<=1.4.0')
    """
    parts = version.split(".")
    if len(parts) == 2:
        return f"<{parts[0]}.{int(parts[1]) + 1}"
    return f"<={version}"


# The project named as a word, no version after it: `a PyTorch install`, `- torchvision`.
_PROJECT_WORD: Final = re.compile(
    r"(?<![\w./-])(py)?(torch(?:vision|audio)?)(?![\w-]|\.\w)", re.IGNORECASE
)


# A sentence that says the project is to be installed: `Then follow the installation
# instructions for a version of PyTorch`, `PyTorch must be installed`, `This code requires PyTorch`,
# `This experiment depends on pytorch`.
_INSTALL_SENTENCE: Final = re.compile(r"(?i)\b(install\w*|requires?|needs?|depends? on)\b")


def _unpinned_items(lines: tuple[ProseLine, ...]) -> dict[str, tuple[int, str]]:
    """name: (line, name) of the first line in a section that says what the project needs to
    name each of the torch family with no version: a list item (`- a PyTorch install
    (pytorch.org)`, `* torchvision`), a line that is only the name (`Pytorch` under
    `### Dependencies`), or a sentence that says to install it (`Then follow the installation
    instructions for a version of [PyTorch](http://pytorch.org/)`, over two lines of a
    paragraph too): a requirement with no version, the newest release as of the date.

    >>> _unpinned_items(_prose_lines("## Requirements\\n- A [PyTorch](https://x.org) install\\n"))
    {'torch': (2, 'torch')}
    >>> _unpinned_items(_prose_lines("### Dependencies\\npython 2.7\\n\\nPytorch\\n"))
    {'torch': (4, 'torch')}
    >>> _unpinned_items(_prose_lines("## Install\\nFollow the install steps for\\nPyTorch.\\n"))
    {'torch': (3, 'torch')}
    >>> _unpinned_items(_prose_lines("## Usage\\n- pytorch\\n")), _unpinned_items(_prose_lines(
    ...     "## Requirements\\n- [tensorboard-pytorch](x)\\nUse pytorch.\\n"))
    ({}, {})
    """
    out: dict[str, tuple[int, str]] = {}
    previous: tuple[int, str] = (0, "")
    for number, line, says, _, _ in lines:
        # the sentence this line ends: from the last full stop of the line before it in the
        # same paragraph (a prose line wrapped where the author's editor wrapped it)
        before = previous[1].rsplit(". ", 1)[-1] if previous[0] == number - 1 else ""
        previous = (number, line)
        if not says:
            continue
        item = _LIST_ITEM.match(line) is not None
        versioned = {m.group(2).lower() for m in _PROSE_TORCH.finditer(line)}
        for m in _PROJECT_WORD.finditer(line):
            name = m.group(2).lower()
            sentence = before + " " + line[: m.start()].rsplit(". ", 1)[-1]
            alone = re.fullmatch(r"[\W_]*", line[: m.start()] + line[m.end() :]) is not None
            if (
                (item or alone or _INSTALL_SENTENCE.search(sentence))
                and name not in versioned
                and not _RULED_OUT.match(line, m.end())
            ):
                out.setdefault(name, (number, name))
    return out


# A sentence about the authors' machine, not the one the install makes.
_TESTED: Final = re.compile(r"(?i)\b(tested|verified|developed|works?)\b")
# Python named by its major only: `Python 3`, `python3` (not `Python 3.6`, `python3.7`).
_MAJOR_PYTHON: Final = re.compile(r"(?i)(?<![\w./-])python\s*+[:-]?\s*+[23](?![\w.]*\d)")


def prose_python(text: str, *, sentences: bool = True) -> tuple[int, str] | None:
    """(line, X.Y) of the python a README's prose names exactly: the first `Python X.Y` in a
    section that says what the project needs, else the first on a prose line that also names
    a PyTorch version or says it was tested (`tested with python 3.6, Pytorch 1.0.1`, `only
    tested in Python3.6`), unless the section names Python by its major only. A floor (`Python
    3.6+`), a span (`Python 3.10-3.12`) or a bare major (`Python 3`) names none. Where an
    install command names torch (sentences=False), only a list item or the line that introduces
    a code block (`Installation (using python 3.9 virtual env):`) names the python: a sentence
    (`tested on Python 3.7.6, Pytorch 1.5.1`) describes the authors' machine beside the route
    the command takes. `Python version 3.6` and `a Python installation version 2.7`
    name 3.6 and 2.7. Outside such a section, a step that makes the environment with a python
    (`Create a Python3.8 environment`) names it before any other line, commands or not.

    >>> prose_python("## Prerequisites\\nPyTorch for Python 3.\\n1. Install Python 3.6.\\n")
    (3, '3.6')
    >>> prose_python("Tested under Python 3.6, PyTorch 0.4.1.\\n")
    (1, '3.6')
    >>> prose_python("Only tested in Python3.6.\\n"), prose_python("Written in Python 3.6.\\n")
    ((1, '3.6'), None)
    >>> prose_python("## Requirements\\n- Python 3\\n## Tested on\\n- Python 3.11, PyTorch 2.0\\n")
    >>> prose_python("## Setup\\n- python 3.6+\\n")
    >>> prose_python("## Requirements\\nPython 2.7 / 3.+\\n")
    >>> prose_python("## Setup\\nTested on Python 3.7, PyTorch 1.5.1.\\n", sentences=False)
    >>> prose_python("## Setup\\nWith python 3.9:\\n\\n```\\npip install x\\n```", sentences=False)
    (2, '3.9')
    """
    lines = _prose_lines(text)
    major = False  # the section names python by its major only (`- Python 3`, `python3`)
    for in_section in (True, False):
        if not in_section and major:
            break  # any Python 3: a tested machine's minor elsewhere is not a requirement
        if not in_section and (made := _made_environment(lines)) is not None:
            return made
        for number, line, says, introduces, _ in lines:
            if in_section and not says:
                continue
            if in_section:
                bare = _MAJOR_PYTHON.search(line)
                major = major or bare is not None
                if not sentences and bare is not None and _TESTED.search(line, bare.end()):
                    # `- Python3 (tested with Python 3.7.3)` beside a command that installs
                    # torch: any Python 3 is needed, the minor is the authors' machine
                    continue
            if not sentences and not (
                in_section and (_LIST_ITEM.match(line) or (introduces and not _TESTED.search(line)))
            ):
                continue
            if not in_section and not (
                _TESTED.search(line)
                or any(
                    m.group(1) for m in _PROSE_TORCH.finditer(line) if m.group(2).lower() == "torch"
                )
            ):
                continue
            for m in _PROSE_PYTHON.finditer(line):
                if _RULED_OUT.match(line, m.end()):
                    continue  # `Python 2.7 is not supported`
                if m.group(1) in {">=", "≥"} or m.group(3) is not None:
                    break  # a floor or a span: the line names no python
                return number, m.group(2)
    return None


# A step that makes the environment with a python (`Create a Python3.8 environment`, `set up a
# python 3.9 virtual env`): the python the install makes, not a machine it was tested on.
_MAKES_ENV: Final = re.compile(
    r"(?i)\b(?:create|make|set\s*up|build)\s+(?:an?\s+|the\s+|your\s+|new\s+){0,2}python\s*"
    r"(\d\.\d++)(?![\w.]{0,16}\d)\s+(?:conda\s+|virtual\s+)?(?:env\b|environment|virtualenv|venv)"
    # a step that opens by installing that python (`First, install Python 3.7 (with Anaconda).`,
    # `1. Install Python 3.6`); not a floor (`Install Python 3.6+`, `3.6 or newer`)
    r"|^\W*+(?:\d+[.)]\s*+)?(?:(?:first|then|next)\s*+,?\s*+)?install\s++python\s*+(\d\.\d++)"
    r"(?![\w.]{0,16}\d)(?!\s*+(?:\+|or\b|and\b|-|\u2013|to\b))"
)


def _made_environment(lines: tuple[ProseLine, ...]) -> tuple[int, str] | None:
    """(line, X.Y) of the first step that makes an environment with that python.

    >>> _made_environment(_prose_lines("0. (Create a Python3.8 environment, and activate)\\n"))
    (1, '3.8')
    >>> _made_environment(_prose_lines("Tested with a Python 3.8 environment.\\n"))
    >>> _made_environment(_prose_lines("First, install Python 3.7 (recommended with Anaconda).\\n"))
    (1, '3.7')
    >>> _made_environment(_prose_lines("1. Install Python 3.6+\\n2. Install Python 3.8 or newer"))
    """
    for number, line, *_ in lines:
        m = _MAKES_ENV.search(line)
        if m is not None:
            return number, m.group(1) or m.group(2)
    return None


# A code line that is only a repository's git URL (`git@github.com:owner/name.git`): the clone
# step with its `git clone` left out, where the next step enters that clone (`cd name/`).
_BARE_GIT_URL: Final = re.compile(
    r"^([ \t]*+)((?:git@[\w.-]++:|https://(?:github\.com|gitlab\.com|bitbucket\.org)/)"
    r"[\w.-]++/([\w.-]+?)\.git)[ \t]*+$"
)


def _bare_clones(block: str) -> str:
    """A block's lines that are only a git URL, read as the `git clone URL` they stand for where
    the next line enters the clone (`cd pytorch-yolov3/`), and no continued line (`git clone
    --recursive \\`) ends just before.

    >>> _bare_clones("git@github.com:o/pytorch-yolov3.git\\ncd pytorch-yolov3/")
    'git clone git@github.com:o/pytorch-yolov3.git\\ncd pytorch-yolov3/'
    >>> _bare_clones("https://github.com/o/ByteTrack.git\\npip install -e .")  # no cd: a link
    'https://github.com/o/ByteTrack.git\\npip install -e .'
    """
    lines = block.split("\n")
    for index, line in enumerate(lines):
        m = _BARE_GIT_URL.match(line)
        if m is None or (index and lines[index - 1].rstrip().endswith("\\")):
            continue
        following = next((ln.strip() for ln in lines[index + 1 :] if ln.strip()), "")
        if re.fullmatch(rf"cd\s+(?:\./)?{re.escape(m.group(3))}/?", following):
            lines[index] = f"{m.group(1)}git clone {m.group(2)}"
    return "\n".join(lines)


# A link to one CPython release's folder or installer on python.org (`https://www.python.org/ftp/
# python/3.10.11/`, `.../3.8.10/python-3.8.10-amd64.exe`): the python a setup step installs.
_PYTHON_ORG_LINK: Final = re.compile(r"(?i)\bpython\.org/ftp/python/(\d\.\d+)\.\d+\b")


def _linked_python(text: str) -> tuple[int, str] | None:
    """(line, X.Y) of the CPython a README links to download from python.org, where every such
    link names the same minor (links to two pythons name none).

    >>> _linked_python("## Setup\\n### Install Python 310\\nhttps://www.python.org/ftp/python/3.10.11/\\n")
    (3, '3.10')
    >>> _linked_python("python.org/ftp/python/3.8.10/ or python.org/ftp/python/3.9.13/")
    """
    found = [
        (number, m.group(1))
        for number, line in enumerate(text.splitlines()[:_MAX_LINKED_LINES], start=1)
        for m in _PYTHON_ORG_LINK.finditer(line)
    ]
    return found[0] if found and len({minor for _, minor in found}) == 1 else None


_MAX_LINKED_LINES: Final = 20_000


# A line in a shell block that labels the commands under it as one GPU's or CUDA's (`2080:`,
# `# cuda 11`, `# For RTX 3090 (CUDA 11.1):`, `CPU only:`), not a command itself.
_GPU_WORD: Final = re.compile(
    r"(?i)(?<![\w.])(cuda\d*|cu\d{2,3}|rtx|gtx|titan|[vah]100|[1-4]0[5-9]0(\s*ti)?|gpu|cpu|rocm)(?!\w)"
)
_LABEL: Final = re.compile(r"^\s*(?:#+\s*(.{1,60}?)|([^\s#$][^:\uff1a]{0,40}?)\s*[:\uff1a])\s*$")
_INSTALL_WORD: Final = re.compile(r"\b(pip3?|conda|mamba)\s+install\b", re.IGNORECASE)
_TORCH_WORD: Final = re.compile(r"(?<![\w./-])(py)?torch(?![\w-])", re.IGNORECASE)


def _installs_torch(line: str) -> bool:
    """Whether a line installs torch: an install command, then torch after it. Two searches,
    not one pattern with `.*` between them, so a line of `pip install pip install ...` is
    read in linear time.

    >>> _installs_torch("pip install torch==1.9.0"), _installs_torch("pip install torchvision")
    (True, False)
    """
    command = _INSTALL_WORD.search(line)
    return command is not None and _TORCH_WORD.search(line, command.end()) is not None


# A block that makes an environment of its own (the start of a route, not a further step).
_CREATES_ENV: Final = re.compile(
    r"\b(?:conda|mamba|micromamba)\s+(?:env\s+)?create\b|\bpython[\d.]*\s+-m\s+venv\b"
    r"|\bvirtualenv\s|\buv\s+venv\b"
)


def _block_installs_torch(block: str) -> bool:
    r"""Whether a block's command lines (backslash continuations joined) install torch.

    >>> _block_installs_torch("pip install \\\n  --index-url https://x \\\n  torch==2.7.1")
    True
    """
    return any(_installs_torch(ln) for ln in re.sub(r"\\\r?\n", " ", block).split("\n"))


def gpu_choices(block: str) -> list[tuple[int, int, str]]:
    """(first, end, label) line indexes of each part of a shell block that a GPU or CUDA label
    introduces and that installs torch: from the label to the next blank line or label.

    >>> gpu_choices("2080:\\nconda install pytorch=1.8\\n\\n3080:\\npip install torch==1.9.0\\nls")
    [(0, 2, '2080'), (3, 6, '3080')]
    >>> gpu_choices("# install torch\\nconda install pytorch\\n# CUDA for numba\\npip install dgl")
    []
    """
    lines = block.split("\n")
    starts = []
    for index, line in enumerate(lines):
        m = _LABEL.match(line)
        label = m and (m.group(1) or m.group(2))
        if label and _GPU_WORD.search(label):
            starts.append((index, label.strip()))
    out: list[tuple[int, int, str]] = []
    for index, label in starts:
        end = index + 1
        while end < len(lines) and lines[end].strip() and not _LABEL.match(lines[end]):
            end += 1
        if any(_installs_torch(ln) for ln in lines[index + 1 : end]):
            out.append((index, end, label))
    return out


def _block_label(lines: list[str], first: int) -> str | None:
    """The GPU or CUDA a fenced block's introducing line names (`to install for CUDA 10.1`,
    `### CPU only`), where the block opens at line `first` (1-based, after its fence line).

    >>> _block_label(["For CUDA 10.0:", "```bash", "pip install torch"], 3)
    'For CUDA 10.0:'
    >>> _block_label(["Install it:", "```bash", "pip install torch"], 3)
    """
    index = first - 3  # the line above the fence
    if index + 1 >= len(lines) or not _opens_fence(lines[index + 1]):
        return None
    while index >= 0 and not lines[index].strip():
        index -= 1
    if index < 0 or _opens_fence(lines[index]):
        return None
    label = lines[index].strip().lstrip("#").strip()
    return label if len(label) <= 80 and _GPU_WORD.search(label) else None


# Prose that gives a step for an earlier version of the code, not the current one: `If you need
# to use an earlier version of the codebase, ...`, `for the old version`, `the legacy branch`.
# Not an older version of PyTorch (`requires an older version of PyTorch`): of the code.
_LEGACY: Final = re.compile(
    r"(?i)\b(?:earlier|older|old|previous|legacy)\s+(?:"
    r"(?:version|release)s?\s+of\s+(?:the|this|our)\s+(?:code|codebase|repo|repository|project)"
    r"|(?:commit|branch|codebase)s?)\b"
)


def _legacy_step(lines: list[str], first: int) -> str | None:
    """The sentence of the paragraph a block (or a line's inline command) opens under, where it
    says the step is for an earlier version of the code; None otherwise. The paragraph: the
    block's own line (an inline command) and the prose lines above it, up to a blank line or a
    heading, at most four.

    >>> _legacy_step(["If you need an earlier version of the codebase,", "run:", ""], 3)
    'If you need an earlier version of the codebase,'
    >>> _legacy_step(["Install the newest version:", ""], 2)
    """
    start = max(0, first - 5)
    paragraph: list[str] = []
    for index in range(first - 1, start - 1, -1):
        if index >= len(lines):
            continue
        line = lines[index]
        if index < first - 1 and (not line.strip() or line.lstrip().startswith("#")):
            break
        paragraph.append(line)
    for line in reversed(paragraph):
        if _LEGACY.search(line):
            return line.strip()
    return None


def _alternative(found: Evidence, line: int, label: str, block: str) -> None:
    text = "; ".join(ln.strip() for ln in block.split("\n") if ln.strip())
    found.warnings.append(
        f"{found.source}:{line}: an alternative route ({excerpt(label, 80)}), not the default "
        "one envgen imports (the README's first GPU-specific choice): "
        f"{excerpt(text, MAX_ALTERNATIVE_CHARS)}"
    )


def _first_gpu_choice(block: str, first: int, found: Evidence, *, chosen: bool) -> tuple[str, bool]:
    """The block with each GPU-labeled torch install after the README's first one blanked out
    (its lines kept empty, so the line numbers stand): where a README offers a route per GPU or
    CUDA (`2080:` then `3080:`, a fullwidth colon too; `# cuda10` then `# cuda 11`), the first
    is the default one; the others are listed as alternatives. Returns the block and whether a
    choice was read."""
    lines = block.split("\n")
    for start, end, label in gpu_choices(block):
        if not chosen:
            chosen = True
            continue
        _alternative(found, first + start, label, "\n".join(lines[start + 1 : end]))
        lines[start:end] = [""] * (end - start)
    return "\n".join(lines), chosen


# A comment that heads an optional step of a README's block: `# Optional: Apex for faster
# training`, `# (optional) install apex`.
_OPTIONAL: Final = re.compile(r"(?i)^\s*#+\s*\(?optional\b")


def _optional_spans(lines: list[str]) -> list[tuple[int, int]]:
    """(first, end) of each optional step's lines: after a `# Optional:` comment, through the
    next comment or blank line."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        if not _OPTIONAL.match(lines[i]):
            i += 1
            continue
        end = i + 1
        while end < len(lines) and lines[end].strip() and not lines[end].lstrip().startswith("#"):
            end += 1
        spans.append((i + 1, end))
        i = end
    return spans


def _installs_torch_outside_optional(blocks: list[tuple[int, str]]) -> bool:
    """Some torch install of the README's blocks is not in an optional step."""
    for _, block in blocks:
        lines = block.split("\n")
        optional = {k for a, b in _optional_spans(lines) for k in range(a, b)}
        if any(_installs_torch(ln) for k, ln in enumerate(lines) if k not in optional):
            return True
    return False


def _without_optional(block: str, first: int, found: Evidence, *, elsewhere: bool) -> str:
    """The block with the torch installs of its optional steps blanked out (a `# Optional:`
    comment, through the next comment or blank line), where the README installs torch outside
    them too (`elsewhere`): an extra the reader may add (`conda install pytorch=1.1` for apex),
    not the install path; listed as alternatives. The step's other lines stay."""
    if not elsewhere:
        return block
    lines = block.split("\n")
    for start, end in _optional_spans(lines):
        dropped = [k for k in range(start, end) if _installs_torch(lines[k])]
        if not dropped:
            continue
        text = "; ".join(lines[k].strip() for k in dropped)
        found.warnings.append(
            f"{found.source}:{first + start - 1}: an optional step "
            f"({excerpt(lines[start - 1].strip(), 80)}), not the install path envgen imports: "
            f"{excerpt(text, MAX_ALTERNATIVE_CHARS)}"
        )
        for k in dropped:
            lines[k] = ""
    return "\n".join(lines)


def _read_package_list(first: int, specs: list[str], manager: str, found: Evidence) -> None:
    """A fenced package list, each line read as a conda match spec or a pip requirement."""
    for offset, spec in enumerate(specs):
        where = f"{found.source}:{first + offset} (a package list)"
        python = re.fullmatch(r"(?i)python\s*==?\s*(\d+\.\d+[\d.]*)", spec)
        if manager == "conda":
            conda_spec(spec, found, where)
        elif python is not None:
            set_python(found, python.group(1), where)  # the interpreter, not a PyPI package
        elif re.fullmatch(r"(?i)python\s*[23]?", spec):
            continue  # `Python3`: the interpreter, by its major only
        else:
            # the project's name is the distribution torch (PyPI's `pytorch` is a stub that
            # refuses to install)
            pip_requirement(re.sub(r"(?i)^pytorch(?=$|[\s=<>~!])", "torch", spec), found, where)


# The folder a project's documentation lives in, at its checkout's root.
_DOCS_FOLDER: Final = re.compile(r"(?i)docs?|documentation|wiki")


def _docs_root(folder: Path, checkout: Path | None) -> Path | None:
    """The checkout root of an install guide in docs/ (docs/source/guide/install.rst): its
    commands run in the clone (`Navigate to the source code directory and run pip install -r
    requirements.txt`), so an include its own folder lacks is looked for at the root."""
    root = root_holding(folder, checkout)
    if root is None:
        return None
    return (
        root
        if _DOCS_FOLDER.fullmatch(folder.resolve().relative_to(root.resolve()).parts[0])
        else None
    )


def read(text: str, found: Evidence, base: Path | None) -> None:
    """A README's shell and batch blocks, each read as an install script, then its package
    lists, each read as the environment it lists; where neither names torch, the exact pins its
    install prose names."""
    run_from_root(found, base, lambda folder: _docs_root(folder, found.checkout))
    chosen = False  # a GPU-labeled torch install was read: later labeled ones are alternatives
    lines = text.splitlines()
    blocks = shell_blocks(text)
    elsewhere = _installs_torch_outside_optional(blocks)
    made = False  # a block made an environment and torch is installed
    for first, block in blocks:
        legacy = _legacy_step(lines, first)
        if legacy is not None and _block_installs_torch(block):
            steps = "; ".join(ln.strip() for ln in block.split("\n") if ln.strip())
            found.warnings.append(
                f"{found.source}:{first}: a step for an earlier version of the code "
                f"({excerpt(legacy, 80)}), not the install path envgen imports: "
                f"{excerpt(steps, MAX_ALTERNATIVE_CHARS)}"
            )
            continue
        label = _block_label(lines, first)
        if label is not None and _block_installs_torch(block):
            # after a block that made an environment and installed torch, a block for one GPU
            # or CUDA that makes one again (`On the clusters with CUDA 11.8, ...: conda create
            # ...`) is another route; one that does not is a further step (`2. Install
            # PyTorch with CUDA 11.3 support`)
            if chosen or (made and _CREATES_ENV.search(block)):
                _alternative(found, first, label, block)
                continue
            chosen = True
        kept, chosen = _first_gpu_choice(block, first, found, chosen=chosen)
        kept = _without_optional(kept, first, found, elsewhere=elsewhere)
        # each block is run from the repository's root (a Docs block's `cd docs` is not the
        # Installation block's folder); a folder outside it, or a clone, stays as before
        found.cwd = None
        parse_shell(_bare_clones(kept), found, base, env={}, offset=first - 1)
        made = made or (found.torch is not None and bool(_CREATES_ENV.search(kept)))
    for first, block in batch_blocks(text):
        parse_shell(block, found, base, env={}, offset=first - 1, script="bat")
    commanded = found.torch is not None
    for first, specs, manager in package_lists(text):
        _read_package_list(first, specs, manager, found)
    if found.torch is None and not found.companions:
        pins = prose_pins(text)
        if pins:
            found.warnings.append(
                f"{found.source}:{pins[0][0]}: no install command names torch; the exact pins "
                "the install prose names are read as `pip install "
                + " ".join(p for _, p in pins)
                + "` (no index named: PyPI's build)"
            )
        for number, requirement in pins:
            pip_requirement(requirement, found, f"{found.source}:{number} (prose)")
    if found.torch is None and not found.companions:
        named = prose_torch(text)
        if named:
            found.warnings.append(
                f"{found.source}:{named[0][0]}: no install command names torch; the version the "
                "README's prose names is read as `pip install "
                + " ".join(f"'{r}'" if ">" in r else r for _, r in named)
                + "` (from prose, not a command: check it; no index named: PyPI's build)"
            )
        for number, requirement in named:
            pip_requirement(requirement, found, f"{found.source}:{number} (prose)")
        exact = [n for n, r in named if r.startswith("torch==")]
        for number, requirement in list_pins(text, exact[0]) if exact else []:
            # the list's other versions (`- [numpy](...) (1.14.3)`): exact pins beside its torch,
            # which rule out pythons their wheels lack
            pip_requirement(requirement, found, f"{found.source}:{number} (prose)")
    if found.python is None:
        said = prose_python(text, sentences=not commanded) or _linked_python(text)
        if said is not None:
            found.warnings.append(
                f"{found.source}:{said[0]}: python {said[1]} is read from the README's prose "
                "(no command names it)"
            )
            set_python(found, said[1], f"{found.source}:{said[0]} (prose)")
