"""Processing one `turn_closed` event, from the trusted context to the recorded outcome.

Order: short-circuits first (a person owns the conversation → no write at all; `nada_a_declarar`
→ "nada a fazer", no model), then the basic registration's stage change, then (role on) the
model and its tool calls, then every obligation still open is settled by code, and finally one
decision activity on the timeline and the outcome on the turn's execution record.
"""

from __future__ import annotations

import json
import logging
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

from google.protobuf import json_format
from opentelemetry import metrics as otel

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.models.base import ModelProvider, ModelResponse, TextPart, ToolCall, Usage
from balcao.models.scripted import ScriptedProvider, ScriptExhausted
from balcao.operador.v1 import operador_pb2 as pb
from services.operador import acting, registration
from services.operador.context import TurnContext, load
from services.operador.peers import Peers
from services.operador.recorder import Recorder
from services.operador.run import TurnRun

log = logging.getLogger(__name__)

OUTCOME_STATUS = {
    pb.EVENT_RUN_OUTCOME_ACTED: r.OPERADOR_OUTCOME_STATUS_ACTED,
    pb.EVENT_RUN_OUTCOME_NOTHING_TO_DO: r.OPERADOR_OUTCOME_STATUS_NOTHING_TO_DO,
    pb.EVENT_RUN_OUTCOME_COULD_NOT_ACT: r.OPERADOR_OUTCOME_STATUS_COULD_NOT_ACT,
    pb.EVENT_RUN_OUTCOME_HUMAN_OWNS: r.OPERADOR_OUTCOME_STATUS_SKIPPED_HUMAN_IN_CONTROL,
}

_OBLIGATION_STATUS = {r.OBLIGATION_STATUS_FULFILLED: pb.OBLIGATION_STATUS_FULFILLED,
                      r.OBLIGATION_STATUS_FAILED: pb.OBLIGATION_STATUS_FAILED}


class Metrics:
    """This replica's counters, per organisation, also recorded as OpenTelemetry instruments
    (`balcao.operador.<name>` counters and the `balcao.operador.actions_per_turn` histogram).
    GetStatus does not read these: it reads the fleet's figures from crm."""

    def __init__(self, meter: otel.Meter | None = None) -> None:
        self.by_org: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self._meter = meter or otel.get_meter("balcao.operador")
        self._counters: dict[str, otel.Counter] = {}
        self._actions = self._meter.create_histogram(
            "balcao.operador.actions_per_turn", unit="{action}",
            description="Actions the Operador took on one closed turn")

    def add(self, org: str, **counts: int) -> None:
        self.by_org[org].update(counts)
        attributes = {"organization_id": org}
        for name, value in counts.items():
            if value:
                self._counter(name).add(value, attributes)
        if counts.get("turns_processed"):
            self._actions.record(counts.get("actions_taken", 0), attributes)

    def _counter(self, name: str) -> otel.Counter:
        if name not in self._counters:
            self._counters[name] = self._meter.create_counter(f"balcao.operador.{name}", description=DESCRIPTIONS.get(
                name, ""))
        return self._counters[name]

    def total(self, org: str = "") -> Counter[str]:
        if org:
            return Counter(self.by_org.get(org, Counter()))
        out: Counter[str] = Counter()
        for counts in self.by_org.values():
            out.update(counts)
        return out


DESCRIPTIONS = {
    "turns_processed": "Closed turns the Operador processed",
    "actions_taken": "Actions the Operador made",
    "promises_declared": "Promises declared in the processed turns",
    "promises_fulfilled": "Promises the Operador fulfilled",
    "promises_failed": "Promises recorded as failed, with the reason",
    "turns_could_not_act": "Turns where the Operador wanted to act and could not",
    "turns_nothing_to_do": "Turns recorded as nothing to do",
    "events_dead": "turn_closed events that exhausted their attempts",
}


class ScriptLibrary:
    """Tests' hook: `<dir>/<organization_id>.json` holds scripted model responses for that organisation.

    Read only when `BALCAO_OPERADOR_SCRIPT_DIR` is set (the test mesh sets it); each entry is
    `{"text": "...", "tool_calls": [{"name": "...", "arguments": {...}}]}`.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._providers: dict[str, ScriptedProvider] = {}

    def provider(self, org: str) -> ScriptedProvider | None:
        if org in self._providers:
            return self._providers[org]
        path = self.directory / f"{org}.json"
        if not path.is_file():
            return None
        entries = json.loads(path.read_text(encoding="utf-8"))
        script = []
        for n, entry in enumerate(entries):
            parts: list[TextPart | ToolCall] = [TextPart(entry["text"])] if entry.get("text") else []
            calls = entry.get("tool_calls", [])
            parts += [ToolCall(f"s{n}_{i}", c["name"], c.get("arguments", {})) for i, c in enumerate(calls)]
            stop = "tool_use" if entry.get("tool_calls") else "end_turn"
            script.append(ModelResponse(tuple(parts), Usage(10, 5), "scripted", "scripted-1", stop))
        self._providers[org] = ScriptedProvider(script)
        return self._providers[org]


class Processor:
    def __init__(self, peers: Peers, provider: ModelProvider, scripts: ScriptLibrary | None = None,
                 meter: otel.Meter | None = None) -> None:
        self.peers = peers
        self.provider = provider
        self.scripts = scripts
        self.metrics = Metrics(meter)

    def provider_for(self, org: str) -> ModelProvider:
        scripted = self.scripts.provider(org) if self.scripts is not None else None
        return scripted or self.provider

    async def process(self, event: r.Event) -> pb.RunEventResponse:
        """One event the single way: read its context, then one crm or agenda call per write."""
        payload = json_format.MessageToDict(event.payload)
        context = await load(self.peers, event.event_id, event.organization_id, payload)
        response, counts = await self.run(context, self.peers)
        self.metrics.add(event.organization_id, **counts)
        return response

    async def plan(self, context: TurnContext,
                   into: cw.TurnBasics | None = None) -> tuple[cw.TurnBasics, pb.RunEventResponse, dict[str, int]]:
        """The role-off registration of one turn as the list of writes it would make, without making them.

        The same code as `process` runs against a recorder that answers each write as crm would
        when nothing is refused; crm's RegisterTurnBasics then makes them all, or none (and the
        event runs the single way, where a refusal takes its usual course)."""
        if context.role_on:
            raise ValueError("only the basic registration (role off) is planned")
        recorder = Recorder(context, into)
        recorder.turn.organization_id, recorder.turn.event_id = context.organization_id, context.event_id
        response, counts = await self.run(context, replace(self.peers, crm_write=recorder))  # type: ignore[arg-type]
        return recorder.turn, response, counts

    async def run(self, context: TurnContext, peers: Peers) -> tuple[pb.RunEventResponse, dict[str, int]]:
        run = TurnRun(peers, context, mode=pb.ROLE_MODE_MODEL if context.role_on else pb.ROLE_MODE_BASIC)
        org = context.organization_id
        declared = len(context.obligations)

        if context.human_owns:
            # No write about the conversation at all; only the turn's execution record says why.
            summary = "Uma pessoa está cuidando da conversa: o Operador não fez nada neste turno"
            await self._outcome(run, pb.EVENT_RUN_OUTCOME_HUMAN_OWNS, summary)
            return self._response(run, pb.EVENT_RUN_OUTCOME_HUMAN_OWNS, summary), {
                "turns_processed": 1, "promises_declared": declared}

        nothing_declared = context.declaracao is not None and context.declaracao.nada_a_declarar
        if nothing_declared and not context.open_obligations():
            run.mode = pb.ROLE_MODE_BASIC
            summary = "Nada a fazer neste turno: o atendimento não declarou intenção nem promessa"
            await run.activity(r.ACTIVITY_KIND_NOTHING_TO_DO, summary, {"motivo": "nada_a_declarar"})
            await self._outcome(run, pb.EVENT_RUN_OUTCOME_NOTHING_TO_DO, summary)
            return self._response(run, pb.EVENT_RUN_OUTCOME_NOTHING_TO_DO, summary), {
                "turns_processed": 1, "turns_nothing_to_do": 1, "turns_basic": 1}

        await registration.update_stage(run)
        if context.role_on:
            try:
                await acting.act(run, self.provider_for(org))
            except ScriptExhausted as error:
                await run.could_not_act("O Operador não conseguiu usar o modelo", str(error), "operador.model_script")
        await registration.settle_promises(run)

        outcome = self._overall(run)
        summary = self._summary(run, outcome)
        kind = {pb.EVENT_RUN_OUTCOME_NOTHING_TO_DO: r.ACTIVITY_KIND_NOTHING_TO_DO,
                pb.EVENT_RUN_OUTCOME_COULD_NOT_ACT: r.ACTIVITY_KIND_COULD_NOT_ACT}.get(outcome, r.ACTIVITY_KIND_OTHER)
        details: dict[str, Any] = {
            "modo": "modelo" if run.mode == pb.ROLE_MODE_MODEL else "registro_basico",
            "acoes": [a.capability for a in run.actions], "chamadas_ao_modelo": run.model_calls,
        }
        if context.declaracao is None:
            details["declaracao"] = context.declaracao_problem
        await run.activity(kind, summary, details)
        await self._outcome(run, outcome, summary)
        fulfilled = sum(1 for o in run.obligations.values() if o.status == pb.OBLIGATION_STATUS_FULFILLED)
        failed = sum(1 for o in run.obligations.values() if o.status == pb.OBLIGATION_STATUS_FAILED)
        counts = {
            "turns_processed": 1, "promises_declared": declared, "promises_fulfilled": fulfilled,
            "promises_failed": failed,
            "actions_taken": sum(1 for a in run.actions if a.status == pb.ACTION_STATUS_DONE),
            "turns_could_not_act": 1 if run.problems else 0,
            "turns_nothing_to_do": int(outcome == pb.EVENT_RUN_OUTCOME_NOTHING_TO_DO),
            "turns_with_model": int(run.model_calls > 0), "turns_basic": int(run.model_calls == 0),
            "model_calls": run.model_calls,
        }
        response = self._response(run, outcome, summary)
        # Obligations settled before this run (a re-run, or a person) are reported as they stand.
        response.obligations.extend(
            pb.ObligationResult(o_que=o.o_que, status=_OBLIGATION_STATUS[o.status], resolution_pt=o.resolution)
            for o in context.obligations
            if o.obligation_id not in run.obligations and o.status in _OBLIGATION_STATUS)
        return response, counts

    @staticmethod
    def _overall(run: TurnRun) -> int:
        if run.acted:
            return pb.EVENT_RUN_OUTCOME_ACTED
        if run.problems or run.obligations:
            return pb.EVENT_RUN_OUTCOME_COULD_NOT_ACT if run.problems else pb.EVENT_RUN_OUTCOME_ACTED
        return pb.EVENT_RUN_OUTCOME_NOTHING_TO_DO

    @staticmethod
    def _summary(run: TurnRun, outcome: int) -> str:
        done = [a.detail_pt for a in run.actions if a.status in (pb.ACTION_STATUS_DONE, pb.ACTION_STATUS_ALREADY_DONE)]
        parts = []
        if done:
            parts.append("Operador: " + "; ".join(done))
        if run.problems:
            parts.append("não conseguiu: " + "; ".join(run.problems))
        if outcome == pb.EVENT_RUN_OUTCOME_NOTHING_TO_DO or not parts:
            parts.append("Nada a fazer neste turno")
        return " — ".join(parts)

    async def _outcome(self, run: TurnRun, outcome: int, summary: str) -> None:
        await run.peers.crm_write.RecordOperadorOutcome(cw.RecordOperadorOutcomeRequest(
            organization_id=run.org, turn_id=run.context.turn_id,
            outcome=r.OperadorOutcome(
                status=OUTCOME_STATUS.get(outcome, r.OPERADOR_OUTCOME_STATUS_ACTED),  # type: ignore[arg-type]
                used_model=run.model_calls > 0, actions=[a.capability for a in run.actions], summary_pt=summary,
                event_id=run.context.event_id,
            ),
            idempotency_key=f"op:{run.context.event_id}:outcome",
        ), timeout=run.peers.timeout)

    @staticmethod
    def _response(run: TurnRun, outcome: int, summary: str) -> pb.RunEventResponse:
        return pb.RunEventResponse(
            outcome=outcome, mode=run.mode, actions=run.actions, obligations=list(run.obligations.values()),  # type: ignore[arg-type]
            proactive_turn_requested=run.proactive_requested, summary_pt=summary,
        )
