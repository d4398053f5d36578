# Tokens TCG teaching kit. Two commands:
#   make serve   serve the lessons to a class (http://127.0.0.1:8866/); installs only what serving needs
#   make test    build .venv if needed, then run the whole test suite and the notebook smoke test
#   make lab     (for students who code) JupyterLab on notebooks/ with the project's kernel
# make test first runs deploy/install-test-needs.sh --auto: what the tests need beyond Python
# (Chromium, PostgreSQL, configurable-http-proxy, axe-core) is installed when missing, or make
# stops with one line naming the command. A test whose tool is missing fails; it never skips.
# Also: make test-fast (unit tests only, about 2 minutes), make teacher (the teacher dashboard),
# make bench (benchmarks/*.py), make build (compile the engine core again, e.g. after changing
# it), make clean (remove .venv and build leftovers).
# The engine core is compiled with mypyc when .venv is built (about a minute, see docs/development.md);
# without a C compiler it installs as pure Python and says so. TOKENS_EDU_PURE_PYTHON=1 runs
# the pure-Python engine instead of the compiled one (same games).
# Options: make serve SERVE_ARGS="--today 03 --data-dir /srv/answers"

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# What each command installed: serving only (`make serve`), + JupyterLab and plots (`make lab`),
# + everything the tests need (`make test`).
SERVE_STAMP := $(VENV)/.installed-serve
LAB_STAMP   := $(VENV)/.installed-lab
STAMP       := $(VENV)/.installed-test
BUILT       := $(VENV)/.compiled
NOTEBOOK_DIRS := lessons notebooks
comma := ,
# The compiled engine core's sources (tokens_edu/_compiled.py lists them): when one changes,
# make test and make serve compile it again first.
COMPILED_SOURCES := $(shell $(PYTHON) tokens_edu/_compiled.py 2>/dev/null)
# The tests that run twice in make test: compiled, then with TOKENS_EDU_PURE_PYTHON=1.
ENGINE_TESTS := tests/engine tests/players
# pytest-xdist: TEST_WORKERS processes (auto: one per core). A module's tests run on one worker
# (--dist loadscope), so a module's server, browser or build is made once. (--dist loadgroup
# did not keep xdist_group marks together with pytest 9 and xdist 3.8: a module fixture ran on
# both workers.) TEST_WORKERS=0 runs everything in this one process.
TEST_WORKERS ?= auto
XDIST := -n $(TEST_WORKERS) --dist loadscope
# The slowest tests, listed at the end of each run.
DURATIONS := --durations=25 --durations-min=10
SERVE_ARGS ?=
LAB_ARGS ?=
TEACHER_ARGS ?=

.PHONY: all venv build test test-needs test-fast test-unit test-engine-pure test-notebooks lint-imports serve lab teacher bench clean

all: test

venv: $(STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV)

# One pip call for the package and the extras a command needs, so Voila, ipywidgets (and
# JupyterLab) are resolved together (mismatched versions are the usual cause of widgets not
# showing in Voila). Then register this venv's Python as the "python3" kernel inside the venv,
# so lessons run here and not in some other Python on the machine. The install compiles the
# engine core (setup.py); TOKENS_EDU_PURE_PYTHON chooses the engine at run time, so it is unset here.
define install
	env -u TOKENS_EDU_PURE_PYTHON $(PY) -m pip install --disable-pip-version-check -e '.$(1)'
	$(PY) -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (tokens-edu)"
	@$(PY) -c "import tokens_edu, tokens_edu._compiled as c; print('tokens-edu', tokens_edu.__version__, '-', c.describe())"
	touch $(BUILT) $@
endef

$(SERVE_STAMP): pyproject.toml setup.py | $(PY)
	$(call install,)

$(LAB_STAMP): pyproject.toml setup.py | $(PY)
	$(call install,[lab$(comma)rl])

$(STAMP): pyproject.toml setup.py | $(PY)
	$(call install,[test])
	touch $(SERVE_STAMP) $(LAB_STAMP)

# The engine core again, when one of its sources changed since it was compiled (the first
# install above compiled it already and touched this stamp: then nothing is newer).
$(BUILT): $(COMPILED_SOURCES)
	@if [ ! -e $@ ] || [ -n "$$(find $(COMPILED_SOURCES) -newer $@)" ]; then \
	  echo "env -u TOKENS_EDU_PURE_PYTHON $(PY) -m pip install --no-deps -e ."; \
	  env -u TOKENS_EDU_PURE_PYTHON $(PY) -m pip install --disable-pip-version-check --no-deps -e . && \
	  $(PY) -c "import tokens_edu, tokens_edu._compiled as c; print('tokens-edu', tokens_edu.__version__, '-', c.describe())"; \
	fi
	touch $@

# TOKENS_EDU_REBUILD=1: compile even when the in-place build is of these very sources (setup.py).
build: $(SERVE_STAMP)
	rm -f $(BUILT)
	TOKENS_EDU_REBUILD=1 $(MAKE) $(BUILT)

test: test-needs test-unit test-engine-pure test-notebooks

# What the tests need beyond Python (the same script .ci/run runs): nothing missing, nothing said.
test-needs:
	@deploy/install-test-needs.sh --auto

# pytest's exit code 5 ("no tests collected") fails make like any other non-zero code.
test-unit: test-needs $(STAMP) $(BUILT)
	$(PY) -m pytest tests $(XDIST) $(DURATIONS)

# The engine and bot tests again on the pure-Python engine: both must play the same games.
test-engine-pure: $(STAMP) $(BUILT)
	TOKENS_EDU_PURE_PYTHON=1 $(PY) -m pytest $(ENGINE_TESTS) $(XDIST) $(DURATIONS)

# The unit tests only (no browser, no PostgreSQL, no JupyterHub, no servers or notebooks): a
# couple of minutes, for while you work, and without the tools deploy/install-test-needs.sh
# installs. `make test` still runs everything.
test-fast: $(STAMP) $(BUILT)
	$(PY) -m pytest tests -m "not browser and not postgres and not hub and not slow" $(XDIST)

# The layers' import contracts (pyproject.toml, [tool.importlinter]); also run by the tests.
lint-imports: $(STAMP)
	$(VENV)/bin/lint-imports

# Every lesson and notebook must run top to bottom (nbval-lax: cells may not raise; outputs are
# not compared). Answers saved by the notebooks go to a throwaway folder.
test-notebooks: $(STAMP) $(BUILT)
	@dirs=""; for d in $(NOTEBOOK_DIRS); do \
	  if [ -n "$$(find $$d -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' 2>/dev/null | head -n 1)" ]; then dirs="$$dirs $$d/"; fi; \
	done; \
	if [ -z "$$dirs" ]; then echo "No notebooks in $(NOTEBOOK_DIRS) yet: notebook smoke test not run."; exit 0; fi; \
	data=$$(mktemp -d); trap 'rm -rf "$$data"' EXIT; \
	echo "TOKENS_EDU_DATA=$$data $(PY) -m pytest --nbval-lax --nbval-current-env$$dirs"; \
	env -u JUPYTERHUB_USER -u TOKENS_EDU_DB_URL TOKENS_EDU_DATA="$$data" $(PY) -m pytest --nbval-lax --nbval-current-env \
	  -n $(TEST_WORKERS) --dist loadscope $(DURATIONS) $$dirs

serve: $(SERVE_STAMP) $(BUILT)
	$(VENV)/bin/tokens-edu serve $(SERVE_ARGS)

# JupyterLab on the notebooks folder; the "python3" kernel is this venv's (see $(STAMP)).
# Options go in LAB_ARGS, e.g. make lab LAB_ARGS="--no-browser --port 8890". As root (a
# container), JupyterLab refuses to start without --allow-root, so it is added then.
LAB_ROOT := $(if $(filter 0,$(shell id -u 2>/dev/null)),--allow-root)
lab: $(LAB_STAMP) $(BUILT)
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks $(LAB_ROOT) $(LAB_ARGS)

# The teacher dashboard (answers, progress, answer wall, games) at http://127.0.0.1:8867/
# Options: make teacher TEACHER_ARGS="--data-dir /srv/answers"
teacher: $(SERVE_STAMP) $(BUILT)
	$(VENV)/bin/tokens-edu teacher $(TEACHER_ARGS)

bench: $(STAMP) $(BUILT)
	@set -e; for f in benchmarks/*.py; do echo "== $$f"; $(PY) "$$f"; done

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis tokens_edu/_compiled.json
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find tokens_edu -name '*.so' -delete
