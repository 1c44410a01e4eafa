#!/bin/sh
# The image's dependencies, pinned with their hashes: deploy/requirements.lock, resolved from
# pyproject.toml for CPython 3.11 on Linux (the image's base) by uv (pip install uv).
#
#   deploy/lock.sh             write the lock again; the pins it has are kept where they still fit
#   deploy/lock.sh -U          the same, every package at its newest version that fits
#   deploy/lock.sh --check     exit 1 when the lock does not match pyproject.toml (.ci/run)
#
# Environment: UV, the uv command (default: uv on PATH).
set -eu
cd "$(dirname "$0")/.."
uv="${UV:-uv}"
lock=deploy/requirements.lock
compile() {
    "$uv" pip compile pyproject.toml --quiet --generate-hashes --python-version 3.11 \
        --python-platform linux --custom-compile-command "deploy/lock.sh" "$@"
}
if [ "${1:-}" = "--check" ]; then
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    cp "$lock" "$tmp/requirements.lock"
    compile -o "$tmp/requirements.lock"
    if ! diff -u "$lock" "$tmp/requirements.lock"; then
        echo "deploy/requirements.lock does not match pyproject.toml: run deploy/lock.sh and commit it" >&2
        exit 1
    fi
    echo "deploy/requirements.lock matches pyproject.toml"
else
    compile -o "$lock" "$@"
fi
