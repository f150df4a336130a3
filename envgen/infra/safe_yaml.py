"""Bounded YAML loading for files a cloned repository ships (project.yaml, committed locks).

PyYAML's safe loader is safe from code execution but not from size: aliases let a 400-byte
"billion laughs" file stand for millions of nodes. A composed document shares each aliased node,
so it costs memory in proportion to the text; it is every walk over the built value (a repr in
an error message, a validator's loop) that explodes. `load_bounded` composes the document, counts
the nodes it stands for with each alias expanded (memoized: linear in the text), refuses more
than `max_nodes`, refuses recursive aliases and deep nesting, and only then builds the value.
This module must not import any envgen module.
"""

from __future__ import annotations

from typing import Final

import yaml

MAX_NODES: Final = 200_000
MAX_DEPTH: Final = 100
# libyaml's loader where PyYAML was built with it; the characters PyYAML's reader refuses.
_FAST_LOADER: Final = getattr(yaml, "CSafeLoader", None)
_NON_PRINTABLE: Final = yaml.reader.Reader.NON_PRINTABLE


class YamlBombError(ValueError):
    """The document stands for too many nodes, nests too deeply, or refers to itself."""


def _expanded_size(root: yaml.Node, max_nodes: int) -> int:
    """Nodes in the document with every alias expanded (each distinct node counted once)."""
    sizes: dict[int, int] = {}
    # Iterative post-order walk: a deep document must not hit Python's recursion limit here.
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    active: set[int] = set()
    while stack:
        node, depth, done = stack.pop()
        key = id(node)
        if done:
            active.discard(key)
            children = _children(node)
            total = 1 + sum(sizes[id(c)] for c in children)
            if total > max_nodes:
                msg = (
                    f"the YAML stands for more than {max_nodes} values once its aliases "
                    "(*name) are expanded (an alias bomb?); write the values out instead"
                )
                raise YamlBombError(msg)
            sizes[key] = total
            continue
        if key in sizes:
            continue
        if key in active:
            msg = (
                "an alias (*name) refers to a node that contains it (a recursive document); "
                "remove the alias"
            )
            raise YamlBombError(msg)
        if depth > MAX_DEPTH:
            msg = f"the YAML nests more than {MAX_DEPTH} levels deep; flatten it"
            raise YamlBombError(msg)
        active.add(key)
        stack.append((node, depth, True))
        stack.extend((c, depth + 1, False) for c in _children(node) if id(c) not in sizes)
    return sizes[id(root)]


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def load_bounded(
    text: str, *, max_nodes: int = MAX_NODES, shipped: bool = False
) -> tuple[yaml.Node | None, object]:
    """Compose `text` (one document), check its expanded size, then build it: (node, value).

    `shipped`: the text is one of envgen's own data files (matrices/), not a file a repository or
    user supplies. Those are composed by libyaml (PyYAML's C parser) where it is built in, ~10x
    faster than the pure-Python parser (era.yaml: ~50 ms -> ~5 ms a lock); whenever it refuses
    the text, or the text holds a character PyYAML's reader refuses, the pure-Python loader reads
    it again, so every error, message and limit stays PyYAML's own. Untrusted text always goes
    through the pure-Python parser, whose failures under the fuzzers' memory and time limits are
    Python exceptions.

    Raises:
        yaml.YAMLError: the text is not valid YAML.
        YamlBombError: too many nodes with aliases expanded, too deep, or recursive.
        ValueError, OverflowError: a scalar YAML types but cannot build (the date 2022-13-45).
    """
    if shipped and _FAST_LOADER is not None and _NON_PRINTABLE.search(text) is None:
        fast = _FAST_LOADER(text)
        try:
            node = fast.get_single_node()
            if node is None:
                return None, None
            _expanded_size(node, max_nodes)
            return node, fast.construct_document(node)
        except yaml.YAMLError:
            pass  # read again below, for PyYAML's own message
        finally:
            fast.dispose()
    loader = yaml.SafeLoader(text)
    try:
        try:
            node = loader.get_single_node()
        except RecursionError:
            msg = f"the YAML nests more than {MAX_DEPTH} levels deep; flatten it"
            raise YamlBombError(msg) from None
        if node is None:
            return None, None
        _expanded_size(node, max_nodes)
        return node, loader.construct_document(node)
    finally:
        loader.dispose()


__all__ = ["MAX_DEPTH", "MAX_NODES", "YamlBombError", "load_bounded"]
