# Everything a developer or CI needs, from a fresh Debian/Ubuntu machine:
#   make demo   install, start services, serve CKAN with the demo at http://127.0.0.1:5000 (uWSGI, 2 workers)
#   make serve  the same with `ckan run` (Flask's development server, one process)
#   make test   install, start services, run the whole suite
#   make stop   stop what this Makefile started
# On another supported CKAN: `make test CKAN_VERSION=2.12.0` (one requirements/ckan-<version>.txt per version).
SHELL := /bin/bash
PYTHON ?= python3.11
DEFAULT_CKAN_VERSION := 2.11.6
CKAN_VERSION ?= $(DEFAULT_CKAN_VERSION)
CKAN_REQUIREMENTS := requirements/ckan-$(CKAN_VERSION).txt
# Each CKAN version has its own virtualenv, test database and Solr core (whose schema is that CKAN's), so that
# one version's migrations never touch another's database; the default keeps the plain names.
ifeq ($(CKAN_VERSION),$(DEFAULT_CKAN_VERSION))
VENV := .venv
DB_SUFFIX :=
SOLR_CORE := ckan
else
VENV := .venv-ckan-$(CKAN_VERSION)
DB_SUFFIX := _$(subst .,_,$(CKAN_VERSION))
SOLR_CORE := ckan-$(CKAN_VERSION)
endif
BIN := $(VENV)/bin
RUN := dev/run
CKAN := $(BIN)/ckan
TEST_INI := test.ini
DEMO_INI := dev/ckan.ini
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=
# The suite runs in parallel pytest-xdist workers, one per core and at least two (xdist's `-n auto` with a floor):
# `make test WORKERS=4`, or one process with PYTEST_ARGS="-n 0". Each worker gN has its own database
# ckan_test<suffix>_gwN, Solr core <core>-gwN and site id (tests/support/workers.py derives them from the names below), and a
# scratch database <its database>_migrations that tests/test_migrations.py migrates up and down (the ckan role may
# not create databases).
WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); [ "$$n" -ge 2 ] || n=2; echo $$n)
WORKER_IDS := $(addprefix gw,$(shell seq 0 $$(($(WORKERS) - 1))))
# test.ini names the default version's database and core; CKAN reads these variables over it.
DB_URL := postgresql://ckan:ckan@127.0.0.1:5433
TEST_DB := ckan_test$(DB_SUFFIX)
TEST_DATABASES := $(TEST_DB) $(addprefix $(TEST_DB)_,$(WORKER_IDS))
TEST_ENV := CKAN_SQLALCHEMY_URL=$(DB_URL)/$(TEST_DB) CKAN_SOLR_URL=http://127.0.0.1:8983/solr/$(SOLR_CORE)
SERVICES_ENV := VENV=$(CURDIR)/$(VENV) SOLR_CORES="$(SOLR_CORE) $(addprefix $(SOLR_CORE)-,$(WORKER_IDS))" \
	DATABASES="ckan_dev $(TEST_DATABASES) $(addsuffix _migrations,$(TEST_DATABASES)) ckan_bench"
# The service-fault tests kill and restart the services they run on: they get a second set of their own (its
# cluster, node, files and ports), so they run beside the parallel phase instead of after it. CKAN and the tests read
# the ports from these variables (CKAN_* over test.ini; AMQP_PORT in tests/support/brokers.py).
FAULT_PORTS := PG_PORT=5434 REDIS_PORT=6381 SOLR_PORT=8984 AMQP_PORT=5674
FAULT_SERVICES_ENV := VENV=$(CURDIR)/$(VENV) SERVICES_NAME=passport-faults SERVICES_RUN=$(CURDIR)/$(RUN)/faults \
	$(FAULT_PORTS) SOLR_CORES="$(SOLR_CORE)" DATABASES="$(TEST_DB)"
FAULT_TEST_ENV := $(FAULT_SERVICES_ENV) CKAN_SQLALCHEMY_URL=postgresql://ckan:ckan@127.0.0.1:5434/$(TEST_DB) \
	CKAN_SOLR_URL=http://127.0.0.1:8984/solr/$(SOLR_CORE) CKAN_REDIS_URL=redis://127.0.0.1:6381/1

.PHONY: demo test test-fast test-install stop services install db-test db-faults db-demo default-version bench i18n serve clean

install: $(STAMP)

$(CKAN_REQUIREMENTS):
	@echo "CKAN $(CKAN_VERSION) is not supported: supported are $(patsubst requirements/ckan-%.txt,%,$(wildcard requirements/ckan-*.txt))"; exit 1

# Re-installs only when the requirement files or the package metadata change.
$(STAMP): $(CKAN_REQUIREMENTS) requirements.txt dev-requirements.txt pyproject.toml setup.cfg
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) is required (Debian: apt-get install python3.11 python3.11-venv)"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip wheel setuptools
	$(BIN)/pip install -q -r $(CKAN_REQUIREMENTS) -r requirements.txt -r dev-requirements.txt
	$(BIN)/pip install -q --no-deps -e .
	@dev/system-packages.sh
	@touch $@

services: $(STAMP)
	@$(SERVICES_ENV) dev/services.sh start

# Every test database (the single process's and each worker's) initialised and migrated, side by side. A test
# database this CKAN cannot migrate (another version's migrations reached it, or a run died mid-migration: alembic's
# "Can't locate revision") is emptied and made again: test databases hold nothing to keep.
db-test: services
	@pids=(); for db in $(TEST_DATABASES); do \
	  (export CKAN_SQLALCHEMY_URL=$(DB_URL)/$$db CKAN_INI=$(TEST_INI); \
	   { $(CKAN) db init >/dev/null 2>&1 || { echo "[db-test] $$db: not migratable by CKAN $(CKAN_VERSION), made again"; \
	     $(CKAN) db clean --yes >/dev/null && $(CKAN) db init >/dev/null; }; } \
	   && $(CKAN) db pending-migrations --apply >/dev/null) & pids+=($$!); \
	done; for pid in "$${pids[@]}"; do wait $$pid || exit 1; done

# The service-fault tests' own services and database (made again when this CKAN cannot migrate it, as above).
db-faults: $(STAMP)
	@$(FAULT_SERVICES_ENV) dev/services.sh start
	@export $(FAULT_TEST_ENV) CKAN_INI=$(TEST_INI); { $(CKAN) db init >/dev/null 2>&1 || \
	  { $(CKAN) db clean --yes >/dev/null && $(CKAN) db init >/dev/null; }; } && $(CKAN) db pending-migrations --apply >/dev/null

# The demo (database ckan_dev, dev/demo.sh) and the benchmarks (ckan_bench) run on the default CKAN version only.
default-version:
	@[ "$(CKAN_VERSION)" = "$(DEFAULT_CKAN_VERSION)" ] || { echo "make demo and make bench run on CKAN $(DEFAULT_CKAN_VERSION) only"; exit 1; }

db-demo: default-version services
	@CKAN_INI=$(DEMO_INI) $(CKAN) db init >/dev/null
	@CKAN_INI=$(DEMO_INI) $(CKAN) db pending-migrations --apply >/dev/null

# Two phases. The suite runs in parallel workers, except the service-fault tests (marked service_faults): they kill
# and restart the suite's own services, so they run afterwards in one process, with what dev/services.sh needs to
# start the services again as the Makefile does. PYTEST_ARGS reach both (a -m in them replaces each phase's own); a
# phase that selects no test (pytest's exit status 5) is fine as long as the other ran tests; any other failure of
# either fails the target. A first phase interrupted (Ctrl-C, or a collection error: status 2) ends the target there.
# Two phases at once: the service-fault tests in one process on their own services (their variables in a subshell
# of their own; their output follows the parallel phase's), and everything else in the parallel workers.
# What failed in either is listed again at the end, where a log's tail (CI's) shows it.
test: db-test db-faults
	@(export $(FAULT_TEST_ENV); exec $(BIN)/python -m pytest --ckan-ini=$(TEST_INI) -n 0 -m service_faults tests \
	  $(PYTEST_ARGS)) > $(RUN)/service-faults.log 2>&1 & faults=$$!; \
	$(TEST_ENV) $(BIN)/python -m pytest --ckan-ini=$(TEST_INI) -n $(WORKERS) -m "not service_faults" tests \
	  $(PYTEST_ARGS) 2>&1 | tee $(RUN)/parallel.log; parallel=$${PIPESTATUS[0]}; \
	[ $$parallel -ne 2 ] || { kill $$faults; exit 2; }; \
	wait $$faults; serial=$$?; echo "== service-fault tests (on their own services)"; cat $(RUN)/service-faults.log; \
	echo "== what failed, of both phases (their summaries above)"; \
	grep -hE '^(FAILED|ERROR) ' $(RUN)/parallel.log $(RUN)/service-faults.log | cut -c1-300 || echo "nothing"; \
	echo "make test: parallel phase exit status $$parallel, service-fault phase $$serial"; \
	case "$$parallel $$serial" in "0 0"|"0 5"|"5 0") ;; "5 5") exit 5;; *) exit 1;; esac

# The quick loop: the MR formats library alone, no services, no CKAN.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -p no:ckan -p no:ckan_fixtures tests/mr $(PYTEST_ARGS)

# docs/install.md walked (tests_install/): a fresh virtualenv with this CKAN_VERSION from PyPI (pip's cache reused)
# and this project's wheel, on an empty database of its own, on this version's Solr core. Minutes, mostly pip: not
# part of `make test`; CI runs it on every supported version.
test-install: services
	CKAN_VERSION=$(CKAN_VERSION) PYTHON=$(PYTHON) CKAN_SOLR_URL=http://127.0.0.1:8983/solr/$(SOLR_CORE) \
	  $(BIN)/python -m pytest -p no:ckan -p no:ckan_fixtures -n 0 -s tests_install $(PYTEST_ARGS)

# The demo as a portal serves it (uWSGI, two workers); `make serve`: the same with CKAN's development server (`ckan
# run`, one process), for development. Either after `dev/demo.sh stop` when the other runs.
demo: db-demo
	@dev/demo.sh

serve: db-demo
	@DEMO_SERVER=ckan-run dev/demo.sh

stop:
	@dev/demo.sh stop
	@$(FAULT_SERVICES_ENV) dev/services.sh stop
	@dev/services.sh stop

# Benchmarks get a database of their own (ckan_bench): the test suite empties ckan_test constantly.
# And a Solr core of their own (ckan-bench), which the suite's cores never fill and bench_portal_scale.py fills with
# tens of thousands of documents: dev/services.sh adds it to a running Solr without stopping the others.
BENCH_SOLR_CORE := ckan-bench
BENCH_ENV := CKAN_SQLALCHEMY_URL=$(DB_URL)/ckan_bench CKAN_SITE_ID=bench \
	CKAN_SOLR_URL=http://127.0.0.1:8983/solr/$(BENCH_SOLR_CORE) BENCH_SOLR_URL=http://127.0.0.1:8983/solr/$(BENCH_SOLR_CORE)
bench: default-version services
	@VENV=$(CURDIR)/$(VENV) SOLR_CORES=$(BENCH_SOLR_CORE) dev/services.sh start >/dev/null
	@$(BENCH_ENV) CKAN_INI=$(TEST_INI) $(CKAN) db init >/dev/null
	@$(BENCH_ENV) CKAN_INI=$(TEST_INI) $(CKAN) db pending-migrations --apply >/dev/null
	@for b in bench/bench_*.py; do echo "== $$b"; $(BENCH_ENV) $(BIN)/python $$b || exit 1; done

I18N := ckanext/passport/i18n
# ckanext-harvest ships no Czech or Russian: the pages of it our users see (sources, jobs, their messages) take their
# cs and ru from our catalogs, so its messages are extracted with ours.
HARVEST_PACKAGE = $(shell $(BIN)/python -c 'import ckanext.harvest, os; print(os.path.relpath(os.path.dirname(ckanext.harvest.__file__)))')
i18n: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg --add-comments=TRANSLATORS: -k translate -k isPlural -k Nn_:1,2 \
	  -o $(I18N)/ckanext-passport.pot ckanext $(HARVEST_PACKAGE)
	for l in cs ru en; do $(BIN)/pybabel -q update -D ckanext-passport -i $(I18N)/ckanext-passport.pot -d $(I18N) -l $$l; done
	$(BIN)/pybabel -q compile -D ckanext-passport -d $(I18N) --statistics

clean: stop
	rm -rf $(RUN) .venv .venv-ckan-* dev/solr/target
