"""Rule 2, property-based: whatever identifiers ride in the raw payloads, none reaches the output.

Every string field of every raw message projection reads (set or not, nested, repeated, map
values, Struct details) may get a planted value, alone or inside pt-BR text: random UUIDs
(with and without hyphens), numeric ids, WhatsApp JIDs, provider ids, snake_case keys, error
codes and idempotency keys; integer fields get large random ids. Every projection runs over
the result, and no projected string may contain any planted value nor any id the samples
already carried.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from balcao.agenda.v1 import agenda_read_pb2
from balcao.agenda.v1 import agenda_resources_pb2 as A
from balcao.crm.v1 import crm_read_pb2
from balcao.crm.v1 import crm_resources_pb2 as C
from services.projection import availability, knowledge
from services.projection.appointments import project_appointments
from services.projection.findings import Findings
from services.projection.handles import handle_key
from services.projection.lead import project_lead_context
from services.projection.turn import project_turn_context
from tests.projection import samples

KEY = handle_key(b"a-mesh-secret-for-tests")
UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")

_hex = "0123456789abcdef"
_alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_digits = st.text(alphabet="0123456789", min_size=10, max_size=15)

uuids = st.uuids().flatmap(lambda u: st.sampled_from([str(u), str(u).upper(), u.hex]))
numeric_ids = st.integers(min_value=10**6, max_value=10**15).map(str)
jids = st.builds(
    lambda d, server: f"{d}@{server}", _digits, st.sampled_from(["s.whatsapp.net", "g.us", "lid", "c.us"])
)
external_ids = st.builds(
    lambda prefix, body, d, letters: f"{prefix}{body}{d}{letters}",
    st.sampled_from(["", "wamid.", "3EB0", "evt-", "msg."]),
    st.text(alphabet=_alnum, min_size=8, max_size=24),
    st.text(alphabet="0123456789", min_size=2, max_size=4),
    st.text(alphabet="ABCDEFGHJKMNPQRSTVWXYZ", min_size=2, max_size=4),
)
snake_keys = st.from_regex(r"[a-z]{2,9}(_[a-z0-9]{2,9}){1,3}", fullmatch=True)
error_codes = st.from_regex(r"[a-z]{3,10}(_[a-z]{2,8})?:[a-z]{3,10}(_[a-z]{2,8})?", fullmatch=True)
idempotency_keys = st.one_of(
    st.builds(lambda u, a: f"{u}:{a}", st.uuids().map(str), st.sampled_from(["book", "remind", "update_lead_state"])),
    st.builds(lambda h: f"idem_{h}", st.text(alphabet=_hex, min_size=12, max_size=24)),
)
identifiers = st.one_of(uuids, numeric_ids, jids, external_ids, snake_keys, error_codes, idempotency_keys)

PT_WORDS = ["cliente pediu", "ver", "consulta de", "retorno:", "(", "obs.", "na quinta", "-", "—"]


@dataclass
class Planter:
    rng: random.Random
    pool: list[str]
    ratio: float
    planted: set[str] = field(default_factory=set)

    def value(self) -> str:
        identifier = self.rng.choice(self.pool)
        self.planted.add(identifier)
        shape = self.rng.randrange(3)
        if shape == 0:
            return identifier
        before, after = self.rng.choice(PT_WORDS), self.rng.choice(PT_WORDS)
        return f"{before} {identifier} {after}" if shape == 1 else f"{before}{identifier}"

    def big_int(self, bits: int) -> int:
        number = self.rng.randrange(10**7, 2**31 - 1 if bits == 32 else 10**12)
        self.planted.add(str(number))
        return number

    def plant(self, message: Message) -> None:
        if message.DESCRIPTOR.full_name == "google.protobuf.Timestamp":
            return
        if message.DESCRIPTOR.full_name == "google.protobuf.Struct":
            message.update({"code": self.value(), "note": self.value()})  # type: ignore[attr-defined]
            return
        for fd in message.DESCRIPTOR.fields:
            if fd.containing_oneof is not None and message.WhichOneof(fd.containing_oneof.name) != fd.name:
                continue
            current = getattr(message, fd.name)
            if fd.type == FieldDescriptor.TYPE_MESSAGE:
                if fd.message_type.GetOptions().map_entry:
                    if fd.message_type.fields_by_name["value"].type == FieldDescriptor.TYPE_STRING:
                        current[self.value()] = self.value()
                    continue
                items = current if fd.is_repeated else ([current] if message.HasField(fd.name) else [])
                for item in items:
                    self.plant(item)
            elif fd.type == FieldDescriptor.TYPE_STRING and self.rng.random() < self.ratio:
                if fd.is_repeated:
                    current.append(self.value())
                else:
                    setattr(message, fd.name, self.value())
            elif fd.type in (FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_INT32) and not fd.is_repeated:
                if self.rng.random() < self.ratio / 2:
                    setattr(message, fd.name, self.big_int(32 if fd.type == FieldDescriptor.TYPE_INT32 else 64))


def _strings(message: Message) -> list[str]:
    found: list[str] = []
    for fd, value in message.ListFields():
        if fd.type == FieldDescriptor.TYPE_STRING:
            found.extend(value if fd.is_repeated else [value])
        elif fd.type == FieldDescriptor.TYPE_MESSAGE and fd.message_type.GetOptions().map_entry:
            for key, item in value.items():
                found.append(str(key))
                if isinstance(item, Message):
                    found.extend(_strings(item))
                elif isinstance(item, str):
                    found.append(item)
        elif fd.type == FieldDescriptor.TYPE_MESSAGE:
            for item in value if fd.is_repeated else [value]:
                found.extend(_strings(item))
    return found


def _ids_in(message: Message) -> set[str]:
    return {m.group(0).lower() for text in _strings(message) for m in UUID.finditer(text)}


def _raw_bundle() -> list[Message]:
    turn = samples.raw_turn()
    slots = agenda_read_pb2.CheckAvailabilityResponse(
        slots=[
            A.Slot(
                resource_id=samples.RESOURCE,
                resource_name="Dra. Beatriz Lima",
                service_id=samples.SERVICE,
                start_time=samples.ts(samples.NOW.replace(day=7)),
                end_time=samples.ts(samples.NOW.replace(day=7, hour=18)),
                labels=A.LocalTimeLabels(start_label="quinta-feira, 7 de novembro de 2024, 14:30", start_iso="x"),
            )
        ],
        refusal=A.Refusal(code=A.REFUSAL_CODE_RANGE_TOO_LONG, message_pt="longo demais"),
    )
    slots.refusal.alternatives.append(slots.slots[0])
    notes = crm_read_pb2.ListLeadNotesResponse(
        notes=[C.LeadNote(note_id=samples.new_id(), key="preferencias", title="Preferências", body="à tarde")]
    )
    reference = crm_read_pb2.GetSkillReferenceResponse(
        found=True,
        reference=C.KnowledgeArticle(article_id=samples.new_id(), title="Roteiro", body="texto", published=True),
    )
    lead = turn.lead
    assert turn.appointments is not None
    return [
        lead.organization,
        lead.contact,
        lead.lead_state,
        lead.checkpoint,
        lead.cases,
        lead.follow_ups,
        lead.activities,
        turn.agent,
        turn.references,
        turn.appointments,
        samples.knowledge_hits(10),
        notes,
        reference,
        slots,
    ]


def _project_everything(bundle: list[Message]) -> list[Message]:
    (organization, contact, state, checkpoint, cases, follow_ups, activities, agent, references, appointments,
     hits, notes, reference, slots) = bundle  # fmt: skip
    turn = samples.raw_turn()
    turn.lead.organization, turn.lead.contact, turn.lead.lead_state = organization, contact, state
    turn.lead.checkpoint, turn.lead.cases, turn.lead.follow_ups = checkpoint, cases, follow_ups
    turn.lead.activities, turn.agent, turn.references, turn.appointments = activities, agent, references, appointments
    findings = Findings()
    return [
        project_turn_context(turn, samples.NOW, findings),
        project_lead_context(turn.lead, findings),
        project_appointments(appointments, samples.NOW, findings),
        knowledge.project_search(hits, 10, findings),
        knowledge.project_notes(notes, "", "America/Sao_Paulo", findings),
        knowledge.project_skill_reference(reference, findings),
        availability.project_availability(
            slots,
            places={samples.RESOURCE: A.Place(name="sala 2")},
            handle_key=KEY,
            organization_id=samples.ORG,
            contact_id=samples.CONTACT,
            now=samples.NOW,
            max_slots=12,
            findings=findings,
        ),
    ]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    pool=st.lists(identifiers, min_size=3, max_size=20, unique=True),
    seed=st.integers(min_value=0, max_value=2**32),
    ratio=st.floats(min_value=0.1, max_value=1.0),
)
def test_no_planted_identifier_reaches_any_projected_output(pool: list[str], seed: int, ratio: float) -> None:
    bundle = _raw_bundle()
    planter = Planter(random.Random(seed), pool, ratio)
    original_ids = set().union(*(_ids_in(m) for m in bundle))
    for message in bundle:
        planter.plant(message)
    outputs = _project_everything(bundle)
    text = "\n".join(s for output in outputs for s in _strings(output))
    lowered = text.lower()
    leaked = [p for p in planter.planted if p in text or p.lower() in lowered]
    assert leaked == []
    assert [i for i in original_ids if i in lowered or i.replace("-", "") in lowered] == []


def test_the_property_is_not_vacuous_clean_texts_do_pass() -> None:
    # The same projections over the unplanted bundle show the texts the property test may drop.
    text = "\n".join(s for output in _project_everything(_raw_bundle()) for s in _strings(output))
    expected = ["Ana quer clarear os dentes", "Aguardando pagamento", "Dra. Beatriz Lima", "Preferências: à tarde"]
    assert [e for e in expected if e not in text] == []
