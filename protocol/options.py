"""The options of a bingwa engine (docs/protocol.md, Options) and what
``setoption`` does with them.

An engine offers: ``UCI_Variant`` and the parameters of every variant
(listed once each, with the union of their ranges), the standard options
(``Hash``, ``MultiPV``, ``Move Overhead``, ``Ponder``), ``Dialect``, and the
bot's own options. A bot that declares a standard name overrides the
standard declaration and receives the value. Names compare loosely
(``wire.normalise_name``). Every refusal is a CommandError whose message is
the error line; nothing changes on a refusal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bingwa.bots.base import Bot, BotOption, BotOptionError
from bingwa.engine import find_variant, variant_names
from bingwa.engine.errors import VariantError
from bingwa.engine.timeman import DEFAULT_MOVE_OVERHEAD_MS
from bingwa.engine.variant import REGISTRY, OptionSpec, Variant

from .dialect import Dialect
from .dialects import DIALECT_NAMES, find_dialect
from .wire import CommandError, normalise_name


def standard_options() -> list[BotOption]:
    """The options every bingwa engine offers besides the variant ones."""
    return [
        BotOption("Hash", "spin", 16, 1, 65536, help="transposition table size in MB"),
        BotOption("MultiPV", "spin", 1, 1, 256, help="principal variations reported"),
        BotOption("Move Overhead", "spin", DEFAULT_MOVE_OVERHEAD_MS, 0, 5000,
                  help="ms kept back from every deadline for lag"),
        BotOption("Ponder", "check", False, help="the GUI may send go ponder"),
    ]


def variant_option(specs: list[OptionSpec], current: Any) -> BotOption:
    """One option for a variant parameter shared by several variants (the
    union of their ranges and choices); its default is ``current`` when set."""
    first = specs[0]
    default = first.default if current is None else current
    kinds = {s.kind for s in specs}
    if kinds == {"int"}:
        low = min(s.low for s in specs)
        high = max(s.high for s in specs)
        return BotOption(first.name, "spin", default, low, high, help=first.help)
    if kinds == {"choice"}:
        choices = tuple(dict.fromkeys(c for s in specs for c in s.choices))
        return BotOption(first.name, "combo", default, vars=choices, help=first.help)
    if kinds == {"bool"}:
        return BotOption(first.name, "check", bool(default), help=first.help)
    return BotOption(first.name, "string", str(default), help=first.help)


@dataclass(frozen=True)
class Outcome:
    """What a ``setoption`` did: ``new_game`` when the game must start over
    (another variant or dialect), ``note`` an info line to write."""

    new_game: bool = False
    note: str | None = None


class EngineOptions:
    """The option state of one engine: variant, parameters, dialect,
    standard values; the bot keeps its own."""

    def __init__(self, bot: Bot, variant: str, dialect: str | Dialect) -> None:
        self.bot = bot
        self.dialect = find_dialect(dialect) if isinstance(dialect, str) else dialect
        self.variant: Variant = find_variant(self.dialect.fixed_variant or variant)
        self.dialect.check_variant(self.variant)
        # every parameter set so far (by its spec name), for every variant
        self.variant_params: dict[str, Any] = dict(self.variant.options)
        self.values: dict[str, Any] = {
            normalise_name(o.name): o.default for o in standard_options()
        }

    def listed(self) -> list[BotOption]:
        """Every option, in the order of the handshake."""
        listed: list[BotOption] = []
        if self.dialect.fixed_variant is None:
            listed.append(BotOption("UCI_Variant", "combo", self.variant.name,
                                    vars=tuple(variant_names())))
            listed += self.variant_params_listed()
        bot_options = {normalise_name(o.name): o for o in self.bot.options()}
        for option in standard_options():
            listed.append(bot_options.pop(normalise_name(option.name), option))
        listed.append(BotOption("Dialect", "combo", self.dialect.name, vars=DIALECT_NAMES))
        listed += bot_options.values()
        return listed

    def variant_params_listed(self) -> list[BotOption]:
        groups: dict[str, list[OptionSpec]] = {}
        for name in variant_names():
            for spec in REGISTRY[name].option_specs:
                groups.setdefault(spec.name, []).append(spec)
        return [variant_option(specs, self.variant_params.get(name))
                for name, specs in groups.items()]

    def set(self, name: str, value: str | None) -> Outcome:
        """Apply ``setoption name <name> value <value>`` (CommandError)."""
        key = normalise_name(name)
        if key == "uci variant":
            return self._set_variant(value)
        if key == "dialect":
            return self._set_dialect(value)
        params = {normalise_name(o.name): o for o in self.variant_params_listed()}
        if key in params:
            return self._set_variant_param(params[key], value)
        own = {normalise_name(o.name): o for o in self.bot.options()}
        standard = {normalise_name(o.name): o for o in standard_options()}
        if key not in own and key not in standard:
            if self.dialect.unknown_options_are_errors:
                raise CommandError(f"unknown option {name!r}")
            if key in self.dialect.silent_options:
                return Outcome()
            return Outcome(note=f"option {name!r} is not supported by bingwa; ignored")
        try:
            if key in own:
                self.bot.set_option(own[key].name, value)
                parsed = own[key].parse(value)
            else:
                parsed = standard[key].parse(value)
        except BotOptionError as exc:
            raise CommandError(str(exc)) from None
        if key in standard:
            self.values[key] = parsed
        return Outcome()

    def search_ignores(self, name: str) -> bool:
        """Setting ``name`` cannot touch a running search: an option the
        server does not know (where that is no error), or a standard one
        the bot does not declare (its value is read when a search starts)."""
        key = normalise_name(name)
        if key in ("uci variant", "dialect") or key in {
                normalise_name(o.name) for o in self.variant_params_listed()}:
            return False
        if key in {normalise_name(o.name) for o in self.bot.options()}:
            return False
        if key in {normalise_name(o.name) for o in standard_options()}:
            return True
        return not self.dialect.unknown_options_are_errors

    def _set_variant(self, value: str | None) -> Outcome:
        """A variant name or alias, optionally with ``param=value`` words."""
        if not value or not value.split():
            raise CommandError("UCI_Variant needs a variant name")
        words = value.split()
        cls = REGISTRY.get(words[0].lower())
        if cls is None:
            raise CommandError(
                f"unknown variant {words[0]!r} (known: {', '.join(variant_names())})")
        params = dict(self.variant_params)
        names = {normalise_name(s.name): s.name for s in cls.option_specs}
        for word in words[1:]:
            opt, sep, val = word.partition("=")
            if not sep or normalise_name(opt) not in names:
                raise CommandError(
                    f"{word!r} is not an option of {cls.name} "
                    f"(options: {', '.join(names.values()) or 'none'})")
            params[names[normalise_name(opt)]] = val
        return self._use_variant(cls.name, params)

    def _set_variant_param(self, option: BotOption, value: str | None) -> Outcome:
        try:
            parsed = option.parse(value)
        except BotOptionError as exc:
            raise CommandError(str(exc)) from None
        return self._use_variant(self.variant.name, {**self.variant_params, option.name: parsed})

    def _use_variant(self, name: str, params: dict[str, Any]) -> Outcome:
        """Variant ``name`` with the parameters that apply to it."""
        own = {s.name for s in REGISTRY[name].option_specs}
        try:
            variant = find_variant(name, **{k: v for k, v in params.items() if k in own})
            self.dialect.check_variant(variant)
        except VariantError as exc:
            raise CommandError(str(exc)) from None
        changed = variant != self.variant
        self.variant = variant
        self.variant_params = {**params, **variant.options}
        return Outcome(new_game=changed)

    def _set_dialect(self, value: str | None) -> Outcome:
        try:
            dialect = find_dialect(value or "")
        except VariantError as exc:
            raise CommandError(str(exc)) from None
        if dialect is self.dialect:
            return Outcome()
        if dialect.fixed_variant is not None:
            self.variant = find_variant(dialect.fixed_variant)
            self.variant_params.update(self.variant.options)
        self.dialect = dialect
        return Outcome(new_game=True)
