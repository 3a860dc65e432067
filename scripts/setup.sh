#!/usr/bin/env bash
# Installs the system packages Bullseye needs, only when something is missing.
# Needs: cairo, libpng, libjpeg-turbo, libheif and SQLite headers (pkg-config), zlib, and the fonts overlays use.
set -euo pipefail

missing=()
pkg-config --exists cairo 2>/dev/null || missing+=(libcairo2-dev)
pkg-config --exists libpng 2>/dev/null || missing+=(libpng-dev)
pkg-config --exists libturbojpeg 2>/dev/null || missing+=(libturbojpeg0-dev)   # JPEG photos
pkg-config --exists libheif 2>/dev/null || missing+=(libheif-dev)   # HEIC photos (iPhone)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)   # GRDB links the system SQLite
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
[ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)   # Testees/java-android
if ! command -v python3 >/dev/null 2>&1; then missing+=(python3 python3-venv)   # Testees/python-archeryutils
elif ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then missing+=(python3-venv); fi  # Debian splits venv out
if ! command -v fc-list >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -q "DejaVu Sans"; then missing+=(fonts-dejavu-core fontconfig); fi
if ! command -v fc-list >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -qi "WenQuanYi Micro Hei"; then missing+=(fonts-wqy-microhei); fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: system packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
