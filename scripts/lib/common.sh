# Shared by scripts/run and scripts/test: a project virtualenv kept in step with the pins.
# shellcheck shell=bash

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${LINEUP_VENV:-$ROOT/.venv}"
PY="$VENV/bin/python"

log() { printf '\033[1m[lineup]\033[0m %s\n' "$*" >&2; }

# ensure_venv REQUIREMENTS_FILE: create the venv if needed and (re)install when the pins changed.
ensure_venv() {
    local requirements="$1" stamp digest
    if [ ! -x "$PY" ]; then
        log "creating virtualenv in $VENV"
        python3 -m venv "$VENV"
        "$PY" -m pip install --quiet --upgrade pip
    fi
    digest="$(cat "$ROOT"/requirements*.txt | sha256sum | cut -c1-16)"
    stamp="$VENV/.lineup-installed-$(basename "$requirements" .txt)"
    if [ "$(cat "$stamp" 2>/dev/null)" != "$digest" ]; then
        log "installing $(basename "$requirements") into $VENV"
        "$PY" -m pip install --quiet -r "$ROOT/$requirements"
        echo "$digest" > "$stamp"
    fi
}
