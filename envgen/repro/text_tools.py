"""What the text tools of a shell pipeline print for one known line: `cut`, `sed 's/RE/REPL/'`
and `tr`, as string operations (envgen.repro.shell reads `$(echo $CUDA_VERSION | cut -d. -f1-2 |
sed 's/\\.//g')` through them). Each returns None where the real tool would do something this
module does not model (an escape, a range, a POSIX class, a back-reference, an empty match with
`g`): the value is then unknown, never a guess. Bounded: short patterns, few repeats, one line.
"""

from __future__ import annotations

import re
from typing import Final

# sed's pattern is Python's re on a short line: a short pattern with few repeats.
_MAX_SED: Final = 64
_MAX_REPEATS: Final = 2


def pipe_stages(command: str) -> list[str] | None:
    """`command` split at its top-level `|` (not `||`, not inside quotes); None where it holds a
    construct a pipeline of simple commands does not (`;`, `&`, a subshell)."""
    stages: list[str] = []
    current: list[str] = []
    quote = ""
    for i, ch in enumerate(command):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "|":
            if command[i - 1 : i] == "|" or command[i + 1 : i + 2] == "|":
                return None
            stages.append("".join(current).strip())
            current = []
            continue
        elif ch in ";&()<>":
            return None
        current.append(ch)
    stages.append("".join(current).strip())
    return None if quote or not all(stages) else stages


def stage_output(words: list[str], text: str) -> str | None:
    r"""One stage of a text pipeline on one line of text; None where envgen does not model it.

    >>> stage_output(["cut", "-d.", "-f1-2"], "11.0.3"), stage_output(["sed", r"s/\.//g"], "11.0")
    ('11.0', '110')
    >>> stage_output(["tr", "-d", "."], "11.8")
    '118'
    >>> stage_output(["tr", "[:upper:]", "[:lower:]"], "CU118")
    'cu118'
    >>> stage_output(["sed", r"s/\.[0-9]*$//"], "9.2.1"), stage_output(["cut", "-c1-2"], "118")
    ('9.2', '11')
    >>> stage_output(["wc"], "x"), stage_output(["sed", r"s/\(a\)/\1\1/"], "cab")
    (None, 'caab')
    """
    tool, args = (words[0], words[1:]) if words else ("", [])
    if tool == "cut":
        return _cut(args, text)
    if tool == "tr":
        return _tr(args, text)
    if tool == "sed" and len(args) == 1:
        return _sed(args[0], text)
    return None


def _fields(spec: str, count: int) -> list[int] | None:
    """cut's LIST (`1-2`, `1,3`, `2-`, `-2`) as 0-based indexes below `count`."""
    out: list[int] = []
    for part in spec.split(","):
        m = re.fullmatch(r"(\d{0,6})(-?)(\d{0,6})", part)
        if m is None or not (m.group(1) or m.group(3)) or (m.group(1) and int(m.group(1)) == 0):
            return None  # cut refuses field 0 (and a decreasing range, below)
        if m.group(1) and m.group(3) and int(m.group(3)) < int(m.group(1)):
            return None
        low = int(m.group(1)) if m.group(1) else 1
        high = (int(m.group(3)) if m.group(3) else count) if m.group(2) else low
        out.extend(i - 1 for i in range(max(low, 1), min(high, count) + 1))
    return sorted(set(out))


def _cut(args: list[str], text: str) -> str | None:
    delimiter, fields, chars = "\t", None, None
    i = 0
    while i < len(args):
        flag = args[i]
        value = flag[2:] if len(flag) > 2 else (args[i + 1] if i + 1 < len(args) else None)
        step = 1 if len(flag) > 2 else 2
        if value is None:
            return None
        if flag.startswith("-d"):
            delimiter = value
        elif flag.startswith("-f"):
            fields = value
        elif flag.startswith("-c"):
            chars = value
        else:
            return None
        i += step
    if chars is not None:
        picked = _fields(chars, len(text))
        return None if picked is None else "".join(text[i] for i in picked)
    if fields is None or len(delimiter) != 1:
        return None
    parts = text.split(delimiter)
    if len(parts) == 1:
        return text  # a line without the delimiter is printed whole
    picked = _fields(fields, len(parts))
    return None if picked is None else delimiter.join(parts[i] for i in picked)


_TR_CLASSES: Final = {
    "[:upper:]": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "[:lower:]": "abcdefghijklmnopqrstuvwxyz",
    "[:digit:]": "0123456789",
}


def _tr_set(text: str) -> str:
    for name, chars in _TR_CLASSES.items():
        text = text.replace(name, chars)
    return text


def _tr(args: list[str], text: str) -> str | None:
    if len(args) == 2 and args[0] == "-d":
        gone = _tr_set(args[1])
        if not gone or re.search(r"[\\\-\[]", gone):
            return None  # an escape (`\n`), a range (`a-z`) or another class: not modelled
        return "".join(c for c in text if c not in set(gone))
    if len(args) == 2 and not args[0].startswith("-"):
        a, b = _tr_set(args[0]), _tr_set(args[1])
        if not a or not b or re.search(r"[\\\-\[]", a + b):
            return None
        b = b + b[-1] * (len(a) - len(b))
        return text.translate(str.maketrans(a, b[: len(a)]))
    return None


def _sed(script: str, text: str) -> str | None:
    r"""`s/RE/REPL/[g]` with any delimiter, RE a basic regular expression (`\.`, `[0-9]*`, `^`,
    `$`, `\(...\)` groups) and REPL with `&` and `\1` references to them."""
    m = re.fullmatch(r"s(.)((?:\\.|(?!\1).)*)\1((?:\\.|(?!\1).)*)\1(g?)", script)
    if m is None or len(m.group(2)) > _MAX_SED:
        return None
    if len(re.findall(r"\*|\\\{", m.group(2))) > _MAX_REPEATS:
        return None  # each repeat multiplies the backtracking: a few, as sed scripts have
    if re.search(r"\\[1-9]|\\\{[^}]*\d{4}", m.group(2)):
        return None  # a back-reference in the pattern (not regular: backtracking), a huge count
    future_set = "[" in m.group(2) and re.search(r"\[\[|--|&&|~~|\|\|", m.group(2))
    if "[[:" in m.group(2) or "\\&" in m.group(3) or future_set:
        # a POSIX class, a literal `&`, or a set Python warns of a future syntax in (`[[`,
        # `--` inside brackets): not modelled
        return None
    pattern = _bre(m.group(2))
    replacement = re.sub(r"\\(\d)", r"\\g<\1>", m.group(3).replace("&", r"\g<0>"))
    if pattern is None:
        return None
    try:
        if m.group(4) and re.match(pattern, "") is not None:
            return None  # `s/a*/X/g`: sed and Python place empty matches differently
        return re.sub(pattern, replacement, text, count=0 if m.group(4) else 1)
    except (re.error, IndexError, OverflowError, RecursionError):
        return None


def _bre(pattern: str) -> str | None:
    r"""A POSIX basic regular expression as Python's: `\(` `\)` `\{` `\}` are the operators,
    the bare characters literal; an extension (`\+`, `\|`) and a repeated group are not
    modelled."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            if nxt == ")" and pattern.startswith(("*", "\\{"), i + 2):
                return None  # a repeated group (`\(a*\)*`): backtracking without bound
            if nxt in "(){}":
                out.append(nxt)
            elif nxt in ".*[]^$\\/":
                out.append("\\" + nxt)
            else:
                return None
            i += 2
            continue
        out.append("\\" + ch if ch in "(){}+?|" else ch)
        i += 1
    return "".join(out)
