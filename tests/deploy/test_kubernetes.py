"""The rendered Kubernetes manifests: schema-valid, hardened, and equal to the mesh.

Every target (the base and each overlay) is rendered with kustomize and read as data. The
service names, ports and peer addresses are compared with `balcao.kit.mesh`, the single
source the services' own settings read, so a port changed in one place fails here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import kubernetes_validate
import pytest

from balcao.kit.mesh import SERVICES, addr_env

# Kubernetes versions whose schemas (shipped by kubernetes-validate) every object must meet:
# the oldest release we support and a recent one. Pinned, so a kubernetes-validate upgrade
# cannot silently change what is checked.
KUBERNETES_VERSIONS = ("1.28.0", "1.33.0")

# Custom resources kubernetes-validate has no schema for, skipped by name (anything else
# without a schema fails). Their shape is checked by the tests below instead.
CUSTOM_RESOURCES = {("postgresql.cnpg.io/v1", "Cluster")}

SECRETS_EVERYWHERE = {"BALCAO_MESH_SECRET"}
MODEL_USERS = {"conversador", "operador", "seguranca"}
SECRET_NAME = re.compile(r"SECRET|TOKEN|PASSWORD|PASSWD|API_KEY|PRIVATE|CREDENTIAL|DATABASE_URL")
URL_WITH_PASSWORD = re.compile(r"://[^/@\s]+:[^/@\s]+@")

Manifest = dict[str, Any]
# conftest.Rendered: the rendered objects and their look-ups (not imported: conftest is
# pytest's to load).
Rendered = Any
Render = Callable[[str], Rendered]


def deployment(rendered: Rendered, service: str) -> Manifest:
    return rendered.get("Deployment", service)


def server(workload: Manifest) -> Manifest:
    (container,) = workload["spec"]["template"]["spec"]["containers"]
    return container


def quantity(value: str | int) -> Decimal:
    """A Kubernetes quantity (`100m`, `1`, `512Mi`, `1Gi`) as a number."""
    text = str(value)
    suffixes = {"m": Decimal("0.001"), "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "k": 10**3, "M": 10**6, "G": 10**9}
    for suffix, factor in sorted(suffixes.items(), key=lambda item: -len(item[0])):
        if text.endswith(suffix):
            return Decimal(text[: -len(suffix)]) * Decimal(factor)
    return Decimal(text)


# --- rendering and schemas -------------------------------------------------------------


def test_target_renders_every_service(render: Render, target: str) -> None:
    rendered = render(target)
    assert rendered.names("Deployment") == set(SERVICES)
    assert rendered.names("Service") == set(SERVICES)
    assert rendered.names("ServiceAccount") == set(SERVICES) | {"balcao-migrate"}
    assert rendered.names("Job") == {"balcao-migrate"}
    # The manifests never carry a secret: operators (or CloudNativePG) create them.
    assert rendered.of_kind("Secret") == []


def schema_error(obj: Manifest, version: str) -> str | None:
    """Why `obj` breaks the Kubernetes `version` schema (strict: no unknown field), or None."""
    try:
        kubernetes_validate.validate(obj, version, strict=True)
    except kubernetes_validate.ValidationError as error:
        where = "/".join(str(part) for part in error.path)
        return f"{obj['kind']}/{obj['metadata']['name']} at {where}: {error.message}"
    return None


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_object_validates_against_kubernetes_schemas(render: Render, target: str, version: str) -> None:
    skipped = set()
    errors = []
    for obj in render(target).objects:
        kind = (obj["apiVersion"], obj["kind"])
        if kind in CUSTOM_RESOURCES:
            skipped.add(kind)
        elif error := schema_error(obj, version):
            errors.append(error)
    assert not errors, "\n".join(errors)
    expected = CUSTOM_RESOURCES if target.startswith("overlays/") else set()
    assert skipped == expected, "a custom resource appeared or vanished: update CUSTOM_RESOURCES"


def test_each_component_composes_alone_with_the_base(render_with_component: Render, component: str) -> None:
    rendered = render_with_component(component)
    assert rendered.names("Deployment") == set(SERVICES)
    errors = [
        error
        for obj in rendered.objects
        if (obj["apiVersion"], obj["kind"]) not in CUSTOM_RESOURCES
        and (error := schema_error(obj, KUBERNETES_VERSIONS[-1]))
    ]
    assert not errors, "\n".join(errors)


# --- the mesh: names, ports, peers -----------------------------------------------------


def test_ports_equal_the_mesh(render: Render, target: str) -> None:
    rendered = render(target)
    for name, spec in SERVICES.items():
        ports = {p["name"]: p for p in server(deployment(rendered, name))["ports"]}
        expected = {"grpc": spec.grpc_port}
        if spec.http_port is not None:
            expected["http"] = spec.http_port
        assert {k: p["containerPort"] for k, p in ports.items()} == expected, name

        service = rendered.get("Service", name)
        assert service["spec"]["selector"] == {"app.kubernetes.io/name": name}
        service_ports = {p["name"]: p for p in service["spec"]["ports"]}
        assert {k: p["port"] for k, p in service_ports.items()} == expected, name
        assert all(p["targetPort"] == k for k, p in service_ports.items()), name


def test_each_service_gets_its_ports_and_exactly_its_peers_addresses(render: Render, target: str) -> None:
    rendered = render(target)
    for name, spec in SERVICES.items():
        workload = deployment(rendered, name)
        env = rendered.env(workload, server(workload))
        assert server(workload)["args"] == ["serve", name]
        assert env[f"BALCAO_{name.upper()}_GRPC_PORT"] == str(spec.grpc_port)
        if spec.http_port is not None:
            assert env[f"BALCAO_{name.upper()}_HTTP_PORT"] == str(spec.http_port)
        addresses = {k: v for k, v in env.items() if re.fullmatch(r"BALCAO_[A-Z]+_ADDR", k)}
        assert addresses == {addr_env(peer): f"{peer}:{SERVICES[peer].grpc_port}" for peer in spec.peers}, (
            f"{name} must hold the address of its peers and of no other service"
        )
        for peer in spec.peers:
            host, port = env[addr_env(peer)].split(":")
            peer_service = rendered.get("Service", host)
            assert int(port) in {p["port"] for p in peer_service["spec"]["ports"]}


def test_shared_settings(render: Render, target: str) -> None:
    rendered = render(target)
    for workload in rendered.workloads():
        for container in rendered.containers(workload):
            env = rendered.env(workload, container)
            assert env["BALCAO_BIND_HOST"] == "0.0.0.0"
            assert env["BALCAO_MIGRATE_ON_START"] == "false"
            assert env["BALCAO_LOG_LEVEL"] in {"DEBUG", "INFO", "WARNING"}
            # The data folder must be on a writable volume: the root filesystem is not.
            mounts = {m["mountPath"] for m in container.get("volumeMounts") or []}
            data_dir = env["BALCAO_DATA_DIR"]
            assert any(data_dir == m or data_dir.startswith(m.rstrip("/") + "/") for m in mounts), (
                f"{data_dir} is not on a mounted volume"
            )


# --- probes, lifecycle, resources ------------------------------------------------------


def test_probes_are_native_grpc_on_the_grpc_port(render: Render, target: str) -> None:
    rendered = render(target)
    for name, spec in SERVICES.items():
        container = server(deployment(rendered, name))
        readiness, liveness = container["readinessProbe"], container["livenessProbe"]
        assert set(readiness) & {"grpc", "httpGet", "tcpSocket", "exec"} == {"grpc"}, name
        assert set(liveness) & {"grpc", "httpGet", "tcpSocket", "exec"} == {"grpc"}, name
        assert readiness["grpc"]["port"] == spec.grpc_port
        assert liveness["grpc"]["port"] == spec.grpc_port
        # Readiness asks the overall status (database answered, schema migrated); liveness
        # asks "liveness", which never depends on the database.
        assert readiness["grpc"].get("service", "") == ""
        assert liveness["grpc"]["service"] == "liveness"
        if startup := container.get("startupProbe"):
            assert startup["grpc"] == {"port": spec.grpc_port, "service": "liveness"}


def test_termination_grace_outlasts_the_servers_stop_grace(render: Render, target: str) -> None:
    rendered = render(target)
    for name in SERVICES:
        workload = deployment(rendered, name)
        container = server(workload)
        stop_grace = int(rendered.env(workload, container)["BALCAO_STOP_GRACE_SECONDS"])
        pre_stop = container.get("lifecycle", {}).get("preStop", {})
        sleep = int(pre_stop["exec"]["command"][-1]) if "exec" in pre_stop else 0
        grace = workload["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
        assert grace > sleep + stop_grace, f"{name}: {grace}s <= {sleep}s + {stop_grace}s"


def test_every_container_has_requests_and_limits(render: Render, target: str) -> None:
    rendered = render(target)
    for workload in rendered.workloads():
        for container in rendered.containers(workload):
            resources = container.get("resources") or {}
            where = f"{workload['metadata']['name']}/{container['name']}"
            for resource in ("cpu", "memory"):
                request = resources.get("requests", {}).get(resource)
                limit = resources.get("limits", {}).get(resource)
                assert request is not None and limit is not None, f"{where}: {resource}"
                assert quantity(request) <= quantity(limit), f"{where}: {resource}"


# --- hardening -------------------------------------------------------------------------


def test_pods_are_hardened(render: Render, target: str) -> None:
    rendered = render(target)
    for workload in rendered.workloads():
        pod = workload["spec"]["template"]["spec"]
        pod_context = pod.get("securityContext") or {}
        name = workload["metadata"]["name"]
        assert not pod.get("hostNetwork") and not pod.get("hostPID") and not pod.get("hostIPC")
        account = rendered.get("ServiceAccount", pod["serviceAccountName"])
        assert pod.get("automountServiceAccountToken") is False, name
        assert account.get("automountServiceAccountToken") is False, name
        for container in rendered.containers(workload):
            context = container.get("securityContext") or {}
            # A container's own setting wins over the pod's.
            effective = {**pod_context, **context}.get
            where = f"{name}/{container['name']}"
            assert effective("runAsNonRoot") is True, where
            assert effective("runAsUser") not in (0, None), where
            assert context.get("readOnlyRootFilesystem") is True, where
            assert context.get("allowPrivilegeEscalation") is False, where
            assert context.get("privileged") in (None, False), where
            assert "ALL" in context.get("capabilities", {}).get("drop", []), where
            assert not context.get("capabilities", {}).get("add"), where
            assert (effective("seccompProfile") or {}).get("type") == "RuntimeDefault", where


def test_no_literal_secret_anywhere(render: Render, target: str) -> None:
    rendered = render(target)
    for workload in rendered.workloads():
        for container in rendered.containers(workload):
            for var in container.get("env") or []:
                where = f"{workload['metadata']['name']}: {var['name']}"
                # Plain values belong in a ConfigMap; env carries references only.
                assert "value" not in var, f"{where} has a literal value"
                if SECRET_NAME.search(var["name"]):
                    assert "secretKeyRef" in var["valueFrom"], f"{where} is not from a Secret"
    for configmap in rendered.of_kind("ConfigMap"):
        for key, value in (configmap.get("data") or {}).items():
            where = f"ConfigMap {configmap['metadata']['name']}: {key}"
            assert not SECRET_NAME.search(key), f"{where} looks like a secret"
            assert not URL_WITH_PASSWORD.search(value), f"{where} holds a password"


def test_each_process_gets_exactly_its_secrets(render: Render, target: str) -> None:
    rendered = render(target)

    def secret_refs(workload: Manifest) -> dict[str, dict]:
        return {
            var["name"]: var["valueFrom"]["secretKeyRef"]
            for var in server(workload).get("env") or []
            if "secretKeyRef" in var.get("valueFrom", {})
        }

    for name, spec in SERVICES.items():
        refs = secret_refs(deployment(rendered, name))
        expected = set(SECRETS_EVERYWHERE)
        if spec.schema is not None:
            expected.add("DATABASE_URL")
        if name in MODEL_USERS:
            expected.add("ANTHROPIC_API_KEY")
            assert refs["ANTHROPIC_API_KEY"].get("optional") is True, name
        if name == "gateway":
            expected.add("BALCAO_GATEWAY_ADMIN_TOKEN")
        assert set(refs) == expected, name
    # The Job migrates: it needs the database and nothing else.
    assert set(secret_refs(rendered.get("Job", "balcao-migrate"))) == {"DATABASE_URL"}
    # One database for all: every DATABASE_URL names the same Secret key.
    database = {
        (ref["DATABASE_URL"]["name"], ref["DATABASE_URL"]["key"])
        for ref in map(secret_refs, rendered.workloads())
        if "DATABASE_URL" in ref
    }
    assert len(database) == 1, database


# --- the migration Job and the database ------------------------------------------------


def test_migration_job_runs_balcao_migrate_with_the_services_image(render: Render, target: str) -> None:
    rendered = render(target)
    job = rendered.get("Job", "balcao-migrate")
    container = server(job)
    assert container["args"] == ["migrate"]
    assert "command" not in container, "the image's ENTRYPOINT is `balcao`"
    assert job["spec"]["template"]["spec"]["restartPolicy"] in ("Never", "OnFailure")
    images = {server(w)["image"] for w in rendered.workloads()}
    assert len(images) == 1, f"one image for every process, got {images}"


def test_database_url_comes_from_the_cloudnativepg_cluster(render: Render, overlay: str) -> None:
    rendered = render(overlay)
    (cluster,) = rendered.of_kind("Cluster")
    spec = cluster["spec"]
    assert spec["instances"] >= 1
    assert spec["storage"]["size"]
    initdb = spec["bootstrap"]["initdb"]
    assert initdb["database"] and initdb["owner"]
    # CloudNativePG writes the owner's credentials and a `uri` to `<cluster>-app`.
    app_secret = f"{cluster['metadata']['name']}-app"
    for workload in rendered.workloads():
        for var in server(workload).get("env") or []:
            if var["name"] == "DATABASE_URL":
                assert var["valueFrom"]["secretKeyRef"] == {"name": app_secret, "key": "uri"}


# --- what the overlays add -------------------------------------------------------------


def test_prod_autoscales_gateway_conversador_operador(render: Render) -> None:
    rendered = render("overlays/prod")
    autoscaled = {"gateway", "conversador", "operador"}
    hpas = {h["spec"]["scaleTargetRef"]["name"]: h for h in rendered.of_kind("HorizontalPodAutoscaler")}
    assert set(hpas) == autoscaled
    for name, hpa in hpas.items():
        assert hpa["spec"]["scaleTargetRef"]["kind"] == "Deployment"
        assert 2 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]
        # The autoscaler owns the count; a count in the manifest would fight it.
        assert "replicas" not in deployment(rendered, name)["spec"], name
    for name in set(SERVICES) - autoscaled:
        assert deployment(rendered, name)["spec"]["replicas"] >= 2, name


def test_prod_has_a_disruption_budget_per_service(render: Render) -> None:
    rendered = render("overlays/prod")
    budgets = rendered.of_kind("PodDisruptionBudget")
    covered = set()
    for budget in budgets:
        selector = budget["spec"]["selector"]["matchLabels"]
        matching = [
            name
            for name in SERVICES
            if selector.items() <= deployment(rendered, name)["spec"]["template"]["metadata"]["labels"].items()
        ]
        assert len(matching) == 1, f"{budget['metadata']['name']} selects {matching}"
        covered.update(matching)
    assert covered == set(SERVICES)


def test_prod_exports_traces_from_every_deployment(render: Render) -> None:
    rendered = render("overlays/prod")
    for name in SERVICES:
        workload = deployment(rendered, name)
        env = rendered.env(workload, server(workload))
        assert env["OTEL_TRACES_EXPORTER"] == "otlp", name
        assert env["OTEL_EXPORTER_OTLP_ENDPOINT"].startswith(("http://", "https://")), name
        assert env["OTEL_SERVICE_NAME"] == name


def test_dev_is_lighter_than_prod(render: Render) -> None:
    dev, prod = render("overlays/dev"), render("overlays/prod")
    for name in SERVICES:
        assert deployment(dev, name)["spec"].get("replicas", 1) == 1
    assert dev.of_kind("HorizontalPodAutoscaler") == []
    assert dev.of_kind("NetworkPolicy") == []
    assert prod.of_kind("NetworkPolicy") != []
    (dev_db,), (prod_db,) = dev.of_kind("Cluster"), prod.of_kind("Cluster")
    assert dev_db["spec"]["instances"] < prod_db["spec"]["instances"]


def test_overlays_pin_an_image_and_a_restricted_namespace(render: Render, overlay: str) -> None:
    rendered = render(overlay)
    (namespace,) = rendered.of_kind("Namespace")
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"
    for obj in rendered.objects:
        if obj["kind"] != "Namespace":
            assert obj["metadata"].get("namespace") == namespace["metadata"]["name"]
    for workload in rendered.workloads():
        image = server(workload)["image"]
        assert ":" in image and not image.endswith(":latest"), image


def test_prod_connection_budget_fits_postgresql(render: Render) -> None:
    """At full scale, the pools of every database user fit under max_connections."""
    rendered = render("overlays/prod")
    (cluster,) = rendered.of_kind("Cluster")
    max_connections = int(cluster["spec"]["postgresql"]["parameters"]["max_connections"])
    reserved = 10  # superuser_reserved_connections, the operator, a person with psql
    ceilings = {
        h["spec"]["scaleTargetRef"]["name"]: h["spec"]["maxReplicas"]
        for h in rendered.of_kind("HorizontalPodAutoscaler")
    }
    total = 0
    for name, spec in SERVICES.items():
        if spec.schema is None:
            continue
        workload = deployment(rendered, name)
        pool = int(rendered.env(workload, server(workload))["BALCAO_DATABASE_POOL_SIZE"])
        pods = ceilings.get(name, workload["spec"].get("replicas", 1))
        total += pods * pool * 2  # the pool, and as many again in overflow
    total += 2  # the balcao-migrate Job: its connection and the one holding the lock
    assert total <= max_connections - reserved, f"{total} connections > {max_connections}"
