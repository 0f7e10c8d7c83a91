"""Role on: the Operador model with the catalog tools and the raw context, and the execution of its
tool calls against crm and agenda.

The model never names the organisation, the contact, an appointment, a case or a follow-up by
id: those come from the trusted context (`TurnContext`); it refers to records by their position
in the context it was shown. Each write carries `op:<event>:<tool>:<n>`, so a re-run of the event
after a crash replays instead of writing twice. There is no `send_message`: the Operador has no
channel, by absence.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import Message as ProtoMessage

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.models.base import Message, ModelProvider, ModelRejected, ModelRequest, ToolResult
from balcao.models.scripted import ScriptExhausted
from balcao.operador.v1 import operador_pb2 as pb
from services.operador import catalog
from services.operador.run import TurnRun

log = logging.getLogger(__name__)

TASK = "operador.act"
MAX_ROUNDS = 4
AGENDA_WRITES = {"book_appointment", "reschedule_appointment", "cancel_appointment", "confirm_appointment"}

SYSTEM = (
    "Você é o Operador de um pequeno negócio: depois que a conversa com o cliente terminou, você "
    "registra e executa no sistema o que o turno pediu. Você não fala com o cliente e não tem como "
    "enviar mensagens. Use as ferramentas só quando a declaração ou o histórico pedirem; quando uma "
    "ação cumpre uma promessa declarada, informe `promessa` com o número dela. Refira-se a "
    "compromissos e retornos pelo número mostrado no contexto. Quando não houver nada a fazer, "
    "responda em uma linha sem chamar ferramentas."
)


class ToolProblem(Exception):
    """A tool call that cannot be executed (missing data, not enabled, bad arguments)."""


@dataclass
class Outcome:
    capability: str
    status: int
    detail_pt: str
    response: ProtoMessage | None


def context_text(run: TurnRun, selection: catalog.Selection) -> str:
    c = run.context
    declaracao = (json_format.MessageToDict(c.declaracao) if c.declaracao is not None
                  else {"ausente_ou_invalida": c.declaracao_problem})
    data: dict[str, Any] = {
        "cliente": {"nome": c.contact.name, "etapa": c.lead_state.stage_key if c.lead_state else ""},
        "fuso_horario": c.organization.time_zone,
        "declaracao": declaracao,
        "resumo": c.checkpoint.content.rolling_summary if c.checkpoint else "",
        "proxima_acao": c.checkpoint.content.next_action if c.checkpoint else "",
        "resposta_enviada": "\n".join(c.sent),
        "historico": c.history,
        "promessas": [{"numero": i + 1, "o_que": o.o_que, "situacao": r.ObligationStatus.Name(o.status),
                       "prazo": o.prazo.ToJsonString() if o.HasField("prazo") else None}
                      for i, o in enumerate(c.obligations)],
        "compromissos": [{"numero": i + 1, "inicio": a.labels.start_label,
                          "inicio_iso": a.start_time.ToJsonString(), "inicio_local": a.labels.start_iso,
                          "recurso": a.resource_name, "recurso_id": a.resource_id, "servico": a.service_name}
                         for i, a in enumerate(c.appointments)],
        "turno_em": c.checkpoint.created_at.ToJsonString() if c.checkpoint and c.checkpoint.HasField(
            "created_at") else None,
        "agenda": {
            "profissionais": [{"nome": p.name, "recurso_id": p.resource_id, "servicos": list(p.service_ids)}
                              for p in c.professionals],
            "servicos": [{"nome": s.name, "servico_id": s.service_id, "duracao_minutos": s.duration_minutes}
                         for s in c.services],
        },
        "retornos_pendentes": [{"numero": i + 1, "quando": f.due_at.ToJsonString(), "motivo": f.reason}
                               for i, f in enumerate(c.pending_follow_ups)],
        "caso_aberto": c.open_case.summary if c.open_case else None,
        "capacidades_ocultas": dict(selection.hidden),
    }
    return json.dumps(data, ensure_ascii=False)


async def act(run: TurnRun, provider: ModelProvider) -> None:
    """Ask the model, execute its tool calls, give it the results; stop when it calls nothing. A promise whose
    action was refused and that the model did not keep otherwise is then failed with the refusal's consequence."""
    try:
        await _rounds(run, provider)
    except ScriptExhausted:
        await _settle_refused(run)
        raise
    await _settle_refused(run)


async def _settle_refused(run: TurnRun) -> None:
    for obligation, name, why in run.refused.values():
        if obligation.obligation_id in run.obligations:
            continue
        await run.resolve(obligation, fulfilled=False, resolution=why.replace("..", "."),
                          proactive=name in AGENDA_WRITES)
        await run.could_not_act("O Operador quis agir e o sistema recusou", f"Ação \"{name}\": {why}",
                                f"operador.{name}.refused", obligation=True)


async def _rounds(run: TurnRun, provider: ModelProvider) -> None:
    context = run.context
    selection = catalog.select(context.operador_config, callback_enabled=context.callback_enabled)
    tools = tuple(catalog.tools_for(selection))
    messages: list[Message] = [Message.user(context_text(run, selection))]
    if context.operador_config is not None and context.operador_config.instructions:
        messages[0] = Message.user(context.operador_config.instructions + "\n\n" + context_text(run, selection))
    for _ in range(MAX_ROUNDS):
        request = ModelRequest(system=SYSTEM, messages=tuple(messages), tools=tools, task=TASK, max_tokens=1024)
        try:
            response = await provider.complete(request)
        except ModelRejected as error:
            await run.could_not_act("O Operador não conseguiu usar o modelo",
                                    f"O modelo recusou o pedido: {error}. O registro básico foi feito mesmo assim.",
                                    "operador.model_rejected")
            return
        run.model_calls += 1
        calls = response.tool_calls
        if not calls:
            return
        messages.append(response.as_message())
        results = []
        for call in calls:
            outcome = await execute(run, selection, call.name, dict(call.arguments))
            results.append(ToolResult(call.call_id, call.name, outcome, is_error=False))
        messages.append(Message("tool", tuple(results)))


async def execute(run: TurnRun, selection: catalog.Selection, name: str, arguments: dict[str, Any]) -> str:
    """Run one tool call; returns what the model is told. Every failure is recorded and surfaced."""
    promise_number = arguments.pop(catalog.PROMISE_ARGUMENT, None)
    key = run.key(name)
    try:
        obligation = _promise(run, promise_number, name)
        capability = catalog.BY_NAME.get(name)
        if capability is None or name not in selection.enabled:
            why = selection.hidden.get(name) or "esta capacidade não está habilitada para este agente"
            raise ToolProblem(why)
        request = _request(run, capability, arguments, key, obligation)
        stub = run.peers.agenda_write if capability.method.startswith("balcao.agenda") else run.peers.crm_write
        rpc = capability.method.split("/")[1]
        response = await getattr(stub, rpc)(request, timeout=run.peers.timeout)
    except ToolProblem as problem:
        run.record(name, pb.ACTION_STATUS_FAILED, str(problem), key)
        await run.could_not_act("O Operador quis agir e não conseguiu",
                                f"Ação \"{name}\": {problem}.", f"operador.{name}.failed")
        return f"não executado: {problem}"
    except Exception as error:  # a gRPC error (INVALID_ARGUMENT, NOT_FOUND): the arguments were wrong
        text = str(error)
        details = error.details() if hasattr(error, "details") else text
        code = error.code() if hasattr(error, "code") else None
        if code is not None and code.name in ("UNAVAILABLE", "DEADLINE_EXCEEDED", "INTERNAL", "UNKNOWN"):
            raise  # transport: the event is retried with backoff
        run.record(name, pb.ACTION_STATUS_FAILED, details, key)
        await run.could_not_act("O Operador quis agir e não conseguiu", f"Ação \"{name}\": {details}.",
                                f"operador.{name}.failed")
        return f"erro: {details}"
    return await _judge(run, name, key, response, obligation)


async def _judge(run: TurnRun, name: str, key: str, response: Any, obligation: r.Obligation | None) -> str:
    refusal = _refusal(response)
    if refusal is not None:
        message, alternatives = refusal
        offer = f" Horários livres: {', '.join(alternatives)}." if alternatives else ""
        run.record(name, pb.ACTION_STATUS_REFUSED, message + offer, key)
        if obligation is not None:
            # Settled when the model is done: it may still keep the promise another way (another professional).
            run.refused.setdefault(obligation.obligation_id, (obligation, name, f"{message}.{offer}"))
        else:
            await run.could_not_act("O Operador quis agir e o sistema recusou",
                                    f"Ação \"{name}\": {message}.{offer}", f"operador.{name}.refused")
        return f"recusado: {message}.{offer}"
    replayed = bool(getattr(response, "replayed", False))
    detail, evidence = _describe(name, response)
    run.record(name, pb.ACTION_STATUS_ALREADY_DONE if replayed else pb.ACTION_STATUS_DONE, detail, key)
    if obligation is not None and obligation.obligation_id not in run.obligations:
        proactive = name in AGENDA_WRITES or (name == "provide_case_update")
        await run.resolve(obligation, fulfilled=True, resolution=detail, evidence=evidence, proactive=proactive)
    return f"feito: {detail}"


def _promise(run: TurnRun, number: Any, name: str) -> r.Obligation | None:
    obligations = run.context.open_obligations()
    if number is None:
        # One open promise and an agenda write: that write is what the customer was promised.
        return obligations[0] if len(obligations) == 1 and name in AGENDA_WRITES else None
    if not isinstance(number, int) or not 1 <= number <= len(run.context.obligations):
        raise ToolProblem(f"a promessa número {number} não existe neste turno")
    chosen = run.context.obligations[number - 1]
    return chosen if chosen.status == r.OBLIGATION_STATUS_OPEN else None


def _request(run: TurnRun, capability: catalog.Capability, arguments: dict[str, Any], key: str,
             obligation: r.Obligation | None) -> ProtoMessage:
    context = run.context
    names = {f.name for f in capability.request.fields}
    references: dict[str, Any] = {}
    for original, (argument, _) in catalog.REFERENCE_ARGUMENTS.items():
        if argument in arguments:
            references[original] = arguments.pop(argument)
    forbidden = [a for a in arguments if a in catalog.CONTEXT_FIELDS or a not in names]
    if forbidden:
        raise ToolProblem(f"argumentos que não podem vir do modelo: {', '.join(sorted(forbidden))}")
    message_class = _message_class(capability)
    try:
        request = json_format.ParseDict(arguments, message_class())
    except json_format.ParseError as error:
        raise ToolProblem(f"argumentos inválidos: {error}") from error
    for fname, value in capability.fixed.items():
        setattr(request, fname, value)
    trusted: dict[str, Any] = {"organization_id": context.organization_id, "contact_id": context.contact.contact_id,
                               "idempotency_key": key, "source_turn_id": context.turn_id}
    if "appointment_id" in names:
        trusted["appointment_id"] = _pick(context.appointments, references.get("appointment_id"),
                                          "compromisso").appointment_id
    if "follow_up_id" in names:
        trusted["follow_up_id"] = _pick(context.pending_follow_ups, references.get("follow_up_id"),
                                        "retorno pendente").follow_up_id
    if "case_id" in names:
        if context.open_case is None:
            raise ToolProblem("o cliente não tem caso aberto")
        trusted["case_id"] = context.open_case.case_id
    if "obligation_id" in names and obligation is not None:
        trusted["obligation_id"] = obligation.obligation_id
    if "declaracao" in names and context.declaracao is not None:
        request.declaracao.CopyFrom(context.declaracao)  # type: ignore[attr-defined]
    for fname, value in trusted.items():
        if fname in names:
            setattr(request, fname, value)
    for fd in capability.request.fields:
        if fd.name in catalog.CONTEXT_FIELDS and fd.name not in trusted and fd.name != "declaracao":
            if fd.message_type is not None and fd.message_type.full_name == "balcao.crm.v1.Actor":
                getattr(request, fd.name).CopyFrom(run.actor)
            elif fd.type == fd.TYPE_STRING and fd.name.endswith("_by"):
                setattr(request, fd.name, "operador")
    return request


def _pick(items: list[Any], number: Any, what: str) -> Any:
    if number is None:
        if len(items) == 1:
            return items[0]
        raise ToolProblem(f"não ficou claro qual {what} usar ({len(items)} no contexto)")
    if not isinstance(number, int) or not 1 <= number <= len(items):
        raise ToolProblem(f"o {what} número {number} não existe")
    return items[number - 1]


def _message_class(capability: catalog.Capability) -> type[ProtoMessage]:
    from google.protobuf import message_factory

    return message_factory.GetMessageClass(capability.request)


def _refusal(response: Any) -> tuple[str, list[str]] | None:
    fields = response.DESCRIPTOR.fields_by_name
    if "refusal" not in fields or not response.HasField("refusal"):
        return None
    refusal = response.refusal
    slots = getattr(refusal, "alternatives", [])
    alternatives = [a.labels.start_label or a.start_time.ToJsonString() for a in slots][:3]
    return refusal.message_pt, alternatives


def _describe(name: str, response: Any) -> tuple[str, tuple[tuple[str, str], ...]]:
    if name in AGENDA_WRITES and response.HasField("appointment"):
        a = response.appointment
        when = a.labels.start_label or a.start_time.ToJsonString()
        verb = {"book_appointment": "marcado", "reschedule_appointment": "remarcado",
                "cancel_appointment": "cancelado", "confirm_appointment": "confirmado"}[name]
        return f"compromisso {verb}: {when} com {a.resource_name}", (("appointment", a.appointment_id),)
    if name == "schedule_followup" and response.HasField("follow_up"):
        return "retorno agendado", (("follow_up", response.follow_up.follow_up_id),)
    if name == "open_human_case" and response.HasField("human_case"):
        return "caso aberto para a equipe", (("human_case", response.human_case.case_id),)
    return catalog.BY_NAME[name].label_pt.lower() + ": feito", ()
