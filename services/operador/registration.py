"""The basic registration by code (seed 002 §2.1): a deterministic translation of the declaração.

It runs whether the role is on or off ("ele continua registrando o básico sozinho"): the lead's
stage from each intention's `categoria` (the organisation's `categoria_stages` map), the promised
follow-ups scheduled at their `prazo`, and every promise resolved as fulfilled or failed with the
reason. No model. `followup.callback_enabled=false` hides only the creation of callbacks.
"""

from __future__ import annotations

from balcao.common.v1 import declaracao_pb2 as dc
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.operador.v1 import operador_pb2 as pb
from services.operador.run import TurnRun


def stage_for(settings: r.OrganizationSettings, declaracao: dc.DeclaracaoDoTurno) -> tuple[str, dc.Intencao] | None:
    """The stage of the LAST intention whose categoria the organisation maps; None when none maps."""
    rules = _rules(settings)
    chosen = None
    for intention in declaracao.intencoes:
        if intention.categoria in rules:
            chosen = (rules[intention.categoria], intention)
    return chosen


_RULES: dict[int, tuple[r.OrganizationSettings, dict[int, str]]] = {}


def _rules(settings: r.OrganizationSettings) -> dict[int, str]:
    """categoria → stage of these settings; kept per settings object (the organisation cache hands out the same
    object for its TTL, so a batch of one tenant builds it once). Keyed by identity, holding the object alive."""
    cached = _RULES.get(id(settings))
    if cached is not None and cached[0] is settings:
        return cached[1]
    rules = {rule.categoria: rule.stage_key for rule in settings.categoria_stages if rule.stage_key}
    if len(_RULES) > 1000:
        _RULES.clear()
    _RULES[id(settings)] = (settings, rules)
    return rules


async def update_stage(run: TurnRun) -> None:
    declaracao = run.context.declaracao
    if declaracao is None:
        return
    found = stage_for(run.context.settings, declaracao)
    if found is None:
        return
    stage_key, intention = found
    current = run.context.lead_state
    if current is not None and current.stage_key == stage_key:
        return
    key = run.key("update_lead_state")
    reply = await run.peers.crm_write.UpdateLeadState(cw.UpdateLeadStateRequest(
        organization_id=run.org, contact_id=run.contact_id, stage_key=stage_key, reason=intention.o_que,
        categoria=intention.categoria, source_turn_id=run.context.turn_id, actor=run.actor, idempotency_key=key,
    ), timeout=run.peers.timeout)
    if reply.HasField("refusal"):
        run.record("update_lead_state", pb.ACTION_STATUS_REFUSED, reply.refusal.message_pt, key)
        await run.could_not_act(
            "O Operador não conseguiu mudar a etapa do cliente",
            f"A intenção \"{intention.o_que}\" leva à etapa \"{stage_key}\", mas: {reply.refusal.message_pt}. "
            "Confira as etapas nas configurações.",
            "operador.stage_refused",
        )
        return
    label = reply.lead_state.stage_label or stage_key
    status = pb.ACTION_STATUS_ALREADY_DONE if reply.replayed else pb.ACTION_STATUS_DONE
    run.record("update_lead_state", status, f"cliente movido para a etapa \"{label}\"", key)


async def settle_promises(run: TurnRun) -> None:
    """Every obligation still open after the model (or with the role off): a follow-up at its prazo
    fulfils it; when that cannot be done it is failed with the reason and an inbox item is raised."""
    for obligation in run.context.open_obligations():
        if obligation.obligation_id in run.obligations:
            continue
        if not obligation.HasField("prazo"):
            await _fail(run, obligation, "a promessa não tem prazo, então nenhum retorno pôde ser agendado; "
                        "alguém da equipe precisa cumpri-la", "operador.promise_without_deadline")
            continue
        if not run.context.callback_enabled:
            await _fail(run, obligation, "os retornos automáticos estão desligados; alguém da equipe precisa "
                        "cumprir esta promessa", "operador.callbacks_disabled")
            continue
        key = run.key("schedule_followup")
        reply = await run.peers.crm_write.ScheduleFollowUp(cw.ScheduleFollowUpRequest(
            organization_id=run.org, contact_id=run.contact_id, due_at=obligation.prazo, reason=obligation.o_que,
            callback=True, obligation_id=obligation.obligation_id, source_turn_id=run.context.turn_id,
            scheduled_by=run.actor, idempotency_key=key,
        ), timeout=run.peers.timeout)
        if reply.HasField("refusal"):
            run.record("schedule_followup", pb.ACTION_STATUS_REFUSED, reply.refusal.message_pt, key)
            await _fail(run, obligation, f"o retorno não pôde ser agendado: {reply.refusal.message_pt}",
                        "operador.followup_refused")
            continue
        status = pb.ACTION_STATUS_ALREADY_DONE if reply.replayed else pb.ACTION_STATUS_DONE
        run.record("schedule_followup", status, f"retorno agendado: {obligation.o_que}", key)
        await run.resolve(obligation, fulfilled=True, resolution="retorno agendado para o prazo prometido",
                          evidence=(("follow_up", reply.follow_up.follow_up_id),))


async def _fail(run: TurnRun, obligation: r.Obligation, why: str, code: str, *, proactive: bool = False) -> None:
    await run.resolve(obligation, fulfilled=False, resolution=why, proactive=proactive)
    await run.could_not_act("Uma promessa ao cliente não foi cumprida automaticamente",
                            f"Promessa \"{obligation.o_que}\": {why}.", code, obligation=True)
