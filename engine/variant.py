"""Variants registered by name, with aliases and typed options.

    >>> v = find_variant("kalah", pits=4, seeds=3)
    >>> v.spec()
    'kalah pits=4 seeds=3'

A Variant owns one rule kernel (compiled where built, else pure) and the
notation of its moves and positions. ``Position`` (position.py) is the one
object the rest of bingwa plays through.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .errors import VariantError
from .game import Termination
from .kernel import compiled_module, use_compiled


@dataclass(frozen=True)
class OptionSpec:
    """One option of a variant: an integer in [low, high], a choice among
    names, or an on/off switch (``kind`` = 'int', 'choice' or 'bool')."""

    name: str
    kind: str
    default: Any
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 0
    help: str = ""

    def parse(self, value: Any) -> Any:
        """The option's canonical value, or VariantError naming what is wrong."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "on", "yes"):
                return True
            if text in ("0", "false", "off", "no"):
                return False
            raise VariantError(f"option {self.name} takes true or false, not {value!r}")
        if self.kind == "int":
            try:
                number = int(str(value).strip())
            except ValueError:
                raise VariantError(
                    f"option {self.name} takes a whole number, not {value!r}"
                ) from None
            if not self.low <= number <= self.high:
                raise VariantError(
                    f"option {self.name} must be in {self.low}..{self.high}, not {number}"
                )
            return number
        text = str(value).strip().lower()
        if text not in self.choices:
            raise VariantError(
                f"option {self.name} takes one of {', '.join(self.choices)}, not {value!r}"
            )
        return text


REGISTRY: dict[str, type[Variant]] = {}


def register(cls: type[Variant]) -> type[Variant]:
    for name in (cls.name, *cls.aliases):
        REGISTRY[name] = cls
    return cls


def variant_names() -> list[str]:
    """Canonical names of the registered variants, in registration order."""
    return list(dict.fromkeys(cls.name for cls in REGISTRY.values()))


def find_variant(name: str, **options: Any) -> Variant:
    """The variant registered under ``name`` (or an alias), with options.

    ``name`` may also be a whole spec such as ``"oware grandslam=capture"``.
    Option names accept ``-`` or ``_``.
    """
    words = name.split()
    if not words:
        raise VariantError("no variant named")
    key = words[0].lower()
    for word in words[1:]:
        opt, sep, value = word.partition("=")
        if not sep:
            raise VariantError(f"variant option {word!r} must be written name=value")
        options.setdefault(opt, value)
    try:
        cls = REGISTRY[key]
    except KeyError:
        raise VariantError(
            f"unknown variant {words[0]!r} (known: {', '.join(variant_names())})"
        ) from None
    return cls(**options)


class Variant:
    """A variant with its options. Subclasses set the class attributes and
    implement the notation; their kernels implement the rules."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    kernel_module: ClassVar[str]  # compiled module suffix: bingwa.engine._<kernel_module>
    # Whether a repeated position ends the game (Oware, Ayoayo).
    repetition_ends_game: ClassVar[bool] = False

    def __init__(self, **options: Any) -> None:
        specs = {spec.name: spec for spec in self.option_specs}
        values = {spec.name: spec.default for spec in self.option_specs}
        for raw_name, value in options.items():
            opt = raw_name.lower().replace("_", "-")
            if opt not in specs:
                known = ", ".join(specs) or "none"
                raise VariantError(
                    f"unknown option {raw_name!r} for {self.name} (options: {known})"
                )
            values[opt] = specs[opt].parse(value)
        self.options: dict[str, Any] = values
        self.compiled = False
        self.kernel = self.make_kernel(compiled=use_compiled())

    def make_kernel(self, compiled: bool) -> Any:
        """A kernel for these options: compiled if asked and built, else pure."""
        if compiled:
            module = compiled_module(self.kernel_module)
            if module is not None:
                kernel = self.compiled_kernel(module)
                self.compiled = True
                return kernel
        self.compiled = False
        return self.pure_kernel()

    def compiled_kernel(self, module: Any) -> Any:
        raise NotImplementedError

    def pure_kernel(self) -> Any:
        raise NotImplementedError

    # -- identity -------------------------------------------------------
    def spec(self) -> str:
        """Name plus every option that differs from its default."""
        parts = [self.name]
        for spec in self.option_specs:
            value = self.options[spec.name]
            if value != spec.default:
                if isinstance(value, bool):
                    value = "true" if value else "false"
                parts.append(f"{spec.name}={value}")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"find_variant({self.spec()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Variant) and self.spec() == other.spec()

    def __hash__(self) -> int:
        return hash(self.spec())

    # -- rules facts the Position needs ----------------------------------
    def initial_state(self) -> Any:
        raise NotImplementedError

    def side_to_move(self, state: Any) -> int:
        raise NotImplementedError

    def total_seeds(self) -> int:
        raise NotImplementedError

    def repetition_scores(self, state: Any) -> tuple[int, int]:
        """Final scores when ``state`` ends the game by repetition."""
        raise NotImplementedError

    def seeds_on_board(self, state: Any) -> int:
        raise NotImplementedError

    def moves_left(self, state: Any) -> int | None:
        """How many more moves the side to move will likely make in this
        game, for the time manager (timeman.py), or None where there is no
        better guess than its fixed MOVES_TO_GO."""
        return None

    # -- notation --------------------------------------------------------
    def parse_position(self, text: str) -> Any:
        raise NotImplementedError

    def format_position(self, state: Any) -> str:
        raise NotImplementedError

    def parse_move(self, text: str, state: Any) -> int:
        """The move code written ``text`` (syntax only; legality is the
        Position's). Raises MoveError."""
        raise NotImplementedError

    def format_move(self, code: int, state: Any) -> str:
        raise NotImplementedError

    def draw(self, state: Any, last_move: int | None = None) -> str:
        """A multi-line picture of the board for people."""
        return self.format_position(state)

    def illegal_reason(self, state: Any, code: int) -> str:
        """Why a well-formed move is illegal here, in one phrase."""
        return "not a legal move in this position"

    def termination_of(self, code: int) -> Termination:
        from .game import KERNEL_TERMINATIONS

        return KERNEL_TERMINATIONS[code]
