"""Error code → consequence: what an error means for the customer, in pt-BR (DESIGN.md §3 rule 3).

The Conversador never sees a code; it sees what the code means for the conversation. Codes
are written in one canonical form, `<family>:<reason>`:
- `agenda:<reason>`  — agenda's business refusals (agenda_resources.proto `RefusalCode`);
- `crm:<reason>`     — crm's business refusals (crm_resources.proto `CrmRefusalCode`);
- `unsafe_url:…`, `integration:…`, `video_call:…`, `channel:…` — integration errors recorded by
  whoever met them (the Operador in an activity's `details.code`, the gateway's settings checks);
- `grpc:<status>`    — a raw read that failed (permission errors, the service unreachable, …).
Enum names (`REFUSAL_CODE_SLOT_TAKEN`, `CRM_REFUSAL_CODE_CASE_CLOSED`) and gRPC status names
are accepted and brought to that form by `canonical`.

An unknown code yields the generic consequence and is written to the call's `Findings`; the
servicer then raises a Central item (`CENTRAL_ITEM_KIND_UNMAPPED_ERROR`) so the missing entry
gets seen and added here.
"""

from __future__ import annotations

import grpc

from balcao.agenda.v1 import agenda_resources_pb2
from balcao.crm.v1 import crm_resources_pb2
from services.projection.findings import Findings

GENERIC = "não foi possível concluir isso agora; a equipe da empresa já foi avisada"

CONSEQUENCES: dict[str, str] = {
    # --- agenda refusals (RefusalCode) ----------------------------------------------------
    "agenda:slot_taken": "esse horário não está mais disponível; é preciso escolher outro",
    "agenda:outside_business_hours": "esse horário fica fora do horário de atendimento",
    "agenda:in_the_past": "esse horário já passou",
    "agenda:unknown_resource": "o profissional ou o espaço pedido não foi encontrado na agenda",
    "agenda:nonexistent_local_time": (
        "esse horário não existe nesse dia por causa da mudança do relógio (horário de verão)"
    ),
    "agenda:ambiguous_local_time": (
        "esse horário acontece duas vezes nesse dia por causa da mudança do relógio; "
        "é preciso confirmar qual dos dois"
    ),
    "agenda:unknown_service": "esse serviço não foi encontrado na agenda ou não é feito por esse profissional",
    "agenda:resource_inactive": "esse atendimento não está disponível para agendamento no momento",
    "agenda:too_short_notice": "esse horário está muito próximo; é preciso marcar com mais antecedência",
    "agenda:beyond_booking_horizon": "a agenda ainda não está aberta para uma data tão distante",
    "agenda:misaligned_start": "a agenda não oferece atendimento começando exatamente nesse horário",
    "agenda:unknown_appointment": "esse compromisso não foi encontrado para este cliente",
    "agenda:already_cancelled": "esse compromisso já estava cancelado",
    "agenda:contact_already_booked": "o cliente já tem um compromisso nesse horário",
    "agenda:range_too_long": "o período pedido é longo demais para consultar de uma vez; é preciso um intervalo menor",
    # --- crm refusals (CrmRefusalCode) ----------------------------------------------------
    "crm:callbacks_disabled": "a empresa não agenda retornos automáticos; o retorno fica a cargo da equipe",
    "crm:contact_opted_out": "o cliente pediu para não receber mensagens",
    "crm:contact_anonymized": "os dados deste cliente foram apagados a pedido dele",
    "crm:unknown_stage": "a etapa indicada não existe no atendimento desta empresa",
    "crm:case_closed": "esse atendimento com a equipe já foi encerrado",
    "crm:follow_up_not_pending": "esse retorno já foi feito ou foi cancelado",
    "crm:obligation_already_resolved": "esse combinado com o cliente já foi resolvido",
    "crm:no_active_attendant": "no momento não há ninguém da equipe disponível para assumir a conversa",
    "crm:due_in_the_past": "a data combinada para o retorno já passou",
    "crm:human_in_control": "uma pessoa da equipe está cuidando desta conversa",
    # --- integration errors ---------------------------------------------------------------
    "unsafe_url:https_required": "a integração está configurada com um endereço que não é seguro",
    "unsafe_url:private_address": "a integração aponta para um endereço que não pode ser acessado de fora",
    "unsafe_url:invalid": "a integração está configurada com um endereço inválido",
    "integration:timeout": "o sistema parceiro demorou demais para responder",
    "integration:unreachable": "o sistema parceiro não pôde ser acessado agora",
    "integration:auth_failed": "a conexão com o sistema parceiro não está autorizada; a equipe precisa revisá-la",
    "integration:rejected": "o sistema parceiro recusou o pedido",
    "video_call:failed": "não foi possível gerar o link da videochamada",
    "channel:not_on_whatsapp": "o número do cliente não está no WhatsApp",
    "channel:send_failed": "a mensagem não pôde ser entregue",
    # --- a raw read that failed (gRPC status) ---------------------------------------------
    "grpc:cancelled": "a consulta foi interrompida antes de terminar",
    "grpc:unknown": "houve uma falha ao consultar essa informação",
    "grpc:invalid_argument": "a consulta não pôde ser feita do jeito que foi pedida",
    "grpc:deadline_exceeded": "a consulta demorou demais e não terminou",
    "grpc:not_found": "essa informação não foi encontrada",
    "grpc:already_exists": "essa informação já estava registrada",
    "grpc:permission_denied": "o assistente não tem permissão para consultar essa informação",
    "grpc:resource_exhausted": "o sistema está sobrecarregado e não conseguiu fazer a consulta agora",
    "grpc:failed_precondition": "essa informação não pode ser consultada no estado em que está",
    "grpc:aborted": "a consulta foi interrompida por uma alteração feita ao mesmo tempo",
    "grpc:out_of_range": "o período ou o valor pedido está fora do que pode ser consultado",
    "grpc:unimplemented": "essa consulta ainda não está disponível",
    "grpc:internal": "houve uma falha interna ao consultar essa informação",
    "grpc:unavailable": "não foi possível consultar essa informação agora",
    "grpc:data_loss": "houve uma falha ao ler essa informação",
    "grpc:unauthenticated": "o assistente não está autorizado a consultar essa informação agora",
}

_AGENDA_PREFIX = "REFUSAL_CODE_"
_CRM_PREFIX = "CRM_REFUSAL_CODE_"
_STATUS_NAMES = {code.name for code in grpc.StatusCode}


def agenda_code(value: int) -> str:
    """The canonical code of an agenda `RefusalCode` value."""
    name = agenda_resources_pb2.RefusalCode.Name(value) if _known(agenda_resources_pb2.RefusalCode, value) else ""
    return "agenda:" + (name.removeprefix(_AGENDA_PREFIX).lower() or f"refusal_{value}")


def crm_code(value: int) -> str:
    """The canonical code of a crm `CrmRefusalCode` value."""
    name = crm_resources_pb2.CrmRefusalCode.Name(value) if _known(crm_resources_pb2.CrmRefusalCode, value) else ""
    return "crm:" + (name.removeprefix(_CRM_PREFIX).lower() or f"refusal_{value}")


def status_code(status: grpc.StatusCode) -> str:
    """The canonical code of a failed raw read."""
    return "grpc:" + status.name.lower()


def canonical(code: str) -> str:
    """Bring an enum name, a status name or a canonical code to the canonical form."""
    text = code.strip()
    if text.startswith(_CRM_PREFIX):
        return "crm:" + text.removeprefix(_CRM_PREFIX).lower()
    if text.startswith(_AGENDA_PREFIX):
        return "agenda:" + text.removeprefix(_AGENDA_PREFIX).lower()
    bare = text.removeprefix("StatusCode.")
    if bare in _STATUS_NAMES:
        return "grpc:" + bare.lower()
    return text.lower()


def consequence(code: str, findings: Findings) -> str:
    """The pt-BR consequence of `code`; the generic one (and a finding) when it is unknown."""
    key = canonical(code)
    text = CONSEQUENCES.get(key)
    if text is None:
        findings.unmapped(key)
        return GENERIC
    return text


def _known(enum: object, value: int) -> bool:
    return value in enum.values()  # type: ignore[attr-defined]
