# Every target installs what it needs into .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: generate check test golden clean

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

golden: $(STAMP)
	$(BIN)/python -m pytest tests/test_golden.py --update-golden

clean:
	rm -rf $(VENV) build site
