"""Contacts: finding a person by any of their identities, and the flags that silence the agent."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.crm.v1 import crm_resources_pb2 as r
from services.crm import organization_settings, refusals, timeline
from services.crm.cpf import normalize_cpf
from services.crm.errors import InvalidArgument, NotFound
from services.crm.phones import normalize_phone, phone_from_jid
from services.crm.repository import contacts as repo
from services.crm.repository import leads
from services.crm.repository import organizations as org_repo
from services.crm.repository._sql import Row


@dataclass(frozen=True)
class Identity:
    """How a contact is recognised: any of a phone (E.164), a WhatsApp JID, a web profile."""

    phone_e164: str | None
    whatsapp_jid: str | None
    web_profile_id: str | None

    @classmethod
    def parse(cls, phone: str, default_region: str, jid: str, web_profile_id: str) -> Identity:
        jid = jid.strip()
        if jid and "@" not in jid:
            raise InvalidArgument(f"whatsapp_jid {jid!r} is not a JID (expected e.g. 5511987654321@s.whatsapp.net)")
        if phone.strip():
            phone_e164: str | None = normalize_phone(phone, default_region)
        elif jid and (jid_phone := phone_from_jid(jid)):
            phone_e164 = normalize_phone(jid_phone, default_region, field="whatsapp_jid")
        else:
            phone_e164 = None
        identity = cls(phone_e164, jid or None, web_profile_id.strip() or None)
        if not (identity.phone_e164 or identity.whatsapp_jid or identity.web_profile_id):
            raise InvalidArgument("a contact needs a phone, a whatsapp_jid or a web_profile_id")
        return identity

    def keys(self) -> list[str]:
        return [k for k in (self.phone_e164, self.whatsapp_jid, self.web_profile_id) if k]


@dataclass(frozen=True)
class Details:
    name: str
    email: str
    cpf: str
    channel: str
    legal_basis: str
    # `name` and `legal_basis` only fill empty values (what an inbound message tells).
    fill_empty_only: bool = False

    @classmethod
    def parse(
        cls, name: str, email: str, cpf: str, channel: str, legal_basis: str, *, fill_empty_only: bool = False
    ) -> Details:
        email = email.strip()
        if email and ("@" not in email or " " in email):
            raise InvalidArgument(f"email {email!r} is not an e-mail address")
        cpf = normalize_cpf(cpf) if cpf.strip() else ""
        return cls(name.strip(), email, cpf, channel, legal_basis, fill_empty_only)


async def upsert(
    conn: AsyncConnection, org: UUID, identity: Identity, details: Details, now: datetime
) -> tuple[Row, bool]:
    # The organisation's existence comes with the first identity lock (an identity has at least one
    # key); an unknown organisation → NOT_FOUND, and the rollback releases the lock.
    if not await repo.lock_identities(conn, org, identity.keys()):
        raise NotFound(f"organization {org} not found")
    found = await _find(conn, org, identity)
    fields = {
        "name": details.name,
        "email": details.email,
        "cpf": details.cpf,
        "channel": details.channel,
        "legal_basis": details.legal_basis,
    }
    if found is not None and details.fill_empty_only:
        if found["name"]:
            fields["name"] = ""
        if found["legal_basis"] != "unspecified":
            fields["legal_basis"] = "unspecified"
    if found is None:
        row = await repo.insert(
            conn, org, uuid.uuid4(), now=now,
            phone=identity.phone_e164,
            jids=[identity.whatsapp_jid] if identity.whatsapp_jid else [],
            web=identity.web_profile_id,
            **fields,
        )
        return row, True
    # Never move an identity that another contact already holds.
    phone = identity.phone_e164
    if phone and found["phone_e164"] != phone and await repo.by_phone(conn, org, phone) is not None:
        phone = None
    web = identity.web_profile_id
    if web and found["web_profile_id"] != web and await repo.by_web_profile(conn, org, web) is not None:
        web = None
    row = await repo.complete(
        conn, org, found["contact_id"], now=now, phone=phone, jid=identity.whatsapp_jid, web=web, **fields
    )
    return row, False


async def _find(conn: AsyncConnection, org: UUID, identity: Identity) -> Row | None:
    if identity.phone_e164 and (row := await repo.by_phone(conn, org, identity.phone_e164)):
        return row
    if identity.whatsapp_jid and (row := await repo.by_jid(conn, org, identity.whatsapp_jid)):
        return row
    if identity.web_profile_id and (row := await repo.by_web_profile(conn, org, identity.web_profile_id)):
        return row
    return None


async def require(conn: AsyncConnection, org: UUID, contact: UUID, *, lock: bool = False) -> Row:
    return found(await repo.get(conn, org, contact, lock=lock), org, contact)


def found(row: Row | None, org: UUID, contact: UUID) -> Row:
    """The contact's row, read by the caller; NOT_FOUND when there is none."""
    if row is None:
        raise NotFound(f"contact {contact} not found in organization {org}")
    return row


async def set_opt_out(conn: AsyncConnection, org: UUID, contact: UUID, opted_out: bool, *, reason: str,
                      source_turn_id: str, now: datetime) -> Row:
    current = await require(conn, org, contact, lock=True)
    row = await repo.set_flag(conn, org, contact, "opted_out", opted_out, now)
    assert row is not None
    if current["opted_out"] != opted_out:
        summary = "Pediu para não receber mais mensagens" if opted_out else "Pediu para voltar a receber mensagens"
        await timeline.record(
            conn, org, contact, r.ACTIVITY_KIND_OPT_OUT_CHANGED, _with_reason(summary, reason), now,
            actor=r.Actor(kind=r.ACTOR_KIND_CONTACT), turn_id=source_turn_id,
        )
    return row


async def set_blocked(conn: AsyncConnection, org: UUID, contact: UUID, blocked: bool, *, reason: str,
                      now: datetime) -> Row:
    current = await require(conn, org, contact, lock=True)
    row = await repo.set_flag(conn, org, contact, "blocked", blocked, now)
    assert row is not None
    if current["blocked"] != blocked:
        summary = "Contato bloqueado: nada será enviado a ele" if blocked else "Contato desbloqueado"
        await timeline.record(conn, org, contact, r.ACTIVITY_KIND_OTHER, _with_reason(summary, reason), now,
                              actor=r.Actor(kind=r.ACTOR_KIND_PERSON))
    return row


async def set_human_control(conn: AsyncConnection, org: UUID, contact: UUID, in_control: bool, *,
                            until: datetime | None, reason: str, actor: r.Actor, now: datetime) -> Row:
    if in_control and until is not None and until <= now:
        raise InvalidArgument("until must be in the future")
    await require(conn, org, contact, lock=True)
    row = await repo.set_human_control(conn, org, contact, in_control, until, now)
    assert row is not None
    summary = "Uma pessoa assumiu a conversa" if in_control else "A conversa voltou para o assistente"
    await timeline.record(conn, org, contact, r.ACTIVITY_KIND_HUMAN_CONTROL_CHANGED, _with_reason(summary, reason),
                          now, actor=actor)
    return row


async def anonymize(conn: AsyncConnection, org: UUID, contact: UUID, *, reason: str, now: datetime) -> Row:
    """Erase the person (LGPD): identities, name, e-mail, CPF, notes and what the summaries remember."""
    await require(conn, org, contact, lock=True)
    row = await repo.anonymize(conn, org, contact, now)
    assert row is not None
    await leads.delete_notes(conn, org, contact)
    await leads.redact_checkpoints(conn, org, contact)
    await timeline.record(conn, org, contact, r.ACTIVITY_KIND_OTHER,
                          _with_reason("Dados pessoais apagados (LGPD)", reason), now,
                          actor=r.Actor(kind=r.ACTOR_KIND_PERSON))
    return row


@dataclass(frozen=True)
class Assignment:
    contact: Row | None
    attendant: r.Attendant | None
    refusal: r.CrmRefusal | None


async def assign_attendant(conn: AsyncConnection, org: UUID, contact: UUID, attendant_id: str, *, reason: str,
                           source_turn_id: str, now: datetime) -> Assignment:
    current = await require(conn, org, contact, lock=True)
    if current["anonymized"]:
        return Assignment(None, None, refusals.contact_anonymized())
    organization = await org_repo.get(conn, org, lock=True)
    assert organization is not None
    team = list(organization_settings.from_document(organization["settings"]).attendants)
    if attendant_id:
        chosen = next((a for a in team if a.attendant_id == attendant_id), None)
        if chosen is None:
            raise NotFound(f"attendant {attendant_id!r} is not one of the organisation's attendants")
        if not chosen.active:
            return Assignment(None, None, refusals.no_active_attendant(chosen.name))
    else:
        active = [a for a in team if a.active]
        if not active:
            return Assignment(None, None, refusals.no_active_attendant())
        # Round robin: the next active attendant after the last one assigned automatically.
        ids = [a.attendant_id for a in active]
        last = organization["last_assigned_attendant_id"]
        chosen = active[(ids.index(last) + 1) % len(active)] if last in ids else active[0]
        await org_repo.set_last_assigned_attendant(conn, org, chosen.attendant_id)
    row = await repo.assign_attendant(conn, org, contact, chosen.attendant_id, now)
    await timeline.record(conn, org, contact, r.ACTIVITY_KIND_ATTENDANT_ASSIGNED,
                          _with_reason(f"Atendimento direcionado para {chosen.name or chosen.attendant_id}", reason),
                          now, turn_id=source_turn_id, details={"attendant_id": chosen.attendant_id})
    return Assignment(row, chosen, None)


def _with_reason(summary: str, reason: str) -> str:
    return f"{summary}: {reason.strip()}" if reason.strip() else summary
