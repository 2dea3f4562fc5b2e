# Everything a developer or CI needs, from a fresh Debian/Ubuntu machine:
#   make demo   install, start services, serve CKAN with the demo at http://127.0.0.1:5000
#   make test   install, start services, run the whole suite
#   make stop   stop what this Makefile started
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
RUN := dev/run
CKAN := $(BIN)/ckan
TEST_INI := test.ini
DEMO_INI := dev/ckan.ini
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=

.PHONY: demo test test-fast stop services install db-test db-demo bench i18n serve clean

install: $(STAMP)

# Re-installs only when the requirement files or the package metadata change.
$(STAMP): requirements.txt dev-requirements.txt pyproject.toml setup.cfg
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) is required (Debian: apt-get install python3.11 python3.11-venv)"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip wheel setuptools
	$(BIN)/pip install -q -r requirements.txt -r dev-requirements.txt
	$(BIN)/pip install -q --no-deps -e .
	@dev/system-packages.sh
	@touch $@

services: $(STAMP)
	@dev/services.sh start

db-test: services
	@CKAN_INI=$(TEST_INI) $(CKAN) db init >/dev/null
	@CKAN_INI=$(TEST_INI) $(CKAN) db pending-migrations --apply >/dev/null

db-demo: services
	@CKAN_INI=$(DEMO_INI) $(CKAN) db init >/dev/null
	@CKAN_INI=$(DEMO_INI) $(CKAN) db pending-migrations --apply >/dev/null

test: db-test
	$(BIN)/python -m pytest --ckan-ini=$(TEST_INI) tests $(PYTEST_ARGS)

# The quick loop: the MR formats library alone, no services, no CKAN.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -p no:ckan -p no:ckan_fixtures tests/mr $(PYTEST_ARGS)

demo: db-demo
	@dev/demo.sh

stop:
	@dev/demo.sh stop
	@dev/services.sh stop

# Benchmarks get a database of their own (ckan_bench): the test suite empties ckan_test constantly.
BENCH_ENV := CKAN_SQLALCHEMY_URL=postgresql://ckan:ckan@127.0.0.1:5433/ckan_bench CKAN_SITE_ID=bench
bench: services
	@$(BENCH_ENV) CKAN_INI=$(TEST_INI) $(CKAN) db init >/dev/null
	@$(BENCH_ENV) CKAN_INI=$(TEST_INI) $(CKAN) db pending-migrations --apply >/dev/null
	@for b in bench/bench_*.py; do echo "== $$b"; $(BENCH_ENV) $(BIN)/python $$b || exit 1; done

I18N := ckanext/passport/i18n
i18n: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg --add-comments=TRANSLATORS: -k translate -k isPlural -o $(I18N)/ckanext-passport.pot ckanext
	for l in cs ru en; do $(BIN)/pybabel -q update -D ckanext-passport -i $(I18N)/ckanext-passport.pot -d $(I18N) -l $$l --previous; done
	$(BIN)/pybabel -q compile -D ckanext-passport -d $(I18N) --statistics

clean: stop
	rm -rf $(RUN) $(VENV) dev/solr/target
