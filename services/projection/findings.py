"""What one projection noticed on its way: unmapped error codes and identifiers it dropped.

The pure layer does no I/O; it writes what needs a follow-up here, and the servicer acts on
it afterwards (a Central item per unmapped code). Counts are kept per call and per process.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

# Per process, by identifier shape: how many projected values the scan dropped.
DROPPED_TOTAL: Counter[str] = Counter()
# Per process: how many times an error code had no consequence in the map.
UNMAPPED_TOTAL: Counter[str] = Counter()


@dataclass
class Findings:
    """Collected while projecting one response."""

    # Error codes that had no consequence in the map (each gets a Central item).
    unmapped_codes: set[str] = field(default_factory=set)
    # Identifier shapes found in projected output and dropped, with how many of each.
    dropped: Counter[str] = field(default_factory=Counter)

    def unmapped(self, code: str) -> None:
        self.unmapped_codes.add(code)
        UNMAPPED_TOTAL[code] += 1

    def drop(self, shape: str) -> None:
        self.dropped[shape] += 1
        DROPPED_TOTAL[shape] += 1
