# Developer and CI entry points. Stamp files keep re-runs cheap: each step runs
# again only when its inputs change.

PY     := .venv/bin/python
SERVE  := .venv/.serve.stamp
VENV   := .venv/.installed.stamp
PROTOS := $(wildcard proto/mazzo/v1/*.proto)
GEN    := server/mazzo/v1/.generated.stamp
DEPS   := build/proto-deps/.copied.stamp
BUF    := tools/buf/node_modules/.bin/buf
BUFDIR := tools/buf/node_modules/.installed.stamp

VIEWERNPM := tools/viewer/node_modules/.installed.stamp

.PHONY: compiled compiled-test pure viewer-check rl-check rl-ismcts doctor api-docs api-docs-check test-long strength soak drops arena-crash arena-drill arena-scale arena-ranking fuzz determinize-check all venv gen conformance-vectors clients-test proto-deps lint-protos openapi openapi-check deploy-check descriptor breaking lint run test test-fast bench clean distclean

all: venv gen

# The viewer's page (docs/viewer.md) is plain ES modules typed with JSDoc, committed in
# the package's static folder and served as they are: nothing is built, so a package
# installed without Node has the whole viewer. Node only type-checks them (tsc
# --checkJs --noEmit, pinned by the committed lock file), as part of make lint; again
# only when a script, the settings or the compiler changed.
VIEWERCHECKED := build/.viewer-checked.stamp
viewer-check: $(VIEWERCHECKED)
$(VIEWERCHECKED): $(VIEWERNPM) tools/viewer/tsconfig.json $(wildcard server/mazzo/viewer/static/*.js)
	tools/viewer/node_modules/.bin/tsc -p tools/viewer/tsconfig.json
	@mkdir -p build && touch $@
$(VIEWERNPM): tools/viewer/package-lock.json
	npm ci --prefix tools/viewer --prefer-offline --ignore-scripts --no-audit --no-fund
	touch $@

# Two steps: what serving needs (make run, and the client builds' proto inputs), then
# what tests, linters, deploy validators, Ray, mazzo.rl's PettingZoo and OpenSpiel,
# the bench's anchors and the arena's PostgreSQL driver add (make test); a user who
# only serves never pays for the second (Ray, Envoy, kubernetes-validate, OpenSpiel,
# RLCard: some 500 MB).
# Both install pure Python (MAZZO_PURE=1), quickly; $(ENGINES) then builds the engines
# once, for whatever needs them (each reinstall of the package removes the extensions,
# so it drops the engines' stamp). The second is the first with the extras: in one pip
# run (a fresh clone's make test pays one resolution and one build of the package,
# half a minute less), so it stamps both.
venv: $(VENV)
$(SERVE): pyproject.toml setup.py
	@python3 scripts/doctor.py --for run
	test -x $(PY) || python3 -m venv .venv
	MAZZO_PURE=1 $(PY) -m pip install --quiet -e .
	rm -f build/.engines-*.stamp
	touch $@

$(VENV): pyproject.toml setup.py
	test -x $(PY) || python3 -m venv .venv
	MAZZO_PURE=1 $(PY) -m pip install --quiet -e '.[dev,deploy,ray,rl,anchors,postgres]'
	rm -f build/.engines-*.stamp
	touch $(SERVE) $@

# The engines, cards and codecs: compiled by mypyc into the editable install
# (docs/compiled.md; about a minute on 2 cores), or pure Python with BUILD=pure.
# MAZZO_PURE=1 always means pure; without a C compiler setup.py falls back to pure
# Python, and says so. A compiled build is rebuilt when an engine's source changes: an
# extension older than its source would run the old code (mazzo then imports the
# sources, and warns). The stamp names the build, so switching builds reinstalls. In
# the test venv, which has every build requirement at its pin, pip builds without an
# isolated environment (scripts/build_isolation.py).
BUILD ?= compiled
ENGINES_BUILD := $(if $(filter-out 0,$(MAZZO_PURE)),pure,$(BUILD))
ENGINES := build/.engines-$(ENGINES_BUILD).stamp
ENGINE_SOURCES := $(shell find server/mazzo/core server/mazzo/games server/mazzo/codec -name '*.py')
engines: $(ENGINES)
$(ENGINES): $(SERVE) $(GEN) setup.py $(if $(filter compiled,$(ENGINES_BUILD)),$(ENGINE_SOURCES))
	rm -f build/.engines-*.stamp
	@if [ $(ENGINES_BUILD) = pure ] && ! ls server/mazzo_native__mypyc* >/dev/null 2>&1; then \
		echo "== the engines: pure Python (as installed)"; \
	else \
		echo "== the engines: $(ENGINES_BUILD) (a compile takes minutes)"; \
		start=$$(date +%s); \
		isolation=$$($(PY) scripts/build_isolation.py); \
		MAZZO_PURE=$(if $(filter pure,$(ENGINES_BUILD)),1,0) $(PY) -m pip install --quiet --no-deps $$isolation -e . && \
		echo "engines installed in $$(( $$(date +%s) - start )) s: $$(.venv/bin/mazzo --version)"; \
	fi
	@mkdir -p build && touch $@

compiled:
	@$(MAKE) --no-print-directory BUILD=compiled engines

pure:
	@$(MAKE) --no-print-directory BUILD=pure engines

# What make test also runs on pure Python when the build is compiled (MAZZO_PURE=1 at
# run time imports the sources), and what make compiled-test runs on the compiled build:
# golden transcripts, conformance vectors, the property tests' fast tiers, the build
# report; then the differential run (N random matches per game and form, every
# response of both builds compared byte for byte; make test: 2).
BOTH_BUILDS_TESTS := $(wildcard tests/*/test_golden_transcripts.py) tests/maraffa/test_forms_golden.py \
	tests/clients/test_conformance_vectors.py tests/test_compiled.py
compiled-test: N = 3
compiled-test: compiled
	.venv/bin/pytest -n auto -m "not long" $(BOTH_BUILDS_TESTS) $(wildcard tests/*/test_properties.py)
	$(PY) scripts/differential.py --matches $(N)

# The editable install imports from server/ and may skip the build hook, so the
# generated code goes into the source tree explicitly. The stamp lives inside the
# generated folder: deleting the folder regenerates.
gen: $(GEN)
$(GEN): $(PROTOS) scripts/gen_proto.py $(SERVE)
	$(PY) scripts/gen_proto.py
	touch $@

# The language-neutral conformance vectors every client runs (clients/conformance),
# from the rules engines in-process; committed, and a test fails when they are stale.
conformance-vectors: $(GEN)
	$(PY) scripts/gen_conformance.py --out clients/conformance/vectors

# Every client under clients/ built and checked against one live server, its bot
# playing a short tournament (scripts/clients_test.py). CLIENTS_TEST_ARGS: e.g.
# --only python,go or --skip-build.
clients-test: $(GEN) $(DEPS) $(BUFDIR) $(VENV) $(ENGINES)
	$(PY) scripts/clients_test.py $(CLIENTS_TEST_ARGS)

# google/api protos our protos import, unpacked from the pinned
# googleapis-common-protos wheel (pip download: no venv, so a client's build needs
# only python3 and its own toolchain), for buf, protoc and the clients; never committed.
proto-deps: $(DEPS)
$(DEPS): $(PROTOS) scripts/fetch_google_protos.py
	python3 scripts/fetch_google_protos.py build/proto-deps
	touch $@

# buf from npm, exactly as pinned by the committed lock file. Its postinstall step
# only swaps the JS launcher for the binary, so scripts are skipped.
$(BUFDIR): tools/buf/package-lock.json
	npm ci --prefix tools/buf --prefer-offline --ignore-scripts --no-audit --no-fund
	touch $@

lint-protos: $(BUFDIR) $(DEPS)
	$(BUF) lint

# The OpenAPI document of the HTTP/JSON API is generated from the proto by
# protoc-gen-openapi (google/gnostic, pinned) and committed; CI checks it is current.
OPENAPI_PLUGIN := build/bin/protoc-gen-openapi
$(OPENAPI_PLUGIN):
	GOBIN=$(CURDIR)/build/bin go install github.com/google/gnostic/cmd/protoc-gen-openapi@v0.7.1

openapi: $(OPENAPI_PLUGIN) $(VENV)
	$(PY) scripts/gen_openapi.py --plugin $(OPENAPI_PLUGIN)

openapi-check: $(OPENAPI_PLUGIN) $(VENV)
	$(PY) scripts/gen_openapi.py --plugin $(OPENAPI_PLUGIN) --check

# The API reference (docs/api.md) is generated from the proto comments by
# protoc-gen-doc (pseudomuto, pinned) and committed; CI checks it is current.
DOC_PLUGIN := build/bin/protoc-gen-doc
$(DOC_PLUGIN):
	GOBIN=$(CURDIR)/build/bin go install github.com/pseudomuto/protoc-gen-doc/cmd/protoc-gen-doc@v1.5.1

api-docs: $(DOC_PLUGIN) $(VENV)
	$(PY) scripts/gen_api_reference.py --plugin $(DOC_PLUGIN)

api-docs-check: $(DOC_PLUGIN) $(VENV)
	$(PY) scripts/gen_api_reference.py --plugin $(DOC_PLUGIN) --check

# A descriptor set of our protos and their imports, for tools that need one.
descriptor: $(BUFDIR) $(DEPS)
	$(BUF) build -o build/mazzo.binpb

# deploy/ validated offline: kubernetes-validate --strict, hadolint, envoy --mode validate.
deploy-check: descriptor $(VENV)
	$(PY) scripts/check_deploy.py

# buf breaking against the protos of another commit, so nothing a client relies on
# changes. The default base is where this branch left main (main itself on main): a
# branch is judged on what it changed, not on what main gained since. The base's
# protos are taken with git archive and built with the same google/api imports,
# because a plain '.git#branch=main' input cannot resolve them (build/proto-deps is
# never committed). Both sides are compared as built images: the workspace itself as
# input would also see build/against.
BREAKING_BASE ?= $(shell git merge-base HEAD main)
breaking: $(BUFDIR) $(DEPS)
	rm -rf build/against && mkdir -p build/against
	git archive $(BREAKING_BASE) proto | tar -x -C build/against
	cp -R build/proto-deps build/against/deps
	printf 'version: v2\nmodules:\n  - path: proto\n  - path: deps\n' > build/against/buf.yaml
	$(BUF) build build/against -o build/against.binpb
	$(BUF) build -o build/current.binpb
	$(BUF) breaking build/current.binpb --against build/against.binpb

# Runs every checker, then fails if any failed, so one run shows all problems.
lint: lint-protos openapi-check api-docs-check deploy-check viewer-check $(GEN) $(VENV)
	@status=0; \
	.venv/bin/ruff check . || status=1; \
	.venv/bin/ruff format --check . || status=1; \
	.venv/bin/mypy || status=1; \
	exit $$status

# Which prerequisites this machine lacks for make run and make test (versions too).
doctor:
	@python3 scripts/doctor.py

run: $(GEN) $(ENGINES)
	.venv/bin/mazzo serve

# Lint first (ruff, mypy --strict, buf lint): CI holds the code to the same bar.
# pytest's exit code is passed through as is (5 = no tests collected fails too).
# The orchestrator's own test (marker clients: its Python part) is left out: the
# clients-test step runs the orchestrator for every language. --durations: each log
# names the slowest tests, where make test's 15-minute budget goes. One worker more
# than cores: the live view's browser test (marked waits, run first) follows a paced
# two-minute tournament at little CPU, and its worker's core is the others' meanwhile
# (on 2 cores, fresh clones: the main run took 413 s with 3 workers, 535 s with 2).
TEST_WORKERS ?= $(shell python3 -c 'import os; print((os.cpu_count() or 1) + 1)')
# On a compiled build, the tests that pin the rules' bytes run again on pure Python,
# and a short differential run compares the two builds' answers (the property tests,
# invariants rather than bytes, run on the compiled build; make compiled-test runs
# them on both).
# The clients are built and played first: the READMEs' examples (marker readme) need
# their builds, and run among the other tests rather than in a step of their own.
# Their builds (compilers, and Go's, Cargo's, Maven's and npm's downloads: minutes in a
# fresh clone; no venv needed) run beside the set-up (pip's installs, the linters, the
# engines' compile), which leaves a core idle while it waits on downloads and on
# single-threaded checkers; the builds' log is printed when both are done.
# Each step prints the time it starts, for the budget.
CLIENTS_BUILD_LOG := build/clients-build.log
test: doctor $(DEPS) $(BUFDIR)
	@date +'== %T set-up, the clients built beside it ($(CLIENTS_BUILD_LOG))'
	@mkdir -p build; \
	python3 scripts/clients_test.py --build-only >$(CLIENTS_BUILD_LOG) 2>&1 & builder=$$!; \
	trap 'kill $$builder 2>/dev/null' INT TERM; \
	$(MAKE) --no-print-directory lint $(ENGINES); setup=$$?; \
	wait $$builder; built=$$?; \
	date +'== %T the clients built'; cat $(CLIENTS_BUILD_LOG); \
	[ $$setup -eq 0 ] && [ $$built -eq 0 ]
	@date +'== %T clients-test'
	$(MAKE) clients-test CLIENTS_TEST_ARGS=--skip-build
	@date +'== %T the tests, compiled'
	.venv/bin/pytest -n $(TEST_WORKERS) --durations=30 -m "not long and not clients" tests/
	@if .venv/bin/mazzo --version | grep -q compiled; then \
		date +'== %T the same rules on pure Python'; \
		MAZZO_PURE=1 .venv/bin/pytest -n $(TEST_WORKERS) -q -m "not long" $(BOTH_BUILDS_TESTS) && \
		$(PY) scripts/differential.py --matches 2; \
	fi
	@date +'== %T done'

test-fast: lint
	.venv/bin/pytest -n auto -m "not slow and not readme" tests/

# The property tests' ten-times tiers and many-hands runs (about 9 CPU minutes; make
# test runs their fast tiers), for closing notes.
test-long: $(GEN) $(VENV) $(ENGINES)
	.venv/bin/pytest -n auto -m long tests/

bench: $(GEN) $(VENV) $(ENGINES)
	.venv/bin/mazzo bench

# Long runs for closing notes; CI runs a bounded smoke of each (tests/).
# A server under 64 clients of mixed games for SECONDS (default 600): errors, RSS, p99.
SECONDS ?= 600
soak: $(GEN) $(VENV) $(ENGINES)
	$(PY) scripts/soak.py --seconds $(SECONDS) --in-flight 64

# Issue 34's crash safety: `mazzo arena run` on an SQLite file (DB=URL for another)
# SIGKILLed KILLS times (default 10) at random moments and restarted; the audit (no
# finished match lost or counted twice, none left in play, every record verifies) as
# a JSON report. About 2 seconds a kill.
KILLS ?= 10
arena-crash: $(GEN) $(VENV)
	$(PY) scripts/arena_crash.py --kills $(KILLS) $(if $(DB),--db $(DB))

# Issue 34's "must show": `mazzo arena serve` on PostgreSQL (a cluster of its own, or
# DB=URL) for MINUTES (default 30) with BOTS bots (default 40) on the Maraffa 4p,
# Burraco 2p and Ramino 4p ladders, DIAL_IN of them (default 12) the Python starter
# dialing in (a process each, through the whole run, logging the matches it was told
# finished), SIGKILLed KILLS times at random moments and restarted; the audit, the
# bots' logs included, as a JSON report (docs/arena.md).
MINUTES ?= 30
BOTS ?= 40
DIAL_IN ?= 12
arena-drill: $(GEN) $(VENV)
	$(PY) scripts/arena_crash.py --kills $(KILLS) --minutes $(MINUTES) --bots $(BOTS) \
		--dial-in $(DIAL_IN) --workers 4 --games maraffa:4,burraco:2,ramino:4 \
		$(if $(DB),--db $(DB),--postgres)

# Issue 34's "past one machine": matches per second of one `mazzo arena run` against
# two on one PostgreSQL (a temporary cluster, or beside PG=URL), each run audited (every
# match played once, no bot at two tables at once); JSON with the ratio (wanted: 1.8x),
# the cores of the processes and of the database, and the load average, which the
# ratio depends on. Briscola 2p with random bots by default; SCALE_ARGS for another
# ladder ("--game maraffa --players 4 --bot builtin:heuristic"). Not asserted in a test.
SCALE_ARGS ?=
arena-scale: $(GEN) $(VENV)
	$(PY) scripts/arena_scale.py $(if $(PG),--db $(PG)) $(SCALE_ARGS)

# Issue 34's duplicate sets measured: eight bots of a known order (the heuristic with
# 0, 1/7, ..., 1 of its moves random) on a Briscola 2p ladder run as `mazzo arena run`
# runs it (its matchmaking, sets and OpenSkill update; the games in-process); the games
# until the order stays at Kendall tau >= 0.9, duplicate sets against unpaired deals,
# RUNS runs of each (default 24); JSON with the reduction (wanted: 30 %). About 20
# minutes on 2 cores. Not asserted in a test. The Maraffa 4p figure of docs/arena.md:
# RANKING_ARGS="--game maraffa --players 4 --games 2000 --hold 300 --reference-deals 1
# --per-match-too" RUNS=9 (about 28 minutes; --seed 10 for the other nine runs).
RUNS ?= 24
arena-ranking: $(GEN) $(VENV)
	$(PY) scripts/arena_ranking.py --runs $(RUNS) $(RANKING_ARGS)

# Issue 33's drops: 200 dial-in bots (a quarter over HTTP) in 100 concurrent matches,
# each cut off 5 times in the middle of a decision by a proxy for 0.5 to 8 s, and 10
# more past the 10 s grace; moves lost, applied twice, faults, the crashes recorded.
# A JSON report; about 2 minutes.
drops: $(GEN) $(VENV) $(ENGINES)
	$(PY) scripts/drops.py --bots 200 --drops-per-bot 5 --past-grace 10

# schemathesis's coverage phase over the OpenAPI document (some 35,000 boundary and
# negative requests), then the fuzz of every RPC, game and form over gRPC and HTTP
# (tests/service/fuzz_every_rpc.py), FUZZ requests (default 1,000,000), against the
# issue's bounds; prints a JSON report.
FUZZ ?= 1000000
fuzz: $(GEN) $(VENV) $(ENGINES)
	MAZZO_SCHEMA_COVERAGE=1 .venv/bin/pytest -q tests/service/test_openapi.py
	$(PY) -m tests.service.fuzz_every_rpc -n $(FUZZ)

# builtin:pimc against builtin:heuristic, duplicate deals at 1 s a move (issue 15's
# strength figures; hours on 2 cores): examples/tournaments/pimc-vs-heuristic-*.toml.
STRENGTH ?= maraffa4 maraffa2 burraco2 ramino4
strength: $(GEN)
	mkdir -p build/strength
	for f in $(STRENGTH); do \
		rm -f build/strength/$$f.jsonl; \
		.venv/bin/mazzo tournament examples/tournaments/pimc-vs-heuristic-$$f.toml \
			--records build/strength/$$f.jsonl --no-progress || exit 1; \
	done

# Determinize's property tests over N random views per game and form file.
N ?= 5000
determinize-check: $(GEN) $(VENV) $(ENGINES)
	MAZZO_DETERMINIZE_VIEWS=$(N) .venv/bin/pytest -q -n auto tests -k "determinize and not uniform and not refusal"

# mazzo.rl's action mask against LegalMoves at every step of N random matches per game
# and form, with the game's default options (tests/rl/test_action_mask.py; CI plays a
# few short ones). The issue's figure: make rl-check N=1000 (hours on 2 cores).
rl-check: N = 1000
rl-check: $(GEN) $(VENV) $(ENGINES)
	MAZZO_RL_MATCHES=$(N) .venv/bin/pytest -q -n auto tests/rl/test_action_mask.py

# OpenSpiel's IS-MCTS, unchanged, for one team of 4-player Maraffa through the
# mazzo_maraffa registration, against random players: 200 matches to 11 (about 40 CPU
# minutes); JSON with the share won and its 95% interval (docs/rl.md).
rl-ismcts: $(GEN) $(VENV) $(ENGINES)
	$(PY) scripts/ismcts_vs_random.py --games 200

clean:
	rm -rf build dist server/*.egg-info server/mazzo/v1 tools/buf/node_modules \
		tools/viewer/node_modules \
		.mypy_cache .ruff_cache .pytest_cache .hypothesis
	find . -path ./.venv -prune -o -name __pycache__ -type d -exec rm -rf {} +
	find server -name '*.so' -delete  # a compiled editable install's extensions

distclean: clean
	rm -rf .venv
