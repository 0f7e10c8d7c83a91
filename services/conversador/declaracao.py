"""The draft's output and its declaração, validated by pydantic (DESIGN.md §4, seed 002 §5).

A draft answers with one JSON object: `mensagem` (the text for the customer) and `declaracao`
(`intencoes`, `promessas`, `nada_a_declarar`). Rules: `nada_a_declarar` is true exactly when
both lists are empty; each `evidencia` quotes the conversation; `prazo` is ISO-8601 or null;
`categoria` is one of the closed `balcao.common.v1.Categoria` values, written in lower case
without the prefix (`quer_remarcar`).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime, time, timezone
from typing import Any

from google.protobuf.timestamp_pb2 import Timestamp
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from balcao.common.v1 import declaracao_pb2 as dc
from balcao.models import conversador_format as fmt

CATEGORIAS: dict[str, int] = {
    name.removeprefix("CATEGORIA_").lower(): number
    for name, number in dc.Categoria.items()
    if number != dc.CATEGORIA_UNSPECIFIED
}
_NAME_OF = {number: name for name, number in CATEGORIAS.items()}


class InvalidOutput(Exception):
    """The model's answer does not validate; `errors` is the message a model can act on."""

    def __init__(self, errors: str) -> None:
        super().__init__(errors)
        self.errors = errors


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFC", text).casefold()
    return " ".join(re.sub(r"[^\w\s]", " ", text).split())


def quotes(evidencia: str, conversation: str) -> bool:
    """True when every fragment of `evidencia` (split on ellipses) appears in the conversation."""
    haystack = _normalise(conversation)
    fragments = [_normalise(f) for f in re.split(r"\.\.\.|…|\[\.\.\.\]", evidencia)]
    fragments = [f for f in fragments if f]
    return bool(fragments) and all(f in haystack for f in fragments)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class IntencaoIn(_Strict):
    o_que: str = Field(min_length=1, max_length=300)
    evidencia: str = Field(min_length=1, max_length=800)
    categoria: str | None = None

    @field_validator("evidencia")
    @classmethod
    def _quotes_the_conversation(cls, value: str, info: ValidationInfo) -> str:
        conversation = (info.context or {}).get("conversation")
        if conversation is not None and not quotes(value, conversation):
            raise ValueError("a evidência precisa ser um trecho copiado da conversa, palavra por palavra")
        return value

    @field_validator("categoria")
    @classmethod
    def _closed_enum(cls, value: str | None) -> str | None:
        if value is None or value == "":
            return None
        key = value.strip().lower().removeprefix("categoria_")
        if key not in CATEGORIAS:
            raise ValueError(f"categoria desconhecida; use uma destas: {', '.join(CATEGORIAS)} (ou null)")
        return key


class PromessaIn(_Strict):
    o_que: str = Field(min_length=1, max_length=300)
    prazo: str | None

    @field_validator("prazo")
    @classmethod
    def _iso_8601(cls, value: str | None) -> str | None:
        if value is None or value == "":
            return None
        try:
            datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError("o prazo deve ser uma data ISO-8601 (2024-11-08T18:00:00-03:00) ou null") from None
        return value


class DeclaracaoIn(_Strict):
    intencoes: list[IntencaoIn]
    promessas: list[PromessaIn]
    nada_a_declarar: StrictBool

    @model_validator(mode="after")
    def _nothing_means_nothing(self) -> DeclaracaoIn:
        empty = not self.intencoes and not self.promessas
        if self.nada_a_declarar != empty:
            if empty:
                raise ValueError("nada_a_declarar deve ser true quando não há intenções nem promessas")
            raise ValueError("nada_a_declarar deve ser false quando há intenções ou promessas")
        return self


class DraftOutput(_Strict):
    mensagem: str = Field(min_length=1, max_length=4000)
    declaracao: DeclaracaoIn


_MESSAGES = {
    "missing": "campo obrigatório ausente",
    "extra_forbidden": "campo não previsto (remova)",
    "string_type": "deve ser um texto",
    "list_type": "deve ser uma lista",
    "bool_type": "deve ser true ou false",
    "model_type": "deve ser um objeto",
    "dict_type": "deve ser um objeto",
    "string_too_short": "não pode ser vazio",
    "string_too_long": "texto longo demais",
}


def describe(error: ValidationError) -> str:
    """Pydantic's errors as lines a model (and a developer) can read: `path: problem`."""
    lines = []
    for item in error.errors():
        path = ".".join(str(p) for p in item["loc"]) or "resposta"
        message = _MESSAGES.get(item["type"]) or str(item["msg"]).removeprefix("Value error, ")
        lines.append(f"{path}: {message}")
    return "\n".join(lines)


def parse_draft(text: str, conversation: str) -> DraftOutput:
    """The model's final answer, validated; raises `InvalidOutput` with the reasons."""
    try:
        value = fmt.first_json_object(text)
    except ValueError as exc:
        raise InvalidOutput(str(exc)) from None
    try:
        return DraftOutput.model_validate(value, context={"conversation": conversation})
    except ValidationError as exc:
        raise InvalidOutput(describe(exc)) from None


def _offset(now_iso: str) -> timezone:
    try:
        parsed = datetime.fromisoformat(now_iso)
    except ValueError:
        return UTC
    return timezone(parsed.utcoffset()) if parsed.utcoffset() is not None else UTC  # type: ignore[arg-type]


def _deadline(prazo: str, zone: timezone) -> Timestamp:
    parsed = datetime.fromisoformat(prazo.replace("Z", "+00:00"))
    if len(prazo) == 10:
        # A bare date means "by the end of that day" in the organisation's zone.
        parsed = datetime.combine(parsed.date(), time(23, 59, 59))
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=zone)
    stamp = Timestamp()
    stamp.FromDatetime(parsed.astimezone(UTC))
    return stamp


def to_proto(declaracao: DeclaracaoIn, now_iso: str) -> dc.DeclaracaoDoTurno:
    zone = _offset(now_iso)
    return dc.DeclaracaoDoTurno(
        intencoes=[
            dc.Intencao(
                o_que=i.o_que,
                evidencia=i.evidencia,
                categoria=CATEGORIAS[i.categoria] if i.categoria else dc.CATEGORIA_UNSPECIFIED,
            )
            for i in declaracao.intencoes
        ],
        promessas=[
            dc.Promessa(o_que=p.o_que, prazo=_deadline(p.prazo, zone)) if p.prazo else dc.Promessa(o_que=p.o_que)
            for p in declaracao.promessas
        ],
        nada_a_declarar=declaracao.nada_a_declarar,
    )


def to_dict(declaracao: dc.DeclaracaoDoTurno, now_iso: str = "") -> dict[str, Any]:
    """A declaração as the model writes it (for a revision's or the closing's input)."""
    zone = _offset(now_iso)

    def prazo(p: dc.Promessa) -> str | None:
        if not p.HasField("prazo"):
            return None
        moment = p.prazo.ToDatetime(tzinfo=UTC).astimezone(zone)
        return moment.isoformat()

    return {
        "intencoes": [
            {"o_que": i.o_que, "evidencia": i.evidencia, "categoria": _NAME_OF.get(i.categoria)}
            for i in declaracao.intencoes
        ],
        "promessas": [{"o_que": p.o_que, "prazo": prazo(p)} for p in declaracao.promessas],
        "nada_a_declarar": declaracao.nada_a_declarar,
    }


def validate_proto(declaracao: dc.DeclaracaoDoTurno) -> None:
    """Check a declaração that arrives in a request (the closing's); raises `InvalidOutput`."""
    try:
        DeclaracaoIn.model_validate(to_dict(declaracao))
    except ValidationError as exc:
        raise InvalidOutput(describe(exc)) from None
