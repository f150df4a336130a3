"""envgen.render.templating renders its subset of Jinja2 to the same bytes as Jinja2 itself.

Jinja2, configured as envgen.render.templating configures it, is the reference: every case below, and
every template rendered by the real renderers (pins-only files of the golden scenarios, CI
workflows, Dockerfiles), is rendered both ways and compared.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from types import SimpleNamespace

import jinja2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envgen.errors import RenderError
from envgen.infra.resources import TEMPLATES_DIR
from envgen.model.matrix import load_matrix
from envgen.model.spec import load_spec
from envgen.render import templating
from envgen.render.ci import render_ci
from envgen.render.dockerfile import plan_dockerfiles
from envgen.render.indexes import IndexUrls
from envgen.render.plan import plan_pins_only

DATA = Path(__file__).parents[2] / "data"


def _jinja(source: str, context: Mapping[str, object]) -> str:
    return templating._environment().from_string(source).render(**context)


def _mine(source: str, context: Mapping[str, object]) -> str:
    return templating.render(templating.parse(source), context)


CASES: list[tuple[str, dict[str, object]]] = [
    ("plain text, no newline at the end", {}),
    ("{{ a }} and {{ b }}\n", {"a": 1, "b": None}),
    ("{% if a %}\nyes\n{% else %}\nno\n{% endif %}\nafter\n", {"a": ""}),
    ("{% if a %}\nyes\n{% else %}\nno\n{% endif %}\nafter\n", {"a": [0]}),
    ("  {% if a %}\n  x\n  {% endif %}\n", {"a": True}),
    ("\t{% for x in xs %}\n\t- {{ x }}\n\t{% endfor %}\n", {"xs": ["a", "b"]}),
    ("ab {% if a %}c{% endif %}\nd\n", {"a": True}),
    ("{{ a }} {% if a %}x{% endif %}\n  {% if a %}y{% endif %}\n", {"a": 2}),
    ("{% for x in xs %}{{ x }},{% endfor %}\n", {"xs": (1, 2, 3)}),
    ("{% for x in xs %}{{ x }}\n{% endfor %}{% if xs %}\n\n{% endif %}end", {"xs": []}),
    ("{% for k, v in kv %}\n{{ k }}={{ v }}\n{% endfor %}\n", {"kv": [("a", 1), ("b", 2)]}),
    ("{% for k, _ in kv %} {{ k }}{% endfor %}\n\n\nx", {"kv": [("a", 1), ("b", 2)]}),
    ("{% for o in os %}{% for t in o.tags %}[{{ t }}]{% endfor %}\n{% endfor %}", {}),
    ('{% if route == "conda" %}c{% else %}p{% endif %}\n', {"route": "conda"}),
    ("{% if 'pip' == route %}p{% endif %}|\n", {"route": "pip"}),
    ("${{ '{{' }} matrix.x {{ '}}' }}\n", {}),
    ("{{ job.variant }}/{{ m.key }}\n", {"m": {"key": "v"}}),
    ("{% if a %}{% if b %}ab{% else %}a{% endif %}{% endif %}\n", {"a": 1, "b": 0}),
    ("x\n   \n{% if a %}\n  \n{% endif %}\n", {"a": 1}),
    ("{% if a %}   {% endif %}", {"a": 1}),
]
for _source, _context in CASES:
    _context.setdefault("os", [SimpleNamespace(tags=["t1", "t2"]), SimpleNamespace(tags=[])])
    _context.setdefault("job", SimpleNamespace(variant="cu121"))


@pytest.mark.parametrize(("source", "context"), CASES)
def test_the_subset_renders_as_jinja2(source: str, context: dict[str, object]) -> None:
    assert _mine(source, context) == _jinja(source, context)


@pytest.mark.parametrize(
    "source",
    [
        "{{ a | upper }}",
        "{{ f() }}",
        "{# a comment #}",
        "{%- if a %}{% endif %}",
        "{% if a -%}{% endif %}",
        "{{- a }}",
        "{% for x in xs %}{{ loop.index }}{% endfor %}",
        "{% for x in xs %}{% else %}{% endfor %}",
        "{% set a = 1 %}",
        "{% include 'x' %}",
        "{% raw %}{% endraw %}",
        "{{ none }}",
        "{{ a + 1 }}",
        "{{ 'a\\'b' }}",
        "{% if a %}",
        "{{ a",
        "line\r\n",
        "{% if a != b %}{% endif %}",
        "{% if a and b %}{% endif %}",
    ],
)
def test_anything_else_is_left_to_jinja2(source: str) -> None:
    with pytest.raises(templating.UnsupportedTemplateError):
        templating.parse(source)


def test_an_undefined_name_fails_as_strict_undefined_does() -> None:
    parsed = templating.parse("{% for x in xs %}{{ x.missing }}{% endfor %}", "t.j2")
    with pytest.raises(RenderError, match=r"^template t\.j2 failed: 'xs' is undefined$"):
        templating.render(parsed, {})
    with pytest.raises(RenderError, match="str has no attribute 'missing'"):
        templating.render(parsed, {"xs": ["a"]})
    with pytest.raises(jinja2.UndefinedError):
        _jinja("{% for x in xs %}{{ x }}{% endfor %}", {})


def test_every_shipped_template_is_in_the_subset() -> None:
    """Each is rendered without Jinja2; one that grows beyond the subset falls back to it (this
    test then names it: extend the subset, or accept Jinja2's ~25 ms for that command)."""
    names = sorted(p.name for p in TEMPLATES_DIR.glob("*.j2"))
    assert "requirements.txt.j2" in names
    assert "Makefile.j2" in names
    for name in names:
        assert templating._subset_template(name) is not None, name


@pytest.fixture
def both_ways(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every render_template call renders with Jinja2 too and must give the same text."""
    rendered: list[str] = []
    subset_render = templating.render

    def compare(template: templating.Template, context: Mapping[str, object]) -> str:
        text = subset_render(template, context)
        assert text == templating._environment().get_template(template.name).render(**context)
        rendered.append(template.name)
        return text

    monkeypatch.setattr(templating, "render", compare)
    return rendered


SCENARIOS = sorted(p.name for p in (DATA / "specs").iterdir() if (p / "project.yaml").exists())


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_real_renders_match_jinja2(scenario: str, tmp_path: Path, both_ways: list[str]) -> None:
    shutil.copy(DATA / "specs" / scenario / "project.yaml", tmp_path / "project.yaml")
    spec = load_spec(tmp_path / "project.yaml")
    matrix = load_matrix(DATA / "matrix-mini")
    plan_pins_only(
        spec, matrix, out=tmp_path / "environments", urls=IndexUrls(), custom_command=None
    )
    for engine in ("github", "gitlab"):
        render_ci(spec, matrix, engine=engine, out=tmp_path, custom_command="make regen")
    assert {"requirements.txt.j2", "Makefile.j2"} <= set(both_ways)
    assert {"github-workflow.yml.j2", "gitlab-ci.yml.j2"} <= set(both_ways)


def test_dockerfiles_match_jinja2(tmp_path: Path, both_ways: list[str]) -> None:
    shutil.copy(Path(__file__).parents[3] / "project.yaml", tmp_path / "project.yaml")
    spec = load_spec(tmp_path / "project.yaml")
    plan_dockerfiles(spec, load_matrix(), out=tmp_path / "docker")
    assert "Dockerfile.j2" in both_ways


_LINES = st.lists(st.text(st.characters(blacklist_characters="\r{}%#"), max_size=12), max_size=4)


@settings(max_examples=60, deadline=None)
@given(header=_LINES, notes=_LINES, index_lines=_LINES, requirements=_LINES)
def test_requirements_template_matches_jinja2(
    header: list[str], notes: list[str], index_lines: list[str], requirements: list[str]
) -> None:
    context = {
        "header": header,
        "notes": notes,
        "index_lines": index_lines,
        "requirements": requirements,
    }
    parsed = templating._subset_template("requirements.txt.j2")
    assert parsed is not None
    want = templating._environment().get_template("requirements.txt.j2").render(**context)
    assert templating.render(parsed, context) == want


@settings(max_examples=60, deadline=None)
@given(
    header=_LINES,
    spec=st.from_regex(r"[a-z./-]{1,12}", fullmatch=True),
    variants=st.lists(st.from_regex(r"[a-z0-9-]{1,8}", fullmatch=True), max_size=4),
    aliases=st.lists(st.tuples(st.just("cu121"), st.just("cu121-*")), max_size=2),
)
def test_makefile_template_matches_jinja2(
    header: list[str], spec: str, variants: list[str], aliases: list[tuple[str, str]]
) -> None:
    context = {"header": header, "spec": spec, "variants": variants, "aliases": aliases}
    parsed = templating._subset_template("Makefile.j2")
    assert parsed is not None
    want = templating._environment().get_template("Makefile.j2").render(**context)
    assert templating.render(parsed, context) == want
