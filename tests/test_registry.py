"""The rule registry: @register with parameter specs, lookup, and the conformance check."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from vassal_adj.rules import registry as reg
from vassal_adj.rules.registry import REQUIRED, Param, Params, Registry, check_value


@pytest.fixture
def r() -> Registry:
    return Registry()


def test_register_infers_types_from_defaults(r: Registry) -> None:
    @r.register(
        "supply.trace_to_network",
        params={"max_path": 4, "network": ("road", "trail"), "sources": REQUIRED, "ratio": 0.5},
    )
    def trace(state: object) -> None:
        """Trace supply to a road or trail network."""

    impl = r.lookup("supply.trace_to_network")
    assert impl.func is trace
    assert dict(impl.types) == {"max_path": "int", "network": "list[str]", "sources": "any", "ratio": "float"}
    assert impl.defaults() == {"max_path": 4, "network": ("road", "trail"), "ratio": 0.5}
    assert impl.required() == ("sources",)
    assert impl.doc == "Trace supply to a road or trail network."
    assert impl.describe()["params"]["sources"] == {"type": "any", "default": "REQUIRED", "doc": ""}  # type: ignore[index]


def test_param_declares_type_and_doc(r: Registry) -> None:
    @r.register(
        "victory.hexes",
        params={"objectives": Param(REQUIRED, "list[str]", "objective hexes"), "bonus": Param(0, "float")},
    )
    def hexes() -> None:
        """VP for hexes."""

    impl = r.lookup("victory.hexes")
    assert impl.types["objectives"] == "list[str]" and impl.params["objectives"].required
    assert impl.params["objectives"].doc == "objective hexes"
    assert impl.types["bonus"] == "float"


@pytest.mark.parametrize("name", ["Supply", "supply trace", "1supply", "supply.", ""])
def test_bad_implementation_names(r: Registry, name: str) -> None:
    with pytest.raises(ValueError, match="bad implementation name"):
        r.register(name)


@pytest.mark.parametrize("key", ["impl", "rule_ref", "enabled", "MaxPath", "max-path"])
def test_bad_or_reserved_parameter_names(r: Registry, key: str) -> None:
    with pytest.raises(ValueError, match="bad parameter name"):
        r.register("x.y", params={key: 1})


def test_default_must_fit_declared_type(r: Registry) -> None:
    with pytest.raises(ValueError, match="default of 'n': expected int"):
        r.register("x.y", params={"n": Param("four", "int")})
    with pytest.raises(ValueError, match="unknown type 'dict'"):
        r.register("x.z", params={"n": Param(REQUIRED, "dict")})
    with pytest.raises(TypeError, match="cannot infer"):
        r.register("x.w", params={"n": None})


def test_reregistering_the_same_function_replaces_but_another_is_refused(r: Registry) -> None:
    def f() -> None:
        """F."""

    r.register("a.b")(f)
    r.register("a.b", params={"n": 1})(f)  # a hooks.py loaded twice
    assert r.lookup("a.b").defaults() == {"n": 1}

    def g() -> None:
        """G."""

    with pytest.raises(ValueError, match="already registered by .*f"):
        r.register("a.b")(g)


def test_lookup_unknown_lists_known(r: Registry) -> None:
    r.register("b.two")(lambda: None)
    r.register("a.one")(lambda: None)
    with pytest.raises(KeyError, match=r"unknown implementation 'c.three' \(known: a.one, b.two\)"):
        r.lookup("c.three")
    assert [i.name for i in r.catalog()] == ["a.one", "b.two"]
    assert "a.one" in r and "c.three" not in r


@pytest.mark.parametrize(
    ("type_", "value", "expected"),
    [
        ("int", 4, 4),
        ("float", 2, 2),
        ("float", 2.5, 2.5),
        ("str", "x", "x"),
        ("bool", True, True),
        ("list[str]", ["a", "b"], ("a", "b")),
        ("list[int]", [], ()),
        ("list", [1, "a"], (1, "a")),
        ("list[float]", [1, 2.5], (1, 2.5)),
        ("any", [[1]], ((1,),)),
    ],
)
def test_check_value_accepts_and_freezes(type_: str, value: object, expected: object) -> None:
    assert check_value(type_, value) == expected


@pytest.mark.parametrize(
    ("type_", "value", "message"),
    [
        ("int", "four", "expected int, got 'four' (str)"),
        ("int", True, "expected int, got True (bool)"),  # a bool is never a number
        ("int", 4.0, "expected int, got 4.0 (float)"),
        ("list[str]", ["a", 1], "expected list[str], got ['a', 1] (item 1 is 1, a int)"),
        ("list[str]", "road", "expected list[str], got 'road' (str)"),
        ("table", [1], "expected table, got [1] (list)"),
        ("bool", "yes", "expected bool, got 'yes' (str)"),
    ],
)
def test_check_value_rejects_with_value_and_type(type_: str, value: object, message: str) -> None:
    with pytest.raises(ValueError) as e:
        check_value(type_, value)
    assert str(e.value) == message


def test_tables_become_read_only() -> None:
    t = check_value("table", {"a": [1, 2]})
    assert isinstance(t, Mapping) and t["a"] == (1, 2)
    with pytest.raises(TypeError):
        t["b"] = 1  # type: ignore[index]


def test_params_read_only_by_key_and_attribute() -> None:
    p = Params({"max_path": 4})
    assert p["max_path"] == p.max_path == 4 and dict(p) == {"max_path": 4} and len(p) == 1
    with pytest.raises(AttributeError, match="no parameter 'max_pathh' \\(known: max_path\\)"):
        _ = p.max_pathh
    with pytest.raises(AttributeError, match="read-only"):
        p.max_path = 5


def test_required_is_one_sentinel() -> None:
    assert repr(REQUIRED) == "REQUIRED"
    assert type(REQUIRED)() is REQUIRED
    assert Param().required and not Param(0).required


def test_conformance_flags_missing_docstring(r: Registry) -> None:
    r.register("a.documented", params={"n": 1})(test_every_builtin_implementation_conforms)
    r.register("a.bare")(lambda: None)
    problems = reg.conformance_problems(r)
    assert len(problems) == 1 and problems[0].startswith("a.bare: no docstring")


def test_every_builtin_implementation_conforms() -> None:
    """The conformance test over the package registry (OpenSpiel's games_sim_test idea)."""
    registry = reg.load_builtin_rules()
    assert registry is reg.REGISTRY
    assert reg.conformance_problems() == []
    for impl in registry.catalog():
        assert impl.describe()["name"] == impl.name


def test_only_the_listed_rule_modules_register() -> None:
    """load_builtin_rules imports RULE_MODULES only: a module outside the list that registers
    would leave its implementations unknown to every pack."""
    import importlib
    import pkgutil

    import vassal_adj.rules as package

    registry = reg.load_builtin_rules()
    before = {impl.name for impl in registry.catalog()}
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
        importlib.import_module(info.name)
    assert {impl.name for impl in registry.catalog()} == before
    homes = {impl.func.__module__.removeprefix(f"{package.__name__}.") for impl in registry.catalog()}
    assert homes == set(reg.RULE_MODULES)  # and each listed module registers something


def test_the_table_of_homes_is_where_each_builtin_registers() -> None:
    """builtin_impls.BUILTIN_IMPLS names, for every built-in implementation, the module that
    registers it: the package registry imports that module when a pack names it."""
    from vassal_adj.rules.builtin_impls import BUILTIN_IMPLS

    registry = reg.load_builtin_rules()
    homes = {impl.name: impl.func.__module__.removeprefix("vassal_adj.rules.") for impl in registry.catalog()}
    assert homes == BUILTIN_IMPLS


def test_a_registry_imports_the_home_of_a_name_it_is_asked_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a home module in a temporary package, as a rule module is in vassal_adj.rules
    (tmp_path / "homes_pkg").mkdir()
    (tmp_path / "homes_pkg" / "__init__.py").write_text("")
    (tmp_path / "homes_pkg" / "rule_a.py").write_text(
        "from registry_under_test import REG\n\n@REG.register('x.a')\ndef a(state, ctx, p):\n    '''A.'''\n"
    )
    (tmp_path / "homes_pkg" / "rule_b.py").write_text(
        "from registry_under_test import REG\n\n@REG.register('x.b')\ndef b(state, ctx, p):\n    '''B.'''\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    calls: list[str] = []

    def import_all() -> None:
        calls.append("all")
        __import__("homes_pkg.rule_b")

    registry = reg.Registry({"x.a": "homes_pkg.rule_a"}, import_all)
    holder = type(sys)("registry_under_test")
    holder.REG = registry
    monkeypatch.setitem(sys.modules, "registry_under_test", holder)
    for name in ("homes_pkg.rule_a", "homes_pkg.rule_b"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    assert [i.name for i in registry.catalog()] == []
    assert registry.lookup("x.a").doc == "A." and calls == []  # its home only
    assert registry.lookup("x.b").doc == "B." and calls == ["all"]  # not in the table: everything
    with pytest.raises(KeyError, match="unknown implementation 'x.c' \\(known: x.a, x.b\\)"):
        registry.lookup("x.c")


def test_a_clash_with_a_builtin_not_imported_yet_is_still_found() -> None:
    # a pack's hooks.py registering a built-in's name: the built-in's module is imported first,
    # so the clash is the ValueError it is when every rule module is imported
    def trace(state: object, ctx: object, p: object) -> None:
        """Not the built-in."""

    with pytest.raises(ValueError, match="implementation 'supply.trace' is already registered by"):
        reg.REGISTRY.register("supply.trace")(trace)
