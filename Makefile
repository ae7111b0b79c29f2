# Every target installs what it needs into .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: generate check test conformance golden fuzz docs bump retire bench mutate format lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	@# setuptools prints a notice on every editable install of a package whose folders it maps
	@# (templates/ ships as generator.templates); it is a Python warning, so this one is filtered.
	PYTHONWARNINGS="ignore:Editable installation" $(BIN)/pip install -q -e '.[dev]'
	@# Byte-compiled as pip installs a wheel: an editable install is not, and where PYTHONDONTWRITEBYTECODE
	@# is set (as on this project's machines) every chatspec run would compile its modules again.
	$(BIN)/python -m compileall -q generator
	touch $(STAMP)

# The TypeScript compiler (the TypeScript target's tests compile the generated package
# with it), Ajv and typia (make bench's peers), pinned, from npm into build/npm-ts (ignored).
# typia 12 is the last that runs on this TypeScript (13 on needs the TypeScript-Go compiler).
# Without npm the TypeScript checks are skipped, and the test run says so.
TYPESCRIPT_VERSION := 5.6.3
AJV_VERSION := 8.17.1
TYPIA_VERSION := 12.2.1
NPM_TOOLS := build/npm-ts/.installed-typescript-$(TYPESCRIPT_VERSION)-ajv-$(AJV_VERSION)-typia-$(TYPIA_VERSION)
$(NPM_TOOLS):
	@if command -v npm >/dev/null 2>&1; then \
	  npm install --prefix build/npm-ts --no-save --no-audit --no-fund --loglevel=error typescript@$(TYPESCRIPT_VERSION) ajv@$(AJV_VERSION) typia@$(TYPIA_VERSION) && touch $@; \
	else echo "npm is not installed: the TypeScript checks will be skipped" >&2; fi

generate: $(STAMP)
	$(BIN)/chatspec generate

# Lock a spec's changes under the version they need: make bump FORMAT=droidlet_chat [TO=minor]
bump: $(STAMP)
	@test -n "$(FORMAT)" || (echo "usage: make bump FORMAT=<format id> [TO=major|minor|patch|X.Y.Z]" >&2; exit 2)
	$(BIN)/chatspec bump $(FORMAT) $(if $(TO),--to $(TO))

# Stop generating an earlier major kept beside the latest: make retire FORMAT=droidlet_chat MAJOR=1
retire: $(STAMP)
	@test -n "$(FORMAT)" -a -n "$(MAJOR)" || (echo "usage: make retire FORMAT=<format id> MAJOR=<earlier major, e.g. 1>" >&2; exit 2)
	$(BIN)/chatspec retire $(FORMAT) $(MAJOR)

check: $(STAMP)
	$(BIN)/chatspec check

# Go's build cache filled once, before the test workers start, with the standard library packages the
# generated code and its tests use (built and vetted with the tests' settings, tests/go_driver.py GO_ENV):
# on a fresh machine both workers' first Go tests would otherwise compile them at the same time. It changes
# no verdict: a failure here is left to the tests to report (a test that misses the cache compiles what it
# needs), and where Go is missing it does nothing.
GO_WARM = @if command -v go >/dev/null 2>&1; then cd generated/go && export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0 && \
	{ go vet ./... && go test -count=1 -run '^$$' ./...; } >/dev/null 2>&1 || true; fi

# One test process per core (pytest-xdist): the suite is independent tests, most of them
# waiting on go, node or a subprocess of chatspec, and halves its time on this 2-core machine.
# tests/conftest.py schedules them (pyproject.toml's --dist loadgroup): slow tests first, and
# the tests that share an expensive set-up on one worker.
test: $(STAMP) $(NPM_TOOLS)
	$(GO_WARM)
	$(BIN)/python -m pytest -n auto -m "not conformance"

# The conformance suites at volume and the attacks with many set-ups (tests/conftest.py CONFORMANCE):
# not part of make test, so that it takes minutes on a fresh machine; CI (.ci/run) runs both.
conformance: $(STAMP) $(NPM_TOOLS)
	$(GO_WARM)
	$(BIN)/python -m pytest -n auto -m conformance

# Differential fuzzing (FUZZCASES per format; disagreements are recorded as corpus
# cases) and the hostile-bytes check, then each Go fuzz target for FUZZTIME inputs
# (a count, not a time: a time budget flaked on a loaded machine). make test runs
# a smaller budget.
FUZZCASES ?= 10000
FUZZTIME ?= 200000x
fuzz: $(STAMP) $(NPM_TOOLS)
	$(BIN)/python tests/fuzz.py --cases $(FUZZCASES) --record
	cd generated/go && for pkg in $$(go list ./... | grep -v /internal/); do \
	  target=$$(go test -list '^Fuzz' $$pkg | grep '^Fuzz'); \
	  GOTOOLCHAIN=local go test $$pkg -run='^$$' -fuzz="^$$target$$" -fuzztime=$(FUZZTIME) || exit 1; \
	done

# The docs site, built strictly into build/site (ignored). Mermaid comes from the
# npm registry into build/npm and is served by the site itself, not by a CDN.
MERMAID_VERSION := 11.9.0
MERMAID_JS := build/npm/node_modules/mermaid/dist/mermaid.min.js
$(MERMAID_JS):
	npm install --prefix build/npm --no-save --no-audit --no-fund --loglevel=error mermaid@$(MERMAID_VERSION)

docs: $(STAMP) $(MERMAID_JS)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet -f generated/mkdocs.yml
	cp $(MERMAID_JS) build/site/assets/mermaid.min.js
	@echo "site built in build/site; publish with: $(BIN)/mkdocs gh-deploy -f generated/mkdocs.yml"

# Ratios against peers measured in the same run (not part of make test).
# ONLY=typescript,go prints those sections alone (tests/bench.py --only): a change measured by its own table.
bench: $(STAMP) $(NPM_TOOLS)
	$(BIN)/python tests/bench.py $(if $(ONLY),--only "$(ONLY)")

# Mutation testing (not part of make test, nor of CI: run it before merging a change to what it covers;
# see tests/MUTATION.md). tests/mutate.py first runs each group's tests on an unmutated copy (they must
# pass), then plants MUTANTS sampled mutants per group (SEED; MUTANTS=0 runs them all) of
# MUTATION_GROUPS: the Python, Go and TypeScript runtimes, the rules, the fast-path templates and views,
# the behaviours, the docs target, the writer and the cache, the msgspec target. Then mutmut on generator/classify.py, every
# mutant (about 8 minutes with MUTMUT_JOBS=2 children), in mutants/ (removed first; git-ignored), its
# log in build/mutmut.log; the last line is mutmut's score.
MUTANTS ?= 12
SEED ?= 1
MUTATION_GROUPS ?= python-runtime,go-runtime,typescript-runtime,rules,fast-paths,behaviour,docs,writer-cache,msgspec
MUTMUT_JOBS ?= 2
mutate: $(STAMP) $(NPM_TOOLS)
	rm -rf mutants
	$(BIN)/python tests/mutate.py --baseline --groups $(MUTATION_GROUPS) --sample $(MUTANTS) --seed $(SEED) --json build/mutation.json
	@mkdir -p build
	$(BIN)/mutmut run --max-children $(MUTMUT_JOBS) > build/mutmut.log 2>&1 || (tail -n 40 build/mutmut.log; exit 1)
	$(BIN)/python tests/mutmut_report.py

# The generator's own code: black formats it, ruff lints it (settings in pyproject.toml); make conformance checks both.
format: $(STAMP)
	$(BIN)/black --quiet generator
	$(BIN)/ruff check --fix --quiet generator

lint: $(STAMP)
	$(BIN)/black --check --quiet generator
	$(BIN)/ruff check --quiet generator
	$(BIN)/python -m mypy --strict generator

golden: $(STAMP)
	$(BIN)/python -m pytest tests/test_golden.py --update-golden

clean:
	rm -rf $(VENV) build site mutants
