"""The crm's domain exceptions: what went wrong, in words a developer understands.

Each class stands for one gRPC status; `service.py` maps them in one place. A business refusal
is not an exception: it travels as data in the response (`CrmRefusal`).
"""

from __future__ import annotations


class CrmError(Exception):
    """Base of every error the crm reports to its caller."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidArgument(CrmError):
    """The request is missing something or carries a malformed value; nothing was written."""


class NotFound(CrmError):
    """An id names nothing in this organisation (or belongs to another one)."""


class Aborted(CrmError):
    """A concurrent change won (an optimistic version check failed); re-read and retry."""


class FailedPrecondition(CrmError):
    """The target is not in a state that allows the operation."""


class AlreadyExists(CrmError):
    """The thing to create exists already under another owner (a turn closed for another contact)."""


class PermissionDenied(CrmError):
    """The caller may call the RPC but not with these arguments (a cross-tenant read)."""
