"""Wiring of the seguranca process: the chain, the organisation source (crm) and the servicer.

The contract index is built from the proto descriptors here, at start-up, not at import. The
model layers take a `TextModel` (reviewers.py), backed by the shared model interface: the
Anthropic provider when `ANTHROPIC_API_KEY` is set. The offline default has not been taught to
review, so with it an organisation that switches a model layer on sees the layer traced as
failed (`reviewer_failed` / classifier `failed`), never as approval.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from balcao.kit.channels import open_channel
from balcao.kit.server import Database, Registration, ServiceDefinition
from balcao.models import Message, ModelProvider, ModelRequest, select_provider
from balcao.seguranca.v1 import seguranca_pb2_grpc
from services.seguranca.chain import Chain
from services.seguranca.config import Settings
from services.seguranca.organizations import CrmOrganizations, OrganizationSource
from services.seguranca.reviewers import InboundClassifier, SemanticPromiseReviewer, TextModel
from services.seguranca.service import POLICY, Seguranca
from services.seguranca.vocabulary import contract_index


def build(
    settings: Settings,
    database: Database,
    *,
    organizations: OrganizationSource | None = None,
    semantic_model: TextModel | None = None,
    classifier_model: TextModel | None = None,
) -> ServiceDefinition:
    closers: list[Callable[[], Awaitable[None]]] = []
    if semantic_model is None or classifier_model is None:
        provider = select_provider(settings)
        closers.append(provider.aclose)
        semantic_model = semantic_model or text_model(provider, "seguranca.semantic_promise")
        classifier_model = classifier_model or text_model(provider, "seguranca.inbound_classifier")
    if organizations is None:
        channel = open_channel(settings, "crm")
        organizations = CrmOrganizations(channel)
        closers.append(channel.close)
    reviewer = (
        SemanticPromiseReviewer(semantic_model, timeout=settings.reviewer_timeout_seconds)
        if semantic_model is not None
        else None
    )
    classifier = (
        InboundClassifier(classifier_model, timeout=settings.classifier_timeout_seconds)
        if classifier_model is not None
        else None
    )
    chain = Chain(vocabulary=contract_index(), semantic_reviewer=reviewer)
    servicer = Seguranca(organizations, chain, classifier=classifier)

    async def on_ready() -> Callable[[], Awaitable[None]]:
        async def stop() -> None:
            for close in closers:
                await close()

        return stop

    return ServiceDefinition(
        [Registration(servicer, seguranca_pb2_grpc.add_SegurancaServiceServicer_to_server, POLICY)],
        on_ready=on_ready,
    )


def text_model(provider: ModelProvider, task: str) -> TextModel:
    """A prompt-in, text-out model for the reviewers, on the cheap tier of the shared provider."""

    async def ask(prompt: str) -> str:
        request = ModelRequest(
            system="Responda somente com o JSON pedido.",
            messages=(Message.user(prompt),),
            max_tokens=512,
            tier="cheap",
            task=task,
        )
        return (await provider.complete(request)).text

    return ask
