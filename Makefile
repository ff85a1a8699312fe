# PDC Lab — the two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
DEBIAN_PACKAGES := postgresql redis-server bubblewrap util-linux binutils chromium docker-compose gettext fonts-noto-cjk fonts-dejavu-core nginx-light
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: debian-packages setup run test lint format services services-stop messages clean

setup: $(VENV)/.deps-stamp messages ## venv with all Python deps; Debian packages when root and missing

debian-packages:
	@missing=""; for p in $(DEBIAN_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else echo "missing Debian packages:$$missing (run 'make setup' as root or install them)"; exit 1; fi; \
	fi

$(VENV)/.deps-stamp: requirements/web.txt requirements/worker.txt requirements/dev.txt
	@$(MAKE) --no-print-directory debian-packages
	@command -v $(PY) >/dev/null || { echo "$(PY) not found"; exit 1; }
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements/dev.txt
	@touch $@

messages: $(VENV)/.deps-stamp
	@$(BIN)/python manage.py compilemessages -v 0 --ignore '.venv/*' --ignore 'var/*'

run: setup ## migrate, import content, demo users, web on 127.0.0.1:8000 + a CPU worker
	@scripts/run.sh

test: setup ## the whole suite against a throwaway PostgreSQL + Redis that it starts and stops
	@scripts/test.sh

services: setup ## start (idempotently) the PostgreSQL + Redis that developers' targeted test runs use
	@scripts/services.sh start

services-stop:
	@scripts/services.sh stop

lint: $(VENV)/.deps-stamp
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(VENV)/.deps-stamp
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf var/staticfiles var/broker
