# Two commands for a fresh machine (see README):
#   make serve  set up, then start the game server (SQLite in your data directory) and
#               print the address of the lobby (opened in a browser where there is one)
#   make test   set up, then run every test: lint, format, types (Python and the browser
#               code), rules, bots, adapters, server (SQLite and PostgreSQL), browser tables
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin

.PHONY: runtime setup web-setup serve play demo test bench loadtest soak dist release clean

# What serving and playing need: the package and its runtime dependencies only.
$(BIN)/.runtime: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e .
	touch $@

# PyTorch's CPU build for the training example (examples/train_maskable_ppo.py): a
# pinned version from PyTorch's CPU index, never the default build with its gigabytes of
# CUDA. Where neither answers, the example's test says it is skipped and why.
TORCH_CPU ?= 2.13.0+cpu
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu

# What the tests need besides: the development tools, both adapters' extras and the
# training example's libraries.
$(BIN)/.installed: $(BIN)/.runtime pyproject.toml
	$(BIN)/pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,openspiel,pettingzoo]'
	$(BIN)/pip install --quiet "torch==$(TORCH_CPU)" --extra-index-url $(TORCH_INDEX) \
	  && $(BIN)/pip install --quiet -e '.[rl]' \
	  || echo "setup: PyTorch $(TORCH_CPU) is not to be had here; the training example's test will be skipped"
	touch $@

runtime: $(BIN)/.runtime
setup: $(BIN)/.installed

# The pinned TypeScript that checks the browser code's types (tests/web/test_types.py).
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

web-setup: node_modules/.installed

serve: runtime
	$(BIN)/euphrates serve --open $(ARGS)

# the terminal game: a new game with a fresh seed each time; `make play ARGS=--resume`
# continues the last one
play: NEW_GAME = board --players 3 --bots intermediate,beginner
play: runtime
	$(BIN)/euphrates play $(or $(ARGS),$(NEW_GAME))

demo: runtime
	$(BIN)/euphrates demo board --players 3 --seed 7

# Three workers on two cores: most tests wait on servers, sockets and browsers, so with
# two the machine's second core sat idle about half the run (README, *Two commands*).
test: setup web-setup
	$(BIN)/pytest -n 3 -q --durations=25

bench: setup
	$(BIN)/euphrates bench board --players 4 --games 200 --seed 1
	$(BIN)/euphrates bench board --players 2 --games 200 --seed 1

loadtest: runtime
	$(BIN)/euphrates loadtest --games 200 --seconds 30

soak: setup web-setup
	$(BIN)/pytest -n 2 -q --soak -m soak

# A release, each kind in a folder of its own so that `pip install <folder>/*.whl` finds
# one wheel: dist/sdist (the source), dist/pure (the pure-Python wheel, any platform) and
# dist/manylinux (the wheel with the engines compiled by mypyc, repaired by auditwheel
# to a manylinux tag a package index accepts), all passing `twine check`. Publishing
# is then `twine upload dist/*/*`. The wheels are built from the sdist, as an index's
# users would. `release` is the steps alone (tests/test_package.py runs them).
DIST ?= dist
dist: setup
	$(MAKE) --no-print-directory release DIST=$(DIST)

release:
	rm -rf $(DIST)
	mkdir -p $(DIST)/sdist $(DIST)/pure $(DIST)/manylinux $(DIST)/.compiled
	$(BIN)/python -m build --sdist --no-isolation --outdir $(DIST)/sdist .
	EUPHRATES_PURE=1 $(BIN)/python -m build --wheel --no-isolation --outdir $(DIST)/pure $(DIST)/sdist/euphrates-*.tar.gz
	EUPHRATES_PURE=0 $(BIN)/python -m build --wheel --no-isolation --outdir $(DIST)/.compiled $(DIST)/sdist/euphrates-*.tar.gz
	PATH="$(abspath $(BIN)):$$PATH" $(BIN)/auditwheel repair --wheel-dir $(DIST)/manylinux $(DIST)/.compiled/euphrates-*.whl
	rm -rf $(DIST)/.compiled
	$(BIN)/twine check --strict $(DIST)/sdist/* $(DIST)/pure/* $(DIST)/manylinux/*
	$(BIN)/auditwheel show $(DIST)/manylinux/*.whl

clean:
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis
