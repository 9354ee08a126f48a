"""DESIGN's layers: a module only imports modules of its own layer or below (every import, at
module level or inside a function, or for a type checker only), and the import graph of tne_ai
has no cycle at run time (an import under ``if TYPE_CHECKING:`` is never run)."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "tne_ai"


def _modules():
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _type_only(tree):
    """The nodes inside ``if TYPE_CHECKING:`` blocks of a module's tree."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                and node.test.id == "TYPE_CHECKING":
            for inner in node.body:
                out.update(id(n) for n in ast.walk(inner))
    return out


def _imports(name, path, modules, type_only=True):
    """The tne_ai modules that module ``name`` imports (with ``type_only`` False, not those
    imported for a type checker only)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = set() if type_only else _type_only(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in modules else target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m in modules and m != name}


def _cycles(graph):
    """The strongly connected components of more than one module (iterative Tarjan)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        out.append(sorted(component))
    return out


def test_the_import_graph_has_no_cycle():
    modules = _modules()
    graph = {name: _imports(name, path, modules, type_only=False)
             for name, path in modules.items()}
    assert "tne_ai.matches.tournament" in _imports("tne_ai", modules["tne_ai"], modules)
    assert "tne_ai.matches.tournament" not in graph["tne_ai"]     # its TYPE_CHECKING import
    assert "tne_ai.agents.base" in graph["tne_ai.agents.external"]
    assert "tne_ai.agents.external" in graph["tne_ai.agents.builtin"]
    assert _cycles(graph) == []


# DESIGN.md, the layers, bottom first; a module belongs to the longest prefix that names it.
# tne_ai/__init__.py (the facade's lazy names) is above them all.
LAYERS = [
    ("tne_ai.errors", "tne_ai.limits"),
    ("tne_ai.core",),
    ("tne_ai.position",),
    ("tne_ai.search",),
    ("tne_ai.api", "tne_ai.protocol"),
    ("tne_ai.agents",),
    ("tne_ai.interop",),
    ("tne_ai.matches",),
    ("tne_ai.web",),
    ("tne_ai.cli", "tne_ai.__main__"),   # the command line; `python -m tne_ai` runs it
]


def _layer(module):
    """The rank of module's layer (None for the package's own __init__)."""
    best = None
    for rank, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                if best is None or len(prefix) > best[0]:
                    best = (len(prefix), rank)
    return None if best is None else best[1]


def _upward(graph):
    """Every import of a module from a layer above its own: (importer, imported)."""
    return sorted((a, b) for a, targets in graph.items() for b in targets
                  if a != "tne_ai" and b != "tne_ai" and _layer(b) > _layer(a))


def test_every_module_has_a_layer():
    assert [m for m in _modules() if m != "tne_ai" and _layer(m) is None] == []


def test_no_module_imports_a_layer_above_its_own():
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    assert "tne_ai.core.state" in graph["tne_ai.search.mcts"]   # the graph sees imports
    assert _upward(graph) == []


def test_an_upward_import_is_found(tmp_path):
    """A rules kernel that imports the search (planted in a copy of the graph)."""
    modules = _modules()
    graph = {name: set(_imports(name, path, modules)) for name, path in modules.items()}
    graph["tne_ai.core.rules.apply"].add("tne_ai.search.session")
    graph["tne_ai.position"].add("tne_ai.core.state")            # downward: allowed
    assert _upward(graph) == [("tne_ai.core.rules.apply", "tne_ai.search.session")]
    assert _layer("tne_ai.protocol.server") == _layer("tne_ai.api") < _layer("tne_ai.agents")
    graph["tne_ai.matches.train"].add("tne_ai.cli.base")          # the library on its CLI
    assert _upward(graph) == [("tne_ai.core.rules.apply", "tne_ai.search.session"),
                              ("tne_ai.matches.train", "tne_ai.cli.base")]


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
