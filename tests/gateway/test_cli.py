"""`balcao seed-demo` and `balcao chat` against the running mesh, with no key and no network."""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
import time

import grpc
from google.protobuf import struct_pb2

from balcao import chat
from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_read_pb2_grpc, event_queue_pb2_grpc
from balcao.crm.v1 import event_queue_pb2 as eq
from tests.gateway import support
from tests.support.mesh import RunningMesh


def _balcao(mesh: RunningMesh, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BALCAO_", "ANTHROPIC_"))}
    env["BALCAO_DATA_DIR"] = str(mesh.data_dir)
    for name, port in mesh.ports.items():
        env[f"BALCAO_{name.upper()}_GRPC_PORT"] = str(port)
    return subprocess.run(
        [sys.executable, "-m", "balcao.cli", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_seed_demo_then_chat_with_the_demo_clinic(mesh: RunningMesh) -> None:
    seeded = _balcao(mesh, "seed-demo")
    assert seeded.returncode == 0, seeded.stderr
    again = _balcao(mesh, "seed-demo")
    assert again.returncode == 0 and "já existia" in again.stdout
    assert seeded.stdout.split(":")[1].split()[0] == again.stdout.split(":")[1].split()[0]

    phone = support.new_phone()
    said = _balcao(mesh, "chat", "--org", "demo", "--phone", phone, "--say", "oi, quero marcar uma limpeza", "--json")
    assert said.returncode == 0, said.stderr
    answer = json.loads(said.stdout.strip().splitlines()[-1])
    assert answer["status"] == "done" and answer["outcome"] == "replied" and answer["reply"].strip()
    assert len(answer["trace_id"]) == 32 and answer["declaracao"] is not None
    assert answer["declaracao"]["intencoes"][0]["categoria"] == "CATEGORIA_QUER_AGENDAR"

    menu = _balcao(mesh, "chat", "--org", "demo", "--phone", phone, "--say", "#precos", "--explain")
    assert menu.returncode == 0, menu.stderr
    assert "agente> Consulta de avaliação: R$ 150,00" in menu.stdout
    assert "trace id:" in menu.stdout and "desfecho: fixed_reply" in menu.stdout

    talk = _balcao(mesh, "chat", "--org", "demo", "--phone", support.new_phone(), stdin="qual o endereço?\n")
    assert talk.returncode == 0, talk.stderr
    assert "agente>" in talk.stdout


def test_chat_names_an_unknown_organisation(mesh: RunningMesh) -> None:
    result = _balcao(mesh, "chat", "--org", "inexistente", "--phone", "+5511987654321", "--say", "oi")
    assert result.returncode == 1 and "nenhuma organização" in result.stderr


def test_chat_refuses_a_number_no_phone_can_have_before_calling_anyone(mesh: RunningMesh) -> None:
    result = _balcao(mesh, "chat", "--org", "demo", "--phone", "+55 20 98765-4321", "--say", "oi")
    assert result.returncode == 1
    assert "--phone '+55 20 98765-4321' não é um número de telefone válido" in result.stderr


def test_seed_demo_wires_the_clinic_to_an_evolution_server_in_one_line(mesh: RunningMesh) -> None:
    """The mesh's own gateway, over real HTTP: the webhook in, the reply out through the local Evolution."""
    import time
    import uuid

    import httpx2

    from tests.gateway.edge.evolution_fixtures import load_fixture
    from tests.gateway.edge.fake_evolution import running_fake_evolution

    token, secret = "token-da-instancia-demo-0001", "segredo-do-webhook-demo-0001"
    with running_fake_evolution({"demo-wpp": token}) as evolution:
        wired = _balcao(
            mesh,
            "seed-demo",
            "--evolution-url",
            evolution.url,
            "--evolution-instance",
            "demo-wpp",
            "--evolution-api-key",
            token,
            "--webhook-secret",
            secret,
        )
        assert wired.returncode == 0, wired.stderr
        assert "demo-wpp" in wired.stdout and f"{evolution.url}/webhook/set/demo-wpp" in wired.stdout

        digits = support.new_phone().lstrip("+")
        body = load_fixture("01")
        body.update(instance="demo-wpp", apikey=token)
        body["data"]["key"].update(remoteJid=f"{digits}@s.whatsapp.net", id=uuid.uuid4().hex[:20].upper())
        url = f"http://127.0.0.1:{mesh.http_port}/webhooks/evolution"
        refused = httpx2.post(url, json=body, headers={"x-balcao-webhook-secret": "outro-segredo-qualquer-000"})
        assert refused.status_code == 401
        answer = httpx2.post(url, json=body, headers={"x-balcao-webhook-secret": secret})
        assert answer.status_code == 200 and answer.json()["accepted"] == 1, answer.text

        deadline = time.monotonic() + 60
        while not [r for r in evolution.sends() if r.body.get("number") == f"{digits}@s.whatsapp.net"]:
            assert time.monotonic() < deadline, "the demo clinic never answered through Evolution"
            time.sleep(0.2)
        (sent,) = [r for r in evolution.sends() if r.body.get("number") == f"{digits}@s.whatsapp.net"]
        assert sent.path == "/message/sendText/demo-wpp" and sent.headers["apikey"] == token
        assert sent.body["text"].strip()


def test_seed_demo_evolution_flags_go_together(mesh: RunningMesh) -> None:
    result = _balcao(mesh, "seed-demo", "--evolution-url", "http://127.0.0.1:9")
    assert result.returncode == 2 and "go together" in result.stderr


def test_in_the_conversation_what_the_business_sends_on_its_own_shows_up_as_it_arrives(mesh: RunningMesh) -> None:
    org = asyncio.run(support.create_org(mesh))
    phone = support.new_phone()
    out = io.StringIO()
    said: list[str] = []

    def read_line(prompt: str) -> str:
        if not said:
            said.append("oi")
            return "oi"
        # The person waits; meanwhile the business writes on its own (an Operador's news, as crm
        # enqueues it after a booking), and the conversation shows it without being asked.
        with grpc.insecure_channel(mesh.addr("crm")) as channel:
            contacts = crm_read_pb2_grpc.CrmReadServiceStub(channel).ListContacts(
                cr.ListContactsRequest(organization_id=org.organization_id, query=phone.removeprefix("+")),
                metadata=support.metadata(mesh, "gateway"),
            ).contacts
            payload = struct_pb2.Struct()
            payload.update({"contact_id": contacts[0].contact_id, "reason": "a consulta foi confirmada"})
            event_queue_pb2_grpc.EventQueueServiceStub(channel).Publish(
                eq.PublishRequest(organization_id=org.organization_id, kind="proactive_turn_requested",
                                  contact_id=contacts[0].contact_id, payload=payload),
                metadata=support.metadata(mesh, "operador"),
            )
        deadline = time.monotonic() + 60
        while out.getvalue().count("agente> ") < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        raise EOFError

    code = chat.run(gateway_address=mesh.addr("gateway"), crm_address=mesh.addr("crm"), token=mesh.token("admin"),
                    organization=org.organization_id, phone=phone, say=None, as_json=False, explain=False,
                    read_line=read_line, out=out)

    assert code == 0
    shown = out.getvalue()
    replies = shown.split("agente> ")[1:]
    assert len(replies) == 2, shown  # the answer to "oi", then one message not asked for
    assert replies[1].split("\n")[0].strip()  # with its text
