"""The contract index is built from the proto descriptors, keeping only names that cannot be words."""

from __future__ import annotations

from services.seguranca.vocabulary import contract_files, contract_index


def test_every_contract_package_is_walked() -> None:
    packages = {f.package for f in contract_files()}
    assert {"balcao.crm.v1", "balcao.agenda.v1", "balcao.seguranca.v1", "balcao.common.v1"} <= packages


def test_rpc_service_message_field_and_enum_names_come_from_the_descriptors() -> None:
    index = contract_index()
    assert {"GetOrganization", "CrmReadService", "ReviewOutboundRequest", "organizationId"} <= index.camel_names
    assert {"organization_id", "GATE_STATUS_PASSED", "crm_upsert_contact", "get_organization"} <= index.underscore_names
    assert "balcao.crm.v1.CrmReadService" in index.qualified_names


def test_single_part_names_are_left_out_so_ordinary_words_pass() -> None:
    index = contract_index()
    everything = index.camel_names | index.underscore_names
    for word in ("status", "name", "phone", "Money", "Plan", "draft", "nome"):
        assert word not in everything
