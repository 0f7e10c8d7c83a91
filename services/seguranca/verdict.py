"""What the chain answers: approved, a wait, or vetoes with guidance, plus one trace line per gate."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import NamedTuple


class Status(enum.Enum):
    """What one gate did with one message; the value is the trace word."""

    PASSED = "passed"
    VETOED = "vetoed"
    NOT_APPLICABLE = "skipped:not_applicable"
    DISABLED = "skipped:disabled"
    WAITED = "waited"
    REVIEWER_FAILED = "reviewer_failed"


@dataclass(frozen=True, slots=True)
class Veto:
    gate: str
    # For the record, never shown to the model or the customer.
    code: str
    # pt-BR, what to write instead, phrased as the effect on the customer; never empty.
    guidance_pt: str
    revisable: bool = True
    # Non-empty: the runtime raises a Central inbox item with this pt-BR text.
    central_item_pt: str = ""


@dataclass(frozen=True, slots=True)
class Wait:
    until: datetime
    code: str
    reason_pt: str


_NO_COUNTS: Mapping[str, int] = MappingProxyType({})


# Named tuples, not frozen dataclasses: thirteen of each are made per review, and a tuple is
# built several times faster (the chain's budget is a couple hundred microseconds).
class GateResult(NamedTuple):
    """What a gate function returns; the chain turns it into a trace line."""

    status: Status
    code: str = ""
    veto: Veto | None = None
    wait: Wait | None = None
    counts: Mapping[str, int] = _NO_COUNTS
    # Set when the gate rewrote the body (disclosure) or split it (format).
    body: str | None = None
    parts: tuple[str, ...] | None = None


PASSED = GateResult(Status.PASSED)


def not_applicable(code: str) -> GateResult:
    return GateResult(Status.NOT_APPLICABLE, code)


def vetoed(
    gate: str,
    code: str,
    guidance_pt: str,
    *,
    revisable: bool = True,
    central_item_pt: str = "",
    counts: Mapping[str, int] | None = None,
) -> GateResult:
    full = f"{gate}:{code}"
    return GateResult(
        Status.VETOED,
        full,
        veto=Veto(gate, full, guidance_pt, revisable, central_item_pt),
        counts=counts or _NO_COUNTS,
    )


class TraceLine(NamedTuple):
    gate: str
    position: int
    status: Status
    code: str = ""
    rewrote_body: bool = False
    counts: Mapping[str, int] = _NO_COUNTS
    elapsed_ns: int = 0

    def __str__(self) -> str:
        text = f"{self.position:>2} {self.gate}: {self.status.value}"
        return f"{text} ({self.code})" if self.code else text


class Decision(enum.Enum):
    APPROVED = "approved"
    WAIT = "wait"
    VETOED = "vetoed"


@dataclass(frozen=True, slots=True)
class Verdict:
    decision: Decision
    trace: tuple[TraceLine, ...]
    chain_version: int
    # APPROVED: what to send.
    body: str = ""
    parts: tuple[str, ...] = ()
    body_rewritten: bool = False
    # WAIT.
    wait: Wait | None = None
    # VETOED, in chain order.
    vetoes: tuple[Veto, ...] = ()

    @property
    def approved(self) -> bool:
        return self.decision is Decision.APPROVED

    @property
    def revisable(self) -> bool:
        """True when every veto can be fixed by rewriting (the runtime may ask for a revision)."""
        return bool(self.vetoes) and all(v.revisable for v in self.vetoes)

    def line(self, gate: str) -> TraceLine:
        for line in self.trace:
            if line.gate == gate:
                return line
        raise KeyError(gate)

    def vetoed_by(self) -> list[str]:
        return [v.gate for v in self.vetoes]
