"""crm's organisation settings become the chain's configuration."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest
from google.protobuf.timestamp_pb2 import Timestamp

from balcao.crm.v1 import crm_resources_pb2 as crm
from services.seguranca.facts import DisclosureMode
from services.seguranca.organizations import InvalidSettings, config_from_organization

NOW = datetime(2026, 3, 5, 18, 0, tzinfo=UTC)


def _stamp(moment: datetime) -> Timestamp:
    stamp = Timestamp()
    stamp.FromDatetime(moment)
    return stamp


def _organization(**settings: object) -> crm.Organization:
    return crm.Organization(
        organization_id="7b0f8c52-2f43-4f0e-9a4d-0d8f8e2a1c11",
        name="Clínica Sorriso Ltda",
        time_zone="America/Sao_Paulo",
        settings=crm.OrganizationSettings(**settings),  # type: ignore[arg-type]
    )


def test_the_settings_map_onto_the_chain_configuration() -> None:
    organization = _organization(
        seguranca=crm.SegurancaSettings(
            gates_enabled={"repetition": False, "semantic_promise": True, "a_gate_from_the_future": False},
            inbound_classifier_enabled=True,
            disclosure_mode=crm.DISCLOSURE_MODE_VETO,
            disclosure_text="Aqui é a Sol.",
        ),
        pacing=crm.PacingSettings(quiet_hours_start="22:00", quiet_hours_end="8:00", daily_cap_per_number=200),
        business=crm.BusinessProfile(display_name="Clínica Sorriso", public_phones=["+551134567890"]),
        commercial=crm.CommercialFacts(
            prices=[crm.PriceEntry(item="Consulta", price=crm.Money(amount_minor=28000), max_instalments=3)],
            offers=[
                crm.Offer(subject="primeira consulta", description="10% na primeira consulta", discount_percent=10),
                crm.Offer(
                    description="R$ 50 off",
                    discount_amount=crm.Money(amount_minor=5000),
                    valid_until=_stamp(datetime(2026, 1, 1, tzinfo=UTC)),
                ),
            ],
            free_items=["avaliação"],
        ),
        internal_vocabulary_additions=["Sistema Vega", " "],
    )
    config = config_from_organization(organization, NOW)
    assert dict(config.gates_enabled) == {"repetition": False, "semantic_promise": True}
    assert config.inbound_classifier_enabled
    assert config.disclosure_mode is DisclosureMode.VETO and config.disclosure_text == "Aqui é a Sol."
    assert config.pacing.quiet_start == time(22, 0) and config.pacing.quiet_end == time(8, 0)
    assert config.pacing.daily_cap == 200
    assert config.business_name == "Clínica Sorriso"
    assert config.public_contacts.phones == ("+551134567890",)
    assert config.authorised.price_cents == {28000} and config.authorised.max_instalments == 3
    # The expired offer authorises nothing.
    assert config.authorised.discount_percents == {10} and config.authorised.discount_cents == frozenset()
    assert config.authorised.free_items == ("avaliação",)
    assert config.vocabulary_additions == ("Sistema Vega",)


def test_the_defaults_of_an_empty_settings_message() -> None:
    config = config_from_organization(_organization(), NOW)
    assert config.gates_enabled == ()
    assert config.disclosure_mode is DisclosureMode.INJECT
    assert config.business_name == "Clínica Sorriso Ltda"
    assert config.pacing.quiet_start is None


def test_a_clock_time_that_is_not_hh_mm_is_a_clear_error() -> None:
    with pytest.raises(InvalidSettings, match="quiet_hours_start"):
        config_from_organization(_organization(pacing=crm.PacingSettings(quiet_hours_start="10pm")), NOW)
