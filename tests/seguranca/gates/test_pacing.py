"""`pacing`: quiet hours, daily caps with warm-up, per-contact spacing — waits, not vetoes."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from services.seguranca.facts import History, OrganizationConfig, OutboundKind, PacingRules, SentMessage
from services.seguranca.gates import pacing
from services.seguranca.verdict import Status
from tests.seguranca.helpers import gate

SP = ZoneInfo("America/Sao_Paulo")


def _config(**rules: object) -> OrganizationConfig:
    return OrganizationConfig(time_zone="America/Sao_Paulo", pacing=PacingRules(**rules))  # type: ignore[arg-type]


def _local(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, day, hour, minute, tzinfo=SP)


QUIET = _config(quiet_start=time(22, 0), quiet_end=time(8, 0))


def test_inside_quiet_hours_a_proactive_message_waits_until_they_end_in_the_organisations_zone() -> None:
    late = gate(pacing.check, "Lembrete", config=QUIET, now=_local(5, 23, 30), kind=OutboundKind.PROACTIVE)
    assert late.status is Status.WAITED
    assert late.wait is not None and late.wait.code == "pacing:quiet_hours"
    assert late.wait.until == _local(6, 8, 0)
    assert late.wait.reason_pt.strip()
    early = gate(pacing.check, "Lembrete", config=QUIET, now=_local(6, 6, 0), kind=OutboundKind.FOLLOWUP)
    assert early.wait is not None and early.wait.until == _local(6, 8, 0)


def test_outside_quiet_hours_it_goes() -> None:
    result = gate(pacing.check, "Lembrete", config=QUIET, now=_local(5, 21, 59), kind=OutboundKind.PROACTIVE)
    assert result.status is Status.PASSED


def test_a_reply_to_someone_who_just_wrote_is_never_held() -> None:
    result = gate(pacing.check, "Claro!", config=QUIET, now=_local(5, 23, 30), kind=OutboundKind.REPLY)
    assert result.status is Status.NOT_APPLICABLE


def test_at_the_daily_cap_it_waits_for_the_next_local_day() -> None:
    config = _config(daily_cap=100)
    below = gate(
        pacing.check,
        "Oi",
        config=config,
        now=_local(5, 15),
        kind=OutboundKind.PROACTIVE,
        history=History(sent_today_from_sender=99),
    )
    assert below.status is Status.PASSED
    at = gate(
        pacing.check,
        "Oi",
        config=config,
        now=_local(5, 15),
        kind=OutboundKind.PROACTIVE,
        history=History(sent_today_from_sender=100),
    )
    assert at.wait is not None and at.wait.code == "pacing:daily_cap"
    assert at.wait.until == _local(6, 0)


def test_a_new_number_warms_up_from_its_initial_cap() -> None:
    config = _config(daily_cap=100, warmup_initial_cap=20, warmup_days=4)
    now = _local(5, 15)
    first_day = History(sent_today_from_sender=20, sender_active_since=now - timedelta(hours=3))
    result = gate(pacing.check, "Oi", config=config, now=now, kind=OutboundKind.PROACTIVE, history=first_day)
    assert result.wait is not None and result.wait.code == "pacing:warmup_cap"
    assert pacing.cap_for_today(config.pacing, _ctx(config, now, now - timedelta(days=2))) == (60, "warmup_cap")
    warmed = History(sent_today_from_sender=20, sender_active_since=now - timedelta(days=10))
    assert gate(pacing.check, "Oi", config=config, now=now, kind=OutboundKind.PROACTIVE, history=warmed).status is (
        Status.PASSED
    )


def _ctx(config: OrganizationConfig, now: datetime, since: datetime):  # type: ignore[no-untyped-def]
    from services.seguranca.context import Context
    from services.seguranca.vocabulary import contract_index
    from tests.seguranca.helpers import outbound

    return Context(config, outbound("Oi", history=History(sender_active_since=since)), now, contract_index())


def test_two_proactive_messages_to_one_contact_keep_their_interval() -> None:
    config = _config(per_contact_min_interval_seconds=3600)
    now = datetime(2026, 3, 5, 18, 0, tzinfo=UTC)
    recent = History(to_contact=(SentMessage("Oi", now - timedelta(minutes=20)),))
    result = gate(pacing.check, "Oi de novo", config=config, now=now, kind=OutboundKind.PROACTIVE, history=recent)
    assert result.wait is not None and result.wait.code == "pacing:contact_interval"
    assert result.wait.until == now + timedelta(minutes=40)
    old = History(to_contact=(SentMessage("Oi", now - timedelta(hours=2)),))
    assert gate(pacing.check, "Oi", config=config, now=now, kind=OutboundKind.PROACTIVE, history=old).status is (
        Status.PASSED
    )


def test_when_several_hold_the_latest_moment_wins() -> None:
    config = _config(quiet_start=time(22, 0), quiet_end=time(8, 0), daily_cap=10)
    result = gate(
        pacing.check,
        "Oi",
        config=config,
        now=_local(5, 23),
        kind=OutboundKind.PROACTIVE,
        history=History(sent_today_from_sender=10),
    )
    assert result.wait is not None and result.wait.until == _local(6, 8) and result.wait.code == "pacing:quiet_hours"
