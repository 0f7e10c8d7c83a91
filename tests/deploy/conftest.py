"""Rendering the Kubernetes manifests once per test session, and reading them as data.

`kubectl kustomize` (kustomize built into kubectl) renders `deploy/kubernetes/<target>`;
the tests then look at plain dictionaries. Without kubectl the tests that need a render
are skipped with the reason, never passed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
KUBERNETES = REPO / "deploy" / "kubernetes"
OVERLAYS = ("overlays/dev", "overlays/prod")
TARGETS = ("base", *OVERLAYS)
COMPONENTS = ("network-policies", "autoscaling", "telemetry", "postgres-cnpg")

Manifest = dict[str, Any]


def kustomize_command() -> list[str] | None:
    """kubectl's built-in kustomize, or a standalone kustomize; None when neither exists."""
    if kubectl := shutil.which("kubectl"):
        return [kubectl, "kustomize"]
    if kustomize := shutil.which("kustomize"):
        return [kustomize, "build"]
    return None


def render_dir(directory: Path) -> list[Manifest]:
    command = kustomize_command()
    if command is None:
        pytest.skip("neither kubectl nor kustomize is on PATH: the manifests cannot be rendered")
    result = subprocess.run([*command, str(directory)], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, f"kustomize failed on {directory}:\n{result.stderr}"
    return [doc for doc in yaml.safe_load_all(result.stdout) if doc]


@dataclass
class Rendered:
    """The objects one kustomization renders, with the look-ups the tests share."""

    name: str
    objects: list[Manifest]
    _by_key: dict[tuple[str, str], Manifest] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._by_key = {}
        for obj in self.objects:
            key = (obj["kind"], obj["metadata"]["name"])
            assert key not in self._by_key, f"{self.name}: {key} rendered twice"
            self._by_key[key] = obj

    def of_kind(self, kind: str) -> list[Manifest]:
        return [obj for obj in self.objects if obj["kind"] == kind]

    def names(self, kind: str) -> set[str]:
        return {obj["metadata"]["name"] for obj in self.of_kind(kind)}

    def get(self, kind: str, name: str) -> Manifest:
        try:
            return self._by_key[(kind, name)]
        except KeyError:
            raise AssertionError(f"{self.name}: no {kind} named {name!r}") from None

    def workloads(self) -> list[Manifest]:
        """Every object that runs pods: the Deployments and the migration Job."""
        return [obj for obj in self.objects if obj["kind"] in ("Deployment", "Job")]

    def configmap_data(self, name: str) -> dict[str, str]:
        return dict(self.get("ConfigMap", name).get("data") or {})

    def env(self, workload: Manifest, container: Manifest) -> dict[str, str]:
        """The environment a container starts with, as far as the manifests decide it.

        ConfigMap entries (envFrom, then configMapKeyRef) resolve to their values, a fieldRef
        on a pod label to the label; a Secret reference stays a marker (`<secret name/key>`),
        since the manifests carry no secret value.
        """
        values: dict[str, str] = {}
        for source in container.get("envFrom") or []:
            assert "configMapRef" in source, f"{self.name}: unexpected envFrom {source}"
            values.update(self.configmap_data(source["configMapRef"]["name"]))
        labels = workload["spec"]["template"]["metadata"]["labels"]
        for var in container.get("env") or []:
            if "value" in var:
                values[var["name"]] = var["value"]
                continue
            ref = var["valueFrom"]
            if "secretKeyRef" in ref:
                secret = ref["secretKeyRef"]
                values[var["name"]] = f"<secret {secret['name']}/{secret['key']}>"
            elif "configMapKeyRef" in ref:
                cm = ref["configMapKeyRef"]
                values[var["name"]] = self.configmap_data(cm["name"])[cm["key"]]
            elif "fieldRef" in ref:
                path = ref["fieldRef"]["fieldPath"]
                label = re.fullmatch(r"metadata\.labels\['([^']+)'\]", path)
                values[var["name"]] = labels[label.group(1)] if label else f"<field {path}>"
            else:
                values[var["name"]] = f"<{next(iter(ref))}>"
        return values

    @staticmethod
    def containers(workload: Manifest) -> Iterator[Manifest]:
        """Every container of a workload's pod, init containers first."""
        spec = workload["spec"]["template"]["spec"]
        yield from spec.get("initContainers") or []
        yield from spec["containers"]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test asking for `target`, `overlay` or `component` runs once for each."""
    for argument, values in (("target", TARGETS), ("overlay", OVERLAYS), ("component", COMPONENTS)):
        if argument in metafunc.fixturenames:
            metafunc.parametrize(argument, values)


@pytest.fixture(scope="session")
def render() -> Callable[[str], Rendered]:
    """Render `deploy/kubernetes/<target>` once per session."""
    cache: dict[str, Rendered] = {}

    def _render(target: str) -> Rendered:
        if target not in cache:
            cache[target] = Rendered(target, render_dir(KUBERNETES / target))
        return cache[target]

    return _render


@pytest.fixture(scope="session")
def render_with_component(
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[str], Rendered]:
    """Render the base with one component alone, through a throw-away kustomization."""
    cache: dict[str, Rendered] = {}

    def _render(component: str) -> Rendered:
        if component not in cache:
            directory = tmp_path_factory.mktemp(f"with-{component}")
            # Relative paths: kustomize resolves them from the kustomization's folder.
            base = os.path.relpath(KUBERNETES / "base", directory)
            comp = os.path.relpath(KUBERNETES / "components" / component, directory)
            (directory / "kustomization.yaml").write_text(
                yaml.safe_dump(
                    {
                        "apiVersion": "kustomize.config.k8s.io/v1beta1",
                        "kind": "Kustomization",
                        "namespace": "balcao-test",
                        "resources": [base],
                        "components": [comp],
                    }
                )
            )
            cache[component] = Rendered(f"base+{component}", render_dir(directory))
        return cache[component]

    return _render
