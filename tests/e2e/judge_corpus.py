"""The contracts the judge (judge.py) runs on: the seeds, tests/corpus, ../shared/corpus, and
the ones fetched but never committed (OpenAI, PagerDuty: $CONTRACTGEN_JUDGE_FETCHED)."""

from __future__ import annotations

import gzip
import os
import tarfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from shared_corpus import CORPUS

ROOT = Path(__file__).resolve().parents[2]
SEEDS = {
    "otari": (ROOT / "specs" / "otari-code-execution.openapi.yaml",
              ROOT / "specs" / "otari-code-execution.overlay.yaml"),
    "tpmjs": (ROOT / "specs" / "tpmjs-executor.openapi.yaml",
              ROOT / "specs" / "tpmjs-executor.overlay.yaml"),
}
# tests/corpus: every contract at its top (split/ holds split_petstore.yaml's other files)
SMALL = sorted(p for p in (ROOT / "tests" / "corpus").iterdir()
               if p.suffix in (".yaml", ".json"))
# ../shared/corpus: file, and whether it is invalid as published (judged with --lenient, which
# drops the operations its errors touch, each with a located warning)
SHARED = {
    "stripe": ("stripe-spec3.yaml.gz", False),
    "github": ("github-api.json.gz", False),
    "adyen-checkout": ("adyen-checkout-v71.yaml.gz", False),
    "xero-accounting": ("xero-accounting.yaml.gz", True),
    "linode": ("linode.yaml.gz", False),
    "sentry": ("sentry-derefed.json.gz", False),
    "tgi": ("tgi.json.gz", True),
    "box": ("box.openapi.json.gz", False),
    "twilio-api-v2010": ("twilio-api-v2010.openapi.json.gz", False),
    "twilio-conversations-v1": ("twilio-conversations-v1.openapi.json.gz", False),
    "digitalocean": ("digitalocean-public-v2.tar.gz", True),
}
# fetched by hand (openai/openai-openapi openapi.yaml, PagerDuty/api-schema
# reference/REST/openapiv3.json) into $CONTRACTGEN_JUDGE_FETCHED; both invalid as published
FETCHED = {"openai": ("openai.yaml", True), "pagerduty": ("pagerduty.json", True)}


@dataclass(frozen=True)
class Contract:
    """A contract as the judge reads it."""

    name: str
    spec: Path
    overlay: Path | None = None
    lenient: bool = False


def shared_contract(name: str, tmp: Path) -> Contract:
    """A ../shared/corpus contract unpacked into `tmp` (skipped when the corpus is absent)."""
    file, lenient = SHARED[name]
    source = Path(os.environ.get("CONTRACTGEN_CORPUS", CORPUS)) / file
    if not source.exists():
        pytest.skip(f"corpus contract {source} is not here")
    if file.endswith(".tar.gz"):
        with tarfile.open(source) as archive:
            archive.extractall(tmp, filter="data")
        return Contract(name, tmp / "specification" / "DigitalOcean-public.v2.yaml",
                        lenient=lenient)
    spec = tmp / file.removesuffix(".gz")
    spec.write_bytes(gzip.decompress(source.read_bytes()))
    return Contract(name, spec, lenient=lenient)


def fetched_contract(name: str) -> Contract:
    """OpenAI's or PagerDuty's contract, when fetched (skipped otherwise: never committed)."""
    file, lenient = FETCHED[name]
    folder = os.environ.get("CONTRACTGEN_JUDGE_FETCHED")
    if not folder or not (Path(folder) / file).exists():
        pytest.skip(f"{name}'s contract is not fetched: put {file} in $CONTRACTGEN_JUDGE_FETCHED "
                    "(docs/judge.md says from where)")
    return Contract(name, Path(folder) / file, lenient=lenient)
