"""The subset of Jinja2 that envgen's templates use, rendered without importing Jinja2.

Jinja2's import costs ~25 ms, which `envgen lock --pins-only` and `envgen check` paid for two
short templates (envgen starts in well under 0.1 s otherwise). `parse` reads a template whose
every tag is in the subset below; `render` fills it exactly as Jinja2 does with envgen's
environment (StrictUndefined, trim_blocks, lstrip_blocks, keep_trailing_newline, no
autoescape). Anything else raises `UnsupportedTemplateError` and `render_template` renders that
template with Jinja2.
tests/unit/render/test_templating.py renders every template in templates/, and the whitespace and
branching cases, both ways and compares the bytes.

The subset: text; `{{ e }}`; `{% if e %}`, `{% else %}`, `{% endif %}`; `{% for x in e %}`,
`{% for x, y in e %}`, `{% endfor %}`; where `e` is a name, a dotted name (`job.variant`: the
attribute, else the key), a quoted string without backslashes, or `e == e`. No filters, tests,
calls, whitespace-control signs, comments, `loop` or for-else.

`render_template` is what the renderers call: a template of templates/ by name, through the
subset when it can, else through Jinja2 (imported then). It reads only templates/; `parse` and
`render` do no I/O. This module imports nothing of envgen but errors and infra.resources.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Final, TypeAlias, cast

from envgen.errors import RenderError
from envgen.infra.resources import TEMPLATES_DIR

if TYPE_CHECKING:
    import jinja2


class UnsupportedTemplateError(ValueError):
    """The template uses Jinja2 beyond the subset (render it with Jinja2)."""


# A tag, with quoted strings inside it kept whole (`{{ '}}' }}`).
_TAG: Final = re.compile(
    r"""\{\{(?P<var>(?:'[^']*'|"[^"]*"|[^'"}]|\}(?!\}))*)\}\}"""
    r"""|\{%(?P<block>(?:'[^']*'|"[^"]*"|[^'"%]|%(?!\}))*)%\}"""
)
_NAME: Final = r"[A-Za-z_][A-Za-z0-9_]*"
_DOTTED: Final = re.compile(rf"{_NAME}(?:\.{_NAME})*")
_STRING: Final = re.compile(r"""'[^'\\]*'|"[^"\\]*\"""")
_FOR: Final = re.compile(rf"for\s+({_NAME})(?:\s*,\s*({_NAME}))?\s+in\s+(.+)", re.DOTALL)
# Jinja2's constants and operators: never plain names there.
_KEYWORDS: Final = frozenset(
    (
        *("and", "or", "not", "in", "is", "if", "else", "elif", "for", "endfor", "endif"),
        *("true", "false", "none", "True", "False", "None", "loop", "recursive", "with"),
        *("without", "import", "include", "block", "extends", "macro", "call", "set", "raw"),
        "filter",
    )
)


class _Name:
    __slots__ = ("parts",)

    def __init__(self, parts: tuple[str, ...]) -> None:
        self.parts = parts


class _Literal:
    __slots__ = ("value",)

    def __init__(self, value: str) -> None:
        self.value = value


class _Equals:
    __slots__ = ("left", "right")

    def __init__(self, left: _Name | _Literal, right: _Name | _Literal) -> None:
        self.left, self.right = left, right


_Expr: TypeAlias = "_Name | _Literal | _Equals"


class _Output:
    __slots__ = ("expr",)

    def __init__(self, expr: _Expr) -> None:
        self.expr = expr


class _If:
    __slots__ = ("body", "orelse", "test")

    def __init__(self, test: _Expr, body: tuple[_Node, ...], orelse: tuple[_Node, ...]) -> None:
        self.test, self.body, self.orelse = test, body, orelse


class _For:
    __slots__ = ("body", "items", "targets")

    def __init__(self, targets: tuple[str, ...], items: _Expr, body: tuple[_Node, ...]) -> None:
        self.targets, self.items, self.body = targets, items, body


_Node: TypeAlias = "str | _Output | _If | _For"


class Template:
    """A parsed template (plain classes, not dataclasses: each of those costs ~1 ms to define)."""

    __slots__ = ("body", "name")

    def __init__(self, name: str, body: tuple[_Node, ...]) -> None:
        self.name, self.body = name, body


def _atom(text: str) -> _Name | _Literal:
    text = text.strip()
    if _STRING.fullmatch(text):
        return _Literal(text[1:-1])
    if _DOTTED.fullmatch(text):
        parts = tuple(text.split("."))
        if parts[0] in _KEYWORDS:
            msg = f"{text!r}: a Jinja2 keyword or constant"
            raise UnsupportedTemplateError(msg)
        return _Name(parts)
    msg = f"expression {text!r}"
    raise UnsupportedTemplateError(msg)


def _expr(text: str) -> _Expr:
    # `==` outside quotes only: split on the first one that is not inside a string.
    pieces = re.split(r"""('[^']*'|"[^"]*")""", text)
    for i, piece in enumerate(pieces):
        if i % 2 == 0 and "==" in piece:
            at = piece.index("==")
            left = "".join(pieces[:i]) + piece[:at]
            right = piece[at + 2 :] + "".join(pieces[i + 1 :])
            return _Equals(_atom(left), _atom(right))
    return _atom(text)


def _tokens(source: str) -> Iterable[tuple[str, str]]:
    """("text", s), ("var", s) and ("block", s), with lstrip_blocks and trim_blocks applied."""
    if "{#" in source or "\r" in source:
        msg = "comments or carriage returns"
        raise UnsupportedTemplateError(msg)
    pos = 0
    line_starting = True
    for match in _TAG.finditer(source):
        text = source[pos : match.start()]
        block = match["block"]
        inner = block if block is not None else match["var"]
        if inner[:1] in "-+" or inner[-1:] in "-+":
            msg = f"whitespace control in {match[0]!r}"
            raise UnsupportedTemplateError(msg)
        if block is not None:  # lstrip_blocks: the whitespace from the line's start to the tag
            start = text.rfind("\n") + 1
            if (start > 0 or line_starting) and text[start:].isspace():
                text = text[:start]
        if text:
            yield "text", text
        pos = match.end()
        line_starting = False
        if block is not None:
            yield "block", block.strip()
            if source.startswith("\n", pos):  # trim_blocks: the newline after a block tag
                pos += 1
                line_starting = True
        else:
            yield "var", inner.strip()
    if "{{" in source[pos:] or "{%" in source[pos:]:
        msg = "an unclosed tag"
        raise UnsupportedTemplateError(msg)
    if source[pos:]:
        yield "text", source[pos:]


def parse(source: str, name: str = "<template>") -> Template:
    """The template's tree; UnsupportedTemplateError when it uses Jinja2 beyond the subset."""
    stack: list[tuple[str, object, list[_Node], list[_Node] | None]] = [("top", None, [], None)]
    for kind, value in _tokens(source):
        kind_top, head, body, orelse = stack[-1]
        into = orelse if orelse is not None else body
        if kind == "text":
            into.append(value)
        elif kind == "var":
            into.append(_Output(_expr(value)))
        elif value.startswith("if "):
            stack.append(("if", _expr(value[3:]), [], None))
        elif value == "else" and kind_top == "if" and orelse is None:
            stack[-1] = (kind_top, head, body, [])
        elif found := _FOR.fullmatch(value):
            targets = tuple(t for t in found.groups()[:2] if t is not None)
            if any(t in _KEYWORDS for t in targets):
                msg = f"loop variable in {value!r}"
                raise UnsupportedTemplateError(msg)
            stack.append(("for", (targets, _expr(found[3])), [], None))
        elif value in ("endif", "endfor") and kind_top == value[3:]:
            stack.pop()
            node: _Node
            if kind_top == "if":
                node = _If(cast("_Expr", head), tuple(body), tuple(orelse or ()))
            else:
                loop = cast("tuple[tuple[str, ...], _Expr]", head)
                node = _For(loop[0], loop[1], tuple(body))
            _, _, outer_body, outer_else = stack[-1]
            (outer_else if outer_else is not None else outer_body).append(node)
        else:
            msg = f"tag {{% {value} %}}"
            raise UnsupportedTemplateError(msg)
    if len(stack) != 1:
        msg = f"an unclosed {{% {stack[-1][0]} %}}"
        raise UnsupportedTemplateError(msg)
    return Template(name, tuple(stack[0][2]))


def _value(expr: _Expr, scope: Mapping[str, object], template: str) -> object:
    if isinstance(expr, _Literal):
        return expr.value
    if isinstance(expr, _Equals):
        return _value(expr.left, scope, template) == _value(expr.right, scope, template)
    first, *rest = expr.parts
    if first not in scope:
        msg = f"template {template} failed: '{first}' is undefined"
        raise RenderError(msg)
    value = scope[first]
    for part in rest:
        if hasattr(value, part):
            value = getattr(value, part)
        elif isinstance(value, Mapping) and part in value:
            value = value[part]
        else:
            msg = f"template {template} failed: {type(value).__name__} has no attribute {part!r}"
            raise RenderError(msg)
    return value


def _render(nodes: tuple[_Node, ...], scope: dict[str, object], out: list[str], name: str) -> None:
    for node in nodes:
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, _Output):
            out.append(str(_value(node.expr, scope, name)))
        elif isinstance(node, _If):
            branch = node.body if _value(node.test, scope, name) else node.orelse
            _render(branch, scope, out, name)
        else:
            items = _value(node.items, scope, name)
            for item in items:  # type: ignore[attr-defined]
                inner = dict(scope)
                if len(node.targets) == 1:
                    inner[node.targets[0]] = item
                else:
                    try:
                        inner.update(zip(node.targets, item, strict=True))
                    except (TypeError, ValueError):
                        msg = f"template {name} failed: cannot unpack {item!r}"
                        raise RenderError(msg) from None
                _render(node.body, inner, out, name)


def render(template: Template, context: Mapping[str, object]) -> str:
    """The template filled from `context`; RenderError for an undefined name (StrictUndefined)."""
    out: list[str] = []
    _render(template.body, dict(context), out, template.name)
    return "".join(out)


@functools.cache
def _environment() -> jinja2.Environment:
    import jinja2  # noqa: PLC0415 - ~55 ms; only commands that render files need it (not `envgen list`)

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # noqa: S701 - these are not HTML
    )


@functools.cache
def _subset_template(template: str) -> Template | None:
    """`template` parsed into the subset; None when it needs Jinja2 (or is missing:
    Jinja2 then says so)."""
    try:
        source = (TEMPLATES_DIR / template).read_text(encoding="utf-8")
    except OSError:
        return None
    try:
        return parse(source, template)
    except UnsupportedTemplateError:
        return None


def render_template(template: str, /, **context: object) -> str:
    """Render one template with StrictUndefined; a failure is a RenderError.

    A template within envgen.render.templating's subset of Jinja2 (every shipped one today) is
    rendered there, to the same bytes, without importing Jinja2 (~25 ms); any other with Jinja2.
    """
    parsed = _subset_template(template)
    if parsed is not None:
        return render(parsed, context)
    environment = _environment()
    import jinja2  # noqa: PLC0415 - see _environment (imported there first: free here)

    try:
        return environment.get_template(template).render(**context)
    except jinja2.TemplateError as exc:
        msg = f"template {template} failed: {exc}"
        raise RenderError(msg) from None
