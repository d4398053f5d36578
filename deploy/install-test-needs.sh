#!/usr/bin/env bash
# What `make test` needs beyond Python packages, on Debian 12: one script, run by `.ci/run`
# and by `make test` (docs/development.md, "Tests").
#
#   deploy/install-test-needs.sh           install what is missing (apt-get, npm), as root or with sudo
#   deploy/install-test-needs.sh --check   print what is missing, one per line; exit 1 if anything is
#   deploy/install-test-needs.sh --auto    (make test) nothing missing: say nothing. Missing: install it
#                                          when this user may (root, or sudo without a password);
#                                          otherwise stop with one line naming the command to run.
#
# What it looks for: python3 with venv, make, a C compiler and Python's headers (the compiled
# engine), Debian's Chromium (the browser tests, driven by Playwright: no `playwright install`),
# PostgreSQL's server programs (tests start a throwaway server: tests/support/pg_server.py),
# Node.js and npm, configurable-http-proxy (JupyterHub's proxy, from npm) and axe-core (the
# accessibility checker, at the version tests/package-lock.json pins, into tests/node_modules).
set -euo pipefail

cd "$(dirname "$0")/.."
mode="${1:-install}"
case "$mode" in
  install|--install) mode=install ;;
  --check|--auto) ;;
  *) echo "usage: $0 [--check | --auto]" >&2; exit 2 ;;
esac

apt_missing=()
command -v python3 >/dev/null 2>&1 || apt_missing+=(python3)
command -v make >/dev/null 2>&1 || apt_missing+=(make)
[ -x "${TOKENS_EDU_CHROMIUM:-/usr/bin/chromium}" ] || apt_missing+=(chromium)
# Debian ships venv's pip bootstrap (ensurepip) in python3-venv: without it `python3 -m venv` fails.
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || apt_missing+=(python3-venv)
else
  apt_missing+=(python3-venv)
fi
command -v gcc >/dev/null 2>&1 || command -v cc >/dev/null 2>&1 || apt_missing+=(gcc)
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
  apt_missing+=(python3-dev)
fi
if [ -z "${TOKENS_EDU_PG_BINDIR:-}" ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  apt_missing+=(postgresql)
fi
command -v node >/dev/null 2>&1 || apt_missing+=(nodejs)
command -v npm >/dev/null 2>&1 || apt_missing+=(npm)

npm_missing=()
command -v configurable-http-proxy >/dev/null 2>&1 || npm_missing+=(configurable-http-proxy)
[ -n "${TOKENS_EDU_AXE:-}" ] || [ -f tests/node_modules/axe-core/axe.min.js ] || npm_missing+=(axe-core)

all=("${apt_missing[@]}" "${npm_missing[@]}")
if [ "$mode" = --check ]; then
  [ "${#all[@]}" -eq 0 ] && exit 0
  printf '%s\n' "${all[@]}"
  exit 1
fi
[ "${#all[@]}" -eq 0 ] && [ "$mode" = --auto ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && { [ "$mode" = install ] || sudo -n true 2>/dev/null; }; then
    SUDO="sudo"
  elif [ "${#apt_missing[@]}" -gt 0 ] || [[ " ${npm_missing[*]} " == *" configurable-http-proxy "* ]]; then
    # installing these needs root: say the one command, and stop
    echo "make test needs ${all[*]}: run 'sudo deploy/install-test-needs.sh' (or 'make test-fast', which leaves out the tests that use them)." >&2
    exit 1
  fi
fi
if [ "${#apt_missing[@]}" -gt 0 ] && ! command -v apt-get >/dev/null 2>&1; then
  echo "make test needs ${all[*]}, and this is not Debian (no apt-get): install them with this system's package manager (or run 'make test-fast')." >&2
  exit 1
fi

if [ "${#apt_missing[@]}" -gt 0 ]; then
  echo "== installing: ${apt_missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update
  $SUDO apt-get install -y -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
    "${apt_missing[@]}"
fi
if ! command -v configurable-http-proxy >/dev/null 2>&1; then
  echo "== installing configurable-http-proxy (npm)"
  $SUDO npm install -g --no-fund --no-audit configurable-http-proxy@5
fi
if [ -z "${TOKENS_EDU_AXE:-}" ] && [ ! -f tests/node_modules/axe-core/axe.min.js ]; then
  echo "== installing axe-core (npm ci --prefix tests)"
  npm ci --prefix tests --no-fund --no-audit
fi

left="$("$0" --check || true)"
if [ -n "$left" ]; then
  echo "Still missing after the install: $(echo "$left" | tr '\n' ' ')" >&2
  exit 1
fi
echo "== everything make test needs is here: $(configurable-http-proxy --version 2>/dev/null | head -n 1 | sed 's/^/configurable-http-proxy /'), $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | head -n 1)"
