"""The runtime matrix rows (envgen.model.matrix) against their schema (envgen.model.matrix_schema).

Commands use the runtime rows, built from the validated JSON without pydantic; pydantic's models
validate the YAML and define matrices/schema.json. A field added to one and not the other, a
default or a type that differs, fails here.
"""

from __future__ import annotations

import inspect
import json

import pytest
from pydantic import BaseModel, ValidationError

from envgen.infra.resources import MATRICES_DIR
from envgen.model import matrix as runtime
from envgen.model import matrix_schema as schema


def _schema_models() -> dict[str, type[BaseModel]]:
    return {
        name: value
        for name, value in vars(schema).items()
        if isinstance(value, type)
        and issubclass(value, BaseModel)
        and value.__module__ == schema.__name__
        and name != "StrictModel"
    }


def _annotations(cls: type) -> dict[str, str]:
    """Each field's annotation as written (a string: both modules defer annotations)."""
    found: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        found.update({k: str(v) for k, v in inspect.get_annotations(klass).items()})
    return found


SCHEMA_MODELS = _schema_models()


def test_every_schema_model_has_a_runtime_row_and_back() -> None:
    rows = {
        n for n, v in vars(runtime).items() if isinstance(v, type) and issubclass(v, runtime.Row)
    }
    assert set(SCHEMA_MODELS) == rows - {"Row"}
    assert len(SCHEMA_MODELS) >= 14


@pytest.mark.parametrize("name", sorted(SCHEMA_MODELS))
def test_runtime_row_has_the_schema_fields(name: str) -> None:
    model = SCHEMA_MODELS[name]
    row: type[runtime.Row] = getattr(runtime, name)
    assert row.model_fields == tuple(model.model_fields), "same fields, same order"
    model_annotations = _annotations(model)
    row_annotations = _annotations(row)
    for field, info in model.model_fields.items():
        assert row_annotations[field] == model_annotations[field], field
        assert row._aliases.get(field, field.replace("_", "-")) == info.alias, field
        if info.is_required():
            assert field not in row._defaults, f"{field}: required in the schema"
        else:
            assert field in row._defaults, f"{field}: has a default in the schema"
            assert row._defaults[field] == info.get_default(), field


def test_the_runtime_matrix_dumps_as_the_validated_one() -> None:
    raw = runtime._read_raw(MATRICES_DIR)
    validated = schema.Matrix.model_validate(raw)
    rows = runtime.Matrix.from_json(validated.model_dump(mode="json"))
    assert rows.model_dump(mode="json") == validated.model_dump(mode="json")
    assert rows.model_dump(by_alias=True, mode="json") == validated.model_dump(
        by_alias=True, mode="json"
    )
    assert json.loads(json.dumps(rows.model_dump(mode="json"))) == validated.model_dump(mode="json")
    assert rows.extensions[0].model_dump(by_alias=True)["import"] == rows.extensions[0].import_name


def test_rows_are_frozen_hashable_and_compare_by_fields() -> None:
    a = runtime.Driver(cuda="12.1", linux="530.30.02", source="nvidia")
    b = runtime.Driver(cuda="12.1", linux="530.30.02", windows=None, source="nvidia")
    assert a == b
    assert hash(a) == hash(b)
    assert a != a.model_copy(update={"windows": "531.14"})
    assert a.model_copy(update={"windows": "531.14"}).windows == "531.14"
    assert repr(a) == "Driver(cuda='12.1', linux='530.30.02', windows=None, source='nvidia')"
    with pytest.raises(AttributeError, match="Driver is frozen: cannot set 'cuda'"):
        a.cuda = "12.2"  # type: ignore[misc]
    with pytest.raises(TypeError, match=r"missing fields \['source'\], unknown fields \['os'\]"):
        runtime.Driver(cuda="12.1", linux="530.30.02", os="linux")  # type: ignore[call-arg]


def test_model_validate_checks_through_the_schema() -> None:
    row = runtime.Release.model_validate(
        {"torch": "2.1.0", "torchvision": "0.16.0", "torchaudio": None, "python": ["3.11"]}
        | {"source": "test"}
    )
    assert isinstance(row, runtime.Release)
    assert row.python == ("3.11",)
    assert row.version.release == (2, 1, 0)
    with pytest.raises(ValidationError, match="python"):
        runtime.Release.model_validate(
            {"torch": "2.1.0", "torchvision": None, "torchaudio": None, "python": ["3.x"]}
            | {"source": "test"}
        )
    with pytest.raises(ValidationError, match="Extra inputs"):
        runtime.Driver.model_validate({"cuda": "1", "linux": "1", "source": "s", "os": "linux"})
