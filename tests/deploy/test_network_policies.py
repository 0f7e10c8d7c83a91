"""The rendered NetworkPolicies, read as data and evaluated like a CNI would.

A small evaluator applies Kubernetes' rules (a pod selected by no policy of a direction is
open in that direction; once selected, traffic passes only if some rule admits both the
peer and the port) to pods described by the rendered Deployments' labels and ports. The
mesh (`balcao.kit.mesh`) says who calls whom; the policies must admit exactly that.

Pods get addresses from a pod network; the tests run once for each private range a
cluster commonly uses for it, since an ipBlock rule reads pod addresses too.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from balcao.kit.mesh import SERVICES

Manifest = dict[str, Any]
# conftest.Rendered: the rendered objects and their look-ups (not imported: conftest is
# pytest's to load).
Rendered = Any
Render = Callable[[str], Rendered]
NAMESPACE_LABEL = "kubernetes.io/metadata.name"


@dataclass(frozen=True)
class Pod:
    """A pod as policies see it: namespace, labels, address and named ports."""

    namespace: str
    labels: dict[str, str]
    ip: str
    ports: dict[str, tuple[int, str]] = field(default_factory=dict)  # name -> (number, proto)
    namespace_labels: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class External:
    """An address outside the cluster: the model provider, Evolution, a managed database."""

    ip: str


Endpoint = Pod | External


def selects(selector: Manifest | None, labels: dict[str, str]) -> bool:
    """Kubernetes label-selector semantics; an empty selector selects everything."""
    selector = selector or {}
    if any(labels.get(k) != v for k, v in (selector.get("matchLabels") or {}).items()):
        return False
    for expression in selector.get("matchExpressions") or []:
        key, operator, values = expression["key"], expression["operator"], expression.get("values", [])
        if operator == "In" and labels.get(key) not in values:
            return False
        if operator == "NotIn" and key in labels and labels[key] in values:
            return False
        if operator == "Exists" and key not in labels:
            return False
        if operator == "DoesNotExist" and key in labels:
            return False
    return True


def peer_matches(peer: Manifest, endpoint: Endpoint, policy_namespace: str) -> bool:
    if "ipBlock" in peer:
        address = ipaddress.ip_address(endpoint.ip)
        block = peer["ipBlock"]
        return address in ipaddress.ip_network(block["cidr"]) and not any(
            address in ipaddress.ip_network(cidr) for cidr in block.get("except") or []
        )
    if not isinstance(endpoint, Pod):
        return False  # pod and namespace selectors only ever match pods
    if "namespaceSelector" in peer:
        namespace_labels = {NAMESPACE_LABEL: endpoint.namespace, **endpoint.namespace_labels}
        if not selects(peer["namespaceSelector"], namespace_labels):
            return False
    elif endpoint.namespace != policy_namespace:
        return False
    return selects(peer.get("podSelector"), endpoint.labels)


def port_matches(entry: Manifest, endpoint: Endpoint, port: int, protocol: str) -> bool:
    if entry.get("protocol", "TCP") != protocol:
        return False
    if "port" not in entry:
        return True
    wanted = entry["port"]
    if isinstance(wanted, str):  # a named port of the destination pod
        if not isinstance(endpoint, Pod) or wanted not in endpoint.ports:
            return False
        return endpoint.ports[wanted] == (port, protocol)
    return wanted <= port <= entry.get("endPort", wanted)


def rule_admits(
    rule: Manifest, peers_key: str, peer: Endpoint, destination: Endpoint, port: int, protocol: str, namespace: str
) -> bool:
    peers = rule.get(peers_key)
    if peers and not any(peer_matches(p, peer, namespace) for p in peers):
        return False
    ports = rule.get("ports")
    return not ports or any(port_matches(p, destination, port, protocol) for p in ports)


class Policies:
    def __init__(self, policies: list[Manifest]) -> None:
        self.policies = policies

    def _selecting(self, pod: Pod, direction: str) -> list[Manifest]:
        return [
            p
            for p in self.policies
            if p["metadata"].get("namespace", pod.namespace) == pod.namespace
            and selects(p["spec"]["podSelector"], pod.labels)
            and direction in p["spec"].get("policyTypes", ["Ingress"])
        ]

    def egress_admits(self, source: Pod, destination: Endpoint, port: int, protocol: str = "TCP") -> bool:
        selecting = self._selecting(source, "Egress")
        return not selecting or any(
            rule_admits(rule, "to", destination, destination, port, protocol, source.namespace)
            for policy in selecting
            for rule in policy["spec"].get("egress") or []
        )

    def ingress_admits(self, source: Endpoint, destination: Pod, port: int, protocol: str = "TCP") -> bool:
        selecting = self._selecting(destination, "Ingress")
        return not selecting or any(
            rule_admits(rule, "from", source, destination, port, protocol, destination.namespace)
            for policy in selecting
            for rule in policy["spec"].get("ingress") or []
        )

    def connects(self, source: Pod, destination: Pod, port: int, protocol: str = "TCP") -> bool:
        return self.egress_admits(source, destination, port, protocol) and self.ingress_admits(
            source, destination, port, protocol
        )


@dataclass
class Cluster:
    """The pods of one render, plus the outside world the tests talk about."""

    policies: Policies
    pods: dict[str, Pod]
    dns: Pod
    stranger: Pod  # some other workload in the same namespace
    internet: External = External("203.0.113.10")


def cluster_of(rendered: Rendered, pod_network: str) -> Cluster:
    namespace = rendered.get("Deployment", "gateway")["metadata"].get("namespace", "default")
    addresses = (str(ip) for ip in ipaddress.ip_network(pod_network).hosts())
    pods = {}
    for workload in rendered.workloads():
        template = workload["spec"]["template"]
        ports = {
            p["name"]: (p["containerPort"], p.get("protocol", "TCP"))
            for c in template["spec"]["containers"]
            for p in c.get("ports") or []
            if "name" in p
        }
        pods[workload["metadata"]["name"]] = Pod(namespace, template["metadata"]["labels"], next(addresses), ports)
    dns = Pod("kube-system", {"k8s-app": "kube-dns"}, next(addresses), {"dns": (53, "UDP")})
    stranger = Pod(namespace, {"app.kubernetes.io/name": "stranger"}, next(addresses))
    return Cluster(Policies(rendered.of_kind("NetworkPolicy")), pods, dns, stranger)


# The pod networks of kind/flannel, k3s-like, Calico's default, and GKE/EKS-style CGNAT.
POD_NETWORKS = ("10.244.0.0/16", "172.20.0.0/16", "192.168.0.0/16", "100.64.0.0/16")


@pytest.fixture(
    params=[(render, net) for render in ("overlays/prod", "base+network-policies") for net in POD_NETWORKS],
    ids=lambda p: f"{p[0]}@{p[1]}",
)
def cluster(request: pytest.FixtureRequest, render: Render, render_with_component: Render) -> Cluster:
    """Every render that carries the network policies, on each pod network."""
    target, pod_network = request.param
    if target.startswith("base+"):
        rendered = render_with_component(target.removeprefix("base+"))
    else:
        rendered = render(target)
    assert rendered.of_kind("NetworkPolicy"), f"{target} renders no NetworkPolicy"
    return cluster_of(rendered, pod_network)


# Ports some rule opens towards any destination, because their servers' addresses are
# not known in advance: DNS, and the OpenTelemetry collector. No Balcão pod listens there.
OPEN_TO_ANY_DESTINATION = {53, 4317}
SCANNED_PORTS = (22, 53, 80, 443, 4317, 5432, 8080, *range(50050, 50060))


def grpc_port(service: str) -> int:
    return SERVICES[service].grpc_port


# --- the two barriers the design names -------------------------------------------------


def admitted_ports(cluster: Cluster, source: str, destination: Endpoint) -> set[int]:
    pod = cluster.pods[source]
    return {port for port in SCANNED_PORTS if cluster.policies.egress_admits(pod, destination, port)}


def test_conversador_egress_admits_projection_and_no_data_owner(cluster: Cluster) -> None:
    conversador = cluster.pods["conversador"]
    projection = cluster.pods["projection"]
    assert cluster.policies.egress_admits(conversador, projection, grpc_port("projection"))
    for owner in ("crm", "agenda"):
        admitted = admitted_ports(cluster, "conversador", cluster.pods[owner])
        assert grpc_port(owner) not in admitted
        assert admitted <= OPEN_TO_ANY_DESTINATION, f"conversador -> {owner}: {admitted}"
        listening = {number for number, _ in cluster.pods[owner].ports.values()}
        assert not admitted & listening


def test_conversador_reaches_only_projection_dns_and_the_model_provider(cluster: Cluster) -> None:
    conversador, policies = cluster.pods["conversador"], cluster.policies
    assert policies.egress_admits(conversador, cluster.dns, 53, "UDP")
    assert admitted_ports(cluster, "conversador", cluster.internet) == {443} | OPEN_TO_ANY_DESTINATION
    for name in set(cluster.pods) - {"conversador"}:
        admitted = admitted_ports(cluster, "conversador", cluster.pods[name])
        expected = {grpc_port("projection")} if name == "projection" else set()
        # Not even the model provider's port reaches a pod: that rule admits public
        # addresses only.
        assert admitted - OPEN_TO_ANY_DESTINATION == expected, f"conversador -> {name}: {admitted}"


@pytest.mark.parametrize("owner", ["crm", "agenda"])
def test_data_owners_accept_only_their_callers(cluster: Cluster, owner: str) -> None:
    destination, policies = cluster.pods[owner], cluster.policies
    allowed = {"projection", "seguranca", "operador", "gateway"}
    for name, pod in cluster.pods.items():
        admitted = policies.ingress_admits(pod, destination, grpc_port(owner))
        assert admitted == (name in allowed), f"{owner} ingress from {name}: {admitted}"
    assert not policies.ingress_admits(cluster.pods["conversador"], destination, grpc_port(owner))
    assert not policies.ingress_admits(cluster.stranger, destination, grpc_port(owner))
    assert not policies.ingress_admits(cluster.internet, destination, grpc_port(owner))


# --- the whole mesh --------------------------------------------------------------------


def test_policies_admit_exactly_the_mesh(cluster: Cluster) -> None:
    """Between any two services, a gRPC call passes if and only if the mesh declares it."""
    for source_name, source in cluster.pods.items():
        for name, spec in SERVICES.items():
            if name == source_name:
                continue
            declared = source_name in SERVICES and name in SERVICES[source_name].peers
            connects = cluster.policies.connects(source, cluster.pods[name], spec.grpc_port)
            assert connects == declared, f"{source_name} -> {name}: {connects}, mesh {declared}"


def test_every_balcao_pod_starts_from_deny_all(cluster: Cluster) -> None:
    deny_all = [
        p
        for p in cluster.policies.policies
        if not p["spec"].get("ingress")
        and not p["spec"].get("egress")
        and set(p["spec"]["policyTypes"]) == {"Ingress", "Egress"}
    ]
    assert deny_all, "no deny-all policy"
    for name, pod in cluster.pods.items():
        assert any(selects(p["spec"]["podSelector"], pod.labels) for p in deny_all), name
        # Whatever is not opened stays closed: a stranger reaches no Balcão port but http.
        for port_name, (port, protocol) in pod.ports.items():
            admitted = cluster.policies.ingress_admits(cluster.stranger, pod, port, protocol)
            assert admitted == (name == "gateway" and port_name == "http"), (name, port_name)


def test_everyone_resolves_names(cluster: Cluster) -> None:
    for name, pod in cluster.pods.items():
        assert cluster.policies.egress_admits(pod, cluster.dns, 53, "UDP"), name
        assert cluster.policies.egress_admits(pod, cluster.dns, 53, "TCP"), name


def test_only_database_users_reach_postgresql(cluster: Cluster) -> None:
    users = {name for name, spec in SERVICES.items() if spec.schema} | {"balcao-migrate"}
    for name, pod in cluster.pods.items():
        admitted = cluster.policies.egress_admits(pod, cluster.internet, 5432)
        assert admitted == (name in users), f"{name} -> PostgreSQL: {admitted}"


def test_gateway_edge_is_open_and_reaches_evolution(cluster: Cluster) -> None:
    gateway, policies = cluster.pods["gateway"], cluster.policies
    http = SERVICES["gateway"].http_port
    assert http is not None
    assert policies.ingress_admits(cluster.internet, gateway, http)
    assert policies.ingress_admits(cluster.stranger, gateway, http)
    assert not policies.ingress_admits(cluster.internet, gateway, grpc_port("gateway"))
    assert policies.egress_admits(gateway, cluster.internet, 443)
    assert policies.egress_admits(gateway, cluster.internet, 80)


def test_model_provider_only_for_model_users(cluster: Cluster) -> None:
    model_users = {"conversador", "operador", "seguranca", "gateway"}  # gateway: Evolution
    for name, pod in cluster.pods.items():
        admitted = cluster.policies.egress_admits(pod, cluster.internet, 443)
        assert admitted == (name in model_users), f"{name} -> :443: {admitted}"


def test_migration_job_accepts_nothing(cluster: Cluster) -> None:
    job = cluster.pods["balcao-migrate"]
    for source in (*cluster.pods.values(), cluster.stranger):
        for port in (80, 443, 8080, *range(50050, 50060)):
            assert not cluster.policies.ingress_admits(source, job, port)


# --- the evaluator itself: it must be able to say no -----------------------------------


def test_evaluator_refuses_what_no_rule_admits() -> None:
    a = Pod("ns", {"app.kubernetes.io/name": "a"}, "10.0.0.1", {"grpc": (1, "TCP")})
    b = Pod("ns", {"app.kubernetes.io/name": "b"}, "10.0.0.2", {"grpc": (2, "TCP")})
    only_a_to_b = {
        "metadata": {"name": "a"},
        "spec": {
            "podSelector": {"matchLabels": {"app.kubernetes.io/name": "a"}},
            "policyTypes": ["Egress"],
            "egress": [
                {"to": [{"podSelector": {"matchLabels": {"app.kubernetes.io/name": "b"}}}], "ports": [{"port": 2}]}
            ],
        },
    }
    policies = Policies([only_a_to_b])
    assert policies.egress_admits(a, b, 2)
    assert not policies.egress_admits(a, b, 3)
    assert not policies.egress_admits(a, External("198.51.100.1"), 2)
    assert policies.egress_admits(b, a, 1), "b is selected by no egress policy: open"
    named = Policies([{**only_a_to_b, "spec": {**only_a_to_b["spec"], "egress": [{"ports": [{"port": "grpc"}]}]}}])
    assert named.egress_admits(a, b, 2) and not named.egress_admits(a, b, 1)
    public = Policies(
        [
            {
                **only_a_to_b,
                "spec": {
                    **only_a_to_b["spec"],
                    "egress": [{"to": [{"ipBlock": {"cidr": "0.0.0.0/0", "except": ["10.0.0.0/8"]}}]}],
                },
            }
        ]
    )
    assert public.egress_admits(a, External("198.51.100.1"), 443)
    assert not public.egress_admits(a, b, 2), "b's address is in the excepted block"
    other_namespace = Pod("other", b.labels, "10.0.1.2", b.ports)
    assert not policies.egress_admits(a, other_namespace, 2), "a bare podSelector is namespaced"
