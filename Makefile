# make run: install into .venv and serve the app; make test: install everything and run the tests.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 5000

TABLES ?= 50
PUSH_TABLES ?= 500
PUSH_RUNS ?= 5
SECONDS ?= 60
WORKERS ?= $(shell echo $$(( 2 * $$(nproc) )))

.PHONY: run test check lint docs bench worst load slow stalls history crowd soak chromium caddy clean translations catalogs

# Each install step says what it does in one line (the first `make run` takes a few minutes).
$(VENV)/.app: requirements.txt
	@echo '==> the Python environment in $(VENV)'
	@$(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --upgrade pip
	@echo '==> the Python packages of requirements.txt into $(VENV) (about a minute)'
	@$(PY) -m pip install --quiet -r requirements.txt
	@touch $@

$(VENV)/.dev: $(VENV)/.app requirements-dev.txt
	@echo '==> the packages the tests need (requirements-dev.txt)'
	@$(PY) -m pip install --quiet -r requirements-dev.txt
	@touch $@

# The npm packages (package.json, pinned by package-lock.json): the picture's fonts (unpacked to
# TTF once, about a minute on a busy machine), Pyodide and idb-keyval for offline play, axe-core, which checks every page
# for accessibility in the browser tests, and eslint. Installed, never vendored.
node_modules/.ci: package-lock.json $(VENV)/.app
	@command -v npm >/dev/null 2>&1 || { echo '==> npm, from Debian (apt-get install npm)'; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm; }
	@echo '==> the npm packages of package.json into node_modules: fonts, Pyodide (about a minute)'
	@npm ci --no-audit --no-fund --silent
	@echo '==> the picture'"'"'s fonts unpacked to TTF (a minute or so)'
	@$(PY) -m web.typeface node_modules
	@touch $@

# The compiled catalogs (.mo) are made from the ones kept in the repo (.po).
catalogs: $(VENV)/.app
	@echo '==> the translations compiled (translations/*/LC_MESSAGES/messages.mo)'
	@$(VENV)/bin/pybabel --quiet compile -d translations

# After changing any user-facing text: extract it, merge it into es and pt, compile.
translations: $(VENV)/.app
	$(VENV)/bin/pybabel extract -F babel.cfg -k N_ -k _l -k lazy_gettext -k pgettext:1c,2 -k npgettext:1c,2,3 \
		-k _lp:1c,2 -k lazy_pgettext:1c,2 --no-location --sort-output \
		-o translations/messages.pot .
	$(VENV)/bin/pybabel update -i translations/messages.pot -d translations --no-fuzzy-matching --ignore-obsolete
	$(VENV)/bin/pybabel compile -d translations

# Every setting read first (web/settings.py): a bad one stops it with one line naming it.
run: $(VENV)/.app node_modules/.ci catalogs
	@$(PY) -m web.settings
	@echo '==> the development server on http://$(HOST):$(PORT) (Ctrl-C stops it)'
	@$(VENV)/bin/flask --app app run --host $(HOST) --port $(PORT)

# Browser tests drive Debian's Chromium; the print test turns its PDF into a PNG with pdftoppm; the
# names in Chinese and Japanese are drawn in Noto CJK, as a phone draws them (without it: empty boxes).
chromium:
	@command -v chromium >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1 && fc-list :lang=zh | grep -q . || { \
		echo '==> Chromium, poppler-utils and the Noto CJK fonts, from Debian (apt-get install)'; apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium poppler-utils fonts-noto-cjk; }

# The HTTPS test puts Debian's Caddy (its own certificate authority) in front of the app, and makes
# Chromium trust that authority with certutil (libnss3-tools), as a phone trusts it (docs/deploy.md).
caddy:
	@command -v caddy >/dev/null 2>&1 && command -v certutil >/dev/null 2>&1 || { \
		echo '==> Caddy and libnss3-tools, from Debian (apt-get install)'; apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy libnss3-tools; }

# The JavaScript, before any browser runs it: eslint (eslint.config.mjs) on static/js/ and static/sw.js.
lint: node_modules/.ci
	node_modules/.bin/eslint .

# Everything, spread over twice as many workers as the machine has cores (pytest-xdist, each worker
# with its own Chromium, handed the next test as it is free: the `long` ones first): a browser test
# spends half its time waiting for its page, so two workers a core keep the cores busy; then
# the tests marked `serial` (they need the machine to themselves: a CPU budget, a server killed, a
# deadline under load) one at a time. Python keeps its compiled modules, as in `make check`.
test: export PYTHONDONTWRITEBYTECODE =
test: lint $(VENV)/.dev node_modules/.ci chromium caddy catalogs
	HYPOTHESIS_PROFILE=ci $(PY) -m pytest -n $(WORKERS) --dist load -m "not serial" --durations=30
	HYPOTHESIS_PROFILE=ci $(PY) -m pytest -m serial

# The quick core: the lint, then every test but the browser journeys and the slow ones (the
# production recipe in its own processes, seconds of brute force), with a tenth of the property
# tests' examples (hypothesis's dev profile), spread over the machine's cores (pytest-xdist). It
# needs the npm packages too: the picture's tests draw in the fonts. Python may keep the modules it
# compiles (__pycache__, git-ignored) even where the environment says not to: each of the workers and
# the solver's processes then reads them instead of compiling them again (a tenth of the run).
check: export PYTHONDONTWRITEBYTECODE =
check: lint $(VENV)/.dev node_modules/.ci catalogs
	HYPOTHESIS_PROFILE=dev $(PY) -m pytest -m "not browser and not slow" -n auto

# What the docs restate of the code (the module map, the routes, the settings: docs/restated.py), written
# again from it by cog into every page with a [[[cog ]]] line; tests/test_docs.py fails until it is.
docs: $(VENV)/.dev
	$(PY) -m cogapp -r $$(grep -l '\[\[\[cog' README.md docs/*.md)

# VS=DIR...: other checkouts of the repo (git worktree add DIR COMMIT) to time the solver beside, in CPU time.
bench: $(VENV)/.dev node_modules/.ci chromium catalogs
	$(PY) bench/vs.py $(VS)
	$(PY) bench/solver.py
	$(PY) bench/picture.py
	$(PY) bench/offline.py
	$(PY) bench/tables.py

# Hill-climb on solve time for the slowest hand the app accepts (five minutes).
worst: $(VENV)/.dev
	$(PY) bench/worst.py

# Tables of one scorekeeper and four viewers against the production recipe on loopback: a stress
# run (saves every 1-3 s, viewers polling), the same with players sending their own hands, and
# 500 tables holding live streams with a save every 20-40 s, five runs in a row and their spread.
load: $(VENV)/.dev catalogs
	$(PY) bench/load.py --tables $(TABLES) --seconds $(SECONDS)
	$(PY) bench/load.py --tables $(TABLES) --seconds $(SECONDS) --self-entry
	$(PY) bench/load.py --tables $(PUSH_TABLES) --seconds $(SECONDS) --push --runs $(PUSH_RUNS)

# Ten slow clients (a header line a second) against the production recipe while a bystander plays.
slow: $(VENV)/.dev catalogs
	$(PY) bench/slow_clients.py

# A bystander's live sheet, quiet and while other clients try to stall the server (fresh CJK pictures,
# imports by a browser keeping 400 games, stalled chunked bodies, idle streams, the solver by the API,
# round posts and 'my hand' posts, a keeper's share-link keepers, a stranger behind a keeper's address),
# three runs; then one client's 5,000 streams through Caddy against the systemd unit's settings.
stalls: $(VENV)/.dev node_modules/.ci catalogs
	$(PY) bench/stalls.py --runs 3
	$(PY) bench/hostile_client.py

# The history and the player stats of a browser keeping 500 finished 8-player games.
history: $(VENV)/.dev catalogs
	$(PY) bench/history.py

# One game followed by 1,000 phones, three times over: save to follower, and the server's memory.
crowd: $(VENV)/.dev catalogs
	$(PY) bench/crowd.py

# A server left running for months: dropped streams, slow bodies, lock waits (the endurance tests,
# on the production recipe, and a bystander's page views meanwhile), then one game followed by
# 1,000 phones and the history of 500 games.
soak: $(VENV)/.dev catalogs
	$(PY) -m pytest -p no:cacheprovider -v tests/test_endurance.py
	$(PY) bench/siege.py
	$(PY) bench/crowd.py
	$(PY) bench/history.py

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis tests/artifacts
