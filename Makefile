# Every target installs what it needs into .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: generate check test golden fuzz clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

generate: $(STAMP)
	$(BIN)/chatspec generate

check: $(STAMP)
	$(BIN)/chatspec check

test: $(STAMP)
	$(BIN)/python -m pytest

# Each Go fuzz target for FUZZTIME (CI runs a few seconds each inside make test).
FUZZTIME ?= 60s
fuzz: $(STAMP)
	cd generated/go && for pkg in $$(go list ./... | grep -v /internal/); do \
	  target=$$(go test -list '^Fuzz' $$pkg | grep '^Fuzz'); \
	  GOTOOLCHAIN=local go test $$pkg -run='^$$' -fuzz="^$$target$$" -fuzztime=$(FUZZTIME) || exit 1; \
	done

golden: $(STAMP)
	$(BIN)/python -m pytest tests/test_golden.py --update-golden

clean:
	rm -rf $(VENV) build site
