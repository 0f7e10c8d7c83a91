"""Evolution webhook bodies become the messages a customer sent, or an explicit reason to ignore them."""

from __future__ import annotations

import base64
import copy
from datetime import UTC, datetime
from typing import Any

import pytest

from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway.edge.evolution.normalize import (
    AUDIO_WITHOUT_TRANSCRIPTION_PT,
    UNSUPPORTED_PT,
    NormalizeOptions,
    normalize_webhook,
)
from services.gateway.edge.inbound import Ignored, IgnoreReason, MessageType, NormalizedInbound
from tests.gateway.edge.evolution_fixtures import fixture_paths, load_fixture

DEFAULT = NormalizeOptions()
SENT_AT = datetime(2025, 10, 21, 14, 40, 39, tzinfo=UTC)  # messageTimestamp 1761057639, not date_time


def one(body: Any, options: NormalizeOptions = DEFAULT) -> NormalizedInbound | Ignored:
    results = normalize_webhook(body, options)
    assert len(results) == 1
    return results[0]


def message(body: Any, options: NormalizeOptions = DEFAULT) -> NormalizedInbound:
    result = one(body, options)
    assert isinstance(result, NormalizedInbound), result
    return result


def ignored(body: Any, options: NormalizeOptions = DEFAULT) -> Ignored:
    result = one(body, options)
    assert isinstance(result, Ignored), result
    return result


def upsert(key: dict[str, Any], content: dict[str, Any], **data: Any) -> dict[str, Any]:
    return {
        "event": "messages.upsert",
        "instance": "atendimento",
        "data": {"key": {"fromMe": False, "id": "3A0000000000000000AA", **key}, "message": content, **data},
        "sender": "5511912345678@s.whatsapp.net",
        "apikey": None,
    }


PN = "5511987654321@s.whatsapp.net"
LID = "103899771998284@lid"


# ---------------------------------------------------------------------------------------------
# Every fixture of shared/fixtures/evolution
# ---------------------------------------------------------------------------------------------

EXPECTED = {
    "01": (MessageType.TEXT, "Oi, tudo bem?", "+5511987654321", PN, "3A5F0E7C9B1D2E4F6A80"),
    "02": (
        MessageType.TEXT,
        "Quero o plano anual: https://exemplo.com/planos",
        "+5511987654321",
        PN,
        "A1B2C3D4E5F60718293A4B5C6D7E8F90",
    ),
    "03": (
        MessageType.IMAGE,
        "Comprovante do pagamento",
        "+5521998765432",
        "5521998765432@s.whatsapp.net",
        "3AD4C2B1A0F9E8D7C6B5",
    ),
    "04": (
        MessageType.AUDIO,
        "",
        "+5531988887777",
        "5531988887777@s.whatsapp.net",
        "B7C8D9E0F1A2B3C4D5E6F7A8B9C0D1E2",
    ),
    "05": (MessageType.DOCUMENT, "Segue o contrato assinado", "+5511987654321", PN, "3AF1E2D3C4B5A6978877"),
    "06": (MessageType.LOCATION, "", "+5511987654321", PN, "3A0B1C2D3E4F5A6B7C8D"),
    "09": (MessageType.TEXT, "Olá, vi o anúncio de vocês", "+5511987654321", LID, "A0B1C2D3E4F5A6B7C8D9E0F1A2B3C4D5"),
}
IGNORED = {"07": IgnoreReason.FROM_ME, "08": IgnoreReason.GROUP, "10": IgnoreReason.OTHER_EVENT}


def test_every_fixture_is_covered() -> None:
    assert not set(EXPECTED) & set(IGNORED)
    assert {p.name[:2] for p in fixture_paths()} == set(EXPECTED) | set(IGNORED)


@pytest.mark.parametrize("prefix", sorted(EXPECTED))
def test_fixture_gives_the_right_text_phone_jid_and_type(prefix: str) -> None:
    kind, text, phone, jid, message_id = EXPECTED[prefix]
    got = message(load_fixture(prefix))
    assert (got.type, got.text, got.phone, got.jid, got.message_id) == (kind, text, phone, jid, message_id)
    assert got.channel_instance == "atendimento"
    assert got.sent_at == SENT_AT
    assert not got.from_business


@pytest.mark.parametrize("prefix", sorted(IGNORED))
def test_fixture_is_ignored_for_its_reason(prefix: str) -> None:
    assert ignored(load_fixture(prefix)).reason == IGNORED[prefix]


def test_reply_quoted_is_kept_with_the_text() -> None:
    got = message(load_fixture("02"))
    assert got.quoted_text == "Qual plano você prefere?"
    assert got.sender_name == "Maria Silva"


def test_image_arrives_inline_when_webhook_base64_is_on() -> None:
    got = message(load_fixture("03"))
    assert got.media is not None
    assert got.media.mime_type == "image/jpeg"
    assert got.media.content.startswith(b"\xff\xd8\xff")  # the JPEG itself, decoded
    assert not got.media.fetch_from_provider


def test_voice_note_is_kept_and_marked_for_transcription() -> None:
    got = message(load_fixture("04"))
    assert got.media is not None
    assert (got.media.voice_note, got.media.duration_seconds, got.media.mime_type) == (
        True,
        7,
        "audio/ogg; codecs=opus",
    )
    assert got.media.fetch_from_provider  # no base64: fetched through getBase64FromMediaMessage
    assert got.needs_transcription and not got.transcribed
    assert got.auto_reply_pt == AUDIO_WITHOUT_TRANSCRIPTION_PT
    assert "escrever" in got.auto_reply_pt


def test_document_with_caption_keeps_file_name_and_type() -> None:
    got = message(load_fixture("05"))
    assert got.media is not None
    assert (got.media.file_name, got.media.mime_type, got.media.fetch_from_provider) == (
        "contrato.pdf",
        "application/pdf",
        True,
    )


def test_location_keeps_coordinates_name_and_address() -> None:
    got = message(load_fixture("06"))
    assert got.location is not None
    assert (got.location.latitude, got.location.longitude) == (-23.5613496, -46.6565712)
    assert got.location.name == "MASP"
    assert got.location.address.startswith("Av. Paulista")


def test_from_me_is_not_answered_but_reported_so_the_agent_pauses() -> None:
    result = ignored(load_fixture("07"))
    signal = result.typed_by_business
    assert signal is not None
    assert signal.from_business
    assert (signal.phone, signal.jid, signal.text) == ("+5511987654321", PN, "Já te respondo!")
    assert signal.sender_name == ""  # "Você" is Evolution's fallback, not a customer's name


def test_group_message_taken_from_the_participant_when_groups_are_enabled() -> None:
    got = message(load_fixture("08"), NormalizeOptions(allow_groups=True))
    assert got.phone == "+5511987654321"  # participantAlt: the author's phone, not the group's
    assert got.jid == "120363042534567890@g.us"  # replies go to the group
    assert got.text == "@5511912345678 qual o horário de hoje?"


# ---------------------------------------------------------------------------------------------
# LID addressing, in every key shape the reference lists (§2.3)
# ---------------------------------------------------------------------------------------------

LID_KEYS = {
    "2.3.0": {"remoteJid": LID, "senderLid": LID, "senderPn": PN},
    "2.3.1-2.3.2": {"remoteJid": PN, "senderPn": PN, "senderLid": LID, "previousRemoteJid": LID},
    "2.3.3-2.3.4": {"remoteJid": PN, "remoteJidAlt": PN},
    "2.3.5-2.3.6": {"remoteJid": LID, "remoteJidAlt": PN, "addressingMode": "lid"},
    "2.3.7": {"remoteJid": PN, "remoteJidAlt": PN, "addressingMode": "lid"},
    "2.4.0-rc2": {"remoteJid": PN, "remoteJidAlt": LID, "addressingMode": "pn"},
    "bare senderPn": {"remoteJid": LID, "senderPn": "5511987654321"},
}


@pytest.mark.parametrize("version", sorted(LID_KEYS))
def test_lid_sender_resolves_to_the_phone_in_every_version(version: str) -> None:
    key = LID_KEYS[version]
    got = message(upsert(key, {"conversation": "oi"}))
    assert got.phone == "+5511987654321"
    assert got.jid == key["remoteJid"]  # the exact JID received is the one replied to


def test_an_upgrade_that_changes_the_key_shape_keeps_the_dedup_key() -> None:
    keys = {message(upsert(k, {"conversation": "oi"})).dedup_key for k in LID_KEYS.values()}
    assert keys == {("atendimento", "+5511987654321", "3A0000000000000000AA")}


@pytest.mark.parametrize(
    "key",
    [
        {"remoteJid": LID},  # ≤ 2.2.3
        {"remoteJid": LID, "addressingMode": "lid"},  # 2.3.6 without remoteJidAlt (issue #1872)
        {"remoteJid": LID, "remoteJidAlt": "99887766554433@lid"},
    ],
)
def test_lid_without_any_phone_is_ignored_never_invented(key: dict[str, Any]) -> None:
    result = ignored(upsert(key, {"conversation": "oi"}))
    assert result.reason == IgnoreReason.LID_WITHOUT_PHONE
    assert "@lid" in result.detail


def test_group_author_known_only_by_lid_is_ignored() -> None:
    body = upsert({"remoteJid": "120363042534567890@g.us", "participant": LID}, {"conversation": "oi"})
    assert ignored(body, NormalizeOptions(allow_groups=True)).reason == IgnoreReason.LID_WITHOUT_PHONE


def test_group_author_from_participant_pn_in_2_3_1() -> None:
    key = {"remoteJid": "120363042534567890@g.us", "participant": LID, "participantPn": PN}
    assert message(upsert(key, {"conversation": "oi"}), NormalizeOptions(allow_groups=True)).phone == "+5511987654321"


def test_the_instances_own_number_is_never_taken_for_the_customer() -> None:
    # For fromMe in a LID chat, `remoteJidAlt` may be the business's own number (reference §2.3).
    key = {"remoteJid": LID, "remoteJidAlt": "5511912345678@s.whatsapp.net", "fromMe": True}
    assert ignored(upsert(key, {"conversation": "oi"})).reason == IgnoreReason.LID_WITHOUT_PHONE


# ---------------------------------------------------------------------------------------------
# Phones
# ---------------------------------------------------------------------------------------------


def test_brazilian_mobile_without_the_ninth_digit_gets_it_back_but_the_jid_is_kept() -> None:
    got = message(upsert({"remoteJid": "553188887777@s.whatsapp.net"}, {"conversation": "oi"}))
    assert got.phone == "+5531988887777"
    assert got.jid == "553188887777@s.whatsapp.net"


def test_landline_is_not_given_a_ninth_digit() -> None:
    got = message(upsert({"remoteJid": "551133334444@s.whatsapp.net"}, {"conversation": "oi"}))
    assert got.phone == "+551133334444"


def test_device_suffix_and_foreign_numbers() -> None:
    got = message(upsert({"remoteJid": "5511987654321:12@s.whatsapp.net"}, {"conversation": "oi"}))
    assert (got.phone, got.jid) == ("+5511987654321", "5511987654321:12@s.whatsapp.net")
    assert message(upsert({"remoteJid": "14155550123@s.whatsapp.net"}, {"conversation": "hi"})).phone == "+14155550123"


def test_a_phone_jid_that_is_not_a_number_is_ignored() -> None:
    assert ignored(upsert({"remoteJid": "123@s.whatsapp.net"}, {"conversation": "oi"})).reason == (
        IgnoreReason.INVALID_PHONE
    )


def test_a_jid_no_phone_can_have_is_ignored_by_the_rule_crm_applies() -> None:
    # Thirteen digits, so a *possible* number, but Brazil has no area code 20: crm would refuse it.
    got = ignored(upsert({"remoteJid": "5520987654321@s.whatsapp.net"}, {"conversation": "oi"}))
    assert got.reason == IgnoreReason.INVALID_PHONE and "not a valid phone number" in got.detail


# ---------------------------------------------------------------------------------------------
# What is ignored, and why
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("jid", "reason"),
    [
        ("120363042534567890@g.us", IgnoreReason.GROUP),
        ("status@broadcast", IgnoreReason.STATUS),
        ("1761057639@broadcast", IgnoreReason.BROADCAST),
        ("120363000000000000@newsletter", IgnoreReason.NEWSLETTER),
    ],
)
def test_groups_broadcasts_and_newsletters_are_ignored_unless_enabled(jid: str, reason: IgnoreReason) -> None:
    body = upsert({"remoteJid": jid, "participant": PN}, {"conversation": "oi"})
    assert ignored(body).reason == reason


def test_status_post_reply_goes_to_its_author_when_broadcasts_are_enabled() -> None:
    body = upsert({"remoteJid": "status@broadcast", "participant": PN}, {"conversation": "oi"})
    got = message(body, NormalizeOptions(allow_broadcasts=True))
    assert (got.phone, got.jid) == ("+5511987654321", PN)


def test_from_me_in_a_group_is_a_group_message_not_a_pause() -> None:
    body = upsert({"remoteJid": "120363042534567890@g.us", "participant": PN, "fromMe": True}, {"conversation": "x"})
    result = ignored(body)
    assert result.reason == IgnoreReason.GROUP and result.typed_by_business is None


@pytest.mark.parametrize(
    "event", ["messages.update", "send.message", "connection.update", "messages.delete", "presence.update"]
)
def test_other_events_are_ignored_explicitly(event: str) -> None:
    body = upsert({"remoteJid": PN}, {"conversation": "oi"})
    body["event"] = event
    result = ignored(body)
    assert result.reason == IgnoreReason.OTHER_EVENT and event in result.detail


def test_events_without_a_key_are_dropped() -> None:
    body = upsert({"remoteJid": PN}, {"conversation": "oi"})
    del body["data"]["key"]
    assert ignored(body).reason == IgnoreReason.NO_KEY
    body["data"] = None
    assert ignored(body).reason == IgnoreReason.NO_KEY


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ({}, IgnoreReason.NO_CONTENT),
        ({"conversation": "   "}, IgnoreReason.NO_CONTENT),
        ({"messageContextInfo": {"deviceListMetadataVersion": 2}}, IgnoreReason.NO_CONTENT),
        ({"protocolMessage": {"type": 0, "key": {"id": "X"}}}, IgnoreReason.PROTOCOL_MESSAGE),
        ({"reactionMessage": {"key": {"id": "X"}, "text": ""}}, IgnoreReason.REACTION_REMOVED),
    ],
)
def test_contents_that_are_not_customer_messages(content: dict[str, Any], reason: IgnoreReason) -> None:
    assert ignored(upsert({"remoteJid": PN}, content)).reason == reason


def test_message_id_is_required() -> None:
    assert ignored(upsert({"remoteJid": PN, "id": ""}, {"conversation": "oi"})).reason == IgnoreReason.NO_MESSAGE_ID


# ---------------------------------------------------------------------------------------------
# Bodies, timestamps, deduplication keys
# ---------------------------------------------------------------------------------------------


def test_a_list_of_events_is_taken_in_order() -> None:
    body = [load_fixture("01"), load_fixture("10"), "not an event", load_fixture("06")]
    results = normalize_webhook(body)
    assert [type(r).__name__ for r in results] == ["NormalizedInbound", "Ignored", "Ignored", "NormalizedInbound"]
    assert isinstance(results[2], Ignored) and results[2].reason == IgnoreReason.NOT_AN_OBJECT


def test_a_body_that_is_neither_object_nor_list_is_refused() -> None:
    with pytest.raises(ValueError, match="JSON object"):
        normalize_webhook("messages.upsert")


def test_upsert_data_given_as_a_list_is_taken_message_by_message() -> None:
    body = load_fixture("01")
    second = copy.deepcopy(body["data"])
    second["key"]["id"] = "3A5F0E7C9B1D2E4F6A81"
    body["data"] = [body["data"], second]
    assert [m.message_id for m in normalize_webhook(body)] == ["3A5F0E7C9B1D2E4F6A80", "3A5F0E7C9B1D2E4F6A81"]


def test_two_messages_with_one_timestamp_stay_distinct() -> None:
    first = load_fixture("01")
    second = load_fixture("01")
    second["data"]["key"]["id"] = "3A5F0E7C9B1D2E4F6A99"
    second["data"]["message"]["conversation"] = "Quero marcar um horário"
    a, b = message(first), message(second)
    assert a.sent_at == b.sent_at
    assert a.dedup_key != b.dedup_key
    assert (a.text, b.text) == ("Oi, tudo bem?", "Quero marcar um horário")


def test_the_same_id_from_two_customers_is_two_messages() -> None:
    a = message(upsert({"remoteJid": PN}, {"conversation": "oi"}))
    b = message(upsert({"remoteJid": "5521998765432@s.whatsapp.net"}, {"conversation": "oi"}))
    assert a.dedup_key != b.dedup_key


def test_a_redelivery_has_the_same_dedup_key() -> None:
    assert message(load_fixture("01")).dedup_key == message(load_fixture("01")).dedup_key


@pytest.mark.parametrize(
    "stamp",
    [1761057639, "1761057639", {"low": 1761057639, "high": 0, "unsigned": False}, 1761057639000],
)
def test_message_timestamp_in_every_serialisation(stamp: Any) -> None:
    assert message(upsert({"remoteJid": PN}, {"conversation": "oi"}, messageTimestamp=stamp)).sent_at == SENT_AT


def test_missing_timestamp_is_left_empty_not_taken_from_date_time() -> None:
    body = upsert({"remoteJid": PN}, {"conversation": "oi"})
    body["date_time"] = "2025-10-21T11:40:39.123Z"
    assert message(body).sent_at is None


def test_event_name_spelling_variants() -> None:
    body = upsert({"remoteJid": PN}, {"conversation": "oi"})
    body["event"] = "MESSAGES_UPSERT"
    assert message(body).text == "oi"


# ---------------------------------------------------------------------------------------------
# Content types and wrappers
# ---------------------------------------------------------------------------------------------


def test_wrappers_are_unwrapped() -> None:
    ephemeral = {"ephemeralMessage": {"message": {"extendedTextMessage": {"text": "some quando ler"}}}}
    assert message(upsert({"remoteJid": PN}, ephemeral)).text == "some quando ler"
    view_once = {
        "viewOnceMessageV2": {"message": {"imageMessage": {"caption": "só uma vez", "mimetype": "image/jpeg"}}}
    }
    got = message(upsert({"remoteJid": PN}, view_once))
    assert (got.type, got.text) == (MessageType.IMAGE, "só uma vez")
    nested = {"ephemeralMessage": {"message": {"viewOnceMessageV2Extension": {"message": {"audioMessage": {}}}}}}
    assert message(upsert({"remoteJid": PN}, nested)).type == MessageType.AUDIO
    document = {
        "documentWithCaptionMessage": {
            "message": {
                "documentMessage": {"caption": "orçamento", "fileName": "orc.pdf", "mimetype": "application/pdf"}
            }
        }
    }
    got = message(upsert({"remoteJid": PN}, document))
    assert (got.type, got.text, got.media.file_name if got.media else "") == (
        MessageType.DOCUMENT,
        "orçamento",
        "orc.pdf",
    )


def test_extended_text_at_the_top_level_of_older_versions() -> None:
    content = {
        "extendedTextMessage": {"text": "oi, tudo bem?", "contextInfo": {"quotedMessage": {"conversation": "x"}}}
    }
    got = message(upsert({"remoteJid": PN}, content))
    assert (got.text, got.quoted_text) == ("oi, tudo bem?", "x")


def test_image_in_the_2_3_2_serialisation() -> None:
    content = {
        "imageMessage": {
            "mimetype": "image/jpeg",
            "caption": "Comprovante do pagamento",
            "fileLength": "184320",
            "mediaKey": "BSRDYoGgv979HDtaeZi31vUUM1JxkK/O7QwrSmmIp8Y=",
            "imageSourceType": "USER_IMAGE",
        },
        "messageContextInfo": {"deviceListMetadataVersion": 2},
    }
    got = message(upsert({"remoteJid": PN}, content, messageTimestamp="1761057639"))
    assert (got.type, got.text, got.sent_at) == (MessageType.IMAGE, "Comprovante do pagamento", SENT_AT)


def test_inline_base64_that_is_not_base64_is_fetched_instead() -> None:
    content = {"imageMessage": {"mimetype": "image/jpeg"}, "base64": "not base64 at all!"}
    got = message(upsert({"remoteJid": PN}, content))
    assert got.media is not None and got.media.content == b"" and got.media.fetch_from_provider


def test_inline_media_over_the_limit_is_not_kept_inline() -> None:
    content = {"imageMessage": {"mimetype": "image/jpeg"}, "base64": base64.b64encode(b"x" * 4000).decode()}
    got = message(upsert({"remoteJid": PN}, content), NormalizeOptions(media_max_bytes=1000))
    assert got.media is not None and got.media.fetch_from_provider and not got.media.content


def test_evolutions_own_speech_to_text_is_the_text() -> None:
    content = {"audioMessage": {"ptt": True, "seconds": 3}, "speechToText": "quero marcar amanhã"}
    got = message(upsert({"remoteJid": PN}, content))
    assert (got.text, got.transcribed, got.needs_transcription, got.auto_reply_pt) == (
        "quero marcar amanhã",
        True,
        False,
        "",
    )


def test_reaction_button_and_list_replies() -> None:
    reaction = {"reactionMessage": {"key": {"remoteJid": PN, "fromMe": True, "id": "3EB0C1D2"}, "text": "👍"}}
    got = message(upsert({"remoteJid": PN}, reaction))
    assert (got.type, got.text, got.reacted_message_id) == (MessageType.REACTION, "👍", "3EB0C1D2")
    button = {"buttonsResponseMessage": {"selectedButtonId": "confirmar", "selectedDisplayText": "Confirmar"}}
    got = message(upsert({"remoteJid": PN}, button))
    assert (got.type, got.text, got.selected_id) == (MessageType.BUTTON_REPLY, "Confirmar", "confirmar")
    listed = {"listResponseMessage": {"title": "Plano Mensal", "singleSelectReply": {"selectedRowId": "plano_mensal"}}}
    got = message(upsert({"remoteJid": PN}, listed))
    assert (got.type, got.text, got.selected_id) == (MessageType.LIST_REPLY, "Plano Mensal", "plano_mensal")
    template = {"templateButtonReplyMessage": {"selectedId": "2", "selectedDisplayText": "Agendar"}}
    assert message(upsert({"remoteJid": PN}, template)).text == "Agendar"
    flow = {
        "interactiveResponseMessage": {
            "body": {"text": "Sim, quero"},
            "nativeFlowResponseMessage": {"name": "quick_reply", "paramsJson": '{"id":"sim"}'},
        }
    }
    got = message(upsert({"remoteJid": PN}, flow))
    assert (got.text, got.selected_id) == ("Sim, quero", "sim")


def test_contact_card_reads_name_and_phone() -> None:
    vcard = "BEGIN:VCARD\nVERSION:3.0\nFN:Dra. Ana\nTEL;type=CELL;waid=5511987654321:+55 11 98765-4321\nEND:VCARD"
    got = message(upsert({"remoteJid": PN}, {"contactMessage": {"displayName": "Dra. Ana", "vcard": vcard}}))
    assert got.type == MessageType.CONTACT
    assert got.text == "Cartão de contato: Dra. Ana (+5511987654321)"


def test_sticker_is_kept_as_a_sticker() -> None:
    got = message(upsert({"remoteJid": PN}, {"stickerMessage": {"mimetype": "image/webp", "isAnimated": False}}))
    assert got.type == MessageType.STICKER and got.auto_reply_pt == ""


def test_unsupported_content_is_kept_and_declined_politely() -> None:
    poll = {"pollCreationMessageV3": {"name": "Qual dia?", "options": [{"optionName": "seg"}]}}
    got = message(upsert({"remoteJid": PN}, poll))
    assert got.type == MessageType.OTHER
    assert got.auto_reply_pt == UNSUPPORTED_PT
    assert got.notes == ("unsupported: pollCreationMessageV3",)


def test_live_location_and_bad_coordinates() -> None:
    live = {"liveLocationMessage": {"degreesLatitude": -22.9, "degreesLongitude": -43.2, "caption": "tô aqui"}}
    got = message(upsert({"remoteJid": PN}, live))
    assert got.type == MessageType.LOCATION and got.text == "tô aqui"
    bad = {"locationMessage": {"degreesLatitude": 123.0, "degreesLongitude": 0}}
    assert ignored(upsert({"remoteJid": PN}, bad)).reason == IgnoreReason.NO_CONTENT


def test_unicode_is_kept_exactly_and_nul_is_dropped() -> None:
    text = "Olá 👩‍👩‍👧 مرحبا e\u0301 \u200b fim"
    assert message(upsert({"remoteJid": PN}, {"conversation": text})).text == text
    assert message(upsert({"remoteJid": PN}, {"conversation": "a\x00b"})).text == "ab"


# ---------------------------------------------------------------------------------------------
# The proto the runtime's SubmitInbound takes
# ---------------------------------------------------------------------------------------------


def test_to_proto_mirrors_the_normalised_message() -> None:
    proto = message(load_fixture("03")).to_proto()
    assert proto.channel == gw.CHANNEL_WHATSAPP
    assert proto.type == gw.MESSAGE_TYPE_IMAGE
    assert (proto.channel_instance, proto.phone, proto.jid, proto.message_id) == (
        "atendimento",
        "+5521998765432",
        "5521998765432@s.whatsapp.net",
        "3AD4C2B1A0F9E8D7C6B5",
    )
    assert proto.text == "Comprovante do pagamento"
    assert proto.media.mime_type == "image/jpeg" and proto.media.content.startswith(b"\xff\xd8")
    assert proto.sent_at.seconds == 1761057639
    assert proto.sender_name == "João Pereira"
    signal = ignored(load_fixture("07")).typed_by_business
    assert signal is not None and signal.to_proto().from_business
