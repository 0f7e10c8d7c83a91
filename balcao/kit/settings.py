"""Settings: read from the environment once, at start-up, through pydantic-settings.

Each service declares a subclass of `ServiceSettings` with its own env prefix
(`BALCAO_CRM_`, …). Mesh-wide values (the mesh secret, the database URL, the data folder,
peer addresses) keep their own names so one ConfigMap serves every service. `load_settings`
turns a missing or invalid value into one line naming the variable and stops the process.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, TypeVar

from pydantic import AliasChoices, Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from balcao.kit.mesh import SERVICES, addr_env, default_addr


class SettingsError(Exception):
    """A setting is missing or invalid; the message is one line naming the variable."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _env(name: str) -> Any:
    # A field read from one fixed variable name, whatever the class's prefix is.
    return AliasChoices(name)


class ServiceSettings(BaseSettings):
    """What every service process reads. Subclasses set `service_name` and the env prefix."""

    model_config = SettingsConfigDict(extra="ignore", populate_by_name=True)

    service_name: str = ""

    mesh_secret: SecretStr = Field(validation_alias=_env("BALCAO_MESH_SECRET"), min_length=16)
    bind_host: str = Field("127.0.0.1", validation_alias=_env("BALCAO_BIND_HOST"))
    grpc_port: int = Field(0, ge=0, le=65535)
    stop_grace_seconds: float = Field(10.0, ge=0, validation_alias=_env("BALCAO_STOP_GRACE_SECONDS"))
    # A client's connection is closed (GOAWAY) after this long, so its next calls open a new one
    # and reach the replicas added since (a Kubernetes Service balances connections, not calls);
    # calls in flight get the grace to finish (the Conversador's may take 180 s). 0: never.
    grpc_max_connection_age_seconds: float = Field(
        300.0, ge=0, validation_alias=_env("BALCAO_GRPC_MAX_CONNECTION_AGE_SECONDS")
    )
    grpc_max_connection_age_grace_seconds: float = Field(
        300.0, ge=0, validation_alias=_env("BALCAO_GRPC_MAX_CONNECTION_AGE_GRACE_SECONDS")
    )
    log_level: str = Field("INFO", validation_alias=_env("BALCAO_LOG_LEVEL"))
    data_dir: Path = Field(Path(".balcao"), validation_alias=_env("BALCAO_DATA_DIR"))

    def peer_addr(self, peer: str) -> str:
        value = getattr(self, f"{peer}_addr", None)
        if not value:
            raise LookupError(f"{self.service_name} has no address for {peer}")
        return str(value)


class DatabaseSettings(ServiceSettings):
    """Settings of a service that owns a PostgreSQL schema."""

    # Empty means: start (or join) the embedded PostgreSQL in `data_dir`.
    database_url: SecretStr | None = Field(None, validation_alias=_env("DATABASE_URL"))
    migrate_on_start: bool = Field(True, validation_alias=_env("BALCAO_MIGRATE_ON_START"))
    database_pool_size: int = Field(10, ge=1, validation_alias=_env("BALCAO_DATABASE_POOL_SIZE"))


def peer_field(peer: str) -> Any:
    """A `<peer>_addr` field read from `BALCAO_<PEER>_ADDR`, defaulting to localhost."""
    return Field(default_addr(peer), validation_alias=_env(addr_env(peer)))


def grpc_port_field(service: str) -> Any:
    return Field(SERVICES[service].grpc_port, ge=0, le=65535)


S = TypeVar("S", bound=ServiceSettings)


def _variable_name(cls: type[BaseSettings], field: str) -> str:
    if field not in cls.model_fields:
        return field  # pydantic already reports the variable's name (an alias)
    info = cls.model_fields[field]
    alias = info.validation_alias if info else None
    if isinstance(alias, AliasChoices):
        return str(alias.choices[0])
    if isinstance(alias, str):
        return alias
    prefix = cls.model_config.get("env_prefix", "")
    return f"{prefix}{field}".upper()


def load_settings(cls: type[S], **overrides: Any) -> S:
    """Read `cls` from the environment; on error raise `SettingsError` with one clear line."""
    try:
        return cls(**overrides)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            field = str(error["loc"][0]) if error["loc"] else "?"
            name = _variable_name(cls, field)
            if error["type"] == "missing":
                problems.append(f"missing setting {name}")
            else:
                problems.append(f"invalid setting {name}: {error['msg']}")
        raise SettingsError("; ".join(problems)) from None


def exit_on_settings_error(program: str, error: SettingsError) -> None:
    print(f"{program}: {error.message}", file=sys.stderr)
    raise SystemExit(2)
