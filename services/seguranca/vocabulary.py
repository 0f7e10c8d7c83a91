"""The internal-term index the leak detector looks names up in, built from the contracts at start-up.

Every RPC, service, message, field and enum name comes from the proto descriptors of every
`balcao.<service>.v1` package (walked, never typed by hand), so a new RPC is known the day it is
added. Only names that cannot be ordinary words are kept: multi-part names (`GetOrganization`,
`organizationId`, `lead_checkpoints`). Single-part names ("status", "nome", "phone", "Money") are
left out on purpose, so "o status do seu pedido" stays an ordinary sentence.

The Operador's capability catalog is generated from the write RPCs (DESIGN §5); its tool names
(`book_appointment`, `crm_schedule_followup`) are snake_case and the form rule already catches
them, and the snake forms of every RPC are in the index as well.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property

from google.protobuf.descriptor import Descriptor, EnumDescriptor, FileDescriptor

# Words of the system's architecture: never business talk in a customer's chat.
ARCHITECTURE_WORDS = frozenset(
    {
        "webhook",
        "webhooks",
        "endpoint",
        "endpoints",
        "payload",
        "payloads",
        "schema",
        "schemas",
        "uuid",
        "uuids",
        "grpc",
        "protobuf",
        "proto",
        "json",
        "sql",
        "postgres",
        "postgresql",
        "backend",
        "traceback",
        "stacktrace",
        "idempotency",
        "idempotencia",
        "middleware",
        "rpc",
        "prompt",
        "prompts",
        "llm",
        "mcp",
        "kubernetes",
        "sqlalchemy",
        "asyncpg",
        "localhost",
        "jwt",
        "healthcheck",
        "namespace",
        "deploy",
        "timeout",
    }
)

# Role and permission words leak only next to a permission word ("seu perfil não tem a role
# admin"); alone they are ordinary ("o operador de caixa", "falar com o administrador").
ROLE_WORDS = frozenset(
    {"operador", "conversador", "admin", "role", "roles", "scope", "scopes", "superuser", "sudo", "rls", "root"}
)
PERMISSION_WORDS = frozenset(
    {
        "permissao",
        "permissoes",
        "permission",
        "permissions",
        "acesso",
        "acessos",
        "privilegio",
        "privilegios",
        "autorizacao",
        "negado",
        "negada",
        "denied",
        "forbidden",
        "escopo",
        "grant",
    }
)

# Tables of the mesh named in the design; multi-part ones are caught by their form anyway, these
# are matched when written schema-qualified ("crm.contacts").
TABLE_SCHEMAS = ("crm", "agenda", "gateway")
KNOWN_TABLES = frozenset(
    {
        "organizations",
        "contacts",
        "appointments",
        "calendar_appointments",
        "resources",
        "services",
        "lead_checkpoints",
        "event_log",
        "inbound_messages",
        "outbound_messages",
        "obligations",
        "cases",
        "notes",
        "activities",
        "followups",
        "follow_ups",
        "crm_lead_activities",
        "knowledge_articles",
    }
)

_CAMEL_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+")


def _parts(name: str) -> list[str]:
    if "_" in name:
        return [p for p in name.split("_") if p]
    return _CAMEL_PARTS.findall(name)


def _snake(name: str) -> str:
    return "_".join(p.lower() for p in _parts(name))


def _multi_part(name: str) -> bool:
    return len(_parts(name)) >= 2


@dataclass(frozen=True)
class VocabularyIndex:
    """Names from the contracts that cannot be ordinary words, by how they are written."""

    # Case-sensitive: CamelCase and lowerCamel names ("GetOrganization", "organizationId").
    camel_names: frozenset[str]
    # snake_case and CONSTANT_CASE names ("organization_id", "GATE_STOP", "crm_upsert_contact").
    underscore_names: frozenset[str]
    # Fully qualified names ("balcao.crm.v1.CrmReadService").
    qualified_names: frozenset[str]

    @cached_property
    def camel_folded(self) -> frozenset[str]:
        """The CamelCase names lowercased: a cheap first look before the case-sensitive one."""
        return frozenset(n.lower() for n in self.camel_names)

    def __len__(self) -> int:
        return len(self.camel_names) + len(self.underscore_names) + len(self.qualified_names)

    @classmethod
    def from_files(cls, files: Iterable[FileDescriptor]) -> VocabularyIndex:
        camel: set[str] = set()
        underscore: set[str] = set()
        qualified: set[str] = set()

        def add(name: str) -> None:
            if not _multi_part(name):
                return
            (underscore if "_" in name else camel).add(name)

        def walk_enum(enum: EnumDescriptor) -> None:
            add(enum.name)
            qualified.add(enum.full_name)
            for value in enum.values:
                add(value.name)

        def walk_message(message: Descriptor) -> None:
            add(message.name)
            qualified.add(message.full_name)
            for f in message.fields:
                add(f.name)
                add(f.json_name)
            for nested in message.nested_types:
                if not nested.GetOptions().map_entry:
                    walk_message(nested)
            for enum in message.enum_types:
                walk_enum(enum)

        for file in files:
            for service in file.services_by_name.values():
                add(service.name)
                qualified.add(service.full_name)
                package = file.package.split(".")[1] if file.package.count(".") >= 2 else ""
                for method in service.methods:
                    add(method.name)
                    qualified.add(f"{service.full_name}/{method.name}")
                    # The snake forms the capability catalog and tool names are made of.
                    underscore.add(_snake(method.name))
                    if package:
                        underscore.add(f"{package}_{_snake(method.name)}")
            for message in file.message_types_by_name.values():
                walk_message(message)
            for enum in file.enum_types_by_name.values():
                walk_enum(enum)
        underscore.discard("")
        return cls(frozenset(camel), frozenset(u for u in underscore if "_" in u), frozenset(qualified))


def contract_files() -> list[FileDescriptor]:
    """The file descriptors of every `balcao.<service>.v1` package in this installation."""
    import balcao

    files: list[FileDescriptor] = []
    for package in sorted(pkgutil.iter_modules(balcao.__path__), key=lambda m: m.name):
        if not package.ispkg:
            continue
        try:
            v1 = importlib.import_module(f"balcao.{package.name}.v1")
        except ModuleNotFoundError:
            continue
        for module in sorted(pkgutil.iter_modules(v1.__path__), key=lambda m: m.name):
            if module.name.endswith("_pb2"):
                files.append(importlib.import_module(f"balcao.{package.name}.v1.{module.name}").DESCRIPTOR)
    return files


@cache
def contract_index() -> VocabularyIndex:
    """The index of every contract of the mesh; built once per process."""
    return VocabularyIndex.from_files(contract_files())
