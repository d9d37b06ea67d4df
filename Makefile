# Named verbs: setup | run | test | test-fast | test-corpus | judge | judge-table | images | test-images | check | regen | lint | bench | release | clean
SHELL := /bin/bash
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.stamp-setup
# Tests import contractgen, the backends and their own modules in every worker and in many
# subprocesses: let Python keep their bytecode (and pytest its rewritten test modules) even where
# the environment says PYTHONDONTWRITEBYTECODE, or each process compiles them all again.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: setup run test test-fast test-corpus judge judge-table images test-images check regen lint bench release clean

setup: $(STAMP)

$(STAMP): pyproject.toml backends/otari-sandbox/pyproject.toml backends/tpmjs-executor/pyproject.toml
	@command -v bwrap >/dev/null 2>&1 || { \
	  echo "setup: installing bubblewrap (needed by the sandboxes)"; \
	  (apt-get update -qq && apt-get install -y -qq bubblewrap) >/dev/null 2>&1 || \
	  echo "setup: could not install bubblewrap; sandbox tests will fail" >&2; }
	@{ command -v slirp4netns && command -v nsenter && command -v ip; } >/dev/null 2>&1 || { \
	  echo "setup: installing slirp4netns and iproute2 (tools' network in tpmjs-executor)"; \
	  (apt-get update -qq && apt-get install -y -qq slirp4netns iproute2 util-linux) >/dev/null 2>&1 || \
	  echo "setup: could not install slirp4netns; tpmjs-executor needs --no-network" >&2; }
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "setup: installing chromium (the browser test of /docs)"; \
	  (apt-get update -qq && apt-get install -y -qq chromium) >/dev/null 2>&1 || \
	  echo "setup: could not install chromium; the /docs browser test will be skipped" >&2; }
	@{ command -v nginx || test -x /usr/sbin/nginx; } >/dev/null 2>&1 && test -e /usr/lib/nginx/modules/ngx_http_js_module.so || { \
	  echo "setup: installing nginx-light and its njs module (the proxy of deploy/)"; \
	  (apt-get update -qq && apt-get install -y -qq nginx-light libnginx-mod-http-js) >/dev/null 2>&1 || \
	  echo "setup: could not install nginx; the deploy tests will be skipped" >&2; }
	@start=$$(date +%s); editable="-e .[dev] -e backends/otari-sandbox -e backends/tpmjs-executor"; \
	test -d $(VENV) || { echo "setup: creating $(VENV) ($(PY) -m venv)"; $(PY) -m venv $(VENV); } || exit 1; \
	if command -v uv >/dev/null 2>&1; then \
	  echo "setup: installing contractgen, both backends and the dev tools with uv"; \
	  uv pip install --python $(BIN)/python $$editable || exit 1; \
	else \
	  echo "setup: installing contractgen, both backends and the dev tools with pip (uv, when installed, is faster)"; \
	  $(BIN)/pip install --disable-pip-version-check --progress-bar off $$editable \
	    | grep --line-buffered -E '^(Collecting|Successfully installed)' | sed -u 's/^/setup: /'; \
	  test $${PIPESTATUS[0]} -eq 0 || exit 1; \
	fi; \
	echo "setup: ready ($$(( $$(date +%s) - start )) s)"
	@touch $(STAMP)

# The main job: validate both contracts and check that committed generated code matches them.
run: setup
	$(BIN)/contractgen validate specs/otari-code-execution.openapi.yaml
	@echo "The published TPMJS contract is not valid 3.0.3 (its refusal is expected):"
	@$(BIN)/contractgen validate specs/tpmjs-executor.openapi.yaml; status=$$?; \
	  if [ $$status -eq 1 ]; then echo "expected: the published file is invalid; the overlay repairs it"; \
	  else echo "unexpected: validate exited $$status on the published TPMJS contract" >&2; exit 1; fi
	@echo "With its overlay:"
	$(BIN)/contractgen validate specs/tpmjs-executor.openapi.yaml --overlay specs/tpmjs-executor.overlay.yaml
	$(BIN)/contractgen check --strict

# Every test but the corpus-scale ones (minutes each on ../shared/corpus): see test-corpus.
test: setup lint
	$(BIN)/contractgen check --strict
	$(BIN)/python -m pytest -n 2 -q -m "not corpus and not images"

# Box and Twilio through generate, mypy, ruff and block-wise black: the real-size checks.
test-corpus: setup
	$(BIN)/python -m pytest -n 2 -q -m corpus

# The judge of the wire (issue 37, docs/judge.md): every operation of the seeds, tests/corpus and
# ../shared/corpus called through the generated client against the generated server, the
# request and the response checked by openapi-core. OpenAI's and PagerDuty's contracts are judged
# when fetched into $CONTRACTGEN_JUDGE_FETCHED (never committed).
judge: setup
	$(BIN)/python -m pytest -n 2 -q tests/e2e/test_judge.py -m "slow or corpus"

# The judge's list and table refreshed: every contract judged (one process each, ~8 min on 2
# cores), tests/e2e/judge_known.json rewritten and docs/judge.md's rows printed; a new
# disagreement is listed as UNCLASSIFIED (the tests fail on it) until its construct is named.
judge-table: setup
	$(BIN)/python tests/e2e/judge_table.py --write

# The three images of deploy/ (deploy/images/README.md): BASE=local where no image registry is
# reachable (a Debian rootfs made with mmdebstrap), else the registry's debian:bookworm-slim.
images:
	bash deploy/images/build.sh

# The deploy tests against the images: three otari and two tpmjs containers behind the proxy's.
# Each says why and skips where podman or the images are missing.
test-images: setup
	$(BIN)/python -m pytest -q -m images -rs

# The inner loop: every test not marked `slow` (a test over ~3 s is marked), in under 90 s.
# --dist loadfile: a module's tests share one worker, so its module-scoped services start once
# per run instead of once per worker (measured: a sixth less work than --dist load).
# Four workers on two cores: much of a backend test is waiting (on a sandbox, a timeout, a
# socket), so two more workers fill the cores (quiet 2-core machine: 121 s with 2, 96 s with 4;
# 76 s once bytecode is kept, see above).
test-fast: setup
	$(BIN)/python -m pytest -n 4 --dist loadfile -q -m "not slow and not corpus and not images"

check: setup
	$(BIN)/contractgen check --strict

# mypy on the backends is what flags hand-written code that no longer matches a changed contract.
lint: setup
	$(BIN)/ruff check generator tests backends bench tools
	$(BIN)/mypy
	cd backends/otari-sandbox && ../../$(BIN)/mypy
	cd backends/tpmjs-executor && ../../$(BIN)/mypy

# The built-in templates compiled ahead of time (templates/_compiled); the backends' generated
# packages (also the golden records) are contractgen targets; the invalid-spec snapshots are the
# CLI's own output. Review the diff before committing.
regen: setup
	$(BIN)/python -m contractgen.emit.environment
	$(BIN)/contractgen generate
	$(BIN)/python -m tests.invalid_specs.regen

# `make release VERSION=X.Y.Z`: the version everywhere, regen, commit, tag (docs/releasing.md).
release: setup
	$(BIN)/python tools/release.py $(VERSION)

bench: setup
	$(BIN)/pip install -q -e '.[bench]'
	$(BIN)/python bench/generate.py
	$(BIN)/python bench/diff.py
	$(BIN)/python bench/otari_sandbox.py
	$(BIN)/python bench/tpmjs_executor.py

clean:
	rm -rf $(VENV) build dist *.egg-info
