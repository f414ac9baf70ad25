"""Every Python block of the README, docs/PYTHON.md and docs/SERVER.md runs as shown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "docs" / "PYTHON.md", ROOT / "docs" / "SERVER.md"]


def blocks():
    for doc in DOCS:
        for k, code in enumerate(re.findall(r"```python\n(.*?)```", doc.read_text(), re.S)):
            yield pytest.param(code, id=f"{doc.name} block {k + 1}")


def test_the_docs_have_python_blocks():
    assert len(list(blocks())) >= 2


@pytest.mark.parametrize("code", list(blocks()))
def test_the_block_runs(code, capsys):
    exec(compile(code, "<docs>", "exec"), {})
