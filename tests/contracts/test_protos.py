"""The contracts: buf lint clean, generated code fresh, no breaking change against the last commit."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from balcao.devtools import protos

ROOT = Path(__file__).resolve().parents[2]
BUF = str(Path(sys.executable).parent / "buf")


def test_generated_code_is_what_protos_produce() -> None:
    problems = protos.differences()
    assert problems == [], "run `make protos` and commit:\n" + "\n".join(problems)


def test_buf_lint_passes() -> None:
    protos.copy_google_api()
    result = subprocess.run([BUF, "lint"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def _previous_commit_has_protos() -> bool:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return False
    probe = subprocess.run(
        ["git", "cat-file", "-e", "HEAD~1:buf.yaml"], cwd=ROOT, capture_output=True, check=False
    )
    return probe.returncode == 0


def test_no_breaking_change_against_the_previous_commit(tmp_path: Path) -> None:
    if not _previous_commit_has_protos():
        pytest.skip("no previous commit with a buf workspace to compare against")
    deps = protos.copy_google_api()
    # The previous commit, as a folder, with the same (never committed) google/api protos.
    before = tmp_path / "before"
    before.mkdir()
    archive = subprocess.run(["git", "archive", "HEAD~1"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(before)], input=archive, check=True)
    shutil.copytree(deps, before / "build" / "protodeps", dirs_exist_ok=True)
    result = subprocess.run(
        [BUF, "breaking", "--against", str(before)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_tenant_request_carries_the_organization() -> None:
    """Requests of the data owners' services all name the organisation they touch."""
    from google.protobuf import descriptor_pool

    import balcao.agenda.v1.agenda_read_pb2
    import balcao.agenda.v1.agenda_write_pb2
    import balcao.crm.v1.crm_read_pb2
    import balcao.crm.v1.crm_write_pb2  # noqa: F401

    # RPCs that are about the tenants themselves, not inside one.
    cross_tenant = {"balcao.crm.v1.CrmReadService/ListOrganizations"}
    pool = descriptor_pool.Default()
    missing = []
    for name in (
        "balcao.crm.v1.CrmReadService",
        "balcao.crm.v1.CrmWriteService",
        "balcao.agenda.v1.AgendaReadService",
        "balcao.agenda.v1.AgendaWriteService",
    ):
        for method in pool.FindServiceByName(name).methods:
            if f"{name}/{method.name}" in cross_tenant:
                continue
            fields = method.input_type.fields_by_name
            # A batch may span organisations: then each of its items names its own.
            batch_items = [f.message_type for f in fields.values()
                           if f.is_repeated and f.message_type is not None]
            if "organization_id" not in fields and not (
                    batch_items and all("organization_id" in t.fields_by_name for t in batch_items)):
                missing.append(f"{name}/{method.name}")
    assert missing == []
