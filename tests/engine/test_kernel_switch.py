"""The switch between compiled and pure kernels (BINGWA_PURE,
BINGWA_REQUIRE_EXTENSIONS)."""

from __future__ import annotations

import pytest

from bingwa.engine import ExtensionMissingError, find_variant
from bingwa.engine.kernel import compiled_module
from bingwa.engine.oware import OwareRules


def test_missing_extension_is_none_by_default(monkeypatch):
    monkeypatch.delenv("BINGWA_REQUIRE_EXTENSIONS", raising=False)
    assert compiled_module("no_such_kernel") is None


def test_missing_extension_is_an_error_when_required(monkeypatch):
    monkeypatch.setenv("BINGWA_REQUIRE_EXTENSIONS", "1")
    with pytest.raises(ExtensionMissingError, match="bingwa.engine._no_such_kernel is missing"):
        compiled_module("no_such_kernel")


def test_pure_switch_selects_the_reference_rules(monkeypatch):
    monkeypatch.setenv("BINGWA_PURE", "1")
    variant = find_variant("oware")
    assert isinstance(variant.kernel, OwareRules) and not variant.compiled


def test_pure_switch_off_selects_the_compiled_rules(monkeypatch):
    monkeypatch.setenv("BINGWA_PURE", "0")
    if compiled_module("oware") is None:
        pytest.skip("compiled kernel not built")
    variant = find_variant("oware")
    assert variant.compiled and not isinstance(variant.kernel, OwareRules)
