# Bullseye: the two commands README promises.
#   make verify — set up, build release, run the main job over Scenarios/
#   make test   — set up, then the whole test suite
SWIFT ?= swift
BIN := .build/release/bullseye

.PHONY: setup build verify test test-browser conform detector-floor bench fuzz clean gallery compare-models bench-inference

setup:
	@bash scripts/setup.sh

build: setup
	$(SWIFT) build -c release --product bullseye

verify: build
	$(BIN) verify --jobs 2

test: setup
	$(SWIFT) test

# verify's review page in headless Chromium (installed when missing): no
# console errors, and the first scenario on the page is the failing one.
test-browser: build
	bash scripts/test-browser.sh $(BIN)

# Reference testees (Testees/) against the built-in conformance suite, each
# profile declaring what its code does (must pass) and its documented intent
# (must fail; the classification is written to Testees/<name>/REPORT.md).
conform: build
	bash scripts/conform.sh

# The shipped detectors may not fall below the figures Models/README.md and
# README state for these exact commands, minus a margin of 0.02 on each.
FLOOR_MARGIN_NOTE := recall/precision/scored-right floors = stated figures − 0.02
detector-floor: build
	@echo "== arrow-detector + arrow-refiner ($(FLOOR_MARGIN_NOTE))"
	$(BIN) eval archery --images 30 --seed 7000000 --refiner Models/arrow-refiner.onnx --floor recall=0.907,precision=0.833,scored=0.893
	@echo "== arrow-detector alone"
	$(BIN) eval archery --images 30 --seed 7000000 --floor recall=0.893,precision=0.686,scored=0.827
	@echo "== arrow-detector alone, realistic scenes"
	$(BIN) eval archery --images 30 --seed 7000000 --style realistic --floor recall=0.727,precision=0.534,scored=0.613
	@echo "== arrow-detector + arrow-refiner under --profile best, realistic scenes"
	$(BIN) eval archery --images 30 --seed 7000000 --style realistic --profile best --floor recall=0.740,precision=0.651,scored=0.680
	@echo "== the same at a phone camera's 12 megapixels (the locator on big faces)"
	$(BIN) eval archery --images 30 --seed 7000000 --style realistic --profile best --size 4032x3024 --floor recall=0.860,precision=0.766,scored=0.840
	@echo "== the same with the look along the shafts (--shaft-check on)"
	$(BIN) eval archery --images 30 --seed 7000000 --style realistic --profile best --size 4032x3024 --shaft-check on --floor recall=0.820,precision=0.820,scored=0.793

bench: build
	$(BIN) bench synth --size 1280x960 --arrows 6 --repeat 5
	$(BIN) bench scoring --points 5000000
	$(BIN) bench conform --repeat 3

clean:
	rm -rf .build Renders/*

# The README's picture, regenerated from its scenario into a tracked folder
# that `make clean` leaves alone.
gallery: build
	$(BIN) render Scenarios/archery/photo-tilt-20-rot-15.yaml --out .build/gallery
	mkdir -p docs/gallery
	cp .build/gallery/photo-tilt-20-rot-15/overlay-ios.png docs/gallery/photo-tilt-20-overlay.png

# Coverage-guided fuzzing (libFuzzer through swiftc -sanitize=fuzzer): each
# target runs FUZZ_SECONDS; crashes land in .build-fuzz/crashes/<target>/ and
# become files in Tests/BadInputs (replayed by `make test`). Any crash fails
# the target (exit status kept, never swallowed by the log filter).
FUZZ_SECONDS ?= 60
FUZZ_SEED ?= 1
FUZZ_FLAGS := -c release --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xcc -fsanitize=fuzzer-no-link -Xcc -DFUZZING -Xswiftc -use-ld=lld
fuzz: setup
	@for t in FuzzPNG FuzzONNX FuzzScenario; do \
	  $(SWIFT) build $(FUZZ_FLAGS) --product $$t || exit 1; \
	done
	@status=0; for t in png:FuzzPNG onnx:FuzzONNX scenario:FuzzScenario; do \
	  kind=$${t%%:*}; bin=$${t##*:}; mkdir -p .build-fuzz/corpus/$$kind .build-fuzz/crashes/$$bin; \
	  cp -n Tests/FuzzCorpus/$$kind/* .build-fuzz/corpus/$$kind/ 2>/dev/null; \
	  echo "== $$bin for $(FUZZ_SECONDS) s"; \
	  .build-fuzz/release/$$bin .build-fuzz/corpus/$$kind -max_total_time=$(FUZZ_SECONDS) -seed=$(FUZZ_SEED) -max_len=65536 \
	    -artifact_prefix=.build-fuzz/crashes/$$bin/ -print_final_stats=1 >.build-fuzz/$$bin.log 2>&1; rc=$$?; \
	  grep -E "stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY|Done" .build-fuzz/$$bin.log; \
	  if [ $$rc -ne 0 ]; then echo "FAILED: $$bin exited $$rc; crash inputs in .build-fuzz/crashes/$$bin/, log .build-fuzz/$$bin.log"; status=1; fi; \
	done; exit $$status

# Real models (issue 3): YOLOv8n/YOLO11n built from Ultralytics yaml with random
# init (AGPL: exported into .build-models/, never committed) and torchvision
# MobileNetV3-small, run in onnxruntime and `bullseye model run`.
#   make compare-models  — accuracy vs onnxruntime, 1t/2t byte-identity (fails on any miss)
#   make bench-inference — ms/image at 1 and 2 threads, ours next to onnxruntime, every shipped model too, with the inference bars
PYTHON ?= python3.11
MODELS_VENV := .build-models/venv
MODELS_PY := $(MODELS_VENV)/bin/python

$(MODELS_PY): Training/inference/requirements-compare.txt
	$(PYTHON) -m venv $(MODELS_VENV)
	$(MODELS_VENV)/bin/pip install -q -r Training/inference/requirements-compare.txt
	touch $(MODELS_PY)

compare-models: build $(MODELS_PY)
	$(MODELS_PY) Training/inference/compare_models.py

bench-inference: build $(MODELS_PY)
	$(MODELS_PY) Training/inference/bench_inference.py --passes 5 --repeat 20
