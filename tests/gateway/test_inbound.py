"""Inbound messages are checked and normalised before anything is stored."""

from __future__ import annotations

import pytest

from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway.inbound import InvalidInbound, normalise, normalise_phone

ORG = "6f1d3c1e-8a55-4c55-9a59-3a0c2d0e5b11"


def request(**message: object) -> gw.SubmitInboundRequest:
    fields = {
        "channel": gw.CHANNEL_TEST,
        "channel_instance": "test",
        "phone": "+5511987654321",
        "message_id": "m-1",
        "type": gw.MESSAGE_TYPE_TEXT,
        "text": "oi",
    }
    fields.update(message)
    return gw.SubmitInboundRequest(organization_id=ORG, message=gw.InboundMessage(**fields))


@pytest.mark.parametrize(
    "raw", ["+55 11 98765-4321", "5511987654321", "(11) 98765-4321", "551187654321@s.whatsapp.net", "+5511 8765-4321"]
)
def test_one_phone_however_written(raw: str) -> None:
    assert normalise_phone(raw) == "+5511987654321"


def test_testar_names_its_own_field() -> None:
    with pytest.raises(InvalidInbound, match=r"^test_phone '123'"):
        normalise_phone("123", "test_phone")


def test_the_delivery_key_uses_the_normalised_phone() -> None:
    a = normalise(request(phone="(11) 98765-4321"))
    b = normalise(request(phone="5511987654321"))
    assert (a.channel_instance, a.sender_key, a.message_id) == (b.channel_instance, b.sender_key, b.message_id)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"message_id": " "}, "message.message_id"),
        ({"channel_instance": ""}, "message.channel_instance"),
        ({"channel": gw.CHANNEL_UNSPECIFIED}, "message.channel"),
        ({"phone": "abc"}, "message.phone"),
        ({"phone": "+5520987654321"}, "message.phone"),  # possible, but no area code 20: crm refuses it
        ({"phone": "5511987654321@lid"}, "message.phone"),
        ({"jid": "5511987654321"}, "message.jid"),
        ({"phone": ""}, "message.phone"),
        ({"text": ""}, "message.text"),
        ({"type": gw.MESSAGE_TYPE_UNSPECIFIED}, "message.type"),
    ],
)
def test_bad_input_names_the_field(change: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidInbound, match=field.replace(".", r"\.")):
        normalise(request(**change))


def test_organization_must_be_a_uuid() -> None:
    with pytest.raises(InvalidInbound, match="organization_id"):
        normalise(gw.SubmitInboundRequest(organization_id="demo", message=request().message))


def test_media_is_described_for_the_conversador() -> None:
    message = normalise(
        request(
            type=gw.MESSAGE_TYPE_LOCATION,
            text="",
            location=gw.Location(latitude=-22.9, longitude=-47.06, name="Campinas"),
        )
    )
    assert message.attachment_note == "localização: Campinas"
    assert message.details["location"]["name"] == "Campinas"


def test_web_messages_may_come_by_profile() -> None:
    message = normalise(request(channel=gw.CHANNEL_WEB, channel_instance="web", phone="", profile_id="p-77"))
    assert message.sender_key == "profile:p-77" and message.phone == ""
