"""Business refusals: returned as data (`CrmRefusal`) with status OK, each with a pt-BR sentence."""

from __future__ import annotations

from balcao.crm.v1 import crm_resources_pb2 as r


def _refusal(code: int, message_pt: str) -> r.CrmRefusal:
    return r.CrmRefusal(code=code, message_pt=message_pt)


def callbacks_disabled() -> r.CrmRefusal:
    return _refusal(r.CRM_REFUSAL_CODE_CALLBACKS_DISABLED,
                    "Os retornos prometidos ao cliente estão desligados nas configurações.")


def contact_opted_out() -> r.CrmRefusal:
    return _refusal(r.CRM_REFUSAL_CODE_CONTACT_OPTED_OUT,
                    "O cliente pediu para não receber mensagens; nada pode ser agendado para ele.")


def contact_anonymized() -> r.CrmRefusal:
    return _refusal(r.CRM_REFUSAL_CODE_CONTACT_ANONYMIZED,
                    "Os dados deste cliente foram apagados a pedido dele (LGPD).")


def unknown_stage(stage_key: str) -> r.CrmRefusal:
    return _refusal(r.CRM_REFUSAL_CODE_UNKNOWN_STAGE,
                    f"A etapa “{stage_key}” não existe no funil desta empresa.")


def case_closed() -> r.CrmRefusal:
    return _refusal(r.CRM_REFUSAL_CODE_CASE_CLOSED, "Este atendimento já foi encerrado.")


def follow_up_not_pending(status_pt: str) -> r.CrmRefusal:
    return _refusal(r.CRM_REFUSAL_CODE_FOLLOW_UP_NOT_PENDING, f"Este retorno não está mais pendente ({status_pt}).")


def obligation_already_resolved() -> r.CrmRefusal:
    return _refusal(r.CRM_REFUSAL_CODE_OBLIGATION_ALREADY_RESOLVED,
                    "Esta promessa já foi registrada com outro resultado.")


def no_active_attendant(name: str = "") -> r.CrmRefusal:
    text = (f"{name} não está recebendo atendimentos agora." if name
            else "Não há ninguém da equipe disponível para receber o atendimento.")
    return _refusal(r.CRM_REFUSAL_CODE_NO_ACTIVE_ATTENDANT, text)


def due_in_the_past() -> r.CrmRefusal:
    return _refusal(r.CRM_REFUSAL_CODE_DUE_IN_THE_PAST, "O horário do retorno já passou.")


def human_in_control() -> r.CrmRefusal:
    return _refusal(r.CRM_REFUSAL_CODE_HUMAN_IN_CONTROL,
                    "Uma pessoa da equipe está conduzindo esta conversa; nada automático é feito nela.")
