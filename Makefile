# Bullseye: the two commands README promises.
#   make verify — set up, build release, run the main job over Scenarios/
#   make test   — set up, then the whole test suite
SWIFT ?= swift
BIN := .build/release/bullseye

.PHONY: setup build verify test bench clean

setup:
	@bash scripts/setup.sh

build: setup
	$(SWIFT) build -c release --product bullseye

verify: build
	$(BIN) verify --jobs 2

test: setup
	$(SWIFT) test

bench: build
	$(BIN) bench synth --size 1280x960 --arrows 6 --repeat 5
	$(BIN) bench scoring --points 5000000

clean:
	rm -rf .build Renders/*
