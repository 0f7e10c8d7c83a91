"""`pacing`: the organisation's send window and caps. A throttle is a WAIT the runtime honours.

It judges the messages the agent starts itself (follow-ups, proactive turns); an answer to
someone who just wrote is never held for quiet hours. Rules, all in the organisation's zone:
- quiet hours: inside them, wait until they end (a window may cross midnight);
- daily cap per sending number: at the cap, wait until the next local midnight;
- warm-up: a new number's cap starts at `warmup_initial_cap` and grows evenly to the daily cap
  over `warmup_days` (with no daily cap, it grows by the initial cap each day until the warm-up
  ends); an unknown start date means the number is treated as warmed up;
- per contact: at least `per_contact_min_interval_seconds` since the last message to them.
When several hold, the latest moment wins.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

from services.seguranca.context import Context
from services.seguranca.facts import PacingRules
from services.seguranca.verdict import PASSED, GateResult, Status, Wait, not_applicable

NAME = "pacing"

REASONS = {
    "quiet_hours": "Fora do horário de envio da empresa; a mensagem sai quando o horário de silêncio terminar.",
    "daily_cap": "O número já enviou o máximo de mensagens do dia; a mensagem sai no início do próximo dia.",
    "warmup_cap": (
        "O número ainda está em aquecimento e já atingiu o limite de hoje; a mensagem sai no início do próximo dia."
    ),
    "contact_interval": (
        "Este contato recebeu uma mensagem há pouco; a próxima respeita o intervalo mínimo entre envios."
    ),
}


# Most messages answer the contact: one shared result rather than a new one per review.
_ANSWERS_THE_CONTACT = not_applicable(f"{NAME}:answers_the_contact")


def _local_moment(day: datetime, at: time, ctx: Context) -> datetime:
    return datetime.combine(day.date(), at, tzinfo=ctx.zone)


def _quiet_hours(rules: PacingRules, ctx: Context) -> datetime | None:
    start, end = rules.quiet_start, rules.quiet_end
    if start is None or end is None or start == end:
        return None
    local = ctx.now.astimezone(ctx.zone)
    moment = local.time().replace(tzinfo=None)
    if start < end:
        quiet, ends_today = start <= moment < end, True
    else:
        quiet, ends_today = moment >= start or moment < end, moment < end
    if not quiet:
        return None
    day = local if ends_today else local + timedelta(days=1)
    return _local_moment(day, end, ctx)


def cap_for_today(rules: PacingRules, ctx: Context) -> tuple[int, str]:
    """The sending number's cap today (0 = none) and whether the warm-up sets it."""
    full = rules.daily_cap
    since = ctx.outbound.history.sender_active_since
    if rules.warmup_initial_cap > 0 and rules.warmup_days > 0 and since is not None:
        day = (ctx.now.astimezone(ctx.zone).date() - since.astimezone(ctx.zone).date()).days
        if 0 <= day < rules.warmup_days:
            if full > 0:
                cap = rules.warmup_initial_cap + (full - rules.warmup_initial_cap) * day // rules.warmup_days
                return min(max(cap, 1), full), "warmup_cap"
            return rules.warmup_initial_cap * (day + 1), "warmup_cap"
    return full, "daily_cap"


def check(ctx: Context) -> GateResult:
    if not ctx.initiated:
        return _ANSWERS_THE_CONTACT
    rules = ctx.config.pacing
    holds: list[tuple[datetime, str]] = []
    quiet_until = _quiet_hours(rules, ctx)
    if quiet_until is not None:
        holds.append((quiet_until, "quiet_hours"))
    cap, cap_code = cap_for_today(rules, ctx)
    if cap > 0 and ctx.outbound.history.sent_today_from_sender >= cap:
        tomorrow = ctx.now.astimezone(ctx.zone) + timedelta(days=1)
        holds.append((_local_moment(tomorrow, time(0), ctx), cap_code))
    interval = rules.per_contact_min_interval_seconds
    sent = [m.sent_at for m in ctx.outbound.history.to_contact if m.sent_at is not None]
    if interval > 0 and sent:
        ready_at = max(sent) + timedelta(seconds=interval)
        if ready_at > ctx.now:
            holds.append((ready_at, "contact_interval"))
    if not holds:
        return PASSED
    until, code = max(holds, key=lambda hold: hold[0])
    full_code = f"{NAME}:{code}"
    return GateResult(Status.WAITED, full_code, wait=Wait(until, full_code, REASONS[code]))
